"""Hex arithmetic: ids, neighbours, distance, hexsides, directions and rings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiev_tui.engine.hexes import Direction, H, Hex, HexError, Hexside, hexside

hexes = st.builds(Hex, st.integers(1, 40), st.integers(1, 40))


def test_parse_and_format_round_trip() -> None:
    assert str(H("0319")) == "0319"
    assert H("0319") == Hex(3, 19)
    assert Hex(12, 5).id == "1205"


@pytest.mark.parametrize("bad", ["319", "03190", "ab19", "0019", "0300", "", "03-19"])
def test_bad_ids_are_refused(bad: str) -> None:
    with pytest.raises(HexError):
        H(bad)


def test_neighbours_odd_column() -> None:
    # Odd columns sit half a hex higher than even ones.
    assert [str(h) for h in H("0305").neighbours()] == ["0304", "0404", "0405", "0306", "0205", "0204"]


def test_neighbours_even_column() -> None:
    assert [str(h) for h in H("0405").neighbours()] == ["0404", "0505", "0506", "0406", "0306", "0305"]


def test_neighbours_at_the_map_corner_include_off_map_ids() -> None:
    # Off-map neighbours are still computed; the map filters them.
    assert H("0101").step(Direction.SE) == H("0201")
    assert H("0101").step(Direction.N) == Hex(1, 0)


def test_distance_examples() -> None:
    assert H("0101").distance(H("0101")) == 0
    assert H("0101").distance(H("0201")) == 1
    assert H("0101").distance(H("0301")) == 2
    assert H("0101").distance(H("0110")) == 9
    assert H("0319").distance(H("2302")) == 27


def test_hexside_is_unordered_and_parses_book_notation() -> None:
    assert Hexside.parse("2401/2302") == hexside("2302", "2401")
    assert str(Hexside.parse("2432-2433")) == "2432/2433"
    with pytest.raises(HexError):
        Hexside.parse("0101/0303")


def test_direction_between_adjacent_hexes() -> None:
    assert H("0305").direction_to(H("0405")) == Direction.SE
    assert H("0405").direction_to(H("0305")) == Direction.NW
    with pytest.raises(ValueError):
        H("0101").direction_to(H("0505"))


def test_rings() -> None:
    assert H("0505").ring(0) == [H("0505")]
    assert sorted(H("0505").ring(1)) == sorted(H("0505").neighbours())
    assert len(H("0505").ring(4)) == 24
    assert all(H("0505").distance(h) == 3 for h in H("0505").ring(3))


@given(hexes, hexes)
def test_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)


@given(hexes)
def test_neighbours_are_at_distance_one_and_step_back(a: Hex) -> None:
    for d in Direction:
        n = a.step(d)
        assert a.distance(n) == 1
        assert n.step(d.opposite) == a


@given(hexes, hexes, hexes)
def test_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes)
def test_axial_round_trip(a: Hex) -> None:
    assert Hex.from_axial(*a.axial) == a

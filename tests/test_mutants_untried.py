"""Untried Soviet counters (13.0, 13.1, 19.6): reading the pool of faces from units.toml and
giving each drawn reinforcement its counter id, with every refusal naming its key and reason.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.scenario import Reinforcement
from kiev_tui.engine.tomlio import Reader
from kiev_tui.engine.units import UnitCatalog, UnitDef
from kiev_tui.games.spi_kiev import untried as T
from kiev_tui.games.spi_kiev.untried import UntriedFace, UntriedPool, UntriedType

TYPES = {"rifle": {"ma": 6, "size": "XX"}, "armor": {"ma": 8, "size": "X", "mechanized": True, "note": "tanks"}}
FACES = [{"draw": "rifle", "type": "rifle", "size": "XX", "designation": "201", "attack": 3, "defense": 2, "ma": 6},
         {"id": "so-u-204", "draw": "armor", "type": "tank", "designation": "204", "attack": 4, "defense": 3, "ma": 8,
          "asterisk": True, "reconstructed": True, "note": "rebuilt"}]


def read(data: dict[str, Any]) -> UnitCatalog:
    cat = UnitCatalog({})
    T.read_units(Reader("units.toml", data), cat)
    return cat


def refusal(data: dict[str, Any]) -> tuple[str, str, str]:
    with pytest.raises(DataError) as err:
        read(data)
    return err.value.file, err.value.key, err.value.reason


# -- read_units (13.0, 19.6) ----------------------------------------------------------------------

def test_13_0_the_pool_holds_every_face_and_what_each_pile_shows() -> None:
    p = T.pool(read({"untried_types": dict(TYPES, cavalry={"ma": 8}), "untried": FACES}))
    # A pile without a size shows none, and is not mechanized unless it says so.
    assert p.types == {"rifle": UntriedType("rifle", 6, "XX", False), "armor": UntriedType("armor", 8, "X", True),
                       "cavalry": UntriedType("cavalry", 8, "", False)}
    # A face without an id is named after its pile and designation; the optional fields default off.
    assert p.faces == {"rifle-201": UntriedFace("rifle-201", "rifle", "rifle", "XX", "201", 3, 2, 6, False, False),
                       "so-u-204": UntriedFace("so-u-204", "armor", "tank", "", "204", 4, 3, 8, True, True)}
    assert p.draw_of == {}
    assert [f.id for f in p.faces_of("armor")] == ["so-u-204"]
    assert [f.id for f in p.faces_of("rifle")] == ["rifle-201"]
    assert p.faces_of("cavalry") == []


def test_13_0_a_units_file_without_untried_tables_gives_an_empty_pool() -> None:
    p = T.pool(read({}))
    assert (p.faces, p.types, p.draw_of) == ({}, {}, {})


def test_13_0_an_unknown_draw_pile_is_refused() -> None:
    assert refusal({"untried_types": {"infantry": {"ma": 6}}}) == \
        ("units.toml", "untried_types.infantry", "unknown draw type (expected rifle, cavalry, armor)")


def test_13_0_a_pile_table_with_an_unknown_key_is_refused() -> None:
    assert refusal({"untried_types": {"rifle": {"ma": 6, "speed": 3}}}) == \
        ("units.toml", "untried_types.rifle.speed", "unknown key (expected one of: ma, mechanized, note, size)")


def test_13_0_a_face_with_an_unknown_key_is_refused() -> None:
    face = dict(FACES[0], colour="red")
    assert refusal({"untried_types": TYPES, "untried": [face]})[1:] == (
        "untried[0].colour", "unknown key (expected one of: asterisk, attack, defense, designation, draw, id, ma, "
        "note, reconstructed, size, type)")


def test_13_0_a_face_of_a_pile_with_no_table_is_refused() -> None:
    face = dict(FACES[0], draw="cavalry")
    assert refusal({"untried_types": TYPES, "untried": [face]})[1:] == (
        "untried[0].draw", "draw type 'cavalry' has no [untried_types.cavalry] table")


def test_13_0_a_face_must_be_a_soviet_unit_type() -> None:
    face = dict(FACES[0], type="panzer")
    assert refusal({"untried_types": TYPES, "untried": [FACES[1], face]})[1:] == (
        "untried[1].type", "'panzer' is not a Soviet unit type")


def test_13_0_a_face_listed_twice_is_refused() -> None:
    assert refusal({"untried_types": TYPES, "untried": [FACES[0], FACES[1], FACES[0]]})[1:] == (
        "untried[2].id", "untried face 'rifle-201' is listed twice")


# -- counter ids and placeholders (13.1) ----------------------------------------------------------

def test_13_1_a_drawn_counter_id_names_side_turn_pile_and_number() -> None:
    assert T.untried_id("soviet", 3, "rifle", 2) == "so-t03-rifle-2"
    assert T.untried_id("german", 12, "armor", 1) == "ge-t12-armor-1"


def test_13_0_a_catalog_read_without_the_tables_has_an_empty_pool_kept_in_the_catalog() -> None:
    cat = UnitCatalog({})
    p = T.pool(cat)
    assert p == UntriedPool()
    assert cat.extra[T.UNTRIED] is p
    assert T.pool(cat) is p


def scenario(reinforcements: list[Reinforcement], units: dict[str, UnitDef] | None = None) -> SimpleNamespace:
    cat = read({"untried_types": TYPES, "untried": FACES + [dict(FACES[0], designation="202")]})
    cat.units.update(units or {})
    return SimpleNamespace(path=Path("mini.toml"), catalog=cat, reinforcements=reinforcements)


def test_13_1_every_drawn_reinforcement_gets_a_counter_of_its_pile() -> None:
    s = scenario([Reinforcement("soviet", 1, ("K",), ("so-hq",), (("rifle", 2),)),
                  Reinforcement("german", 2, ("A",), ("ge-inf",)),
                  Reinforcement("soviet", 4, ("K", "L"), (), (("armor", 1), ("rifle", 0)))])
    T.add_placeholders(s)  # type: ignore[arg-type]
    assert s.reinforcements == [Reinforcement("soviet", 1, ("K",), ("so-hq", "so-t01-rifle-1", "so-t01-rifle-2")),
                                Reinforcement("german", 2, ("A",), ("ge-inf",)),
                                Reinforcement("soviet", 4, ("K", "L"), ("so-t04-armor-1",))]
    assert s.catalog.units == {
        "so-t01-rifle-1": UnitDef(id="so-t01-rifle-1", side="soviet", type="rifle", size="XX", designation="untried rifle",
                                  division="", steps=((0, 0),), ma=6, mechanized=False),
        "so-t01-rifle-2": UnitDef(id="so-t01-rifle-2", side="soviet", type="rifle", size="XX", designation="untried rifle",
                                  division="", steps=((0, 0),), ma=6, mechanized=False),
        "so-t04-armor-1": UnitDef(id="so-t04-armor-1", side="soviet", type="tank", size="X", designation="untried armor",
                                  division="", steps=((0, 0),), ma=8, mechanized=True)}
    assert T.pool(s.catalog).draw_of == {"so-t01-rifle-1": "rifle", "so-t01-rifle-2": "rifle", "so-t04-armor-1": "armor"}


def placeholder_refusal(s: SimpleNamespace) -> tuple[str, str, str]:
    with pytest.raises(DataError) as err:
        T.add_placeholders(s)  # type: ignore[arg-type]
    return err.value.file, err.value.key, err.value.reason


def test_13_1_a_draw_from_a_pile_units_toml_lacks_is_refused() -> None:
    s = scenario([Reinforcement("soviet", 1, ("K",), (), (("rifle", 1),)),
                  Reinforcement("soviet", 2, ("K",), (), (("armor", 1), ("cavalry", 1)))])
    assert placeholder_refusal(s) == ("mini.toml", "reinforcement[1].draw.cavalry", "no untried draw type 'cavalry'")


def test_13_1_more_draws_than_faces_are_refused_and_exactly_as_many_are_fine() -> None:
    # Two rifle faces are in the pool: two draws fit, three do not.
    s = scenario([Reinforcement("soviet", 1, ("K",), (), (("rifle", 1),)),
                  Reinforcement("soviet", 3, ("K",), (), (("rifle", 2),))])
    assert placeholder_refusal(s) == ("mini.toml", "reinforcement", "3 untried rifle units are due but the pool holds 2 faces")
    s = scenario([Reinforcement("soviet", 1, ("K",), (), (("rifle", 1),)),
                  Reinforcement("soviet", 3, ("K",), (), (("rifle", 1), ("armor", 1)))])
    T.add_placeholders(s)  # type: ignore[arg-type]
    assert [r.units for r in s.reinforcements] == [("so-t01-rifle-1",), ("so-t03-rifle-1", "so-t03-armor-1")]


def test_13_1_a_draw_that_would_replace_a_real_counter_is_refused() -> None:
    real = UnitDef(id="so-t02-rifle-2", side="soviet", type="rifle", size="XX", designation="77", division="",
                   steps=((3, 3),), ma=6)
    s = scenario([Reinforcement("soviet", 1, ("K",), ("so-hq",)),
                  Reinforcement("soviet", 2, ("K",), (), (("rifle", 2),))], {real.id: real})
    assert placeholder_refusal(s) == (
        "mini.toml", "reinforcement[1].draw.rifle",
        "unit id 'so-t02-rifle-2' of units.toml is the id this draw gives its untried unit 2; rename the unit")
    assert s.catalog.units["so-t02-rifle-2"] is real


def test_13_1_a_drawn_reinforcement_keeps_its_entry_hexes_and_game_keys() -> None:
    from kiev_tui.engine.hexes import H
    r = Reinforcement("soviet", 3, (), ("so-hq",), (("rifle", 1),), (H("0806"), H("0905")), {"note_x": 1})
    s = scenario([r])
    T.add_placeholders(s)  # type: ignore[arg-type]
    (got,) = s.reinforcements
    assert got == Reinforcement("soviet", 3, (), ("so-hq", "so-t03-rifle-1"), (), (H("0806"), H("0905")))
    assert got.extra == {"note_x": 1}

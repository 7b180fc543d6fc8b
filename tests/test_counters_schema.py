"""Counters the schema describes (issue 30): named factors per step, statuses, layers, hex markers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.rules import Counters, HexMarker, Layer
from kiev_tui.engine.units import load_units
from kiev_tui.games.barbarossa1941 import units as bu
from kiev_tui.games.barbarossa1941.data import DATA as B41
from tests.tiny_game import SCHEMA

ROOT = Path(__file__).resolve().parents[1]
# An EFS-like counter: attack and defence from the steps pairs, movement and stacking points written.
EFS_LIKE = Counters(factors=("attack", "defence", "movement", "stacking"), step_factors=("attack", "defence"),
                    statuses=("cadre", "air_ready", "air_flown"),
                    layers=(Layer("ground"), Layer("air", stacks=False, exerts_zoc=False,
                                                   statuses=("air_ready", "air_flown"))),
                    type_layers={"infantry": "ground"}, hex_markers=(HexMarker("out_of_supply", "!"),))


@dataclasses.dataclass
class Data:
    id: str = "tiny"
    schema: object = dataclasses.replace(SCHEMA, counters=EFS_LIKE)


UNIT = '''[[unit]]
id = "a1"
side = "axis"
type = "infantry"
designation = "1"
steps = [[4, 5], [2, 3]]
ma = 6
{extra}
'''


def units(tmp_path: Path, extra: str, data: Data | None = None) -> object:
    path = tmp_path / "units.toml"
    path.write_text(UNIT.format(extra=extra), encoding="utf-8")
    return load_units(path, data or Data())


def test_each_unit_carries_every_declared_factor_per_step(tmp_path: Path) -> None:
    cat = units(tmp_path, 'factors = { movement = [6, 4], stacking = [2, 1] }\nlayer = "air"')
    u = cat.units["a1"]
    assert dict(u.factors) == {"attack": (4, 2), "defence": (5, 3), "movement": (6, 4), "stacking": (2, 1)}
    assert [u.factor("movement", s) for s in (0, 1, 5)] == [6, 4, 4]
    assert u.layer == "air"
    assert units(tmp_path, 'factors = { movement = [6, 4], stacking = [2, 1] }').units["a1"].layer == "ground"


@pytest.mark.parametrize("extra, key, reason", [
    ('factors = { movement = [6, 4] }', "unit[0].factors", "no 'stacking' factor"),
    ('', "unit[0].factors", "no 'movement' factor"),
    ('factors = { movement = [6, 4], stacking = [2, 1], supply = [1, 1] }', "unit[0].factors.supply",
     "not a factor of this game"),
    ('factors = { movement = [6, 4], stacking = [2, 1], attack = [1, 1] }', "unit[0].factors.attack",
     "comes from steps"),
    ('factors = { movement = [6], stacking = [2, 1] }', "unit[0].factors.movement", "1 entries for 2 step(s)"),
    ('factors = { movement = [6, -1], stacking = [2, 1] }', "unit[0].factors.movement", "whole number >= 0"),
    ('factors = { movement = [6, 4], stacking = [2, 1] }\nlayer = "sea"', "unit[0].layer", "not 'sea'"),
])
def test_a_missing_extra_or_short_factor_is_refused_with_file_and_key(tmp_path: Path, extra: str, key: str,
                                                                       reason: str) -> None:
    with pytest.raises(DataError) as exc:
        units(tmp_path, extra)
    assert exc.value.key == key and reason in exc.value.reason
    assert str(exc.value.file).endswith("units.toml")


def test_a_game_that_declares_no_factors_refuses_them(tmp_path: Path) -> None:
    with pytest.raises(DataError) as exc:
        units(tmp_path, 'factors = { movement = [6, 4] }', Data(schema=SCHEMA))
    assert exc.value.key == "unit[0].factors.movement" and "none besides steps" in exc.value.reason


@pytest.mark.parametrize("counters, key", [
    (Counters(factors=("a", "a")), "factors"),
    (Counters(factors=("a",), step_factors=("b",)), "step_factors"),
    (Counters(factors=("a",), ma_factor="b"), "ma_factor"),
    (Counters(statuses=("map",)), "statuses"),
    (Counters(layers=(Layer("g"), Layer("g"))), "layers"),
    (Counters(layers=(Layer("air", statuses=("flown",)),)), "layers.air"),
    (Counters(type_layers={"tank": "ground"}), "type_layers.tank"),
    (Counters(type_layers={"infantry": "air"}), "type_layers.infantry"),
    (Counters(hex_markers=(HexMarker("fort", "FT"),)), "hex_markers.fort"),
])
def test_an_unsound_declaration_is_refused_by_the_loader(tmp_path: Path, counters: Counters, key: str) -> None:
    assert [k for k, _ in counters.problems(SCHEMA.unit_types)] == [key]
    with pytest.raises(DataError) as exc:
        units(tmp_path, "", Data(schema=dataclasses.replace(SCHEMA, counters=counters)))
    assert exc.value.key == f"schema.counters.{key}"


def test_statuses_layers_and_markers_as_declared() -> None:
    assert EFS_LIKE.all_statuses == ("pending", "map", "eliminated", "cadre", "air_ready", "air_flown")
    assert EFS_LIKE.layer_of("infantry") == Layer("ground")
    assert EFS_LIKE.layer_of("infantry", "air").stacks is False
    assert EFS_LIKE.marker("out_of_supply") == HexMarker("out_of_supply", "!")
    assert EFS_LIKE.marker("out_of_supply").label == "out of supply"
    assert EFS_LIKE.marker("fort") is None


def test_kiev_reads_attack_and_defence_by_name_as_its_steps_give_them() -> None:
    cat = load_units(ROOT / "data" / "spi_kiev" / "units.toml")  # the game of the data folder
    for u in cat.units.values():
        assert u.factors["attack"] == tuple(a for a, _ in u.steps)
        assert u.factors["defence"] == tuple(d for _, d in u.steps)
    assert cat.units["so-hq-agsw"].factor("defence") == 2 and cat.units["so-hq-agsw"].factor("attack") == 0


def test_b41_counters_read_combat_quality_movement_by_name() -> None:
    cat = load_units(ROOT / "data" / "barbarossa1941" / "units.toml", B41)
    u = cat.units["ge-ak-23"]
    assert dict(u.factors) == {"combat": (3, 2), "quality": (4, 4), "movement": (3, 3)}
    assert bu.quality(u) == 4
    air = [x for x in cat.units.values() if x.type == "air"]
    assert air and all(x.layer == "air" and bu.quality(x) is None for x in air)
    assert B41.schema.counters.marker("rail_marker") == HexMarker("rail_marker", "+", "rail marker")


def test_hex_markers_in_the_state_are_saved_only_when_a_hex_carries_one() -> None:
    from kiev_tui.engine.state import GameState  # noqa: PLC0415

    st = GameState(1, "axis", "movement")
    before = (st.hash(), st.to_dict())
    st.hex_markers = {"0202": []}
    assert (st.hash(), st.to_dict()) == before  # an old position hashes as it did
    st.hex_markers = {"0303": ["rail_marker", "fort", "fort"], "0202": []}
    assert st.to_dict()["hex_markers"] == {"0303": ["fort", "rail_marker"]}
    back = GameState.from_dict(st.to_dict())
    assert back.hash() == st.hash() == st.copy().hash() != before[0]
    assert back.hex_markers == {"0303": ["fort", "rail_marker"]}

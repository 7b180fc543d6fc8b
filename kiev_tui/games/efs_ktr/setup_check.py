"""Kiev to Rostov's own checks of a scenario, run as it loads (so ``validate`` refuses it too).

The engine has checked the shape (units exist, hexes on the map, no hex shared by both sides).
Here: this game's [scenario] keys, the stars of [victory] (PB 10.45), the steps lost at set-up
(``[reduced]``), the air units' boxes and arrivals (``[air]``, 9.1), that every ground counter
is placed once and no air unit stands on the map, and the stacking limit at the start (3.32).
Every refusal is a DataError naming the file, the key and the reason.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine.tomlio import Reader

if TYPE_CHECKING:
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.scenario import Scenario

WEATHER = ("dry",)  # PB 10.41: the only weather Sumy knows


def check_victory(v: Reader, hex_on_map: "Callable[[Reader, str, Any], Hex]") -> None:
    """[victory]: stars per hex, the stars the Axis needs, the Axis step losses that end it (PB 10.45)."""
    v.only(["stars", "axis_stars_needed", "soviet_win_axis_steps_lost", "reconstructed_stars", "note"])
    stars = v.table("stars")
    total = 0
    for key in stars.keys():
        hex_on_map(stars, key, key)
        n = stars.int(key)
        if not 1 <= n <= 3:
            raise stars.fail(key, f"a hex carries 1 to 3 stars, not {n}")
        total += n
    need = v.int("axis_stars_needed")
    if not 1 <= need <= total:
        raise v.fail("axis_stars_needed", f"between 1 and the map's {total} stars, not {need}")
    if v.int("soviet_win_axis_steps_lost") < 1:
        raise v.fail("soviet_win_axis_steps_lost", "at least 1")
    for i, key in enumerate(v.strs("reconstructed_stars", [])):
        if key not in stars.data:
            raise v.fail(f"reconstructed_stars[{i}]", f"{key[:10]} is not a star hex")


def check_scenario(scenario: "Scenario") -> None:
    root = Reader(scenario.path, {"scenario": scenario.params, **scenario.extra})
    meta = root.table("scenario")
    if meta.int("first_game_turn") < 1:
        raise meta.fail("first_game_turn", "a game-turn number is at least 1")
    if meta.str("weather") not in WEATHER:
        raise meta.fail("weather", f"Sumy's weather is {', '.join(WEATHER)} (PB 10.41)")
    cat = scenario.catalog.units
    air_ids = {uid for uid, u in cat.items() if u.layer == "air"}
    for uid in scenario.setup:
        if uid in air_ids:
            raise Reader(scenario.path, {}, "setup").fail(uid, "an air unit is in a box, not on the map: list it under [air]")
    placed = set(scenario.setup) | {uid for r in scenario.reinforcements for uid in r.units}
    for uid, u in cat.items():
        if uid not in air_ids and uid not in placed:
            raise Reader(scenario.path, {}, "setup").fail(uid, f"the counter {u.designation} is neither set up nor arriving")
    lost = _check_reduced(root, scenario)
    _check_air(root, scenario, air_ids)
    _check_stacking(scenario, lost)


def _check_reduced(root: Reader, scenario: "Scenario") -> dict[str, int]:
    red = root.table("reduced", required=False)
    out: dict[str, int] = {}
    for uid in red.keys():
        if uid not in scenario.setup:
            raise red.fail(uid, "only a counter set up on the map can start reduced")
        n = red.int(uid)
        steps = len(scenario.catalog.units[uid].steps)
        if not 1 <= n < steps:
            raise red.fail(uid, f"a {steps}-step counter can start 1 to {steps - 1} steps down, not {n}")
        out[uid] = n
    return out


def _check_air(root: Reader, scenario: "Scenario", air_ids: set[str]) -> None:
    air = root.table("air")
    air.only(["ready", "arrival"])
    seen: Counter[str] = Counter(air.strs("ready"))
    for i, uid in enumerate(air.strs("ready")):
        if uid not in air_ids:
            raise air.fail(f"ready[{i}]", f"'{uid[:30]}' is not an air unit")
    for r in air.tables("arrival"):
        r.only(["side", "turn", "units"])
        side, turn = r.str("side"), r.int("turn")
        if not 1 <= turn <= scenario.turns:
            raise r.fail("turn", f"turn {turn} is outside the scenario's {scenario.turns} turns")
        for i, uid in enumerate(r.strs("units")):
            if uid not in air_ids:
                raise r.fail(f"units[{i}]", f"'{uid[:30]}' is not an air unit")
            if scenario.catalog.units[uid].side != side:
                raise r.fail(f"units[{i}]", f"'{uid}' is not {side}")
            seen[uid] += 1
    for uid in sorted(air_ids):
        if seen[uid] != 1:
            raise air.fail("ready", f"air unit '{uid}' must be listed once (ready or an arrival), not {seen[uid]} times")


def _check_stacking(scenario: "Scenario", lost: dict[str, int]) -> None:
    from kiev_tui.games.efs_ktr.tables import read_stacking_limit

    limit = read_stacking_limit(scenario.tables_path)
    points: Counter[Any] = Counter()
    for uid, h in scenario.setup.items():
        points[h] += scenario.catalog.units[uid].factor("stacking", lost.get(uid, 0))
    for h, n in points.items():
        if n > limit:
            raise Reader(scenario.path, {}, "setup").fail(scenario.map.grid.id(h),
                                                          f"{n} stacking points in one hex, over the limit of {limit} (3.32)")

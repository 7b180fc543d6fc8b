"""Kiev to Rostov's own checks of units.toml, run as it loads (so ``validate`` refuses a bad one).

The engine has read the shape (ids, sides, types, steps, factors).  Here: the step count a
counter's full defence gives (16.22), the Step Loss marker's -2 on a four-step unit (16.23),
stacking points the same on every step (3.31, zero for an HQ), the air units' ratings and
roles (17.25, 17.33, 15.65), an HQ's command value and range (22.11-22.12), support only on
artillery (14.2), and a reconstructed_values list on every reconstructed counter.
"""

from __future__ import annotations

from kiev_tui.engine.tomlio import Reader

AIR_ROLES = ("fighter", "bomber", "dummy")
#: What reconstructed_values may name: a factor, the reduced face or a counter key.
VALUE_NAMES = ("attack", "defence", "reduced", "movement", "stacking", "steps", "support", "acr", "cas",
               "interdiction", "recovery")


def steps_for_defence(defence: int, one_sided: bool) -> int:
    """16.22: a full defence of 8+ gives four steps, 5+ three, else two (one if one-sided)."""
    if defence >= 8:
        return 4
    if defence >= 5:
        return 3
    return 1 if one_sided else 2


def read_units(root: Reader) -> None:
    """Raise DataError for the first counter this game's rules cannot use."""
    for u in root.tables("unit"):
        _check_unit(u)


def _check_unit(u: Reader) -> None:
    utype = u.str("type")
    steps = u.get("steps", list)
    if not u.str("name", "").strip():
        raise u.fail("name", "every counter needs a plain English name")
    stacking = u.table("factors").get("stacking", list)
    if len(set(stacking)) > 1:
        raise u.table("factors").fail("stacking", "a counter's stacking points are the same on every step (3.31)")
    if utype == "air":
        _check_air(u, steps)
        return
    for key in ("acr", "cas", "air_role", "interdiction"):
        if key in u.data:
            raise u.fail(key, f"only an air unit has {key} (17.33)")
    full_defence = steps[0][1]
    if utype == "hq":
        if stacking[0] != 0:
            raise u.table("factors").fail("stacking", "an HQ has no stacking value (3.31)")
        if len(steps) != 1:
            raise u.fail("steps", "an HQ is a one-step unit (16.22)")
        if u.int("command") < 1 or u.int("command_range") < 1:
            raise u.fail("command", "an HQ's command value and range are at least 1 (22.11)")
        if u.int("recovery") < 1:  # 22.21: the Non-Op face's value the recovery roll is made against
            raise u.fail("recovery", "an HQ's Non-Op side has a recovery value of at least 1 (22.21)")
    else:
        for key in ("command", "command_range", "recovery"):
            if key in u.data:
                raise u.fail(key, "only an HQ has a command value and range (22.11)")
        big = steps_for_defence(full_defence, one_sided=False)
        if len(steps) > 2 and len(steps) != big:
            raise u.fail("steps", f"a full defence of {full_defence} gives {big} step(s), not {len(steps)} (16.22)")
        if len(steps) <= 2 and big > 2:
            raise u.fail("steps", f"a full defence of {full_defence} gives {big} steps, not {len(steps)} (16.22)")
        if len(steps) >= 3:  # 16.23: the Step Loss marker takes two from attack and defence
            for at in ([1, 3] if len(steps) == 4 else [1]):
                want = [max(v - 2, 0) for v in steps[at - 1]]
                if list(steps[at]) != want:
                    raise u.fail("steps", f"step {at + 1} is step {at} under a Step Loss marker: {want} (16.23)")
    if "support" in u.data and (utype != "artillery" or u.int("support") < 1):
        raise u.fail("support", "only artillery gives support, at least 1 (14.2)")
    if utype == "artillery" and "support" not in u.data:
        raise u.fail("support", "an artillery unit needs its support strength (14.2)")
    _check_reconstructed(u)


def _check_air(u: Reader, steps: list) -> None:
    if u.str("layer", "air") != "air":
        raise u.fail("layer", "an air unit is on the air layer")
    if len(steps) != 1 or list(steps[0]) != [0, 0] or u.int("ma") != 0:
        raise u.fail("steps", "an air unit has one step and no ground values: steps = [[0, 0]], ma = 0")
    role = u.str("air_role")
    if role not in AIR_ROLES:
        raise u.fail("air_role", f"one of {', '.join(AIR_ROLES)} (17.25)")
    acr, cas = u.int("acr"), u.int("cas")
    if not 0 <= acr <= 9 or not 0 <= cas <= 3:
        raise u.fail("acr", "ACR 0-9 and CAS 0-3")
    if role == "dummy" and (acr or cas):
        raise u.fail("acr", "a dummy has no ratings (17.25)")
    interdiction = u.int("interdiction", 0)
    if not 0 <= interdiction <= 3 or (interdiction and (u.str("side") != "axis" or role == "dummy")):
        raise u.fail("interdiction", "an Axis air unit's interdiction rating, 0-3 (13.11, 13.14)")
    _check_reconstructed(u)


def _check_reconstructed(u: Reader) -> None:
    values = u.strs("reconstructed_values", [])
    for i, v in enumerate(values):
        if v not in VALUE_NAMES:
            raise u.fail(f"reconstructed_values[{i}]", f"'{v[:20]}' is not one of {', '.join(VALUE_NAMES)}")
    if bool(values) != u.bool("reconstructed", False):
        raise u.fail("reconstructed_values", "a reconstructed counter names what is ours, and only such a counter")

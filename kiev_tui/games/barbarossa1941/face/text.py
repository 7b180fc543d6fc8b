"""Barbarossa 1941's words for both faces: unit names, the panels' lines, the phases' help.

Nothing here imports Textual: plain mode (``plain.py``) says these lines as they are, and the
Textual adapter (``adapter.py``) shows them in its panels.  The face only names and explains;
every answer about the position comes from the rule system (``game.rules``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine import sequence
from kiev_tui.engine.hexes import Hex
from kiev_tui.ui import text as ui_text

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

AXIS, SOVIET = "axis", "soviet"
SIDE_NAME = {AXIS: "Axis", SOVIET: "Soviet"}

NATION = {"german": "German", "finnish": "Finnish", "romanian": "Romanian", "hungarian": "Hungarian",
          "italian": "Italian", "slovak": "Slovak", "soviet": "Soviet"}

#: The set-up headings of 15.1-15.2 (``command`` in units.toml), as a player reads them.
COMMAND = {"ag_north": "Army Group North", "ag_center": "Army Group Centre", "ag_south": "Army Group South",
           "finland": "Finland", "romania": "Romania", "reserve": "reserve",
           "tvd_baltic": "Baltic district", "tvd_leningrad": "Leningrad district", "tvd_west": "Western district",
           "tvd_south_west": "Kiev district", "tvd_south": "Odessa district"}

TYPE_NAME = {"infantry": "infantry", "mountain": "mountain", "panzer": "panzer", "cavalry": "cavalry",
             "mobile": "mobile", "security": "security", "airborne": "airborne", "air": "air corps",
             "fort": "fort", "army": "army", "shock_army": "shock army", "mechanized": "mechanized",
             "mobile_group": "mobile group", "group": "operational group", "militia": "militia",
             "partisan": "partisans", "fleet": "fleet"}

#: The letter of each unit type on the map: capitals are Axis, small letters Soviet (the case is
#: the side, so the map reads without colour).
TYPE_LETTER = {
    AXIS: {"infantry": "I", "mountain": "G", "panzer": "P", "cavalry": "C", "mobile": "M", "security": "S",
           "airborne": "A", "air": "W", "fort": "F"},
    SOVIET: {"army": "r", "shock_army": "s", "mechanized": "m", "cavalry": "c", "mobile_group": "g",
             "group": "o", "airborne": "a", "militia": "l", "partisan": "q", "air": "w", "fort": "f",
             "fleet": "n"},
}

PHASE_TITLE = {"isolation": "Isolation", "air_rebasing": "Air rebasing", "replacements": "Replacements",
               "rail": "Rail movement", "forts": "Fort building", "movement": "Movement",
               "reaction": "Reaction", "combat": "Combat", "exploitation": "Exploitation",
               "rail_markers": "Rail markers", "partisans": "Partisans"}

#: What each phase is for and the cases that govern it (our words; the rule book has the detail).
PHASE_HELP = {
    "isolation": "Isolation (8, 8.1): units that cannot trace supply are marked isolated and may lose "
                 "steps. Nothing to do by hand here: end the phase.",
    "air_rebasing": "Air rebasing (11.1): each air corps may move to another friendly city within its "
                    "range. Press C for the rebasing moves the rules allow, then P.",
    "replacements": "Replacements and reinforcements (9.1, 9.2): replacement steps rebuild units, and "
                    "arrivals due this turn come on. Answer the choices the game asks (p), then P.",
    "rail": "Rail movement (10): units move along friendly rail lines. End the phase with P when done.",
    "forts": "Fort building (12.4): field forts may be placed in the hexes the rules allow.",
    "movement": "Movement (5, 5.1): select a stack with Enter; reachable hexes show their MP cost and the "
                "path to the cursor is starred. Entering an enemy zone of control stops a unit (4). "
                "Overruns (7), coups de main (12.6) and airborne drops (12.5) are offered by C.",
    "reaction": "Reaction (5.3): the side not phasing may move motorized units a short way before the "
                "attacks; select and move as in movement, then P.",
    "combat": "Combat (6): press C for the attacks the rules allow, pick one; the defender and attacker then "
              "answer the combat's choices in turn (leaders, support, artillery 12.12, losses and "
              "retreats 6.1). Air corps support one combat a turn (11.2).",
    "exploitation": "Exploitation (5.2): motorized units that may exploit move again, overrun (7) and "
                    "stop; mud and extreme cold forbid it (12.3).",
    "rail_markers": "Rail markers (10.3): each Axis rail marker may move up to 3 connected rail hexes "
                    "outside enemy zones, extending the rail the Axis controls.",
    "partisans": "Partisans (12.7): once the Axis holds enough VP, the Soviet player places partisans "
                 "deep behind the front.",
}

RULES_BY_PHASE = {
    "isolation": ["8", "8.1"], "air_rebasing": ["11.1"], "replacements": ["9.1", "9.2"], "rail": ["10"],
    "forts": ["12.4"], "movement": ["5.1", "4", "7"], "reaction": ["5.3"], "combat": ["6", "6.1", "11.2"],
    "exploitation": ["5.2", "7"], "rail_markers": ["10.3"], "partisans": ["12.7"],
}

FEATURE_NAME = {"major_river": "major river", "railroad": "railroad", "lake": "lake", "strait": "strait"}


def side_name(side: str) -> str:
    return SIDE_NAME.get(side, side.capitalize())


def udef(game: "Game", uid: str) -> Any:
    return game.scenario.catalog.units[uid]


def unit_name(game: "Game", uid: str) -> str:
    """The counter's name as printed ('XXIII Army Corps'), else its designation."""
    d = udef(game, uid)
    return str(d.extra.get("name") or d.designation or uid)


def unit_kind(game: "Game", uid: str) -> str:
    """'German infantry, Army Group North': nation, type and formation of the counter."""
    d = udef(game, uid)
    nation = NATION.get(str(d.extra.get("nation", "")), str(d.extra.get("nation", "")).capitalize())
    what = f"{nation} {TYPE_NAME.get(d.type, d.type.replace('_', ' '))}".strip()
    command = d.extra.get("command")
    return f"{what}, {COMMAND.get(str(command), str(command))}" if command else what


def type_letter(unit_type: str, side: str) -> str:
    letter = TYPE_LETTER.get(side, {}).get(unit_type, unit_type[:1] or "?")
    return letter.upper() if side == AXIS else letter.lower()


def values(game: "Game", uid: str) -> tuple[int, int, int]:
    """Combat, quality and movement on the unit's step, as the counter prints them (1)."""
    d = udef(game, uid)
    step = game.state.units[uid].step
    combat = d.steps[min(step, len(d.steps) - 1)][0] if d.steps else 0
    quality = d.factor("quality", step) if "quality" in d.factors else 0
    return combat, quality, d.ma


def steps_left(game: "Game", uid: str) -> int:
    return max(0, len(udef(game, uid).steps) - game.state.units[uid].step)


def stack_order(game: "Game", ids: list[str]) -> list[str]:
    """Ground units before air corps and forts, the strongest first, ties by id."""
    def key(uid: str) -> tuple[int, int, int, str]:
        c, q, _ = values(game, uid)
        back = 1 if udef(game, uid).type in ("air", "fort", "fleet") else 0
        return (back, -c, -q, uid)

    return sorted(ids, key=key)


def mp_left(game: "Game", uid: str) -> int | None:
    """MP the unit still has in this movement, reaction or exploitation phase; None otherwise."""
    st = game.state
    if st.phase not in ("movement", "reaction", "exploitation") or game.state.units[uid].status != "map":
        return None
    try:
        from kiev_tui.games.barbarossa1941 import allowance

        full = allowance.allowance(game.rules.position(game), uid, st.phase)
    except Exception:  # a face never breaks play: without an allowance the line says nothing of MP
        return None
    if not isinstance(full, int):
        return 0
    return max(0, full - int(st.vars.spent.get(uid, 0)))


def supply_word(supply: Any, uid: str) -> str:
    """'isolated', 'out of supply', 'limited supply' or '' from whatever supply answer the rules give."""
    if supply is None:
        return ""
    words = []
    isolated = getattr(supply, "isolated", None)
    if isolated is not None and isolated(uid):
        words.append("isolated")
    status = getattr(supply, "status", None)
    if status is not None:
        s = str(status(uid)).lower()
        if s in ("out", "out_of_supply"):
            words.append("out of supply")
        elif s == "limited":
            words.append("limited supply")
    return ", ".join(words)


def unit_line(game: "Game", uid: str, supply: Any = None) -> str:
    """'XXIII Army Corps 3-4-3 steps 2/2 MP 3 isolated' on one line."""
    d = udef(game, uid)
    c, q, m = values(game, uid)
    total = len(d.steps)
    if d.type == "air":  # 11: an air corps is rated by the column shifts it gives and its range
        line = f"{unit_name(game, uid)} air {d.extra.get('air_columns', 0)} columns, range {d.extra.get('air_range', 0)}"
    elif d.type == "fort" or d.extra.get("static"):  # 12.4: no values of its own but the die it adds
        line = f"{unit_name(game, uid)} {c}-{q}-{m}, static, die +{d.extra.get('die_support', 0)}"
    else:
        line = f"{unit_name(game, uid)} {c}-{q}-{m} steps {steps_left(game, uid)}/{total}"
        left = mp_left(game, uid)
        if left is not None:
            line += f" MP {left}"
    flags = [w for w in (supply_word(supply, uid),) if w]
    markers = game.state.units[uid].markers
    if "air_flown" in markers:
        flags.append("flown")
    return line + (f" {', '.join(flags)}" if flags else "")


def zone_of(game: "Game", h: Hex) -> str:
    try:
        return str(game.rules.position(game).zone(h))
    except Exception:  # a map without weather zones (a hand-made test map)
        return ""


def weather_now(game: "Game") -> dict[str, str]:
    """Each zone's weather this turn (12.3), {} if the tables give none for the turn."""
    from kiev_tui.games.barbarossa1941.system import tables_of

    w = tables_of(game).weather
    if game.state.turn not in w.turns:
        return {}
    return {z: w.condition(game.state.turn, z) for z in ("north", "south")}


def hex_lines(game: "Game", h: Hex) -> list[str]:
    """The hex: number, place, terrain, holder; its zone and weather; its hexside features; markers."""
    gmap = game.scenario.map
    head = ui_text.hex_head(gmap, game.state.control, h, side_name).replace("_", " ")
    lines = [head]
    zone = zone_of(game, h)
    wx = weather_now(game).get(zone, "")
    if zone:
        lines.append(f"{zone.capitalize()} zone, weather: {wx.replace('_', ' ') or 'unknown'}")
    sides: dict[str, list[str]] = {}
    for n in gmap.neighbours(h):
        for f in gmap.side_features(h, n):
            sides.setdefault(FEATURE_NAME.get(f, f.replace("_", " ")), []).append(gmap.grid.id(n))
    for name, toward in sorted(sides.items()):
        lines.append(f"{name} toward {', '.join(sorted(toward))}")
    kinds = game.state.hex_markers.get(gmap.grid.id(h), [])
    if kinds:
        lines.append("Markers: " + ", ".join(sorted(k.replace("_", " ") for k in set(kinds))))
    return lines


def stack_lines(game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...] = ()) -> list[str]:
    ids = stack_order(game, [u for u, s in game.state.units.items()
                             if s.status == "map" and s.hex == game.scenario.map.grid.id(h)])
    if not ids:
        return []
    side = udef(game, ids[0]).side
    lines = [f"{side_name(side)} stack of {len(ids)} (keys 1-{min(len(ids), 9)} pick):"]
    for n, uid in enumerate(ids, 1):
        num = str(n) if n <= 9 else " "
        mark = "*" if uid in chosen else " "
        lines.append(f"{num}{mark}{unit_line(game, uid, supply)}")
        lines.append(f"    {unit_kind(game, uid)}")
    return lines


def inspector_lines(game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...] = ()) -> list[str]:
    """The hex's head, its stack (two lines a unit: values, then nation/type/formation), then the
    hex's zone, weather and hexsides (cut first on a small screen)."""
    head, *rest = hex_lines(game, h)
    return [head, *stack_lines(game, h, supply, chosen), *rest]


def turn_head(game: "Game") -> str:
    """'Turn 3 of 10, 6-19 Jul 1941' (the weather table gives each turn's dates)."""
    from kiev_tui.games.barbarossa1941.system import tables_of

    st = game.state
    line = f"Turn {st.turn} of {game.scenario.turns}"
    t = tables_of(game).weather.turns.get(st.turn)
    if t is not None:
        line += f", {t.start.strftime('%d %b').lstrip('0')} - {t.end.strftime('%d %b %Y').lstrip('0')}"
    return line


def weather_line(game: "Game") -> str:
    wx = weather_now(game)
    if not wx:
        return "Weather: not given for this turn"
    return "Weather: " + ", ".join(f"{z} {c.replace('_', ' ')}" for z, c in wx.items())


def vp_line(game: "Game") -> str:
    score = game.rules.score(game)
    pts = score.points.get(AXIS)
    return f"Axis victory points: {pts}" if pts is not None else ""


def tracker_lines(game: "Game") -> list[str]:
    """Turn and dates, the weather per zone (12.3), the Axis VP (13), then the game-turn's
    segments (Axis operations, Soviet operations, victory check) with the phase now in capitals."""
    lines = [turn_head(game), weather_line(game)]
    vp = vp_line(game)
    if vp:
        lines.append(vp)
    if game.state.over:
        return lines + ["The game is over."]
    lines.extend(ui_text.sequence_lines(game, side_name, lambda p: PHASE_TITLE.get(p, ui_text.phase_title(p)),
                                        head="{}: "))
    here = sequence.current(game)
    if here.owner and game.actor != here.owner:
        lines.append(f"The {side_name(game.actor)} player answers now.")
    return lines


def phase_help(game: "Game") -> str:
    phase = game.state.phase
    return PHASE_HELP.get(phase, f"{PHASE_TITLE.get(phase, phase)}: end the phase with P when done.")


def rules_cases(game: "Game") -> list[str]:
    return list(RULES_BY_PHASE.get(game.state.phase, []))

"""What the Textual face asks of a game beyond its rule system: the presentation adapter.

The game screen knows no game.  It asks the rule system (``game.rules``: reachable hexes, what
can act, pending choices, the score) and the game's adapter (how a unit is named and drawn,
what the panels say, the help, the extra keys) found through ``kiev_tui.engine.registry.get_adapter``.
A game without an adapter gets ``DefaultAdapter``, which answers from the ``RuleSystem``
protocol alone: its stacks can be selected, moved with the game's own ``move`` action, the
phase ended, undone and saved.  A game adapter usually subclasses ``DefaultAdapter`` and
overrides what it says better, and may hand over a ``GameScreen`` subclass with its own keys.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol

from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.prompts import Prompt
from kiev_tui.later import handed_out, later
from kiev_tui.ui import text as ui_text
from kiev_tui.ui.glyphs import Glyphs, MapSymbols, short_names, symbols_for, symbols_from_schema
from kiev_tui.ui.hexmap import HexLook, hex_text, parse_hex

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action
    from kiev_tui.engine.game import Game
    from kiev_tui.engine.mapdata import GameMap
    from kiev_tui.engine.rules import Schema
    from kiev_tui.ui.game_screen import GameScreen


@dataclass
class Overlay:
    """What the player is doing on the map: the selection and what it may reach."""

    selected: tuple[str, ...] = ()
    reach: dict[Hex, Any] = field(default_factory=dict)  # hex -> Reach (cost, path, or why not)
    rail: dict[Hex, tuple[str, ...]] = field(default_factory=dict)  # hex -> path by another way (rail)
    path: tuple[str, ...] = ()  # to the cursor
    attackers: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    marks: dict[str, str] = field(default_factory=dict)  # hex id -> text: a choice shown on the map


def hex_of_unit(game: "Game", uid: str) -> Hex | None:
    """Where a unit stands, or None off the map."""
    u = game.state.units.get(uid)
    if u is None or u.status != "map" or not u.hex:
        return None
    return parse_hex(game.scenario.map, u.hex)


def occupancy(game: "Game") -> dict[Hex, list[str]]:
    """Every occupied hex and the units in it."""
    gmap = game.scenario.map
    return {parse_hex(gmap, k): ids for k, ids in game.state.occupancy().items()}


def side_of(game: "Game", uid: str) -> str:
    return str(game.scenario.catalog.units[uid].side)


class Adapter(Protocol):
    """The questions the game screen asks a game's face.  ``DefaultAdapter`` answers them all."""

    def screen_class(self) -> "type[GameScreen]":
        """The screen the game is played on (a GameScreen, or a subclass with the game's own keys)."""

    def side_name(self, game: "Game", side: str) -> str: ...

    def unit_name(self, game: "Game", uid: str) -> str:
        """What a person calls the unit (never its id)."""

    def name_ids(self, game: "Game", text: str) -> str:
        """Engine text (events, refusals, prompts) with unit ids turned into names."""

    def type_letter(self, game: "Game", unit_type: str, side: str) -> str:
        """The letter a unit type is drawn with on the map."""

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        """A stack top first: the unit drawn on the map and numbered 1 in the inspector."""

    def supply(self, game: "Game") -> Any:
        """What the map marks need about supply (worked out once per position by the screen)."""

    def hex_looks(self, game: "Game", supply: Any, overlay: Overlay, glyphs: Glyphs) -> dict[Hex, HexLook]:
        """How every hex that is not plain terrain looks now."""

    def first_side(self, game: "Game") -> str:
        """The side drawn in the first of the two counter styles."""

    def inspector_lines(self, game: "Game", h: Hex, supply: Any, chosen: tuple[str, ...]) -> list[str]: ...

    def tracker_lines(self, game: "Game") -> list[str]: ...

    def phase_title(self, game: "Game", phase: str) -> str: ...

    def phase_help(self, game: "Game") -> str: ...

    def rules_cases(self, game: "Game") -> list[str]:
        """Rule cases worth opening in this phase (the ``r`` key lists them)."""

    def map_symbols(self, schema: "Schema") -> MapSymbols:
        """The fill of each terrain and the mark of each hexside feature (the map, the text map
        and the legends draw with these)."""

    def legend(self, game: "Game", glyphs: Glyphs) -> list[tuple[str, str]]: ...

    def goto_prompt(self, game: "Game") -> tuple[str, str]:
        """(title, example) of the go-to box."""

    def can_move(self, game: "Game", uid: str) -> bool:
        """Whether Enter may select this unit to move now."""

    def actors(self, game: "Game") -> list[Hex]:
        """Hexes holding units of the side to play that may still act (Tab visits them)."""

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> "Action":
        """The game's own action that moves a stack along a path of hex ids."""

    def pending(self, game: "Game") -> Prompt | None: ...

    def end_phase_notes(self, game: "Game") -> list[str]:
        """Lines for the end-of-phase question besides the phase's to-do list."""

    def score_now(self, game: "Game") -> tuple[str, list[str]]:
        """(title, lines) of the score as it stands (the ``v`` key)."""

    def final_score(self, game: "Game") -> tuple[str, list[str]]:
        """(heading, lines) of the score when the game is over."""


DEFAULT_KEYS = """Keys on the map
  arrows, h j k l      move the cursor (left/right keep the row number)
  q w e / a s d        move the cursor to the NW, N, NE / SW, S, SE neighbour
  g                    go to a hex: its number or a place name, then Enter
  Tab                  jump to the next stack that can still act this phase
  Enter or space       select the stack under the cursor / move it to the hex under the cursor
  1-9                  add or drop one unit of the stack (numbers as in the inspector)
  Esc                  drop the selection
  p                    answer a choice the game is waiting for
  u                    undo the last action
  P                    end the phase (you are told first what is still undone)
  z                    zoom: full hexes or compact 3x2 hexes
  L                    legend of the map glyphs
  v                    the score as it stands
  I                    tracker and inspector across the whole width, and back to the map
  r                    rules reference (at the case of the last refusal, if any)
  S / O / N            save / load / new game          pgup pgdn  scroll the log
  ctrl+q               quit
"""


#: The keys of the face any game gets: a game's own face lists its C in its own words.
GENERIC_KEYS = DEFAULT_KEYS.replace(
    "  u  ", "  C                    choose an attack, an overrun, anything else the rules allow now\n  u  ", 1)


def with_marks_only(looks: dict[Hex, HexLook], reach_text: Mapping[Hex, str],
                    frames: Mapping[Hex, str]) -> dict[Hex, HexLook]:
    """Add a look for every hex that shows only a reach cost or a frame (no units there)."""
    for h, text in reach_text.items():
        if h not in looks:
            looks[h] = HexLook(reach=text, frame=frames.get(h, ""))
    for h, fr in frames.items():
        if h not in looks:
            looks[h] = HexLook(frame=fr)
    return looks


class DefaultAdapter(ui_text.GenericNames):
    """A face for any game, from its ``RuleSystem`` alone; game adapters override what they know better.
    Its names (sides, units, phases) are ``GenericNames``', which plain mode says too."""

    # -- the screen ---------------------------------------------------------------------
    def screen_class(self) -> "type[GameScreen]":
        from kiev_tui.ui.game_screen import GameScreen

        return GameScreen

    type_letter = later("kiev_tui.ui.adapter_more")

    def first_side(self, game: "Game") -> str:
        return str(game.rules.schema.sides[0])

    stack_order = later("kiev_tui.ui.adapter_more")

    def strength(self, game: "Game", uid: str) -> tuple[int, int]:
        """The unit's attack and defence at the step it is on."""
        return ui_text.strength(game, uid)

    def steps_left(self, game: "Game", uid: str) -> int:
        return ui_text.steps_left(game, uid)

    # -- the map --------------------------------------------------------------------------
    def map_symbols(self, schema: "Schema") -> MapSymbols:
        return symbols_from_schema(schema)

    def supply(self, game: "Game") -> Any:
        return None

    hex_looks = later("kiev_tui.ui.adapter_more")
    legend = later("kiev_tui.ui.adapter_more")
    inspector_lines = later("kiev_tui.ui.adapter_more")
    tracker_lines = later("kiev_tui.ui.adapter_more")
    phase_help = later("kiev_tui.ui.adapter_more")

    def rules_cases(self, game: "Game") -> list[str]:
        return []

    goto_prompt = later("kiev_tui.ui.adapter_more")

    # -- play ---------------------------------------------------------------------------------
    def can_move(self, game: "Game", uid: str) -> bool:
        return bool(game.rules.can_act(game, uid))

    actors = later("kiev_tui.ui.adapter_more")
    move_action = later("kiev_tui.ui.adapter_more")

    def pending(self, game: "Game") -> Prompt | None:
        return game.rules.prompt(game)  # type: ignore[no-any-return]

    end_phase_notes = later("kiev_tui.ui.adapter_more")

    def score_now(self, game: "Game") -> tuple[str, list[str]]:
        return "Score as it stands", self._score_lines(game)

    def final_score(self, game: "Game") -> tuple[str, list[str]]:
        return "FINAL SCORE", self._score_lines(game)

    _score_lines = later("kiev_tui.ui.adapter_more")


# -- what the schema declares (issue 30): named factors and hex markers, with no game code ------

def factor_text(game: "Game", uid: str) -> str:
    """'combat 3 quality 4 movement 3': the unit's named factors on its step; '' if none declared."""
    names = game.rules.schema.counters.factors
    u = game.scenario.catalog.units[uid]
    step = game.state.units[uid].step
    return " ".join(f"{f} {u.factor(f, step)}" for f in names if f in u.factors)


def reach_marks(gmap: "GameMap", overlay: Overlay, glyphs: Glyphs) -> dict[Hex, str]:
    """The overlay's text per hex: reachable cost, rail distance, path to the cursor, marks."""
    out: dict[Hex, str] = {}
    for h, r in overlay.reach.items():
        if r.ok:
            out[h] = glyphs.reach + f"{r.cost:g}"
    for h, p in overlay.rail.items():
        out[h] = glyphs.rail_reach + str(len(p))
    for t in overlay.path:
        h = parse_hex(gmap, t)
        r = overlay.reach.get(h)
        if r is not None and r.ok:
            out[h] = glyphs.path + f"{r.cost:g}"
        elif h in overlay.rail:
            out[h] = glyphs.path + str(len(overlay.rail[h]))
    for t, text in overlay.marks.items():
        out[parse_hex(gmap, t)] = text
    return out


def adapter_for(game: "Game") -> Any:
    """The game's own adapter from the registry, else the default one."""
    from kiev_tui.engine.registry import get_adapter

    found = get_adapter(game.scenario.game)
    return found if found is not None else DefaultAdapter()


__all__ = ["Adapter", "DefaultAdapter", "Overlay", "adapter_for", "hex_text", "parse_hex", "reach_marks"]


#: Functions written in adapter_more.py, imported the first time one is asked for (issue 33, round 7).
_LATER = frozenset({'map_rows', 'hex_marker_looks', 'marker_lines'})


__getattr__ = handed_out(__name__, "kiev_tui.ui.adapter_more", _LATER)

"""What every game gives the engine and the faces: its schema and its rule system.

The engine knows no side, terrain or rule case of any game: it reads the vocabularies from a
``Schema`` and asks the ``RuleSystem`` every question about play.  The faces (Textual UI, CLI,
bots, benchmarks) talk to the same protocol plus the game's presentation adapter, which they
find through the registry (``kiev_tui.engine.registry``), never by importing a game's package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Protocol, runtime_checkable

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.prompts import Option, Prompt  # noqa: F401 - the protocol's prompt types
from kiev_tui.later import later

if TYPE_CHECKING:
    from kiev_tui.engine.actions import Action, ActionRegistry
    from kiev_tui.engine.game import Game, Phase
    from kiev_tui.engine.hexes import Hex
    from kiev_tui.engine.scenario import Scenario
    from kiev_tui.engine.state import GameState
    from kiev_tui.engine.tomlio import Reader


# -- Counters the schema describes (issue 30) ----------------------------------------------

#: The boxes every game's units use: not yet arrived, on the map, out of the game.
BASE_STATUSES = ("pending", "map", "eliminated")


@dataclass(frozen=True, slots=True)
class Layer:
    """A kind of counter and how the map treats it (ground units, air units, markers)."""

    name: str
    stacks: bool = True  # counts toward the hex's stacking limit
    exerts_zoc: bool = True  # has a zone of control
    drawn: bool = True  # a face draws it on the map
    statuses: tuple[str, ...] = ()  # the game's own boxes (Counters.statuses) its counters use


@dataclass(frozen=True, slots=True)
class HexMarker:
    """A kind of marker a hex may carry (a fort, a rail break) and the glyph a face may draw."""

    kind: str
    glyph: str  # one character: a hint, a face may draw its own
    name: str = ""  # how players read it (default: the kind)

    @property
    def label(self) -> str:
        return self.name or self.kind.replace("_", " ")


GROUND = Layer("ground")


@dataclass(frozen=True, slots=True)
class Counters:
    """What a game's counters carry and where they may be; part of its Schema.

    ``factors`` are the printed numbers, each with one entry per step (full face first).  Those
    named in ``step_factors`` come from units.toml's ``steps = [[a, b], ...]`` pairs in that
    order, ``ma_factor`` from its ``ma`` (every step alike); every other factor is written as
    ``factors = { name = [one per step] }`` on the unit.
    """

    factors: tuple[str, ...] = ()
    step_factors: tuple[str, ...] = ()  # at most two: the halves of each `steps` pair
    ma_factor: str = ""  # the factor the unit's `ma` gives, the same on every step
    statuses: tuple[str, ...] = ()  # boxes beyond BASE_STATUSES (cadre, air_ready, air_flown)
    layers: tuple[Layer, ...] = (GROUND,)  # the first is a unit's layer unless its type says other
    type_layers: Mapping[str, str] = field(default_factory=dict)  # unit type -> layer name
    hex_markers: tuple[HexMarker, ...] = ()

    def layer(self, name: str) -> Layer:
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise KeyError(name)

    layer_of = later("kiev_tui.engine.rules_more")

    @property
    def all_statuses(self) -> tuple[str, ...]:
        return (*BASE_STATUSES, *self.statuses)

    marker = later("kiev_tui.engine.rules_more")
    problems = later("kiev_tui.engine.rules_more")


@dataclass(frozen=True, slots=True)
class Schema:
    """A game's vocabularies: what its data files may say.

    The loaders refuse any side, unit type, terrain, settlement, hexside feature, river kind or
    scenario key not listed here, naming the file and key.
    """

    sides: tuple[str, ...]  # ids as the data writes them, first player's usually first
    side_names: Mapping[str, str]  # id -> how players read it ("axis" -> "Axis")
    unit_types: Mapping[str, tuple[str, ...]]  # side -> its unit types
    terrains: tuple[str, ...]  # hex terrain kinds; the first is the usual default
    impassable_terrains: frozenset[str] = frozenset()  # no unit enters or stands in these hexes
    #: impassable terrain -> the unit types that may stand there all the same (a fleet at sea)
    impassable_except: Mapping[str, frozenset[str]] = field(default_factory=dict)
    settlements: tuple[str, ...] = ()  # city, town ... (hexes that change control)
    hexside_features: tuple[str, ...] = ()  # listed under [hexsides] in map.toml
    impassable_hexsides: frozenset[str] = frozenset()  # features no unit crosses
    #: A [[river]] of kind k marks its hexsides "<k>_river"; listed largest first, and where
    #: rivers of two kinds share a hexside only the larger (earlier) kind is kept.
    river_kinds: tuple[str, ...] = ()
    scenario_keys: tuple[str, ...] = ()  # extra keys a scenario's [scenario] table may hold
    #: extra top-level tables of a scenario file the game reads (kept in Scenario.extra)
    scenario_tables: tuple[str, ...] = ()
    reinforcement_keys: tuple[str, ...] = ()  # extra keys a [[reinforcement]] may hold
    unit_keys: tuple[str, ...] = ()  # extra keys a [[unit]] may hold (kept in UnitDef.extra)
    unit_tables: tuple[str, ...] = ()  # extra top-level tables of units.toml the game reads
    #: named factors per step, unit statuses and layers, hex markers (issue 30)
    counters: Counters = Counters()

    def may_stand(self, unit_type: str, terrain: str) -> bool:
        """True unless the terrain is impassable and this type is not one of its exceptions."""
        return terrain not in self.impassable_terrains or unit_type in self.impassable_except.get(terrain, ())

    def side_name(self, side: str) -> str:
        return self.side_names.get(side, side.capitalize())

    def other_side(self, side: str) -> str:
        """The opponent in a two-sided game (ValueError for an unknown side)."""
        if side not in self.sides or len(self.sides) != 2:
            raise ValueError(f"no single opponent for side '{side}'")
        return self.sides[1] if side == self.sides[0] else self.sides[0]


@dataclass(frozen=True, slots=True)
class Cases:
    """The rule cases the engine cites when it refuses on a game's behalf."""

    game_over: str  # an action after the game has ended
    wrong_side: str  # an action by the side whose turn it is not


@dataclass(frozen=True, slots=True)
class Reach:
    """What ``reachable`` says about one hex: the cost and path there, or why not."""

    cost: float | None  # movement points the stack spends to get there, None if it cannot
    path: tuple[str, ...] = ()
    case: str = ""
    why: str = ""

    @property
    def ok(self) -> bool:
        return self.cost is not None


# -- Odds typed (issue 30) ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """One thing that changes a battle, as its rule case says it.

    A column shift moves the odds column (negative toward the defender), a die modifier is
    added to the roll; a strength multiplier (terrain doubling, halved out of supply) is
    ``factor`` (2 doubles, a half halves) on ``unit``'s strength ("" for the whole side's total), already
    counted in the preview's attack and defence.  A modifier that adds or caps strength has
    none of the three: its ``text`` says it and the totals include it.
    """

    case: str
    text: str
    column_shift: int = 0
    die_modifier: int = 0
    factor: float = 1
    unit: str = ""  # the unit whose strength it changes; "" for the battle as a whole


@dataclass(frozen=True, slots=True)
class OddsPreview:
    """What an attack would be, with nothing committed."""

    illegal: Illegal | None
    attack: int | None  # None while hidden values make it unknown
    defense: int | None
    column: str | None
    chances: Mapping[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    #: every modifier of the battle (issue 30), in the order the game applied them
    modifiers: tuple[Modifier, ...] = ()

    @property
    def column_shift(self) -> int:
        """The net column shift of every modifier (the CRT reader clamps it at the table's ends)."""
        return sum(m.column_shift for m in self.modifiers)

    @property
    def die_modifier(self) -> int:
        """The net die modifier of every modifier (the CRT reader clamps the roll to its rows)."""
        return sum(m.die_modifier for m in self.modifiers)


@dataclass(frozen=True, slots=True)
class Score:
    """The score as it stands (or final): points per side, the reasons, and who leads or won."""

    points: Mapping[str, int]
    lines: tuple[str, ...]
    winner: str  # a side id, or "" for a draw / not decided


@runtime_checkable
class RuleState(Protocol):
    """A game's own bookkeeping in ``GameState.vars``: typed, copyable, saved as plain data."""

    def to_dict(self) -> dict[str, Any]: ...

    def copy(self) -> "RuleState": ...


class GameData(Protocol):
    """What the data loaders and ``validate`` need of a game: its vocabularies and, optionally,
    the hooks ``read_units``, ``prepare_scenario``, ``check_scenario``, ``check_victory``,
    ``validate_tables`` and ``validate_file`` (as on ``RuleSystem``).  A rule system is one; a game whose rules are not
    written yet registers only this (``games/<game>/data.py`` defines ``DATA``)."""

    id: str
    schema: Schema


class RuleSystem(Protocol):
    """The protocol every game implements (``games/<game>/system.py`` defines ``SYSTEM``).

    Optional hooks, used by ``kiev-tui validate`` when a game has them:
    ``validate_tables(path, data)`` refuses a bad tables.toml of the game with a DataError;
    ``validate_file(path, data) -> bool`` checks a file of a kind only this game has (Kiev's
    geo.toml) and says False for any other file.
    Optional hook, used by the scenario loader:
    ``check_victory(reader, catalog, hex_on_map)`` refuses a bad [victory] table with a DataError
    (``reader`` is that table; ``hex_on_map(reader, key, text)`` reads a hex of the scenario's map).
    Optional hook, used by the log, the hand-over and the generic tracker:
    ``turn_label(game, turn) -> str`` names the state's ``turn`` as the game numbers its turns
    ("Game-turn 50" for a scenario that starts mid-campaign); without it, "Turn N" (see ``turn_label``).
    """

    id: str
    version: str
    schema: Schema
    cases: Cases
    actions: "ActionRegistry"

    # -- data -------------------------------------------------------------
    def read_units(self, root: "Reader", catalog: Any) -> None:
        """Read the game's extra tables of units.toml (schema.unit_tables) into the catalog."""

    def prepare_scenario(self, scenario: "Scenario") -> None:
        """Complete a loaded scenario (e.g. counters for drawn reinforcements)."""

    def check_scenario(self, scenario: "Scenario") -> None:
        """Refuse, with a DataError, a scenario this game's rules cannot start from."""

    def new_vars(self) -> RuleState:
        """Empty bookkeeping for a new game."""

    def vars_from_dict(self, data: Mapping[str, Any]) -> RuleState:
        """Bookkeeping back from its plain form (ValueError naming the key if it is wrong)."""

    # -- play -------------------------------------------------------------
    def setup(self, game: "Game") -> "GameState": ...

    def phase(self, game: "Game") -> "Phase": ...

    def actor(self, game: "Game") -> str:
        """The side that may act now."""

    def check(self, game: "Game", action: "Action") -> Illegal | None: ...

    def apply(self, game: "Game", action: "Action") -> None: ...

    # -- questions the faces ask ------------------------------------------
    def position(self, game: "Game") -> Any:
        """A cached read-only view of the whole position, for the rules (not a side's view: see engine.view)."""

    def reachable(self, game: "Game", units: tuple[str, ...], explain: bool = True) -> Mapping["Hex", Reach]:
        """Hexes the stack may end in; with ``explain``, why every other hex is out."""

    def supply(self, game: "Game") -> Any:
        """The game's supply answer for this position (None if the game has no supply rules)."""

    def can_act(self, game: "Game", uid: str) -> bool:
        """Whether this unit may still do anything in the current phase."""

    def actable(self, game: "Game") -> list[str]:
        """Units of the acting side that may still do something now."""

    def preview(self, game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...]) -> OddsPreview | None:
        """Odds of an attack, nothing committed (None if the game has no such attack now)."""

    def prompt(self, game: "Game") -> Prompt | None:
        """The choice on top of the prompt stack, with its options, if any (engine/prompts.py)."""

    def legal(self, game: "Game", side: str) -> Iterator["Action"]:
        """The legal actions of ``side`` now, lazily (each passes ``game.check``); while a prompt
        waits, exactly its answers (``Prompt.actions``)."""

    def score(self, game: "Game") -> Score: ...


def turn_label(game: "Game", turn: int | None = None) -> str:
    """The turn (the state's own by default) as the game numbers it: the rules' optional
    ``turn_label`` hook, else "Turn N"."""
    n = game.state.turn if turn is None else turn
    hook = getattr(game.rules, "turn_label", None)
    return str(hook(game, n)) if hook is not None else f"Turn {n}"

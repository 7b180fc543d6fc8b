"""The sequence of play as data: segments and phases of one game-turn (data/<game>/sequence.toml).

A game-turn is a list of segments (a player-turn, a strategic segment, an interphase); each
segment lists its phases, and each phase names its owner (who acts in it), its rule case, the
turns it runs on and, optionally, a skip rule the game supplies by name (Kiev's "mud").  The
engine steps through it: ``advance`` ends the current phase, finds the next one that runs and
calls the game's hooks.  The engine knows no phase of any game; it only reads this file.

Owners: ``first`` and ``second`` (the scenario's first player and the other), ``phasing`` and
``non-phasing`` (relative to the segment's phasing side), ``both`` (each side in turn, first
player first).  A segment with no phases (an interphase) is passed through by the engine; the
turn marker moves on after the last phase of the game-turn.
"""

from __future__ import annotations


from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from kiev_tui.engine.tomlio import Reader, load_toml
from kiev_tui.later import later

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

OWNERS = ("first", "second", "phasing", "non-phasing", "both")
PHASING = ("first", "second", "none")
SEGMENT_KEYS = ("id", "name", "phasing", "case", "phase")
PHASE_KEYS = ("id", "name", "owner", "case", "turns", "from_turn", "skip")

#: A skip rule: (game, turn, phasing side) -> True when the phase does not happen.
SkipRule = Callable[["Game", int, str], bool]


@dataclass(frozen=True, slots=True)
class PhaseDef:
    """One phase as the data writes it."""

    id: str
    name: str
    owner: str  # one of OWNERS
    case: str
    turns: frozenset[int] | None = None  # None: every turn
    skip: tuple[str, ...] = ()  # names of skip rules the game supplies; any one drops the phase
    from_turn: int = 1  # the first turn it runs on

    def runs_on(self, turn: int) -> bool:
        return turn >= self.from_turn and (self.turns is None or turn in self.turns)


@dataclass(frozen=True, slots=True)
class SegmentDef:
    """One segment: a player-turn (phasing first or second), or one where nobody phases."""

    id: str
    name: str
    phasing: str  # one of PHASING
    case: str
    phases: tuple[PhaseDef, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One phase of one game-turn, with its sides worked out."""

    segment: str
    phase: str
    phasing: str  # the side whose segment it is ("" when nobody phases)
    owner: str  # the side that acts in it
    case: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class Sequence:
    """A game's whole game-turn."""

    game: str
    case: str
    segments: tuple[SegmentDef, ...]
    path: str = ""

    segment = later("kiev_tui.engine.sequence_more")

    def steps(self, turn: int, first: str, second: str, skip: Callable[[str, int, str], bool] | None = None,
              ) -> list[Step]:
        """The phases that run on this turn, in order; ``skip(rule, turn, phasing)`` says which drop."""
        out: list[Step] = []
        for phasing, names, made in _plan(self, turn, first, second):
            # the skip rules are asked every time, in order (they read the game): only the steps are kept
            if skip is not None and any(skip(name, turn, phasing) for name in names):
                continue
            out.extend(made)
        return out

    all_steps = later("kiev_tui.engine.sequence_more")


#: Each sequence's phases per (turn, first, second), by the sequence's id (it is kept, so the id stays its own).
_PLANS: dict[int, tuple[Sequence, dict[tuple[int, str, str], Any]]] = {}


def _plan(seq: Sequence, turn: int, first: str, second: str) -> tuple[tuple[str, tuple[str, ...], tuple[Step, ...]], ...]:
    """The phases that may run on ``turn``: (phasing side, skip rules, steps) each, worked out once
    (the sequence is asked about the current step several times per action: replay, issue 33)."""
    entry = _PLANS.get(id(seq))
    if entry is None or entry[0] is not seq:
        if len(_PLANS) >= 64:  # pragma: no mutate: a bound on a cache
            _PLANS.clear()
        entry = _PLANS[id(seq)] = (seq, {})
    key = (turn, first, second)
    got = entry[1].get(key)
    if got is None:
        out = []
        for seg in seq.segments:
            phasing = first if seg.phasing == "first" else second if seg.phasing == "second" else ""
            for ph in seg.phases:
                if ph.runs_on(turn):
                    made = tuple(Step(seg.id, ph.id, phasing, owner, ph.case, ph.name)
                                 for owner in _owners(ph.owner, phasing, first, second))
                    out.append((phasing, ph.skip, made))
        got = entry[1][key] = tuple(out)
    return got  # type: ignore[no-any-return]


def _owners(owner: str, phasing: str, first: str, second: str) -> tuple[str, ...]:
    other = second if phasing == first else first
    if owner == "first":
        return (first,)
    if owner == "second":
        return (second,)
    if owner == "phasing":
        return (phasing or first,)
    if owner == "non-phasing":
        return (other,)
    return (first, second)  # both, in order


def load_sequence(path: str | Path, skip_rules: Iterable[str] | None = None) -> Sequence:
    """Read and check a sequence.toml; a DataError names the file and key of anything wrong.

    ``skip_rules`` are the names the game supplies; None accepts any name (a game with data only).
    """
    data = load_toml(path, cache=True)  # a data file: parsed once per user (no TOML parser at start-up)
    return read_sequence(Reader(path, data), skip_rules)


def read_sequence(root: Reader, skip_rules: Iterable[str] | None = None) -> Sequence:
    known = None if skip_rules is None else set(skip_rules)
    root.only(("sequence", "segment"))
    head = root.table("sequence")
    head.only(("game", "case"))
    game = head.str("game")
    case = head.str("case", "")
    segs: list[SegmentDef] = []
    seen_seg: set[str] = set()
    seen_step: set[tuple[str, str]] = set()
    segments = root.tables("segment", required=True)
    for s in segments:
        s.only(SEGMENT_KEYS)
        sid = s.str("id")
        if not sid or sid in seen_seg:
            raise s.fail("id", f"segment id '{sid}' is empty or used twice")
        seen_seg.add(sid)
        phasing = s.str("phasing", "none")
        if phasing not in PHASING:
            raise s.fail("phasing", f"'{phasing}' is not one of {', '.join(PHASING)}")
        phases: list[PhaseDef] = []
        for p in s.tables("phase"):
            p.only(PHASE_KEYS)
            pid = p.str("id")
            owner = p.str("owner")
            if owner not in OWNERS:
                raise p.fail("owner", f"'{owner}' is not one of {', '.join(OWNERS)}")
            if phasing == "none" and owner in ("phasing", "non-phasing"):
                raise p.fail("owner", f"segment '{sid}' has no phasing side, so no '{owner}' owner")
            if not pid or (phasing, pid) in seen_step:
                raise p.fail("id", f"phase id '{pid}' is empty or used twice for the same phasing side")
            seen_step.add((phasing, pid))
            turns = None
            if "turns" in p.keys():
                listed = p.ints("turns")
                if not listed or any(t < 1 for t in listed):
                    raise p.fail("turns", "list the turns (whole numbers >= 1) the phase runs on")
                turns = frozenset(listed)
            from_turn = p.int("from_turn", 1)
            if from_turn < 1:
                raise p.fail("from_turn", "a turn is a whole number >= 1")
            raw = p.get("skip", (str, list), [])
            skip = tuple([raw] if isinstance(raw, str) else p.strs("skip", []))
            for name in skip:
                if known is not None and name not in known:
                    raise p.fail("skip", f"the game supplies no skip rule '{name}' "
                                         f"(known: {', '.join(sorted(known)) or 'none'})")
            phases.append(PhaseDef(pid, p.str("name", pid.replace("_", " ").capitalize()), owner,
                                   p.str("case"), turns, skip, from_turn))
        segs.append(SegmentDef(sid, s.str("name", sid.replace("_", " ").capitalize()), phasing,
                               s.str("case", ""), tuple(phases)))
    if not any(seg.phases for seg in segs):
        raise root.fail("segment", "a game-turn needs at least one phase")
    return Sequence(game, case, tuple(segs), root.file)


# -- stepping --------------------------------------------------------------------------------------

def _skipper(game: "Game") -> Callable[[str, int, str], bool]:
    rules: Mapping[str, SkipRule] = getattr(game.rules, "skip_rules", {}) or {}

    def skip(name: str, turn: int, phasing: str) -> bool:
        return bool(rules[name](game, turn, phasing))
    return skip


def sides(game: "Game") -> tuple[str, str]:
    """(first player, second player) of the game's scenario."""
    first = game.scenario.first_player
    return first, game.rules.schema.other_side(first)


def turn_steps(game: "Game", turn: int | None = None) -> list[Step]:
    """The phases of a game-turn (default: the current one) that run, in order."""
    seq: Sequence = game.rules.sequence  # type: ignore[attr-defined]
    first, second = sides(game)
    return seq.steps(game.state.turn if turn is None else turn, first, second, _skipper(game))


def current(game: "Game") -> Step:
    """The step the state stands on: its phase name and phasing player, and for a phase owned
    by both sides the half ``state.half`` names (0: the first player's, 1: the second's)."""
    st = game.state
    steps = turn_steps(game)
    here = [s for s in steps if s.phase == st.phase and s.phasing in ("", st.player)]
    if here:
        halves = [s for s in here if (s.segment, s.phase) == (here[0].segment, here[0].phase)]
        return halves[min(st.half, len(halves) - 1)]
    for s in steps:  # a phase the skip rules dropped since (a loaded position): still name it
        if s.phase == st.phase:
            return s
    seq: Sequence = game.rules.sequence  # type: ignore[attr-defined]
    for s in seq.all_steps(*sides(game)):
        if s.phase == st.phase and s.phasing in ("", st.player):
            return s
    return Step("", st.phase, st.player, st.player, "")


def segment_phases(game: "Game", step: Step | None = None) -> tuple[str, ...]:
    """The phases of the current segment that run this turn, in order (a player-turn's phases)."""
    step = step or current(game)
    out: list[str] = []
    for s in turn_steps(game):
        if s.segment == step.segment and s.phase not in out:
            out.append(s.phase)
    return tuple(out)


class Hooks:
    """What a game does as the sequence moves on; override the ones the game needs."""

    def end_step(self, game: "Game", step: Step) -> None:
        """The phase is over (before the state moves on)."""

    def player_changed(self, game: "Game") -> None:
        """The phasing player changed (after the state moved on)."""

    def new_turn(self, game: "Game") -> None:
        """The turn marker moved on (after player_changed)."""

    def begin_step(self, game: "Game", step: Step) -> None:
        """The next phase begins (the state stands on it)."""

    def game_end(self, game: "Game") -> None:
        """The last phase of the last turn is over."""


def advance(game: "Game", hooks: Hooks) -> Step | None:
    """End the current phase and move the state to the next one that runs; None when the game ends.

    After the last phase of a game-turn the turn marker moves on (the interphase); after the last
    phase of the scenario's last turn ``hooks.game_end`` runs instead.
    """
    st = game.state
    steps = turn_steps(game)
    here = current(game)
    hooks.end_step(game, here)
    i = next((k for k, s in enumerate(steps) if s == here), -1)
    wrapped = i < 0 or i + 1 >= len(steps)
    if wrapped:
        if st.turn >= game.scenario.turns:
            hooks.game_end(game)
            return None
        st.turn += 1
        nxt = turn_steps(game)[0]
    else:
        nxt = steps[i + 1]
    phasing = nxt.phasing or st.player
    changed = phasing != st.player
    # a phase owned by both sides: its second half follows its first, the same phase
    same = not wrapped and (nxt.segment, nxt.phase, nxt.phasing) == (here.segment, here.phase, here.phasing)
    st.half = st.half + 1 if same else 0
    st.player = phasing
    st.phase = nxt.phase
    if changed:
        hooks.player_changed(game)
    if wrapped:
        hooks.new_turn(game)
    hooks.begin_step(game, nxt)
    return nxt


def first_step(game: "Game", turn: int, phase: str = "") -> Step:
    """Where a scenario starts: the first phase of ``turn``, or the named phase of it (first_phase).

    ``phase`` may be "<phase>" or "<segment>/<phase>"; a ValueError says why it names none.
    """
    steps = turn_steps(game, turn)
    if not phase:
        return steps[0]
    seg, _, name = phase.rpartition("/")
    for s in steps:
        if s.phase == name and (not seg or s.segment == seg):
            return s
    raise ValueError(f"turn {turn} has no phase '{phase}' (it has {', '.join(s.segment + '/' + s.phase for s in steps)})")


def start(game: "Game") -> Step:
    """Where the scenario starts play: its first_turn and first_phase (default: turn 1, first phase)."""
    sc = game.scenario
    return first_step(game, sc.first_turn, sc.first_phase)


def data_for_tracker(game: "Game") -> list[tuple[SegmentDef, str, list[tuple[PhaseDef, tuple[str, ...], bool]]]]:
    """The whole game-turn for a tracker: each segment with its phasing side ("" if none) and its
    phases, their owner sides and whether the phase runs this turn."""
    seq: Sequence = game.rules.sequence  # type: ignore[attr-defined]
    first, second = sides(game)
    running = {(s.segment, s.phase) for s in turn_steps(game)}
    out = []
    for seg in seq.segments:
        phasing = first if seg.phasing == "first" else second if seg.phasing == "second" else ""
        rows = [(ph, _owners(ph.owner, phasing, first, second), (seg.id, ph.id) in running) for ph in seg.phases]
        out.append((seg, phasing, rows))
    return out


def all_steps_of(game: "Game") -> list[Step]:
    """Every phase the game's game-turn can have, with its sides (skip rules ignored)."""
    seq: Sequence = game.rules.sequence  # type: ignore[attr-defined]
    return seq.all_steps(*sides(game))


def summary(seq: Sequence) -> dict[str, Any]:
    """A plain form of the sequence (tests, docs)."""
    return {"game": seq.game, "segments": [
        {"id": s.id, "phasing": s.phasing, "phases": [(p.id, p.owner) for p in s.phases]} for s in seq.segments]}

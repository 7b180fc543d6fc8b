"""The German's pockets closed in the middle of the game (the "pocket" part of ``Level.parts``; issue 34).

A Soviet combat unit is in supply while a line of communications reaches a supplied HQ within
its command radius (11.34) and that HQ traces to an eastern source (19.83); a German unit, or its
zone of control where no Soviet unit stands, shuts a hex to both lines (11.31, 12.1, 8.25).
Supply is judged at the moment it matters, so a unit cut off by the German's movement phase
defends at half strength in the combat phase that follows (12.23), and one destroyed there is a
pocket closed; a unit still cut off when the Soviet's movement phase begins moves at half its
allowance (5.25, 12.21) and attacks at half strength.

``cut_move``, asked before the usual moves of the German's movement and mechanized phases (not
in its last player-turn, where ``ai_endgame`` cuts for the final count), ranks the hexes on the
Soviet combat units' traced lines by the units tracing through them, takes for each of the best
few the German combat unit that gives up least by going there (its usual score there against its
best usual move: towns held, attacks set up and the danger of a counter-attack are all in it),
plays the move on a look-ahead copy and counts the Soviet units it leaves out of supply.  The
move whose units cut off outweigh what the mover gives up by ``MIN_GAIN`` is played.  Every copy
is one rules question of the phase's budget, and the copies per phase are capped (``TRIALS``),
so the search stays deterministic and short.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.ai.base import sandbox
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.acting import can_move
from kiev_tui.games.spi_kiev.ai_endgame import line_weights
from kiev_tui.games.spi_kiev.actions import Move
from kiev_tui.games.spi_kiev.common import GERMAN, MECHANIZED, MOVEMENT, SOVIET, View
from kiev_tui.games.spi_kiev.supply import closed_bits, flood_bits, loc_bits, supply_bits, supply_sources

if TYPE_CHECKING:
    from kiev_tui.games.spi_kiev.ai import Ctx, KievAI

PART = "pocket"  # the name of this part in ``Level.parts``
FAST_HEXES = 40  # the best-ranked hexes weighed on the bit sets each time a cut is looked for
PAIR_HEXES = 12  # the best-ranked of them also weighed two by two (a pincer)
CHECKS = 3  # candidates checked on a look-ahead copy each time
TRIALS = 12  # look-ahead copies per phase, at most
MOVERS_PER_HEX = 3  # German units weighed for each hex (the cheapest is tried)
MIN_GAIN = 1.0  # VP a cut must gain over what its mover gives up
W_CUT = 0.5  # VP per Soviet combat unit cut off (half movement and attack on its turn, 5.25, 12.23)
W_HIT = 1.0  # VP more, in the movement phase, for one beside a German combat unit (attacked halved)


def applies(ai: "KievAI", game: Game) -> bool:
    """Whether this part plays now: a German movement or mechanized phase before the last turn."""
    return (ai.side == GERMAN and PART in ai.level.parts and game.state.phase in (MOVEMENT, MECHANIZED)
            and not ai.last_word(game))


class PhaseState:
    """What the search keeps within one phase: copies spent, each unit's reach when first asked
    (a move made since is checked again before it is tried), the second move of a pair."""

    def __init__(self) -> None:
        self.trials = 0
        self.reach: dict[str, dict[Hex, tuple[str, ...]]] = {}
        self.done = False
        self.follow: Move | None = None  # the second move of a pair that cuts together
        self.follow_why = ""


def _german_beside(view: View, h: Hex) -> bool:
    """A German combat unit stands next to h (it may attack there this combat phase)."""
    for n in view.map.neighbours(h):
        ids = view.occupancy.get(n)
        if ids and view.side(ids[0]) == GERMAN and any(not view.is_hq_like(u) for u in ids):
            return True
    return False


def unit_value(view: View, uid: str, phase: str) -> float:
    """What one Soviet combat unit out of supply is worth to the German now."""
    h = view.hex_of(uid)
    if phase == MOVEMENT and h is not None and _german_beside(view, h):
        return W_CUT + W_HIT
    return W_CUT


def cut_value(game: Game, trial: Game, phase: str) -> tuple[float, list[str]]:
    """The worth of the Soviet combat units in supply in ``game`` and out of it in ``trial``."""
    before = game.rules.position(game).supply.all_status(SOVIET)
    tv = trial.rules.position(trial)
    value, cut = 0.0, []
    for uid, st in tv.supply.all_status(SOVIET).items():
        was = before.get(uid)
        if st.in_supply or was is None or not was.in_supply or tv.is_hq_like(uid):
            continue
        value += unit_value(tv, uid, phase)
        cut.append(uid)
    return value, sorted(cut)


class Network:
    """The Soviet lines of supply and command of one position as bit sets (``supply_bits``,
    ``loc_bits``), to ask quickly which Soviet combat units a few more shut hexes would cut off
    (the same rules as ``Supply.status``: 11.31, 11.34, 12.1, 12.11, 19.83-19.85)."""

    def __init__(self, ctx: "Ctx") -> None:
        view = ctx.view
        self.view = view
        self.reach = ctx.reach
        g = self.graph = supply_bits(view.map)
        self.locs = loc_bits(view.map)
        self.closed = closed_bits(view, SOVIET)
        self.soviet = g.bits(ctx.enemy_hexes)
        control = view.state.control
        self.crossings = tuple((hb, nb) for hb, nb, a, b in g.crossings
                               if control.get(a) == SOVIET or control.get(b) == SOVIET)
        self.sources = g.bits(supply_sources(view, SOVIET))
        self.turn1 = view.state.turn == 1  # 19.85: straight to a source, no HQ needed
        sup = view.supply
        self.hqs = [(g.index[h], h, view.udef(hq).leadership) for hq in sup.soviet_hqs
                    if (h := view.hex_of(hq)) is not None and h in g.index]
        phase = view.state.phase
        entered = set(view.vars.entered)
        self.units: list[tuple[str, int, float]] = []
        for uid, st in sup.all_status(SOVIET).items():
            h = view.hex_of(uid)
            if st.in_supply and h is not None and h in g.index and not view.is_hq_like(uid) and uid not in entered:
                self.units.append((uid, g.index[h], unit_value(view, uid, phase)))
        base = self._supplied(0)
        self.units = [x for x in self.units if base >> x[1] & 1]  # the model agrees they are supplied

    def shut(self, h: Hex) -> int:
        """The hexes a German combat unit in h would shut to Soviet lines: its own and its zone's
        (8.12, 11.31), less those a Soviet unit stands in (8.25)."""
        return self.graph.bits((h, *self.reach[h])) & ~self.soviet

    def _flood(self, closed: int) -> int:
        # 19.84: a shut source feeds nothing (a German unit may now stand on one)
        return flood_bits(self.graph, self.sources & ~closed, closed, self.crossings)

    def _supplied(self, extra: int) -> int:
        """The hexes where a Soviet combat unit would be in supply with ``extra`` shut as well."""
        closed = self.closed | extra
        flood = self._flood(closed)
        if self.turn1:
            return flood
        out = 0
        for i, h, radius in self.hqs:
            if flood >> i & 1:  # 19.83: the HQ itself traces to a source
                out |= self.locs.reach(h, radius, closed)  # 11.34: within its command radius
        return out

    def cut(self, extra: int) -> tuple[float, list[str]]:
        """The worth and ids of the Soviet combat units in supply now and cut off with ``extra``."""
        fed = self._supplied(extra)
        out = [(uid, v) for uid, i, v in self.units if not fed >> i & 1]
        return sum(v for _, v in out), sorted(uid for uid, _ in out)


def _weights(ctx: "Ctx") -> dict[Hex, float]:
    """Hexes on the Soviet combat units' traced lines, worth what cutting each unit off gains now
    (``unit_value``; HQs not counted), and ``W_CUT`` for a hex that shuts a Soviet source."""
    view, phase = ctx.view, ctx.game.state.phase
    return line_weights(ctx, lambda uid: None if view.is_hq_like(uid) else unit_value(view, uid, phase), W_CUT)


def _movers(ai: "KievAI", game: Game, view: View) -> list[str]:
    """German combat units that may still move this phase, mechanized ones first."""
    mech = game.state.phase == MECHANIZED
    out = []
    for h, ids in sorted(view.occupancy.items()):
        for u in ids:
            d = view.udef(u)
            if (view.side(u) != GERMAN or view.is_hq_like(u) or u in ai._done or not can_move(view, u)
                    or (mech and not d.mechanized)):
                continue
            out.append((not d.mechanized, u))
    return [u for _, u in sorted(out)]


def cut_move(ai: "KievAI", game: Game, ctx: "Ctx") -> Move | None:
    """The move (or the first of two) whose Soviet units cut off outweigh most what its movers
    give up, if one gains ``MIN_GAIN``; found on the bit sets (``Network``), checked on a copy."""
    state: PhaseState = ai._pocket
    if state.done or state.trials >= TRIALS or ai.budget.exhausted:
        state.done = True
        return None
    view = ctx.view
    if state.follow is not None:  # the second half of a pair chosen at the last call
        act, state.follow = state.follow, None
        if game.check(act, side=GERMAN) is None and act.units[0] not in ai._done:
            return _play(ai, act, state.follow_why)
    weights = _weights(ctx)
    net = Network(ctx)
    if not weights or not net.units:
        state.done = True
        return None
    # Per hex, the units that can end there (in ``_movers`` order), a few each.
    who: dict[Hex, list[tuple[str, tuple[str, ...]]]] = {}
    for u in _movers(ai, game, view):
        start = view.hex_of(u)
        if start is None or ctx._leader_left(u, start) > 0:
            continue
        reach = state.reach.get(u)
        if reach is None:
            ai.budget.spend()
            reach = state.reach[u] = {h: tuple(r.path) for h, r in
                                      game.rules.reachable(game, (u,), explain=False).items() if r.ok}
        for h, path in reach.items():
            if h != start and h in weights and ctx.fits(u, h):
                got = who.setdefault(h, [])
                if len(got) < MOVERS_PER_HEX:
                    got.append((u, path))
    ranked = sorted(who, key=lambda h: (-weights[h], str(h)))[:FAST_HEXES]
    best_of: dict[str, float] = {}

    def give_up(u: str, h: Hex, path: tuple[str, ...]) -> float:
        """What the move costs the unit against its best usual move (or staying put)."""
        if u not in best_of:
            start = view.hex_of(u)
            assert start is not None
            best_of[u] = max([ctx.score(u, start, ())] + [ctx.score(u, x, p) for x, p in state.reach[u].items()
                                                          if x != start and ctx.fits(u, x)])
        return max(0.0, best_of[u] - ctx.score(u, h, path))

    def cheapest(h: Hex, but: str = "") -> tuple[float, str, tuple[str, ...]] | None:
        opts = [(give_up(u, h, p), u, p) for u, p in who[h] if u != but]
        return min(opts) if opts else None

    shut = {h: net.shut(h) for h in ranked}
    single = {h: net.cut(shut[h])[0] for h in ranked}
    # (fast net gain, moves, the fast worth) of each candidate: one move, or two that cut together
    cands: list[tuple[float, tuple[Move, ...], float]] = []
    for h in ranked:
        if single[h] > MIN_GAIN:
            c = cheapest(h)
            if c is not None and single[h] - c[0] > MIN_GAIN:
                cands.append((single[h] - c[0], (Move((c[1],), c[2]),), single[h]))
    pair_hexes = ranked[:PAIR_HEXES]
    for i, h1 in enumerate(pair_hexes):
        for h2 in pair_hexes[i + 1:]:
            if shut[h1] & shut[h2] == shut[h2] or shut[h1] & shut[h2] == shut[h1]:
                continue  # one of the two adds nothing the other does not shut
            both = net.cut(shut[h1] | shut[h2])[0]
            if both - max(single[h1], single[h2]) <= MIN_GAIN:
                continue  # the pair cuts little more than its better half alone
            c1 = cheapest(h1)
            if c1 is None:
                continue
            c2 = cheapest(h2, but=c1[1])
            if c2 is None or both - c1[0] - c2[0] <= MIN_GAIN:
                continue
            first, second = (c1, c2) if single[h1] >= single[h2] else (c2, c1)
            cands.append((both - c1[0] - c2[0], (Move((first[1],), first[2]), Move((second[1],), second[2])), both))
    cands.sort(key=lambda x: (-x[0], [m.path for m in x[1]]))
    best, best_moves, best_cut = MIN_GAIN, None, []
    for fast, moves, worth in cands[:CHECKS]:
        if state.trials >= TRIALS or ai.budget.exhausted:
            break
        if fast <= best:
            break  # the copies can only confirm less than the bit sets promised
        cost = worth - fast  # what the movers give up (the fast gain is the worth less this)
        trial = sandbox(game, ai.rng)
        state.trials += 1
        ai.budget.spend()
        ok = True
        for m in moves:
            if trial.check(m, side=GERMAN) is not None:
                ok = False
                break
            trial.apply(m, side=GERMAN)
        if not ok:
            continue
        value, cut = cut_value(game, trial, game.state.phase)
        if value - cost > best:
            best, best_moves, best_cut = value - cost, moves, cut
    if best_moves is None:
        state.done = True
        return None
    why = (f"cuts the supply of {len(best_cut)} Soviet unit(s) ({', '.join(best_cut[:4])}"
           f"{', ...' if len(best_cut) > 4 else ''})" + (" with the next move" if len(best_moves) > 1 else "")
           + f": +{best:.1f} VP over the usual moves (11.34, 12.23)")
    if len(best_moves) > 1:
        state.follow, state.follow_why = best_moves[1], why
    return _play(ai, best_moves[0], why)


def _play(ai: "KievAI", act: Move, why: str) -> Move:
    ai._done.add(act.units[0])
    ai._why = why
    return act

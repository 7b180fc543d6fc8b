"""SPI Kiev in plain line mode: its names, panels and commands as lines of text.

The panel text is ``text.py``'s, as the Textual face says it (``present.py`` adds the map's
looks, which need Textual, so plain mode never imports it); what plain mode says otherwise is
its tracker, which lists the mud and directive turns as words, and its commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev import combat, overrun  # combat first: it loads advance and retreat
from kiev_tui.games.spi_kiev import acting, advance, movement, rail, reinforcements, retreat, stacking, victory
from kiev_tui.games.spi_kiev.actions import (Advance, Attack, ChooseIntegrity, ChooseRetreat, DeclineAdvance,
                                             Enter, Move, Overrun, RailMove, RemoveExcess, Retreat, TakeLosses)
from kiev_tui.games.spi_kiev.common import COMBAT, View
from kiev_tui.games.spi_kiev.face import text
from kiev_tui.games.spi_kiev.face.text import (PHASE_TITLE, hex_lines, side_name, stack_order, steps_left,
                                               strength_text, supply_all, unit_lines, unit_name)
from kiev_tui.games.spi_kiev.state import kiev_vars
from kiev_tui.games.spi_kiev.supply import SupplyStatus
from kiev_tui.plain.face import PlainFace
from kiev_tui.plain.session import PlainSession, Refuse, pack, preview_tail, split_arrow
from kiev_tui.plain.session import cmd_reach as session_reach

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

__all__ = ["PHASE_TITLE", "PLAIN", "KievPlain", "final_score_lines", "hex_lines", "score_now_lines", "side_name",
           "stack_order", "steps_left", "strength_text", "supply_all", "tracker_lines", "unit_lines", "unit_name"]


def _view(game: "Game") -> View:
    return game.rules.position(game)  # type: ignore[no-any-return]


def _solid(lines: list[str]) -> list[str]:
    """Lines without the blank ones the Textual score box parts its groups with."""
    return [line for line in lines if line]


def tracker_lines(game: "Game") -> list[str]:
    """Turn and date; the mud and directive turns still to come, in words (a screen reader reads
    no row of marks); then the phases, the score, the directive and rail use."""
    st = game.state
    turns = game.scenario.turns
    lines = [text.turn_head(game)]
    later_mud = sorted(t for t in text.mud_turns(game) if st.turn <= t <= turns)
    later_dir = sorted(t for t in text.directive_turns(game) if st.turn <= t <= turns)
    if later_mud:
        lines.append(f"Mud turns: {', '.join(map(str, later_mud))}")
    if later_dir:
        lines.append(f"Stalin's Directive turns known: {', '.join(map(str, later_dir))}")
    return lines + text.play_lines(game, text.vp_text(game))


def score_now_lines(view: View) -> list[str]:
    """The points as they stand and why, who holds each city and town, units lost."""
    return _solid(text.score_now_lines(view))


def final_score_lines(score: dict[str, Any]) -> list[str]:
    return _solid(text.score_lines(score))


# -- the face ------------------------------------------------------------------------------------

class KievPlain(PlainFace):
    """SPI Kiev's names, panels and commands for plain mode."""

    def side_name(self, game: "Game", side: str) -> str:
        return side_name(side)

    def unit_name(self, game: "Game", uid: str) -> str:
        return unit_name(_view(game), uid)

    def name_ids(self, game: "Game", engine_text: str) -> str:
        return text.name_ids(_view(game), engine_text)

    def phase_title(self, game: "Game", phase: str) -> str:
        return PHASE_TITLE.get(phase, phase)

    def strength(self, game: "Game", uid: str) -> str:
        return strength_text(_view(game), uid)

    def stack_order(self, game: "Game", ids: list[str]) -> list[str]:
        return stack_order(_view(game), ids)

    def hex_lines(self, game: "Game", h: Hex) -> list[str]:
        return hex_lines(_view(game), h)

    def unit_line(self, game: "Game", uid: str) -> str:
        view = _view(game)
        return f"{unit_name(view, uid)} {strength_text(view, uid)}"

    def unit_lines(self, game: "Game", uid: str) -> list[str]:
        return unit_lines(_view(game), uid, self._supply(game))

    def _supply(self, game: "Game") -> dict[str, SupplyStatus]:
        key = (game.version, id(game.state))
        if getattr(self, "_supply_key", None) != key:  # worked out once per position
            self._supply_key, self._supply_cache = key, supply_all(_view(game))
        return self._supply_cache

    def tracker_lines(self, game: "Game") -> list[str]:
        return tracker_lines(game)

    def score_lines(self, game: "Game") -> list[str]:
        final = kiev_vars(game.state).final_score if game.state.over else None
        if not final:
            return score_now_lines(_view(game))
        view = _view(game)
        again = victory.score(view, final=True)
        if again.to_dict() == final:  # the same score worked out again: its lines can name the units
            final = {**final, "lines": [{**line, "what": text.name_ids(view, named)}
                                        for line, named in zip(final["lines"], again.named)]}
        return final_score_lines(final)

    def movers(self, game: "Game", ids: list[str], side: str) -> list[str]:
        # as the TUI selects: a stack held in an enemy zone may still be picked, to overrun (6.0)
        view = _view(game)
        own = [u for u in ids if view.side(u) == side]
        able = [u for u in own if acting.can_move(view, u, zoc=False)] if game.state.phase != COMBAT else \
            [u for u in own if game.rules.can_act(game, u)]
        return able or own

    def move_action(self, game: "Game", units: tuple[str, ...], path: tuple[str, ...]) -> Any:
        return Move(units, path)

    def pending_lines(self, game: "Game") -> list[str]:
        p = game.state.pending
        if p is None:
            return []
        view = _view(game)
        kind = str(p.get("kind", ""))
        who = side_name(str(p.get("side", "")))
        lines = [f"The {who} player must answer: {self.name_ids(game, str(p.get('prompt', '')))}"]
        units = list(p.get("units", []))
        if kind == "loss_or_retreat":
            steps = int(p.get("steps", 1))
            lines.append("Units hit:")
            lines.extend(f"  {n}. {self.unit_line(game, u)} ({steps_left(view, u)} step(s))" for n, u in enumerate(units, 1))
            how = f"'losses N ...' (one number per step, {steps} in all)"
            if int(p.get("hexes", steps)):
                how += f", or 'retreat' to fall back {int(p.get('hexes', steps))} hex(es) (9.66)"
            lines.append(f"Answer with {how}.")
        elif kind == "retreat":
            options = retreat.retreat_options(game)
            lines.append("Retreat paths (the attacker picks them, 19.7):")
            for n, u in enumerate(units, 1):
                opts = options.get(u, [])
                shown = [f"{k}) {'>'.join(o)}" for k, o in enumerate(opts, 1)] or ["none: the unit is lost"]
                lines.append(f"  {n}. {self.unit_name(game, u)}: " + "  ".join(shown))
            lines.append("Answer with 'retreat K ...': one path number per unit, in this order "
                         "(0 for a unit that has none).")
        elif kind == "advance":
            paths = advance.advance_options(game).get("paths", [])
            lines.append(f"May advance: {self.names(game, units)} (up to {p.get('max', '?')} hex(es), 9.8)")
            lines.append("Paths: " + "  ".join(f"{k}) {'>'.join(o)}" for k, o in enumerate(paths, 1)))
            lines.append("Answer with 'advance K' (a path number), 'advance HEX [HEX]', or 'advance no'.")
        elif kind == "integrity":
            lines.append(f"Choices: {', '.join(str(c) for c in p.get('choices', []))}")
            lines.append("Answer with 'integrity DIVISION' (20.2).")
        return lines

    def names(self, game: "Game", ids: list[str] | tuple[str, ...]) -> str:
        return ", ".join(self.unit_name(game, u) for u in ids)


# -- Kiev's commands --------------------------------------------------------------------------

def _integrity(args: list[str]) -> tuple[list[str], str]:
    """A trailing 'gd=DIVISION' (20.2: the division GD counts with) taken off the words; a
    division's name may hold a space ('gd=10 Mot'), so it runs to the end of the line."""
    for k, word in enumerate(args):
        if word.lower().startswith("gd="):
            return args[:k], " ".join([word[3:], *args[k + 1:]]).strip()
    return args, ""


def _detail(s: PlainSession, p: Any, head: str) -> list[str]:
    """Every number of a Kiev preview: totals, column, each unit with its modifiers, chances."""
    view = s.game.rules.position(s.game)
    if p.illegal is not None and not any(view.side(us.unit) != s.game.actor for us in p.defenders):
        return [head, *s.refusal(p.illegal)]  # no enemy there: figures of one's own units mean nothing
    lines = [head, f"Odds column: {p.column or 'not known until the untried units are revealed'}"]
    typed = p.modifiers  # the engine's typed modifiers (issue 30), each tagged with its unit
    for title, rows, total in (("Attackers", p.attackers, p.attack), ("Defenders", p.defenders, p.defense)):
        lines.append(f"{title} (total {total if total is not None else 'unknown until revealed'}):")
        for us in rows:
            shown = "?" if us.value is None else f"{us.value:g}"
            lines.append(f"  {s.face.unit_name(s.game, us.unit)}: {us.base if us.base is not None else '?'} -> {shown}")
            lines.extend(f"      [{m.case}] {m.text}" for m in typed if m.unit == us.unit)
    return lines + preview_tail(s, p)


def cmd_odds(s: PlainSession, args: list[str]) -> list[str]:
    args, gd = _integrity(args)
    g = s.game
    if g.state.phase == COMBAT:
        attackers, targets = split_arrow(s, args, "odds HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]")
        return _detail(s, combat.preview(g, attackers, targets, integrity=gd), f"Attack on {' '.join(targets)}")
    attackers, targets = split_arrow(s, args, "odds HEX -> HEX (an overrun, in a movement phase)")
    if len(targets) != 1:
        raise Refuse("an overrun has one target hex (6.0)")
    return _detail(s, overrun.overrun_preview(g, attackers, targets[0], integrity=gd),
                   f"Overrun of {targets[0]} (6.0): 3 MP, half attack strength")


def cmd_attack(s: PlainSession, args: list[str]) -> list[str]:
    args, gd = _integrity(args)
    attackers, targets = split_arrow(s, args, "attack HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]")
    return s.play(Attack(attackers, targets, gd))


def cmd_overrun(s: PlainSession, args: list[str]) -> list[str]:
    args, gd = _integrity(args)
    units, targets = split_arrow(s, args, "overrun HEX -> HEX [gd=DIVISION]")
    if len(targets) != 1:
        raise Refuse("an overrun has one target hex (6.0)")
    return s.play(Overrun(units, targets[0], gd))


RAIL_USAGE = "usage: rail HEX[:N,N] HEX [HEX...]  (a far hex alone: the shortest rail route there)"


def cmd_rail(s: PlainSession, args: list[str]) -> list[str]:
    units, path = s.stack_and_path(args, RAIL_USAGE)
    if len(path) == 1:
        # FROM TO: the shortest route along friendly rail (5.31, 19.3), as 'reach HEX rail' lists them
        view = _view(s.game)
        found = rail.destinations(view, units)
        start, to = view.hex_of(units[0]), s.hex(path[0])
        if to in found:
            path = found[to]
        elif found and start is not None and start.distance(to) > 1:
            return s.refusal(Illegal("5.31", f"no friendly rail route runs from {start} to {to} within "
                                             f"{rail.max_hexes(view)} rail hexes (see 'reach {start} rail')"))
        elif not found and start is not None:
            why = _rail_barrier(view, units, start)
            if why is not None:
                return s.refusal(why)
    return s.play(RailMove(units, path))


def _rail_barrier(view: View, units: tuple[str, ...], start: Hex) -> Illegal | None:
    """Why the stack can go nowhere by rail: the refusal of a one-hex ride (5.3, 19.3)."""
    near = sorted(rail.reach(view, units).items(), key=lambda kv: (len(kv[1]), kv[0]))
    return rail.check_rail(view, units, near[0][1] if near else (str(start),))


def cmd_reach(s: PlainSession, args: list[str]) -> list[str]:
    """``reach HEX rail``: the rail destinations with their distance in rail hexes; else the
    generic ``reach`` (normal movement)."""
    if not args or args[-1].lower() != "rail":
        if len(args) not in (1, 3):
            raise Refuse("usage: reach HEX  or  reach HEX to HEX  or  reach HEX rail")
        return session_reach(s, args)
    if len(args) != 2:
        raise Refuse("usage: reach HEX rail  (where the stack can go by rail, in rail hexes)")
    g = s.game
    h, units, _ = s.units_at(args[0], s.seat)
    if not units:
        raise Refuse(f"no units in {s.hid(h)}")
    view = _view(g)
    found = rail.destinations(view, tuple(units))
    who = s.names(units)
    if not found:
        why = _rail_barrier(view, tuple(units), h)
        if why is None:
            return [f"{who} can reach no hex by rail from {s.hid(h)} now."]
        return [f"{who} cannot move by rail from {s.hid(h)}: [{why.case}] "
                f"{s.face.name_ids(g, why.why)} (rules {why.case})"]
    used, limit = rail.capacity(view)
    ok = sorted(((len(p), s.hid(x)) for x, p in found.items()), key=lambda p: (p[0], p[1]))
    return [f"By rail from {s.hid(h)}, {who} can reach {len(ok)} hex(es) (rail hexes; at most "
            f"{rail.max_hexes(view)}, {used}/{limit} units used this turn):",
            *pack([f"{hid} {n}" for n, hid in ok], s.width),
            f"('rail {s.hid(h)} HEX' takes the shortest route there)"]


def cmd_enter(s: PlainSession, args: list[str]) -> list[str]:
    g = s.game
    view = _view(g)
    due = reinforcements.due_now(view)
    if not args:
        if not due:
            return ["No reinforcements are due now."]
        lines = ["Reinforcements due now (enter N[,N] HEX [rail]):"]
        for n, uid in enumerate(due, 1):
            hexes = [str(h) for h in reinforcements.entry_hexes(view, uid)]
            lines.append(f"  {n}. {unit_name(view, uid)}: " + (" ".join(hexes) if hexes else "nowhere to enter"))
        return lines + _hand_note(s, movement.ends_hand(view, tuple(due[:1])))
    by_rail = args[-1].lower() == "rail"
    words = args[:-1] if by_rail else args
    if len(words) != 2:
        raise Refuse("usage: enter N[,N] HEX [rail]  ('enter' alone lists what is due)")
    units = tuple(s.unit(w, due) for w in words[0].split(",") if w)
    action = Enter(units, s.hid(s.hex(words[1])), by_rail)
    if g.check(action, side=s.seat) is not None:
        return s.play(action)  # the refusal, with its case
    # 5.0 with 15.0: the group still in hand stops here for good (issue 35: say so, not silently)
    ended = _hand_note(s, movement.ends_hand(view, units))
    out = [*ended, *s.play(action)]
    if s.game.state.pending is None and not s.handing_over:
        # more groups still to come: warn now, before the next one ends this one's move
        view = _view(g)
        later = tuple(reinforcements.due_now(view)[:1])
        out += _hand_note(s, movement.ends_hand(view, later) if later else None)
    return out


def _hand_note(s: PlainSession, caution: "movement.Caution | None") -> list[str]:
    if caution is None:
        return []
    return [f"Note [{caution.case}] {s.face.name_ids(s.game, caution.why)} (rules {caution.case})"]


def cmd_remove(s: PlainSession, args: list[str]) -> list[str]:
    if len(args) != 1:
        raise Refuse("usage: remove HEX:N  (a unit of an overstacked hex, 7.0)")
    uid = s.unit(args[0])
    if not stacking.may_remove(_view(s.game), uid):
        hex_id = s.game.state.units[uid].hex or "its hex"
        return s.refusal(Illegal("7.0", f"{hex_id} is within the stacking limit: nothing to remove there"))
    return s.play(RemoveExcess(uid))


def _pending(s: PlainSession, kind: str) -> dict[str, Any]:
    p = s.game.state.pending
    if p is None or p.get("kind") != kind:
        raise Refuse(f"no {kind.replace('_', ' ')} choice is waiting (see 'todo')")
    return dict(p)


def cmd_losses(s: PlainSession, args: list[str]) -> list[str]:
    p = _pending(s, "loss_or_retreat")
    if not args:
        raise Refuse("usage: losses N [N...]  (one number per step, as the pending choice lists them)")
    listed = list(p.get("units", []))
    return s.play(TakeLosses(tuple(s.unit(w, listed) for w in args)))


def cmd_retreat(s: PlainSession, args: list[str]) -> list[str]:
    p = s.game.state.pending
    kind = p.get("kind") if p is not None else None
    if kind == "loss_or_retreat":
        if args:
            raise Refuse("usage: retreat  (then the other player picks the paths, 19.7)")
        return s.play(ChooseRetreat())
    p = _pending(s, "retreat")
    units = list(p.get("units", []))
    if len(args) != len(units):
        raise Refuse(f"give one path number per unit: {len(units)} in all (see 'todo')")
    options = retreat.retreat_options(s.game)
    paths: list[tuple[str, ...]] = []
    for uid, word in zip(units, args):
        opts = options.get(uid, [])
        if word.isdigit():
            k = int(word)
            if k == 0:
                paths.append(())
                continue
            if not 1 <= k <= len(opts):
                raise Refuse(f"{s.face.unit_name(s.game, uid)} has {len(opts)} path(s): no number {k}")
            paths.append(tuple(opts[k - 1]))
        else:  # a path typed out: HEX,HEX
            paths.append(tuple(s.hid(s.hex(w)) for w in word.split(",") if w))
    return s.play(Retreat(tuple(units), tuple(paths)))


def cmd_advance(s: PlainSession, args: list[str]) -> list[str]:
    p = _pending(s, "advance")
    if args and args[0].lower() in ("no", "none", "decline"):
        return s.play(DeclineAdvance())
    if not args:
        raise Refuse("usage: advance K | advance HEX [HEX] | advance no  [units=N,N]")
    listed = list(p.get("units", []))
    units = tuple(listed)
    rest = []
    for w in args:
        if w.lower().startswith("units="):
            units = tuple(s.unit(x, listed) for x in w.split("=", 1)[1].split(",") if x)
        else:
            rest.append(w)
    paths = advance.advance_options(s.game).get("paths", [])
    if len(rest) == 1 and rest[0].isdigit() and len(rest[0]) < 3:
        k = int(rest[0])
        if not 1 <= k <= len(paths):
            raise Refuse(f"there are {len(paths)} advance path(s): no number {k}")
        path = tuple(paths[k - 1])
    else:
        path = tuple(s.hid(s.hex(w)) for w in rest)
    return s.play(Advance(units, path))


def cmd_integrity(s: PlainSession, args: list[str]) -> list[str]:
    _pending(s, "integrity")
    if not args:
        raise Refuse("usage: integrity DIVISION  (20.2)")
    return s.play(ChooseIntegrity(" ".join(args)))  # a division's name may hold a space


PLAIN = KievPlain()
PLAIN.commands = {
    "odds": (cmd_odds, "odds HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]",
             "combat phase: the odds of an attack, each unit and modifier; movement: an overrun's", "odds 0706 -> 0705"),
    "attack": (cmd_attack, "attack HEX [HEX...] -> HEX [HEX...] [gd=DIVISION]",
               "attack from the first hexes into the others: rolls at once and shows the result", "attack 0706 -> 0705"),
    "overrun": (cmd_overrun, "overrun HEX -> HEX [gd=DIVISION]", "overrun the enemy hex with the stack (6.0)", "overrun 0706 -> 0705"),
    "reach": (cmd_reach, "reach HEX [to HEX] | reach HEX rail", "where the stack at HEX can move and at what "
              "cost; with 'to HEX', the path there or the rule that forbids it; with 'rail', where it can go by "
              "rail and how many rail hexes away", "reach 0319 rail"),
    "rail": (cmd_rail, "rail HEX[:N,N] HEX [HEX...]", "move by rail: to a far hex by the shortest rail route, "
             "or along the hexes given (5.3, 19.3)", "rail 0319:2 0321"),
    "enter": (cmd_enter, "enter [N[,N] HEX [rail]]", "alone: the reinforcements due and where they may enter; "
              "with numbers and a hex: bring them on (by rail with 'rail')", "enter 1,2 3424"),
    "remove": (cmd_remove, "remove HEX:N", "eliminate a unit of an overstacked hex (7.0)", "remove 0319:3"),
    "losses": (cmd_losses, "losses N [N...]", "answer a combat result with steps: one number per step", "losses 1 1"),
    "retreat": (cmd_retreat, "retreat [K...]", "alone: retreat instead of losing steps; "
                "with numbers: the retreat path of each unit (the attacker picks, 19.7)", "retreat 1 2"),
    "advance": (cmd_advance, "advance K | HEX [HEX] | no", "advance after combat along a listed path, or not (9.8)", "advance 1"),
    "integrity": (cmd_integrity, "integrity DIVISION", "the division GD counts with when attacked (20.2)", "integrity 10 Mot"),
}

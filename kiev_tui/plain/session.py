"""One plain-mode session: typed lines in, lines of plain text out, on any game.

Everything generic goes through the ``RuleSystem`` protocol (``game.rules``) and the game's
plain face (``face.py``); a game's own commands come from its face's ``commands``.  Output is
never longer than ``width`` and never holds a control character: anything typed that is echoed
back is shown with escapes (``\\x1b``), not obeyed by the terminal.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
import typing
from typing import TYPE_CHECKING, Any, Callable

from kiev_tui.engine import savepaths
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.dice import DiceNeeded
from kiev_tui.engine.errors import DataError, Illegal, one_line, shorten
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.rules import turn_label
from kiev_tui.engine.view import visible_to
from kiev_tui.plain.face import PlainFace, face_for
from kiev_tui.ui import text as ui_text  # the generic text both faces say; no Textual

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game

MIN_WIDTH = 30
UNIT_REF = re.compile(r"^(?P<hex>[^:]+):(?P<which>.+)$")


class Refuse(Exception):
    """A command that cannot be done as typed: one line saying why."""


def clean(text: str) -> str:
    """Text safe to print: every control character shown as an escape, never sent raw."""
    return one_line(text)


def wrap(lines: list[str], width: int) -> list[str]:
    """Each line cleaned and folded to ``width``; a folded line keeps its indent plus two."""
    out: list[str] = []
    for raw in lines:
        line = clean(raw).rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" "))
        indent = min(indent, width // 3)
        parts = textwrap.wrap(line.strip(), width=width, initial_indent=" " * indent,
                              subsequent_indent=" " * (indent + 2), break_long_words=True,
                              break_on_hyphens=False)
        out.extend(p[:width] for p in parts)
    return out


def pack(items: list[str], width: int, indent: str = "  ") -> list[str]:
    """Short items joined with two spaces into as few lines as fit."""
    lines: list[str] = []
    cur = indent
    for item in items:
        add = item if cur == indent else "  " + item
        if len(cur) + len(add) > width and cur != indent:
            lines.append(cur)
            cur = indent + item
        else:
            cur += add
    if cur.strip():
        lines.append(cur)
    return lines


@dataclasses.dataclass
class Spec:
    handler: Callable[["PlainSession", list[str]], list[str]]
    usage: str
    help: str
    example: str = ""


class PlainSession:
    """Plays one game by typed commands.  ``handle(line)`` returns the lines to print.

    ``pause``: when the side at the keyboard changes, hold back what the new side should see
    until ``release()`` (the loop calls it after the player pressed Enter on a terminal).

    ``part``: a game by e-mail (kiev_tui/pbem/part.py): one side plays, never hands over, and the
    session is done when his part ends; the action that draws dice is kept there, not rolled.
    """

    def __init__(self, game: "Game", width: int = 80, pause: bool = False, face: PlainFace | None = None,
                 part: Any = None, computer: Any = None) -> None:
        self.game = game
        self.width = max(MIN_WIDTH, int(width))
        self.pause = pause
        self.face = face if face is not None else face_for(game)
        self.part = part
        self.computer = computer  # an ai.base.Player for the other side, or None (hot seat)
        self.seat = game.actor  # the side at the keyboard: the actions typed are submitted as its
        self.held: list[str] = []  # what the next side sees once it has taken the keyboard
        self.handing_over = False
        #: at this hand-over the side leaving the keyboard holds a hidden choice it was shown:
        #: a terminal clears its screen and scrollback before the other player sits down
        self.hide_screen = False
        self.done = False
        self.commands: dict[str, Spec] = dict(GENERIC)
        for name, entry in self.face.commands.items():  # (handler, usage, help[, example])
            self.commands[name] = Spec(*entry)
        self._book: Any = None

    # -- the prompt and the opening ------------------------------------------------------------
    def side_name(self, side: str) -> str:
        return self.face.side_name(self.game, side)

    def prompt(self) -> str:
        g = self.game
        st = g.state
        if st.over:
            return clean("Game over> ")
        # the game's own numbering where it has one ("Game-turn 50"), else the short "T1"
        turn = turn_label(g) if getattr(g.rules, "turn_label", None) is not None else f"T{st.turn}"
        text = f"{turn} {self.side_name(st.player)} {self.face.phase_title(g, st.phase).lower()}"
        p = g.rules.prompt(g)
        if p is not None:
            text += f", {self.side_name(p.side)} to answer ({p.kind.replace('_', ' ')})"
        elif g.actor != st.player:  # a phase the other side acts in (a reaction phase)
            text += f", {self.side_name(g.actor)} to act"
        out = clean(text)[: self.width - 2]
        return out + "> "

    def opening(self) -> list[str]:
        g = self.game
        lines = [g.scenario.title, *self.face.tracker_lines(g)]
        c = self.computer
        computer_first = c is not None and g.actor == c.side and not g.state.over
        if c is not None:
            human = next(side for side in g.rules.schema.sides if side != c.side)
            lines.append(f"You play the {self.side_name(human)} side; the computer plays the "
                         f"{self.side_name(c.side)} side.")
        if not computer_first:
            lines.append(f"{self.side_name(self.seat)} player's turn.")
            lines.extend(self._situation())
        if self.part is not None:
            lines.append("Play by e-mail: your part ends when the move passes to the other player or at "
                         "an action that draws dice; then your turn file is written. 'quit' before that "
                         "writes nothing.")
        lines.append("Type 'help' for the commands, 'quit' to stop.")
        if computer_first:
            lines.extend(self.after())  # the computer's side moves first
        return wrap(lines, self.width)

    def _situation(self) -> list[str]:
        """What the side at the keyboard must see now: a pending choice, or the phase's to-do."""
        g = self.game
        lines = self.face.pending_lines(g)
        if not lines:
            lines = [f"- {self.face.name_ids(g, t)}" for t in g.phase.todo]
        return lines

    # -- input -----------------------------------------------------------------------------------
    def handle(self, line: str) -> list[str]:
        """The lines answering one typed command."""
        line = line.rstrip("\r\n").replace("\t", " ")
        if any(not ch.isprintable() for ch in line):
            return wrap([f"Refused: the line holds control characters ({shorten(clean(line), 40)})"], self.width)
        words = line.split()
        if not words:
            return []
        name = ALIASES.get(words[0].lower(), words[0].lower())
        spec = self.commands.get(name)
        if spec is None:
            return wrap([f"Unknown command '{shorten(words[0], 30)}'. Type 'help' for the list."], self.width)
        try:
            out = spec.handler(self, words[1:])
        except Refuse as exc:
            out = [str(exc)]
        except DataError as exc:
            out = [f"Refused: {exc.reason}"]
        return wrap(out, self.width)

    def release(self) -> list[str]:
        """After a hand-over: what the new side sees once it has the keyboard."""
        out, self.held, self.handing_over = self.held, [], False
        return wrap(out, self.width)

    def completions(self, text: str) -> list[str]:
        """Words that complete the last word of ``text`` (a line typed so far)."""
        words = text.split(" ")
        last = words[-1]
        before = [w for w in words[:-1] if w]
        if not before:
            return sorted(c for c in self.commands if c.startswith(last.lower()))
        cmd = ALIASES.get(before[0].lower(), before[0].lower())
        if cmd == "help":
            options = list(self.commands)
        elif cmd == "do":
            if len(before) == 1:
                options = list(self.game.rules.actions)
            else:
                cls = self.game.rules.actions.get(before[1])
                options = [f"{f.name}=" for f in dataclasses.fields(cls)] if cls is not None else []
        elif cmd == "rules":
            options = ["search"]
        elif cmd == "units":
            options = list(self.game.rules.schema.sides)
        elif cmd == "map":
            options = ["around"] if len(before) == 1 else self._hex_ids()
        elif cmd in ("advance",):
            options = ["no"] + self._hex_ids()
        elif cmd == "reach" and len(before) == 2:
            options = ["to"] + (["rail"] if "rail" in self.commands else [])  # 'reach HEX rail': a game with rail
        else:
            options = self._hex_ids()
        return sorted(o for o in set(options) if o.startswith(last))[:200]

    def _hex_ids(self) -> list[str]:
        gmap = self.game.scenario.map
        return [gmap.grid.id(h) for h in gmap.hexes()]

    # -- helpers the commands share ---------------------------------------------------------------
    def hex(self, word: str) -> Hex:
        """The hex a typed word names: its id on this map's grid, or a place's name."""
        gmap = self.game.scenario.map
        try:
            h = gmap.grid.parse(word)
        except ValueError:
            found = gmap.find(word) if word.isprintable() else None
            if found is None:
                raise Refuse(f"'{shorten(word, 30)}' is not a hex of this map "
                             f"(e.g. {gmap.grid.id(min(gmap.hexes()))}) nor a place on it") from None
            return found
        if not gmap.on_map(h):
            raise Refuse(f"{gmap.grid.id(h)} is not on this map")
        return h

    def hid(self, h: Hex) -> str:
        return self.game.scenario.map.grid.id(h)

    def stack(self, h: Hex) -> list[str]:
        """The units in a hex, top first as the face orders them."""
        ids = self.game.state.occupancy().get(self.hid(h), [])
        return self.face.stack_order(self.game, list(ids))

    def units_at(self, word: str, side: str | None = None) -> tuple[Hex, list[str], bool]:
        """``HEX`` or ``HEX:1,3`` or ``HEX:unit-id,...``: the hex, the units meant, and whether the
        player picked them (False: the whole stack of ``side`` the face would move)."""
        m = UNIT_REF.match(word)
        h = self.hex(m.group("hex") if m else word)
        ids = self.stack(h)
        if m is None:
            if side is None:
                return h, ids, False
            return h, self.face.movers(self.game, ids, side), False
        picked: list[str] = []
        for part in m.group("which").split(","):
            part = part.strip()
            if part.isdigit():
                n = int(part)
                if not 1 <= n <= len(ids):
                    raise Refuse(f"{self.hid(h)} holds {len(ids)} unit(s): there is no number {n} "
                                 f"(see 'stack {self.hid(h)}')")
                uid = ids[n - 1]
            elif part in ids:
                uid = part
            else:
                raise Refuse(f"'{shorten(part, 30)}' is not a unit in {self.hid(h)} (see 'stack {self.hid(h)}')")
            if uid not in picked:
                picked.append(uid)
        return h, picked, True

    def unit(self, word: str, listed: list[str] | None = None) -> str:
        """One unit: a number in ``listed``, ``HEX:N``, or a unit id."""
        if listed is not None and word.isdigit():
            n = int(word)
            if not 1 <= n <= len(listed):
                raise Refuse(f"there is no number {n} in the list (1 to {len(listed)})")
            return listed[n - 1]
        if UNIT_REF.match(word):
            _, ids, _ = self.units_at(word)
            if len(ids) != 1:
                raise Refuse(f"'{shorten(word, 30)}' names {len(ids)} units; name one")
            return ids[0]
        if word in self.game.state.units:
            return word
        raise Refuse(f"'{shorten(word, 30)}' names no unit (write HEX:N, N as 'stack HEX' numbers them)")

    def stack_and_path(self, args: list[str], usage: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """``HEX[:N,N] HEX [HEX...]``: the units of the side at the keyboard in the first hex and
        the hex ids after it (``move``, and a game's own moves such as Kiev's ``rail``)."""
        if len(args) < 2:
            raise Refuse(usage)
        h, units, _ = self.units_at(args[0], self.seat)
        if not units:
            raise Refuse(f"no units of the {self.side_name(self.seat)} player in {self.hid(h)}")
        return tuple(units), tuple(self.hid(self.hex(w)) for w in args[1:])

    def names(self, ids: list[str] | tuple[str, ...]) -> str:
        return ", ".join(self.face.unit_name(self.game, u) for u in ids)

    def refusal(self, illegal: Illegal) -> list[str]:
        text = self.face.name_ids(self.game, illegal.why)
        return [f"Refused [{illegal.case}] {text} (rules {illegal.case})"]

    def play(self, action: Action) -> list[str]:
        """Check and play one action as the side at the keyboard; what happened, in lines."""
        g = self.game
        illegal = g.check(action, side=self.seat)
        if illegal is not None:
            return self.refusal(illegal)
        try:
            events = g.apply(action, side=self.seat)
        except DiceNeeded:
            if self.part is None:
                raise
            # commit-reveal: the die cannot be made before the other player's link arrives
            self.part.hold(action)  # the game put the position back as it was before the action
            self.done = True
            return [self.part.ending()]
        lines = [self.face.name_ids(g, e.describe()) for e in events if visible_to(e, self.seat)]
        return lines + self.after()

    def quit_question(self) -> str | None:
        """What to ask before leaving with something unsent or unsaved (None: nothing is lost)."""
        if self.part is not None:
            lost = self.part.unsent()
            return f"{lost[0]} Quit anyway? (y/n) " if lost else None
        n = self.game.unsaved
        return f"{n} action(s) since the last save would be lost; quit anyway? (y/n) " if n else None

    def after(self) -> list[str]:
        """After an action: the end of the game, a hand-over, or what is waiting now."""
        g = self.game
        if self.part is not None and self.part.finished:  # by e-mail: the other player goes on from here
            self.done = True
            over = ["The game is over.", *self.face.score_lines(g)] if g.state.over else []
            return [*over, self.part.ending()]
        if g.state.over:
            return ["The game is over.", *self.face.score_lines(g)]
        actor = g.actor
        if self.computer is not None and actor == self.computer.side:
            # No hand-over: the computer plays its side here, then the human has the keyboard again.
            self.seat = actor
            head = f"{self._turn_head(actor)} (the computer)"
            played, finished = self.computer_turn()
            if not finished:
                return [head, *played, "The computer did not finish its turn; you may play its side "
                        "('todo' says what is waiting)."]
            return [head, *played, *self.after()]
        if actor != self.seat:
            leaving, self.seat = self.seat, actor
            head = self._turn_head(actor)
            rest = [*self.face.tracker_lines(g), *self._situation()]
            if self.pause and self.computer is None:
                self.held = rest
                self.handing_over = True
                self.hide_screen = bool(g.state.secrets.get(leaving))
                return [head, f"Hand over to the {self.side_name(actor)} player."]
            return [head, *rest]
        return self.face.pending_lines(g)

    def _turn_head(self, actor: str) -> str:
        g = self.game
        p = g.rules.prompt(g)
        why = f"answer a choice ({p.kind.replace('_', ' ')})" if p is not None else \
            f"{self.face.phase_title(g, g.state.phase).lower()} phase"
        return f"{self.side_name(actor)} player's turn: {why}"

    def computer_turn(self) -> tuple[list[str], bool]:
        """The computer plays until the game waits for the human or ends: what it did, in lines,
        and whether it got there (False only if it went on past any real turn's length)."""
        from kiev_tui.ai.base import play_side_action

        g = self.game
        c = self.computer
        assert c is not None  # after() asks only when a computer plays the side that must act

        def its_move() -> bool:
            return not g.state.over and g.actor == c.side

        out: list[str] = []
        for _ in range(COMPUTER_ACTIONS_MAX):
            if not its_move():
                break
            before = len(g.journal)
            act = play_side_action(g, c)  # a refused choice becomes the end of its phase
            out.append(f"Computer: {action_text(self, act)}")
            out.extend(self.face.name_ids(g, e.describe()) for e in g.journal[before:])
        return out, not its_move()


#: More actions than the computer takes in any phase of any scenario: past it, it hands over.
COMPUTER_ACTIONS_MAX = 2000


# -- the generic commands ----------------------------------------------------------------------

def cmd_help(s: PlainSession, args: list[str]) -> list[str]:
    if args:
        name = ALIASES.get(args[0].lower(), args[0].lower())
        spec = s.commands.get(name)
        if spec is None:
            raise Refuse(f"no command '{shorten(args[0], 30)}'")
        lines = [f"{spec.usage}", f"  {spec.help}"]
        if spec.example:
            lines.append(f"  e.g. {spec.example}")
        short = [a for a, n in ALIASES.items() if n == name]
        if short:
            lines.append(f"  short form: {', '.join(short)}")
        return lines
    lines = ["Commands (help COMMAND says more):"]
    lines.extend(f"  {spec.usage}" for spec in s.commands.values())
    lines.append("Units: HEX:N is the N-th unit as 'stack HEX' numbers them (HEX:1,3 picks two).")
    return lines


def cmd_look(s: PlainSession, args: list[str]) -> list[str]:
    if len(args) != 1:
        raise Refuse("usage: look HEX")
    h = s.hex(args[0])
    g = s.game
    lines = s.face.hex_lines(g, h)
    ids = s.stack(h)
    if ids:
        side = g.scenario.catalog.units[ids[0]].side
        lines.append(f"{s.side_name(side)} stack of {len(ids)}:")
        lines.extend(f"  {n}. {s.face.unit_line(g, u)}" for n, u in enumerate(ids, 1))
    else:
        lines.append("No units.")
    return lines


def cmd_stack(s: PlainSession, args: list[str]) -> list[str]:
    if len(args) != 1:
        raise Refuse("usage: stack HEX")
    h = s.hex(args[0])
    ids = s.stack(h)
    if not ids:
        return [f"No units in {s.hid(h)}."]
    g = s.game
    side = g.scenario.catalog.units[ids[0]].side
    lines = [f"{s.side_name(side)} stack in {s.hid(h)}, {len(ids)} unit(s):"]
    for n, uid in enumerate(ids, 1):
        first, *rest = s.face.unit_lines(g, uid)
        lines.append(f"{n}. {first}")
        lines.extend(rest)
    return lines


def cmd_reach(s: PlainSession, args: list[str]) -> list[str]:
    if len(args) not in (1, 3) or (len(args) == 3 and args[1].lower() != "to"):
        raise Refuse("usage: reach HEX  or  reach HEX to HEX")
    g = s.game
    h, units, _ = s.units_at(args[0], s.seat)
    if not units:
        raise Refuse(f"no units in {s.hid(h)}")
    who = s.names(units)
    if len(args) == 3:
        t = s.hex(args[2])
        r = g.rules.reachable(g, tuple(units), explain=True).get(t)
        if r is not None and r.ok:
            return [f"{who}: {s.hid(t)} for {r.cost:g} MP by {' '.join(r.path)}"]
        if r is None or not r.case:
            return [f"{who} cannot reach {s.hid(t)}."]
        return [f"{who} cannot reach {s.hid(t)}: [{r.case}] {s.face.name_ids(g, r.why)} (rules {r.case})"]
    found = g.rules.reachable(g, tuple(units), explain=False)
    ok = sorted(((r.cost, s.hid(x)) for x, r in found.items() if r.ok and x != h), key=lambda p: (p[0], p[1]))
    if not ok:
        return [f"{who} can reach no hex from {s.hid(h)} now."]
    return [f"From {s.hid(h)}, {who} can reach {len(ok)} hex(es) (MP):",
            *pack([f"{hid} {cost:g}" for cost, hid in ok], s.width)]


def cmd_move(s: PlainSession, args: list[str]) -> list[str]:
    units, path = s.stack_and_path(
        args, "usage: move HEX HEX [HEX...]  (the first hex holds the stack; HEX:1,2 moves some)")
    try:
        action = s.face.move_action(s.game, units, path)
    except LookupError as exc:
        raise Refuse(str(exc)) from None
    return s.play(action)


def cmd_end(s: PlainSession, args: list[str]) -> list[str]:
    if args:
        raise Refuse("usage: end")
    return s.play(EndPhase())


def cmd_undo(s: PlainSession, args: list[str]) -> list[str]:
    g = s.game
    last = g.log[-1] if g.log else None
    if s.computer is not None and g.sides and g.sides[-1] == s.computer.side:
        return ["Nothing to undo: the last action was the computer's."]
    if not g.undo():
        return ["Nothing to undo: a roll, a reveal or a change of player came after it, or nothing was played."]
    return [f"Took back: {action_text(s, last) if last is not None else 'the last action'}"]


def action_text(s: PlainSession, action: Action) -> str:
    """An action as a player reads it: its kind and fields, units by name."""
    parts = []
    for key, value in action.to_toml().items():
        if key == "kind":
            continue
        if isinstance(value, list):
            value = ",".join(";".join(v) if isinstance(v, list) else str(v) for v in value)
        parts.append(f"{key}={value}")
    return s.face.name_ids(s.game, " ".join([action.kind, *parts]))


def cmd_score(s: PlainSession, args: list[str]) -> list[str]:
    return s.face.score_lines(s.game)


def cmd_log(s: PlainSession, args: list[str]) -> list[str]:
    n = 10
    if args:
        if len(args) != 1 or not args[0].isdigit():
            raise Refuse("usage: log [N]")
        n = max(1, min(int(args[0]), 500))
    g = s.game
    tail = g.journal[-n:]
    if not tail:
        return ["Nothing has happened yet."]
    first = len(g.journal) - len(tail) + 1
    return [f"{first + i}. {s.face.name_ids(g, e.describe())}" for i, e in enumerate(tail)]


def cmd_units(s: PlainSession, args: list[str]) -> list[str]:
    g = s.game
    sides = g.rules.schema.sides
    side = s.seat
    if args:
        wanted = args[0].lower()
        match = [x for x in sides if x.lower() == wanted or s.side_name(x).lower() == wanted]
        if len(args) != 1 or not match:
            raise Refuse(f"usage: units [SIDE]  (sides: {', '.join(sides)})")
        side = match[0]
    cat = g.scenario.catalog.units
    lines = [f"{s.side_name(side)} units on the map:"]
    for hid, ids in sorted(g.state.occupancy().items()):
        own = [u for u in ids if cat[u].side == side]
        if own:
            lines.append(f"  {hid}: {s.names(s.face.stack_order(g, own))}")
    off: dict[str, int] = {}
    for uid, us in g.state.units.items():
        if cat[uid].side == side and us.status != "map":
            off[us.status] = off.get(us.status, 0) + 1
    if off:
        lines.append("Off the map: " + ", ".join(f"{n} {what}" for what, n in sorted(off.items())))
    return lines


def cmd_todo(s: PlainSession, args: list[str]) -> list[str]:
    g = s.game
    lines = s.face.pending_lines(g)
    todo = [f"- {s.face.name_ids(g, t)}" for t in g.phase.todo]
    lines.extend(todo if todo else ["Nothing is required before the phase may end."])
    hexes = sorted({us.hex for u in g.rules.actable(g) if (us := g.state.units[u]).hex})
    if hexes:
        lines.append(f"Stacks that may still act ({len(hexes)}):")
        lines.extend(pack(hexes, s.width))
    return lines


def cmd_map(s: PlainSession, args: list[str]) -> list[str]:
    if not args or args[0].lower() != "around" or len(args) not in (2, 3) or (len(args) == 3 and not args[2].isdigit()):
        raise Refuse("usage: map around HEX [R]")
    from kiev_tui.textmap import render, side_marks

    g = s.game
    gmap = g.scenario.map
    h = s.hex(args[1])
    fits = max(1, (s.width - 10) // 10)  # 2R+1 columns of 5 characters, the edges and the row labels
    r = min(int(args[2]) if len(args) == 3 else 3, fits, 12)
    schema = g.rules.schema
    letters = side_marks(tuple(schema.sides), schema)
    stacks = {gmap.grid.parse(k): f"{letters[g.scenario.catalog.units[ids[0]].side]}{len(ids)}"
              for k, ids in g.state.occupancy().items()}
    rows = render(gmap, stacks, ids=True).split("\n")  # an empty hex shows its number
    c0 = gmap.grid.first_internal_column
    left = max(h.col - r, min(x.col for x in gmap.hexes()))
    x0, x1 = 5 * (left - c0), 5 * (h.col + r - c0) + 6
    y0, y1 = max(0, 2 * (h.row - r - 1)), 2 * (h.row + r) + 2
    x0 = max(0, x0)
    # the labels: each shown column's number over it; at the left, the row of the first column's
    # hex whose middle line this is (a hex number is column then row: 0319 is column 03, row 19)
    cols = [c for c in range(left, h.col + r + 1) if gmap.on_map(Hex(c, h.row)) or gmap.on_map(Hex(c, h.row + 1))]
    head = [" "] * (x1 - x0)
    for c in cols:
        label = _col_label(s, c, h.row)
        at = 5 * (c - c0) + 2 - x0
        for k, ch in enumerate(label):
            if 0 <= at + k < len(head):
                head[at + k] = ch
    mid = 1 if left % 2 == 1 else 2  # the first column's hexes have their middle on these lines
    cut: list[str] = []
    for y in range(y0, min(y1, len(rows))):
        row_label = _row_label(s, left, (y - mid) // 2 + 1) if (y - mid) % 2 == 0 else ""
        cut.append(f"{row_label:>3}" + rows[y][x0:x1].rstrip())
    while cut and not cut[0][3:].strip():
        cut.pop(0)
    while cut and not cut[-1][3:].strip():
        cut.pop()
    key = "; ".join(f"{m}2: a {s.side_name(side)} stack of 2 units" for side, m in letters.items())
    return [f"Map around {s.hid(h)} ({r} hexes each way; columns on top, rows at the left):",
            "   " + "".join(head).rstrip(), *cut, f"({key}; an empty hex shows its number)"]


def _col_label(s: PlainSession, col: int, row: int) -> str:
    """A column's number as hex numbers write it (the first two digits of CCRR)."""
    return s.hid(Hex(col, max(1, row)))[-4:-2]


def _row_label(s: PlainSession, col: int, row: int) -> str:
    return s.hid(Hex(col, row))[-2:] if row >= 1 else ""


def cmd_save(s: PlainSession, args: list[str]) -> list[str]:
    from kiev_tui.engine.saves import save_game

    if not args:
        raise Refuse("usage: save NAME  (a plain name: the file goes in the saves folder)")
    name = " ".join(args)
    try:
        path = savepaths.save_path_for(name)
    except savepaths.BadSaveName as exc:
        return [f"Not saved: {exc}"]
    problem = savepaths.replace_problem(path)
    if problem is not None:
        return [f"Not saved: {problem}"]
    try:
        save_game(s.game, path, make_parents=True)
    except OSError as exc:
        return [f"Not saved: {path}: {exc.strerror or exc}"]
    return [f"Saved to {path}"]


def _rulebook(s: PlainSession) -> Any:
    from kiev_tui.rulesref.model import GAMES, RulesDataError, load_reference

    if s._book is None:
        gid = s.game.rules.id
        if gid not in GAMES:
            raise Refuse(f"there is no rules reference for the {gid} game")
        try:
            s._book = load_reference(gid)
        except RulesDataError as exc:
            raise Refuse(f"the rules reference cannot be read: {exc}") from None
    return s._book


def cmd_rules(s: PlainSession, args: list[str]) -> list[str]:
    if not args:
        raise Refuse("usage: rules CASE  or  rules search WORDS")
    book = _rulebook(s)
    if args[0].lower() == "search":
        from kiev_tui.rulesref.search import search

        query = " ".join(args[1:])
        if not query:
            raise Refuse("usage: rules search WORDS")
        hits = search(query, book, limit=10)
        if not hits:
            return [f"No case matches '{shorten(query, 40)}'."]
        lines = [f"{len(hits)} case(s) matching '{shorten(query, 40)}', best first:"]
        for hit in hits:
            lines.append(f"{hit.case.heading}")
            lines.append(f"    {hit.excerpt(max(20, s.width - 4))[0]}")
        return lines
    ref = " ".join(args)
    if ref not in book:
        return [f"No case {shorten(ref, 20)} in {book.title}."]
    lines: list[str] = []
    for case in book.section(ref)[:40]:
        if lines:
            lines.append("")
        lines.append(case.heading)
        lines.extend(f"  {para}" for para in case.flowing_text.split("\n") if para.strip())
        if case.table is not None:
            lines.append("  " + " | ".join(case.table.header))
            lines.extend("  " + " | ".join(row) for row in case.table.rows)
        if case.see:
            lines.append(f"  See also: {', '.join(case.see)}")
    return lines


def cmd_do(s: PlainSession, args: list[str]) -> list[str]:
    reg = s.game.rules.actions
    if not args:
        lines = [f"Actions of the {s.game.rules.id} game ('do KIND key=value ...'):"]
        for kind in reg:
            cls = reg.get(kind)
            fields = " ".join(f"{f.name}=" for f in dataclasses.fields(cls)) if cls is not None else ""
            lines.append(f"  {kind} {fields}".rstrip())
        lines.append("Lists are written a,b,c; a list of lists a,b;c,d; HEX:N names a unit.")
        return lines
    kind = args[0]
    cls = reg.get(kind)
    if cls is None:
        raise Refuse(f"no action '{shorten(kind, 30)}' in the {s.game.rules.id} game (known: {', '.join(reg)})")
    hints = typing.get_type_hints(cls)
    data: dict[str, Any] = {"kind": kind}
    for word in args[1:]:
        key, eq, value = word.partition("=")
        if not eq:
            raise Refuse(f"'{shorten(word, 30)}' is not key=value")
        if key not in hints or key == "kind":
            names = ", ".join(f.name for f in dataclasses.fields(cls)) or "none"
            raise Refuse(f"action '{kind}' has no field '{shorten(key, 30)}' (fields: {names})")
        data[key] = _value(s, value, hints[key])
    action = reg.from_toml(data, where=kind, file="do")
    return s.play(action)


def _value(s: PlainSession, text: str, hint: Any) -> Any:
    """A typed value as the action's field wants it (lists by commas, lists of lists by ;)."""
    if hint is bool:
        low = text.lower()
        if low in ("true", "yes", "y", "1"):
            return True
        if low in ("false", "no", "n", "0"):
            return False
        raise Refuse(f"'{shorten(text, 30)}' is not true or false")
    if hint is int:
        try:
            return int(text)
        except ValueError:
            raise Refuse(f"'{shorten(text, 30)}' is not a whole number") from None
    if typing.get_origin(hint) is tuple:
        inner = typing.get_args(hint)[0]
        if typing.get_origin(inner) is tuple:
            return [_value(s, part, inner) if part else [] for part in text.split(";")]
        return [_value(s, part, inner) for part in text.split(",") if part]
    if UNIT_REF.match(text):  # HEX:N: a unit, as 'stack HEX' numbers them
        return s.unit(text)
    return text


def cmd_odds(s: PlainSession, args: list[str]) -> list[str]:
    """Odds of an attack, by the protocol's preview (works for any game that has one)."""
    attackers, targets = split_arrow(s, args, "odds HEX [HEX...] -> HEX [HEX...]")
    g = s.game
    p = g.rules.preview(g, attackers, targets)
    if p is None:
        return ["No attack can be previewed in this phase."]
    return preview_lines(s, p, attackers, targets)


def preview_lines(s: PlainSession, p: Any, attackers: tuple[str, ...], targets: tuple[str, ...]) -> list[str]:
    lines = [f"Attack on {' '.join(targets)} by {s.names(attackers)}"]
    att = "unknown until revealed" if p.attack is None else f"{p.attack:g}"
    dfn = "unknown until revealed" if p.defense is None else f"{p.defense:g}"
    lines.append(f"Attack {att}, defence {dfn}; odds column {p.column or 'not known yet'}")
    return lines + modifier_lines(p) + preview_tail(s, p)


def modifier_lines(p: Any) -> list[str]:
    """The typed modifiers of an engine OddsPreview (issue 30), then the net shift and die."""
    lines = []
    for m in getattr(p, "modifiers", ()):
        effect = [f"{m.column_shift:+d} column(s)"] if m.column_shift else []
        effect += [f"{m.die_modifier:+d} on the die"] if m.die_modifier else []
        effect += [f"x{m.factor:g}"] if m.factor != 1 else []
        who = f"{m.unit}: " if m.unit else ""
        lines.append(f"  [{m.case}] {who}{m.text}" + (f" ({', '.join(effect)})" if effect else ""))
    if getattr(p, "column_shift", 0):
        lines.append(f"Net column shift: {p.column_shift:+d}")
    if getattr(p, "die_modifier", 0):
        lines.append(f"Net die modifier: {p.die_modifier:+d}")
    return lines


def preview_tail(s: PlainSession, p: Any) -> list[str]:
    """How an odds preview ends in every game: the chance of each result, most likely first,
    the notes, and the refusal if the attack may not be made."""
    lines: list[str] = []
    chances = dict(p.chances or {})
    if chances:
        lines.append("Chances:")
        lines.extend(pack([f"{k} {v * 100:.1f}%" for k, v in sorted(chances.items(), key=lambda kv: -kv[1])],
                          s.width))
    lines.extend(f"Note: {s.face.name_ids(s.game, n)}" for n in p.notes)
    if p.illegal is not None:
        lines.extend(s.refusal(p.illegal))
    return lines


def split_arrow(s: PlainSession, args: list[str], usage: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``HEX [HEX...] -> HEX [HEX...]``: the side's units in the first hexes, the target hex ids."""
    if "->" not in args:
        raise Refuse(f"usage: {usage}")
    k = args.index("->")
    left, right = args[:k], args[k + 1:]
    if not left or not right:
        raise Refuse(f"usage: {usage}")
    units: list[str] = []
    for word in left:
        _, ids, _ = s.units_at(word, s.seat)
        units.extend(u for u in ids if u not in units)
    if not units:
        raise Refuse(f"no units of the {s.side_name(s.seat)} player in {' '.join(left)}")
    return tuple(units), tuple(s.hid(s.hex(w)) for w in right)


# -- prompts with options (engine/prompts.py): any game's choice, answered by number ---------

def cmd_options(s: PlainSession, args: list[str]) -> list[str]:
    p = s.game.rules.prompt(s.game)
    if p is None:
        return ["No choice is waiting."]
    return [s.face.name_ids(s.game, line) for line in p.lines()]


def cmd_pick(s: PlainSession, args: list[str]) -> list[str]:
    p = s.game.rules.prompt(s.game)
    if p is None:
        return ["No choice is waiting: 'pick' answers one ('options' lists them)."]
    if not args or not all(a.isdigit() for a in args):
        return ["Usage: pick N [N...] (the numbers 'options' lists)"]
    try:
        action = p.answer([int(a) - 1 for a in args])
    except ValueError as exc:
        return [f"Refused: {exc}"]
    return s.play(action)


def _quit(s: PlainSession, args: list[str]) -> list[str]:
    s.done = True
    return []


def cmd_choose(s: PlainSession, args: list[str]) -> list[str]:
    """The choices the rules offer the side at the keyboard (its view: a hidden pick, a reveal),
    then what else its rules allow that no other command plays (ui/text.py ``choices``)."""
    opts = ui_text.choices(s.game, s.seat)  # empty unless this side must act: never another's secret
    if not args:
        if not opts:
            return ["Nothing to choose now."]
        return ["Choices ('choose N'):"] + [f"  {i}. {s.face.name_ids(s.game, label)}"
                                             for i, (label, _) in enumerate(opts, 1)]
    if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= len(opts):
        raise Refuse(f"usage: choose N, N from 1 to {len(opts)}" if opts else "nothing to choose now")
    return s.play(opts[int(args[0]) - 1][1])


GENERIC: dict[str, Spec] = {
    "help": Spec(cmd_help, "help [COMMAND]", "the commands, or one command in full", "help move"),
    "look": Spec(cmd_look, "look HEX", "the hex (terrain, place, who holds it) and its units", "look 0319"),
    "stack": Spec(cmd_stack, "stack HEX", "every unit in the hex in full, numbered for HEX:N", "stack 0319"),
    "reach": Spec(cmd_reach, "reach HEX [to HEX]", "where the stack at HEX can move and at what cost; "
                  "with 'to HEX', the path there or the rule that forbids it", "reach 0319 to 0521"),
    "move": Spec(cmd_move, "move HEX[:N,N] HEX [HEX...]", "move the stack (or the units picked by number) "
                 "along the hexes given, each next to the one before", "move 0319 0420 0421"),
    "end": Spec(cmd_end, "end", "end the phase (refused, with the rule, while something is still due)", "end"),
    "undo": Spec(cmd_undo, "undo", "take back the last action (never past a roll or a hand-over)", "undo"),
    "score": Spec(cmd_score, "score", "the points as they stand", "score"),
    "log": Spec(cmd_log, "log [N]", "the last N things that happened (10)", "log 20"),
    "units": Spec(cmd_units, "units [SIDE]", "a side's units by hex (your own by default)", "units german"),
    "todo": Spec(cmd_todo, "todo", "what must happen before the phase may end; who may still act", "todo"),
    "map": Spec(cmd_map, "map around HEX [R]", "a small text map R hexes around HEX (3)", "map around 0319 2"),
    "odds": Spec(cmd_odds, "odds HEX [HEX...] -> HEX [HEX...]", "the odds of an attack, nothing rolled",
                 "odds 0419 0420 -> 0520"),
    "save": Spec(cmd_save, "save NAME", "save the game in the saves folder under a plain name", "save river"),
    "rules": Spec(cmd_rules, "rules CASE | rules search WORDS", "read a rule case, or find cases by words",
                  "rules search major river"),
    "do": Spec(cmd_do, "do [KIND key=value ...]", "play any action of the game by its fields; "
               "alone, lists them", "do move units=0319:1 path=0420"),
    "options": Spec(cmd_options, "options", "the waiting choice and its options, numbered", "options"),
    "pick": Spec(cmd_pick, "pick N [N...]", "answer the waiting choice with the options numbered N", "pick 2"),
    "choose": Spec(cmd_choose, "choose [N]", "the choices the rules offer you now (a hidden pick, an "
                   "attack, an overrun: what no other command plays), or make choice N", "choose 1"),
    "quit": Spec(_quit, "quit", "stop (the autosave keeps the game as of the last phase end)", "quit"),
}

ALIASES = {"?": "help", "h": "help", "l": "look", "st": "stack", "r": "reach", "m": "move",
           "u": "undo", "q": "quit", "exit": "quit"}

"""`kiev-tui join --plain`: a seat played by typed lines (plain mode, kiev_tui/plain/).

The commands are plain mode's own; an action goes to the host instead of being applied here,
and the host's answer (or the other player's moves, as they are made) is printed when it comes.
`wait` blocks until it is your move.  Never imports Textual.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from typing import IO, Any

from kiev_tui.engine.actions import Action
from kiev_tui.plain.loop import terminal_width
from kiev_tui.plain.session import PlainSession, Refuse, Spec, clean, wrap
from kiev_tui.net.seat import SeatLink, Update
from kiev_tui.net.wire import SPECTATOR

REPLY_TIMEOUT = 30.0
WAIT_LIMIT = 3600.0


def _undo(s: "SeatSession", args: list[str]) -> list[str]:
    why = s.link.request_undo()
    if why:
        raise Refuse(f"Not sent: {why}")
    s.sent = True
    return []


def _wait(s: "SeatSession", args: list[str]) -> list[str]:
    limit = WAIT_LIMIT
    if args:
        try:
            limit = float(args[0])
        except ValueError:
            raise Refuse("wait [SECONDS]") from None
    s.wait_for = min(max(limit, 0.0), WAIT_LIMIT)
    return []


class SeatSession(PlainSession):
    """Plain mode for one seat: its side only, never a hand-over, actions answered by the host."""

    def __init__(self, link: SeatLink, width: int = 80) -> None:
        assert link.replica is not None
        super().__init__(link.replica.game, width, pause=False)
        self.link = link
        self.seat = link.side
        self.sent = False
        self.wait_for = 0.0
        self._last_actor = self.game.actor
        self.commands["undo"] = Spec(_undo, "undo", "ask the host to take back your last action (never past a "
                                     "roll or a hand-over)", "undo")
        self.commands["wait"] = Spec(_wait, "wait [SECONDS]", "wait until it is your move (or the game ends)", "wait")

    def side_label(self, side: str) -> str:
        return "Spectator" if side == SPECTATOR else self.side_name(side)

    def opening(self) -> list[str]:
        g = self.game
        lines = [g.scenario.title, *self.face.tracker_lines(g)]
        lines.append(f"Seated as {'a spectator' if self.seat == SPECTATOR else 'the ' + self.side_name(self.seat) + ' player'}"
                     f" at {self.link.address}.")
        lines.extend(self.after(force=True))
        lines.append("Type 'help' for the commands, 'wait' to wait for your move, 'quit' to leave "
                     "(the host keeps the game).")
        return wrap(lines, self.width)

    def play(self, action: Action) -> list[str]:
        """Checked here first (no round trip for a refusal), then sent to the host, which decides."""
        if self.seat == SPECTATOR:
            return ["Refused: a spectator watches and never acts."]
        illegal = self.game.check(action, side=self.seat)
        if illegal is not None:
            return self.refusal(illegal)
        why = self.link.submit(action)
        if why:
            return [f"Not sent: {why}"]
        self.sent = True
        return []

    def quit_question(self) -> str | None:
        return None  # the host has every action: leaving loses nothing

    def after(self, force: bool = False) -> list[str]:
        """Whose move it is now, said when it changes (``force``: say it anyway)."""
        g = self.game
        if g.state.over:
            return ["The game is over.", *self.face.score_lines(g)]
        actor = g.actor
        changed, self._last_actor = actor != self._last_actor, actor
        if actor != self.seat:
            return [f"Waiting for the {self.side_name(actor)} player."] if changed or force else []
        if changed or force:
            p = g.rules.prompt(g)
            why = f"answer a choice ({p.kind.replace('_', ' ')})" if p is not None else \
                f"{self.face.phase_title(g, g.state.phase).lower()} phase"
            return [f"Your move, {self.side_name(actor)} player: {why}", *self._situation()]
        return self.face.pending_lines(g)

    def describe(self, update: Update) -> list[str]:
        """What one message from the host means, in lines."""
        g = self.game = self.link.replica.game if self.link.replica is not None else self.game
        if update.kind == "accepted":
            told = [self.face.name_ids(g, e.describe()) for e in update.events]
            if not update.own:
                told = [f"{self.side_name(update.side)}: {t}" for t in told]
            return wrap(told + self.after(), self.width)
        if update.kind == "undone":
            text = ("Undone: your last action was taken back." if update.own else
                    f"Undone: the {self.side_name(update.side)} player took back his last action.")
            return wrap([text] + self.after(), self.width)
        if update.kind == "refused":
            assert update.illegal is not None
            return wrap(self.refusal(update.illegal) if update.illegal.case else
                        [f"Refused: {update.illegal.why}"], self.width)
        if update.kind in ("synced", "rebuilt"):
            n = len(update.events)
            return wrap([f"Connected to the host again; {n} line(s) of the log caught up."] +
                        [self.face.name_ids(g, e.describe()) for e in update.events][-20:] +
                        self.after(force=True), self.width)
        if update.kind == "seats":
            away = [self.side_name(s) for s in g.rules.schema.sides if s not in self.link.present]
            return [f"Players away: {', '.join(away)}." if away else "Both players are connected."]
        if update.text:
            return wrap([update.text], self.width)
        return []


def run(link: SeatLink, stdin: IO[str] | None = None, stdout: IO[str] | None = None, width: int | None = None) -> int:
    """Play a seat by typed lines until `quit` or the end of input; the exit status (4: host gone)."""
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    tty = inp.isatty() and out.isatty()
    session = SeatSession(link, width or terminal_width())
    out_lock = threading.Lock()
    replies: "queue.Queue[list[str]]" = queue.Queue()
    gone = threading.Event()

    def say(lines: list[str]) -> None:
        with out_lock:
            if lines:
                out.write("\n".join(lines) + "\n")
            out.flush()

    def handler(msg: dict[str, Any]) -> None:
        with link.lock:
            was_waiting = link.waiting_ref != 0
            update = link.absorb(msg)
            lines = session.describe(update)
        if update.kind == "gone":
            gone.set()
        if update.own or (was_waiting and update.kind in ("lost", "gone")):
            replies.put(lines)
        elif lines:
            with out_lock:
                prompt = reading[0]
                # news while the player is at the prompt: on a line of its own, then the prompt again
                out.write(("\n" if prompt else "") + "\n".join(lines) + "\n" + (session.prompt() if prompt else ""))
                out.flush()

    reading = [False]  # the prompt is shown and the player has not yet finished his line

    def read(prompt: str) -> str | None:
        if tty and inp is sys.stdin:
            with out_lock:
                reading[0] = True
            try:
                return input(prompt)
            except EOFError:
                return None
            finally:
                with out_lock:
                    reading[0] = False
        with out_lock:
            out.write(prompt)
            out.flush()
            reading[0] = True
        line = inp.readline()
        with out_lock:
            reading[0] = False
            if line and not tty:
                out.write(clean(line.rstrip("\r\n")) + "\n")  # echo, escaped: a transcript reads in order
        return line or None

    say(session.opening())
    link.start(handler)
    while not session.done and not gone.is_set():
        line = read(session.prompt())
        if line is None:
            break
        with link.lock:
            try:
                lines = session.handle(line)
            except Exception as exc:  # noqa: BLE001 - a bug in a command must not end the seat
                lines = [clean(f"Internal error ({type(exc).__name__}: {exc}); nothing was sent.")]
        say(lines)
        if session.sent:
            session.sent = False
            try:
                say(replies.get(timeout=REPLY_TIMEOUT))
            except queue.Empty:
                say(["No answer from the host yet; it will be printed when it comes."])
        if session.wait_for:
            deadline, session.wait_for = time.monotonic() + session.wait_for, 0.0
            while not gone.is_set() and time.monotonic() < deadline:
                with link.lock:
                    g = session.game
                    if g.state.over or (session.seat != SPECTATOR and g.actor == session.seat):
                        break
                time.sleep(0.05)
    link.close()
    return 4 if gone.is_set() else 0


__all__ = ["SeatSession", "run"]

"""Playing against the computer on one screen: a link with the seat's interface (net/seat.py's
`SeatLink`: submit, request_undo, start, close, absorb) whose "host" is a worker thread here.

The game screen is a seat for the human's side, exactly as in `kiev-tui join`: its actions go
to the link, and what is accepted comes back as messages that `kiev_tui/net/face.py` shows.
Every change to the one game happens on the screen's own thread, inside ``absorb``; the worker
thread only decides.  The AI thinks on a sandbox copy of the position whose dice are its own,
so the screen may draw the live game meanwhile and the AI never sees the game's dice.
"""

from __future__ import annotations

import queue
import random
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Callable

from kiev_tui.engine.actions import Action
from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.game import Game
from kiev_tui.net.seat import Update

from kiev_tui.ai.base import Player, sandbox, stream_seed

STOP = object()


class LocalAILink:
    """One human side and one computer side sharing a local game."""

    def __init__(self, game: Game, ai: Player, pause: float = 0.15, seed: int | None = None) -> None:
        self.game = game
        self.ai = ai
        self.ai_side = ai.side
        sides = list(game.rules.schema.sides)
        self.side = next(s for s in sides if s != ai.side)  # the human's side: the screen's seat
        self.present = sides  # both players are always here
        self.connected = True
        self.local = True  # no host: the record is this screen's own (load, new game and quit may say so)
        self.replica = None  # nothing to rebuild: the game is local
        self.pause = pause  # seconds between the AI's actions, so the eye can follow them
        self.refused = 0  # AI actions the referee refused (should stay 0)
        self.waiting_ref = 0
        self._inbox: "queue.Queue[Any]" = queue.Queue()
        self._handler: Callable[[dict[str, Any]], None] | None = None
        self._thread: threading.Thread | None = None
        # the look-ahead copies' dice: a stream of their own, from the seed when one is given
        self._rng = random.Random(stream_seed(seed, "ai-lookahead") if seed is not None else secrets.randbits(32))
        self.closing = False
        self.stalled = False  # the computer failed or was refused: it will not move again by itself

    # -- the seat's interface --------------------------------------------------------------------
    def start(self, handler: Callable[[dict[str, Any]], None]) -> None:
        """Begin: the worker delivers each message to ``handler`` (face.py posts it to the screen)."""
        self._handler = handler
        self._thread = threading.Thread(target=self._run, name="kiev-ai", daemon=True)
        self._thread.start()
        self._inbox.put(("think",))

    def close(self) -> None:
        self.closing = True
        self._inbox.put(STOP)

    def submit(self, action: Action) -> str:
        """The human's action: played on the screen's thread by the worker's message."""
        if self.waiting_ref:
            return "the last action is still being played"
        self.waiting_ref = 1
        self._inbox.put(("act", action, self.side))
        return ""

    def request_undo(self) -> str:
        g = self.game
        if not g.sides or g.sides[-1] != self.side:
            return "the computer's moves cannot be taken back"
        if not g.can_undo:
            return "nothing to undo (no stepping back over a roll or a change of player)"
        if self.waiting_ref:
            return "the last action is still being played"
        self.waiting_ref = 1
        self._inbox.put(("undo",))
        return ""

    def absorb(self, msg: dict[str, Any]) -> Update:
        """Apply one message to the game (on the screen's thread) and say what changed."""
        kind = msg.get("t")
        own = msg.get("side") == self.side
        if kind == "act":
            action, side = msg["action"], msg["side"]
            if own:
                self.waiting_ref = 0
            illegal = self.game.check(action, side=side)
            if illegal is not None:
                if not own:
                    self.refused += 1
                return Update("refused", own=own, illegal=illegal)
            events = self.game.apply(action, side=side)
            return Update("accepted", events, side=side, own=own)
        if kind == "undo":
            self.waiting_ref = 0
            if self.game.undo():
                return Update("undone", own=True, side=self.side)
            return Update("refused", own=True, illegal=Illegal("", "nothing to undo"))
        if kind == "note":
            return Update("note", text=str(msg.get("text", "")))
        return Update("nothing")

    # -- the worker ---------------------------------------------------------------------------------
    def _deliver(self, msg: dict[str, Any]) -> None:
        if self._handler is None or self.closing:
            return
        try:
            self._handler(msg)
        except Exception:  # noqa: BLE001 - the screen has gone (app closing): nothing left to play on
            self.closing = True

    def _run(self) -> None:
        while True:
            item = self._inbox.get()
            if item is STOP or self.closing:
                return
            if item[0] == "act":
                self._deliver({"t": "act", "action": item[1], "side": item[2]})
            elif item[0] == "undo":
                self._deliver({"t": "undo", "side": self.side})
            self._play_ai()

    def _play_ai(self) -> None:
        """While the game waits for the computer, let it decide and play, one action at a time."""
        while not self.closing and not self.game.state.over and self.game.actor == self.ai_side:
            # The worker reads the live game only between the screen's changes (each change is
            # a message this thread waits for), and the AI decides on a copy with its own dice.
            copy = sandbox(self.game, self._rng)
            try:
                action = self.ai.decide(copy)
            except Exception as exc:  # noqa: BLE001 - an AI bug must not take the game down with it
                self.stalled = True  # the screen gives the keys back (a new or loaded game is the way on)
                self._deliver({"t": "note", "text": f"the computer player failed: {type(exc).__name__}: {exc}"})
                return
            version = self.game.version
            self._deliver({"t": "act", "action": action, "side": self.ai_side})
            if self.game.version == version:
                self.stalled = True
                self._deliver({"t": "note", "text": f"the computer's action {action.kind} was refused"})
                return  # refused: nothing changed, so asking again would loop
            if self.pause:
                time.sleep(self.pause)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the worker to finish (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)


def computer_player(game: Game, side: str, level: str = "strong", seed: int | None = None,
                    seconds: float = 5.0) -> Player:
    """The computer player of ``side`` for this game (ValueError, in one line, if there is none).

    With a ``seed`` (the game's ``--seed``) its choices come from the seed's "ai" stream, never
    from the numbers the game's dice draw from that seed."""
    from kiev_tui.ai.arena import has_ai, make_player

    sides = tuple(game.rules.schema.sides)
    if side not in sides:
        raise ValueError(f"no side {side!r} in this game (its sides: {', '.join(sides)})")
    if not has_ai(game.rules.id):
        raise ValueError(f"the game '{game.rules.id}' has no computer player")
    own = stream_seed(seed, "ai") if seed is not None else secrets.randbits(32)
    return make_player(level, side, own, seconds, game.rules.id)


def ai_link(game: Game, side: str, level: str = "strong", seed: int | None = None, pause: float = 0.15,
            seconds: float = 5.0) -> LocalAILink:
    """The link to give `build_app(game, save_path, net=...)` for a game against the computer."""
    return LocalAILink(game, computer_player(game, side, level, seed, seconds), pause, seed)


#: Where the screen's game against the computer writes its --explain lines (the screen is busy).
EXPLAIN_LOG = "ai-explain.log"


def explain_to(player: Player, plain: bool) -> Path | None:
    """Make the computer say its plan per phase and why it chose each action (``--explain``):
    printed in plain mode, appended to ``EXPLAIN_LOG`` in the working folder under the screen.
    Returns the file's path, if any; a player with no ``explain`` hook says nothing."""
    if not hasattr(player, "explain"):
        return None
    if plain:
        player.explain = lambda line: print(f"AI {line}", flush=True)  # type: ignore[attr-defined]
        return None
    path = Path(EXPLAIN_LOG).resolve()

    def write(line: str) -> None:
        with path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
    player.explain = write  # type: ignore[attr-defined]
    return path

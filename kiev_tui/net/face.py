"""The game screen as a seat: messages from the host shown on the screen's own thread.

`attach` is called by the app when it is given a `SeatLink` (`build_app(..., net=link)`): the
screen plays its one side, submits actions to the host (controller.py's `play`), and
`on_message` shows what the host answers and what the other player does, as it happens.
"""

from __future__ import annotations

from typing import Any

from kiev_tui.net.seat import SeatLink
from kiev_tui.net.wire import SPECTATOR


def attach(app: Any, screen: Any, link: SeatLink) -> None:
    """Make ``screen`` a seat on ``link`` and start hearing the host."""
    screen.net = link
    screen.seat = link.side
    screen.net_move = None

    def post(msg: dict[str, Any]) -> None:
        try:
            app.call_from_thread(on_message, app, screen, msg)
        except RuntimeError:
            pass  # the app has closed: nothing left to show it on

    app.call_after_refresh(link.start, post)  # once the screen is up to show what comes


def waiting_line(screen: Any) -> str:
    """The status line's word on whose move it is, for a seat ("" when it is this seat's)."""
    g = screen.game
    if g.state.over:
        return ""
    link: SeatLink = screen.net
    if not link.connected:
        return "Not connected to the host: reconnecting"
    actor = g.actor
    if actor == screen.seat:
        return ""
    name = screen.adapter.side_name(g, actor)
    away = "" if actor in link.present else " (not connected)"
    return f"Waiting for the {name} player{away}"


def on_message(app: Any, screen: Any, msg: dict[str, Any]) -> None:
    """Absorb one message from the host into the replica and show what it changed."""
    link: SeatLink = screen.net
    before = screen.game.actor if link.replica is not None else ""
    update = link.absorb(msg)
    if update.kind == "nothing":
        return
    if update.kind == "rebuilt" and link.replica is not None:
        app.game = link.replica.game
        screen.set_game(link.replica.game)
        screen.seat = link.side  # set_game would seat whoever has the move: a seat keeps its side
    g = screen.game
    if update.kind == "accepted":
        move, screen.net_move = screen.net_move, None
        if update.own and move is not None:
            screen._continue_with(*move)  # the stack stays selected where it stopped, as in hot-seat play
        else:
            screen.clear_selection()
        told = [screen.name_ids(e.describe()) for e in update.events]
        text = told[-1] if told else ""
        if not update.own and text:
            text = f"{screen.adapter.side_name(g, update.side)}: {text}"
        screen.message = text
        screen.last_case = None
        if g.actor == screen.seat and before != screen.seat and not g.state.over:
            screen.message = f"Your move, {screen.adapter.side_name(g, screen.seat)} player. {text}".strip()
            app.bell()
        screen.after(update.events)
        return
    if update.kind == "undone":
        screen.net_move = None
        screen.clear_selection()
        who = "your" if update.own else f"the {screen.adapter.side_name(g, update.side)} player's"
        screen.message = f"Undone: {who} last action"
        screen.refresh_all()
        return
    if update.kind == "refused" and update.illegal is not None:
        screen.net_move = None
        if update.illegal.case:
            screen.refuse(update.illegal)
        else:
            screen.say(f"Refused by the host: {update.illegal.why}")
        return
    if update.kind in ("synced", "rebuilt"):
        screen.clear_selection()
        screen.refresh_all()
        screen.say(f"Connected to the host; {len(update.events)} new line(s) in the log")
        screen.check_pending()
        return
    if update.kind == "seats":
        screen.refresh_all()
        return
    if update.kind == "gone":
        app.net_gone = True
    screen.net_move = None
    screen.say(update.text)
    screen.refresh_all()


def is_spectator(screen: Any) -> bool:
    return getattr(screen, "seat", "") == SPECTATOR


__all__ = ["attach", "on_message", "waiting_line"]

"""Small screens over the map: hand-off, confirm, text, go-to, lists of choices, final score.

Lists mark the highlighted row with '>' and chosen rows with '[x]', so they read without colour.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable, TypeVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Key
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static

DIALOG_CSS = """
.dialog { width: 76; max-width: 100%; height: auto; max-height: 100%; border: ascii $accent;
          background: $panel; padding: 0 1; }
.dialog-title { text-style: bold; }
.dialog-foot { color: $text-muted; }
.dialog Input { border: ascii $border; height: 3; }
"""


ResultT = TypeVar("ResultT")
HandlerT = TypeVar("HandlerT", bound=Callable[..., Any])


def plain(text: str) -> Text:
    """Text shown exactly as it is: names from data files are never read as Textual markup."""
    return Text(text)


class OnceScreen(Screen[ResultT]):
    """A screen over the map that closes at most once, and only while it is on top.

    Keys arrive faster than the screen reacts: two Enters sent together both reach a list or
    an input box before the first closes the dialog.  Textual's `dismiss` pops whatever
    screen is on top, so the second one would pop the game screen (a blank terminal) and a
    third would crash the app.  Every dialog, hand-off and score screen derives from this.
    """

    _dismissed = False

    @property
    def dismissed(self) -> bool:
        """True once the screen has been dismissed (its late keys and messages do nothing)."""
        return self._dismissed

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        if self._dismissed or not self.is_active:
            return AwaitComplete.nothing()
        self._dismissed = True
        return super().dismiss(result)


def while_open(handler: HandlerT) -> HandlerT:
    """A dialog's handler that does nothing once its dialog has been dismissed."""

    @functools.wraps(handler)
    def guarded(self: OnceScreen[Any], *args: Any, **kwargs: Any) -> Any:
        if self.dismissed:
            return None
        return handler(self, *args, **kwargs)

    return guarded  # type: ignore[return-value]


#: Ahead of the caption of the list the keys go to, where a dialog has two lists.
KEYS_HERE = "keys here > "


class Choices(Widget, can_focus=True):
    """A keyboard list: up/down to highlight, Enter to choose, space to tick (multi mode)."""

    DEFAULT_CSS = "Choices { height: auto; max-height: 16; }"
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("enter", "choose", "Choose", key_display="Enter"),
        Binding("space", "tick", "Tick", show=False),
    ]
    index: reactive[int] = reactive(0)

    class Chosen(Message):
        def __init__(self, choices: "Choices", index: int) -> None:
            self.choices = choices
            self.index = index
            super().__init__()

        @property
        def control(self) -> "Choices":
            return self.choices

    def __init__(self, items: list[str], multi: bool = False, ticked: set[int] | None = None,
                 *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items = list(items)
        self.multi = multi
        self.ticked: set[int] = set(ticked or ())

    def set_items(self, items: list[str]) -> None:
        self.items = list(items)
        self.index = min(self.index, max(0, len(items) - 1))
        self.refresh(layout=True)

    def render(self) -> Text:
        out = Text()
        if not self.items:
            out.append("  (none)")
        for i, item in enumerate(self.items):
            # '>' only in the list the keys go to: beside another list the row under the list
            # cursor of the one without focus is marked '-', so the focus reads without colour
            mark = (">" if self.has_focus else "-") if i == self.index else " "
            box = ("[x] " if i in self.ticked else "[ ] ") if self.multi else ""
            style = "reverse" if i == self.index and self.has_focus else ""
            out.append(f"{mark} {box}{item}", style=style)
            if i < len(self.items) - 1:
                out.append("\n")
        return out

    def action_move(self, delta: int) -> None:
        if self.items:
            self.index = (self.index + delta) % len(self.items)

    def action_choose(self) -> None:
        if self.items:
            self.post_message(self.Chosen(self, self.index))

    def action_tick(self) -> None:
        if self.multi and self.items:
            self.ticked ^= {self.index}
            self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


class HandoffScreen(OnceScreen[None]):
    """Hot-seat: hides the map until the next player is at the keyboard."""

    DEFAULT_CSS = """
    HandoffScreen { align: center middle; background: $background; }
    HandoffScreen #handoff { width: 60; max-width: 100%; height: auto; border: ascii $accent; padding: 1 2; }
    """

    def __init__(self, player: str, turn: int | str, note: str = "") -> None:
        super().__init__()
        self.player = player
        self.turn = turn  # a number, or the game's own name for the turn ("Game-turn 50")
        self.note = note

    def compose(self) -> ComposeResult:
        turn = self.turn if isinstance(self.turn, str) else f"Turn {self.turn}"
        text = (f"{turn}: hand the keyboard to the {self.player.upper()} player.\n\n"
                "The map stays hidden until that player is ready.\n")
        if self.note:
            text += f"\n{self.note}\n"
        text += "\nPress any key to continue."
        yield Static(plain(text), id="handoff")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.dismiss(None)  # once: the keys after the first fall on the map (OnceScreen)


class Dialog(OnceScreen[Any]):
    """Base of the dialogs: opaque, so no dimmed copy of the map is redrawn over a slow link.

    A plain Screen rather than a ModalScreen: with the terminal's own colours
    (`ansi_color=True`) a modal screen's background is see-through, and Textual would
    compose and send the map underneath every dialog.
    """

    DEFAULT_CSS = "Dialog { background: $background; align: center middle; }"


#: What a ConfirmScreen with ``save_key`` returns when the player presses S.
SAVE_FIRST = "save"


class ConfirmScreen(Dialog):
    """A yes/no question, with a list of things the player may want to know first."""

    DEFAULT_CSS = """
    ConfirmScreen #confirm-body { height: auto; max-height: 32; }
    """ + DIALOG_CSS
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", key_display="y"),
        Binding("enter", "enter", "Yes", show=False),
        Binding("n,escape", "answer(False)", "No", key_display="n"),
        Binding("S,s", "save_first", "Save first", key_display="S", show=False),
    ]

    def __init__(self, title: str, lines: list[str], question: str = "Go ahead? (y/n)",
                 enter_answers: bool = True, save_key: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.question = question
        # False where yes destroys something (replacing a save): only the y key says yes then,
        # so Enters typed ahead into the dialog before it never do it
        self.enter_answers = enter_answers
        # S answers "save first" (the string SAVE_FIRST): the dialogs that warn of unsaved moves
        self.save_key = save_key

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            with VerticalScroll(id="confirm-body"):
                yield Static(plain("\n".join(self.lines) or " "))
            yield Static(plain(self.question), classes="dialog-foot")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def action_enter(self) -> None:
        if self.enter_answers:
            self.dismiss(True)

    def action_save_first(self) -> None:
        if self.save_key:
            self.dismiss(SAVE_FIRST)


class TextScreen(Dialog):
    """Help, legend and other read-only text; Escape closes."""

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen .dialog { width: 100; height: 90%; }
    TextScreen VerticalScroll { height: 1fr; }
    """ + DIALOG_CSS
    BINDINGS = [
        Binding("escape,q,question_mark,L", "close", "Close", key_display="Esc"),
        Binding("r", "rules", "Rules", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("up,k", "scroll(-1)", "Up", show=False),
    ]

    def __init__(self, title: str, body: str, on_rules: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.on_rules = on_rules

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            with VerticalScroll(id="text-body"):
                yield Static(Text(self.body))
            yield Static("Esc close" + ("   r rules for this phase" if self.on_rules else ""), classes="dialog-foot")

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, delta: int) -> None:
        self.query_one("#text-body", VerticalScroll).scroll_relative(y=delta, animate=False)

    def action_rules(self) -> None:
        if self.on_rules is not None and not self.dismissed:
            self.dismiss(None)
            self.on_rules()


class AskScreen(Dialog):
    """One line of input: a hex number for go-to, a file name for save."""

    DEFAULT_CSS = "AskScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel", key_display="Esc")]

    def __init__(self, title: str, placeholder: str = "", value: str = "", restrict: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.value = value
        self.restrict = restrict

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            box = Input(value=self.value, placeholder=self.placeholder, id="ask-input", restrict=self.restrict)
            box.cursor_blink = False
            yield box
            yield Static("Enter to accept, Esc to cancel", classes="dialog-foot")

    def on_mount(self) -> None:
        self.query_one("#ask-input", Input).focus()

    # Only Enter submits: a box that closed by itself would let the next keys fall on the map.

    @on(Input.Submitted, "#ask-input")
    @while_open
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class PickScreen(Dialog):
    """Choose one item from a list; the screen returns the value paired with it."""

    DEFAULT_CSS = "PickScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel", key_display="Esc")]

    def __init__(self, title: str, items: list[tuple[str, Any]], foot: str = "Enter to choose, Esc to cancel") -> None:
        super().__init__()
        self.title_text = title
        self.items = items
        self.foot = foot

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            yield Choices([label for label, _ in self.items], id="pick")
            yield Static(plain(self.foot), classes="dialog-foot")

    def on_mount(self) -> None:
        self.query_one("#pick", Choices).focus()

    @on(Choices.Chosen, "#pick")
    @while_open
    def _chosen(self, event: Choices.Chosen) -> None:
        if self.items:
            self.dismiss(self.items[event.index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)


class PromptScreen(Dialog):
    """Any game's prompt (engine/prompts.py), answered from its options: up/down or a digit to
    highlight, Enter to send; a pick-N prompt ticks options with space and sends them with Enter.
    Returns the action that answers the prompt, or None (Esc)."""

    DEFAULT_CSS = "PromptScreen { align: center middle; }" + DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", "Cancel", key_display="Esc")]

    def __init__(self, prompt: Any, title: str = "", labels: list[str] | None = None) -> None:
        super().__init__()
        self.prompt = prompt
        self.title_text = title or prompt.text + (f" ({prompt.case})" if prompt.case else "")
        self.labels = labels if labels is not None else [o.label for o in prompt.options]
        low, high = prompt.pick
        self.foot = ("Enter to choose, Esc to cancel" if not prompt.multi else
                     f"Space to tick {low if low == high else f'{low} to {high}'}, Enter to send, Esc to cancel")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.title_text), classes="dialog-title")
            yield Choices([f"{i}. {label}" for i, label in enumerate(self.labels, 1)],
                          multi=self.prompt.multi, id="options")
            yield Static(plain(self.foot), classes="dialog-foot", id="prompt-foot")

    def on_mount(self) -> None:
        self.query_one("#options", Choices).focus()

    def on_key(self, event: Key) -> None:
        # a digit highlights that option (1-9), as plain mode's 'pick N' numbers them
        if event.character and event.character.isdigit() and event.character != "0":
            n = int(event.character) - 1
            choices = self.query_one("#options", Choices)
            if n < len(choices.items):
                choices.index = n
                event.stop()

    @on(Choices.Chosen, "#options")
    @while_open
    def _chosen(self, event: Choices.Chosen) -> None:
        choices = self.query_one("#options", Choices)
        picked = sorted(choices.ticked) if self.prompt.multi else [event.index]
        try:
            action = self.prompt.answer(picked)
        except ValueError as exc:
            self.query_one("#prompt-foot", Static).update(plain(f"{exc}. {self.foot}"))
            return
        self.dismiss(action)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ScoreScreen(OnceScreen[str]):
    """The end of the game: the score line by line and the winner."""

    DEFAULT_CSS = """
    ScoreScreen { align: center middle; }
    ScoreScreen #score { width: 90; max-width: 100%; height: 1fr; border: ascii $accent; padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape", "close('map')", "Back to the map", key_display="Esc"),
        Binding("N", "close('new')", "New game", key_display="N"),
        Binding("ctrl+q", "close('quit')", "Quit", key_display="^q"),
    ]

    def __init__(self, lines: list[str], heading: str = "FINAL SCORE") -> None:
        super().__init__()
        self.lines = lines
        self.heading = heading  # the game's adapter may name its victory rule here

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="score"):
            yield Static(plain(self.heading + "\n\n" + "\n".join(self.lines)
                               + "\n\nEsc back to the map, N new game, ctrl+q quit"))

    def action_close(self, what: str) -> None:
        self.dismiss(what)


def list_saves(folder: Path) -> list[Path]:
    """The saves in the folder: plain files only, no hidden (temporary) ones."""
    if not folder.is_dir():
        return []
    try:
        found = [p for p in folder.glob("*.toml") if not p.name.startswith(".") and p.is_file()]
    except OSError:
        return []
    return sorted(found)


class NewGameScreen(ConfirmScreen):
    """The new-game question: y for two players at this keyboard, 1 or 2 for the computer to play
    the game's first or second side (the dialog answers True or that side's id).  The keys are
    numbers because the UI knows no game's sides by name."""

    BINDINGS = ConfirmScreen.BINDINGS + [
        Binding("1", "versus(0)", "AI plays side 1", key_display="1"),
        Binding("2", "versus(1)", "AI plays side 2", key_display="2"),
    ]

    def __init__(self, title: str, lines: list[str], question: str, sides: list[str] | None = None) -> None:
        super().__init__(title, lines, question)
        self.sides = list(sides or [])

    def action_versus(self, index: int) -> None:
        if 0 <= index < len(self.sides):  # a game without an AI offers no side: the keys do nothing
            self.dismiss(self.sides[index])

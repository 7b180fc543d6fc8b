"""The plain-mode loop: read a line, print the answer, until `quit` or the end of input.

On a terminal the end of input (Ctrl-D) is a quit and asks the same question `quit` asks when
actions would be lost; piped input that ends simply stops.

Works on a terminal (tab completion through `readline` when Python has it; a hand-over waits
for Enter) and on piped input (no questions asked, each command echoed after its prompt so a
transcript reads in order).  The game is autosaved at every phase end, as in the TUI.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from kiev_tui.engine.saves import enable_autosave
from kiev_tui.plain.session import MIN_WIDTH, PlainSession, clean, wrap

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def terminal_width(default: int = 80) -> int:
    return shutil.get_terminal_size((default, 24)).columns


def _readline(session: PlainSession) -> Any:
    """Set up tab completion if this Python has readline; the module, or None."""
    try:
        import readline
    except ImportError:
        return None

    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        nonlocal matches
        if state == 0:
            line = readline.get_line_buffer()[: readline.get_endidx()]
            matches = [m + " " if not m.endswith("=") else m for m in session.completions(line)]
        return matches[state] if state < len(matches) else None

    readline.set_completer_delims(" ")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    for setting in ("enable-bracketed-paste off", "enable-meta-key off"):  # they send escape codes
        readline.parse_and_bind(f"set {setting}")
    readline.parse_and_bind("set bell-style none")  # no BEL on an ambiguous completion
    return readline


def run(game: "Game", save_path: Path | None = None, stdin: IO[str] | None = None,
        stdout: IO[str] | None = None, width: int | None = None, part: Any = None,
        computer: Any = None) -> int:
    """Play ``game`` by typed lines; returns the exit status (0).

    ``part``: a game by e-mail, one side's part (kiev_tui/pbem/part.py): the loop ends with it.
    ``computer``: a computer player (kiev_tui/ai/base.py) of the other side, which plays its turns
    and answers as they come, with no hand-over.
    """
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    tty = inp.isatty() and out.isatty()
    if save_path is not None:
        enable_autosave(game, save_path)
    session = PlainSession(game, width or terminal_width(), pause=tty, part=part, computer=computer)
    if tty and inp is sys.stdin:
        _readline(session)

    def say(lines: list[str]) -> None:
        if lines:
            out.write("\n".join(lines) + "\n")
        out.flush()

    def read(prompt: str) -> str | None:
        if tty and inp is sys.stdin:
            try:
                return input(prompt)
            except EOFError:
                return None
        out.write(prompt)
        out.flush()
        line = inp.readline()
        if not line:
            return None
        if not tty:
            out.write(clean(line.rstrip("\r\n")) + "\n")  # echo, escaped: a transcript reads in order
        return line

    say(session.opening())
    while not session.done:
        try:
            line = read(session.prompt())
        except KeyboardInterrupt:
            out.write("\n")
            say(["(interrupted: type 'quit' to stop)"])
            continue
        if line is None:
            out.write("\n")
            # Ctrl-D on a terminal is a quit: ask as `quit` does (a second Ctrl-D quits); a pipe
            # or a file that ends is never asked anything (docs/PLAIN.md)
            question = session.quit_question() if tty else None
            if question is not None:
                answer = read(question)
                if answer is not None and answer.strip().lower() not in ("y", "yes"):
                    continue
                if answer is None:
                    out.write("\n")
            break
        if tty and width is None:
            session.width = max(MIN_WIDTH, terminal_width())  # the terminal may have been resized
        try:
            say(session.handle(line))
        except Exception as exc:  # noqa: BLE001 - a bug in a command must not end the game
            # game.apply puts the position back when a rule system fails mid-action
            say([clean(f"Internal error ({type(exc).__name__}: {exc}); the game is as it was.")[: session.width]])
        question = session.quit_question() if session.done and tty else None
        if question is not None:
            answer = read(question)
            if answer is None or answer.strip().lower() not in ("y", "yes"):
                session.done = answer is None
        if session.handing_over:
            if tty and session.hide_screen:
                # Views: the leaving side was shown a hidden choice; the screen and its scrollback
                # go before the other player sits down (ED 2 and ED 3 clear both).
                out.write("\x1b[H\x1b[2J\x1b[3J")
                say(["The screen was cleared: what the last player chose in secret stays hidden.",
                     f"Hand over to the {session.side_name(session.seat)} player."])
            if tty:
                if read("Press Enter when the new player is at the keyboard. ") is None:
                    break
            say(session.release())
    if game.autosave_error:
        say(wrap([f"note: {game.autosave_error}"], session.width))
    return 0

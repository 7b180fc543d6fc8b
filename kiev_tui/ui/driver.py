"""Textual's terminal driver for Linux and macOS, writing only what changed (see wire.py).

Hooked in with `App(driver_class=ShadowDriver)`, Textual's supported way of choosing a
driver: every byte Textual sends passes through `write`, where `wire.ShadowScreen` keeps a
shadow of the screen and lets through only the cells that differ from it.
"""

from __future__ import annotations

import os
import selectors
import threading
from codecs import getincrementaldecoder

from textual._loop import loop_last
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

from kiev_tui.ui.wire import ShadowScreen


class ShadowDriver(LinuxDriver):
    """LinuxDriver whose output goes through a shadow screen."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Written from the app's thread and, for a few mode switches, from the input thread.
        self._shadow_lock = threading.RLock()
        self.shadow = ShadowScreen(*self._screen_size())
        self._unflushed: list[str] = []  # Textual's writes since its last flush: resent as they are after a fault

    def _screen_size(self) -> tuple[int, int]:
        """The terminal's real size (Textual's own guess prefers $COLUMNS and $LINES)."""
        try:
            size = os.get_terminal_size(self._file.fileno())  # type: ignore[union-attr]
            return size.columns, size.lines
        except (OSError, ValueError, AttributeError):
            return self._get_terminal_size()

    def write(self, data: str) -> None:
        with self._shadow_lock:
            try:
                # a new size: the terminal may have moved or dropped what it showed
                self.shadow.resize(*self._screen_size())
                out = self.shadow.write(data)
                self._unflushed.append(data)
            except Exception:
                out = self._start_over(data)
            if out:
                super().write(out)

    def flush(self) -> None:
        with self._shadow_lock:
            try:
                out = self.shadow.flush()
                self._unflushed.clear()
            except Exception:
                out = self._start_over("")
            if out:
                super().write(out)
        super().flush()

    def _start_over(self, data: str) -> str:
        """A fault in the shadow must never stop the game: what Textual wrote since its last
        flush goes as it was written, and a fresh shadow (knowing nothing) takes over."""
        self.shadow = ShadowScreen(*self._screen_size())
        out = "".join(self._unflushed) + data
        self._unflushed.clear()
        return out

    def run_input_thread(self) -> None:
        """Textual's input loop, reading with a decoder that drops bytes that are not UTF-8.

        Textual decodes strictly, so one 0xFF (an 8-bit Alt key, a Latin-1 terminal, a badly set
        SSH client) raised in the input thread and ended the game (issue 36).  Such bytes can
        never be a key the game knows, so they are dropped; a valid sequence split across two
        reads is still joined by the incremental decoder.
        """
        selector = selectors.SelectSelector()
        selector.register(self.fileno, selectors.EVENT_READ)
        fileno = self.fileno
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")(errors="ignore").decode

        def process(events: list[tuple[selectors.SelectorKey, int]], final: bool = False) -> None:
            for last, (_key, mask) in loop_last(events):
                if mask & selectors.EVENT_READ:
                    raw = os.read(fileno, 1024 * 4)
                    if not raw:
                        break  # stdin piped and closed
                    text = decode(raw, final=final and last)
                    if not text:
                        continue  # only dropped bytes: feeding "" would tell the parser input ended
                    for event in parser.feed(text):
                        self.process_message(event)
            for event in parser.tick():
                self.process_message(event)

        try:
            while not self.exit_event.is_set():
                process(selector.select(0.1))
            selector.unregister(self.fileno)
            process(selector.select(0.1), final=True)
        finally:
            selector.close()
            try:
                for _event in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass

    def start_application_mode(self) -> None:
        with self._shadow_lock:
            # a new start (also after a suspend): nothing known of the screen, its size read again
            self.shadow = ShadowScreen(*self._screen_size())
            self._unflushed = []
        super().start_application_mode()

"""A very small terminal for the tests: cursor moves, SGR styles, text, erasing.

It understands what Textual and `kiev_tui.ui.wire` send for a screen update (absolute and
relative cursor moves, SGR, text with double-width characters, erase in line and display)
and keeps, for every cell, the character and the full SGR state it was written with.  Two
streams of bytes that leave the same `cells()` draw the same picture.  Line wrap is off, as
Textual sets it: text past the right edge is dropped.

`rewrites` counts characters written over a cell that already looked the same: the
waste a shadow-screen writer is there to avoid.
"""

from __future__ import annotations

import re

from rich.cells import get_character_cell_size

# SGR parameter -> attribute it switches on
ON = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 5: "blink", 6: "blink2", 7: "reverse", 8: "conceal",
      9: "strike", 21: "underline2", 51: "frame", 52: "encircle", 53: "overline"}
# SGR parameter -> attributes it switches off
OFF = {22: {"bold", "dim"}, 23: {"italic"}, 24: {"underline", "underline2"}, 25: {"blink", "blink2"},
       27: {"reverse"}, 28: {"conceal"}, 29: {"strike"}, 54: {"frame", "encircle"}, 55: {"overline"}}
# attributes that can be seen on a blank cell
SHOWS_ON_BLANK = {"underline", "underline2", "strike", "overline", "frame", "encircle", "reverse"}

_TOKEN = re.compile(r"\x1b\[([0-9;?<>=$]*)([A-Za-z@])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|\n|\r|[^\x1b\n\r]")

# an escape sequence not finished yet
_CUT = re.compile(r"\x1b(?:\[[0-9;?<>=$]*|\][^\x07\x1b]*)?")

Cell = tuple[str, frozenset[str], str, str]
BLANK: Cell = (" ", frozenset(), "", "")
WIDE_TAIL = ""  # the right half of a double-width character


class Terminal:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.grid: list[list[Cell]] = [[BLANK] * width for _ in range(height)]
        self.x = self.y = 0
        self.attrs: set[str] = set()
        self.fg = self.bg = ""
        self.rewrites = 0  # characters that left their cell looking as it did
        self.written = 0  # characters written in all
        self._carry = ""
        self._main: list[list[Cell]] | None = None  # the main screen while the alternate one is shown

    def feed(self, data: str) -> None:
        """Take the next piece of output; an escape sequence cut at its end waits for the next piece."""
        data, self._carry = self._carry + data, ""
        cut = data.rfind("\x1b")
        if cut >= 0 and _CUT.fullmatch(data, cut):
            data, self._carry = data[:cut], data[cut:]
        for m in _TOKEN.finditer(data):
            text = m.group(0)
            if m.group(2) is not None:
                self._csi(m.group(1), m.group(2))
            elif text == "\n":
                self.y = min(self.y + 1, self.height - 1)
            elif text == "\r":
                self.x = 0
            elif text.startswith("\x1b"):
                continue  # other escapes (OSC, charset) draw nothing
            else:
                self._put(text)

    def _put(self, ch: str) -> None:
        size = get_character_cell_size(ch)
        if size == 0:
            return  # combining marks: not drawn by this terminal
        x, y = self.x, self.y
        self.x += size
        if not (0 <= y < self.height and 0 <= x and x + size <= self.width):
            return
        row = self.grid[y]
        cell = (ch, frozenset(self.attrs), self.fg, self.bg)
        before = [self._seen(c) for c in row[x:x + size]]
        self._split(row, x)
        self._split(row, x + size)
        row[x] = cell
        if size == 2:
            row[x + 1] = (WIDE_TAIL, cell[1], cell[2], cell[3])
        self.written += 1
        if before == [self._seen(c) for c in row[x:x + size]]:
            self.rewrites += 1

    def _split(self, row: list[Cell], x: int) -> None:
        """Writing at x breaks a double-width character that straddles it: its halves go blank."""
        if 0 < x < self.width and row[x][0] == WIDE_TAIL:
            row[x - 1] = row[x] = BLANK

    def _csi(self, params: str, final: str) -> None:
        n = int(params) if params.isdigit() else 1
        if final in "Hf":
            parts = [int(p) if p else 1 for p in params.split(";")] if params else [1, 1]
            self.y, self.x = parts[0] - 1, (parts[1] if len(parts) > 1 else 1) - 1
        elif final == "A":
            self.y = max(self.y - n, 0)
        elif final == "B":
            self.y = min(self.y + n, self.height - 1)
        elif final == "C":
            self.x = min(self.x + n, self.width - 1)
        elif final == "D":
            self.x = max(min(self.x, self.width - 1) - n, 0)
        elif final == "G":
            self.x = min(n, self.width) - 1
        elif final == "K" and params in ("", "0"):
            # erase to end of line: blanks in the current background, no attributes
            row = self.grid[self.y]
            self._split(row, self.x)
            for x in range(min(self.x, self.width), self.width):
                row[x] = (" ", frozenset(), "", self.bg)
        elif final == "J" and params == "2":
            self.grid = [[(" ", frozenset(), "", self.bg)] * self.width for _ in range(self.height)]
        elif final in "hl" and params == "?1049":
            # the alternate screen, as xterm has it: entered cleared, left for the screen kept before
            if final == "h" and self._main is None:
                self._main = self.grid
                self.grid = [[BLANK] * self.width for _ in range(self.height)]
            elif final == "l" and self._main is not None:
                self.grid, self._main = self._main, None
        elif final == "m":
            self._sgr([int(p) if p else 0 for p in params.split(";")] if params else [0])
        # anything else (modes, queries) does not change the picture

    def _sgr(self, codes: list[int]) -> None:
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                self.attrs.clear()
                self.fg = self.bg = ""
            elif c in ON:
                self.attrs.add(ON[c])
            elif c in OFF:
                self.attrs -= OFF[c]
            elif 30 <= c <= 37 or 90 <= c <= 97:
                self.fg = str(c)
            elif 40 <= c <= 47 or 100 <= c <= 107:
                self.bg = str(c)
            elif c == 39:
                self.fg = ""
            elif c == 49:
                self.bg = ""
            elif c in (38, 48):
                if codes[i + 1] == 5:
                    value, i = f"5;{codes[i + 2]}", i + 2
                else:
                    value, i = f"2;{codes[i + 2]};{codes[i + 3]};{codes[i + 4]}", i + 4
                if c == 38:
                    self.fg = value
                else:
                    self.bg = value
            i += 1

    @staticmethod
    def _seen(cell: Cell) -> Cell:
        """A cell as it looks: a blank keeps only what can be seen on a blank."""
        ch, attrs, fg, bg = cell
        if ch == " ":
            seen = attrs & SHOWS_ON_BLANK
            return (ch, frozenset(seen), fg if "reverse" in seen else "", bg)
        return cell

    def cells(self) -> list[list[Cell]]:
        """Every cell as it looks: a blank keeps only what can be seen on a blank."""
        return [[self._seen(c) for c in row] for row in self.grid]

    def text(self) -> str:
        return "\n".join("".join(c[0] for c in row) for row in self.grid)

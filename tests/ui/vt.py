"""A very small terminal for the tests: cursor moves, SGR styles, text, erase to end of line.

It understands exactly what Textual and `kiev_tui.ui.wire` send for a screen update, and
keeps, for every cell, the character and the full SGR state it was written with.  Two
streams of bytes that leave the same `cells()` draw the same picture.
"""

from __future__ import annotations

import re

# SGR parameter -> attribute it switches on
ON = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 5: "blink", 6: "blink2", 7: "reverse", 8: "conceal",
      9: "strike", 21: "underline2", 51: "frame", 52: "encircle", 53: "overline"}
# SGR parameter -> attributes it switches off
OFF = {22: {"bold", "dim"}, 23: {"italic"}, 24: {"underline", "underline2"}, 25: {"blink", "blink2"},
       27: {"reverse"}, 28: {"conceal"}, 29: {"strike"}, 54: {"frame", "encircle"}, 55: {"overline"}}
# attributes that can be seen on a blank cell
SHOWS_ON_BLANK = {"underline", "underline2", "strike", "overline", "frame", "encircle", "reverse"}

_TOKEN = re.compile(r"\x1b\[([0-9;?<>=$]*)([A-Za-z])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|\n|\r|[^\x1b\n\r]")

Cell = tuple[str, frozenset[str], str, str]


class Terminal:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        blank: Cell = (" ", frozenset(), "", "")
        self.grid: list[list[Cell]] = [[blank] * width for _ in range(height)]
        self.x = self.y = 0
        self.attrs: set[str] = set()
        self.fg = self.bg = ""

    def feed(self, data: str) -> None:
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
                if 0 <= self.y < self.height and 0 <= self.x < self.width:
                    self.grid[self.y][self.x] = (text, frozenset(self.attrs), self.fg, self.bg)
                self.x += 1

    def _csi(self, params: str, final: str) -> None:
        if final == "H":
            parts = [int(p) if p else 1 for p in params.split(";")] if params else [1, 1]
            self.y, self.x = parts[0] - 1, (parts[1] if len(parts) > 1 else 1) - 1
        elif final == "K" and params in ("", "0"):
            # erase to end of line: blanks in the current background, no attributes
            for x in range(self.x, self.width):
                self.grid[self.y][x] = (" ", frozenset(), "", self.bg)
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

    def cells(self) -> list[list[Cell]]:
        """Every cell as it looks: a blank keeps only what can be seen on a blank."""
        out = []
        for row in self.grid:
            line = []
            for ch, attrs, fg, bg in row:
                if ch == " ":
                    seen = attrs & SHOWS_ON_BLANK
                    line.append((ch, seen, fg if "reverse" in seen else "", bg))
                else:
                    line.append((ch, attrs, fg, bg))
            out.append(line)
        return out

    def text(self) -> str:
        return "\n".join("".join(c[0] for c in row) for row in self.grid)

"""The methods of kiev_tui.ui.widgets that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in widgets.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

class KeyBar:
    """Methods of widgets.KeyBar that a new game's first frame never calls."""

    def _spans(self) -> list[tuple[int, int, str]]:
        x, out, gap = 1, [], self._gap()
        for key, label, action in self.keys:
            width = len(key) + 1 + len(label)
            out.append((x, x + width, action))
            x += width + gap
        return out

"""The methods of kiev_tui.games.spi_kiev.face.adapter that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in adapter.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.face.adapter import (  # noqa: F401
    COMBAT, MOVEMENT, RULES_BY_PHASE, SOVIET, _view, kiev_vars, present, reinforcements, text,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.game import Game


class KievAdapter:
    """Methods of adapter.KievAdapter that a new game's first frame never calls."""

    def rules_cases(self, game: "Game") -> list[str]:
        return list(RULES_BY_PHASE.get(game.state.phase, []))

    def end_phase_notes(self, game: "Game") -> list[str]:
        view = _view(game)
        st = game.state
        lines = []
        left = present.actors(view)
        if left:
            what = "could still attack" if st.phase == COMBAT else "could still move"
            shown = ", ".join(str(h) for h in left[:12]) + (" ..." if len(left) > 12 else "")
            lines.append(f"- stacks that {what}: {shown}")
        if st.player == SOVIET and st.phase == MOVEMENT:
            lines.extend(f"- reinforcement {u} has nowhere to enter" for u in reinforcements.due_now(view)
                         if not reinforcements.entry_hexes(view, u))
        return lines

    def score_now(self, game: "Game") -> tuple[str, list[str]]:
        return "Score as it stands (24.0)", text.score_now_lines(_view(game))

    def final_score(self, game: "Game") -> tuple[str, list[str]]:
        return "FINAL SCORE (24.0)", text.score_lines(kiev_vars(game.state).final_score or {})

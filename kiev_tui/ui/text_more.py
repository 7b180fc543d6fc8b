"""The functions of text.py that a new game's first frame never calls (issue 33, round 7).

text.py hands them out on first use (its module ``__getattr__``), so ``text.choices`` and
``from kiev_tui.ui.text import choices`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from kiev_tui.ui.text import _on_map, side_name

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.game import Game


def action_text(action: "Action") -> str:
    """An action as a player reads it in a list: a game's own ``describe`` when it has one, else
    its kind and fields, several ids joined by commas ("declare hex=1506 units=a, b")."""
    from kiev_tui.engine.actions import Action

    if type(action).describe is not Action.describe:
        return action.describe()
    fields = {k: v for k, v in action.to_toml().items() if k != "kind"}
    words = [f"{k}={', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in fields.items()]
    return " ".join([action.kind, *words])


def choices(game: "Game", side: str) -> list[tuple[str, "Action"]]:
    """What the generic faces list for ``side`` (the TUI's C, plain mode's ``choose``), with the
    words for each: the rules' ``options`` first (a hidden pick, its reveal, a game's own list),
    then every other action ``legal`` gives that no other key plays -- not the phase end (P /
    ``end``), not a move of the game's ``move`` kind by units on the map (Enter on the map /
    ``move``), not a waiting prompt's answers (p / ``pick``).  So a game with no face of its own
    can still declare, attack, overrun, fly or bring on arrivals as its rules allow.  Empty unless
    ``side`` may act now."""
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.view import view

    out: list[tuple[str, Action]] = []
    for opt in view(game, side).options:
        act = getattr(opt, "action", opt)  # a prompt's Option carries its action and its label
        label = getattr(opt, "label", None)
        out.append((str(label) if label else action_text(act), act))
    rules = game.rules
    legal = getattr(rules, "legal", None)
    if legal is None or game.state.over or game.actor != side or rules.prompt(game) is not None:
        return out
    move = rules.actions.get("move")
    listed = [act for _, act in out]
    for act in legal(game, side):
        if isinstance(act, EndPhase) or act in listed:
            continue
        if move is not None and isinstance(act, move) and _on_map(game, act):
            continue  # the map's own keys move it
        listed.append(act)
        out.append((action_text(act), act))
    return out


def score_lines(game: "Game", side_name: Callable[[str], str], loud: bool = False) -> list[str]:
    """Points per side and why, then the winner (game over) or who leads.  ``loud``: the winner
    in capitals ("AXIS VICTORY"), as the Textual score box heads it; else "Axis victory."."""
    score = game.rules.score(game)
    lines = [f"{side_name(s)} points: {p}" for s, p in score.points.items()]
    lines.extend(f"  {line}" for line in score.lines)
    if game.state.over:
        if not score.winner:
            lines.append("A draw.")
        else:
            lines.append(f"{side_name(score.winner).upper()} VICTORY" if loud else f"{side_name(score.winner)} victory.")
    else:
        lines.append(f"{side_name(score.winner)} leads." if score.winner else "Nobody leads.")
    return lines

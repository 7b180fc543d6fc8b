"""Help text for each phase (the project's own words) and the rules cases worth opening."""

from __future__ import annotations

from kiev_tui.games.spi_kiev.common import COMBAT, MECHANIZED, MOVEMENT

KEYS = """Keys on the map
  arrows, h j k l      move the cursor (left/right keep the row number)
  q w e / a s d        move the cursor to the NW, N, NE / SW, S, SE neighbour
  g                    go to a hex: its four digits (e.g. 0319) or a place name, then Enter
  Tab                  jump to the next stack that can still act this phase
  Enter or space       select the stack under the cursor / move it / pick attackers and targets
  1-9                  add or drop one unit of the stack (numbers as in the inspector)
  Esc                  drop the selection or the attack being built
  u                    undo the last action (never past a die roll, a reveal or a change of player)
  P                    end the phase (you are told first what is still undone)
  z                    zoom: full hexes or compact 3x2 hexes
  L                    legend of the map glyphs
  v                    the score as it stands: points, who holds each city and town, losses
  I                    tracker and inspector across the whole width, and back to the map
                       (on a small terminal, 80x24, this is where every line of a stack shows)
  r                    rules reference (at the case of the last refusal, if any)
  S / O / N            save / load / new game          pgup pgdn  scroll the log
  ctrl+q               quit (autosaved at every phase end; asks first if moves since would be lost)
"""

PHASE_HELP = {
    MOVEMENT: """Select a stack with Enter; the hexes it can reach light up with their cost in movement points
('+3'), and the path to the cursor is starred ('*2').  Press Enter on a lit hex to go. A stack
that entered an enemy zone of control stops there, and a stack that starts in one may not leave
it (except right after a successful overrun).  You may stop and go on with the same stack until
another stack moves.

Numbers 1-9 split the stack: only the marked units go.  Press o with an adjacent enemy hex under
the cursor to overrun it (3 MP, half the attack strength; the result is shown before you
commit).  The Soviet player may press t to move the selected stack by rail instead: friendly
rail hexes light up with their rail distance.

Reinforcements that are due must come on before the phase ends: press i, tick the units, choose
an entry hex.  Bringing on another group ends the move of the stack still in hand (5.0): if that
stack has MP left, you are asked first (Enter or y goes on, Esc keeps it moving).  Overstacked
hexes must be thinned before the phase ends.""",
    COMBAT: """Build an attack: Enter on your stacks adds their units as attackers (1-9 picks single units),
Enter on enemy hexes adds them as targets; every attacker must be next to every target. Press c
to see the odds, each modifier with its rule case, and the chance of each result; then confirm
to roll.  The side that must answer a result (losses or retreat, the retreat paths, an advance)
gets a dialog beside the map: the battle is marked on the map, and so is the retreat or advance
path under the list cursor ('*1', '*2' in the order of the hexes); press p to reopen it.  A unit attacks once per phase, and a hex is attacked once
per phase.""",
    MECHANIZED: """Only mechanized units, cavalry, HQs and leaders may move again.  Moving works as in the movement
phase (Enter to select and go, o to overrun); there is no rail movement and no reinforcement
now.""",
}

RULES_BY_PHASE = {
    MOVEMENT: ["5.0", "5.1", "5.2", "5.3", "6.0", "7.0", "8.2", "10.0", "12.0", "15.0", "19.3", "22.0", "23.0"],
    COMBAT: ["9.0", "9.1", "9.2", "9.4", "9.6", "9.7", "9.8", "19.6", "19.7", "20.0", "11.3"],
    MECHANIZED: ["4.2", "5.0", "5.2", "6.0", "8.2", "19.4"],
}


def unwrap(text: str) -> str:
    """Paragraphs as single lines, so the dialog wraps them to its own width."""
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def phase_help(phase: str) -> str:
    return unwrap(PHASE_HELP.get(phase, "")) + "\n\n" + KEYS

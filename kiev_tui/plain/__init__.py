"""Plain line mode (`kiev-tui play --plain`): the game as typed commands and lines of text.

For screen readers, slow links and scripting: no colour, no cursor addressing, no line longer
than the terminal.  It talks to the rule-system protocol and the game's plain face only, and
never imports Textual.  docs/PLAIN.md lists the commands.
"""

from kiev_tui.plain.face import PlainFace, face_for
from kiev_tui.plain.loop import run
from kiev_tui.plain.session import PlainSession

__all__ = ["PlainFace", "PlainSession", "face_for", "run"]

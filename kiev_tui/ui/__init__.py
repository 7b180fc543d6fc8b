"""The Textual face of kiev-tui.  Built for SSH: a low frame rate and no animations."""

import os

# Read by Textual when it is first imported: fewer screen updates a second over slow links.
os.environ.setdefault("TEXTUAL_FPS", "20")
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

"""`kiev-tui serve`: an SSH server where each login gets a lobby and then the game on its own pty.

A player is known by the SSH key he logs in with (docs/SSH.md): no system account, no password.
Each login's game runs as a child process of the server attached to a pseudo-terminal of the
client's size, so the Textual app sees an ordinary terminal.
"""

import warnings

# asyncssh still names the DSA key types, and newer releases of `cryptography` warn about them
# on import; a user who never offers a DSA key should not see those lines before our own
# one-line errors (and a test compares stderr exactly).
warnings.filterwarnings("ignore", message=r".*DSA is deprecated", module=r"asyncssh(\.|$)")

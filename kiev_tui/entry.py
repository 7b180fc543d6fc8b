"""The `kiev-tui` console script: rules look-ups answered at once, everything else by the CLI.

`kiev-tui rules 9.66` used to import Typer, Rich and the engine before printing one case
(half a second).  A well-formed `rules` command line is answered here with the standard
library and the rules reference alone (kiev_tui/rulesref/fastcli.py); any other command
line, and any `rules` line that needs Typer's judgement (--help, a mistake), goes to
kiev_tui.cli.main() unchanged.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the console script and of `python -m kiev_tui`."""
    args = sys.argv[1:]
    if not args or args[0] == "play":  # the first frame comes sooner without the cycle collector (gcpause.py)
        from kiev_tui import gcpause

        gcpause.pause()
    if args[:1] == ["rules"]:
        from kiev_tui.rulesref.fastcli import run

        code = run(args[1:])
        if code is not None:
            sys.stdout.flush()
            sys.exit(code)
    from kiev_tui import dccache

    dccache.install()  # the methods of dataclasses compiled once, not at every start (issue 33)
    from kiev_tui.cli import main as cli_main

    cli_main()

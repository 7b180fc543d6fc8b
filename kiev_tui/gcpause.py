"""Python's cycle collector paused while `kiev-tui play` starts, and back once the first frame is drawn.

Starting the game allocates some hundred thousand objects (Textual, Rich, our modules, the map
and its screen) and frees almost none of them, so every pass of the cycle collector during
start-up finds nothing to free while walking ever more live objects: about a tenth of the time
to the first frame went there (issue 33, docs/PERFORMANCE.md).  Reference counting frees
everything as usual meanwhile; only garbage in reference cycles waits for the collector, which
runs normally from the first frame on.  Only the console script's `play` pauses it; every
other way out of start-up (plain mode, a printed overview, an error) turns it back on.
"""

from __future__ import annotations

import gc

_paused = False


def pause() -> None:
    """Stop the cycle collector until `resume` (nothing happens if it is off already)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Turn the cycle collector back on if `pause` turned it off (it may be called any number of times).

    Everything alive by then is moved out of the collector's sight first (``gc.freeze``): it is
    the program itself (modules, the screen, the game's tables) and stays alive, so no later
    pass walks it again.  Without that, the first passes after start-up walked the seventy
    thousand objects of start-up again (30-40 ms each on the shared machine, a hitch during
    play).  The few thousand objects of start-up that were already garbage in cycles then stay
    unfreed: a few hundred KiB, which returned to Python's own pools would not have lowered the
    resident memory either.
    """
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def paused() -> bool:
    """True while start-up holds the collector off."""
    return _paused

"""Start a program and report its own peak memory and its life span: ``spawn.py RESULT ARGV...``.

Run as ``python -I -S benchmarks/spawn.py``, this small process starts ARGV (with posix_spawn,
in its own process group and terminal), waits for it with ``os.wait4`` and writes to the file
RESULT one ``name=value`` line each: ``spawned`` and ``ended`` (time.monotonic(), the clock
every process on the machine shares), ``maxrss_kib`` and ``status``.

Why not wait4 from the benchmark itself: Linux carries the parent's memory high-water mark
over fork and exec into the child's ``ru_maxrss``, so a child of the benchmark process (50 MB
after the engine figures) would report at least that much.  This process is a few MB, so the
program's own peak is what shows.

A program stopped by a signal (one that did not quit on its keys) is still reported: ``status``
is then minus the signal's number.
"""

import os
import sys


def main(argv: list[str]) -> int:
    import time

    import signal

    result, program = argv[0], argv[1:]
    # A program that does not quit is stopped with its whole process group (PtySession.close):
    # this process lives through that to write its report; the program keeps the default action.
    stops = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    for sig in stops:
        signal.signal(sig, signal.SIG_IGN)
    spawned = time.monotonic()
    pid = os.posix_spawnp(program[0], program, os.environ, setsigdef=stops)
    _, status, usage = os.wait4(pid, 0)
    ended = time.monotonic()
    code = os.waitstatus_to_exitcode(status)
    with open(result, "w") as fh:
        fh.write(f"spawned={spawned!r}\nended={ended!r}\nmaxrss_kib={usage.ru_maxrss}\nstatus={code}\n")
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

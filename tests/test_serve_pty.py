"""The pty child behind each login of `kiev-tui serve`: its window size, its resize, a flood of
keys that never blocks the server, and a stop that ends its whole process group."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time

from kiev_tui.serve.ptychild import MAX_PENDING, PtyChild

SIZE = "import os,sys; print(os.get_terminal_size(0)); sys.stdout.flush()"


async def _run(argv: list[str], width: int = 90, height: int = 33) -> tuple[PtyChild, bytearray]:
    out = bytearray()
    child = await PtyChild.start(argv, width, height, dict(os.environ), out.extend)
    return child, out


async def test_the_child_sees_the_window_size_and_its_output_comes_back() -> None:
    child, out = await _run([sys.executable, "-c", SIZE])
    assert await asyncio.wait_for(child.wait(), 20) == 0
    child.close()
    assert b"os.terminal_size(columns=90, lines=33)" in bytes(out)
    assert child.bytes_out == len(out)


async def test_a_resize_reaches_the_child() -> None:
    script = ("import os,signal,sys,time\n"
              "signal.signal(signal.SIGWINCH, lambda *a: (print(os.get_terminal_size(0)), sys.stdout.flush()))\n"
              "print('ready'); sys.stdout.flush(); time.sleep(10)\n")
    child, out = await _run([sys.executable, "-c", script])
    try:
        end = time.monotonic() + 20
        while b"ready" not in out and time.monotonic() < end:
            await asyncio.sleep(0.05)
        child.resize(132, 50)
        while b"columns=132" not in out and time.monotonic() < end:
            await asyncio.sleep(0.05)
        assert b"os.terminal_size(columns=132, lines=50)" in bytes(out)
    finally:
        await child.stop()


async def test_a_flood_of_keys_is_cut_and_never_blocks() -> None:
    child, _ = await _run(["sleep", "30"])  # a child that never reads its keys
    try:
        # Never blocking is a property of the pty, not a time: the master is non-blocking, so a
        # write that finds it full waits in the buffer instead (a timed bound failed under load).
        assert os.get_blocking(child.master) is False
        for _ in range(50):
            child.write(b"x" * 10000)
        assert len(child._pending) == MAX_PENDING  # 500,000 bytes sent: the rest was cut
        assert len(child._pending) > 0  # the pty's own buffer took what it could, the rest waits
    finally:
        code = await child.stop()
    assert code == -signal.SIGHUP  # a hung-up terminal is what ends it


async def test_stop_ends_the_childs_whole_process_group() -> None:
    child, out = await _run(["sh", "-c", "sleep 60 & echo $!; wait"])
    end = time.monotonic() + 20
    while not out.strip() and time.monotonic() < end:
        await asyncio.sleep(0.05)
    grandchild = int(out.split()[0])
    await child.stop()
    while time.monotonic() < end:
        try:
            state = open(f"/proc/{grandchild}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            break
        if state == "Z":
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the grandchild outlived stop()")
    assert child.master == -1 and child not in PtyChild.live

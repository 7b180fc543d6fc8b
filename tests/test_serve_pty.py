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


READER = (
    "import os, sys, tty\n"
    "tty.setraw(0)\n"
    "os.write(1, b'ready\\r\\n')\n"
    "buf = b''\n"
    "while b'\\x11' not in buf:\n"
    "    buf += os.read(0, 65536)\n"
    "start, stop, q = b'\\x1b[200~', b'\\x1b[201~', b'\\x11'\n"
    "end = buf.rfind(stop)\n"
    "line = f'starts={buf.count(start)} ends={buf.count(stop)} q_after_end={buf.index(q) > end >= 0} x={buf.count(b\"x\")}'\n"
    "os.write(1, line.encode() + b'\\r\\n')\n"
)


async def test_a_paste_cut_at_the_limit_stays_well_formed() -> None:
    """A paste of over 64 KB is cut, but its end marker still reaches the program, so ctrl+q
    typed afterwards is a key again, not more pasted text (issue 36, item 5)."""
    from kiev_tui.serve.ptychild import PASTE_END, PASTE_START

    child, out = await _run([sys.executable, "-c", READER])
    try:
        end = time.monotonic() + 30
        while b"ready" not in out and time.monotonic() < end:
            await asyncio.sleep(0.05)
        paste = PASTE_START + b"x" * 300_000 + PASTE_END
        for i in range(0, len(paste), 32768):  # as an SSH channel hands it over, in pieces
            child.write(paste[i:i + 32768])
        assert child._dropping_paste is False and child._paste_open is False
        while child._pending and time.monotonic() < end:
            await asyncio.sleep(0.05)  # the program reads what was kept
        child.write(b"\x11")  # ctrl+q, typed after the paste
        while b"starts=" not in out and time.monotonic() < end:
            await asyncio.sleep(0.05)
        assert await asyncio.wait_for(child.wait(), 30) == 0
    finally:
        await child.stop()
    line = bytes(out).split(b"starts=")[1].split(b"\r")[0].decode()
    kept = int(line.rsplit("x=", 1)[1])
    assert line == f"1 ends=1 q_after_end=True x={kept}"
    assert 0 < kept < 300_000  # cut, but well-formed


def test_a_cut_never_leaves_half_a_marker() -> None:
    from kiev_tui.serve.ptychild import PASTE_END, _without_partial_marker

    assert _without_partial_marker(b"abc" + PASTE_END[:3]) == b"abc"
    assert _without_partial_marker(b"abc\x1b") == b"abc"
    assert _without_partial_marker(b"abc" + PASTE_END) == b"abc" + PASTE_END
    assert _without_partial_marker(b"abcx") == b"abcx"

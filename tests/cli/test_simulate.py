"""`doubleholdem simulate` from outside: Ctrl-C stops a run at once (issue 17 item 5)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time


def test_ctrl_c_stops_a_long_run() -> None:
    """SIGINT in the middle of ten seats of Double Hold'em with equity bots, seen as a
    person at a terminal sees it: once the progress bar is drawn the run stops with status
    130, the bar's line ended and one line, no traceback. The signal waits for the bar (a
    fixed sleep could land during start-up on a loaded machine); the deadlines only keep a
    hang from stalling the suite."""
    args = ["--players", "10", "--hands", "100000000", "--bots", "equity,random"]
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "doubleholdem.cli", "simulate", "--seed", "1", *args],
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    try:
        seen = _read_until(leader, b"simulate: 100,000,000 hands [", deadline=120)
        assert process.poll() is None, seen
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        seen += _read_until(leader, b"", deadline=5)
    finally:
        process.kill()
        os.close(leader)
    lines = seen.decode().replace("\r", "\n").split("\n")
    assert process.returncode == 130, seen
    assert out == ""
    assert "Traceback" not in seen.decode()
    assert [line.strip() for line in lines if line.strip()][-1] == "doubleholdem: interrupted"


def _read_until(fd: int, wanted: bytes, *, deadline: float) -> bytes:
    """What the terminal shows until ``wanted`` appears (or, with ``b""``, until it
    closes), within ``deadline`` seconds."""
    seen = b""
    end = time.monotonic() + deadline
    while time.monotonic() < end and not (wanted and wanted in seen):
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the other side closed
                break
            if not chunk:
                break
            seen += chunk
    return seen

"""A command run as a person at a terminal runs it: its standard error on a
pseudo-terminal (where the progress bar draws), and Ctrl-C (SIGINT) once something is
shown."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time

__all__ = ["interrupt_when_shown", "read_until"]


def interrupt_when_shown(command: list[str], shown: bytes) -> tuple[int, str, bytes]:
    """Runs ``doubleholdem COMMAND`` and sends SIGINT once the terminal shows ``shown``
    (the signal waits for it: a fixed sleep could land during start-up on a loaded
    machine; the deadlines only keep a hang from stalling the suite): the exit status,
    the standard output and all the terminal showed."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "doubleholdem.cli", *command],
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
    )
    os.close(follower)
    try:
        seen = read_until(leader, shown, deadline=120)
        assert process.poll() is None, seen
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        seen += read_until(leader, b"", deadline=5)
    finally:
        process.kill()
        os.close(leader)
    return process.returncode, out, seen


def read_until(fd: int, wanted: bytes, *, deadline: float) -> bytes:
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

"""`doubleholdem simulate` from outside: Ctrl-C stops a run at once (issue 17 item 5)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time


def test_ctrl_c_stops_a_long_run() -> None:
    """SIGINT in the middle of ten seats of Double Hold'em with equity bots: the run
    stops with status 130 and one line, no traceback (measured: well under a second;
    the timeout here only keeps a hang from stalling the suite)."""
    args = ["--players", "10", "--hands", "100000000", "--bots", "equity,random"]
    process = subprocess.Popen(
        [sys.executable, "-m", "doubleholdem.cli", "simulate", "--seed", "1", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(3)  # imported and playing
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert out == "" and err.strip() == "doubleholdem: interrupted"

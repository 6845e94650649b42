"""`doubleholdem simulate` from outside: Ctrl-C stops a run at once (issue 17 item 5)."""

from __future__ import annotations

from terminal import interrupt_when_shown


def test_ctrl_c_stops_a_long_run() -> None:
    """SIGINT in the middle of ten seats of Double Hold'em with equity bots, seen as a
    person at a terminal sees it: once the progress bar is drawn the run stops with status
    130, the bar's line ended and one line, no traceback. The signal waits for the bar (a
    fixed sleep could land during start-up on a loaded machine); the deadlines only keep a
    hang from stalling the suite (:func:`terminal.interrupt_when_shown`)."""
    args = ["--players", "10", "--hands", "100000000", "--bots", "equity,random"]
    shown = b"simulate: 100,000,000 hands ["
    returncode, out, seen = interrupt_when_shown(["simulate", "--seed", "1", *args], shown)
    lines = seen.decode().replace("\r", "\n").split("\n")
    assert returncode == 130, seen
    assert out == ""
    assert "Traceback" not in seen.decode()
    assert [line.strip() for line in lines if line.strip()][-1] == "doubleholdem: interrupted"

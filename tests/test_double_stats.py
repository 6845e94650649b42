"""Exact Double Hold'em statistics (RULES.md DH-3, DH-4, DH-6): a fixed hole and flop
agree with brute force over the engine's resolve(); the full enumeration covers all
42,142,136,400 deals and its totals add up."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os

import pytest

from doubleholdem import Category, double, double_stats
from doubleholdem.cards import parse_cards
from doubleholdem.cli import main


@pytest.mark.parametrize(
    "hole, flop",
    [
        ("As Ah 7c", "Ad 7d 2c"),
        ("Kc Ks 6c", "Kd 6h 2s"),
        ("9h Th Jh", "8h 2c Qd"),
        ("2c 7d Kh", "3s 4s 5s"),
    ],
)
def test_fixed_flop_agrees_with_resolve(hole: str, flop: str) -> None:
    counts = double_stats.hole_counts(hole, flop)
    hole_cards, flop_cards = parse_cards(hole), parse_cards(flop)
    auto = double.auto_point(hole_cards)
    rest = [c for c in range(52) if c not in hole_cards + flop_cards]
    names = list(counts["auto"])
    expected_auto = dict.fromkeys(names, 0)
    expected_best = dict.fromkeys(names, 0)
    point_best = [0, 0, 0]
    for turn, river in itertools.combinations(rest, 2):
        board = [*flop_cards, turn, river]
        values = [double.resolve(hole_cards, p, board).value for p in range(3)]
        best = max(values)
        expected_auto[names[values[auto] >> 12]] += 1
        expected_best[names[best >> 12]] += 1
        for p in range(3):
            point_best[p] += values[p] == best
    assert counts["auto"] == expected_auto
    assert counts["best"] == expected_best
    assert counts["point_best"] == point_best
    assert counts["deals"] == 1035


@pytest.fixture(scope="module")
def full() -> dict[str, object]:
    """`doubleholdem stats double --recompute --json --classes`: all 42,142,136,400
    deals enumerated again, equal to the shipped figures (else exit 1)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["stats", "double", "--recompute", "--json", "--classes"]) == 0
    result: dict[str, object] = json.loads(out.getvalue())
    return result


def test_the_shipped_figures_print_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22 item 5: no enumeration without --recompute (it would take minutes)."""
    from doubleholdem.cli import stats as stats_command

    def refuse(**kwargs: object) -> None:
        raise AssertionError("enumerated")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats_command, "statistics", refuse)
        assert main(["stats", "double", "--json", "--classes"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert main(["stats", "double"]) == 0
        text = capsys.readouterr().out
    assert shown["total"] == 42_142_136_400 and len(shown["classes"]) == 1755
    assert shown["auto"]["Pair"] == 16_622_390_016
    assert "shipped figures" in text and "16,622,390,016" in text


def test_recompute_reports_differences(capsys: pytest.CaptureFixture[str]) -> None:
    """A recomputation that disagrees with the shipped file exits 1 naming each
    difference (the enumeration replaced by the shipped figures with one class off)."""
    import dataclasses

    from doubleholdem.cli import stats as stats_command

    shipped = double_stats.shipped_statistics()
    first = dataclasses.replace(shipped.classes[0], deals=shipped.classes[0].deals + 1)
    wrong = dataclasses.replace(
        shipped, auto={**shipped.auto, "Pair": 1}, classes=[first, *shipped.classes[1:]]
    )
    assert double_stats.differences(shipped, shipped) == []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats_command, "statistics", lambda **kwargs: wrong)
        assert main(["stats", "double", "--recompute"]) == 1
    err = capsys.readouterr().err
    assert "auto Pair: 16622390016 != 1" in err and f"class {first.hole}" in err


@pytest.mark.slow
def test_totals_add_up(full: dict[str, object]) -> None:
    auto, best = full["auto"], full["best"]
    assert isinstance(auto, dict) and isinstance(best, dict)
    assert full["total"] == double_stats.ALL_DEALS == 42_142_136_400
    assert sum(auto.values()) == sum(best.values()) == 42_142_136_400
    assert list(auto) == list(best) == [category.label for category in Category]
    # The best choice is never worse: from the top category down, best dominates auto.
    names = list(auto)[::-1]
    for i in range(1, len(names) + 1):
        assert sum(best[n] for n in names[:i]) >= sum(auto[n] for n in names[:i])


@pytest.mark.slow
def test_classes_cover_every_hole(full: dict[str, object]) -> None:
    classes = full["classes"]
    assert isinstance(classes, list) and len(classes) == 1755
    assert sum(c["weight"] for c in classes) == 22_100
    assert sum(c["deals"] for c in classes) == 42_142_136_400
    assert sum(c["auto_best"] for c in classes) == full["auto_best"]
    for c in classes:
        assert c["deals"] == c["weight"] * 1_906_884
        # Every deal has at least one best point card.
        assert sum(c["point_best"]) >= c["deals"]
        assert c["auto_best"] == c["point_best"][c["auto_point"]]


def wait_until_busy(pid: int, cpu_seconds: float) -> None:
    """Waits until a process has used some CPU time (past its imports, into the work)."""
    import time

    ticks = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / ticks >= cpu_seconds:
            return
        time.sleep(0.1)
    raise AssertionError("the enumeration did not start")


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")
def test_ctrl_c_stops_cleanly() -> None:
    """SIGINT during the enumeration: the workers stop, one line on stderr, status 130."""
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "doubleholdem.cli", "stats", "double", "--recompute"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until_busy(process.pid, cpu_seconds=1.5)
    started = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert out == "" and err.strip() == "doubleholdem: interrupted"
    assert time.monotonic() - started < 10


def test_progress_bar_draws_only_on_a_terminal() -> None:
    from doubleholdem.progress import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, pipe = Terminal(), io.StringIO()
    for stream in (screen, pipe):
        bar = ProgressBar("work", stream)
        bar(5, 10)
        bar.close()
    assert "5/10" in screen.getvalue() and "#" * 15 in screen.getvalue()
    assert pipe.getvalue() == ""


def test_progress_bar_in_tenths_off_a_terminal() -> None:
    """The pre-flop table generator's progress (a line per tenth in a log) is the one
    progress bar's option, not a second class."""
    from doubleholdem.progress import ProgressBar

    pipe = io.StringIO()
    bar = ProgressBar("texas", pipe, tenths=True)
    for done in range(1, 21):
        bar(done, 20)
    bar.close()
    lines = pipe.getvalue().splitlines()
    assert len(lines) == 10 and lines[0].startswith("texas: 2/20 (10%)")
    assert lines[-1].startswith("texas: 20/20 (100%)")


def test_progress_bar_redraws_ten_times_a_second_and_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Called for every unit of work (a simulated hand), the bar redraws at most ten
    times a second of its clock, and always at the end."""
    from doubleholdem import progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    screen = Terminal()
    bar = progress.ProgressBar("work", screen)
    for done in range(1, 1001):
        clock[0] += 0.001  # a thousand units in one second
        bar(done, 1000)
    bar.close()
    draws = screen.getvalue().count("\r")
    assert 9 <= draws <= 11, draws
    assert screen.getvalue().rstrip().endswith("1000/1000   1.0s")

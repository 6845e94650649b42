"""Progress of long jobs: one line redrawn on a terminal (stderr); elsewhere nothing, or
with ``tenths`` a line at each tenth of the work (for logs of long generations); ended
cleanly also after Ctrl-C. The one progress bar of the package."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """``bar(done, total)`` redraws one line on a terminal (at most ten times a second,
    and at the end, so that it may be called for every unit of work); elsewhere it stays
    silent, or with ``tenths=True`` writes a line each time another tenth of the work is
    done."""

    def __init__(self, label: str, stream: TextIO | None = None, *, tenths: bool = False) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.active = self.stream.isatty()
        self.tenths = tenths
        self.shown_tenths = 0
        self.started = time.monotonic()
        self.drawn = -1.0

    def __call__(self, done: int, total: int) -> None:
        if total <= 0:
            return
        elapsed = time.monotonic() - self.started
        if self.active:
            if elapsed - self.drawn < 0.1 and done < total:
                return
            self.drawn = elapsed
            width = 30
            filled = width * done // total
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:5.1f}s")
        elif self.tenths and 10 * done // total > self.shown_tenths:
            self.shown_tenths = 10 * done // total
            percent = 100 * done // total
            self.stream.write(f"{self.label}: {done}/{total} ({percent}%) {elapsed:.1f} s\n")
        else:
            return
        self.stream.flush()

    def close(self) -> None:
        """Ends the line (also after Ctrl-C)."""
        if self.active:
            self.stream.write("\n")
            self.stream.flush()

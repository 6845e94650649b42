"""Progress of long command-line jobs: one line redrawn on a terminal (stderr), nothing
elsewhere, ended cleanly also after Ctrl-C."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """``bar(done, total)`` redraws one line on a terminal; elsewhere it stays silent."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.active = self.stream.isatty()
        self.started = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total <= 0:
            return
        width = 30
        filled = width * done // total
        elapsed = time.monotonic() - self.started
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:5.1f}s")
        self.stream.flush()

    def close(self) -> None:
        """Ends the line (also after Ctrl-C)."""
        if self.active:
            self.stream.write("\n")
            self.stream.flush()

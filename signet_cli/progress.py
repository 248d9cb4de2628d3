"""A progress bar on stderr for long commands (export, import, eval).

On a terminal it redraws one line per step; piped into a log it prints a line when a step
finishes, so a log shows what happened without a wall of carriage returns.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 28


class ProgressBar:
    def __init__(self, stream: TextIO | None = None, *, min_interval_s: float = 0.1):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.min_interval_s = min_interval_s
        self._label: str | None = None
        self._drawn = 0.0
        self._started = time.monotonic()

    def __call__(self, label: str, done: int, total: int) -> None:
        if label != self._label:
            self._label = label
            self._started = time.monotonic()
        finished = done >= total
        now = time.monotonic()
        if self.tty:
            if finished or now - self._drawn >= self.min_interval_s:
                self._drawn = now
                end = "\n" if finished else ""
                self.stream.write(f"\r{self._line(label, done, total)}{end}")
                self.stream.flush()
        elif finished:
            self.stream.write(self._line(label, done, total) + "\n")
            self.stream.flush()

    def _line(self, label: str, done: int, total: int) -> str:
        share = 1.0 if total == 0 else min(done / total, 1.0)
        filled = int(share * _WIDTH)
        elapsed = time.monotonic() - self._started
        rate = f" {done / elapsed:,.0f}/s" if elapsed > 0.5 and done else ""
        return f"{label:<24} [{'#' * filled}{'.' * (_WIDTH - filled)}] {share:4.0%} {done:,}/{total:,}{rate}"

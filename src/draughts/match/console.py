"""What a match prints: cutechess-cli's lines on stdout, a progress bar on stderr."""

from __future__ import annotations

import sys
import threading
from typing import Optional, TextIO

from draughts._progress import Progress, shown_by_default

__all__ = ["Console", "progress_text"]


class Console:
    """stdout lines, and a progress bar on stderr that stays below them
    (`draughts._progress`, over tqdm)."""

    def __init__(self, out: Optional[TextIO] = None, err: Optional[TextIO] = None, progress: Optional[bool] = None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.bar_enabled = shown_by_default(self.err) if progress is None else progress
        self._bar: Optional[Progress] = None
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.write(text, file=self.out)
            else:
                self.out.write(text + "\n")
                self.out.flush()

    def bar(self, done: int, total: int, text: str, initial: int = 0) -> None:
        """Games `done` of `total`, and `text` after the count."""
        if not self.bar_enabled:
            return
        with self._lock:
            if self._bar is None:
                self._bar = Progress(total, "game", enabled=True, stream=self.err, initial=initial)
            self._bar.update_to(done, text)

    def end_bar(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.close()
                self._bar = None


def progress_text(points: float, played: int) -> str:
    """The match's score after the game count: `score 3.5/5 (70.0%)`."""
    pct = points / played * 100.0 if played else 50.0
    return f"score {points:g}/{played} ({pct:.1f}%)"

"""What a match prints: cutechess-cli's lines on stdout, a progress bar on stderr."""

from __future__ import annotations

import sys
import threading
from typing import Optional, TextIO

__all__ = ["Console", "progress_text"]


class Console:
    """stdout lines, and a progress bar on stderr that stays below them."""

    def __init__(self, out: Optional[TextIO] = None, err: Optional[TextIO] = None,
                 progress: Optional[bool] = None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        isatty = getattr(self.err, "isatty", lambda: False)
        self.bar_enabled = isatty() if progress is None else progress
        self._bar = ""
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            if self._bar:
                self.err.write("\r\x1b[K")
                self.err.flush()
            self.out.write(text + "\n")
            self.out.flush()
            if self._bar:
                self.err.write(self._bar)
                self.err.flush()

    def bar(self, text: str) -> None:
        if not self.bar_enabled:
            return
        with self._lock:
            self._bar = text
            self.err.write("\r\x1b[K" + text)
            self.err.flush()

    def end_bar(self) -> None:
        if not self.bar_enabled or not self._bar:
            return
        with self._lock:
            self.err.write("\n")
            self.err.flush()
            self._bar = ""


def _hms(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.5))
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def progress_text(done: int, total: int, points: float, played: int, elapsed: float, ran: int) -> str:
    width = 24
    filled = int(width * done / total) if total else width
    pct = points / played * 100.0 if played else 50.0
    if ran and done < total:
        eta = _hms(elapsed / ran * (total - done))
    else:
        eta = "--:--:--" if done < total else "done"
    return (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
            f"score {points:g}/{played} ({pct:.1f}%), ETA {eta}")

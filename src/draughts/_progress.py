"""Progress of long work (perft, matches, endgame-database builds, training)
on stderr, through tqdm: one small helper so that every tool shows it the
same way.  tqdm handles terminals, pipes and widths; the bar is shown on a
terminal unless CI=true is set (or when asked), and lines written through
`write` appear above it.

    >>> import io
    >>> out = io.StringIO()
    >>> with Progress(4, "subtree", enabled=True, stream=out) as bar:
    ...     bar.update_to(4, "1234 nodes")
    >>> "4/4" in out.getvalue() and "1234 nodes" in out.getvalue()
    True
"""

from __future__ import annotations

import os
import sys
from typing import Any, Optional, TextIO

__all__ = ["Progress", "shown_by_default"]


def shown_by_default(stream: Optional[TextIO] = None) -> bool:
    """A bar is shown by default on a terminal, never under CI=true."""
    stream = stream or sys.stderr
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Progress:
    """A bar of `total` units; `update_to(done, text)` moves it (the count of
    finished units and a short text after it), `write(line, file)` prints a
    line above it, `close()` ends it (also as a context manager)."""

    def __init__(
        self,
        total: Optional[int],
        unit: str,
        *,
        enabled: Optional[bool] = None,
        stream: Optional[TextIO] = None,
        initial: int = 0,
        desc: Optional[str] = None,
    ):
        self.stream = stream or sys.stderr
        self.enabled = shown_by_default(self.stream) if enabled is None else enabled
        from tqdm import tqdm  # on first use: `draughts perft` without a bar never loads it

        self._bar: Any = tqdm(
            total=total,
            unit=unit,
            initial=initial,
            desc=desc,
            file=self.stream,
            disable=not self.enabled,
            dynamic_ncols=True,
            mininterval=0.2,
            smoothing=0.1,
            leave=True,
            ascii=not _unicode(self.stream),
        )

    def update_to(self, done: int, text: str = "") -> None:
        if not self.enabled:
            return
        self._bar.n = done
        if text:
            self._bar.set_postfix_str(text, refresh=False)
        self._bar.refresh()

    def write(self, line: str, file: Optional[TextIO] = None) -> None:
        """`line` on `file` (stdout by default), above the bar."""
        if self.enabled:
            self._bar.write(line, file=file or sys.stdout)
        else:
            out = file or sys.stdout
            out.write(line + "\n")
            out.flush()

    def close(self) -> None:
        self._bar.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unicode(stream: TextIO) -> bool:
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf16", "utf32")

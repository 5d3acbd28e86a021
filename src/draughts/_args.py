"""Numbers in text from users and programs (command lines, protocol lines,
engine options): ASCII digits only, everywhere.

Python's own `int()` and `float()` also read other scripts' digits
(`int("٣٢") == 32`), digit group underscores and `nan`/`inf`; what a user or a
peer program writes here is read by these instead, so every reader of the
project agrees on what a number is.

    >>> parse_int("+12"), parse_real("0.25"), parse_real("1e-3")
    (12, 0.25, 0.001)
    >>> parse_int("٣٢")
    Traceback (most recent call last):
    ...
    ValueError: '٣٢' is not a whole number (ASCII digits)
"""

from __future__ import annotations

import re

_INT = re.compile(r"[+-]?[0-9]{1,30}\Z")
_REAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?\Z")


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}..."


def is_int(text: str) -> bool:
    """True when `text` (surrounding blanks aside) is a whole number in ASCII digits."""
    return isinstance(text, str) and _INT.match(text.strip()) is not None


def parse_int(text: str) -> int:
    """A whole number written in ASCII digits, with an optional sign."""
    if not is_int(text):
        raise ValueError(f"{_shown(text)} is not a whole number (ASCII digits)")
    return int(text.strip())


def parse_real(text: str) -> float:
    """A finite number written in ASCII (`2`, `0.5`, `.5`, `1e-3`); never nan or inf."""
    t = text.strip() if isinstance(text, str) else ""
    if not _REAL.match(t):
        raise ValueError(f"{_shown(text)} is not a number (ASCII digits)")
    return float(t)

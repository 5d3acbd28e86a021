"""Readers of what users and programs write (command lines, protocol lines,
engine options): numbers in ASCII digits only, switches, and the argparse
pieces every `draughts` command shares.

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

import argparse
import re

from draughts.variants import VARIANTS, Variant, variant as get_variant

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


_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


def parse_bool(text: str) -> bool:
    """`true`/`false` (also 1/0, yes/no, on/off, any case); raises ValueError."""
    t = text.strip().lower() if isinstance(text, str) else ""
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError(f"{_shown(text)} is not true or false")


def int_at_least(minimum: int, unit: str = ""):
    """An argparse type: a whole number >= minimum (`unit` names it in errors)."""
    what = f"whole number of {unit}" if unit else "whole number"

    def convert(text: str) -> int:
        try:
            value = parse_int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a {what}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} must be at least {minimum}")
        return value

    return convert


#: argparse types of whole numbers from 0 and from 1
whole_number = int_at_least(0)
positive_int = int_at_least(1)


def add_variant_options(p: argparse.ArgumentParser, default: str = "international") -> None:
    """`--variant` and `--no-mandatory-capture`, as every command takes them."""
    p.add_argument("--variant", "-v", default=default,
                   help=f"variant name or alias ({', '.join(VARIANTS)}); default {default}")
    p.add_argument("--no-mandatory-capture", action="store_true",
                   help="the house rule: capturing is optional (8x8)")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """The variant that `add_variant_options` read."""
    options = {}
    if getattr(args, "no_mandatory_capture", False):
        options["mandatory_capture"] = False
    return get_variant(args.variant, **options)

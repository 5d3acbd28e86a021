"""Readers of what users and programs write (command lines, protocol lines,
engine options): numbers in ASCII digits only, switches, and the argparse
pieces every `draughts` command shares.

Python's own `int()` and `float()` also read other scripts' digits
(`int("٣٢") == 32`), digit group underscores and `nan`/`inf`; what a user or a
peer program writes here is read by these instead, so every reader of the
project agrees on what a number is.  The rule:

* blanks around the text are ignored, and a number may have a sign (`+3`,
  ` 3`, `-1` read as 3, 3 and -1);
* a whole number (`parse_int`) is ASCII digits and nothing else: no point,
  no exponent (`3.0` and `1e3` are not whole numbers), no underscores;
* a number (`parse_real`) is ASCII digits with an optional point and decimal
  exponent (`0.5`, `.5`, `1e3`), and finite (`nan` and `inf` are not numbers);
* a switch (`parse_bool`) is true/false, on/off, yes/no or 1/0, in any case.

A value that breaks the rule or its bounds is an `OptionError` (a
`ValueError`) whose message names the option:

    >>> parse_int("+12"), parse_real("0.25"), parse_real("1e-3")
    (12, 0.25, 0.001)
    >>> parse_int("٣٢", "tt-size")
    Traceback (most recent call last):
    ...
    draughts.errors.OptionError: tt-size takes a whole number, not '٣٢'
    >>> parse_int("0", "--threads", low=1)
    Traceback (most recent call last):
    ...
    draughts.errors.OptionError: --threads takes a whole number of at least 1, not '0'
"""

from __future__ import annotations

import argparse
import re
from typing import Callable, Optional

from draughts.errors import OptionError
from draughts.variants import VARIANTS, Variant, variant as get_variant

_INT = re.compile(r"[+-]?[0-9]{1,30}\Z")
_REAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?\Z")


def shown(text: object) -> str:
    """`text` quoted for an error message, cut to its first 40 characters."""
    text = str(text)
    return repr(text) if len(text) <= 40 else f"{text[:40]!r}... ({len(text)} characters)"


def a_or_an(word: str) -> str:
    """`word` after the indefinite article its first letter calls for.

    >>> a_or_an("international"), a_or_an("russian")
    ('an international', 'a russian')
    """
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _bounds(low: Optional[float], high: Optional[float], above: Optional[float] = None) -> str:
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if above is not None:
        return f" above {above}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _fail(option: str, kind: str, text: Optional[str]) -> OptionError:
    if option:
        return OptionError(f"{option} takes {kind}, not {shown(text)}", option, text)
    return OptionError(f"{shown(text)} is not {kind} (ASCII digits)", option, text)


def is_int(text: str) -> bool:
    """True when `text` (surrounding blanks aside) is a whole number in ASCII digits."""
    return isinstance(text, str) and _INT.match(text.strip()) is not None


def parse_int(text: str, option: str = "", low: Optional[int] = None, high: Optional[int] = None) -> int:
    """A whole number in ASCII digits with an optional sign, from `low` to
    `high` where given; an OptionError naming `option` otherwise."""
    if not is_int(text):
        raise _fail(option, "a whole number" + _bounds(low, high), text)
    value = int(text.strip())
    if (low is not None and value < low) or (high is not None and value > high):
        raise _fail(option, "a whole number" + _bounds(low, high), text)
    return value


def parse_real(
    text: str,
    option: str = "",
    low: Optional[float] = None,
    high: Optional[float] = None,
    above: Optional[float] = None,
) -> float:
    """A finite number written in ASCII (`2`, `0.5`, `.5`, `1e-3`; never nan or
    inf), from `low` to `high` and more than `above` where given."""
    t = text.strip() if isinstance(text, str) else ""
    kind = "a number" + _bounds(low, high, above)
    if not _REAL.match(t):
        raise _fail(option, kind, text)
    value = float(t)
    if (
        (low is not None and value < low)
        or (high is not None and value > high)
        or (above is not None and not value > above)
    ):
        raise _fail(option, kind, text)
    return value


_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})


def parse_bool(text: str, option: str = "") -> bool:
    """`true`/`false` (also 1/0, yes/no, on/off, any case); an OptionError
    naming `option` otherwise."""
    t = text.strip().lower() if isinstance(text, str) else ""
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    if option:
        raise OptionError(f"{option} takes true or false, not {shown(text)}", option, text)
    raise OptionError(f"{shown(text)} is not true or false", option, text)


def int_type(low: Optional[int] = None, high: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type: a whole number by `parse_int` from `low` to `high`
    (argparse names the option in its message)."""

    def whole_number(text: str) -> int:
        try:
            return parse_int(text, low=low, high=high)
        except OptionError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return whole_number


def real_type(
    low: Optional[float] = None, high: Optional[float] = None, above: Optional[float] = None
) -> Callable[[str], float]:
    """An argparse type: a number by `parse_real` within the bounds given."""

    def number(text: str) -> float:
        try:
            return parse_real(text, low=low, high=high, above=above)
        except OptionError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return number


#: argparse types of whole numbers from 0 and from 1
whole_number = int_type(0)
positive_int = int_type(1)


def add_variant_options(p: argparse.ArgumentParser, default: str = "international") -> None:
    """`--variant` and `--no-mandatory-capture`, as every command takes them."""
    p.add_argument(
        "--variant", "-v", default=default, help=f"variant name or alias ({', '.join(VARIANTS)}); default {default}"
    )
    p.add_argument("--no-mandatory-capture", action="store_true", help="the house rule: capturing is optional (8x8)")


def variant_from_args(args: argparse.Namespace) -> Variant:
    """The variant that `add_variant_options` read."""
    options = {}
    if getattr(args, "no_mandatory_capture", False):
        options["mandatory_capture"] = False
    return get_variant(args.variant, **options)

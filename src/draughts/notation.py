"""Squares, FEN and move text in each variant's own notation.

The core numbers squares 0..N-1 on the american/international grid (internal
squares); players write the variant's numbering (1..N, see docs/design.md) or,
on 8x8, algebraic names.  This module holds the tables between them and the
FEN reader and writer.
"""

from __future__ import annotations

import functools
import re
from typing import Dict, List, Tuple

from draughts.errors import FenError
from draughts.variants import BLACK, WHITE, Color, Variant

FILES = "abcdefghij"


class Squares:
    """Square tables of one numbering: internal square <-> number, name, (row, col)."""

    def __init__(self, size: int, numbering: str):
        every = numbering == "orthogonal"  # every square: square i at (i // size, i % size)
        h = size if every else size // 2
        n = size * h
        self.size = size
        self.count = n
        self.number: List[int] = [0] * n  # internal -> variant number
        self.internal: Dict[int, int] = {}  # variant number -> internal
        self.coords: List[Tuple[int, int]] = []  # internal -> (row, col) on the drawn board
        self.name: List[str] = []  # internal -> algebraic name
        for i in range(n):
            r, p = divmod(i, h)
            col = 2 * p + 1 if r % 2 == 0 else 2 * p
            if every:  # numbered 1..64 from a8, rows left to right
                col = p
                num = i + 1
            elif numbering == "standard":
                num = i + 1
            elif numbering == "italian":
                col = size - 1 - col  # mirrored board, numbered left to right
                num = r * h + (h - 1 - p) + 1
            else:  # spanish: from White's lower right, right to left
                col = size - 1 - col
                num = (size - 1 - r) * h + p + 1
            self.number[i] = num
            self.internal[num] = i
            self.coords.append((r, col))
            self.name.append(f"{FILES[col]}{size - r}")
        self.by_name: Dict[str, int] = {nm: i for i, nm in enumerate(self.name)}
        #: the exact texts of squares (numbers, names in either case) -> internal square
        self.by_text: Dict[str, int] = {
            **{str(num): i for num, i in self.internal.items()},
            **self.by_name,
            **{nm.upper(): i for nm, i in self.by_name.items()},
        }
        #: the same texts -> square number
        self.number_of_text: Dict[str, int] = {t: self.number[i] for t, i in self.by_text.items()}

    def parse(self, token: str) -> int:
        """Internal square of a number or an algebraic name; raises ValueError."""
        i = self.by_text.get(token)
        if i is not None:
            return i
        t = token.strip().lower()
        if t.isascii() and t.isdigit():
            num = int(t)
            if num not in self.internal:
                raise ValueError(f"square {num} is not on the board (1-{self.count})")
            return self.internal[num]
        if t in self.by_name:
            return self.by_name[t]
        if re.fullmatch(r"[a-j][0-9]{1,2}", t):
            raise ValueError(f"{token!r} is not a playable square")
        raise ValueError(f"{token!r} is not a square")


@functools.lru_cache(maxsize=None)
def squares_for(size: int, numbering: str) -> Squares:
    return Squares(size, numbering)


def squares_of(variant: Variant) -> Squares:
    if variant.geometry == "orthogonal":
        return squares_for(variant.size, "orthogonal")
    return squares_for(variant.size, variant.numbering)


def square_text(variant: Variant, internal: int, numeric: bool = False) -> str:
    sq = squares_of(variant)
    if variant.algebraic and not numeric:
        return sq.name[internal]
    return str(sq.number[internal])


# --- move text -----------------------------------------------------------------

#: the separators of move text: `-` (a quiet move), `x`, `:` or `×` (a capture)
MOVE_SEPARATOR = re.compile(r"\s*[-x:×]\s*", re.I)


def split_move(text: str) -> List[str]:
    """The square texts of move text (`32-28`, `28x19`, `c3:e5`, `47x38x24x13`),
    in order; an empty string where a separator has no square beside it.

    >>> split_move(" 28 x 19 ")
    ['28', '19']
    >>> split_move("32-")
    ['32', '']
    """
    return MOVE_SEPARATOR.split(text.strip())


# --- FEN ---------------------------------------------------------------------

_SQ_TOKEN = re.compile(r"^(K?)([0-9]+|[a-jA-J][0-9]{1,2})(?:-(K?)([0-9]+))?$")


def parse_fen(fen: str, variant: Variant):
    """Read `<side>:<colour><squares>:<colour><squares>`.

    Returns (white squares, black squares, king squares, side to move) as
    internal squares.  Kings are prefixed `K`, numeric ranges `a-b` are
    allowed, squares may be numbers of the variant's numbering or (8x8)
    algebraic names, either colour may come first or be missing, and trailing
    fields (`H0`, `F1`, a final `.`) are ignored.  A side to move `?` (PDN 3.0:
    unknown) is read as the variant's first mover.
    """
    if not isinstance(fen, str):
        raise FenError(f"a FEN must be a string, not {type(fen).__name__}", fen)
    text = fen.strip()
    if text.startswith("[") and text.endswith("]"):  # a whole PDN tag line
        m = re.fullmatch(r'\[\s*FEN\s+"(.*)"\s*\]', text, re.S)
        if not m:
            raise FenError(f"cannot read FEN tag {text!r}", fen)
        text = m.group(1).strip()
    text = text.strip('"').rstrip(".").strip()
    if not text:
        raise FenError("empty FEN", fen)
    fields = [f.strip() for f in text.split(":")]
    side = fields[0].upper()
    if side == "?":  # PDN 3.0: unknown, read as the first mover
        side = variant.first.letter
    if side not in ("W", "B"):
        raise FenError(f"FEN must start with the side to move W, B or ?, not {fields[0]!r}", fen, fields[0])
    sq = squares_of(variant)
    white: List[int] = []
    black: List[int] = []
    kings: List[int] = []
    seen: Dict[int, str] = {}
    seen_colours = set()
    for field in fields[1:]:
        if not field:
            continue
        colour = field[0].upper()
        if colour not in ("W", "B"):
            if re.fullmatch(r"[HF]\d*", field, re.I):
                continue  # move counters of some writers
            if field.startswith("+"):
                continue  # frisian king moves: parse_king_moves
            raise FenError(f"FEN field {field!r} does not start with a colour W or B", fen, field)
        if colour in seen_colours:
            raise FenError(f"FEN has two {colour} fields (the second is {field!r})", fen, field)
        seen_colours.add(colour)
        target = white if colour == "W" else black
        body = field[1:].strip()
        if not body:
            continue
        for token in body.split(","):
            token = token.strip()
            if not token:
                continue
            m = _SQ_TOKEN.match(token)
            if not m:
                raise FenError(f"FEN token {token!r} is not a square, a king K<square> or a range", fen, token)
            king = m.group(1) == "K"
            try:
                if m.group(4) is not None:
                    if not (m.group(2).isdigit()):
                        raise ValueError("ranges take square numbers")
                    lo, hi = int(m.group(2)), int(m.group(4))
                    if lo > hi:
                        raise ValueError(f"range {lo}-{hi} runs backwards")
                    if m.group(3) == "K":
                        king = True
                    items = [sq.parse(str(n)) for n in range(lo, hi + 1)]
                else:
                    items = [sq.parse(m.group(2))]
            except ValueError as e:
                raise FenError(f"FEN token {token!r}: {e}", fen, token) from None
            for s in items:
                if s in seen:
                    raise FenError(f"FEN token {token!r}: square {sq.number[s]} is given twice", fen, token)
                seen[s] = colour
                target.append(s)
                if king:
                    kings.append(s)
    turn = WHITE if side == "W" else BLACK
    return white, black, kings, turn


def format_fen(variant: Variant, white, black, kings, turn: Color, numeric: bool = False) -> str:
    """Write a FEN; squares sorted by number, algebraic for russian/brazilian/czech
    unless `numeric`."""
    sq = squares_of(variant)
    kingset = set(kings)

    def section(squares):
        out = []
        for s in sorted(squares, key=lambda i: sq.number[i]):
            out.append(("K" if s in kingset else "") + square_text(variant, s, numeric))
        return ",".join(out)

    return f"{Color(turn).letter}:W{section(white)}:B{section(black)}"


_KING_MOVES = re.compile(r"^\+(\d)(\d{0,2})\+(\d)(\d{0,2})$")


def parse_king_moves(fen: str, variant: Variant):
    """The frisian king-move counts of a FEN as ((count, internal square) for
    White, the same for Black); ((0, 0), (0, 0)) when it has none.

    The field is lidraughts': `+<black count><black king's square>+<white
    count><white king's square>`, the square left out for a count of 0
    (`:+0+2K33` is not valid, `:+0+233` is: White's king on 33 has moved twice).
    """
    text = fen.strip().strip('"').rstrip(".").strip()
    fields = [f.strip() for f in text.split(":") if f.strip().startswith("+")]
    if not fields:
        return (0, 0), (0, 0)
    if len(fields) > 1:
        raise FenError(f"FEN has two king-move fields ({fields[1]!r})", fen, fields[1])
    m = _KING_MOVES.match(fields[0])
    if not m:
        raise FenError(f"FEN king-move field {fields[0]!r} is not +<count><square>+<count><square>", fen, fields[0])
    sq = squares_of(variant)
    out = []
    for count, square in ((m.group(3), m.group(4)), (m.group(1), m.group(2))):  # white, black
        n = int(count)
        if n == 0:
            out.append((0, 0))
            continue
        if n > variant.king_move_limit or not square:
            raise FenError(
                f"FEN king-move field {fields[0]!r}: a count of {n} needs a king's square "
                f"and at most {variant.king_move_limit}",
                fen,
                fields[0],
            )
        try:
            out.append((n, sq.parse(square)))
        except ValueError as e:
            raise FenError(f"FEN king-move field {fields[0]!r}: {e}", fen, fields[0]) from None
    return out[0], out[1]


def format_king_moves(variant: Variant, king_moves) -> str:
    """`:+<black>+<white>` for running frisian king-move counts, else ""."""
    (cw, sw), (cb, sb) = king_moves
    if not cw and not cb:
        return ""
    sq = squares_of(variant)

    def one(count, square):
        return f"{count}{sq.number[square]:02d}" if count else "0"

    return f":+{one(cb, sb)}+{one(cw, sw)}"


def start_squares(variant: Variant):
    """(white squares, black squares) of the start position, as internal squares."""
    if variant.start_fen is not None:
        white, black, _, _ = parse_fen(variant.start_fen, variant)
        return white, black
    n = variant.squares
    per = variant.men_per_side
    if variant.geometry == "orthogonal":
        # the men stand on the second and third rows, the back rows are empty
        row = variant.squares_per_row
        return list(range(n - row - per, n - row)), list(range(row, row + per))
    return list(range(n - per, n)), list(range(per))

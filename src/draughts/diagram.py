"""The board as text: one drawing for `Board.unicode` (a bare grid) and the
terminal game of `draughts.play` (framed, with square numbers or files and
ranks, and the last move marked)."""

from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Protocol, Tuple

from draughts.notation import squares_of
from draughts.variants import Variant


class Drawable(Protocol):
    """What a diagram reads of a board (a `draughts.Board`)."""

    @property
    def variant(self) -> Variant: ...

    @property
    def position(self) -> Any: ...


class MoveSquares(Protocol):
    """What a diagram reads of the last move (a `draughts.Move`)."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def captured(self) -> Iterable[int]: ...


#: piece symbols: (white man, white king, black man, black king)
ASCII_PIECES = ("w", "W", "b", "B")
UNICODE_PIECES = ("○", "◎", "●", "◉")


def diagram(
    board: Drawable,
    *,
    ascii: bool = False,
    flipped: bool = False,
    framed: bool = False,
    lastmove: Optional[MoveSquares] = None,
) -> str:
    """The board as text, White at the bottom unless `flipped`.

    Bare (`framed=False`): one character a square, separated by blanks: a
    piece, `.` for an empty playing square, a blank for the others.

    Framed: numeric variants show every playing square's number (after the
    piece on it, if any), with the numbers of each row at the left; algebraic
    variants show a dot on empty playing squares and files and ranks round the
    edge.  The start and end squares of `lastmove` are in brackets, the
    squares it captured on show an `x`.
    """
    v = board.variant
    sq = squares_of(v)
    n = v.size
    wm, wk, bm, bk = ASCII_PIECES if ascii else UNICODE_PIECES
    white, black, king_list = board.position.pieces()
    kings = set(king_list)
    symbol: Dict[int, str] = {}
    for i in white:
        symbol[i] = wk if i in kings else wm
    for i in black:
        symbol[i] = bk if i in kings else bm
    at: Dict[Tuple[int, int], int] = {}  # (row, col) as drawn -> internal square
    for i, (r, c) in enumerate(sq.coords):
        if flipped:
            r, c = n - 1 - r, n - 1 - c
        at[(r, c)] = i

    if not framed:
        return "\n".join(
            " ".join(symbol.get(at[(r, c)], ".") if (r, c) in at else " " for c in range(n)) for r in range(n)
        )

    taken_mark = "x" if ascii else "×"
    ends = set()
    taken = set()
    if lastmove is not None:
        ends = {sq.internal[lastmove.start], sq.internal[lastmove.end]}
        taken = {sq.internal[s] for s in lastmove.captured}
    numeric = not v.algebraic
    cell_w = 5 if numeric else 3

    def cell(r: int, c: int) -> str:
        i = at.get((r, c))
        if i is None:
            return " " * cell_w
        mark = symbol.get(i) or (taken_mark if i in taken else None)
        if numeric:
            body = f"{mark or ' '}{sq.number[i]:>2}"
        else:
            body = mark or "."
        return f"[{body}]" if i in ends else f" {body} "

    lines = []
    if numeric:
        labels = []
        for r in range(n):
            nums = sorted(sq.number[at[(r, c)]] for c in range(n) if (r, c) in at)
            labels.append(f"{nums[0]}-{nums[-1]}")
        lw = max(len(t) for t in labels)
        rule = " " * lw + " +" + "-" * (n * cell_w) + "+"
        lines.append(rule)
        for r in range(n):
            lines.append(f"{labels[r]:>{lw}} |" + "".join(cell(r, c) for c in range(n)) + "|")
        lines.append(rule)
    else:
        files = [chr(ord("a") + c) for c in range(n)]
        if flipped:
            files.reverse()
        head = "    " + "".join(f" {f} " for f in files)
        rule = "   +" + "-" * (n * cell_w) + "+"
        lines.append(head)
        lines.append(rule)
        for r in range(n):
            rank = r + 1 if flipped else n - r
            lines.append(f"{rank:>2} |" + "".join(cell(r, c) for c in range(n)) + f"| {rank}")
        lines.append(rule)
        lines.append(head)
    return "\n".join(lines)

"""SVG pictures of a board, and the `draughts svg` command.

    >>> import draughts, draughts.svg
    >>> board = draughts.Board(variant="italian")
    >>> text = draughts.svg.board(board, size=320)

The picture is drawn with White at the bottom (`flipped=True` turns it round),
on the variant's own colouring: playing squares are dark, and on the italian
and spanish boards the bottom-left corner is a light, unplayable square.  Every
playing square carries its label small in its top-left corner, as the variant
writes squares (numbers, or names such as ``c3`` on russian, brazilian and
czech boards).  Kings are drawn with a second ring and a crown in the middle.
"""

from __future__ import annotations

import sys
from typing import Dict, Optional, Tuple, Union
from html import escape as _html_escape

from draughts._args import add_variant_options, int_type, variant_from_args
from draughts.board import Board, Move
from draughts.errors import InvalidInputError
from draughts.notation import split_move, square_text, squares_of
from draughts.variants import WHITE


def escape(text: str) -> str:
    """`text` with &, < and > escaped for an SVG text node (xml.sax.saxutils'
    escape, without the import of urllib and http it brings)."""
    return _html_escape(text, quote=False)


#: colours of the picture; pass `colors={...}` to change some of them
COLORS: Dict[str, str] = {
    "light": "#f0dcb4",  # unplayable squares
    "dark": "#8b5a34",  # playing squares
    "label": "#f3e6c8",  # square numbers on the dark squares
    "lastmove": "#d9c83c",  # from and to squares of the last move (drawn at 60 %)
    "white": "#faf8f0",  # white pieces
    "white-edge": "#3a3a3a",
    "black": "#232323",  # black pieces
    "black-edge": "#000000",
    "white-ring": "#6a6a6a",  # the inner ring of a king
    "black-ring": "#bdbdbd",
    "crown": "#e2b11e",  # the crown of a king
    "crown-edge": "#7a5800",
}

#: piece radius, king ring radius, label font size: fractions of a square
PIECE_RADIUS = 0.36
RING_RADIUS = 0.25
LABEL_SIZE = 0.19


def _lastmove_squares(board: Board, lastmove) -> Tuple[int, ...]:
    """Variant square numbers to mark: start and end of `lastmove`."""
    if lastmove is None or lastmove is False:
        return ()
    if lastmove is True:
        if not board.move_stack:
            return ()
        lastmove = board.peek()
    if isinstance(lastmove, Move):
        return (lastmove.start, lastmove.end)
    if isinstance(lastmove, str):
        sq = squares_of(board.variant)
        parts = [p for p in split_move(lastmove) if p]
        if len(parts) < 2:
            raise InvalidInputError(f"last move {lastmove!r} is not a move (expected e.g. 32-28)")
        try:
            nums = [sq.number[sq.parse(p)] for p in parts]
        except ValueError as e:
            raise InvalidInputError(f"last move {lastmove!r}: {e}") from None
        return (nums[0], nums[-1])
    if isinstance(lastmove, (tuple, list)) and len(lastmove) == 2:
        return (int(lastmove[0]), int(lastmove[1]))
    raise TypeError(f"lastmove must be a Move, move text, True or None, not {type(lastmove).__name__}")


def _num(x: float) -> str:
    """A coordinate written short: 12.5 -> '12.5', 40.0 -> '40'."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _crown(cx: float, cy: float, s: float) -> str:
    """The points of a crown centred on (cx, cy) for square size s; the centre
    pixel always lies inside it."""
    pts = [(-0.16, 0.09), (-0.16, -0.10), (-0.08, -0.01), (0.0, -0.14), (0.08, -0.01), (0.16, -0.10), (0.16, 0.09)]
    return " ".join(f"{_num(cx + dx * s)},{_num(cy + dy * s)}" for dx, dy in pts)


def board(
    board: Board,
    *,
    lastmove: Union[Move, str, bool, None] = None,
    flipped: bool = False,
    size: int = 400,
    labels: bool = True,
    colors: Optional[Dict[str, str]] = None,
) -> str:
    """An SVG picture of `board`, `size` pixels square.

    `lastmove` marks the start and end squares of a move: a Move, move text
    (``"32-28"``, ``"c3:e5"``), or True for the board's last move.  `flipped`
    turns the board round (Black at the bottom).  `labels=False` leaves out the
    square labels; `colors` overrides entries of `COLORS`.
    """
    if not isinstance(board, Board):
        raise TypeError(f"draughts.svg.board takes a Board, not {type(board).__name__}")
    if isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0:
        raise InvalidInputError(f"size must be a positive number of pixels, not {size!r}")
    col = dict(COLORS)
    if colors:
        unknown = set(colors) - set(COLORS)
        if unknown:
            raise InvalidInputError(f"unknown colour names {sorted(unknown)}; known: {', '.join(COLORS)}")
        col.update(colors)
    v = board.variant
    sq = squares_of(v)
    n = v.size
    s = size / n
    marked = set(_lastmove_squares(board, lastmove))

    def corner(internal: int) -> Tuple[float, float]:
        r, c = sq.coords[internal]
        if flipped:
            r, c = n - 1 - r, n - 1 - c
        return c * s, r * s

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(size)}" height="{_num(size)}" '
        f'viewBox="0 0 {_num(size)} {_num(size)}" class="draughts-board">',
        f"<desc>{escape(v.name)} {escape(board.fen())}</desc>",
        f'<rect x="0" y="0" width="{_num(size)}" height="{_num(size)}" fill="{col["light"]}" class="light"/>',
    ]
    # the playing squares, the last move, the labels
    every = v.geometry == "orthogonal"  # every square is played on: drawn chequered
    for i in range(sq.count):
        x, y = corner(i)
        number = sq.number[i]
        shade = "light" if every and sum(sq.coords[i]) % 2 == 0 else "dark"
        out.append(
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(s)}" height="{_num(s)}" '
            f'fill="{col[shade]}" class="square {shade}" data-square="{number}"/>'
        )
        if number in marked:
            out.append(
                f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(s)}" height="{_num(s)}" '
                f'fill="{col["lastmove"]}" fill-opacity="0.6" class="lastmove" data-square="{number}"/>'
            )
    if labels:
        fs = s * LABEL_SIZE
        for i in range(sq.count):
            x, y = corner(i)
            out.append(
                f'<text x="{_num(x + s * 0.06)}" y="{_num(y + s * 0.05 + fs * 0.85)}" '
                f'font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="{_num(fs)}" '
                f'fill="{col["label"]}" class="label">{escape(square_text(v, i))}</text>'
            )
    # the pieces
    for number, piece in board.pieces().items():
        x, y = corner(sq.internal[number])
        cx, cy = x + s / 2, y + s / 2
        colour = "white" if piece.color == WHITE else "black"
        kind = "king" if piece.king else "man"
        out.append(f'<g class="piece {colour} {kind}" data-square="{number}">')
        out.append(
            f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(s * PIECE_RADIUS)}" '
            f'fill="{col[colour]}" stroke="{col[colour + "-edge"]}" stroke-width="{_num(s * 0.03)}"/>'
        )
        if piece.king:
            out.append(
                f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(s * RING_RADIUS)}" fill="none" '
                f'stroke="{col[colour + "-ring"]}" stroke-width="{_num(s * 0.035)}"/>'
            )
            out.append(
                f'<polygon points="{_crown(cx, cy, s)}" fill="{col["crown"]}" '
                f'stroke="{col["crown-edge"]}" stroke-width="{_num(s * 0.015)}" stroke-linejoin="round"/>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- the command -------------------------------------------------------------


def cmd_svg(args) -> int:

    v = variant_from_args(args)
    b = Board(args.fen, variant=v) if args.fen else Board(variant=v)
    text = board(b, lastmove=args.lastmove, flipped=args.flip, size=args.size, labels=not args.no_labels)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise InvalidInputError(f"cannot write {args.output}: {e.strerror or e}") from None
    return 0


def _repr_svg_(self: Board) -> str:
    """Jupyter draws a Board as this picture (its last move marked)."""
    return board(self, lastmove=True)


# Boards render themselves in Jupyter; the picture is drawn here, so that the
# board module needs nothing from this one.
Board._repr_svg_ = _repr_svg_  # type: ignore[attr-defined]


#: `--size`: pixels, 16 or more
_size_arg = int_type(16)


def register(subparsers) -> None:

    p = subparsers.add_parser(
        "svg",
        help="draw a position as an SVG picture",
        description="Draw a position as an SVG picture: White at the bottom (--flip turns it), "
        "square labels as the variant writes them, kings with a crown.",
    )
    add_variant_options(p)
    p.add_argument("--fen", help="the position (default: the variant's start)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    p.add_argument("--size", type=_size_arg, default=400, help="width and height in pixels (default 400)")
    p.add_argument("--flip", action="store_true", help="Black at the bottom")
    p.add_argument("--lastmove", metavar="MOVE", help="mark the start and end squares of MOVE, e.g. 32-28")
    p.add_argument("--no-labels", action="store_true", help="leave out the square labels")
    p.set_defaults(func=cmd_svg)

"""What the page needs to draw a variant's board, shared by a page's
session and the matches it shows."""

from __future__ import annotations

from typing import Any, Dict

from draughts.board import Board
from draughts.notation import square_text, squares_of
from draughts.variants import WHITE, Color, Variant


def colour_name(c: Color) -> str:
    return "white" if c == WHITE else "black"


def variant_info(v: Variant) -> Dict[str, Any]:
    """What the page needs to draw the board: every playing square's number,
    row, column and label (as the variant writes it), and the colour whose
    men start on the top rows as the board is drawn (`top`: the page turns
    the board round for a player of that colour)."""
    sq = squares_of(v)
    row_of = {sq.number[i]: r for i, (r, _) in enumerate(sq.coords)}
    men = Board(variant=v).pieces()
    top_colour = men[min(men, key=lambda n: row_of[n])].color if men else v.first
    return {
        "name": v.name,
        "house": not v.mandatory_capture,
        "size": v.size,
        "geometry": v.geometry,
        "first": colour_name(v.first),
        "description": v.description,
        "top": colour_name(top_colour),
        "squares": [[sq.number[i], r, c, square_text(v, i)] for i, (r, c) in enumerate(sq.coords)],
    }

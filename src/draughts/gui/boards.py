"""What the page needs to draw a variant's board, shared by a page's
session and the matches it shows."""

from __future__ import annotations

from typing import Any, Dict

from draughts.notation import square_text, squares_of
from draughts.variants import WHITE, Color, Variant


def colour_name(c: Color) -> str:
    return "white" if c == WHITE else "black"


def variant_info(v: Variant) -> Dict[str, Any]:
    """What the page needs to draw the board: every playing square's number,
    row, column and label (as the variant writes it)."""
    sq = squares_of(v)
    return {"name": v.name, "house": not v.mandatory_capture, "size": v.size, "geometry": v.geometry,
            "first": colour_name(v.first), "description": v.description,
            "squares": [[sq.number[i], r, c, square_text(v, i)] for i, (r, c) in enumerate(sq.coords)]}

"""The 8x8 Hub dialect of pydraughts, behind `set-param name=pydraughts value=true`.

pydraughts (PyPI; the engine layer of lidraughts-bot) keeps every 8x8 variant
on one internal board: square 1 at the top left playing square (b8), squares
numbered along the rows, its "white" men starting on 21-32 and moving first.
Its Hub client sends that internal board as the `pos` string and the moves in
each variant's own numbers, and reads the engine's moves in those numbers too
(`draughts/core/game.py`, `draughts/convert.py` of pydraughts 0.6.7).  That
differs from this project's documented 8x8 extension in two variants:

* english (our american): the internal board is the real one turned half a
  turn with the colours exchanged (`convert._rotate_move` notation 1 maps a
  square s to 33 - s, and `_change_fen_from_variant` swaps the colours because
  Black moves first), so the start arrives as `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`
  where our extension writes `Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.  Its move
  numbers are the ordinary american ones.
* russian and brazilian: the position is ours, but the move numbers count from
  a1 (1 = a1, 2 = c1, ..., 5 = b2, ..., 32 = h8: notation 0 then
  `_numeric_to_algebraic_square`), the rows of our american grid (1 = b8,
  29 = a1) in the other order.

International (`standard` in pydraughts) and italian are the same in both.
Nothing in what pydraughts sends tells its dialect from the documented one
(its russian positions are ours, and a move list or a king move can be read
both ways), so the client says so with the `pydraughts` parameter.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, Optional

from draughts.variants import Variant

#: pydraughts' variant names that differ from ours
VARIANT_NAMES: Dict[str, str] = {"standard": "international", "english": "american"}

_SWAP = str.maketrans("wbWB", "bwBW")
_SQUARE = re.compile(r"[0-9]+")


class Dialect:
    """How one variant's positions and move squares differ from the documented
    extension: `position_in` turns a client's `pos` string into ours,
    `move_in` / `move_out` translate move text (`32-28`, `28x19x23`)."""

    def __init__(self, flip_board: bool = False, square: Optional[Callable[[int], int]] = None):
        self._flip_board = flip_board
        self._square = square  # an involution: the same map both ways; None: no change

    def position_in(self, text: str) -> str:
        if not self._flip_board or len(text) < 2:
            return text
        side = {"W": "B", "B": "W"}.get(text[:1].upper(), text[:1])
        return side + text[1:][::-1].translate(_SWAP)

    def move_in(self, text: str) -> str:
        square = self._square
        if square is None:
            return text
        return _SQUARE.sub(lambda m: str(square(int(m.group()))), text)

    move_out = move_in


def _rows_reversed(n: int) -> int:
    """Square n of the american grid (1 = b8) <-> pydraughts' russian number (1 = a1)."""
    if not 1 <= n <= 32:
        return n  # not a square: left for the move parser to reject
    row, k = divmod(n - 1, 4)
    return 4 * (7 - row) + k + 1


IDENTITY = Dialect()
_DIALECTS: Dict[str, Dialect] = {
    "american": Dialect(flip_board=True),
    "russian": Dialect(square=_rows_reversed),
    "brazilian": Dialect(square=_rows_reversed),
}


def dialect_for(variant: Variant) -> Dialect:
    """pydraughts' dialect for a variant (the identity where it follows ours)."""
    return _DIALECTS.get(variant.name, IDENTITY)

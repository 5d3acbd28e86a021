"""Slow, deliberately simple reference move generator for turkish draughts
(Dama): the test oracle of the orthogonal board, written from the rules and
independently of the engine in ``src/`` (it never imports it).

The rules (the federation's, as the kish crate and pydraughts give them):

* 8x8, every square; 16 men each, White on the second and third rows from the
  bottom, Black on the second and third from the top; White begins;
* a man moves one square forward or sideways (never backwards, never
  diagonally) and captures the same way, jumping an adjacent enemy piece to the
  empty square right behind it;
* a king moves any distance along a row or column and captures by jumping an
  enemy piece at any distance with empty squares between, landing on any empty
  square behind it;
* captured pieces leave the board at once (their squares are empty for the rest
  of the capture), a piece is never taken twice, and a capturing piece never
  turns back 180 degrees between two captures;
* the capture of the most pieces is compulsory (kings and men count the same);
* a man reaching the last row during a capture goes on capturing as a man (only
  sideways from there) and is crowned when the move ends.

Squares are (row, col) with row 0 at the top (Black's side); numbers are 1..64
from a8 along the rows (pydraughts' numbering), names a1..h8.

``legal_moves(pos, duplicates="drop")``: "drop" lists each move once (start,
end, captured set, promotion); "keep" lists every path, one per sequence of
landing squares (the count of the kish crate's published perft).
"""

from __future__ import annotations

from typing import Dict, List, NamedTuple, Tuple

RC = Tuple[int, int]
Pieces = Dict[RC, Tuple[str, bool]]
Position = Tuple[Pieces, str]

WHITE, BLACK = "W", "B"
SIZE = 8
UP, DOWN, LEFT, RIGHT = (-1, 0), (1, 0), (0, -1), (0, 1)
ORTHOGONALS = (UP, LEFT, RIGHT, DOWN)


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


def on_board(rc: RC) -> bool:
    return 0 <= rc[0] < SIZE and 0 <= rc[1] < SIZE


def crown_row(colour: str) -> int:
    return 0 if colour == WHITE else SIZE - 1


def man_directions(colour: str):
    return (UP if colour == WHITE else DOWN, LEFT, RIGHT)


def square_to_rc(n: int) -> RC:
    if not 1 <= n <= 64:
        raise ValueError(f"square {n} out of range")
    return divmod(n - 1, SIZE)


def rc_to_square(rc: RC) -> int:
    return rc[0] * SIZE + rc[1] + 1


def rc_to_algebraic(rc: RC) -> str:
    return f"{'abcdefgh'[rc[1]]}{SIZE - rc[0]}"


def algebraic_to_rc(text: str) -> RC:
    return (SIZE - int(text[1:]), "abcdefgh".index(text[0].lower()))


def start_position() -> Position:
    pieces: Pieces = {}
    for c in range(SIZE):
        for r in (1, 2):
            pieces[(r, c)] = (BLACK, False)
        for r in (5, 6):
            pieces[(r, c)] = (WHITE, False)
    return pieces, WHITE


def write_fen(pos: Position) -> str:
    pieces, side = pos
    out = [side]
    for colour in (WHITE, BLACK):
        items = sorted((rc_to_square(rc), king) for rc, (col, king) in pieces.items() if col == colour)
        out.append(colour + ",".join(("K" if k else "") + str(n) for n, k in items))
    return ":".join(out)


def parse_fen(fen: str) -> Position:
    parts = [p.strip() for p in fen.strip().split(":")]
    pieces: Pieces = {}
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        for tok in part[1:].split(","):
            tok = tok.strip()
            if not tok:
                continue
            king = tok[0] in "Kk"
            if king:
                tok = tok[1:]
            rc = algebraic_to_rc(tok) if tok[0].isalpha() else square_to_rc(int(tok))
            pieces[rc] = (colour, king)
    return pieces, parts[0].upper()


class Move(NamedTuple):
    start: RC
    end: RC
    captured: Tuple[RC, ...]  # in capture order
    path: Tuple[RC, ...]  # start, every landing square
    promotion: bool

    def key(self):
        return (self.start, self.end, frozenset(self.captured), self.promotion)


def _add(rc: RC, d: RC, k: int = 1) -> RC:
    return (rc[0] + k * d[0], rc[1] + k * d[1])


def _captures(pieces: Pieces, start: RC, colour: str, king: bool) -> List[Move]:
    out: List[Move] = []

    def empty(rc, captured):
        return rc == start or rc not in pieces or rc in captured

    def enemy(rc, captured):
        return rc != start and rc in pieces and rc not in captured and pieces[rc][0] != colour

    def search(sq, is_king, captured, path, came):
        found = False
        dirs = ORTHOGONALS if is_king else man_directions(colour)
        for d in dirs:
            if came is not None and d == (-came[0], -came[1]):
                continue  # never turn back 180 degrees
            s = _add(sq, d)
            if is_king:
                while on_board(s) and empty(s, captured):
                    s = _add(s, d)
            if not on_board(s) or not enemy(s, captured):
                continue
            lands = []
            t = _add(s, d)
            while on_board(t) and empty(t, captured + (s,)):
                lands.append(t)
                if not is_king:
                    break
                t = _add(t, d)
            for land in lands:
                found = True
                search(land, is_king, captured + (s,), path + (land,), d)
        if not found and captured:
            promo = not king and sq[0] == crown_row(colour)
            out.append(Move(start, sq, captured, path, promo))
        return found

    search(start, king, (), (start,), None)
    return out


def legal_moves(pos: Position, duplicates: str = "drop") -> List[Move]:
    if duplicates not in ("drop", "keep"):
        raise ValueError(duplicates)
    pieces, side = pos
    caps: List[Move] = []
    for sq in sorted(pieces):
        colour, king = pieces[sq]
        if colour == side:
            caps.extend(_captures(pieces, sq, colour, king))
    if caps:
        most = max(len(m.captured) for m in caps)
        caps = [m for m in caps if len(m.captured) == most]
        if duplicates == "drop":
            seen, unique = set(), []
            for m in caps:
                if m.key() not in seen:
                    seen.add(m.key())
                    unique.append(m)
            caps = unique
        return caps
    out = []
    for sq in sorted(pieces):
        colour, king = pieces[sq]
        if colour != side:
            continue
        for d in ORTHOGONALS if king else man_directions(colour):
            t = _add(sq, d)
            while on_board(t) and t not in pieces:
                out.append(Move(sq, t, (), (sq, t), not king and t[0] == crown_row(colour)))
                if not king:
                    break
                t = _add(t, d)
    return out


def apply_move(pos: Position, move: Move) -> Position:
    pieces, side = pos
    new = dict(pieces)
    colour, king = new.pop(move.start)
    for c in move.captured:
        del new[c]
    new[move.end] = (colour, king or move.promotion)
    return new, other(side)


def perft(pos: Position, depth: int, duplicates: str = "drop") -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos, duplicates)
    if depth == 1:
        return len(moves)
    return sum(perft(apply_move(pos, m), depth - 1, duplicates) for m in moves)

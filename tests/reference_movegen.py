"""Slow, deliberately simple reference move generator: the test oracle.

Written from the project's rule book (docs/rules.md, "The variants" table and the
"Details that the table cannot hold" list) and *independently* of the engine in
``src/``.  It must never import the engine.  It works directly on (row, col)
coordinates of the board as drawn with White at the bottom:

* row 0 is the top row, column 0 the left column;
* White always moves "up" (towards row 0) and is crowned on row 0;
  Black moves "down" and is crowned on the last row;
* standard colouring: (row + col) odd is a playing square (bottom-left corner,
  (7, 0) or (9, 0), is a playing square); italian and spanish use the other
  colouring, (row + col) even.

A position is ``(pieces, side)``: ``pieces`` is a dict ``{(row, col): (colour,
is_king)}`` with colours ``'W'`` / ``'B'``; ``side`` is the colour to move.

Public API
----------
``legal_moves(pos, variant, mandatory_capture=True, duplicates='drop')``
    list of :class:`Move` (start, end, captured in capture order, path of
    landing squares start..end, promotion flag), all in (row, col).
``apply_move(pos, move)`` -> new position.
``perft(pos, depth, variant, mandatory_capture=True, duplicates='drop')``.
``start_position(variant)``, ``parse_fen(fen, variant)``, ``write_fen(pos, variant)``,
``square_to_rc(variant, n)``, ``rc_to_square(variant, rc)``.

Duplicates
----------
docs/rules.md ("Common to all variants"): two captures with the same start, end and
set of captured pieces are ONE move.  ``duplicates='drop'`` merges them (the key
is (start, end, frozenset(captured), promotion)).  ``duplicates='keep'`` returns
every capture *path*, with this convention: a flying king that captures and then
goes on capturing in the SAME direction is one path whichever empty square
between the two captured pieces it "landed" on (only turns create distinct
landing choices); paths differing in capture order or in turning squares are
distinct.  This is the convention of the DCTL perft suite ("keep_duplicates").

Frisian, killer, antidraughts, breakthrough
-------------------------------------------
Written from the rule texts named in ``src/draughts/variants.py`` (again without
the engine):

* frisian (``orthogonal``): men and kings also capture along rows and columns;
  on the drawn board the next playing square along a row is two columns over
  and along a column two rows over, so a man jumps a piece 2 squares away and
  lands 4 away.  Kings still move (quietly) along diagonals only.  Precedence
  (``precedence='frisian'``): the greatest value with a king worth more than a
  man and less than two (men + 2 * kings, then the fewer kings), then a capture
  by a king.  A king may make at most ``king_limit`` quiet moves in a row while
  its side has men: ``legal_moves(..., king_moves=...)`` takes the counts,
  ``next_king_moves`` keeps them.
* killer (``halt_behind_king``): a flying king whose capture ends by taking a
  king lands on the first square behind it.
* breakthrough (``goal='breakthrough'``): once a king stands on the board the
  game is over: no legal moves.
* antidraughts: international moves (only the winner of a blocked side differs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Tuple

RC = Tuple[int, int]
Pieces = Dict[RC, Tuple[str, bool]]
Position = Tuple[Pieces, str]

WHITE, BLACK = "W", "B"
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))
# along a row or a column: the next playing square is two squares over
ORTHOGONALS = ((0, -2), (0, 2), (-2, 0), (2, 0))


def other(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


# ---------------------------------------------------------------------------
# Variants (docs/rules.md, table "The variants")
# ---------------------------------------------------------------------------

# What happens when a man reaches the far row during a capture:
STOP = "crowned, move ends"  # american, spanish, italian, czech
CONTINUE_AS_KING = "crowned, goes on as a king"  # russian
PASS_THROUGH = "crowned only if capture ends"  # brazilian, international


@dataclass(frozen=True)
class Variant:
    name: str
    size: int  # 8 or 10
    other_colouring: bool  # True: bottom-left corner is NOT a playing square
    first: str  # colour that moves first
    men_capture_back: bool
    flying_kings: bool
    men_capture_kings: bool
    majority: bool  # must take the most pieces
    precedence: Optional[str]  # None, 'spanish', 'italian', 'czech'
    far_row_in_capture: str  # STOP / CONTINUE_AS_KING / PASS_THROUGH
    remove_at_once: bool  # True: american; False: Turkish strike
    rows_of_men: int
    orthogonal: bool = False  # frisian: captures along rows and columns too
    king_limit: int = 0  # frisian: quiet moves in a row by one king while it has men
    halt_behind_king: bool = False  # killer
    goal: str = "normal"  # "normal", "losing", "breakthrough"
    start_fen: Optional[str] = None  # frysk: another start
    # thai: a flying king that takes a piece lands on the square right behind it
    king_lands_behind: bool = False

    def capture_dirs(self):
        return DIAGONALS + ORTHOGONALS if self.orthogonal else DIAGONALS

    def playable(self, rc: RC) -> bool:
        r, c = rc
        if not (0 <= r < self.size and 0 <= c < self.size):
            return False
        return (r + c) % 2 == (0 if self.other_colouring else 1)

    def on_board(self, rc: RC) -> bool:
        r, c = rc
        return 0 <= r < self.size and 0 <= c < self.size

    def crown_row(self, colour: str) -> int:
        return 0 if colour == WHITE else self.size - 1

    def forward(self, colour: str) -> int:
        return -1 if colour == WHITE else 1


VARIANTS: Dict[str, Variant] = {
    "american": Variant("american", 8, False, BLACK, False, False, True, False, None, STOP, True, 3),
    "russian": Variant("russian", 8, False, WHITE, True, True, True, False, None, CONTINUE_AS_KING, False, 3),
    "brazilian": Variant("brazilian", 8, False, WHITE, True, True, True, True, None, PASS_THROUGH, False, 3),
    "spanish": Variant("spanish", 8, True, WHITE, False, True, True, True, "spanish", STOP, False, 3),
    "italian": Variant("italian", 8, True, WHITE, False, False, False, True, "italian", STOP, False, 3),
    "czech": Variant("czech", 8, False, WHITE, False, True, True, False, "czech", STOP, False, 3),
    "international": Variant("international", 10, False, WHITE, True, True, True, True, None, PASS_THROUGH, False, 4),
    "frisian": Variant(
        "frisian",
        10,
        False,
        WHITE,
        True,
        True,
        True,
        True,
        "frisian",
        PASS_THROUGH,
        False,
        4,
        orthogonal=True,
        king_limit=3,
    ),
    "frysk": Variant(
        "frysk",
        10,
        False,
        WHITE,
        True,
        True,
        True,
        True,
        "frisian",
        PASS_THROUGH,
        False,
        4,
        orthogonal=True,
        king_limit=3,
        start_fen="W:W46,47,48,49,50:B1,2,3,4,5",
    ),
    "killer": Variant(
        "killer", 10, False, WHITE, True, True, True, True, None, PASS_THROUGH, False, 4, halt_behind_king=True
    ),
    "antidraughts": Variant(
        "antidraughts", 10, False, WHITE, True, True, True, True, None, PASS_THROUGH, False, 4, goal="losing"
    ),
    "breakthrough": Variant(
        "breakthrough", 10, False, WHITE, True, True, True, True, None, PASS_THROUGH, False, 4, goal="breakthrough"
    ),
    # APCA pool checkers: men jump backwards, flying kings, free choice,
    # no crowning in passing, pieces removed after the move
    "pool": Variant("pool", 8, False, BLACK, True, True, True, False, None, PASS_THROUGH, False, 3),
    # Mak-hos: two rows of men, forward-only men, flying kings landing right
    # behind every piece taken, pieces removed at once, free choice
    "thai": Variant("thai", 8, False, WHITE, False, True, True, False, None, STOP, True, 2, king_lands_behind=True),
}


def get_variant(variant) -> Variant:
    return variant if isinstance(variant, Variant) else VARIANTS[variant]


# ---------------------------------------------------------------------------
# Italian tie-break (4): "take the sequence whose first king is captured
# earliest".  Two readings exist; ITALIAN_KING_ORDER selects one.
# ---------------------------------------------------------------------------


def italian_king_order_key_lexicographic(captured_is_king: Tuple[bool, ...]) -> Tuple[int, ...]:
    """Positions (0-based indices in the capture order) of all captured kings.

    Compared lexicographically, smaller wins: the first king earliest, then
    (if equal) the second king earliest, and so on.  (The number of kings is
    already equal at this stage, by rule (3).)
    """
    return tuple(i for i, k in enumerate(captured_is_king) if k)


def italian_king_order_key_first_only(captured_is_king: Tuple[bool, ...]) -> Tuple[int, ...]:
    """Only the position of the first captured king counts."""
    return italian_king_order_key_lexicographic(captured_is_king)[:1]


ITALIAN_KING_ORDER_RULES = {
    "lexicographic": italian_king_order_key_lexicographic,
    "first_king_only": italian_king_order_key_first_only,
}
# Which reading is used.  The published perft of Gilbert's Position3 (DCTL
# test/src/algo/traversal/italian/gilbert.cpp) decides: at depth 7 the
# lexicographic reading gives the published 2,468,110, 'first king only'
# gives 2,468,111 (see test_reference_perft.py).
ITALIAN_KING_ORDER = "lexicographic"


# ---------------------------------------------------------------------------
# Square numbering (docs/rules.md, "Square numbering and notation")
# ---------------------------------------------------------------------------


def _all_squares(v: Variant) -> List[RC]:
    """Playing squares in variant numbering order (index 0 = square 1)."""
    n = v.size
    if v.name == "spanish":
        # square 1 at (7,7), rows right to left starting from the bottom
        order = []
        for r in range(n - 1, -1, -1):
            for c in range(n - 1, -1, -1):
                if v.playable((r, c)):
                    order.append((r, c))
        return order
    # international / american grid / italian: rows from the top, left to right
    return [(r, c) for r in range(n) for c in range(n) if v.playable((r, c))]


_SQUARES_CACHE: Dict[str, List[RC]] = {}


def squares(variant) -> List[RC]:
    v = get_variant(variant)
    if v.name not in _SQUARES_CACHE:
        _SQUARES_CACHE[v.name] = _all_squares(v)
    return _SQUARES_CACHE[v.name]


def square_to_rc(variant, n: int) -> RC:
    sq = squares(variant)
    if not 1 <= n <= len(sq):
        raise ValueError(f"square {n} out of range")
    return sq[n - 1]


def rc_to_square(variant, rc: RC) -> int:
    return squares(variant).index(tuple(rc)) + 1


def algebraic_to_rc(variant, text: str) -> RC:
    """'a1' -> (7, 0) on an 8x8 board (column letter from the left, rank from the bottom)."""
    v = get_variant(variant)
    col = ord(text[0].lower()) - ord("a")
    rank = int(text[1:])
    return (v.size - rank, col)


def rc_to_algebraic(variant, rc: RC) -> str:
    v = get_variant(variant)
    r, c = rc
    return f"{chr(ord('a') + c)}{v.size - r}"


# ---------------------------------------------------------------------------
# Positions and FEN
# ---------------------------------------------------------------------------


def start_position(variant) -> Position:
    v = get_variant(variant)
    if v.start_fen is not None:
        return parse_fen(v.start_fen, v)
    pieces: Pieces = {}
    for r in range(v.size):
        for c in range(v.size):
            if not v.playable((r, c)):
                continue
            if r < v.rows_of_men:
                pieces[(r, c)] = (BLACK, False)
            elif r >= v.size - v.rows_of_men:
                pieces[(r, c)] = (WHITE, False)
    return pieces, v.first


def _parse_square(v: Variant, token: str) -> RC:
    if token[0].isalpha():
        return algebraic_to_rc(v, token)
    return square_to_rc(v, int(token))


def parse_fen(fen: str, variant) -> Position:
    """Numeric FEN ``W:W31,32,K33:B1,2``; kings prefixed K, ranges a-b,
    either colour first, a colour section may be empty.  Algebraic squares
    (a1..h8) are also read."""
    v = get_variant(variant)
    text = fen.strip().rstrip(".")
    parts = [p.strip() for p in text.split(":")]
    side = parts[0].upper()
    if side not in (WHITE, BLACK):
        raise ValueError(f"bad side in FEN {fen!r}")
    pieces: Pieces = {}
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        if colour not in (WHITE, BLACK):
            raise ValueError(f"bad colour section {part!r}")
        body = part[1:]
        for tok in body.split(","):
            tok = tok.strip()
            if not tok:
                continue
            king = False
            if tok[0] in "Kk":
                king = True
                tok = tok[1:]
            if "-" in tok:
                a, b = tok.split("-")
                rng = range(int(a), int(b) + 1)
                for n in rng:
                    pieces[square_to_rc(v, n)] = (colour, king)
            else:
                pieces[_parse_square(v, tok)] = (colour, king)
    return pieces, side


def write_fen(pos: Position, variant) -> str:
    v = get_variant(variant)
    pieces, side = pos
    out = [side]
    for colour in (WHITE, BLACK):
        items = sorted((rc_to_square(v, rc), king) for rc, (col, king) in pieces.items() if col == colour)
        out.append(colour + ",".join(("K" if k else "") + str(n) for n, k in items))
    return ":".join(out)


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


class Move(NamedTuple):
    start: RC
    end: RC
    captured: Tuple[RC, ...]  # in capture order
    path: Tuple[RC, ...]  # start, landing squares..., end
    promotion: bool
    captured_kings: Tuple[bool, ...]  # parallel to captured: was that piece a king
    by_king: bool  # the moving piece was a king at the start

    def key(self):
        """The project's move identity (docs/rules.md): start, end, captured set, promotion."""
        return (self.start, self.end, frozenset(self.captured), self.promotion)


def _step(rc: RC, d: RC, k: int = 1) -> RC:
    return (rc[0] + k * d[0], rc[1] + k * d[1])


class _Chain:
    """Search context of one capturing piece (start square already vacated)."""

    def __init__(self, v: Variant, pieces: Pieces, start: RC, colour: str):
        self.v = v
        self.pieces = pieces
        self.start = start
        self.colour = colour
        self.results: List[Move] = []

    # -- board queries, honouring the removal rule --------------------------
    def occupied(self, rc: RC, captured: Tuple[RC, ...]) -> bool:
        if rc == self.start:
            return False  # the mover has left its square
        if rc not in self.pieces:
            return False
        if self.v.remove_at_once and rc in captured:
            return False  # american: jumped piece already gone
        return True  # Turkish strike: captured pieces still block

    def can_take(self, rc: RC, captured: Tuple[RC, ...], by_king: bool) -> bool:
        if rc == self.start or rc not in self.pieces or rc in captured:
            return False  # a piece may not be jumped twice
        colour, king = self.pieces[rc]
        if colour == self.colour:
            return False
        if king and not by_king and not self.v.men_capture_kings:
            return False  # italian: men never capture kings
        return True

    # -- single capture steps ------------------------------------------------
    def steps(self, sq: RC, king: bool, captured: Tuple[RC, ...]):
        """All single jumps from sq: list of (direction, victim, [landing squares])."""
        v = self.v
        out = []
        if king and v.flying_kings:
            for d in v.capture_dirs():
                s = _step(sq, d)
                while v.on_board(s) and not self.occupied(s, captured):
                    s = _step(s, d)
                if not v.on_board(s) or not self.can_take(s, captured, True):
                    continue
                lands = []
                t = _step(s, d)
                while v.on_board(t) and not self.occupied(t, captured):
                    lands.append(t)
                    if v.king_lands_behind:
                        break  # thai: only the square right behind the piece
                    t = _step(t, d)
                if lands:
                    out.append((d, s, lands))
            return out
        if king:
            dirs = list(v.capture_dirs())
        else:
            f = v.forward(self.colour)
            dirs = [(f, -1), (f, 1)]
            if v.men_capture_back:
                dirs += [(-f, -1), (-f, 1)]
            if v.orthogonal:
                dirs += list(ORTHOGONALS)  # forwards, backwards and sideways
        for d in dirs:
            s = _step(sq, d)
            t = _step(sq, d, 2)
            if v.on_board(t) and self.can_take(s, captured, king) and not self.occupied(t, captured):
                out.append((d, s, [t]))
        return out

    # -- full chains -----------------------------------------------------------
    def search(
        self, sq: RC, king: bool, was_king: bool, captured: Tuple[RC, ...], path: Tuple[RC, ...], skip_dir: Optional[RC]
    ):
        """Extend the chain standing on sq.  skip_dir: continuing in this
        direction is counted from another landing square (keep-path convention)."""
        steps = self.steps(sq, king, captured)
        if not steps:
            self._finish(sq, king, was_king, captured, path)
            return
        v = self.v
        for d, victim, lands in steps:
            if d == skip_dir:
                continue
            new_cap = captured + (victim,)
            if king and v.flying_kings:
                # Landing rule: if from some landing squares the king can
                # capture again, it must land on one of those.
                go_on = [L for L in lands if self.steps(L, True, new_cap)]
                if go_on:
                    for L in go_on:
                        # Continuing straight on is the same path whatever the
                        # landing square: count it from the first landing only.
                        self.search(L, True, was_king, new_cap, path + (L,), None if L == lands[0] else d)
                else:
                    if v.halt_behind_king and self.pieces[victim][1]:
                        lands = lands[:1]  # killer: halt right behind the last king taken
                    for L in lands:
                        self._finish(L, True, was_king, new_cap, path + (L,))
                continue
            # man or short king: a single landing square
            L = lands[0]
            if not king and L[0] == v.crown_row(self.colour):
                if v.far_row_in_capture == STOP:
                    self._finish(L, True, was_king, new_cap, path + (L,))
                    continue
                if v.far_row_in_capture == CONTINUE_AS_KING:
                    self.search(L, True, was_king, new_cap, path + (L,), None)
                    continue
                # PASS_THROUGH: go on as a man; crowned in _finish if it ends here
            self.search(L, king, was_king, new_cap, path + (L,), None)

    def _finish(self, sq, king, was_king, captured, path):
        if not captured:
            return  # no capture at all from the start square
        if not king and sq[0] == self.v.crown_row(self.colour):
            king = True
        self.results.append(
            Move(
                start=self.start,
                end=sq,
                captured=captured,
                path=path,
                promotion=(king and not was_king),
                captured_kings=tuple(self.pieces[c][1] for c in captured),
                by_king=was_king,
            )
        )


def _all_capture_paths(pos: Position, v: Variant) -> List[Move]:
    pieces, side = pos
    out: List[Move] = []
    for sq in sorted(pieces):
        colour, king = pieces[sq]
        if colour != side:
            continue
        ch = _Chain(v, pieces, sq, colour)
        ch.search(sq, king, king, (), (sq,), None)
        out.extend(ch.results)
    return out


def _apply_precedence(caps: List[Move], v: Variant) -> List[Move]:
    if not caps:
        return caps
    if v.majority and v.precedence != "frisian":
        best = max(len(m.captured) for m in caps)
        caps = [m for m in caps if len(m.captured) == best]
    if v.precedence == "spanish":
        best = max(sum(m.captured_kings) for m in caps)
        caps = [m for m in caps if sum(m.captured_kings) == best]
    elif v.precedence == "italian":
        if any(m.by_king for m in caps):
            caps = [m for m in caps if m.by_king]
        best = max(sum(m.captured_kings) for m in caps)
        caps = [m for m in caps if sum(m.captured_kings) == best]
        keyf = ITALIAN_KING_ORDER_RULES[ITALIAN_KING_ORDER]
        best_key = min(keyf(m.captured_kings) for m in caps)
        caps = [m for m in caps if keyf(m.captured_kings) == best_key]
    elif v.precedence == "czech":
        if any(m.by_king for m in caps):
            caps = [m for m in caps if m.by_king]
    elif v.precedence == "frisian":
        # a king is worth more than one man and less than two: compare
        # men + 2 * kings; on a tie the fewer kings (two men beat a king)
        def value(m):
            kings = sum(m.captured_kings)
            return (len(m.captured) + kings, -kings)

        best = max(value(m) for m in caps)
        caps = [m for m in caps if value(m) == best]
        if any(m.by_king for m in caps):
            caps = [m for m in caps if m.by_king]
    return caps


def _quiet_moves(pos: Position, v: Variant, frozen: Optional[RC] = None) -> List[Move]:
    pieces, side = pos
    out = []
    for sq in sorted(pieces):
        colour, king = pieces[sq]
        if colour != side or sq == frozen:
            continue
        if king:
            for d in DIAGONALS:
                t = _step(sq, d)
                while v.on_board(t) and t not in pieces:
                    out.append(Move(sq, t, (), (sq, t), False, (), True))
                    if not v.flying_kings:
                        break
                    t = _step(t, d)
        else:
            f = v.forward(colour)
            for dc in (-1, 1):
                t = (sq[0] + f, sq[1] + dc)
                if v.on_board(t) and t not in pieces:
                    out.append(Move(sq, t, (), (sq, t), t[0] == v.crown_row(colour), (), False))
    return out


def _has_men(pieces: Pieces, colour: str) -> bool:
    return any(c == colour and not k for c, k in pieces.values())


def legal_moves(
    pos: Position, variant, mandatory_capture: bool = True, duplicates: str = "drop", king_moves=None
) -> List[Move]:
    """king_moves (frisian): {colour: (quiet moves in a row, the king's square)}."""
    if duplicates not in ("drop", "keep"):
        raise ValueError(duplicates)
    v = get_variant(variant)
    if v.goal == "breakthrough" and any(k for _, k in pos[0].values()):
        return []  # someone has crowned: the game is over
    frozen = None
    if v.king_limit and king_moves:
        count, sq = king_moves.get(pos[1], (0, None))
        if count >= v.king_limit and _has_men(pos[0], pos[1]) and pos[0].get(sq) == (pos[1], True):
            frozen = sq  # that king may only capture
    caps = _apply_precedence(_all_capture_paths(pos, v), v)
    if duplicates == "drop":
        seen = set()
        unique = []
        for m in caps:
            if m.key() not in seen:
                seen.add(m.key())
                unique.append(m)
        caps = unique
    if caps and mandatory_capture:
        return caps
    return caps + _quiet_moves(pos, v, frozen)


def next_king_moves(pos: Position, move: Move, king_moves, variant):
    """Frisian: the king-move counts after `move` ({colour: (count, square)};
    a colour left out counts nothing).  A quiet king move adds one (counting
    from 1 when another king moved before); any other move of that side, and a
    side with only kings, counts nothing; a side whose counted king is taken
    counts nothing."""
    get_variant(variant)  # the name must be a variant's
    pieces, side = pos
    after, _ = apply_move(pos, move)
    out = {}
    count, sq = (king_moves or {}).get(side, (0, None))
    if _has_men(after, side) and move.by_king and not move.captured:
        out[side] = (count + 1 if count and sq == move.start else 1, move.end)
    them = other(side)
    count, sq = (king_moves or {}).get(them, (0, None))
    if count and _has_men(after, them) and sq not in move.captured:
        out[them] = (count, sq)
    return out


def apply_move(pos: Position, move: Move) -> Position:
    pieces, side = pos
    new = dict(pieces)
    colour, king = new.pop(move.start)
    for c in move.captured:
        del new[c]
    new[move.end] = (colour, king or move.promotion)
    return new, other(side)


def perft(
    pos: Position, depth: int, variant, mandatory_capture: bool = True, duplicates: str = "drop", king_moves=None
) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos, variant, mandatory_capture, duplicates, king_moves)
    if depth == 1:
        return len(moves)
    v = get_variant(variant)
    return sum(
        perft(
            apply_move(pos, m),
            depth - 1,
            variant,
            mandatory_capture,
            duplicates,
            next_king_moves(pos, m, king_moves, v) if v.king_limit else None,
        )
        for m in moves
    )


def board_text(pos: Position, variant) -> str:
    """Diagram for failure messages."""
    v = get_variant(variant)
    pieces, side = pos
    rows = []
    for r in range(v.size):
        line = []
        for c in range(v.size):
            p = pieces.get((r, c))
            if p is None:
                line.append("." if v.playable((r, c)) else " ")
            else:
                ch = "w" if p[0] == WHITE else "b"
                line.append(ch.upper() if p[1] else ch)
        rows.append(" ".join(line))
    return "\n".join(rows) + f"\n{side} to move"

"""The board users hold: moves, pieces, draw rules, notation.

Squares in this API are the variant's own square numbers (1..32 or 1..50,
the american grid for russian, brazilian and czech), or algebraic names
where a function takes text.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

from draughts.diagram import diagram
from draughts.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    PerftStopped,
)
from draughts.notation import (
    format_fen,
    format_king_moves,
    parse_fen,
    parse_king_moves,
    split_move,
    square_text,
    squares_of,
    start_squares,
)
from draughts.variants import BLACK, WHITE, Color, Variant, variant as get_variant
from draughts_core.perft import StopFlag
from draughts_core.position import MAX_PERFT_DEPTH, Position, endgame_limit


class Piece(NamedTuple):
    color: Color
    king: bool = False

    def symbol(self) -> str:
        """`w`, `b` for men, `W`, `B` for kings (the Hub protocol's letters)."""
        s = self.color.letter
        return s if self.king else s.lower()


class Termination(enum.Enum):
    NO_PIECES = "no pieces"
    NO_MOVES = "no legal moves"
    #: breakthrough: a side crowned a king
    KING_CROWNED = "king crowned"
    REPETITION = "repetition"
    MOVE_COUNT = "move-count rule"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TIME = "time forfeit"


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: Optional[Color]
    #: the rule that ended the game, in words (for example "25-move rule")
    reason: str = ""

    def result(self, variant: Variant) -> str:
        first_wins, draw, second_wins = variant.result_tokens
        if self.winner is None:
            return draw
        return first_wins if self.winner == variant.first else second_wins


_EMPTY: frozenset = frozenset()
_new_tuple = tuple.__new__


class Move(tuple):
    """A move: start and end squares, the path of landing squares, the captured
    squares in capture order and whether the piece is crowned.

    Two moves are equal when start, end, captured set and promotion are equal
    (the project's move identity); the path is informative only.
    """

    __slots__ = ()

    def __new__(
        cls, start: int, end: int, path: Tuple[int, ...] = (), captured: Tuple[int, ...] = (), promotion: bool = False
    ):
        start = int(start)
        end = int(end)
        path = tuple(int(s) for s in path) if path else (start, end)
        captured = tuple(int(s) for s in captured)
        promotion = bool(promotion)
        key = (start, end, frozenset(captured) if captured else _EMPTY, promotion)
        return _new_tuple(cls, (start, end, path, captured, promotion, key, None))

    @classmethod
    def _trusted(cls, start, end, path, captured, promotion, code):
        """Construction from the core's already-checked values (no conversions),
        with the core's encoding of the move (`Position.moves()`' code)."""
        return _new_tuple(
            cls,
            (
                start,
                end,
                path,
                captured,
                promotion,
                (start, end, frozenset(captured) if captured else _EMPTY, promotion),
                code,
            ),
        )

    start = property(lambda self: tuple.__getitem__(self, 0), doc="start square")
    end = property(lambda self: tuple.__getitem__(self, 1), doc="end square")
    path = property(lambda self: tuple.__getitem__(self, 2), doc="start and every landing square")
    captured = property(lambda self: tuple.__getitem__(self, 3), doc="captured squares in capture order")
    promotion = property(lambda self: tuple.__getitem__(self, 4), doc="the piece is crowned")
    _key = property(lambda self: tuple.__getitem__(self, 5))
    #: the core's encoding of the move (from bit, to bit, captured mask, promotion) when the
    #: move came from a Board's legal moves, else None
    code = property(lambda self: tuple.__getitem__(self, 6), doc="the core's encoding, or None")

    def __getnewargs__(self):
        return (self.start, self.end, self.path, self.captured, self.promotion)

    def __iter__(self):
        raise TypeError("Move is not iterable")

    def __len__(self):
        raise TypeError("Move has no length")

    def __bool__(self):
        return True

    def __getitem__(self, index):
        raise TypeError("Move is not subscriptable; use .start, .end, .path, .captured")

    def __lt__(self, other):
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)

    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return tuple.__getitem__(self, 5) == tuple.__getitem__(other, 5)

    def __ne__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return tuple.__getitem__(self, 5) != tuple.__getitem__(other, 5)

    def __hash__(self):
        return hash(tuple.__getitem__(self, 5))

    def __repr__(self):
        parts = [f"start={self.start}", f"end={self.end}"]
        if self.path != (self.start, self.end):
            parts.append(f"path={self.path!r}")
        if self.captured:
            parts.append(f"captured={self.captured!r}")
        if self.promotion:
            parts.append("promotion=True")
        return f"Move({', '.join(parts)})"

    def hub(self) -> str:
        """Hub protocol text: `32-28`, or `28x19x23` (start, end, captured squares)."""
        if not self.captured:
            return f"{self.start}-{self.end}"
        return "x".join(str(s) for s in (self.start, self.end) + tuple(sorted(self.captured)))

    def __str__(self):
        if not self.captured:
            return f"{self.start}-{self.end}"
        return "x".join(str(s) for s in self.path)


class LegalMoveView:
    """A lazy view of the legal moves: iteration, len(), count(), `in`."""

    __slots__ = ("_board",)

    def __init__(self, board: "Board"):
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._legal())

    def __len__(self):
        return len(self._board._legal())

    def count(self) -> int:
        return len(self._board._legal())

    def __bool__(self):
        return bool(self._board._legal())

    def __contains__(self, move) -> bool:
        if not isinstance(move, Move):
            return False
        return move in self._board._legal_set()

    def __repr__(self):
        b = self._board
        return f"<LegalMoveView ({', '.join(b.move_text(m) for m in b._legal())})>"


class SearchState(NamedTuple):
    """What a search needs of a game besides its position (`Board.search_state()`)."""

    position: Position
    #: the positions since the last irreversible move, oldest first (for repetitions)
    history: Tuple[Position, ...]
    #: plies since the last irreversible move (a capture or a man move, on the
    #: orthogonal board a man move forward)
    reversible: int
    #: plies without a capture or a promotion
    capture_promo: int
    #: plies since the material of the current endgame-rule class arose
    endgame_plies: int


class _State(NamedTuple):
    pos: Position
    quiet: int  # plies without a man move or a capture (orthogonal board: forward)
    capture_promo: int  # plies without a capture or a promotion
    endgame_class: int  # material class of the endgame rules (0: none)
    endgame_plies: int  # plies since that class arose
    reversible: int  # plies since the last irreversible move (repetition window; a
    # man's sideways move on the orthogonal board is reversible)
    cache: Optional[Dict["Move", "Move"]]  # the legal moves of pos, if they were generated


class Board:
    """A draughts position with its move history.

    >>> board = Board(variant="american")
    >>> board.push(board.parse_move("11-15"))
    Move(start=11, end=15)
    >>> board.fen()
    'W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
    """

    def __init__(self, fen: Optional[str] = None, *, variant: Union[str, Variant] = "international"):
        self.variant: Variant = get_variant(variant)
        self._squares = squares_of(self.variant)
        self.move_stack: List[Move] = []
        self._stack: List[_State] = []
        self._history: List[tuple] = []
        self._cache: Optional[List[Move]] = None
        self._cache_set: Optional[Dict[Move, Move]] = None
        self._cache_codes: Optional[Dict[tuple, Move]] = None
        if fen is None:
            self.reset()
        else:
            self.set_fen(fen)

    # --- set-up ---------------------------------------------------------------
    def reset(self) -> None:
        """The start position of the variant, with an empty history."""
        white, black = start_squares(self.variant)
        self._set_position(Position(self.variant.core_rules, white, black, (), int(self.variant.first)))

    def set_fen(self, fen: str) -> None:
        """Set up a position from a FEN; the history is cleared."""
        white, black, kings, turn = parse_fen(fen, self.variant)
        self._check_men(fen, white, black, kings)
        king_moves = ((0, 0), (0, 0))
        if self.variant.king_move_limit:
            king_moves = parse_king_moves(fen, self.variant)
        try:
            pos = Position(self.variant.core_rules, white, black, kings, int(turn), king_moves)
        except ValueError as e:
            raise FenError(f"bad FEN {fen!r}: {e}", fen) from None
        self._set_position(pos)

    def _check_men(self, fen: str, white, black, kings) -> None:
        """No man stands on the row where it would have been crowned."""
        per_row = self.variant.squares_per_row
        last = self.variant.size - 1
        crowned = set(kings)
        for squares, row, name in ((white, 0, "White"), (black, last, "Black")):
            for s in squares:
                if s not in crowned and s // per_row == row:
                    where = square_text(self.variant, s)
                    raise FenError(
                        f"bad FEN {fen!r}: a {name} man on square {where}, on the row "
                        f"where it is crowned (a man there is a king: write K{where})",
                        fen,
                        where,
                    )

    def clear(self, turn: Color = WHITE) -> None:
        """An empty board."""
        self._set_position(Position(self.variant.core_rules, (), (), (), int(turn)))

    def _set_position(self, pos: Position) -> None:
        self._pos = pos
        self.move_stack = []
        self._stack = []
        self._history = [pos.key()]
        self._quiet = 0
        self._capture_promo = 0
        self._reversible = 0
        self._endgame_class = pos.endgame_class()
        self._endgame_plies = 0
        self._invalidate()

    def _invalidate(self):
        self._cache = None
        self._cache_set = None
        self._cache_codes = None

    def root(self) -> "Board":
        """A copy of the board at the start of its move stack."""
        b = self.copy()
        while b.move_stack:
            b.pop()
        return b

    def copy(self, *, stack: bool = True) -> "Board":
        """A copy; with stack=False the copy has no move history."""
        b = Board.__new__(Board)
        b.variant = self.variant
        b._squares = self._squares
        b._pos = self._pos
        b._quiet = self._quiet
        b._capture_promo = self._capture_promo
        b._reversible = self._reversible
        b._endgame_class = self._endgame_class
        b._endgame_plies = self._endgame_plies
        b._cache = self._cache
        b._cache_set = self._cache_set
        b._cache_codes = self._cache_codes
        if stack:
            b.move_stack = list(self.move_stack)
            b._stack = list(self._stack)
            b._history = list(self._history)
        else:
            b.move_stack = []
            b._stack = []
            b._history = [self._pos.key()]
            b._reversible = 0
        return b

    __copy__ = copy

    # --- reading the position -------------------------------------------------
    @property
    def turn(self) -> Color:
        return Color(self._pos.turn)

    @property
    def position(self) -> Position:
        """The core position (for the engine and tools)."""
        return self._pos

    def _internal(self, square) -> int:
        if isinstance(square, str):
            return self._squares.parse(square)
        if isinstance(square, bool) or not isinstance(square, int):
            raise TypeError(f"a square is a number or a name, not {type(square).__name__}")
        if square not in self._squares.internal:
            raise ValueError(f"square {square} is not on the board (1-{self._squares.count})")
        return self._squares.internal[square]

    def piece_at(self, square) -> Optional[Piece]:
        """The piece on a square (number, or name such as "c3"), or None."""
        found = self._pos.piece(self._internal(square))
        return None if found is None else Piece(Color(found[0]), found[1])

    def pieces(self) -> Dict[int, Piece]:
        """Every piece on the board by square number."""
        white, black, kings = self._pos.pieces()
        ks = set(kings)
        num = self._squares.number
        out = {num[i]: Piece(WHITE, i in ks) for i in white}
        out.update({num[i]: Piece(BLACK, i in ks) for i in black})
        return dict(sorted(out.items()))

    def fen(self, *, numeric: bool = False) -> str:
        """The position as a FEN; in frisian a king's quiet moves in a row follow
        in lidraughts' form (`:+<black count><square>+<white count><square>`)
        when a count is running."""
        white, black, kings = self._pos.pieces()
        text = format_fen(self.variant, white, black, kings, self.turn, numeric)
        if self.variant.king_move_limit:
            text += format_king_moves(self.variant, self._pos.king_moves())
        return text

    def king_moves(self) -> Dict[Color, Tuple[int, Optional[int]]]:
        """Frisian: per colour, (quiet moves in a row by one king, that king's
        square or None).  (0, None) for both in the other variants."""
        num = self._squares.number
        return {Color(c): (n, num[sq] if n else None) for c, (n, sq) in enumerate(self._pos.king_moves())}

    def __str__(self):
        return self.unicode(ascii=True)

    def unicode(self, *, ascii: bool = False, flipped: bool = False) -> str:
        """A text diagram, White at the bottom unless flipped (`draughts.diagram`)."""
        return diagram(self, ascii=ascii, flipped=flipped)

    def __repr__(self):
        v = self.variant
        vtext = repr(v.name) if v.is_standard else repr(v)
        return f"Board({self.fen()!r}, variant={vtext})"

    # --- moves ----------------------------------------------------------------
    def _legal(self) -> List[Move]:
        if self._cache is None:
            trusted = Move._trusted
            self._cache = [
                trusted(f, t, path, capt, promo, code)
                for f, t, capt, promo, path, code in self._pos.moves(False, self._squares.number)
            ]
        return self._cache

    def _legal_set(self):
        if self._cache_set is None:
            self._cache_set = {m: m for m in self._legal()}
        return self._cache_set

    def move_of_code(self, code) -> Optional[Move]:
        """The legal Move whose core encoding is `code` (as `Searcher.run` reports
        moves), or None when no legal move has it."""
        if self._cache_codes is None:
            self._cache_codes = {m.code: m for m in self._legal()}
        return self._cache_codes.get(code)

    def search_state(self) -> SearchState:
        """The position with what the draw rules of a search need of the game."""
        rev = min(self._reversible, len(self._stack))
        history = tuple(st.pos for st in self._stack[len(self._stack) - rev :]) if rev else ()
        return SearchState(self._pos, history, rev, self._capture_promo, self._endgame_plies)

    @property
    def legal_moves(self) -> LegalMoveView:
        return LegalMoveView(self)

    def is_legal(self, move: Move) -> bool:
        return move in self._legal_set()

    def push(self, move: Union[Move, str]) -> Move:
        """Play a move (a Move or move text); raises IllegalMoveError. Returns the Move played."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, Move):
            raise TypeError(f"push takes a Move or move text, not {type(move).__name__}")
        legal = self._legal_set().get(move)
        if legal is None:
            raise IllegalMoveError(f"illegal move {move} in {self.fen()}")
        self._push_legal(legal)
        return legal

    def push_text(self, text: str, *, hub: bool = True) -> Move:
        """Parse move text in the variant's notation (see `parse_move`) and play
        it; returns the Move played."""
        move = self.parse_move(text, hub=hub)  # one of the legal moves
        self._push_legal(move)
        return move

    def _push_legal(self, move: Move) -> None:
        pos = self._pos
        was_king = self._pos_is_king(self._squares.internal[move.start])
        self._stack.append(
            _State(
                pos,
                self._quiet,
                self._capture_promo,
                self._endgame_class,
                self._endgame_plies,
                self._reversible,
                self._cache_set,
            )
        )
        new = pos.play_code(move.code)
        self._pos = new
        self.move_stack.append(move)
        # a man's move is irreversible, except along its row on the orthogonal
        # board (turkish), where the next sideways move can undo it
        irreversible = move.captured or (not was_king and not self._sideways(move))
        if irreversible:
            self._quiet = 0
            self._reversible = 0
        else:
            self._quiet += 1
            self._reversible += 1
        if move.captured or move.promotion:
            self._capture_promo = 0
        else:
            self._capture_promo += 1
        cls = new.endgame_class()
        if cls != self._endgame_class:
            self._endgame_class = cls
            self._endgame_plies = 0
        elif cls:
            self._endgame_plies += 1
        self._history.append(new.key())
        self._invalidate()

    def _sideways(self, move: Move) -> bool:
        """A quiet man move along its row (turkish): another such move can undo
        it, so it does not end the repetition window."""
        if self.variant.geometry != "orthogonal" or move.captured:
            return False
        internal = self._squares.internal
        return internal[move.start] // 8 == internal[move.end] // 8

    def _pos_is_king(self, internal: int) -> bool:
        found = self._pos.piece(internal)
        return bool(found and found[1])

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        move = self.move_stack.pop()
        st = self._stack.pop()
        self._pos = st.pos
        self._quiet = st.quiet
        self._capture_promo = st.capture_promo
        self._endgame_class = st.endgame_class
        self._endgame_plies = st.endgame_plies
        self._reversible = st.reversible
        self._history.pop()
        self._cache_set = st.cache
        self._cache = list(st.cache) if st.cache is not None else None
        self._cache_codes = None
        return move

    def peek(self) -> Move:
        """The last move played."""
        if not self.move_stack:
            raise IndexError("peek at an empty move stack")
        return self.move_stack[-1]

    # --- notation ---------------------------------------------------------------
    def parse_move(self, text: str, *, hub: bool = True) -> Move:
        """The legal move written as `text` in the variant's notation.

        Accepts `32-28`, `28x19`, `c3:e5` and full paths `47x38x24x13`; with
        hub=True (the default) also the Hub form `start x end x captured...`
        (captured squares in any order).  `-` names a quiet move and `x` or `:`
        a capture where both exist between the same squares (the house rule).
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"move text must be a string, not {type(text).__name__}")
        t = text.strip()
        if not t:
            raise InvalidMoveError("empty move text")
        parts = split_move(t)
        if len(parts) < 2 or "" in parts:
            raise InvalidMoveError(f"{text!r} is not a move (expected e.g. 32-28 or 28x19)")
        numbers = self._squares.number_of_text
        try:
            squares = [numbers[p] for p in parts]
        except KeyError:
            try:
                squares = [self._squares.number[self._squares.parse(p)] for p in parts]
            except ValueError as e:
                raise InvalidMoveError(f"{text!r} is not a move: {e}") from None
        start, end = squares[0], squares[-1]
        if len(squares) == 2:
            if self._cache is None:
                # Move values for the matching moves only (reading a game needs no others)
                trusted = Move._trusted
                cands = [
                    trusted(f, t, path, capt, promo, code)
                    for f, t, capt, promo, path, code in self._pos.moves(False, self._squares.number)
                    if f == start and t == end
                ]
            else:
                cands = [m for m in self._cache if m.start == start and m.end == end]
            if len(cands) > 1:
                # the separator tells a quiet move from a capture (house rule)
                quiet = "-" in t and not re.search(r"[x:×]", t, re.I)
                narrowed = [m for m in cands if bool(m.captured) != quiet]
                cands = narrowed or cands
        else:
            legal = self._legal()
            cands = [m for m in legal if m.path == tuple(squares)]
            if not cands:
                # another route of the same move (a duplicate capture, or a
                # flying king landing elsewhere before going straight on)
                capt = self._path_captures(squares)
                if capt is not None:
                    cands = [
                        m
                        for m in legal
                        if m.start == start
                        and m.end == end
                        and frozenset(m.captured) == capt
                        and len(m.captured) == len(squares) - 1
                    ]
            if not cands and hub:
                hub_capt = set(squares[2:])
                cands = [
                    m
                    for m in legal
                    if m.start == squares[0]
                    and m.end == squares[1]
                    and set(m.captured) == hub_capt
                    and len(m.captured) == len(squares) - 2
                ]
        if not cands:
            raise IllegalMoveError(f"{text!r} is not a legal move in {self.fen()}")
        if len(cands) > 1:
            names = ", ".join(self._full_text(m) for m in cands)
            raise AmbiguousMoveError(f"{text!r} is ambiguous: it matches {names}", cands)
        return cands[0]

    def _path_captures(self, squares) -> Optional[frozenset]:
        """The squares a capture along these landing squares takes, or None when
        some segment does not jump exactly one enemy piece."""
        size = self.variant.size
        every = self.variant.geometry == "orthogonal"
        h = size if every else size // 2
        internal = self._squares.internal

        def rc(i):
            r = i // h
            if every:
                return r, i % h
            return r, 2 * (i % h) + (1 if r % 2 == 0 else 0)

        def index(r, c):
            return r * h + (c if every else c // 2)

        pos = self._pos
        start = internal[squares[0]]
        mover = pos.piece(start)
        if mover is None or mover[0] != pos.turn:
            return None
        taken = []
        orthogonal = self.variant.orthogonal_captures
        for a, b in zip(squares, squares[1:]):
            (r0, c0), (r1, c1) = rc(internal[a]), rc(internal[b])
            dr, dc = r1 - r0, c1 - c0
            if every:
                if (dr and dc) or max(abs(dr), abs(dc)) < 2:
                    return None
                sr, sc, steps = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0), max(abs(dr), abs(dc))
            elif abs(dr) == abs(dc) and abs(dr) >= 2:
                sr, sc, steps = (1 if dr > 0 else -1), (1 if dc > 0 else -1), abs(dr)
            elif orthogonal and (dr == 0) != (dc == 0) and (dr + dc) % 2 == 0 and abs(dr + dc) >= 4:
                # along a row or a column: playable squares two apart
                sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
                sr, sc, steps = 2 * sr, 2 * sc, abs(dr + dc) // 2
            else:
                return None
            found = None
            for k in range(1, steps):
                i = index(r0 + k * sr, c0 + k * sc)
                piece = pos.piece(i)
                gone = i == start or (self.variant.remove_at_once and i in taken)
                if piece is None or gone:
                    continue
                if piece[0] == pos.turn or i in taken or found is not None:
                    return None
                found = i
            land = internal[b]
            if found is None or (
                pos.piece(land) is not None and land != start and not (self.variant.remove_at_once and land in taken)
            ):
                return None
            taken.append(found)
        num = self._squares.number
        return frozenset(num[i] for i in taken)

    def _full_text(self, move: Move) -> str:
        v = self.variant
        sep = v.capture_separator if move.captured else "-"
        return sep.join(square_text(v, self._squares.internal[s]) for s in move.path)

    def move_text(self, move: Move) -> str:
        """The move in the variant's notation; the full path where start and end
        do not tell it from another legal move."""
        v = self.variant
        sq = self._squares.internal
        if move.captured:
            twins = [m for m in self._legal() if m.start == move.start and m.end == move.end]
            if len(twins) > 1:
                return self._full_text(move)
            sep = v.capture_separator
        else:
            sep = "-"
        return f"{square_text(v, sq[move.start])}{sep}{square_text(v, sq[move.end])}"

    def move_number(self) -> int:
        """The number of the next move in the game's numbering: a move of the
        variant's first side begins a number (black in american, white
        elsewhere), counted from the start of the move stack.  A position set
        up from a FEN starts at 1."""
        ply = len(self.move_stack)
        start_turn = self.turn if ply % 2 == 0 else ~self.turn
        return ply // 2 + 1 if start_turn == self.variant.first else (ply + 1) // 2 + 1

    def variation_str(self, moves: Iterable[Union[Move, str]]) -> str:
        """`moves`, played in turn from this position, written in the
        variant's notation with move numbers: `N.` before a move of the side
        that moves first in the variant, `N...` when the line begins with the
        other side's move.  Raises IllegalMoveError at a move that is not
        legal where it is played; the board itself is not changed.

            >>> board = Board()
            >>> board.variation_str(["32-28", "19-23", "28x19", "14x23"])
            '1. 32-28 19-23 2. 28x19 14x23'
            >>> _ = board.push("32-28")
            >>> board.variation_str(["19-23", "28x19"])
            '1... 19-23 2. 28x19'
        """
        b = self.copy()
        first = self.variant.first
        number = self.move_number()
        out: List[str] = []
        for move in moves:
            if isinstance(move, str):
                move = b.parse_move(move)
            elif move not in b.legal_moves:
                raise IllegalMoveError(f"illegal move {move} in {b.fen()}")
            text = b.move_text(move)
            if b.turn == first:
                out.append(f"{number}. {text}")
            else:
                out.append(f"{number}... {text}" if not out else text)
                number += 1
            b.push(move)
        return " ".join(out)

    # --- game end -------------------------------------------------------------
    def is_repetition(self, count: Optional[int] = None) -> bool:
        """The current position has occurred `count` times (default: the variant's
        repetition rule) with the same side to move."""
        count = count or self.variant.repetitions
        if not count:
            return False
        key = self._history[-1]
        window = self._history[-1 - self._reversible :]
        return window.count(key) >= count

    def outcome(self) -> Optional[Outcome]:
        """How the game ended by the rules, or None while it goes on."""
        v = self.variant
        wm, wk, bm, bk = self._pos.counts()
        if v.goal == "breakthrough" and (wk or bk):
            winner = WHITE if wk and not bk else BLACK if bk and not wk else ~self.turn
            return Outcome(Termination.KING_CROWNED, winner, "crowned a king first")
        mine = (wm + wk) if self.turn == WHITE else (bm + bk)
        # antidraughts: the side with no move wins
        loser = self.turn if v.goal != "losing" else ~self.turn
        if mine == 0:
            return Outcome(Termination.NO_PIECES, ~loser, "no pieces left")
        if not self._legal():
            return Outcome(Termination.NO_MOVES, ~loser, "no legal move")
        if v.repetitions and self.is_repetition():
            return Outcome(Termination.REPETITION, None, f"position repeated {v.repetitions} times")
        if v.quiet_plies and self._quiet >= v.quiet_plies:
            return Outcome(
                Termination.MOVE_COUNT, None, f"{v.quiet_plies // 2} moves each without a man move or a capture"
            )
        if v.no_capture_promotion_plies and self._capture_promo >= v.no_capture_promotion_plies:
            return Outcome(
                Termination.MOVE_COUNT,
                None,
                f"{v.no_capture_promotion_plies // 2} moves each without a capture or a promotion",
            )
        limit = endgame_limit(self._endgame_class)
        if limit and self._endgame_plies >= limit:
            return Outcome(Termination.MOVE_COUNT, None, f"{limit // 2}-move endgame rule")
        return None

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def result(self) -> str:
        """The variant's result token, or `*` while the game goes on."""
        o = self.outcome()
        return "*" if o is None else o.result(self.variant)

    @property
    def ply(self) -> int:
        return len(self.move_stack)

    @property
    def quiet_plies(self) -> int:
        """Plies since the last man move or capture (on the orthogonal board,
        the last man move forward or capture)."""
        return self._quiet

    # --- perft ----------------------------------------------------------------
    def perft(self, depth: int, duplicates: str = "drop", *, stop: Optional[StopFlag] = None) -> int:
        """Number of move paths of length `depth` (leaves only).

        duplicates="drop" counts captures with the same start, end and captured
        set once; "keep" counts every capture path.  Setting `stop` (a
        `draughts_core.perft.StopFlag`) from another thread ends the count
        early with PerftStopped.
        """
        keep = _duplicates_keep(duplicates)
        n = self._pos.perft(check_perft_depth(depth), keep, stop)
        if n is None:
            raise PerftStopped(f"perft({depth}) was stopped")
        return n

    def divide(
        self, depth: int, duplicates: str = "drop", *, stop: Optional[StopFlag] = None
    ) -> List[Tuple[Move, int]]:
        """perft(depth - 1) below every legal move."""
        keep = _duplicates_keep(duplicates)
        if check_perft_depth(depth) < 1:
            raise InvalidInputError("divide needs depth >= 1")
        out = []
        for m, child in self.successors(duplicates):
            n = child.perft(depth - 1, keep, stop)
            if n is None:
                raise PerftStopped(f"divide({depth}) was stopped")
            out.append((m, n))
        return out

    def successors(self, duplicates: str = "drop") -> List[Tuple[Move, Position]]:
        """Every legal move with the core position after it, in the core's order;
        duplicates="keep" lists every capture path (as perft counts them)."""
        keep = _duplicates_keep(duplicates)
        trusted = Move._trusted
        play = self._pos.play_code
        return [
            (trusted(f, t, path, capt, promo, code), play(code))
            for f, t, capt, promo, path, code in self._pos.moves(keep, self._squares.number)
        ]


def check_perft_depth(depth) -> int:
    """`depth` if it is a perft depth the core takes (0 to MAX_PERFT_DEPTH),
    else InvalidInputError: the one limit and message of every perft."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise InvalidInputError(f"perft depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, not {depth!r}")
    return depth


def _duplicates_keep(duplicates: str) -> bool:
    if duplicates not in ("drop", "keep"):
        raise InvalidInputError(f"duplicates must be 'drop' or 'keep', not {duplicates!r}")
    return duplicates == "keep"

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The Python face of the core: rules packed into a struct and a position.

Squares at this boundary are *internal squares*: 0-based on the
american/international grid (square 1 of those variants is 0).  The notation
layer in `draughts` maps them to each variant's own numbering.
"""

from libc.stdlib cimport malloc, free
from libc.string cimport memset
from draughts_core.bitboard cimport u64, G8, G10, G64, step, step8, bit_of_square, square_of_bit, layout, ctz, popcount
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport (Pos, CMove, MoveList, PathList, gen_moves,
                                    count_moves, make_move, has_capture, exchange_squares, exchange_moves)
from draughts_core.perft cimport perft as c_perft, perft_hashed, PEntry, PerftTable, StopFlag
from draughts_core.zobrist cimport full_key
from draughts_core.draw cimport endgame_class as c_endgame_class, endgame_limit as c_endgame_limit

# every rule by name (rule_fields.RULES): the move rules (what the moves and so perft, the
# endgame tables and the opening books depend on) and the draw rules
from draughts_core.rule_fields import RULE_FIELDS, MOVE_RULE_FIELDS, DRAW_RULE_FIELDS
from draughts_core.rule_fields import RULES as _RULES, BY_NAME as _BY_NAME
from draughts_core.movegen import FAMILY_RULES as _FAMILY_RULES

# the fields of the C struct: the declared rules, `extended` and `family` (derived from them)
cdef dict _struct_dict(Rules r):
    """The struct's fields by name (Cython converts a struct to a dict)."""
    return r


cdef Rules _zero_rules
memset(&_zero_rules, 0, sizeof(Rules))
_STRUCT_FIELDS = tuple(_struct_dict(_zero_rules))


def _rule_family(values):
    """The move generator's family (rules.pxd's Family) for rule values by
    name: the one whose constant rules (movegen.FAMILY_RULES) they all have,
    or 0.  An extended rule set takes none."""
    if values["extended"]:
        return 0
    for family, fixed in _FAMILY_RULES.items():
        if all(values[name] == value for name, value in fixed.items()):
            return family
    return 0


def _check_struct(declared):
    """ImportError unless the struct's fields are the declared rules, `extended` and `family`."""
    only_struct = sorted(set(_STRUCT_FIELDS) - set(declared) - {"extended", "family"})
    only_declared = sorted(set(declared) - set(_STRUCT_FIELDS))
    if only_struct or only_declared:
        raise ImportError("the core's Rules struct (rules.pxd) and rule_fields.RULES disagree: "
                          f"only in the struct {only_struct}, only declared {only_declared}")


_check_struct(RULE_FIELDS)

_IDENTITY = {8: list(range(32)), 10: list(range(50)), 64: list(range(64))}

# perft keeps one move list a ply on the stack: deeper than this would not
# finish anyway, and must not overflow a thread's stack
MAX_PERFT_DEPTH = 64


def check_perft_depth(depth):
    """The depth as an int, or ValueError naming the one limit."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, not {depth!r}")
    return depth


cdef class CoreRules:
    """A Variant's rules packed into the C struct the core reads.

    Built by keyword only, one keyword a rule (rule_fields.RULES names them
    and their values, as ints); `as_dict()` gives them back by name."""

    def __init__(self, **rules):
        unknown = [name for name in rules if name not in _BY_NAME]
        if unknown:
            raise TypeError(f"CoreRules: unknown rule {', '.join(unknown)}")
        values = {}
        for field in _RULES:
            value = rules.get(field.name, field.default)
            if value is None:
                raise TypeError(f"CoreRules: the rule {field.name} has no default and must be given")
            value = int(value)
            field.check(value)
            values[field.name] = value
        if values["size"] not in (8, 10):
            raise ValueError(f"board size must be 8 or 10, not {values['size']}")
        if values["geometry"] == 1 and values["size"] != 8:
            raise ValueError("the orthogonal geometry (1) is an 8x8 board")
        if values["orthogonal_captures"] and values["remove_at_once"]:
            raise ValueError("orthogonal captures need removal at the end of the move")
        # the move generator's extended specialisation
        values["extended"] = int(values["orthogonal_captures"] != 0 or values["king_move_limit"] != 0
                                 or values["goal"] == 2)
        # ... or the one whose constant capture rules are these, every one
        values["family"] = _rule_family(values)
        self.r = values

    @property
    def size(self):
        return self.r.size

    @property
    def king_move_limit(self):
        return self.r.king_move_limit

    @property
    def family(self):
        """The move generator's specialisation (rules.pxd's Family): 1 where
        the capture rules are international's, 2 american's, 0 any others."""
        return self.r.family

    def generic(self):
        """These rules for the generic move generator (family 0, every
        capture rule read from the struct): the same moves by the code every
        other rule set takes, for tests and measurements.  (A copy pickled
        and read back has its family again.)"""
        cdef CoreRules copy = CoreRules.__new__(CoreRules)
        copy.r = self.r
        copy.r.family = 0
        return copy

    def __reduce__(self):
        return (_core_rules, (self.as_dict(),))

    def as_dict(self):
        """Every rule's value by name (ints, in the order of RULE_FIELDS), read from the struct."""
        cdef dict r = _struct_dict(self.r)
        return {name: int(r[name]) for name in RULE_FIELDS}

    def move_rules(self):
        """The move rules' values by name (MOVE_RULE_FIELDS): what the moves depend on."""
        cdef dict r = _struct_dict(self.r)
        return {name: int(r[name]) for name in MOVE_RULE_FIELDS}

    def __repr__(self):
        return "CoreRules(" + ", ".join(f"{k}={v}" for k, v in self.as_dict().items()) + ")"


def _core_rules(rules):
    """CoreRules from its rules by name (unpickling)."""
    return CoreRules(**rules)


def endgame_limit(int cls):
    """Plies an endgame class (Position.endgame_class) allows before the draw; 0: no limit."""
    return c_endgame_limit(cls)


# `size` below is the layout: 8 or 10 (the dark squares, ghost bits) or 64
# (every square of the orthogonal board); see bitboard.layout

cdef inline int nsquares(int size) noexcept:
    return 64 if size == 64 else size * size // 2


cdef inline u64 mask_of(int size, squares) except? 0:
    cdef u64 m = 0
    cdef int n = nsquares(size)
    for s in squares:
        if not 0 <= s < n:
            raise ValueError(f"square index {s} is off the board")
        m |= (<u64>1) << bit_of_square(size, s)
    return m


cdef list squares_of(int size, u64 m):
    cdef list out = []
    while m:
        out.append(square_of_bit(size, ctz(m)))
        m &= m - 1
    return out


cdef inline u64 step_any(int size, u64 x, int d) noexcept:
    if size == 8:
        return step8(<G8*>NULL, x, d)
    if size == 10:
        return step8(<G10*>NULL, x, d)
    return step(<G64*>NULL, x, d)


cdef int direction_between(int size, u64 a, u64 b, int ndir):
    """The direction (diagonal, or orthogonal too when ndir is 8; orthogonal on
    the 64-square layout) leading from one-hot a to one-hot b, or -1."""
    cdef int d
    cdef u64 x
    for d in range(ndir):
        x = a
        while x:
            x = step_any(size, x, d)
            if x == b:
                return d
    return -1


cdef inline unsigned kmoves_byte(int size, count, square) except? 0:
    """One colour's byte of Pos.kmoves from (count, internal square)."""
    if count == 0:
        return 0
    if not 0 < count <= 3:
        raise ValueError(f"a king-move count must be 0 to 3, not {count}")
    if not 0 <= square < size * size // 2:
        raise ValueError(f"square index {square} is off the board")
    return <unsigned>count | (<unsigned>bit_of_square(size, square) << 2)


cdef class Position:
    """A position of one variant: pieces, kings and the side to move (0 white, 1 black)."""

    def __init__(self, CoreRules rules, white=(), black=(), kings=(), int turn=0,
                 king_moves=((0, 0), (0, 0))):
        """king_moves: (count, internal square) per colour, the frisian count
        of quiet moves in a row by the king on that square (kept only under a
        king-move limit, and only for a king of that colour while it has men)."""
        cdef int size = layout(rules.r.size, rules.r.geometry)
        cdef unsigned kw, kb
        self.rules = rules
        w = mask_of(size, white)
        b = mask_of(size, black)
        if w & b:
            raise ValueError("a square holds a white and a black piece")
        k = mask_of(size, kings)
        if k & ~(w | b):
            raise ValueError("a king on an empty square")
        self.pos.bb[0] = w
        self.pos.bb[1] = b
        self.pos.kings = k
        self.pos.stm = 1 if turn else 0
        self.pos.kmoves = 0
        if rules.r.king_move_limit:
            (cw, sw), (cb, sbk) = king_moves
            kw = kmoves_byte(size, cw, sw)
            kb = kmoves_byte(size, cb, sbk)
            for c, byte in ((0, kw), (1, kb)):
                if not byte:
                    continue
                if (byte & 3) > rules.r.king_move_limit:
                    raise ValueError(f"a king-move count above the limit {rules.r.king_move_limit}")
                sq_bit = (<u64>1) << (byte >> 2)
                if not (self.pos.bb[c] & k & sq_bit):
                    raise ValueError("a king-move count for a square without a king of that colour")
                if not (self.pos.bb[c] & ~k):
                    byte = 0            # a side with only kings counts nothing
                self.pos.kmoves |= byte << (8 * c)

    cdef Position _child(self):
        cdef Position c = Position.__new__(Position)
        c.rules = self.rules
        return c

    @property
    def turn(self):
        return self.pos.stm

    @property
    def rules(self):
        return self.rules

    def key(self):
        """A hashable value identifying the position (pieces, kings, side to
        move, and the frisian king-move counts, 0 in the other variants)."""
        return (self.pos.bb[0], self.pos.bb[1], self.pos.kings, self.pos.stm, self.pos.kmoves)

    def king_moves(self):
        """((count, internal square), (count, internal square)) for White and
        Black: the frisian quiet moves in a row of one king ((0, 0): none)."""
        cdef int size = self.rules.r.size
        out = []
        for c in range(2):
            byte = (self.pos.kmoves >> (8 * c)) & 0xFF
            out.append((byte & 3, square_of_bit(size, byte >> 2)) if byte else (0, 0))
        return tuple(out)

    def __reduce__(self):
        white, black, kings = self.pieces()
        return (Position, (self.rules, white, black, kings, self.pos.stm, self.king_moves()))

    def __eq__(self, other):
        return isinstance(other, Position) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def pieces(self):
        """(white squares, black squares, king squares) as internal squares."""
        cdef int size = layout(self.rules.r.size, self.rules.r.geometry)
        return (squares_of(size, self.pos.bb[0]), squares_of(size, self.pos.bb[1]),
                squares_of(size, self.pos.kings))

    def piece(self, int sq):
        """(colour, king) of the piece on internal square sq, or None."""
        cdef int size = layout(self.rules.r.size, self.rules.r.geometry)
        cdef u64 b
        if not 0 <= sq < nsquares(size):
            raise ValueError(f"square index {sq} is off the board")
        b = (<u64>1) << bit_of_square(size, sq)
        if self.pos.bb[0] & b:
            return (0, (self.pos.kings & b) != 0)
        if self.pos.bb[1] & b:
            return (1, (self.pos.kings & b) != 0)
        return None

    def counts(self):
        """(white men, white kings, black men, black kings)."""
        cdef u64 k = self.pos.kings
        cdef u64 w = self.pos.bb[0], b = self.pos.bb[1]
        return (popcount(w & ~k), popcount(w & k), popcount(b & ~k), popcount(b & k))

    def endgame_class(self):
        """The material's endgame-rule class under its rules (draughts_core/draw.pxd); 0: none."""
        return c_endgame_class(&self.rules.r, &self.pos)

    def copy(self):
        cdef Position c = self._child()
        c.pos = self.pos
        return c

    def with_turn(self, int turn):
        """The same pieces with another side to move (the king-move counts kept)."""
        cdef Position c = self._child()
        c.pos = self.pos
        c.pos.stm = 1 if turn else 0
        return c

    def has_capture(self):
        return has_capture(&self.rules.r, &self.pos)

    def exchange_codes(self):
        """The quiet moves that the search's horizon exchanges
        (`horizon-exchanges`) would search here, in the core's encoding (see
        `moves`): a man's move to one of `exchange_squares`' squares after
        which the other side must capture one piece, the man among those it
        can take, and every such capture has a recapture.  Empty with a king
        on the board or under rules it does not cover."""
        cdef MoveList* ml = <MoveList*>malloc(sizeof(MoveList))
        cdef MoveList* scratch = <MoveList*>malloc(sizeof(MoveList))
        cdef u64 hot
        cdef int i, n
        cdef CMove* m
        if ml == NULL or scratch == NULL:
            free(ml)
            free(scratch)
            raise MemoryError()
        try:
            out = []
            hot = exchange_squares(&self.rules.r, &self.pos)
            if hot and not has_capture(&self.rules.r, &self.pos):
                n = exchange_moves(&self.rules.r, &self.pos, hot, ml, scratch)   # the search's own list
                for i in range(n):
                    m = &ml.moves[i]
                    out.append((m.frm, m.to, m.capt, m.promo != 0))
            return out
        finally:
            free(ml)
            free(scratch)

    def moves(self, bint keep=False, numbering=None):
        """Legal moves as tuples (from, to, captured in capture order, promotion, path, code).

        Squares are internal squares, or numbering[internal] when a numbering
        table is given; path lists the start and every landing square.  `code`
        is the core's own encoding of the move (from bit, to bit, captured mask,
        promotion): what `play_code` takes and what the search reports.
        """
        cdef MoveList* ml = <MoveList*>malloc(sizeof(MoveList))
        cdef PathList* pl = <PathList*>malloc(sizeof(PathList))
        cdef int size = layout(self.rules.r.size, self.rules.r.geometry)
        cdef int i, k, n, d
        cdef CMove* m
        cdef u64 a, b, x, taken
        if ml == NULL or pl == NULL:
            free(ml)
            free(pl)
            raise MemoryError()
        try:
            n = gen_moves(&self.rules.r, &self.pos, ml, keep, pl)
            if ml.overflow:
                raise OverflowError("more legal moves than the move list holds")
            out = []
            num = numbering if numbering is not None else _IDENTITY[size]
            for i in range(n):
                m = &ml.moves[i]
                path = tuple([num[square_of_bit(size, pl.path[i][k])] for k in range(pl.npath[i])])
                order = []
                if m.capt:
                    taken = 0       # squares listed so far: under removal at once a later
                                    # segment may pass over them again
                    for k in range(pl.npath[i] - 1):
                        a = (<u64>1) << pl.path[i][k]
                        b = (<u64>1) << pl.path[i][k + 1]
                        d = direction_between(size, a, b, 8 if self.rules.r.orthogonal_captures else 4)
                        x = a
                        while x != b:
                            x = step_any(size, x, d)
                            if x & m.capt & ~taken:
                                taken |= x
                                order.append(num[square_of_bit(size, ctz(x))])
                                break
                out.append((num[square_of_bit(size, m.frm)], num[square_of_bit(size, m.to)],
                            tuple(order), m.promo != 0, path, (m.frm, m.to, m.capt, m.promo != 0)))
            return out
        finally:
            free(ml)
            free(pl)

    def count_moves(self, bint keep=False):
        cdef MoveList* ml = <MoveList*>malloc(sizeof(MoveList))
        if ml == NULL:
            raise MemoryError()
        try:
            return count_moves(&self.rules.r, &self.pos, keep, ml)
        finally:
            free(ml)

    def play(self, int frm, int to, captured=(), bint promo=False):
        """The position after a move given as internal squares (not checked for legality)."""
        cdef int size = layout(self.rules.r.size, self.rules.r.geometry)
        cdef CMove m
        cdef Position c = self._child()
        m.frm = bit_of_square(size, frm)
        m.to = bit_of_square(size, to)
        m.capt = mask_of(size, captured)
        m.promo = promo
        m.ncapt = len(captured)
        make_move(&self.rules.r, &self.pos, &m, &c.pos)
        return c

    def play_code(self, code):
        """The position after a move in the core's encoding (`moves()`' last field; not checked)."""
        cdef CMove m
        cdef Position c = self._child()
        frm, to, capt, promo = code
        m.frm = frm
        m.to = to
        m.capt = capt
        m.promo = promo
        m.ncapt = popcount(m.capt)
        make_move(&self.rules.r, &self.pos, &m, &c.pos)
        return c

    def perft(self, depth, bint keep=False, StopFlag stop=None):
        """Leaf count at depth (the GIL is released while counting); None
        when `stop` was set before the count finished."""
        cdef u64 n
        cdef int d = check_perft_depth(depth)
        cdef volatile int* flag = &stop.flag if stop is not None else NULL
        with nogil:
            n = c_perft(&self.rules.r, &self.pos, d, keep, flag)
        if stop is not None and stop.flag:
            return None
        return n

    def perft_with_table(self, depth, bint keep, PerftTable table not None, StopFlag stop=None):
        """perft with a shared draughts_core.perft.PerftTable (GIL released);
        None when `stop` was set before the count finished."""
        cdef u64 n
        cdef PEntry* entries = table.entries
        cdef u64 mask = table.mask
        cdef u64 key = full_key(&self.pos)
        cdef int d = check_perft_depth(depth)
        cdef volatile int* flag = &stop.flag if stop is not None else NULL
        with nogil:
            n = perft_hashed(&self.rules.r, &self.pos, key, d, keep, entries, mask, flag)
        if stop is not None and stop.flag:
            return None
        return n


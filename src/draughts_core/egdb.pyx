# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Endgame databases (win/draw/loss): the tables in memory and their probe.

See egdb.pxd for the table layout and egdb_index.pxd for the index of a
position; the retrograde builder is draughts_core.egdb_build.
"""

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy
from libc.stdint cimport uint8_t
from draughts_core.bitboard cimport u64, bit_of_square
from draughts_core.movegen cimport Pos
from draughts_core.position cimport CoreRules, Position
from draughts_core.egdb_index cimport probe, check_material

WIN = EG_WIN
LOSS = EG_LOSS
DRAW = EG_DRAW
UNKNOWN = EG_UNKNOWN
MAX_PIECES = EG_MAX_PIECES


cdef int egdb_probe(const DB* db, const Pos* p) noexcept nogil:
    """WIN, DRAW or LOSS for the side to move, or UNKNOWN (no table): the probe
    of egdb_index.pxd, for the modules that call it through this one."""
    return probe(db, p)


cdef Slice* new_slice(DB* db, int a, int b, int c, int d) noexcept nogil:
    cdef Slice* s = <Slice*>calloc(1, sizeof(Slice))
    cdef int m = db.nsq - db.half
    cdef int f = db.nsq - a - c
    if s == NULL:
        return NULL
    s.a = a
    s.b = b
    s.c = c
    s.d = d
    s.cm = db.bin[m][c]
    s.k1 = db.bin[f][b]
    s.k2 = db.bin[f - b][d]
    s.kk = s.k1 * s.k2
    s.blocks = db.bin[m][a] * s.cm
    s.n = s.blocks * s.kk
    return s


cdef void free_slice(Slice* s) noexcept nogil:
    if s != NULL:
        free(s.packed)
        free(s.bytes)
        free(s.dirty)
        free(s)


def table_size(int size, int a, int b, int c, int d):
    """Positions (index range) of the table (a, b, c, d) on a board of `size`."""
    cdef int nsq = size * size // 2, half = size // 2
    from math import comb
    m = nsq - half
    f = nsq - a - c
    return comb(m, a) * comb(m, c) * comb(f, b) * comb(f - b, d)


cdef class EGDB:
    """Loaded tables of one rule set, in C memory, for probing and building."""

    def __cinit__(self):
        self.db = <DB*>calloc(1, sizeof(DB))
        if self.db == NULL:
            raise MemoryError()

    def __init__(self, CoreRules rules not None):
        cdef DB* db = self.db
        cdef int n, k, bit, sq
        self.rules = rules
        db.r = rules.r
        db.size = rules.r.size
        db.nsq = db.size * db.size // 2
        db.half = db.size // 2
        db.nbits = 35 if db.size == 8 else 54
        db.top = 0
        db.bottom = 0
        db.board = 0
        for n in range(51):
            db.bin[n][0] = 1
            for k in range(1, EG_MAX_PIECES + 1):
                db.bin[n][k] = 0 if n == 0 else db.bin[n - 1][k - 1] + db.bin[n - 1][k]
        for sq in range(db.nsq):
            bit = bit_of_square(db.size, sq)
            db.sq_of_bit[bit] = sq
            db.bit_of_sq[sq] = bit
            db.board |= (<u64>1) << bit
            db.row_of_bit[bit] = sq // db.half
            if sq < db.half:
                db.top |= (<u64>1) << bit
            if sq >= db.nsq - db.half:
                db.bottom |= (<u64>1) << bit
        db.max_pieces = 0

    def __dealloc__(self):
        cdef int a, b, c, d
        if self.db == NULL:
            return
        for a in range(EG_MAX_PIECES + 1):
            for b in range(EG_MAX_PIECES + 1):
                for c in range(EG_MAX_PIECES + 1):
                    for d in range(EG_MAX_PIECES + 1):
                        free_slice(self.db.slices[a][b][c][d])
        free(self.db)

    @property
    def max_pieces(self):
        """Positions of up to this many pieces are probed (0: none)."""
        return self.db.max_pieces

    @max_pieces.setter
    def max_pieces(self, int n):
        if not 0 <= n <= EG_MAX_PIECES:
            raise ValueError(f"max_pieces must be from 0 to {EG_MAX_PIECES}, not {n}")
        self.db.max_pieces = n

    @property
    def size(self):
        return self.db.size

    def has(self, int a, int b, int c, int d):
        """Whether the table (a, b, c, d) is loaded (finished)."""
        check_material(a, b, c, d)
        cdef Slice* s = self.db.slices[a][b][c][d]
        return s != NULL and s.packed != NULL

    def add(self, int a, int b, int c, int d, const uint8_t[::1] packed):
        """Load a finished table from its 2-bit packed bytes (copied)."""
        check_material(a, b, c, d)
        cdef Slice* s = self.db.slices[a][b][c][d]
        cdef u64 need
        if s != NULL and s.bytes != NULL:
            raise ValueError("the table is being built")
        if s == NULL:
            s = new_slice(self.db, a, b, c, d)
            if s == NULL:
                raise MemoryError()
            self.db.slices[a][b][c][d] = s
        need = (s.n + 3) // 4
        if <u64>packed.shape[0] != need:
            raise ValueError(f"table {a}{b}{c}{d} has {packed.shape[0]} bytes, not {need}")
        free(s.packed)
        s.packed = <uint8_t*>malloc(need if need else 1)
        if s.packed == NULL:
            raise MemoryError(f"cannot allocate {need} bytes for table {a}{b}{c}{d}")
        if need:
            memcpy(s.packed, &packed[0], need)

    def probe(self, Position pos not None):
        """WIN (1), LOSS (2), DRAW (3) for the side to move, or UNKNOWN (0)."""
        if pos.rules.r.size != self.db.size:
            raise ValueError("the position is of another board size than the database")
        return egdb_probe(self.db, &pos.pos)

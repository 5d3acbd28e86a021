# The index of a position in its endgame table and the probe (egdb.pxd has
# the layout), inline in every module that cimports them: the probing module
# (draughts_core.egdb) and the retrograde builder (draughts_core.egdb_build).

from draughts_core.bitboard cimport u64, ctz, popcount, rev64
from draughts_core.movegen cimport Pos
from draughts_core.egdb cimport DB, Slice, EG_LOSS, EG_UNKNOWN, EG_MAX_PIECES


cdef inline u64 rot(const DB* db, u64 x) noexcept nogil:
    """The board turned by 180 degrees: bit i -> nbits - 1 - i (ghosts map to ghosts)."""
    return rev64(x) >> (64 - db.nbits)


cdef inline void orient(const DB* db, const Pos* p, Pos* out) noexcept nogil:
    """The position with the side to move as White."""
    if p.stm == 0:
        out[0] = p[0]
    else:
        out.bb[0] = rot(db, p.bb[1])
        out.bb[1] = rot(db, p.bb[0])
        out.kings = rot(db, p.kings)
        out.stm = 0
        out.kmoves = 0


cdef inline u64 rank_men(const DB* db, u64 bits, int offset) noexcept nogil:
    cdef u64 r = 0
    cdef int i = 1, b
    while bits:
        b = ctz(bits)
        bits &= bits - 1
        r += db.bin[db.sq_of_bit[b] - offset][i]
        i += 1
    return r


cdef inline u64 rank_kings(const DB* db, u64 bits, u64 occupied) noexcept nogil:
    """Rank among the squares not in `occupied`."""
    cdef u64 r = 0
    cdef int i = 1, b
    while bits:
        b = ctz(bits)
        bits &= bits - 1
        r += db.bin[db.sq_of_bit[b] - popcount(occupied & (((<u64>1) << b) - 1))][i]
        i += 1
    return r


cdef inline void unrank(const DB* db, u64 r, int k, int n, int* out) noexcept nogil:
    """The k-subset of [0, n) of colexicographic rank r, ascending."""
    cdef int j, x = n - 1
    j = k - 1
    while j >= 0:
        while db.bin[x][j + 1] > r:
            x -= 1
        out[j] = x
        r -= db.bin[x][j + 1]
        x -= 1
        j -= 1


cdef inline u64 index_of(const DB* db, const Slice* s, const Pos* p) noexcept nogil:
    cdef u64 k = p.kings
    cdef u64 om = p.bb[0] & ~k, tm = p.bb[1] & ~k, ok = p.bb[0] & k, tk = p.bb[1] & k
    cdef u64 men = om | tm
    cdef u64 idx = rank_men(db, om, db.half) * s.cm + rank_men(db, tm, 0)
    idx = idx * s.k1 + rank_kings(db, ok, men)
    return idx * s.k2 + rank_kings(db, tk, men | ok)


cdef inline int slice_value(const Slice* s, u64 idx) noexcept nogil:
    if s.bytes != NULL:
        return s.bytes[idx]
    return (s.packed[idx >> 2] >> ((idx & 3) * 2)) & 3


cdef inline int probe(const DB* db, const Pos* p) noexcept nogil:
    """WIN, DRAW or LOSS for the side to move, or UNKNOWN (no table)."""
    cdef Pos q
    cdef int a, b, c, d
    cdef Slice* s
    orient(db, p, &q)
    a = popcount(q.bb[0] & ~q.kings)
    b = popcount(q.bb[0] & q.kings)
    c = popcount(q.bb[1] & ~q.kings)
    d = popcount(q.bb[1] & q.kings)
    if a + b == 0:
        return EG_LOSS
    if c + d == 0 or a + b + c + d > db.max_pieces:
        return EG_UNKNOWN
    s = db.slices[a][b][c][d]
    if s == NULL:
        return EG_UNKNOWN
    # a man on its own promotion row is no position of any table
    if (q.bb[0] & ~q.kings & db.top) or (q.bb[1] & ~q.kings & db.bottom):
        return EG_UNKNOWN
    return slice_value(s, index_of(db, s, &q))


cdef inline void check_material(int a, int b, int c, int d) except *:
    if min(a, b, c, d) < 0 or a + b + c + d > EG_MAX_PIECES:
        raise ValueError(f"material {a},{b},{c},{d} is out of range (at most {EG_MAX_PIECES} pieces)")

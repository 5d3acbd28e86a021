# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Static evaluation from the side to move, in centi-men."""

from draughts_core.bitboard cimport u64, G8, G10, geo_t, step, board_mask, popcount, lsb, ctz
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

# Geometry tables: row masks, centre, and for each bit the forward "cone" of
# squares from which an enemy piece could stop a man on its way to the far row.
cdef u64 ROWS[2][10]
cdef u64 CENTRE[2]
cdef u64 CONE[2][2][64]


cdef void _init_geo(geo_t* g, int gi, int size) noexcept nogil:
    cdef int h = size // 2
    cdef int i, r, c, bit, colour, d
    cdef u64 sq, front, cone
    for r in range(size):
        ROWS[gi][r] = 0
    CENTRE[gi] = 0
    for i in range(size * h):
        r = i // h
        c = 2 * (i % h) + 1 if r % 2 == 0 else 2 * (i % h)
        bit = i + i // size
        ROWS[gi][r] |= (<u64>1) << bit
        if 2 <= c <= size - 3 and (size // 2 - 2) <= r <= (size // 2 + 1):
            CENTRE[gi] |= (<u64>1) << bit
    for bit in range(64):
        for colour in range(2):
            CONE[gi][colour][bit] = 0
        sq = (<u64>1) << bit
        if not (sq & board_mask(g)):
            continue
        for colour in range(2):
            d = 0 if colour == 0 else 2
            front = sq
            cone = 0
            while front:
                # widen by one square each way per row, plus the squares that
                # could capture into the path from the side
                front = step(g, front, d) | step(g, front, d + 1)
                cone |= front | step(g, front, d) | step(g, front, d + 1)
            CONE[gi][colour][bit] = cone


_init_geo(<G8*>NULL, 0, 8)
_init_geo(<G10*>NULL, 1, 10)


cdef inline int king_reach(geo_t* g, const Rules* r, u64 kings, u64 empty) noexcept nogil:
    cdef int n = 0, d
    cdef u64 x
    for d in range(4):
        if r.flying:
            x = step(g, kings, d) & empty
            while x:
                n += popcount(x)
                x = step(g, x, d) & empty
        else:
            n += popcount(step(g, kings, d) & empty)
    return n


cdef inline int runaways(geo_t* g, int gi, int colour, u64 men, u64 enemy, u64 empty) noexcept nogil:
    cdef int n = 0, b
    cdef u64 x = men
    cdef u64 near = ROWS[gi][1] | ROWS[gi][2] | ROWS[gi][3] if colour == 0 else \
        ROWS[gi][(8 if gi == 0 else 10) - 2] | ROWS[gi][(8 if gi == 0 else 10) - 3] | ROWS[gi][(8 if gi == 0 else 10) - 4]
    x &= near
    while x:
        b = ctz(x)
        x &= x - 1
        if not (CONE[gi][colour][b] & enemy):
            n += 1
    return n


cdef int eval_g(geo_t* g, const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int size = 8 if geo_t is G8 else 10
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 wm = wp & ~p.kings, bm = bp & ~p.kings
    cdef u64 wk = wp & p.kings, bk = bp & p.kings
    cdef u64 empty = ~(wp | bp) & board_mask(g)
    cdef int nwm = popcount(wm), nbm = popcount(bm), nwk = popcount(wk), nbk = popcount(bk)
    cdef int score, rr, mat_w, mat_b, total
    mat_w = nwm * w.man + nwk * w.king
    mat_b = nbm * w.man + nbk * w.king
    score = mat_w - mat_b
    # known drawn endings with flying kings: a lone king against few kings
    if w.lone_king_draw and r.flying:
        if nwm == 0 and nbm == 0:
            if (nbk == 1 and nwk <= 2) or (nwk == 1 and nbk <= 2):
                return 0
            if (nbk == 1 and nwk == 3) or (nwk == 1 and nbk == 3):
                score = score // 8
                return score if p.stm == 0 else -score
    elif not r.flying and nwm == 0 and nbm == 0 and nwk == 1 and nbk == 1:
        return 0
    for rr in range(size):
        # white's back row is the bottom (row size-1), black's the top (row 0)
        score += popcount(wm & ROWS[gi][rr]) * w.advance[size - 1 - rr]
        score -= popcount(bm & ROWS[gi][rr]) * w.advance[rr]
    score += w.back_guard * (popcount(wm & ROWS[gi][size - 1]) - popcount(bm & ROWS[gi][0]))
    score += w.centre * (popcount(wm & CENTRE[gi]) - popcount(bm & CENTRE[gi]))
    if w.king_mobility and (wk | bk):
        score += w.king_mobility * (king_reach(g, r, wk, empty) - king_reach(g, r, bk, empty))
    if w.runaway:
        score += w.runaway * (runaways(g, gi, 0, wm, bp, empty) - runaways(g, gi, 1, bm, wp, empty))
    total = mat_w + mat_b
    if w.trade and total > 0 and mat_w != mat_b:
        # the side ahead gains by trading down
        score += w.trade * (mat_w - mat_b) // total
    return score if p.stm == 0 else -score


cdef int evaluate(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    if r.size == 8:
        return eval_g(<G8*>NULL, r, w, p)
    return eval_g(<G10*>NULL, r, w, p)

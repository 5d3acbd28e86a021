# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Static evaluation from the side to move, in centi-men.

Two evaluations share the drawn-ending rules: the classic one (a dozen
hand-set weights, `EvalW`) and the learned one (`LearnedW`: pattern weights
over 4x4 windows of the board and dense features, interpolated by the phase,
fitted to game results by `draughts train`).  The learned evaluation is
computed for White from White's side and for Black on the board turned round
(180 degrees, colours swapped), with weight tables that are antisymmetric
under that turn, so a position and its colour-flipped image score exactly
opposite.  The orthogonal board (turkish, every square) has its own learned
evaluation (`learned_ortho`): 2x4 and 4x2 blocks of squares as its pattern
regions and dense features of its own moves.

The weights' loader is draughts_core.eval_weights, the features for training
draughts_core.eval_features.
"""

from libc.stdint cimport int16_t, int32_t, int64_t, uint16_t, uint32_t, uint64_t, uint8_t
from draughts_core.bitboard cimport (u64, G8, G10, G64, geo_t, step, board_mask, popcount, lsb, ctz, half,
                                     square_of_bit, rev64)
from draughts_core.rules cimport Rules, GOAL_LOSING
from draughts_core.movegen cimport Pos
from draughts_core.position cimport CoreRules


# Geometry tables: row masks, centre, and for each bit the forward "cone" of
# squares from which an enemy piece could stop a man on its way to the far row.
cdef u64 ROWS[2][10]
cdef u64 CENTRE[2]
cdef u64 CONE[2][2][64]
cdef u64 LEFT[2]                 # squares of the left half (columns < size / 2)
cdef u64 LONG_DIAG[2]            # the long diagonal (a1-h8; 46-5 on 10x10)
cdef int NREG[2]
cdef u64 TEMPO_BIT[2][4]         # squares whose rows-advanced count (for White) has bit k set
cdef u64 TEMPO_BIT_B[2][4]       # ... for Black (rows advanced from the top row)
cdef int T3[256]                 # 8 bits -> the base-3 number with those digits 1
# A 4x4 window is two row pairs' 2x2 blocks: the block at half-row index j
# (0 .. h - 2) of a row pair holds that pair's bits j, j + 1, h + j, h + j + 1.
# SUB[gi][j][bits] is the base-3 number of those four bits, lowest digit first,
# for a row pair's bits (2h + 1 of them with the ghost square), so a window's
# index is the lower pair's block plus 81 times the upper pair's.
cdef uint8_t SUB[2][4][2048]
# LANES[gi][bits]: the same four blocks' numbers of a row pair, block j in the
# 16-bit lane j (a row pair's men of both colours are then LANES of White's
# plus twice LANES of Black's, and four windows' indices are one multiply-add:
# lower + 81 * upper, every lane below 6561)
cdef u64 LANES[2][2048]

# The orthogonal board's pattern regions (bit = row * 8 + column): first the
# 2x4 blocks (two rows, four columns) at every row and the columns 0, 2, 4,
# then the 4x2 blocks (four rows, two columns) at the rows 0, 2, 4 and the
# columns 0, 2, 4, 6; a block's squares row by row are its digits, lowest
# first.  The set is closed under the board's half turn and its left-right
# mirror (draughts.learned builds the weights' symmetry from this layout).
cdef int ORTHO_BASE[NREG_ORTHO]  # bit of each block's first (top left) square
# A row's (8 bits') digits at its columns c .. c + 3 (R4[c // 2], c = 0, 2, 4) and
# c, c + 1 (R2[c // 2], c = 0, 2, 4, 6), base 3, lowest column the lowest digit
cdef uint8_t R4[3][256]
cdef uint8_t R2[4][256]
cdef u64 ORTHO_TEMPO[3]          # squares whose rows advanced (7 - row) has bit k set
# the orthogonal board's centre: the 4x4 block of the rows 2-5 and the columns 2-5 (from 0)
cdef u64 ORTHO_CENTRE = 0x00003C3C3C3C0000ULL


cdef void _init_geo(geo_t* g, int gi, int size) noexcept nogil:
    cdef int h = size // 2
    cdef int i, r, c, bit, colour, d
    cdef u64 sq, front, cone
    for r in range(size):
        ROWS[gi][r] = 0
    CENTRE[gi] = 0
    LEFT[gi] = 0
    LONG_DIAG[gi] = 0
    for d in range(4):
        TEMPO_BIT[gi][d] = 0
        TEMPO_BIT_B[gi][d] = 0
    for i in range(size * h):
        r = i // h
        c = 2 * (i % h) + 1 if r % 2 == 0 else 2 * (i % h)
        bit = i + i // size
        ROWS[gi][r] |= (<u64>1) << bit
        if c < size // 2:
            LEFT[gi] |= (<u64>1) << bit
        if r + c == size - 1:
            LONG_DIAG[gi] |= (<u64>1) << bit
        for d in range(4):
            if ((size - 1 - r) >> d) & 1:
                TEMPO_BIT[gi][d] |= (<u64>1) << bit
            if (r >> d) & 1:
                TEMPO_BIT_B[gi][d] |= (<u64>1) << bit
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


    # pattern regions: the 4x4 windows at even rows and columns, row by row;
    # a window holds two squares of each of its rows, at the same half-row
    # index (features_g computes their indices from the row pairs' blocks)
    NREG[gi] = (size // 2 - 1) * (size // 2 - 1)


cdef void _init_t3() noexcept nogil:
    cdef int x, k, v, p, gi, h, j
    for x in range(256):
        v = 0
        p = 1
        for k in range(8):
            if (x >> k) & 1:
                v += p
            p *= 3
        T3[x] = v
    for gi in range(2):
        h = 4 if gi == 0 else 5
        for j in range(4):
            for x in range(2048):
                SUB[gi][j][x] = 0
                if j <= h - 2 and x < (1 << (2 * h + 1)):
                    SUB[gi][j][x] = T3[((x >> j) & 3) | (((x >> (h + j)) & 3) << 2)]
        for x in range(2048):
            LANES[gi][x] = 0
            for j in range(h - 1):
                LANES[gi][x] |= (<u64>SUB[gi][j][x]) << (16 * j)


cdef void _init_ortho() noexcept nogil:
    cdef int n = 0, r, c, k
    for r in range(7):
        for c in range(0, 5, 2):
            ORTHO_BASE[n] = 8 * r + c
            n += 1
    for r in range(0, 5, 2):
        for c in range(0, 7, 2):
            ORTHO_BASE[n] = 8 * r + c
            n += 1
    for c in range(256):
        for k in range(3):
            R4[k][c] = T3[(c >> (2 * k)) & 0xF]
        for k in range(4):
            R2[k][c] = T3[(c >> (2 * k)) & 3]
    for k in range(3):
        ORTHO_TEMPO[k] = 0
        for r in range(8):
            if ((7 - r) >> k) & 1:
                ORTHO_TEMPO[k] |= <u64>0xFF << (8 * r)


_init_geo(<G8*>NULL, 0, 8)
_init_geo(<G10*>NULL, 1, 10)
_init_t3()
_init_ortho()


cdef inline int king_reach(geo_t* g, const Rules* r, u64 kings, u64 empty) noexcept nogil:
    cdef int n = 0, d
    cdef u64 x
    for d in range(4):
        if r.flying_kings:
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


cdef inline int ending(const Rules* r, int lone_king_draw, int nwm, int nbm, int nwk, int nbk) noexcept nogil:
    """The known drawn endings: 1 a draw, 2 drawish (the score / 8), 0 neither."""
    if lone_king_draw and r.flying_kings:
        if nwm == 0 and nbm == 0:
            # flying kings: a lone king against few kings
            if (nbk == 1 and nwk <= 2) or (nwk == 1 and nbk <= 2):
                return 1
            if (nbk == 1 and nwk == 3) or (nwk == 1 and nbk == 3):
                return 2
    elif not r.flying_kings and nwm == 0 and nbm == 0 and nwk == 1 and nbk == 1:
        return 1
    return 0


cdef int eval_g(geo_t* g, const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int size = 8 if geo_t is G8 else 10
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 wm = wp & ~p.kings, bm = bp & ~p.kings
    cdef u64 wk = wp & p.kings, bk = bp & p.kings
    cdef u64 empty = ~(wp | bp) & board_mask(g)
    cdef int nwm = popcount(wm), nbm = popcount(bm), nwk = popcount(wk), nbk = popcount(bk)
    cdef int score, rr, mat_w, mat_b, total, end
    mat_w = nwm * w.man + nwk * w.king
    mat_b = nbm * w.man + nbk * w.king
    score = mat_w - mat_b
    end = ending(r, w.lone_king_draw, nwm, nbm, nwk, nbk)
    if end == 1:
        return 0
    if end == 2:
        score = score // 8
        return score if p.stm == 0 else -score
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


cdef inline bint lone_pieces(const Pos* p) noexcept nogil:
    """One piece against one piece on the orthogonal board (turkish): a draw
    unless the side to move captures at once (which the search sees).  A man
    always has a move that leaves it out of reach of a lone king (the king
    would have to stand on the rows or columns of all three of its squares),
    and a king one that leaves it out of reach of a king or a man, so neither
    side can force a capture; a man that crowns makes it one king against one
    (tests/test_learned_turkish.py checks this on every position with the
    reference generator)."""
    return popcount(p.bb[0]) == 1 and popcount(p.bb[1]) == 1


cdef int eval_ortho(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    """The classic evaluation on the orthogonal board (turkish): material,
    advancement by row, men on the back row, the centre, king mobility and the
    trade bonus; one piece against one piece is a draw."""
    cdef G64* g = NULL
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 wm = wp & ~p.kings, bm = bp & ~p.kings
    cdef u64 wk = wp & p.kings, bk = bp & p.kings
    cdef u64 empty = ~(wp | bp)
    cdef u64 centre = ORTHO_CENTRE
    cdef int nwm = popcount(wm), nbm = popcount(bm), nwk = popcount(wk), nbk = popcount(bk)
    cdef int score, rr, mat_w, mat_b, total
    if lone_pieces(p):
        return 0
    mat_w = nwm * w.man + nwk * w.king
    mat_b = nbm * w.man + nbk * w.king
    score = mat_w - mat_b
    for rr in range(8):
        # white's back row is the bottom (row 7, bits 56..63), black's the top
        score += popcount(wm & (<u64>0xFF << (8 * rr))) * w.advance[7 - rr]
        score -= popcount(bm & (<u64>0xFF << (8 * rr))) * w.advance[rr]
    score += w.back_guard * (popcount(wm & (<u64>0xFF << 56)) - popcount(bm & <u64>0xFF))
    score += w.centre * (popcount(wm & centre) - popcount(bm & centre))
    if w.king_mobility and (wk | bk):
        score += w.king_mobility * (king_reach(g, r, wk, empty) - king_reach(g, r, bk, empty))
    total = mat_w + mat_b
    if w.trade and total > 0 and mat_w != mat_b:
        score += w.trade * (mat_w - mat_b) // total
    return score if p.stm == 0 else -score


cdef inline int mobility(geo_t* g, const Rules* r, int colour, u64 men, u64 kings, u64 empty) noexcept nogil:
    """Quiet moves of one side's men (forward) and kings."""
    cdef int d0 = 0 if colour == 0 else 2
    return (popcount(step(g, men, d0) & empty) + popcount(step(g, men, d0 + 1) & empty)
            + (king_reach(g, r, kings, empty) if kings else 0))


cdef int eval_losing_g(geo_t* g, const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    """Antidraughts (the side with no move wins): every piece of one's own and
    every move it has is a liability, so the score is the other side's
    material and mobility less one's own, plus the advancement table (men
    kept back are men that can still be given away)."""
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int size = 8 if geo_t is G8 else 10
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 wm = wp & ~p.kings, bm = bp & ~p.kings
    cdef u64 wk = wp & p.kings, bk = bp & p.kings
    cdef u64 empty = ~(wp | bp) & board_mask(g)
    cdef int score, rr
    score = (popcount(bm) - popcount(wm)) * w.man + (popcount(bk) - popcount(wk)) * w.king
    score += w.king_mobility * (mobility(g, r, 1, bm, bk, empty) - mobility(g, r, 0, wm, wk, empty))
    for rr in range(size):
        score += popcount(wm & ROWS[gi][rr]) * w.advance[size - 1 - rr]
        score -= popcount(bm & ROWS[gi][rr]) * w.advance[rr]
    return score if p.stm == 0 else -score


cdef int evaluate(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    if r.geometry:
        if w.learned != NULL:
            return learned_ortho(r, w, p)
        return eval_ortho(r, w, p)
    if w.learned != NULL:
        if r.size == 8:
            return learned_g(<G8*>NULL, r, w, p)
        return learned_g(<G10*>NULL, r, w, p)
    if r.goal == GOAL_LOSING:
        if r.size == 8:
            return eval_losing_g(<G8*>NULL, r, w, p)
        return eval_losing_g(<G10*>NULL, r, w, p)
    if r.size == 8:
        return eval_g(<G8*>NULL, r, w, p)
    return eval_g(<G10*>NULL, r, w, p)


# --- the learned evaluation ---------------------------------------------------

cdef inline void side_features(geo_t* g, const Rules* r, int colour, u64 om, u64 ok, u64 opp, u64 empty,
                               int* f) noexcept nogil:
    """One side's dense features, each counted from that side's own view (as
    White's of the board turned round for Black: every mask and direction
    below is the turned-round image of White's, so no board is turned)."""
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int size = 8 if geo_t is G8 else 10
    cdef int k, left
    cdef u64 around
    cdef const u64* tempo = &TEMPO_BIT[gi][0] if colour == 0 else &TEMPO_BIT_B[gi][0]
    f[<int>D_MEN] = popcount(om)
    if ok:
        k = popcount(ok)
        f[<int>D_KING1] = 1
        f[<int>D_KING2] = 1 if k >= 2 else 0
        f[<int>D_KINGS3] = k - 2 if k > 2 else 0
        f[<int>D_KING_MOBILITY] = king_reach(g, r, ok, empty)
        # (the long diagonal is its own image under the half turn)
        f[<int>D_KING_LONG_DIAGONAL] = popcount(ok & LONG_DIAG[gi])
        around = step(g, empty, 0) | step(g, empty, 1) | step(g, empty, 2) | step(g, empty, 3)
        f[<int>D_KING_STUCK] = popcount(ok & ~around)
    else:
        f[<int>D_KING1] = f[<int>D_KING2] = f[<int>D_KINGS3] = 0
        f[<int>D_KING_MOBILITY] = f[<int>D_KING_LONG_DIAGONAL] = f[<int>D_KING_STUCK] = 0
    # tempo: rows advanced summed over the men, bit by bit
    f[<int>D_TEMPO] = (popcount(om & tempo[0]) + 2 * popcount(om & tempo[1])
            + 4 * popcount(om & tempo[2]) + 8 * popcount(om & tempo[3]))
    # balance: |left - right| is the same counted from either side
    left = popcount(om & LEFT[gi])
    f[<int>D_BALANCE] = 2 * left - f[<int>D_MEN] if 2 * left >= f[<int>D_MEN] else f[<int>D_MEN] - 2 * left
    f[<int>D_BACK_RANK] = popcount(om & ROWS[gi][size - 1 if colour == 0 else 0])
    f[<int>D_RUNAWAY] = runaways(g, gi, colour, om, opp, empty)
    if colour == 0:
        f[<int>D_LOCKED] = popcount(om & ~(step(g, empty, 2) | step(g, empty, 3)))
    else:
        f[<int>D_LOCKED] = popcount(om & ~(step(g, empty, 0) | step(g, empty, 1)))


cdef inline int sides_dense(const Pos* p, const int* fw, const int* fb, int* dense) noexcept nogil:
    """The dense features of both boards from the two sides' own (White's
    less Black's), the side to move and the trade term; returns the pieces."""
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef int i, mw, mb
    for i in range(NSIDE):
        dense[i] = fw[i] - fb[i]
    dense[<int>D_TURN] = 1 if p.stm == 0 else -1
    # trading down when ahead: material difference over material on board
    mw = fw[<int>D_MEN] + 3 * popcount(wp & p.kings)
    mb = fb[<int>D_MEN] + 3 * popcount(bp & p.kings)
    dense[<int>D_TRADE] = (mw - mb) * 32 // (mw + mb) if mw + mb > 0 else 0
    return popcount(wp | bp)


cdef inline void pattern_blocks(geo_t* g, u64 wm, u64 bm, int blk[5][4]) noexcept nogil:
    """The base-3 number of every row pair's 2x2 blocks of men (SUB)."""
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int h = half(g)
    cdef int stride = 2 * h + 1              # bits of a row pair, ghost included
    cdef unsigned pmask = (<unsigned>1 << stride) - 1
    cdef unsigned pw, pb
    cdef int pr, j
    for pr in range(h):                      # the board's row pairs
        pw = <unsigned>(wm >> (pr * stride)) & pmask
        pb = <unsigned>(bm >> (pr * stride)) & pmask
        for j in range(h - 1):               # a row pair's 2x2 blocks
            blk[pr][j] = SUB[gi][j][pw] + 2 * SUB[gi][j][pb]


cdef inline int dense_features(geo_t* g, const Rules* r, const Pos* p, int* dense) noexcept nogil:
    """The dense features (White's less Black's for the first NSIDE); returns
    the number of pieces on the board."""
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 empty = ~(wp | bp) & board_mask(g)
    cdef int fw[NSIDE]
    cdef int fb[NSIDE]
    side_features(g, r, 0, wp & ~p.kings, wp & p.kings, bp, empty, fw)
    side_features(g, r, 1, bp & ~p.kings, bp & p.kings, wp, empty, fb)
    return sides_dense(p, fw, fb, dense)


cdef inline int features_g(geo_t* g, const Rules* r, const Pos* p, int* idx, int* dense) noexcept nogil:
    """The learned evaluation's features of p from White's view: the pattern
    index of every region, the dense features (White's less Black's for the
    first NSIDE); returns the number of pieces on the board."""
    cdef int h = half(g)
    cdef int blk[5][4]
    cdef int i = 0, pr, j
    pattern_blocks(g, p.bb[0] & ~p.kings, p.bb[1] & ~p.kings, blk)
    # the windows at even rows and columns, row by row (as NREG counts them):
    # a window's index is its lower row pair's block plus 81 times its upper's
    for pr in range(h - 1):
        for j in range(h - 1):
            idx[i] = blk[pr][j] + 81 * blk[pr + 1][j]
            i += 1
    return dense_features(g, r, p, dense)


cdef inline void king_squares(geo_t* g, const Pos* p, int* out) noexcept nogil:
    """Per square s: a white king on s, less a black king on N - 1 - s (the
    same square seen from Black's side)."""
    cdef int size = 8 if geo_t is G8 else 10
    cdef int n = size * size // 2, i
    cdef u64 x
    for i in range(n):
        out[i] = 0
    x = p.bb[0] & p.kings
    while x:
        out[square_of_bit(size, ctz(x))] += 1
        x &= x - 1
    x = p.bb[1] & p.kings
    while x:
        out[n - 1 - square_of_bit(size, ctz(x))] -= 1
        x &= x - 1


cdef inline int blend(const LearnedW* lw, int32_t pat_acc, int op, int eg, const int* dense, u64 wk, u64 bk,
                      int size, bint ortho, int ph, int full) noexcept nogil:
    """White's score: the regions' pattern weights (`op`, `eg`, or packed in
    `pat_acc` when the table is), the dense weights and the kings' square
    weights (a black king's square seen from Black's side), opening and
    endgame blended by the pieces `ph` (`full`: the opening's count).  On the
    orthogonal board (`ortho`) every square is playable, bit = square."""
    cdef int i, s, dop
    cdef int nsq = 64 if ortho else size * size // 2
    cdef int64_t acc = 0
    if lw.pat32 != NULL:
        # packed pairs: the sums stay within int16 (checked when the weights
        # were loaded), so both halves come back exactly
        op = <int16_t>(<uint16_t>(<uint32_t>pat_acc & 0xFFFF))
        eg = (pat_acc - op) // 65536
    # the dense weights packed as endgame * 2^32 + opening: one multiply a feature
    for i in range(NDENSE):
        acc += <int64_t>dense[i] * lw.dense64[i]
    dop = <int32_t>(<uint32_t>(<uint64_t>acc & 0xFFFFFFFFULL))
    op += dop
    eg += <int>((acc - dop) >> 32)
    while wk:
        s = ctz(wk) if ortho else square_of_bit(size, ctz(wk))
        op += lw.king_sq[s][0]
        eg += lw.king_sq[s][1]
        wk &= wk - 1
    while bk:
        s = nsq - 1 - (ctz(bk) if ortho else square_of_bit(size, ctz(bk)))
        op -= lw.king_sq[s][0]
        eg -= lw.king_sq[s][1]
        bk &= bk - 1
    if ph > full:
        ph = full
    return (op * ph + eg * (full - ph)) // full


cdef inline void pattern_sums(const LearnedW* lw, int nreg, const int* idx, int32_t* acc, int* op,
                              int* eg) noexcept nogil:
    """The regions' pattern weights of the indices `idx`: packed into `acc`,
    or (a table not packed) summed into `op` and `eg`."""
    cdef int i
    cdef const int16_t* t
    acc[0] = 0
    op[0] = eg[0] = 0
    if lw.pat32 != NULL:
        for i in range(nreg):
            acc[0] += lw.pat32[i * NPAT + idx[i]]
    else:
        for i in range(nreg):
            t = lw.pat + (i * NPAT + idx[i]) * 2
            op[0] += t[0]
            eg[0] += t[1]


cdef int learned_g(geo_t* g, const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    cdef const LearnedW* lw = w.learned
    cdef int idx[MAX_REGIONS]
    cdef int dense[NDENSE]
    cdef int ph, score, end, pr, j, op = 0, eg = 0
    cdef int h = half(g)
    cdef int size = 8 if geo_t is G8 else 10
    cdef int full = FULL_8X8 if geo_t is G8 else FULL_10X10
    cdef int32_t acc = 0
    cdef const int32_t* t
    cdef u64 k = p.kings
    cdef int gi = 0 if geo_t is G8 else 1
    cdef int stride = 2 * h + 1              # bits of a row pair, ghost included
    cdef unsigned pmask = (<unsigned>1 << stride) - 1
    cdef u64 wm, bm, lo, hi, win
    end = ending(r, w.lone_king_draw, popcount(p.bb[0] & ~k), popcount(p.bb[1] & ~k),
                 popcount(p.bb[0] & k), popcount(p.bb[1] & k))
    if end == 1:
        return 0
    if lw.pat32 != NULL:
        # features_g's windows, each looked up as its index is made: a row
        # pair's blocks in 16-bit lanes (LANES), a window's index the lower
        # pair's block plus 81 times the upper's, four windows at once
        wm = p.bb[0] & ~k
        bm = p.bb[1] & ~k
        lo = LANES[gi][<unsigned>wm & pmask] + 2 * LANES[gi][<unsigned>bm & pmask]
        t = lw.pat32
        for pr in range(h - 1):
            wm >>= stride
            bm >>= stride
            hi = LANES[gi][<unsigned>wm & pmask] + 2 * LANES[gi][<unsigned>bm & pmask]
            win = lo + 81 * hi
            for j in range(h - 1):
                acc += t[(win >> (16 * j)) & 0xFFFF]
                t += NPAT
            lo = hi
        ph = dense_features(g, r, p, dense)
    else:
        ph = features_g(g, r, p, idx, dense)
        pattern_sums(lw, lw.nreg, idx, &acc, &op, &eg)
    score = blend(lw, acc, op, eg, dense, p.bb[0] & k, p.bb[1] & k, size, False, ph, full)
    if end == 2:
        score = score // 8
    return score if p.stm == 0 else -score


# --- the learned evaluation of the orthogonal board (turkish) -------------------

cdef inline void ortho_indices(u64 wm, u64 bm, int* idx) noexcept nogil:
    """Base-3 index of every block (0 empty or king, 1 white man, 2 black man),
    its squares row by row the digits, lowest first (as ORTHO_BASE orders the
    blocks): from each row's digits at the blocks' columns."""
    cdef int r, c, i = 0
    cdef unsigned xw, xb
    cdef int q4[8][3]
    cdef int q2[8][4]
    for r in range(8):
        xw = <unsigned>(wm >> (8 * r)) & 0xFF
        xb = <unsigned>(bm >> (8 * r)) & 0xFF
        for c in range(3):
            q4[r][c] = R4[c][xw] + 2 * R4[c][xb]
        for c in range(4):
            q2[r][c] = R2[c][xw] + 2 * R2[c][xb]
    for r in range(7):
        for c in range(3):
            idx[i] = q4[r][c] + 81 * q4[r + 1][c]
            i += 1
    for r in range(0, 5, 2):
        for c in range(4):
            idx[i] = q2[r][c] + 9 * q2[r + 1][c] + 81 * q2[r + 2][c] + 729 * q2[r + 3][c]
            i += 1


cdef inline void side_features_ortho(const Rules* r, u64 om, u64 ok, u64 empty, int* f) noexcept nogil:
    """One side's dense features on the orthogonal board, that side moving up
    (White's view; draughts.learned.DENSE_ORTHO)."""
    cdef G64* g = NULL
    cdef int k, left
    cdef u64 around, movable
    f[<int>O_MEN] = popcount(om)
    if ok:
        around = step(g, empty, 0) | step(g, empty, 1) | step(g, empty, 2) | step(g, empty, 3)
        k = popcount(ok)
        f[<int>O_KING1] = 1
        f[<int>O_KING2] = 1 if k >= 2 else 0
        f[<int>O_KINGS3] = k - 2 if k > 2 else 0
        f[<int>O_KING_MOBILITY] = king_reach(g, r, ok, empty)
        f[<int>O_KING_STUCK] = popcount(ok & ~around)
    else:
        f[<int>O_KING1] = f[<int>O_KING2] = f[<int>O_KINGS3] = f[<int>O_KING_MOBILITY] = f[<int>O_KING_STUCK] = 0
    # men move up (a square above is empty: the man is on empty << 8) or sideways
    f[<int>O_MEN_MOBILITY] = popcount(step(g, om, 0) & empty) + popcount(step(g, om, 1) & empty) + popcount(step(g, om, 2) & empty)
    f[<int>O_TEMPO] = popcount(om & ORTHO_TEMPO[0]) + 2 * popcount(om & ORTHO_TEMPO[1]) + 4 * popcount(om & ORTHO_TEMPO[2])
    left = popcount(om & <u64>0x0F0F0F0F0F0F0F0FULL)
    f[<int>O_BALANCE] = 2 * left - f[<int>O_MEN] if 2 * left >= f[<int>O_MEN] else f[<int>O_MEN] - 2 * left
    f[<int>O_THRESHOLD] = popcount(om & (<u64>0xFF << 8))
    f[<int>O_THRESHOLD_FREE] = popcount(om & (<u64>0xFF << 8) & step(g, empty, 3))
    movable = step(g, empty, 3) | step(g, empty, 1) | step(g, empty, 2)
    f[<int>O_LOCKED] = popcount(om & ~movable)


cdef inline int features_ortho(const Rules* r, const Pos* p, int* idx, int* dense) noexcept nogil:
    """features_g of the orthogonal board: block indices, dense features
    (White's less Black's, Black's on the board turned round), pieces."""
    cdef u64 wp = p.bb[0], bp = p.bb[1]
    cdef u64 wm = wp & ~p.kings, bm = bp & ~p.kings
    cdef u64 empty = ~(wp | bp)
    cdef int fw[NSIDE]
    cdef int fb[NSIDE]
    ortho_indices(wm, bm, idx)
    side_features_ortho(r, wm, wp & p.kings, empty, fw)
    side_features_ortho(r, rev64(bm), rev64(bp & p.kings), rev64(empty), fb)
    return sides_dense(p, fw, fb, dense)


cdef inline void king_squares_ortho(const Pos* p, int* out) noexcept nogil:
    """Per square s: a white king on s, less a black king on 63 - s."""
    cdef int i
    cdef u64 x
    for i in range(64):
        out[i] = 0
    x = p.bb[0] & p.kings
    while x:
        out[ctz(x)] += 1
        x &= x - 1
    x = p.bb[1] & p.kings
    while x:
        out[63 - ctz(x)] -= 1
        x &= x - 1


cdef int learned_ortho(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil:
    cdef const LearnedW* lw = w.learned
    cdef int idx[MAX_REGIONS]
    cdef int dense[NDENSE]
    cdef int ph, score
    cdef u64 k = p.kings
    cdef int32_t acc
    cdef int op, eg
    if lone_pieces(p):
        return 0                       # one piece against one piece (as eval_ortho)
    ph = features_ortho(r, p, idx, dense)
    pattern_sums(lw, NREG_ORTHO, idx, &acc, &op, &eg)
    score = blend(lw, acc, op, eg, dense, p.bb[0] & k, p.bb[1] & k, 8, True, ph, FULL_ORTHO)
    return score if p.stm == 0 else -score


cdef int region_count(int size, int geometry) noexcept nogil:
    """Number of pattern regions of a board (size, Rules.geometry)."""
    if geometry:
        return NREG_ORTHO
    return NREG[0 if size == 8 else 1]


cdef int ortho_block_base(int i) noexcept nogil:
    """The bit of the top left square of the orthogonal board's block i."""
    return ORTHO_BASE[i]


cdef int features_any(const Rules* r, const Pos* p, int* idx, int* dense, int* ksq) noexcept nogil:
    """The features of p on the rules' board (pieces returned)."""
    cdef int ph
    if r.geometry:
        ph = features_ortho(r, p, idx, dense)
        king_squares_ortho(p, ksq)
    elif r.size == 8:
        ph = features_g(<G8*>NULL, r, p, idx, dense)
        king_squares(<G8*>NULL, p, ksq)
    else:
        ph = features_g(<G10*>NULL, r, p, idx, dense)
        king_squares(<G10*>NULL, p, ksq)
    return ph

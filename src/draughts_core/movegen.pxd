from libc.stdint cimport uint8_t, uint32_t
from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules

cdef enum:
    MAX_MOVES = 1024     # far above any legal position; overflow is flagged, never silent
    MAX_PATH = 32        # squares on one capture path (start, landings); 10x10 has 20 enemy pieces

# A move inside the core: origin and destination bit indices, the captured
# squares as a mask, whether the moving piece becomes a king, and the number of
# pieces taken.  from == to is possible (a king capturing round a loop).
ctypedef struct CMove:
    u64 capt
    uint8_t frm
    uint8_t to
    uint8_t promo
    uint8_t ncapt

ctypedef struct MoveList:
    int n
    int overflow
    CMove moves[MAX_MOVES]

# Capture paths, recorded only at the Python boundary (never in perft/search):
# for move k, path[k][0..npath[k]) are the bit indices of the start and every
# landing square, order[k][0..ncapt) the captured squares in capture order.
ctypedef struct PathList:
    uint8_t npath[MAX_MOVES]
    uint8_t path[MAX_MOVES][MAX_PATH]
    uint8_t order[MAX_MOVES][MAX_PATH]

# A position: one mask per colour (0 = white, 1 = black), the kings of both
# colours, and the side to move.  kmoves is the frisian count of quiet moves in
# a row by one king (Rules.king_move_limit), one byte per colour (white in bits
# 0-7): the count in bits 0-1 and the king's bit index in bits 2-7; 0 when
# nothing is counted (always, in every other variant).
ctypedef struct Pos:
    u64 bb[2]
    u64 kings
    int stm
    uint32_t kmoves

cdef int gen_moves(const Rules* r, const Pos* p, MoveList* out, bint keep, PathList* paths) noexcept nogil
cdef u64 count_moves(const Rules* r, const Pos* p, bint keep, MoveList* scratch) noexcept nogil
cdef bint has_capture(const Rules* r, const Pos* p) noexcept nogil
# a man of the side to move can crown with a quiet move
cdef bint has_quiet_promotion(const Rules* r, const Pos* p) noexcept nogil
cdef int gen_horizon(const Rules* r, const Pos* p, MoveList* out, bint* counted) noexcept nogil
# the horizon's exchanges: where a man's quiet move may offer one (a superset), and whether it does
cdef u64 exchange_squares(const Rules* r, const Pos* p) noexcept nogil
cdef bint offers_exchange(const Rules* r, const Pos* p, const CMove* m, MoveList* scratch) noexcept nogil
cdef int exchange_moves(const Rules* r, const Pos* p, u64 hot, MoveList* out, MoveList* scratch) noexcept nogil


# make_move is inline here: the search and perft make a move at every node
cdef inline uint32_t track_king_moves(const Rules* r, const Pos* p, const CMove* m,
                                      const Pos* out) noexcept nogil:
    """Frisian: the kmoves of the position after m (see Pos).  The mover's
    count goes up by a quiet move of the king it counts (to 1 for another
    king) and is cleared by any other move; a side with no men counts nothing;
    the other side's count is cleared when its counted king is taken."""
    cdef int stm = p.stm, opp = p.stm ^ 1
    cdef uint32_t mine = (p.kmoves >> (8 * stm)) & 0xFF
    cdef uint32_t theirs = (p.kmoves >> (8 * opp)) & 0xFF
    cdef uint32_t cnt
    if (out.bb[stm] & ~out.kings) == 0:
        mine = 0
    elif m.ncapt == 0 and ((p.kings >> m.frm) & 1):
        cnt = 1
        if (mine & 3) and (mine >> 2) == m.frm:
            cnt = (mine & 3) + 1
            if cnt > 3:
                cnt = 3
        mine = cnt | (<uint32_t>m.to << 2)
    else:
        mine = 0
    if theirs and ((out.bb[opp] & ~out.kings) == 0 or ((m.capt >> (theirs >> 2)) & 1)):
        theirs = 0
    return (mine << (8 * stm)) | (theirs << (8 * opp))


cdef inline void make_move(const Rules* r, const Pos* p, const CMove* m, Pos* out) noexcept nogil:
    cdef int stm = p.stm
    cdef u64 f = (<u64>1) << m.frm
    cdef u64 t = (<u64>1) << m.to
    cdef u64 me = p.bb[stm]
    cdef u64 kings = p.kings & ~m.capt
    out.bb[stm ^ 1] = p.bb[stm ^ 1] & ~m.capt
    # removal first: under at-once removal a king may end on a square it emptied
    if kings & f:
        kings = (kings & ~f) | t
    elif m.promo:
        kings |= t
    out.bb[stm] = (me & ~f) | t
    out.kings = kings
    out.stm = stm ^ 1
    out.kmoves = track_king_moves(r, p, m, out) if r.king_move_limit else 0

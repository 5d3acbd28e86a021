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
cdef void make_move(const Rules* r, const Pos* p, const CMove* m, Pos* out) noexcept nogil
cdef bint has_capture(const Rules* r, const Pos* p) noexcept nogil
cdef int gen_horizon(const Rules* r, const Pos* p, MoveList* out, bint* counted) noexcept nogil

# Endgame databases (win/draw/loss), built by retrograde analysis.
#
# A *table* holds one material split from the point of view of the side to
# move, always oriented as White (moving up): `a` men and `b` kings to move
# against `c` men and `d` kings.  A position with Black to move is turned by
# 180 degrees and its colours swapped first (every rule set is symmetric
# under that), so the tables (a, b, c, d) and (c, d, a, b) together hold every
# position of that material with either side to move.
#
# The index of a position in its table (men-major, so that the positions with
# one placement of the men form a contiguous *block*):
#
#   ((rank(own men) * C(M, c) + rank(their men)) * C(F, b) + rank(own kings)) * C(F - b, d)
#     + rank(their kings)
#
# with M = squares - H (men never stand on their own promotion row: own men
# on squares H.., their men on squares ..squares-H-1), F = squares - a - c,
# and rank() the colexicographic rank of a set of squares among the squares
# it may use (kings: the empty squares left by the men, then by the own
# kings).  Blocks whose two sets of men overlap hold no position.
#
# Values, two bits a position: 0 unknown (only while building, or no
# position), 1 win, 2 loss, 3 draw for the side to move.

from libc.stdint cimport uint8_t, uint32_t
from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos
from draughts_core.position cimport CoreRules

cdef enum:
    EG_UNKNOWN = 0
    EG_WIN = 1
    EG_LOSS = 2
    EG_DRAW = 3
    EG_MAX_PIECES = 8       # all pieces on the board

ctypedef struct Slice:
    int a, b, c, d
    u64 cm                  # C(M, c): their men ranks
    u64 k1                  # C(F, b)
    u64 k2                  # C(F - b, d)
    u64 kk                  # k1 * k2: positions in a block
    u64 blocks              # C(M, a) * C(M, c)
    u64 n                   # positions
    uint8_t* packed         # 2 bits a position (a finished table)
    uint8_t* bytes          # 1 byte a position (a table being built)
    uint8_t* dirty          # ... and whether a successor changed since its last look

ctypedef struct DB:
    Rules r
    int size                # 8 or 10
    int nsq                 # playable squares
    int half                # squares per row
    int nbits               # bits of the board layout (ghosts included)
    int max_pieces          # positions of up to this many pieces are probed
    u64 board               # every square
    u64 top                 # White's promotion row (row 0)
    u64 bottom              # Black's promotion row
    u64 bin[51][EG_MAX_PIECES + 1]
    uint8_t sq_of_bit[64]
    uint8_t bit_of_sq[64]
    uint8_t row_of_bit[64]
    Slice* slices[EG_MAX_PIECES + 1][EG_MAX_PIECES + 1][EG_MAX_PIECES + 1][EG_MAX_PIECES + 1]

cdef int egdb_probe(const DB* db, const Pos* p) noexcept nogil
cdef Slice* new_slice(DB* db, int a, int b, int c, int d) noexcept nogil
cdef void free_slice(Slice* s) noexcept nogil

cdef class EGDB:
    cdef DB* db
    cdef readonly CoreRules rules

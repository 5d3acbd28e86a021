from libc.stdint cimport int16_t, int32_t
from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

cdef enum:
    NPAT = 6561          # 3^8 contents of one pattern region
    MAX_REGIONS = 33     # 4x4 windows: 9 on 8x8, 16 on 10x10; 2x4 and 4x2 blocks: 33 on the 64-square board
    NDENSE = 14          # dense features of the learned evaluation (draughts.learned.DENSE)
    NSIDE = 12           # ... the first NSIDE are one side's count less the other's
    MAX_SQUARES = 64     # playable squares of the largest board (turkish: every square)

# The learned evaluation's weights (draughts.learned builds them from a data
# file): per region and pattern index an (opening, endgame) pair, already
# antisymmetric under the colour flip, and (opening, endgame) weights of the
# dense features.  The score is the two interpolated by the pieces on board.
ctypedef struct LearnedW:
    int nreg
    int geometry         # Rules.geometry of the board the weights are for
    int full             # pieces at the start: the opening end of the phase
    int dense[NDENSE][2]
    int king_sq[MAX_SQUARES][2]   # per square of a king, seen from its own side
    int16_t* pat         # nreg * NPAT * 2, or NULL when pat32 holds them
    int32_t* pat32       # nreg * NPAT: each pair packed as endgame * 65536 + opening
                         # (used when no sum over the regions can leave int16)

# Evaluation weights of a variant, in centi-men (100 = one man).  Filled from
# draughts.engine.EvalWeights; the evaluation reads nothing else.  With
# `learned` set the learned evaluation scores instead (the drawn-ending rules
# below still apply).
ctypedef struct EvalW:
    int man
    int king
    int advance[10]      # per man, by rows advanced from its own back row
    int back_guard       # per man still on its own back row
    int centre           # per man on a centre square
    int runaway          # per man with no enemy piece in its way to the far row
    int king_mobility    # per empty square a king can move to
    int trade            # bonus for trading down when ahead, scaled by material left
    int lone_king_draw   # flying kings: lone king against <= 3 kings is drawish
    const LearnedW* learned

cdef class LearnedEval:
    cdef LearnedW lw
    cdef readonly int size
    cdef readonly int geometry
    cdef _load_patterns(self, int nreg, bytes patterns)

cdef int evaluate(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil

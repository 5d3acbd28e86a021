from libc.stdint cimport int16_t, int32_t, int64_t
from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

cdef enum:
    NPAT = 6561          # 3^8 contents of one pattern region
    MAX_REGIONS = 33     # 4x4 windows: 9 on 8x8, 16 on 10x10; 2x4 and 4x2 blocks: 33 on the 64-square board
    NDENSE = 14          # dense features of the learned evaluation (draughts.learned.DENSE)
    NSIDE = 12           # ... the first NSIDE are one side's count less the other's
    MAX_SQUARES = 64     # playable squares of the largest board (turkish: every square)
    FULL_8X8 = 24        # pieces at the start of an 8x8 diagonal game: the phase's opening end
    FULL_10X10 = 40      # ... of a 10x10 game
    FULL_ORTHO = 32      # ... of turkish (the orthogonal board)
    NREG_ROWS = 21       # the orthogonal board's regions: first its 2x4 blocks
    NREG_ORTHO = 33      # ... then its 4x2 blocks

# The learned evaluation's dense features on the diagonal boards, in the order
# the core writes them; draughts.learned takes their names from here (member
# name without the D_ prefix, in lower case).  The first NSIDE are one side's
# count less the other's, each counted from that side's own view.
cpdef enum Dense:
    D_MEN = 0                # men on the board
    D_KING1 = 1              # has at least one king
    D_KING2 = 2              # has at least two kings
    D_KINGS3 = 3             # kings beyond the second
    D_KING_MOBILITY = 4      # empty squares the kings can move to
    D_KING_LONG_DIAGONAL = 5 # kings on the long diagonal
    D_KING_STUCK = 6         # kings with no empty square next to them
    D_TEMPO = 7              # rows advanced, summed over the men
    D_BALANCE = 8            # |men on the left half - men on the right half|
    D_BACK_RANK = 9          # men on their own back row
    D_RUNAWAY = 10           # men near the crown with no enemy piece in front
    D_LOCKED = 11            # men with no forward move
    D_TURN = 12              # +1 White to move, -1 Black
    D_TRADE = 13             # 32 * (material difference) / (material on board), men 1 and kings 3

# The same on the orthogonal board (turkish): slots 4, 5, 9 and 10 count what
# matters there (O_ prefix).
cpdef enum DenseOrtho:
    O_MEN = 0                # men on the board
    O_KING1 = 1              # has at least one king
    O_KING2 = 2              # has at least two kings
    O_KINGS3 = 3             # kings beyond the second
    O_KING_MOBILITY = 4      # empty squares the kings can move to along rows and columns
    O_MEN_MOBILITY = 5       # quiet moves of the men (forward and sideways)
    O_KING_STUCK = 6         # kings with no empty square next to them
    O_TEMPO = 7              # rows advanced, summed over the men
    O_BALANCE = 8            # |men on the left half - men on the right half|
    O_THRESHOLD = 9          # men one row from the crown
    O_THRESHOLD_FREE = 10    # ... with the crowning square in front of them empty
    O_LOCKED = 11            # men with no quiet move
    O_TURN = 12              # +1 White to move, -1 Black
    O_TRADE = 13             # 32 * (material difference) / (material on board), men 1 and kings 3

# The learned evaluation's weights (draughts.learned builds them from a data
# file): per region and pattern index an (opening, endgame) pair, already
# antisymmetric under the colour flip, and (opening, endgame) weights of the
# dense features.  The score is the two interpolated by the pieces on board
# (FULL_8X8, FULL_10X10 or FULL_ORTHO of them: the opening end).
ctypedef struct LearnedW:
    int nreg
    int geometry         # Rules.geometry of the board the weights are for
    int64_t dense64[NDENSE]       # per dense feature: endgame * 2^32 + opening
    int king_sq[MAX_SQUARES][2]   # per square of a king, seen from its own side
    int16_t* pat         # nreg * NPAT * 2, or NULL when pat32 holds them
    int32_t* pat32       # nreg * NPAT: each pair packed as endgame * 65536 + opening
                         # (used when no sum over the regions can leave int16)

# Evaluation weights of a variant, in centi-men (100 = one man).  Filled from
# draughts.tuning.EvalWeights; the evaluation reads nothing else.  With
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

cdef int evaluate(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil
# The learned evaluation's features of p (pattern index per region, the dense
# features, a king's count per square), exactly as it scores them; returns
# the pieces on the board (the phase).  For training (draughts_core.eval_features).
cdef int features_any(const Rules* r, const Pos* p, int* idx, int* dense, int* ksq) noexcept nogil
cdef int region_count(int size, int geometry) noexcept nogil
cdef int ortho_block_base(int i) noexcept nogil

from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

# Evaluation weights of a variant, in centi-men (100 = one man).  Filled from
# draughts.engine.EvalWeights; the evaluation reads nothing else.
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

cdef int evaluate(const Rules* r, const EvalW* w, const Pos* p) noexcept nogil

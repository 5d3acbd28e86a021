from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

cdef u64 perft(const Rules* r, const Pos* p, int depth, bint keep) noexcept nogil

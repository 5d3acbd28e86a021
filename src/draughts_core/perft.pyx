# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Plain perft: leaves counted at the last ply without making the moves."""

from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos, MoveList, gen_moves, count_moves, make_move


cdef u64 perft(const Rules* r, const Pos* p, int depth, bint keep) noexcept nogil:
    cdef MoveList ml
    cdef Pos child
    cdef u64 total = 0
    cdef int i, n
    if depth <= 0:
        return 1
    if depth == 1:
        return count_moves(r, p, keep, &ml)
    n = gen_moves(r, p, &ml, keep, NULL)
    for i in range(n):
        make_move(p, &ml.moves[i], &child)
        total += perft(r, &child, depth - 1, keep)
    return total

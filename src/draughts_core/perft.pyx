# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Perft: leaves counted at the last ply without making the moves; plain or
with a hash table of (Zobrist key, depth) -> count shared between threads."""

from libc.stdlib cimport calloc, free
from libc.string cimport memset
from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos, MoveList, gen_moves, count_moves, make_move
from draughts_core.zobrist cimport full_key, key_after, kmoves_key
from draughts_core.alloc cimport dr_table_alloc


cdef u64 perft(const Rules* r, const Pos* p, int depth, bint keep,
               volatile int* stop) noexcept nogil:
    cdef MoveList ml
    cdef Pos child
    cdef u64 total = 0
    cdef int i, n
    if depth <= 0:
        return 1
    if depth == 1:
        return count_moves(r, p, keep, &ml)
    if depth >= 3 and stop != NULL and stop[0]:
        return 0                    # stopped: the count is thrown away
    n = gen_moves(r, p, &ml, keep, NULL)
    for i in range(n):
        make_move(r, p, &ml.moves[i], &child)
        total += perft(r, &child, depth - 1, keep, stop)
    return total


cdef u64 perft_hashed(const Rules* r, const Pos* p, u64 key, int depth, bint keep,
                      PEntry* table, u64 mask, volatile int* stop) noexcept nogil:
    cdef MoveList ml
    cdef Pos child
    cdef u64 total = 0, data, check, ckey
    cdef int i, n, victim
    cdef PEntry* e
    if depth <= 2:
        return perft(r, p, depth, keep, NULL)
    if stop != NULL and stop[0]:
        return 0                    # stopped: nothing is stored
    # a bucket of four entries (one cache line); a full key check on every hit
    e = &table[(key & mask) * 4]
    for i in range(4):
        data = e[i].data
        check = e[i].check
        if (check ^ data) == key and (data & 0xFF) == <u64>depth:
            return data >> 8
    n = gen_moves(r, p, &ml, keep, NULL)
    for i in range(n):
        make_move(r, p, &ml.moves[i], &child)
        ckey = key_after(p, key, &ml.moves[i])
        if p.kmoves | child.kmoves:
            ckey ^= kmoves_key(p.kmoves) ^ kmoves_key(child.kmoves)
        total += perft_hashed(r, &child, ckey, depth - 1, keep, table, mask, stop)
    if stop != NULL and stop[0]:
        return 0                    # a partial count must not reach the table
    data = (total << 8) | <u64>depth
    # replace the entry of this position if there is one, else the shallowest
    # (a deep count saves the most work)
    victim = 0
    for i in range(4):
        if (e[i].check ^ e[i].data) == key:
            victim = i
            break
        if (e[i].data & 0xFF) < (e[victim].data & 0xFF):
            victim = i
    e[victim].check = key ^ data
    e[victim].data = data
    return total


cdef class StopFlag:
    """A flag that ends the perft counts watching it (set from any thread).
    A count that was stopped is meaningless: its caller raises PerftStopped."""

    def set(self):
        self.flag = 1

    def clear(self):
        self.flag = 0

    @property
    def is_set(self):
        return self.flag != 0


cdef class PerftTable:
    """A perft hash table shared by the threads of one run (one convention)."""

    def __cinit__(self, u64 megabytes):
        cdef u64 n = (megabytes << 20) // (4 * sizeof(PEntry))
        cdef u64 slots = 1
        if megabytes < 1:
            raise ValueError("a perft table needs at least 1 MiB")
        while slots * 2 <= n:
            slots *= 2
        self.entries = <PEntry*>dr_table_alloc(slots * 4 * sizeof(PEntry))
        if self.entries == NULL:
            raise MemoryError(f"cannot allocate a {megabytes} MiB perft table")
        self.mask = slots - 1
        self.megabytes = megabytes

    def __dealloc__(self):
        free(self.entries)

    def clear(self):
        memset(self.entries, 0, (self.mask + 1) * 4 * sizeof(PEntry))

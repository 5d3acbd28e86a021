from draughts_core.bitboard cimport u64
from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

# A perft hash entry: `check` is key ^ data, `data` is count << 8 | depth;
# four entries make a bucket.
# A reader accepts an entry only when check ^ data equals its full key, so a
# torn write from another thread (or any other position) never matches.
ctypedef struct PEntry:
    u64 check
    u64 data

# `stop` (NULL: none) is watched at interior nodes: once it is set the call
# returns early with a meaningless count, and a hashed count stores nothing.
cdef u64 perft(const Rules* r, const Pos* p, int depth, bint keep,
               volatile int* stop) noexcept nogil
cdef u64 perft_hashed(const Rules* r, const Pos* p, u64 key, int depth, bint keep,
                      PEntry* table, u64 mask, volatile int* stop) noexcept nogil

cdef class StopFlag:
    cdef volatile int flag

cdef class PerftTable:
    cdef PEntry* entries
    cdef u64 mask
    cdef readonly u64 megabytes

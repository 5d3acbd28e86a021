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

cdef u64 perft(const Rules* r, const Pos* p, int depth, bint keep) noexcept nogil
cdef u64 perft_hashed(const Rules* r, const Pos* p, u64 key, int depth, bint keep,
                      PEntry* table, u64 mask) noexcept nogil

cdef class PerftTable:
    cdef PEntry* entries
    cdef u64 mask
    cdef readonly u64 megabytes

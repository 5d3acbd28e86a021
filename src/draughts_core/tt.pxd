from libc.stdint cimport uint8_t, uint16_t, int16_t, int8_t
from libc.string cimport memcpy
from draughts_core.bitboard cimport u64

cdef enum Bound:
    BOUND_NONE = 0
    BOUND_UPPER = 1      # score <= alpha: an upper bound
    BOUND_LOWER = 2      # score >= beta: a lower bound
    BOUND_EXACT = 3

# One entry, 16 bytes: the full Zobrist key (a hit needs all 64 bits), the
# best move as from/to bit indices plus a 16-bit fold of its captured set,
# the score (win scores stored relative to this node), depth, bound and the
# search generation that wrote it.  Four entries make a 64-byte bucket.
#
# The table is shared by the search threads without locks: the first word
# holds the key xor the second word (the data), so an entry torn by two
# threads writing it at once no longer matches its key and is no hit
# (Hyatt and Mann's lockless hashing).  tt_probe hands out a copy.
ctypedef struct TTEntry:
    u64 key              # Zobrist key ^ tt_data(entry) in the table; the key in a probe's copy
    int16_t score
    uint16_t capt16
    uint8_t frm
    uint8_t to
    int8_t depth
    uint8_t genbound     # generation << 2 | bound

ctypedef struct TTable:
    TTEntry* entries
    u64 mask             # number of buckets - 1
    uint8_t generation

cdef int tt_alloc(TTable* t, u64 mib) noexcept nogil
cdef void tt_free(TTable* t) noexcept nogil
cdef void tt_clear(TTable* t) noexcept nogil
cdef bint tt_probe(TTable* t, u64 key, TTEntry* out) noexcept nogil
cdef void tt_store(TTable* t, u64 key, int score, int depth, int bound,
                   int frm, int to, uint16_t capt16) noexcept nogil
cdef int tt_hashfull(TTable* t) noexcept nogil

cdef extern from *:
    """
    #define dr_prefetch(p) __builtin_prefetch((p))
    """
    void dr_prefetch(const void* p) noexcept nogil


cdef inline void tt_prefetch(TTable* t, u64 key) noexcept nogil:
    dr_prefetch(&t.entries[(key & t.mask) * 4])


cdef inline uint16_t fold16(u64 x) noexcept nogil:
    x ^= x >> 32
    x ^= x >> 16
    return <uint16_t>(x & 0xFFFF)


cdef inline u64 tt_data(const TTEntry* e) noexcept nogil:
    """The entry's second word (everything but the key) as one number."""
    cdef u64 d
    memcpy(&d, (<const char*>e) + 8, 8)
    return d

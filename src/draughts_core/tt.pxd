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


# probe and store are inline: the search calls them at every interior node
cdef inline bint tt_probe(TTable* t, u64 key, TTEntry* out) noexcept nogil:
    """Copy the entry of `key` to `out` (True) or find none (False).  The
    entry is copied before it is checked, so that another thread writing it
    meanwhile cannot change what the caller reads."""
    cdef TTEntry* b = &t.entries[(key & t.mask) * 4]
    cdef int i
    for i in range(4):
        memcpy(out, &b[i], sizeof(TTEntry))
        if (out.key ^ tt_data(out)) == key and out.genbound & 3:
            out.key = key
            return True
    return False


cdef inline void tt_store(TTable* t, u64 key, int score, int depth, int bound,
                   int frm, int to, uint16_t capt16) noexcept nogil:
    cdef TTEntry* b = &t.entries[(key & t.mask) * 4]
    cdef TTEntry* e = NULL
    cdef TTEntry n
    cdef bint found = False
    cdef int i, worth, best = 1 << 30, age
    for i in range(4):
        if (b[i].key ^ tt_data(&b[i])) == key:
            e = &b[i]
            found = True
            # keep a deeper entry of this search unless the new one is exact
            if (bound != BOUND_EXACT and (b[i].genbound >> 2) == t.generation
                    and b[i].depth > depth + 2):
                return
            break
    if e == NULL:
        # replace the entry that is worth least: shallow, and from old searches
        for i in range(4):
            age = (t.generation - (b[i].genbound >> 2)) & 63
            worth = b[i].depth - 8 * age if b[i].genbound & 3 else -(1 << 20)
            if worth < best:
                best = worth
                e = &b[i]
    if frm < 0 and found:
        frm = e.frm
        to = e.to
        capt16 = e.capt16
    n.score = <short>score
    n.depth = <signed char>(depth if depth < 127 else 127)
    n.genbound = <unsigned char>(((t.generation & 63) << 2) | bound)
    if frm >= 0:
        n.frm = <unsigned char>frm
        n.to = <unsigned char>to
        n.capt16 = capt16
    else:
        n.frm = 255
        n.to = 255
        n.capt16 = 0
    n.key = key ^ tt_data(&n)
    memcpy(e, &n, sizeof(TTEntry))

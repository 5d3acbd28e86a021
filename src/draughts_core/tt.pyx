# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Transposition table: 4-entry buckets, replace the shallowest/oldest entry."""

from libc.stdlib cimport calloc, free
from libc.string cimport memset, memcpy
from draughts_core.bitboard cimport u64
from draughts_core.alloc cimport dr_table_alloc


cdef int tt_alloc(TTable* t, u64 mib) noexcept nogil:
    cdef u64 n = (mib << 20) // (sizeof(TTEntry) * 4)
    cdef u64 buckets = 1
    while buckets * 2 <= n:
        buckets *= 2
    t.entries = <TTEntry*>dr_table_alloc(buckets * 4 * sizeof(TTEntry))
    if t.entries == NULL:
        t.mask = 0
        return -1
    t.mask = buckets - 1
    t.generation = 0
    return 0


cdef void tt_free(TTable* t) noexcept nogil:
    free(t.entries)
    t.entries = NULL


cdef void tt_clear(TTable* t) noexcept nogil:
    if t.entries != NULL:
        memset(t.entries, 0, (t.mask + 1) * 4 * sizeof(TTEntry))
    t.generation = 0


cdef bint tt_probe(TTable* t, u64 key, TTEntry* out) noexcept nogil:
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


cdef void tt_store(TTable* t, u64 key, int score, int depth, int bound,
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


cdef int tt_hashfull(TTable* t) noexcept nogil:
    """Per mille of the first 1000 entries written by the current search."""
    cdef int i, n = 0, total = 1000
    cdef u64 size = (t.mask + 1) * 4
    if size < <u64>total:
        total = <int>size
    for i in range(total):
        if (t.entries[i].genbound & 3) and (t.entries[i].genbound >> 2) == (t.generation & 63):
            n += 1
    return n * 1000 // total if total else 0

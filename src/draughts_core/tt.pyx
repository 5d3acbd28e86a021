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

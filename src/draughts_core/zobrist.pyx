# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Zobrist hashing, updated incrementally by key_after."""

from draughts_core.bitboard cimport u64, uint32_t, ctz


cdef u64 _seed = 0x9E3779B97F4A7C15ULL
# ZKEY, ZSIDE and ZKM are declared in zobrist.pxd


cdef u64 splitmix64() noexcept nogil:
    global _seed
    _seed += 0x9E3779B97F4A7C15ULL
    cdef u64 z = _seed
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void _init() noexcept nogil:
    global ZSIDE
    cdef int c, k, b
    for c in range(2):
        for k in range(2):
            for b in range(64):
                ZKEY[c][k][b] = splitmix64()
    ZSIDE = splitmix64()
    for c in range(2):
        ZKM[c][0] = 0
        for b in range(1, 256):
            ZKM[c][b] = splitmix64()


_init()


cdef u64 full_key(const Pos* p) noexcept nogil:
    cdef u64 key = ZSIDE if p.stm else 0
    cdef u64 x
    cdef int c, b
    for c in range(2):
        x = p.bb[c]
        while x:
            b = ctz(x)
            x &= x - 1
            key ^= ZKEY[c][((p.kings >> b) & 1)][b]
    return key ^ kmoves_key(p.kmoves)

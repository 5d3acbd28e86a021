# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Zobrist hashing, updated incrementally by key_after."""

from draughts_core.bitboard cimport u64, uint32_t, ctz


cdef u64 _seed = 0x9E3779B97F4A7C15ULL
cdef u64 ZKEY[2][2][64]
cdef u64 ZSIDE
cdef u64 ZKM[2][256]        # frisian king-move counts (Pos.kmoves), per colour and byte; 0 for none


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


cdef u64 kmoves_key(uint32_t km) noexcept nogil:
    """The key of a Pos.kmoves value (0 for 0: the other variants' keys do not change)."""
    return ZKM[0][km & 0xFF] ^ ZKM[1][(km >> 8) & 0xFF]


cdef u64 key_after(const Pos* p, u64 key, const CMove* m) noexcept nogil:
    """The key of the position after m, from the key of p (the frisian
    king-move counts apart: kmoves_key of both positions)."""
    cdef int stm = p.stm
    cdef int opp = stm ^ 1
    cdef int king = (p.kings >> m.frm) & 1
    cdef u64 capt = m.capt
    cdef int b
    key ^= ZKEY[stm][king][m.frm]
    key ^= ZKEY[stm][king | m.promo][m.to]
    while capt:
        b = ctz(capt)
        capt &= capt - 1
        key ^= ZKEY[opp][(p.kings >> b) & 1][b]
    return key ^ ZSIDE

from draughts_core.bitboard cimport u64, uint32_t, ctz
from draughts_core.movegen cimport Pos, CMove

# Zobrist keys: one random word per (colour, man/king, bit index) and one for
# "black to move", constants filled once at import from a fixed seed, so keys
# are the same in every process.  The tables are shared with the modules that
# cimport them, so that key_after (at every node of the search) is inline.
cdef u64 ZKEY[2][2][64]
cdef u64 ZSIDE
cdef u64 ZKM[2][256]        # frisian king-move counts (Pos.kmoves), per colour and byte; 0 for none

cdef u64 full_key(const Pos* p) noexcept nogil


cdef inline u64 kmoves_key(uint32_t km) noexcept nogil:
    """The key of a Pos.kmoves value (0 for 0: the other variants' keys do not change)."""
    return ZKM[0][km & 0xFF] ^ ZKM[1][(km >> 8) & 0xFF]


cdef inline u64 key_after(const Pos* p, u64 key, const CMove* m) noexcept nogil:
    """The key of the position after m, from the key of p (the frisian
    king-move counts apart: kmoves_key of both positions)."""
    cdef int stm = p.stm
    cdef int opp = stm ^ 1
    cdef int king = (p.kings >> m.frm) & 1
    cdef u64 capt = m.capt
    cdef int b
    key ^= ZKEY[stm][king][m.frm]
    key ^= ZKEY[stm][king | m.promo][m.to]
    if capt:
        # (most captures take one piece: the loop's test is then not a guess)
        b = ctz(capt)
        capt &= capt - 1
        key ^= ZKEY[opp][(p.kings >> b) & 1][b]
        while capt:
            b = ctz(capt)
            capt &= capt - 1
            key ^= ZKEY[opp][(p.kings >> b) & 1][b]
    return key ^ ZSIDE

from draughts_core.bitboard cimport u64, uint32_t
from draughts_core.movegen cimport Pos, CMove

# Zobrist keys: one random word per (colour, man/king, bit index) and one for
# "black to move", constants filled once at import from a fixed seed, so keys
# are the same in every process.
cdef u64 full_key(const Pos* p) noexcept nogil
cdef u64 key_after(const Pos* p, u64 key, const CMove* m) noexcept nogil
cdef u64 kmoves_key(uint32_t km) noexcept nogil

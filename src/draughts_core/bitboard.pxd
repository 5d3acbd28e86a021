# Bitboards with ghost squares (see docs/design.md).
#
# Internal square i (0-based, american/international grid, square 1 of those
# variants = i 0 at the top) lives at bit i + i // (2H), H = playable squares
# per row.  One ghost bit after every two rows makes every diagonal step a
# constant shift; a step off the side of the board lands on a ghost bit and is
# cleared by the board mask.
#
#   direction   index   8x8 (H=4)   10x10 (H=5)
#   up-left       0       >> 5        >> 6
#   up-right      1       >> 4        >> 5
#   down-left     2       << 4        << 5
#   down-right    3       << 5        << 6
#
# White sits at the bottom and moves up (directions 0, 1); Black moves down
# (2, 3).  The opposite of direction d is 3 - d.
#
# The geometry is a compile-time parameter: every hot function takes a
# `geo_t*` tag (never dereferenced) and Cython emits one C function per board
# size, so all shifts and masks below are constants for the C compiler.

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int64_t

ctypedef uint64_t u64

ctypedef struct G8:
    char _tag
ctypedef struct G10:
    char _tag

# The orthogonal 8x8 board of turkish draughts: every square, bit = row * 8 + col
# (row 0 at the top), no ghost bits; the directions are up (>> 8), left
# (>> 1, off the a-file cleared), right (<< 1, off the h-file cleared) and down
# (<< 8), so the opposite of d is again 3 - d.
ctypedef struct G64:
    char _tag

ctypedef fused geo_t:
    G8
    G10
    G64

cdef extern from *:
    """
    #define DR_MASK8  (((((unsigned long long)1) << 35) - 1) & ~((1ULL << 8) | (1ULL << 17) | (1ULL << 26)))
    #define DR_MASK10 (((((unsigned long long)1) << 54) - 1) & ~((1ULL << 10) | (1ULL << 21) | (1ULL << 32) | (1ULL << 43)))
    #define DR_FILE_A 0x0101010101010101ULL
    #define DR_FILE_H 0x8080808080808080ULL
    /* a diagonal step as one rotation: the bits a right shift would drop
       wrap to the top 6 bits, a left shift's wrap from there, and the board
       mask clears both (every square of a board lies below bit 54) */
    static const unsigned char DR_ROT8[4] = {59, 60, 4, 5};
    static const unsigned char DR_ROT10[4] = {58, 59, 5, 6};
    static inline unsigned long long dr_rotl(unsigned long long x, unsigned r) {
        return (x << (r & 63)) | (x >> ((64 - r) & 63));
    }
    static inline int dr_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int dr_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    /* the bits of a word in reverse order (bit i to bit 63 - i): a board
       turned half round is its reverse, shifted */
    static inline unsigned long long dr_rev64(unsigned long long x) {
        x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
        x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
        x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
        return __builtin_bswap64(x);
    }
    """
    const u64 MASK8 "DR_MASK8"
    const u64 MASK10 "DR_MASK10"
    const u64 FILE_A "DR_FILE_A"
    const u64 FILE_H "DR_FILE_H"
    const uint8_t* ROT8 "DR_ROT8"
    const uint8_t* ROT10 "DR_ROT10"
    u64 rotl "dr_rotl"(u64 x, unsigned r) noexcept nogil
    int ctz "dr_ctz"(u64 x) noexcept nogil
    int popcount "dr_popcount"(u64 x) noexcept nogil
    u64 rev64 "dr_rev64"(u64 x) noexcept nogil


cdef inline u64 board_mask(geo_t* g) noexcept nogil:
    if geo_t is G8:
        return MASK8
    elif geo_t is G10:
        return MASK10
    else:
        return ~(<u64>0)


cdef inline int half(geo_t* g) noexcept nogil:
    """Playable squares per row."""
    if geo_t is G8:
        return 4
    elif geo_t is G10:
        return 5
    else:
        return 8


cdef inline u64 step(geo_t* g, u64 b, int d) noexcept nogil:
    """Every square of b moved one step in direction d (0..3): diagonal on the
    G8 and G10 boards, orthogonal on G64."""
    if geo_t is G64:
        if d == 0:
            return b >> 8
        elif d == 1:
            return (b >> 1) & ~FILE_H
        elif d == 2:
            return (b << 1) & ~FILE_A
        else:
            return b << 8
    elif geo_t is G8:
        # b holds squares of the board only (the rotation needs its top bits
        # clear): (b >> (H + 1), b >> H, b << H, b << (H + 1)) & board_mask,
        # without a branch on d
        return rotl(b, ROT8[d]) & MASK8
    else:
        return rotl(b, ROT10[d]) & MASK10


# Orthogonal steps (frisian captures), directions 4..7: along a row to the
# neighbouring playable square (two columns over) is one bit, left (4) >> 1 and
# right (5) << 1, with the squares at the ends of the rows masked off; along a
# column two rows up (6) or down (7) is 2H + 1 bits (one ghost every two rows).
# The opposite of direction d >= 4 is d ^ 1.

cdef inline u64 first_col(geo_t* g) noexcept nogil:
    """The first playable square of every row."""
    if geo_t is G8:
        return 0x88442211ULL
    else:
        return 0x2104208410821ULL


cdef inline u64 last_col(geo_t* g) noexcept nogil:
    """The last playable square of every row."""
    if geo_t is G8:
        return 0x442211088ULL
    else:
        return 0x21042084108210ULL


cdef inline u64 step8(geo_t* g, u64 b, int d) noexcept nogil:
    """Every square of b moved one step in direction d (0..3 diagonal, 4..7 orthogonal)."""
    cdef int h = half(g)
    if d < 4:
        return step(g, b, d)
    elif d == 4:
        return (b >> 1) & board_mask(g) & ~last_col(g)
    elif d == 5:
        return (b << 1) & board_mask(g) & ~first_col(g)
    elif d == 6:
        return (b >> (2 * h + 1)) & board_mask(g)
    else:
        return (b << (2 * h + 1)) & board_mask(g)


cdef inline int opposite8(int d) noexcept nogil:
    return 3 - d if d < 4 else d ^ 1


cdef inline u64 top_row(geo_t* g) noexcept nogil:
    if geo_t is G8:
        return 0xF
    elif geo_t is G10:
        return 0x1F
    else:
        return 0xFF


cdef inline u64 bottom_row(geo_t* g) noexcept nogil:
    if geo_t is G8:
        return <u64>0xF << 31
    elif geo_t is G10:
        return <u64>0x1F << 49
    else:
        return <u64>0xFF << 56


cdef inline u64 lsb(u64 b) noexcept nogil:
    return b & (~b + 1)


cdef inline int bit_of_square(int size, int sq) noexcept nogil:
    """Internal square (0-based) -> bit index; size is 8 or 10, or 64 for the
    orthogonal board (where square and bit are the same)."""
    return sq + sq // size


cdef inline int square_of_bit(int size, int bit) noexcept nogil:
    """Bit index -> internal square (0-based); size is 8 or 10, or 64."""
    return bit - bit // (size + 1)


cdef inline int layout(int size, int geometry) noexcept nogil:
    """The `size` argument of bit_of_square and square_of_bit for a rule set."""
    return 64 if geometry else size

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The learned evaluation's weights: loaded from Python values into the C
arrays (`LearnedW`, eval.pxd) that the evaluation reads."""

from libc.stdint cimport int16_t, int32_t, int64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from draughts_core.eval cimport (NPAT, NDENSE, MAX_SQUARES,
                                 region_count)


cdef class LearnedEval:
    """The learned evaluation's weights for one board, in C arrays.

    size 8 or 10, geometry 0 (the diagonal grid) or 1 (the orthogonal 8x8
    board, turkish); patterns: int16 native-endian bytes of shape (regions,
    6561, 2), the (opening, endgame) score of each pattern of each region,
    antisymmetric under the colour flip; dense: NDENSE (opening, endgame)
    pairs; king_sq: one pair per playable square, a king's worth there seen
    from its side.
    """

    def __cinit__(self):
        self.lw.pat = NULL
        self.lw.pat32 = NULL

    def __init__(self, int size, bytes patterns, dense, king_sq, int geometry=0):
        cdef int nreg, nsq
        if size not in (8, 10):
            raise ValueError(f"board size must be 8 or 10, not {size}")
        if geometry not in (0, 1) or (geometry == 1 and size != 8):
            raise ValueError(f"geometry must be 0 (diagonal) or 1 (orthogonal, 8x8), not {geometry}")
        nreg = region_count(size, geometry)
        nsq = 64 if geometry else size * size // 2
        board = "the orthogonal 8x8 board" if geometry else f"{size}x{size}"
        if len(patterns) != nreg * NPAT * 2 * sizeof(int16_t):
            raise ValueError(f"pattern table of {len(patterns)} bytes: {board} needs "
                             f"{nreg * NPAT * 2 * sizeof(int16_t)}")
        dense = [tuple(d) for d in dense]
        if len(dense) != NDENSE or any(len(d) != 2 for d in dense):
            raise ValueError(f"dense weights: {NDENSE} (opening, endgame) pairs expected")
        king_sq = [tuple(d) for d in king_sq]
        if len(king_sq) != nsq or any(len(d) != 2 for d in king_sq):
            raise ValueError(f"king square weights: {nsq} (opening, endgame) pairs expected")
        self.size = size
        self.geometry = geometry
        free(self.lw.pat)
        free(self.lw.pat32)
        self.lw.pat = NULL
        self.lw.pat32 = NULL
        self._load_patterns(nreg, patterns)
        self.lw.nreg = nreg
        self.lw.geometry = geometry
        for i in range(NDENSE):
            self.lw.dense64[i] = (<int64_t>dense[i][1] << 32) + dense[i][0]
        for i in range(MAX_SQUARES):
            self.lw.king_sq[i][0] = king_sq[i][0] if i < len(king_sq) else 0
            self.lw.king_sq[i][1] = king_sq[i][1] if i < len(king_sq) else 0

    cdef _load_patterns(self, int nreg, bytes patterns):
        """The pattern table, packed (pat32) when the largest possible sum of
        one pattern a region fits int16 in both halves, else as given (pat)."""
        cdef const int16_t* src = <const int16_t*><const char*>patterns
        cdef int i, j, k, m
        cdef long bound[2]
        cdef size_t n = <size_t>nreg * NPAT
        bound[0] = bound[1] = 0
        for i in range(nreg):
            for k in range(2):
                m = 0
                for j in range(NPAT):
                    if abs(src[(i * NPAT + j) * 2 + k]) > m:
                        m = abs(src[(i * NPAT + j) * 2 + k])
                bound[k] += m
        if bound[0] <= 32767 and bound[1] <= 32767:
            self.lw.pat32 = <int32_t*>malloc(n * sizeof(int32_t))
            if self.lw.pat32 == NULL:
                raise MemoryError()
            for j in range(<int>n):
                self.lw.pat32[j] = <int32_t>src[2 * j + 1] * 65536 + src[2 * j]
        else:
            self.lw.pat = <int16_t*>malloc(len(patterns))
            if self.lw.pat == NULL:
                raise MemoryError()
            memcpy(self.lw.pat, <const char*>patterns, len(patterns))

    @property
    def packed(self):
        """Whether the pattern table is held packed (one int32 a pattern)."""
        return self.lw.pat32 != NULL

    def __dealloc__(self):
        free(self.lw.pat)
        free(self.lw.pat32)

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The learned evaluation's features for training: the pattern index of every
region, the dense features and the kings' squares of positions, exactly as
the evaluation (draughts_core.eval) computes them."""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t
from draughts_core.bitboard cimport u64
from draughts_core.movegen cimport Pos
from draughts_core.position cimport CoreRules
from draughts_core.eval cimport (NDENSE, MAX_REGIONS, MAX_SQUARES, NREG_ROWS, NREG_ORTHO, features_any,
                                 region_count, ortho_block_base)


def regions(int size, int geometry=0):
    """Number of pattern regions of a board (size, Rules.geometry)."""
    return region_count(size, geometry)


def ortho_blocks():
    """The orthogonal board's pattern regions in order: (bit of the top left
    square, rows, columns) of each block."""
    return [(ortho_block_base(i), 2 if i < NREG_ROWS else 4, 4 if i < NREG_ROWS else 2) for i in range(NREG_ORTHO)]


def features(CoreRules rules, u64 white, u64 black, u64 kings, int turn):
    """(pattern indices, dense features, pieces, king squares) of a position
    given as bitboards, exactly as the learned evaluation computes them."""
    cdef Pos p
    cdef int idx[MAX_REGIONS]
    cdef int dense[NDENSE]
    cdef int ksq[MAX_SQUARES]
    cdef int ph, nsq = 64 if rules.r.geometry else rules.r.size * rules.r.size // 2
    cdef int n = region_count(rules.r.size, rules.r.geometry)
    p.bb[0] = white
    p.bb[1] = black
    p.kings = kings
    p.stm = 1 if turn else 0
    p.kmoves = 0
    ph = features_any(&rules.r, &p, idx, dense, ksq)
    return [idx[i] for i in range(n)], [dense[i] for i in range(NDENSE)], ph, [ksq[i] for i in range(nsq)]


def feature_arrays(CoreRules rules, const u64[:] white, const u64[:] black, const u64[:] kings,
                   const uint8_t[:] turn, uint16_t[:, :] idx_out, int32_t[:, :] dense_out,
                   int32_t[:] pieces_out, int8_t[:, :] king_out):
    """`features` of many positions into preallocated arrays (training)."""
    cdef Py_ssize_t n = white.shape[0], j
    cdef int i, nreg
    cdef Pos p
    cdef int idx[MAX_REGIONS]
    cdef int dense[NDENSE]
    cdef int ksq[MAX_SQUARES]
    cdef int nsq = 64 if rules.r.geometry else rules.r.size * rules.r.size // 2
    nreg = region_count(rules.r.size, rules.r.geometry)
    if not (black.shape[0] == kings.shape[0] == turn.shape[0] == idx_out.shape[0]
            == dense_out.shape[0] == pieces_out.shape[0] == king_out.shape[0] == n):
        raise ValueError("arrays of different lengths")
    if idx_out.shape[1] != nreg or dense_out.shape[1] != NDENSE or king_out.shape[1] != nsq:
        raise ValueError(f"output arrays must have {nreg}, {NDENSE} and {nsq} columns")
    with nogil:
        for j in range(n):
            p.bb[0] = white[j]
            p.bb[1] = black[j]
            p.kings = kings[j]
            p.stm = turn[j]
            p.kmoves = 0
            pieces_out[j] = features_any(&rules.r, &p, idx, dense, ksq)
            for i in range(nsq):
                king_out[j, i] = ksq[i]
            for i in range(nreg):
                idx_out[j, i] = idx[i]
            for i in range(NDENSE):
                dense_out[j, i] = dense[i]

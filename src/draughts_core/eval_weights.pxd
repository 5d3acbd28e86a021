from draughts_core.eval cimport LearnedW

cdef class LearnedEval:
    cdef LearnedW lw
    cdef readonly int size
    cdef readonly int geometry
    cdef _load_patterns(self, int nreg, bytes patterns)

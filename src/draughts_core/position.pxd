from draughts_core.rules cimport Rules
from draughts_core.movegen cimport Pos

cdef class CoreRules:
    cdef Rules r

cdef class Position:
    cdef CoreRules rules
    cdef Pos pos
    cdef Position _child(self)

"""Type stubs: the evaluation's names for the learned evaluation's dense features."""

import enum

class Dense(enum.IntEnum):
    D_MEN = 0
    D_KING1 = 1
    D_KING2 = 2
    D_KINGS3 = 3
    D_KING_MOBILITY = 4
    D_KING_LONG_DIAGONAL = 5
    D_KING_STUCK = 6
    D_TEMPO = 7
    D_BALANCE = 8
    D_BACK_RANK = 9
    D_RUNAWAY = 10
    D_LOCKED = 11
    D_TURN = 12
    D_TRADE = 13

class DenseOrtho(enum.IntEnum):
    O_MEN = 0
    O_KING1 = 1
    O_KING2 = 2
    O_KINGS3 = 3
    O_KING_MOBILITY = 4
    O_MEN_MOBILITY = 5
    O_KING_STUCK = 6
    O_TEMPO = 7
    O_BALANCE = 8
    O_THRESHOLD = 9
    O_THRESHOLD_FREE = 10
    O_LOCKED = 11
    O_TURN = 12
    O_TRADE = 13

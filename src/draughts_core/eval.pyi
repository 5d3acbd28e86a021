"""Type stubs: the learned evaluation's weights and features."""

import enum
from typing import List, Sequence, Tuple

import numpy as np

from draughts_core.position import CoreRules

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

class LearnedEval:
    size: int
    geometry: int
    def __init__(self, size: int, patterns: bytes, dense: Sequence[Tuple[int, int]],
                 king_sq: Sequence[Tuple[int, int]], geometry: int = 0) -> None: ...

def regions(size: int, geometry: int = 0) -> int: ...
def ortho_blocks() -> List[Tuple[int, int, int]]: ...
def features(rules: CoreRules, white: int, black: int, kings: int,
             turn: int) -> Tuple[List[int], List[int], int, List[int]]: ...
def feature_arrays(rules: CoreRules, white: np.ndarray, black: np.ndarray, kings: np.ndarray,
                   turn: np.ndarray, idx_out: np.ndarray, dense_out: np.ndarray,
                   pieces_out: np.ndarray, king_out: np.ndarray) -> None: ...

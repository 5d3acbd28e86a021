"""Type stubs: the learned evaluation's features for training."""

from typing import List, Tuple

import numpy as np

from draughts_core.position import CoreRules

def regions(size: int, geometry: int = 0) -> int: ...
def ortho_blocks() -> List[Tuple[int, int, int]]: ...
def features(
    rules: CoreRules, white: int, black: int, kings: int, turn: int
) -> Tuple[List[int], List[int], int, List[int]]: ...
def feature_arrays(
    rules: CoreRules,
    white: np.ndarray,
    black: np.ndarray,
    kings: np.ndarray,
    turn: np.ndarray,
    idx_out: np.ndarray,
    dense_out: np.ndarray,
    pieces_out: np.ndarray,
    king_out: np.ndarray,
) -> None: ...

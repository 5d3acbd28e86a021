"""Type stubs: the learned evaluation's weights."""

from typing import Sequence, Tuple

class LearnedEval:
    size: int
    geometry: int
    def __init__(
        self,
        size: int,
        patterns: bytes,
        dense: Sequence[Tuple[int, int]],
        king_sq: Sequence[Tuple[int, int]],
        geometry: int = 0,
    ) -> None: ...
    #: whether the pattern table is held packed (one int32 a pattern)
    @property
    def packed(self) -> bool: ...

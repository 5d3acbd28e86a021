"""Type stubs: the endgame databases (win/draw/loss tables built by retrograde analysis)."""

from typing import Any

from draughts_core.position import CoreRules, Position

WIN: int
LOSS: int
DRAW: int
UNKNOWN: int
MAX_PIECES: int

def table_size(size: int, a: int, b: int, c: int, d: int) -> int: ...

class EGDB:
    rules: CoreRules
    def __init__(self, rules: CoreRules) -> None: ...
    max_pieces: int
    @property
    def size(self) -> int: ...
    def has(self, a: int, b: int, c: int, d: int) -> bool: ...
    def add(self, a: int, b: int, c: int, d: int, packed: Any) -> None: ...
    def probe(self, pos: Position) -> int: ...

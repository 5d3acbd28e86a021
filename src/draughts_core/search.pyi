"""Type stubs: the search (one thread's state and its helper threads) and its clock."""

from typing import Any, Callable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, final

from draughts_core.egdb import EGDB
from draughts_core.eval_weights import LearnedEval
from draughts_core.position import CoreRules, MoveCode, Position

WIN_SCORE: int
WIN_THRESHOLD: int
THREADS_MAX: int
MULTIPV_LINES: int

#: a move in the core's encoding (Position.moves()' last field)
SearchMove = MoveCode

def clock() -> float: ...

class SearchResult(NamedTuple):
    move: Optional[SearchMove]
    score: int
    depth: int
    seldepth: int
    nodes: int
    ms: float
    pv: List[SearchMove]

@final
class Searcher:
    pending_stop: bool
    threads: int
    main_nodes: int
    def __init__(self, rules: CoreRules, weights: Mapping[str, Any], tt_mb: int = 64) -> None: ...
    def set_tuning(
        self,
        *,
        lmr_divisor: int,
        lmr_base: int,
        lmr_min_depth: int,
        lmr_min_index: int,
        futility: int,
        futility_depth: int,
        aspiration: int,
        aspiration_min_depth: int,
        horizon_promotions: int,
        horizon_exchanges: int = 0,
    ) -> None: ...
    def set_probcut(
        self,
        min_depth: int = 0,
        slope: int = 1024,
        intercept: int = 0,
        shallow: Sequence[int] = (),
        margin: Sequence[int] = (),
        *,
        captures: bool = False,
    ) -> None: ...
    pc_tries: int
    pc_cuts: int
    def resize(self, tt_mb: int) -> None: ...
    def set_rules(self, rules: CoreRules) -> None: ...
    def set_weights(
        self,
        *,
        man: int,
        king: int,
        advance: Sequence[int],
        back_guard: int,
        centre: int,
        runaway: int,
        king_mobility: int,
        trade: int,
        lone_king_draw: bool,
    ) -> None: ...
    def set_learned(self, table: Optional[LearnedEval]) -> None: ...
    def set_egdb(self, db: Optional[EGDB]) -> None: ...
    egdb_hits: int
    #: the last multi-PV search's lines: (score, depth, seldepth, pv), best first
    lines: List[Tuple[int, int, int, List[SearchMove]]]
    max_stall_ms: float
    def set_noise(self, amplitude: int, seed: int) -> None: ...
    def clear(self) -> None: ...
    def stop(self) -> None: ...
    def evaluate(self, p: Position) -> int: ...
    def hashfull(self) -> int: ...
    def set_threads(self, n: int) -> None: ...
    def wait_helpers(self) -> None: ...
    def run(
        self,
        root: Position,
        history: Sequence[Position],
        *,
        max_depth: int = 0,
        nodes: int = 0,
        soft_ms: float = 0.0,
        hard_ms: float = 0.0,
        rev: int = 0,
        cp: int = 0,
        egp: int = 0,
        callback: Optional[Callable[[int, int, int, int, float, List[SearchMove], int], None]] = None,
        start: float = 0.0,
        multipv: int = 1,
    ) -> SearchResult: ...

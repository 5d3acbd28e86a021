"""The bench: fixed positions searched to a fixed depth.

The total node count is the search's signature: it is deterministic (a new
game before every position, a fixed table size, full strength) and pinned in
tests/test_engine.py; a commit that changes it says `Bench: N`.
"""

from __future__ import annotations

import time
from typing import Callable, Dict, List, Optional, Tuple

from draughts.board import Board
from draughts.engine import Engine
from draughts.limits import Limit

DEFAULT_DEPTH = 11
DEFAULT_TT_MB = 16

# (variant, FEN): opening, middlegame, endgame for every variant (a test
# holds it to draughts.VARIANTS), so that every move generator path and
# evaluation has a part in the signature.  The middlegames come from engine
# play after four random plies.
POSITIONS: List[Tuple[str, str]] = [
    ("international", "W:W31-50:B1-20"),
    ("international", "W:W26,30,32,36,39,40,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,11,12,15,16,18,19,25"),
    ("international", "W:W27,32,37,38,K50:BK5,13,14,19"),
    ("american", "B:W21-32:B1-12"),
    ("american", "B:W13,16,28,29,30,31,32:B1,2,3,4,12"),
    ("american", "B:W18,K26,27:B6,K9,11"),
    ("italian", "W:W21-32:B1-12"),
    ("italian", "W:W9,17,18,22,23,24,29,30,32:B1,2,3,4,5,13,15,16"),
    ("italian", "W:W17,K21,26:B5,K8,12"),
    ("spanish", "W:W1-12:B21-32"),
    ("spanish", "W:W1,2,4,5,6,7,15:B14,23,24,25,26,31,32"),
    ("spanish", "W:WK1,7,10:B20,K28,23"),
    ("russian", "W:W21-32:B1-12"),
    ("russian", "W:W11,18,19,21,23,28,29,31,32:B1,2,4,8,9,10,12,14"),
    ("russian", "W:Wa1,Kc3,e3:Bd6,Kh8,b6"),
    ("brazilian", "W:W21-32:B1-12"),
    ("brazilian", "W:W19,20,22,26,28,29,30,32:B2,4,8,10,11,12,14"),
    ("brazilian", "W:Wg3,Kb2,c1:Bf6,Kd8,h6"),
    ("czech", "W:W21-32:B1-12"),
    ("czech", "W:W17,18,21,23,25,27,29,31:B1,2,3,4,9,10,12,14,24"),
    ("czech", "W:Wc3,Kd2,g1:Bb6,Kh6,f8"),
    ("frisian", "W:W31-50:B1-20"),
    ("frisian", "W:W29,33,34,35,36,38,39,42,43,44,45,46,48,49,50:B1,3,4,5,6,7,9,10,11,13,14,15,16,17,19,25"),
    ("frisian", "W:W27,32,38,K48:BK5,13,19,24"),
    ("frysk", "W:W46-50:B1-5"),
    ("frysk", "W:W31,37,49,50:B4,10,11,30"),
    ("frysk", "W:W18,23,27:B16,25,39"),
    ("antidraughts", "W:W31-50:B1-20"),
    ("antidraughts", "W:W16,21,31,36,38,41,42,43,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,33"),
    ("antidraughts", "B:W24,K29,39,46,47:B9"),
    ("breakthrough", "W:W31-50:B1-20"),
    ("breakthrough", "W:W16,28,30,35,36,38,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,7,9,10,12,14,15,17,18,19,20"),
    ("breakthrough", "W:W28,33,38,39:B12,13,18,24"),
    ("killer", "W:W31-50:B1-20"),
    ("killer", "W:W21,34,35,36,39,40,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,7,8,9,10,12,13,15,18,19,24"),
    ("killer", "B:WK5,33,36,50:B15,K16,25"),
    ("pool", "B:W21-32:B1-12"),
    ("pool", "B:W18,19,21,25,26,27,29,31,32:B1,3,4,6,8,9,10,12,20"),
    ("pool", "W:W13,27:B12,15,20,21,K31"),
    ("thai", "W:W25-32:B1-8"),
    ("thai", "W:W13,19,22,23,27,30,31:B1,3,6,9,10,11,14"),
    ("thai", "W:WK5,13,16:B1,15,K32"),
    ("turkish", "W:Wa3,b3,c3,d3,e3,f3,g3,h3,a2,b2,c2,d2,e2,f2,g2,h2:Ba7,b7,c7,d7,e7,f7,g7,h7,a6,b6,c6,d6,e6,f6,g6,h6"),
    ("turkish", "W:Wa4,b4,c4,f4,h4,a3,c3,d3,f3,g3,h3,a2,d2,e2,f2,g2:Bb7,c7,g7,h7,a6,b6,c6,d6,e6,f6,h6,a5,c5,e5,f5,g5"),
    ("turkish", "W:Wa2,b3,Kd4,f3:Bc6,Kh8,e7,g6"),
]


class Bench:
    """The bench as an object, so that another thread can stop() it."""

    def __init__(self, depth: int = DEFAULT_DEPTH, tt_mb: int = DEFAULT_TT_MB):
        self.depth = depth
        self.tt_mb = tt_mb
        self.stopped = False
        self._engine: Optional[Engine] = None

    def stop(self) -> None:
        """End the bench: the running search stops and no other begins."""
        self.stopped = True
        engine = self._engine
        if engine is not None:
            engine.stop()

    def run(self, report: Optional[Callable[[str], None]] = None) -> Tuple[int, float]:
        """Search every bench position; returns (total nodes, seconds)."""
        engines: Dict[str, Engine] = {}
        total = 0
        elapsed = 0.0
        for i, (name, fen) in enumerate(POSITIONS, start=1):
            engine = engines.get(name)
            if engine is None:
                # no endgame database: the signature is the search's and the
                # evaluation's, the same whatever databases a machine holds
                engine = engines[name] = Engine(name, tt_mb=self.tt_mb, egdb=None)
            engine.new_game()
            board = Board(fen, variant=name)
            engine.arm()
            self._engine = engine
            if self.stopped:
                break
            t0 = time.perf_counter()
            result = engine.play(board, Limit(depth=self.depth), arm=False)
            dt = time.perf_counter() - t0
            total += result.info.nodes
            elapsed += dt
            if report:
                move = board.move_text(result.move)
                report(
                    f"Position {i}/{len(POSITIONS)} {name} {fen}: best {move} "
                    f"score {result.info.score:+.2f} nodes {result.info.nodes}"
                )
        self._engine = None
        return total, elapsed


def run(
    depth: int = DEFAULT_DEPTH, tt_mb: int = DEFAULT_TT_MB, report: Optional[Callable[[str], None]] = None
) -> Tuple[int, float]:
    """Search every bench position; returns (total nodes, seconds)."""
    return Bench(depth, tt_mb).run(report)

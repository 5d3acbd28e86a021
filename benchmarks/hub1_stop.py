"""How well the Hub version 1 client stops a search in time: moves of the
scripted version-1 engine (tests/hub_scripts/hub1_engine.py, which thinks four
times its `time` unless stopped, as Scan overruns short times) at a move time,
through `draughts.hub.hub1.Hub1Engine`.  For each move the client's own log
gives when it planned the `stop` and sent it (seconds after `go`); the
answer's time is `PlayResult.elapsed`.  It prints their median, 99th
percentile and largest value, and the moves later than the time plus the
margin (`late`).

    python benchmarks/hub1_stop.py                     # 50 moves at 0.3 s
    python benchmarks/hub1_stop.py --moves 200 --st 0.1 --margin 0.05

The tests check what the client means to do (the `time` line, the planned
stop, the stop before the move); how close it comes on a given machine is
measured here.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
from pathlib import Path

import draughts
from draughts.hub.hub1 import Hub1Engine
from draughts.limits import Limit

SCRIPT = Path(__file__).resolve().parents[1] / "tests" / "hub_scripts" / "hub1_engine.py"


class Stops(logging.Handler):
    """The client's `stopped the search` debug records: (sent, planned, lag)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen = []

    def emit(self, record):
        if record.msg.startswith("stopped the search"):
            self.seen.append(record.args)


def figures(values):
    ordered = sorted(values)
    n = len(ordered)
    rank = ordered[min(n - 1, max(0, math.ceil(0.99 * n) - 1))]
    return f"median {ordered[n // 2] * 1000:7.1f}  p99 {rank * 1000:7.1f}  max {ordered[-1] * 1000:7.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--st", type=float, default=0.3, help="seconds a move")
    ap.add_argument("--margin", type=float, default=0.05, help="seconds past the time before a move is late")
    args = ap.parse_args(argv)
    stops = Stops()
    log = logging.getLogger("draughts.hub")
    log.addHandler(stops)
    log.setLevel(logging.DEBUG)
    elapsed, late = [], 0
    board = draughts.Board()
    print(
        f"{args.moves} moves at {args.st} s, margin {args.margin} s; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    with Hub1Engine([sys.executable, str(SCRIPT), "ok", "1000000"], time_margin=args.margin) as engine:
        for _ in range(args.moves):
            if board.outcome() is not None or len(board.move_stack) > 60:
                board = draughts.Board()
                engine.new_game()
            result = engine.play(board, Limit(movetime=args.st))
            elapsed.append(result.elapsed)
            late += result.late
            board.push(result.move)
    sent = [s for s, _, _ in stops.seen]
    after_plan = [s - p for s, p, _ in stops.seen]
    to_move = [lag for _, _, lag in stops.seen]
    print(f"stop sent after go:           {figures(sent)}")
    print(f"  beyond the planned stop:    {figures(after_plan)}")
    print(f"move after the planned stop:  {figures(to_move)}")
    print(f"move after go (elapsed):      {figures(elapsed)}")
    print(f"late: {late} of {len(elapsed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How many nodes a search of 0.1 s (or any movetime) reaches, per variant and evaluation.

    python benchmarks/node_equivalent.py [--movetime 0.1] [--variants a,b] [--json F]

Issue 12 measures the learned evaluation against the classic one "at 0.1 s a
move, or a node count that equals it".  A node limit makes a match
independent of the load on the machine; this script finds the limit.  For
every variant it plays a few seeded games at depth 4 (the first plies
random), takes the positions at plies 8, 16, 24 and 32, and searches each
with a fresh transposition table for `--movetime` seconds of wall clock with
each evaluation, as the Hub engine does for `go movetime`.  It prints the
median and quartiles of the nodes searched.  Run it on an idle machine at
raised priority (`echo -15 > /proc/self/autogroup`): the figure is only as
good as the machine is quiet.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

import draughts
from draughts import learned

VARIANTS = (
    "american",
    "international",
    "russian",
    "brazilian",
    "spanish",
    "czech",
    "italian",
    "pool",
    "thai",
    "frisian",
    "frysk",
    "antidraughts",
    "killer",
    "breakthrough",
    "turkish",
)
SAMPLE_PLIES = (8, 16, 24, 32)


def positions(variant: str, games: int, seed: int) -> list:
    """Middlegame positions from seeded depth-4 games (4 random plies first)."""
    rng = random.Random(seed)
    engine = draughts.Engine(variant, tt_mb=16, eval="classic", seed=seed)
    out = []
    for _ in range(games):
        board = draughts.Board(variant=variant)
        engine.new_game()
        for ply in range(1, max(SAMPLE_PLIES) + 1):
            if board.is_game_over():
                break
            moves = list(board.legal_moves)
            move = rng.choice(moves) if ply <= 4 else engine.play(board, draughts.Limit(depth=4)).move
            board.push(move)
            if ply in SAMPLE_PLIES and not board.is_game_over():
                out.append(board.copy(stack=False))
    return out


def nodes_at(variant: str, ev: str, boards: list, movetime: float) -> list:
    engine = draughts.Engine(variant, tt_mb=64, eval=ev)
    counts = []
    for board in boards:
        engine.new_game()
        counts.append(engine.play(board, draughts.Limit(movetime=movetime)).info.nodes)
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=float, default=0.1)
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", help="write the figures as JSON too")
    args = ap.parse_args()
    rows = []
    print(f"{'variant':14} {'eval':8} {'positions':>9} {'q1':>9} {'median':>9} {'q3':>9}")
    for v in args.variants.split(","):
        boards = positions(v, args.games, args.seed)
        evals = ["classic"] + (["learned"] if learned.has_weights(v) else [])
        for ev in evals:
            counts = nodes_at(v, ev, boards, args.movetime)
            q1, med, q3 = statistics.quantiles(counts, n=4)
            rows.append(
                dict(variant=v, eval=ev, movetime=args.movetime, positions=len(counts), q1=q1, median=med, q3=q3)
            )
            print(f"{v:14} {ev:8} {len(counts):9} {q1:9.0f} {med:9.0f} {q3:9.0f}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

"""Calibrate ProbCut from data (Buro's method): how well a shallow search predicts a deep one.

    python benchmarks/probcut_fit.py --variant american [--eval auto] [--positions 300]
        [--depth 14] [--shallow 30,40,50] [--min-depth 4] [--t 1.5] [--seed 2026] [--json out.json]

Positions come from self-play: a few random plies from the start, then the
engine plays itself at a small node count and one quiet position (no capture
pending, game not over) is sampled from each game at a random ply, so that
openings, middlegames and endgames all occur.  Each is searched by iterative
deepening to --depth with ProbCut off and a fresh table; the score of every
iteration is kept, which gives pairs (v_s, v_d) of a deep depth d and the
shallow depth s = d * P / 100 ProbCut would search there, for each shallow
per cent P.  For each P and d the script fits v_d = a * v_s + b by least
squares (numpy) with its residual spread sigma_d; then a and b pooled over the
deep depths >= --min-depth, and sigma_d as a straight line in d (weighted by
the number of pairs).

ProbCut cuts a node of depth d when the search of depth s proves
a * v_s + b >= beta + t * sigma_d; the last lines print those figures as a
`draughts.engine.ProbCutFit` for the PROBCUT table.  Pairs whose scores leave
+-10 men (won, lost or database scores) are left out: ProbCut is off there.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Dict, List

import numpy as np

import draughts
from draughts.engine import ProbCutFit

SCORE_CAP = 10.0  # men: pairs beyond this are left out (ProbCut is off there)


def sample_positions(variant: str, count: int, seed: int, nodes: int) -> List[draughts.Board]:
    """`count` quiet positions, one from each self-play game (see the module doc)."""
    rng = random.Random(seed)
    engine = draughts.Engine(variant, tt_mb=16, seed=seed)
    engine.configure({"probcut": None})
    out: List[draughts.Board] = []
    while len(out) < count:
        board = draughts.Board(variant=variant)
        target = rng.randrange(4, 90)
        ok = True
        for ply in range(target):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                ok = False
                break
            if ply < 6:
                board.push(rng.choice(moves))
            else:
                board.push(engine.play(board, draughts.Limit(nodes=nodes)).move)
        if not ok or board.is_game_over():
            continue
        moves = list(board.legal_moves)
        if not moves or moves[0].captured:
            continue
        out.append(board.copy())
    return out


def iteration_scores(engine: draughts.Engine, board: draughts.Board, depth: int) -> Dict[int, float]:
    """The score (men) of every completed iteration up to `depth`, fresh table."""
    scores: Dict[int, float] = {}

    def on_info(info) -> None:
        if info.win_in is None:
            scores[info.depth] = info.score

    engine.new_game()
    engine.play(board, draughts.Limit(depth=depth), on_info=on_info)
    return scores


def fit(pairs: np.ndarray) -> tuple:
    """(a, b, sigma) of deep = a * shallow + b, centi-men."""
    x, y = pairs[:, 0], pairs[:, 1]
    a, b = np.polyfit(x, y, 1)
    sigma = float(np.std(y - (a * x + b), ddof=2))
    return float(a), float(b), sigma


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="american")
    ap.add_argument("--eval", default="auto", choices=("auto", "classic", "learned"))
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--depth", type=int, default=14, help="the deepest iteration searched")
    ap.add_argument("--shallow", default="30,40,50", help="shallow depths, per cent of the deep one")
    ap.add_argument("--min-depth", type=int, default=4, help="fit the deep depths from this one")
    ap.add_argument("--t", type=float, default=1.5, help="the margin in residual spreads")
    ap.add_argument("--play-nodes", type=int, default=2000, help="nodes a move in the sampling games")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", help="write the fits as JSON too")
    args = ap.parse_args()
    percents = [int(p) for p in args.shallow.split(",")]

    t0 = time.time()
    boards = sample_positions(args.variant, args.positions, args.seed, args.play_nodes)
    print(f"{args.variant}: {len(boards)} positions sampled in {time.time() - t0:.0f} s", file=sys.stderr)
    engine = draughts.Engine(args.variant, tt_mb=64, eval=None if args.eval == "auto" else args.eval)
    engine.configure({"probcut": None})
    t0 = time.time()
    rows = [iteration_scores(engine, b, args.depth) for b in boards]
    print(f"searched to depth {args.depth} in {time.time() - t0:.0f} s", file=sys.stderr)

    print(f"# {args.variant}, eval {engine.eval}, {len(boards)} positions, seed {args.seed}, depth {args.depth}")
    print(f"{'P%':>3} {'deep':>4} {'shal':>4} {'pairs':>5} {'slope':>6} {'icpt':>6} {'sigma':>6} {'corr':>5}")
    report = {
        "variant": args.variant,
        "eval": engine.eval,
        "positions": len(boards),
        "seed": args.seed,
        "depth": args.depth,
        "fits": [],
        "pooled": [],
    }
    for pct in percents:
        allp, per_depth = [], []
        for d in range(args.min_depth, args.depth + 1):
            s = min(max(1, d * pct // 100), d - 1)
            p = [
                (row[s] * 100, row[d] * 100)
                for row in rows
                if d in row and s in row and abs(row[d]) < SCORE_CAP and abs(row[s]) < SCORE_CAP
            ]
            if len(p) < 20:
                continue
            arr = np.array(p, dtype=float)
            a, b, sd = fit(arr)
            corr = float(np.corrcoef(arr[:, 0], arr[:, 1])[0, 1])
            print(f"{pct:3d} {d:4d} {s:4d} {len(p):5d} {a:6.3f} {b:6.1f} {sd:6.1f} {corr:5.3f}")
            report["fits"].append(
                dict(shallow_pct=pct, deep=d, shallow=s, pairs=len(p), slope=a, intercept=b, sigma=sd, corr=corr)
            )
            allp.extend(p)
            per_depth.append((d, sd, len(p)))
        if len(per_depth) < 2:
            continue
        a, b, sd = fit(np.array(allp, dtype=float))
        ds, sig, w = (np.array(c, dtype=float) for c in zip(*per_depth))
        s1, s0 = np.polyfit(ds, sig, 1, w=np.sqrt(w))
        pc = ProbCutFit(
            min_depth=args.min_depth,
            shallow_pct=pct,
            slope=round(a, 3),
            intercept=round(b),
            sigma=round(float(s0), 1),
            sigma_per_ply=round(float(s1), 2),
            t=args.t,
        )
        print(
            f"# P={pct}%: pooled pairs {len(allp)}, slope {a:.3f}, intercept {b:.1f}, sigma {sd:.1f}; "
            f"sigma_d = {s0:.1f} + {s1:.2f} d"
        )
        print(f"#   {pc}")
        report["pooled"].append(
            dict(
                shallow_pct=pct,
                pairs=len(allp),
                slope=a,
                intercept=b,
                sigma=sd,
                sigma0=float(s0),
                sigma_per_ply=float(s1),
            )
        )
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()

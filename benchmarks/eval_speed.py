"""The classic against the learned evaluation: nodes per second and depth in 1 s.

    python benchmarks/eval_speed.py [--variants american,international] [--json out.json]

For every variant with shipped learned weights: the start position searched
to a fixed depth with each evaluation (nodes per second over process CPU
time, the best of three runs, so other work on the machine counts less),
and the depth each completes in one second of wall clock from the start.
"""

from __future__ import annotations

import argparse
import json
import time

import draughts
from draughts import learned

DEPTHS = {
    "international": 12,
    "american": 14,
    "russian": 13,
    "brazilian": 13,
    "spanish": 13,
    "italian": 14,
    "czech": 13,
    "pool": 15,
    "thai": 16,
    "killer": 14,
    "frisian": 14,
    "frysk": 15,
    "antidraughts": 16,
    "breakthrough": 14,
    "turkish": 12,
}


def nps(variant: str, ev: str, depth: int) -> tuple:
    engine = draughts.Engine(variant, tt_mb=64, eval=ev)
    board = draughts.Board(variant=variant)
    best = 0.0
    nodes = 0
    for _ in range(3):
        engine.new_game()
        t0 = time.process_time()
        r = engine.play(board, draughts.Limit(depth=depth))
        dt = time.process_time() - t0
        nodes = r.info.nodes
        best = max(best, r.info.nodes / dt if dt > 0 else 0.0)
    return nodes, best


def depth_in_a_second(variant: str, ev: str) -> int:
    engine = draughts.Engine(variant, tt_mb=64, eval=ev)
    engine.new_game()
    return engine.play(draughts.Board(variant=variant), draughts.Limit(movetime=1.0)).info.depth


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default=",".join(DEPTHS))
    ap.add_argument("--json", help="write the figures as JSON too")
    args = ap.parse_args()
    rows = []
    print(
        f"{'variant':14} {'depth':>5} {'classic n/s':>12} {'learned n/s':>12} {'ratio':>6} "
        f"{'d(1s) classic':>13} {'d(1s) learned':>13}"
    )
    for v in args.variants.split(","):
        if not learned.has_weights(v):
            continue
        d = DEPTHS[v]
        (nc, c), (nl, lrn) = nps(v, "classic", d), nps(v, "learned", d)
        dc, dl = depth_in_a_second(v, "classic"), depth_in_a_second(v, "learned")
        rows.append(
            dict(
                variant=v,
                depth=d,
                classic_nodes=nc,
                learned_nodes=nl,
                classic_nps=c,
                learned_nps=lrn,
                depth_1s_classic=dc,
                depth_1s_learned=dl,
            )
        )
        print(f"{v:14} {d:5d} {c:12,.0f} {lrn:12,.0f} {lrn / c:6.2f} {dc:13d} {dl:13d}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

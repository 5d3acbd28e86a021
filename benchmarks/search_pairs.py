#!/usr/bin/env python
"""Two builds' search speed, pairs run in turn, with the tree checked equal.

    python benchmarks/search_pairs.py --a-src /path/new/src --b-src /path/old/src --pairs 6
    python benchmarks/search_pairs.py --a-python venv-new/bin/python --b-python venv-old/bin/python \\
        --variant american --depth 21
    python benchmarks/search_pairs.py --a-option horizon-exchanges=1 \\
        --fens benchmarks/data/scan-speed-positions.fen --depth 15

Each run is a fresh process of the build (`--X-src`: a source tree whose
compiled core is built in place, put first on PYTHONPATH; `--X-python`: an
interpreter with the build installed) that searches the variant's fixed
positions to `--depth` with a `--tt-mb` table (a new engine, and table, per
position) and prints its nodes and the CPU time of the searches alone
(`--X-option NAME=VALUE`: an engine option of that side, Engine.configure's
names, so that one build can be set against itself; `--fens FILE`: the
positions of a file, one FEN a line, instead of the variant's own).  The
builds alternate, A then B, `--pairs` times; each pair's ratio of nodes per
second is taken, and the median, minimum and maximum of the ratios printed.
A speed change that keeps the tree must leave every node count equal: the
script says so, and exits with status 1 when the counts differ.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Dict, List, Optional

#: fixed positions per variant: the start and middle games
POSITIONS: Dict[str, List[str]] = {
    "international": [
        "W:W31-50:B1-20",
        "W:W26,30,32,36,39,40,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,11,12,15,16,18,19,25",
        "B:W27,28,31,32,33,34,36,37,38,39,41,42,43,44,46,47,48:B3,6,7,8,9,11,12,13,14,16,17,18,19,21,22,23",
        "W:W28,29,32,33,34,35,37,38,39,40,42,43,44,45,47,48:B3,4,6,8,9,10,12,13,14,15,17,18,19,20,23,24",
    ],
    "american": [
        "B:W21-32:B1-12",
        "B:W13,16,28,29,30,31,32:B1,2,3,4,12",
        "B:W18,19,21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,12,14",
    ],
}

#: the program each run executes (arguments: variant, depth, table MiB, FENs as JSON)
CHILD = r"""
import json, sys, time
from draughts.board import Board
from draughts.engine import Engine
from draughts.limits import Limit
variant, depth, mb, fens = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
options = json.loads(sys.argv[5])
nodes, cpu = [], 0.0
for fen in fens:
    engine = Engine(variant=variant, tt_mb=mb)
    engine.configure(options)
    engine.new_game()
    board = Board(fen, variant=variant)
    t0 = time.process_time()
    result = engine.play(board, Limit(depth=depth))
    cpu += time.process_time() - t0
    nodes.append(result.info.nodes)
    engine.quit()
print(json.dumps({"nodes": nodes, "cpu": cpu}))
"""


def run_once(
    python: str, src: Optional[str], variant: str, depth: int, mb: int, fens: List[str], options: Dict[str, str]
) -> dict:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    out = subprocess.run(
        [python, "-c", CHILD, variant, str(depth), str(mb), json.dumps(fens), json.dumps(options)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a-src", help="build A: a source tree with its core built in place")
    ap.add_argument("--b-src", help="build B: a source tree with its core built in place")
    ap.add_argument("--a-python", default=sys.executable, help="build A's interpreter (default: this one)")
    ap.add_argument("--b-python", default=sys.executable, help="build B's interpreter (default: this one)")
    ap.add_argument("--variant", default="international", choices=sorted(POSITIONS))
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--pairs", type=int, default=6)
    ap.add_argument("--a-option", action="append", default=[], metavar="NAME=VALUE", help="an engine option of A")
    ap.add_argument("--b-option", action="append", default=[], metavar="NAME=VALUE", help="an engine option of B")
    ap.add_argument("--fens", help="a file of positions, one FEN a line (# comments), instead of the variant's own")
    args = ap.parse_args(argv)
    options = []
    for given in (args.a_option, args.b_option):
        pairs: Dict[str, str] = {}
        for text in given:
            name, eq, value = text.partition("=")
            if not eq or not name:
                ap.error(f"an option is NAME=VALUE, not {text!r}")
            pairs[name] = value
        options.append(pairs)
    if args.fens:
        with open(args.fens) as f:
            fens = [line.split("#")[0].strip() for line in f if line.split("#")[0].strip()]
        if not fens:
            ap.error(f"{args.fens} holds no position")
    else:
        fens = POSITIONS[args.variant]
    ratios: List[float] = []
    times: List[float] = []
    counts = set()
    for i in range(args.pairs):
        a = run_once(args.a_python, args.a_src, args.variant, args.depth, args.tt_mb, fens, options[0])
        b = run_once(args.b_python, args.b_src, args.variant, args.depth, args.tt_mb, fens, options[1])
        nps_a, nps_b = sum(a["nodes"]) / a["cpu"], sum(b["nodes"]) / b["cpu"]
        ratios.append(nps_a / nps_b)
        times.append(a["cpu"] / b["cpu"])
        counts.update((tuple(a["nodes"]), tuple(b["nodes"])))
        print(
            f"pair {i + 1}: A {nps_a / 1e6:.2f} M nodes/s ({sum(a['nodes'])} nodes, {a['cpu']:.3f} s), "
            f"B {nps_b / 1e6:.2f} M ({sum(b['nodes'])}, {b['cpu']:.3f} s), A/B {ratios[-1]:.3f}",
            flush=True,
        )
    print(
        f"{args.variant}, depth {args.depth}, {args.tt_mb} MiB, {len(fens)} positions: "
        f"A/B nodes per second median {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {len(ratios)} pairs)"
    )
    if len(counts) == 1:
        print("the tree is the same: every node count equal")
        return 0
    print(
        f"A/B time to depth {args.depth} median {statistics.median(times):.3f} "
        f"(min {min(times):.3f}, max {max(times):.3f})"
    )
    print("the trees differ: node counts " + "; ".join(str(c) for c in sorted(counts)))
    return 1


if __name__ == "__main__":
    sys.exit(main())

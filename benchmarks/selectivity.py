"""What a pruning buys in depth: ProbCut off against on, per variant.

    python benchmarks/selectivity.py [--variants american,international] [--repeat 3]
        [--nodes 20000] [--openings 40] [--probcut V=MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T ...]

For each variant and each setting (off, and the variant's `PROBCUT` figures
or the ones given with --probcut): the depth completed in one second of wall
clock from the start position (the median of --repeat runs, with their node
counts: time on a shared machine is noisy, so run it at raised priority, e.g.
after `echo -15 > /proc/self/autogroup`), and the mean depth completed at
--nodes nodes over the first --openings openings of the match decks
(deterministic: the same on any machine), with ProbCut's tries and cuts.
"""

from __future__ import annotations

import argparse
import statistics

import draughts
from draughts.engine import Engine
from draughts.engine import parse_probcut
from draughts.match.openings import generate, load


def openings(variant: str, count: int) -> list:
    if variant == "american":
        return [o.board(draughts.Board(variant=variant).variant) for o in load("acf-3move", variant)[:count]]
    v = draughts.Board(variant=variant).variant
    return [g.opening.board(v) for g in generate(variant, 8, count, depth=6, seed=2026)]


def measure(variant: str, fit, boards: list, nodes: int, repeat: int) -> dict:
    engine = Engine(variant, tt_mb=64)
    engine.configure({"probcut": fit})
    runs = []
    for _ in range(repeat):
        engine.new_game()
        r = engine.play(draughts.Board(variant=variant), draughts.Limit(movetime=1.0))
        runs.append((r.info.depth, r.info.nodes))
    depths = []
    tries = cuts = 0
    for b in boards:
        engine.new_game()
        depths.append(engine.play(b, draughts.Limit(nodes=nodes)).info.depth)
        t, c = engine.probcut_counts()
        tries += t
        cuts += c
    return dict(
        depth_1s=statistics.median(d for d, _ in runs),
        runs=runs,
        depth_at_nodes=sum(depths) / len(depths),
        tries=tries,
        cuts=cuts,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="american,international")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--openings", type=int, default=40)
    ap.add_argument("--probcut", action="append", default=[], help="VARIANT=seven figures (see option.probcut)")
    args = ap.parse_args()
    given = {}
    for item in args.probcut:
        v, _, figures = item.partition("=")
        given[v] = parse_probcut(figures)
    print(
        f"{'variant':14} {'probcut':42} {'d(1s)':>5} {'runs (depth/nodes)':32} "
        f"{'d@' + str(args.nodes):>8} {'tries':>6} {'cuts':>6}"
    )
    for v in args.variants.split(","):
        boards = openings(v, args.openings)
        fit = given.get(v, Engine(v, tt_mb=1).probcut)
        for setting in (None, fit) if fit is not None else (None,):
            m = measure(v, setting, boards, args.nodes, args.repeat)
            label = (
                "off"
                if setting is None
                else ",".join(
                    str(x)
                    for x in (
                        setting.min_depth,
                        setting.shallow_pct,
                        setting.slope,
                        setting.intercept,
                        setting.sigma,
                        setting.sigma_per_ply,
                        setting.t,
                    )
                )
            )
            runs = " ".join(f"{d}/{n}" for d, n in m["runs"])
            print(
                f"{v:14} {label:42} {m['depth_1s']:5} {runs:32} {m['depth_at_nodes']:8.3f} "
                f"{m['tries']:6d} {m['cuts']:6d}"
            )


if __name__ == "__main__":
    main()

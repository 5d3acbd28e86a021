"""The parallel search (Lazy SMP): nodes per second and strength, 2 threads against 1.

    python benchmarks/smp.py nps [--seconds 3] [--repeat 5] [--threads 1 2] [--priority -15]
    python benchmarks/smp.py ttd [--american 18] [--international 15] [--repeat 4] [--priority -15]
    python benchmarks/smp.py elo [--st 0.1] [--rounds 300] [--variant american] [--openings F] [--priority -15]

`nps`: from the start position of american and international, a fresh engine
(64 MiB table) searches `--seconds` of wall clock with each thread count,
`--repeat` times in turn (1, 2, 1, 2, ...), and the median nodes per second,
the depth completed and the ratio to one thread are printed.  Wall-clock
rates on a shared machine mean little without raised priority: `--priority N`
(Linux, root) sets this process's session group to nice N first, as
`echo N > /proc/self/autogroup` does.

`ttd` (time to depth): the american and international positions of `draughts
bench` (start, middlegame, ending), each searched to a fixed depth by a fresh
engine; the wall-clock time of the whole set with each thread count, run
`--repeat` times in turn, medians and the speedup over one thread.  Also the
main thread's own nodes to that depth (`Searcher.main_nodes`) against one
thread's: with every thread at the same speed that is the speedup in time,
and unlike the clock it does not depend on what else the machine is doing.

`elo`: a self-play match through our runner, our Hub engine with
`option.threads=2` against itself with `option.threads=1`, at the same move
time, one game at a time (so that the 2-thread engine has both processors
while it thinks and the other is idle), balanced openings, colours swapped,
and an SPRT (pentanomial) of elo0=0 against elo1=40.  With `--priority N` the
match and its engine processes (each in a session of its own) are kept at
nice N, as `benchmarks/time_losses.py --priority` does.  The runner's own
lines are printed as they come.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import Dict, List

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from time_losses import _prioritise  # noqa: E402

import draughts  # noqa: E402
from draughts.bench import POSITIONS  # noqa: E402
from draughts.engine import Engine  # noqa: E402

VARIANTS = ("american", "international")


def set_priority(nice: int) -> None:
    with open("/proc/self/autogroup", "w") as fh:
        fh.write(str(nice))


def nps(variants, threads: List[int], seconds: float, repeat: int) -> List[Dict]:
    rows = []
    for v in variants:
        board = draughts.Board(variant=v)
        runs: Dict[int, List] = {t: [] for t in threads}
        for _ in range(repeat):
            for t in threads:
                engine = Engine(v, tt_mb=64, threads=t)
                r = engine.play(board, draughts.Limit(movetime=seconds))
                runs[t].append((r.info.nps, r.info.depth))
        base = statistics.median(n for n, _ in runs[threads[0]])
        for t in threads:
            rates = [n for n, _ in runs[t]]
            med = statistics.median(rates)
            rows.append(
                {
                    "variant": v,
                    "threads": t,
                    "nps_median": med,
                    "nps_all": rates,
                    "depths": [d for _, d in runs[t]],
                    "ratio": med / base,
                }
            )
            print(
                f"{v:<14} threads={t}  median {med / 1e6:5.2f} M nodes/s  x{med / base:4.2f}  "
                f"runs {' '.join(f'{n / 1e6:.2f}' for n in rates)}  depths {[d for _, d in runs[t]]}",
                flush=True,
            )
    return rows


def ttd(depths: Dict[str, int], threads: List[int], repeat: int) -> List[Dict]:
    positions = [(v, fen) for v, fen in POSITIONS if v in depths]
    times: Dict[int, List[float]] = {t: [] for t in threads}
    mains: Dict[int, List[int]] = {t: [] for t in threads}
    for _ in range(repeat):
        for t in threads:
            t0 = time.perf_counter()
            main_nodes = 0
            for v, fen in positions:
                engine = Engine(v, tt_mb=64, threads=t)
                engine.play(draughts.Board(fen, variant=v), draughts.Limit(depth=depths[v]))
                main_nodes += engine._searcher.main_nodes
            times[t].append(time.perf_counter() - t0)
            mains[t].append(main_nodes)
        print(
            "  ".join(f"threads={t} {times[t][-1]:.2f} s ({mains[t][-1]} main-thread nodes)" for t in threads),
            flush=True,
        )
    base = statistics.median(times[threads[0]])
    base_nodes = statistics.median(mains[threads[0]])
    rows = []
    for t in threads:
        med = statistics.median(times[t])
        med_nodes = statistics.median(mains[t])
        rows.append(
            {
                "threads": t,
                "seconds_median": med,
                "seconds_all": times[t],
                "speedup": base / med,
                "main_nodes_median": med_nodes,
                "main_nodes_all": mains[t],
                "node_speedup": base_nodes / med_nodes,
            }
        )
        print(
            f"threads={t}  median {med:.2f} s  speedup x{base / med:.2f}  "
            f"main-thread nodes x{base_nodes / med_nodes:.2f}",
            flush=True,
        )
    return rows


def elo(
    variant: str, st: float, rounds: int, priority, srand: int, tt: int, pdn: str, out: str, openings: str, margin: int
) -> int:
    engine = [f"cmd={sys.executable}", "arg=-m", "arg=draughts", "arg=hub", f"option.tt-size={tt}"]
    book = ["-openings", f"file={openings or 'acf-3move'}", "order=random"] if openings or variant == "american" else []
    argv = [
        sys.executable,
        "-m",
        "draughts",
        "match",
        "-variant",
        variant,
        "-engine",
        "name=threads2",
        *engine,
        "option.threads=2",
        "-engine",
        "name=threads1",
        *engine,
        "option.threads=1",
        "-each",
        f"st={st}",
        f"timemargin={margin}",
        "-concurrency",
        "1",
        *book,
        "-repeat",
        "-games",
        "2",
        "-rounds",
        str(rounds),
        "-srand",
        str(srand),
        "-sprt",
        "elo0=0",
        "elo1=40",
        "alpha=0.05",
        "beta=0.05",
        "-ratinginterval",
        "20",
        "-progress",
        "off",
        *(["-pdnout", pdn] if pdn else []),
        *(["-jsonout", out] if out else []),
    ]
    print(" ".join(argv[1:]), flush=True)
    proc = subprocess.Popen(argv, start_new_session=priority is not None)
    done = threading.Event()
    if priority is not None:
        threading.Thread(target=_prioritise, args=(proc, priority, done), daemon=True).start()
    code = proc.wait()
    done.set()
    return code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    a = sub.add_parser("nps")
    a.add_argument("--variants", default=",".join(VARIANTS))
    a.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    a.add_argument("--seconds", type=float, default=3.0)
    a.add_argument("--repeat", type=int, default=5)
    a.add_argument("--json", help="write the rows as JSON here too")
    c = sub.add_parser("ttd")
    c.add_argument("--american", type=int, default=18, help="depth of the american positions")
    c.add_argument("--international", type=int, default=15, help="depth of the international positions")
    c.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    c.add_argument("--repeat", type=int, default=4)
    c.add_argument("--json", help="write the rows as JSON here too")
    b = sub.add_parser("elo")
    b.add_argument("--variant", default="american")
    b.add_argument("--st", type=float, default=0.1, help="seconds a move")
    b.add_argument("--rounds", type=int, default=300, help="rounds of 2 games (the SPRT may stop sooner)")
    b.add_argument("--srand", type=int, default=1)
    b.add_argument("--tt", type=int, default=64, help="table MiB")
    b.add_argument(
        "--openings", default="", help="opening file (default: acf-3move in american; see draughts openings)"
    )
    b.add_argument(
        "--timemargin",
        type=int,
        default=0,
        help="milliseconds of grace past each move's time (the runner's timemargin)",
    )
    b.add_argument("--pdnout", default="")
    b.add_argument("--jsonout", default="")
    for p in (a, b, c):
        p.add_argument(
            "--priority", type=int, default=None, help="nice value of the session group (Linux, root), e.g. -15"
        )
    args = ap.parse_args()
    if args.what in ("nps", "ttd"):
        if args.priority is not None:
            set_priority(args.priority)
        print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
        if args.what == "nps":
            rows = nps(args.variants.split(","), args.threads, args.seconds, args.repeat)
        else:
            rows = ttd({"american": args.american, "international": args.international}, args.threads, args.repeat)
        print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(rows, fh, indent=1)
    else:
        sys.exit(
            elo(
                args.variant,
                args.st,
                args.rounds,
                args.priority,
                args.srand,
                args.tt,
                args.pdnout,
                args.jsonout,
                args.openings,
                args.timemargin,
            )
        )


if __name__ == "__main__":
    main()

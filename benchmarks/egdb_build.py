"""Endgame database build times and sizes.

    python benchmarks/egdb_build.py american:5 international:4 [--threads 2] [--dir D]
    python benchmarks/egdb_build.py american:6 --pair 0,4,0,2 --dir D   # one table pair


Builds each database from nothing (into a fresh temporary directory unless
--dir is given, where finished tables are reused) and prints one line per
build: wall time, the process's CPU time (user + system, all threads: on a
shared machine the fairer figure), positions and the size on disk.  With
--pair it times only that table pair of the database (the smaller tables must
be in --dir) and writes nothing.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time

from draughts import egdb
from draughts.variants import variant
from draughts_core.egdb import table_size


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "builds",
        nargs="+",
        metavar="VARIANT:PIECES",
        help="e.g. american:5 (american-house:5 for the optional-capture rule)",
    )
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dir", default=None, help="keep the databases here (default: a temporary directory)")
    ap.add_argument("--pair", default=None, metavar="A,B,C,D", help="time only this table pair")
    args = ap.parse_args()
    if args.pair:
        time_pair(args)
        return
    print(
        f"{'database':<20} {'pieces':>6} {'threads':>7} {'wall s':>8} {'cpu s':>8} {'positions':>14} {'disk bytes':>12}"
    )
    for spec in args.builds:
        name, pieces = spec.rsplit(":", 1)
        v = variant("american", mandatory_capture=False) if name == "american-house" else variant(name)
        where = args.dir or tempfile.mkdtemp(prefix="egdb-bench-")
        try:
            t0, c0 = time.perf_counter(), _cpu()
            rep = egdb.build(v, int(pieces), where, threads=args.threads)
            wall, cpu = time.perf_counter() - t0, _cpu() - c0
            print(
                f"{name:<20} {pieces:>6} {args.threads:>7} {wall:>8.1f} {cpu:>8.1f} "
                f"{rep.positions:>14,} {rep.disk_bytes:>12,}",
                flush=True,
            )
        finally:
            if args.dir is None:
                shutil.rmtree(where, ignore_errors=True)


def time_pair(args) -> None:
    name, pieces = args.builds[0].rsplit(":", 1)
    v = variant("american", mandatory_capture=False) if name == "american-house" else variant(name)
    m = tuple(int(x) for x in args.pair.split(","))
    db = egdb.Database.open(v, args.dir, pieces=int(pieces) - 1)
    db.core.max_pieces = int(pieces)
    t0, c0 = time.perf_counter(), _cpu()
    egdb.solve_pair(db.core, m, args.threads)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    n = table_size(v.size, *m) + (0 if m == m[2:] + m[:2] else table_size(v.size, *m[2:], *m[:2]))
    print(f"{name} pair {m}: {n:,} positions, wall {wall:.1f} s, cpu {cpu:.1f} s, {cpu / n * 1e6:.2f} us a position")


if __name__ == "__main__":
    main()

"""Endgame database build times and sizes.

    python benchmarks/egdb_build.py american:5 international:4 [--threads 2] [--dir D]

Builds each database from nothing (into a fresh temporary directory unless
--dir is given, where finished tables are reused) and prints one line per
build: wall time, the process's CPU time (user + system, all threads: on a
shared machine the fairer figure), positions and the size on disk.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time

from draughts import egdb
from draughts.variants import variant


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", metavar="VARIANT:PIECES",
                    help="e.g. american:5 (american-house:5 for the optional-capture rule)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dir", default=None, help="keep the databases here (default: a temporary directory)")
    args = ap.parse_args()
    print(f"{'database':<20} {'pieces':>6} {'threads':>7} {'wall s':>8} {'cpu s':>8} "
          f"{'positions':>14} {'disk bytes':>12}")
    for spec in args.builds:
        name, pieces = spec.rsplit(":", 1)
        v = variant("american", mandatory_capture=False) if name == "american-house" else variant(name)
        where = args.dir or tempfile.mkdtemp(prefix="egdb-bench-")
        try:
            t0, c0 = time.perf_counter(), _cpu()
            rep = egdb.build(v, int(pieces), where, threads=args.threads)
            wall, cpu = time.perf_counter() - t0, _cpu() - c0
            print(f"{name:<20} {pieces:>6} {args.threads:>7} {wall:>8.1f} {cpu:>8.1f} "
                  f"{rep.positions:>14,} {rep.disk_bytes:>12,}", flush=True)
        finally:
            if args.dir is None:
                shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    main()

"""The deep end of the published perft tables: every count the test run leaves out.

    python benchmarks/perft_tables.py                       # every deep count, shallowest first
    python benchmarks/perft_tables.py --max-leaves 1e9      # only counts of up to 10^9 leaves
    python benchmarks/perft_tables.py --variants american,pool --threads 2 --hash-mb 256

The tables are tests/data/perft.json and tests/data/perft-variants10.json (their
sources and duplicate conventions are named there).  tests/test_perft.py and
tests/test_rules_10x10_variants.py check every count of up to FAST_LEAVES leaves (their
constant) on every run; the deeper counts, from about 0.1 s to many hours of one
core each (turkish perft(12) is 2.5 * 10^12 leaves), are checked here, each
against its table, with its time and leaves per second.  The exit status is 1
when a count differs.  Through `draughts.perft.run`: with --threads and
--hash-mb the runs share out the tree and keep a transposition table.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import draughts
from draughts import perft

DATA = pathlib.Path(__file__).resolve().parents[1] / "tests" / "data"
#: the test run's limits: tests/test_perft.py and tests/test_rules_10x10_variants.py
TABLES = {"perft.json": 25_000_000, "perft-variants10.json": 10_000_000}


def deep_counts(variants=None, max_leaves=None):
    out = []
    for file, fast in TABLES.items():
        data = json.loads((DATA / file).read_text())
        for section in ("start", "positions"):
            for entry in data[section]:
                if variants and entry["variant"] not in variants:
                    continue
                for depth, count in enumerate(entry["counts"], start=1):
                    if count > fast and (max_leaves is None or count <= max_leaves):
                        out.append((count, file, entry, depth))
    out.sort(key=lambda c: c[0])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default=None, help="comma-separated variant names (default: all)")
    ap.add_argument("--max-leaves", type=float, default=None, help="leave out counts above this")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--hash-mb", type=int, default=0)
    args = ap.parse_args()
    variants = set(args.variants.split(",")) if args.variants else None
    bad = 0
    print(f"{'variant':<14} {'position':<16} {'dup':<4} {'depth':>5} {'leaves':>16} {'s':>9} {'leaves/s':>12}")
    for count, file, entry, depth in deep_counts(variants, args.max_leaves):
        board = (
            draughts.Board(entry["fen"], variant=entry["variant"])
            if "fen" in entry
            else draughts.Board(variant=entry["variant"])
        )
        t0 = time.perf_counter()
        got = perft.run(
            board,
            depth,
            duplicates=entry["duplicates"],
            threads=args.threads,
            hash_mb=args.hash_mb,
            progress_enabled=False,
        ).nodes
        s = time.perf_counter() - t0
        mark = "" if got == count else f"   DIFFERS: {got}, {file} says {count}"
        bad += got != count
        print(
            f"{entry['variant']:<14} {entry.get('name', 'start'):<16} {entry['duplicates']:<4} {depth:>5} "
            f"{count:>16,} {s:>9.2f} {count / s / 1e6:>10.1f} M{mark}",
            flush=True,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

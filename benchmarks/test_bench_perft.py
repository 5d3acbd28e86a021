"""Perft speed from the start position of every variant (pytest-benchmark).

Run with ``python -m pytest benchmarks/ --benchmark-only``.  Timings are
reported, never asserted; the leaf counts are facts (the published tables in
tests/data/perft.json, duplicates dropped) and are checked.

Every benchmark records ``nodes`` (leaves) and ``leaves_per_s`` (leaves over the
median time; ``leaves_per_s_best`` uses the fastest round) in
``benchmark.extra_info``, so ``--benchmark-json`` carries the rates.

The headline targets are also measured through ``draughts.perft.run`` with two
native threads and/or a 64 MiB hash table (a fresh table every round), where
that module is present.

On a shared machine ``--benchmark-timer=time.process_time`` (CPU time) gives
much steadier figures; the threaded runs keep the wall clock through a marker.
"""

import time

import pytest

import draughts

# (variant, depth, leaves): depths chosen to take roughly 0.1-1 s each here.
START = [
    ("american", 10, 18391564),
    ("russian", 10, 22444032),
    ("brazilian", 10, 21560022),
    ("spanish", 10, 17743464),
    ("italian", 10, 17761384),
    ("czech", 10, 18368918),
    ("international", 9, 41022423),
    ("pool", 10, 22435955),
    ("thai", 9, 114530830),
    # turkish: duplicates dropped (the count kish publishes keeps every path:
    # 123290300 at depth 8); checked against tests/reference_turkish.py
    ("turkish", 8, 123285642),
]

# The 10x10 variants of issue 15: frisian and killer from DCTL's tables
# (tests/data/perft-variants10.json); antidraughts and breakthrough move as
# international does and no king is crowned by depth 9, so international's
# published count; frysk has no published table (None: recorded, not checked;
# tests/test_rules_10x10_variants.py checks it against the reference generator to depth 4).
START_NEW = [
    ("frisian", 9, 15605069),
    ("frysk", 8, None),
    ("antidraughts", 9, 41022423),
    ("breakthrough", 9, 41022423),
    ("killer", 9, 41022423),
]

# The headline targets: deep counts, measured with a few rounds only.
HEADLINE = [
    ("american", 11, 85242128, 3),
    ("international", 10, 258895763, 2),
]


def record_rate(benchmark, leaves):
    """Put the leaf count and leaves per second into the benchmark's extra info."""
    benchmark.extra_info["nodes"] = leaves
    stats = getattr(benchmark, "stats", None)
    stats = getattr(stats, "stats", None)
    if stats is None:  # --benchmark-disable: nothing was timed
        return
    if stats.median > 0:
        benchmark.extra_info["leaves_per_s"] = round(leaves / stats.median)
    if stats.min > 0:
        benchmark.extra_info["leaves_per_s_best"] = round(leaves / stats.min)


@pytest.mark.parametrize("variant,depth,leaves", START, ids=[f"{v}-d{d}" for v, d, _ in START])
def test_perft_start(benchmark, variant, depth, leaves):
    board = draughts.Board(variant=variant)
    benchmark.group = "perft start position"
    n = benchmark(board.perft, depth)
    assert n == leaves
    record_rate(benchmark, leaves)


@pytest.mark.parametrize("variant,depth,leaves", START_NEW, ids=[f"{v}-d{d}" for v, d, _ in START_NEW])
def test_perft_start_new_variants(benchmark, variant, depth, leaves):
    board = draughts.Board(variant=variant)
    benchmark.group = "perft start position (frisian, frysk, antidraughts, breakthrough, killer)"
    n = benchmark(board.perft, depth)
    if leaves is not None:
        assert n == leaves
    record_rate(benchmark, n)


@pytest.mark.parametrize("variant,depth,leaves,rounds", HEADLINE, ids=[f"{v}-d{d}" for v, d, _, _ in HEADLINE])
def test_perft_headline(benchmark, variant, depth, leaves, rounds):
    board = draughts.Board(variant=variant)
    benchmark.group = "perft headline"
    n = benchmark.pedantic(board.perft, args=(depth,), rounds=rounds, iterations=1)
    assert n == leaves
    record_rate(benchmark, leaves)


# draughts.perft.run options.  The threaded runs always take the wall clock, even under
# --benchmark-timer=time.process_time (which would add up the CPU time of both threads).
WALL = pytest.mark.benchmark(timer=time.perf_counter)
SCALED = [
    pytest.param({"threads": 2}, id="threads2", marks=WALL),
    pytest.param({"hash_mb": 64}, id="hash64"),
    pytest.param({"hash_mb": 64, "threads": 2}, id="hash64-threads2", marks=WALL),
]


@pytest.mark.parametrize("options", SCALED)
@pytest.mark.parametrize(
    "variant,depth,leaves", [h[:3] for h in HEADLINE], ids=[f"{v}-d{d}" for v, d, _, _ in HEADLINE]
)
def test_perft_headline_scaled(benchmark, variant, depth, leaves, options):
    perft = pytest.importorskip("draughts.perft")
    board = draughts.Board(variant=variant)
    benchmark.group = "perft headline, draughts.perft.run"

    def count():
        return perft.run(board, depth, progress_enabled=False, **options).nodes

    n = benchmark.pedantic(count, rounds=3, iterations=1)
    assert n == leaves
    record_rate(benchmark, leaves)

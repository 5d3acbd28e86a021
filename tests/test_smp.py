"""The parallel search (Lazy SMP): helper threads share the table and stop with the main one.

The shots (tests/data/shots.json, each proved with the reference move
generator in test_shots.py) and the won endings must come out the same with
two threads as with one; a stop and the clock still end a search of several
threads at once; node limits count the nodes of every thread; the thread
count can change between searches, and so can the table's size.
"""

import json
import os
import sys
import threading
import time

import pytest

import draughts
from draughts import bench
from draughts.engine import Engine
from draughts.errors import DraughtsError
from draughts.hub.server import HubServer
from draughts.match.engines import parse_engine
from draughts.match.executors import LocalExecutor, engine_threads
from draughts.match.settings import MatchSettings

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "shots.json")) as fh:
    SHOTS = json.load(fh)["positions"]


@pytest.mark.parametrize("case", SHOTS, ids=[c["id"] for c in SHOTS])
def test_two_threads_find_the_shot(case):
    board = draughts.Board(case["fen"], variant=case["variant"])
    depth = max(case["engine_depth"], 8)
    engine = Engine(case["variant"], tt_mb=16, eval="classic", threads=2)
    result = engine.play(board, draughts.Limit(depth=depth))
    assert board.move_text(result.move) == case["move"], (case["id"], result.info.score)
    assert result.info.depth == depth


@pytest.mark.parametrize(
    "variant,fen,plies",
    [
        # the capture takes the last piece: a win in one ply, whatever the threads
        ("international", "W:W28:B23", 1),
        ("american", "B:W18:B14", 1),
        ("russian", "W:Wc3:Bd4", 1),
    ],
)
def test_two_threads_report_the_same_win(variant, fen, plies):
    board = draughts.Board(fen, variant=variant)
    one = Engine(variant, tt_mb=4).play(board, draughts.Limit(depth=6))
    two = Engine(variant, tt_mb=4, threads=2).play(board, draughts.Limit(depth=6))
    assert one.info.win_in == two.info.win_in == plies
    assert one.move == two.move


def test_two_threads_keep_a_mate_in_three_kings_against_one():
    # american: 2 kings against 1 is won; the forced win is found at the same
    # length with 2 threads (a won score, the same number of plies or fewer)
    board = draughts.Board("W:WK14,K15:BK1", variant="american")
    one = Engine("american", tt_mb=8).play(board, draughts.Limit(depth=20))
    two = Engine("american", tt_mb=8, threads=2).play(board, draughts.Limit(depth=20))
    assert one.info.win_in is not None and one.info.win_in > 0
    assert two.info.win_in is not None and 0 < two.info.win_in <= one.info.win_in


def test_one_thread_is_the_single_threaded_search_node_for_node():
    engine = Engine("international", tt_mb=8, threads=3)
    engine.configure({"threads": 1})
    board = draughts.Board()
    first = engine.play(board, draughts.Limit(depth=8)).info.nodes
    engine.new_game()
    again = Engine("international", tt_mb=8).play(board, draughts.Limit(depth=8)).info.nodes
    assert first == again


def test_bench_is_unchanged_with_helpers_once_made_and_dropped():
    engine = Engine("american", tt_mb=bench.DEFAULT_TT_MB, threads=2)
    board = draughts.Board(variant="american")
    engine.play(board, draughts.Limit(depth=6))
    engine.configure({"threads": 1})
    engine.new_game()
    fresh = Engine("american", tt_mb=bench.DEFAULT_TT_MB)
    assert (
        engine.play(board, draughts.Limit(depth=9)).info.nodes == fresh.play(board, draughts.Limit(depth=9)).info.nodes
    )


@pytest.mark.parametrize("threads", [2, 3])
def test_stop_ends_every_thread_at_once(threads):
    engine = Engine(tt_mb=16, threads=threads)
    box = {}
    seen = []

    def run():
        box["result"] = engine.play(draughts.Board(), draughts.Limit(infinite=True), on_info=seen.append)

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.5)
    t0 = time.perf_counter()
    engine.stop()
    worker.join(5)
    assert not worker.is_alive()
    assert time.perf_counter() - t0 < 0.5  # a loose bound: milliseconds in fact
    assert box["result"].move in draughts.Board().legal_moves
    # the helpers were told to stop, not waited for: they end by themselves
    deadline = time.perf_counter() + 1.0
    while any(t.name.startswith("draughts-search") for t in threading.enumerate()):
        assert time.perf_counter() < deadline, [t.name for t in threading.enumerate()]
        time.sleep(0.001)
    # the info lines count the nodes of every thread: more than the main thread's share
    assert seen and seen[-1].nodes > 0


def test_movetime_ends_a_threaded_search_promptly():
    engine = Engine(tt_mb=16, threads=2)
    t0 = time.perf_counter()
    result = engine.play(draughts.Board(), draughts.Limit(movetime=0.2))
    elapsed = time.perf_counter() - t0
    assert result.move is not None
    assert elapsed < 1.0  # a loose bound, not a benchmark


@pytest.mark.parametrize("limit", [1, 500, 20000, 200000])
def test_node_limit_counts_every_thread(limit):
    engine = Engine(tt_mb=4, threads=2)
    result = engine.play(draughts.Board(), draughts.Limit(nodes=limit))
    assert result.info.nodes <= limit
    assert result.info.nodes >= limit // 2  # the batches left unused are small
    assert result.move in draughts.Board().legal_moves


def test_threads_change_between_searches():
    engine = Engine("russian", tt_mb=8)
    board = draughts.Board(variant="russian")
    for n in (2, 4, 1, 3, 2):
        engine.configure({"threads": n})
        assert engine.threads == n
        result = engine.play(board, draughts.Limit(depth=6))
        assert result.move in board.legal_moves and result.info.depth == 6
        board.push(result.move)


def test_table_resize_with_threads():
    engine = Engine("international", tt_mb=8, threads=2)
    board = draughts.Board()
    engine.play(board, draughts.Limit(depth=6))
    engine.configure({"tt-size": 1})
    assert engine.play(board, draughts.Limit(depth=7)).move in board.legal_moves
    engine.configure({"tt-size": 32})
    engine.new_game()
    assert engine.play(board, draughts.Limit(movetime=0.1)).move in board.legal_moves


@pytest.mark.parametrize("bad", [0, -1, 1000, 2.0, "2", True])
def test_bad_thread_counts_are_refused(bad):
    with pytest.raises(DraughtsError, match="threads"):
        Engine(tt_mb=1, threads=bad)


def test_hub_threads_parameter():
    lines = []
    hub = HubServer(lines.append)
    hub.handle_line("hub")
    assert "param name=threads value=1 type=int min=1 max=256" in lines
    hub.handle_line("set-param name=threads value=2")
    hub.handle_line("init")
    assert lines[-1] == "ready"
    assert hub.engine().threads == 2
    hub.handle_line("set-param name=threads value=3")
    assert hub.engine().threads == 3
    hub.handle_line("set-param name=threads value=257")
    assert lines[-1].startswith("error") and "threads" in lines[-1]
    assert hub.engine().threads == 3


@pytest.mark.parametrize(
    "cpus,concurrency,pinned,expected",
    [
        (2, 1, False, 2),
        (2, 2, False, 1),
        (8, 3, False, 2),
        (2, 4, False, 1),
        (8, 1, True, 1),
    ],
)
def test_runner_threads_per_engine(cpus, concurrency, pinned, expected):
    assert engine_threads(cpus, concurrency, pinned) == expected


HUB = [f"cmd={sys.executable}", "arg=-m", "arg=draughts", "arg=hub"]


@pytest.mark.parametrize("concurrency,affinity", [(1, False), (2, False), (1, True)])
def test_runner_tells_each_engine_its_threads(concurrency, affinity):
    """A Hub engine that declares threads is told the processors of its game;
    option.threads wins; an in-process engine is given them too."""
    configs = [
        parse_engine(["name=hub", *HUB, "st=0.1"]),
        parse_engine(["name=own", *HUB, "st=0.1", "option.threads=3"]),
        parse_engine(["name=builtin", "proto=builtin", "st=0.1"]),
    ]
    settings = MatchSettings(engines=configs, variant="american", concurrency=concurrency, use_affinity=affinity)
    executor = LocalExecutor(settings, draughts.variant("american"))
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    want = 1 if affinity else max(1, cpus // concurrency)
    assert executor.pool.threads == want
    players = [executor.pool.acquire(i) for i in range(3)]
    try:
        assert players[0]._engine.params["threads"].value == str(want)
        assert players[1]._engine.params["threads"].value == "3"
        assert players[2]._engine.threads == want
    finally:
        executor.close()


def test_runner_leaves_node_limited_engines_alone():
    """depth= and nodes= games stay reproducible: no threads are given."""
    configs = [parse_engine(["name=n", *HUB, "nodes=1000"]), parse_engine(["name=b", "proto=builtin", "depth=3"])]
    executor = LocalExecutor(
        MatchSettings(engines=configs, variant="american", concurrency=1, use_affinity=False),
        draughts.variant("american"),
    )
    players = [executor.pool.acquire(i) for i in range(2)]
    try:
        assert players[0]._engine.params["threads"].value == "1"
        assert players[1]._engine.threads == 1
    finally:
        executor.close()

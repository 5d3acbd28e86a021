"""The search engine: legal moves everywhere, limits, stop, determinism, bench."""

import math
import random
import subprocess
import sys
import threading
import time
import zlib

import pytest

import draughts
from draughts import bench
from draughts.engine import Engine
from draughts.errors import DraughtsError

# Pinned bench signature (draughts bench, default depth and table size).
# A commit that changes it must say "Bench: N" in its message.
BENCH_NODES = 6863089


def random_positions(variant, count, seed):
    """Positions from random playouts, including ones with a single legal move
    and ones a move away from the end of the game.  Each playout runs up to 120
    plies or to the end of the game and keeps each position on its way with
    probability 1/8: 1,000 positions come from some 90 to 210 games a variant,
    at a few plies of playing each (one playout a position cost some 40)."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        board = draughts.Board(variant=variant)
        for _ in range(120):
            if board.is_game_over():
                break
            if rnd.randrange(8) == 0:
                out.append(board.copy())
                if len(out) == count:
                    break
            board.push(rnd.choice(list(board.legal_moves)))
    return out


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_engine_returns_a_legal_move_on_random_positions(variant):
    engine = Engine(variant, tt_mb=4)
    # a seed of the name's bytes: hash() of a str changes from run to run (PYTHONHASHSEED)
    positions = random_positions(variant, 1000, seed=zlib.crc32(variant.encode()))
    singles = ends = 0
    for board in positions:
        result = engine.play(board, draughts.Limit(depth=2))
        assert result.move is not None, board.fen()
        assert result.move in board.legal_moves, (board.fen(), result.move)
        if board.legal_moves.count() == 1:
            singles += 1
        child = board.copy()
        child.push(result.move)
        if child.is_game_over():
            ends += 1
    assert singles > 20, "the sample should hold positions with one legal move"
    assert ends > 0, "the sample should hold positions one move from the end"


@pytest.mark.parametrize("name", ["american", "russian", "italian"])
def test_engine_returns_a_legal_move_under_the_house_rule(name):
    """Captures optional: the horizon may stand pat, and every move is still legal."""
    variant = draughts.variant(name, mandatory_capture=False)
    engine = Engine(variant, tt_mb=4)
    declined = 0
    for board in random_positions(variant, 300, seed=7):
        result = engine.play(board, draughts.Limit(depth=3))
        assert result.move in board.legal_moves, (board.fen(), result.move)
        moves = list(board.legal_moves)
        if any(m.captured for m in moves) and not result.move.captured:
            declined += 1
    assert declined > 0, "somewhere declining a capture should be best"


@pytest.mark.parametrize(
    "variant,fen,winning",
    [
        # one move from the end: the capture takes the last piece
        ("international", "W:W28:B23", "28x19"),
        ("american", "B:W18:B14", "14x23"),
        ("russian", "W:Wc3:Bd4", "c3:e5"),
        ("italian", "W:W22:B18", "22x13"),
    ],
)
def test_engine_takes_the_last_piece(variant, fen, winning):
    board = draughts.Board(fen, variant=variant)
    result = Engine(variant, tt_mb=1).play(board, draughts.Limit(depth=3))
    assert board.move_text(result.move) == winning
    assert result.info.win_in == 1
    assert result.info.score == 99.99  # 100 less a hundredth per ply, as the Hub protocol
    child = board.copy()
    child.push(result.move)
    assert child.outcome().winner == board.turn


def test_single_legal_move_is_returned():
    board = draughts.Board("W:W28:B23,K5", variant="international")
    assert board.legal_moves.count() == 1
    assert Engine(tt_mb=1).play(board, draughts.Limit(depth=5)).move == list(board.legal_moves)[0]


def test_depth_limit_is_honoured_exactly():
    engine = Engine("russian", tt_mb=4)
    seen = []
    result = engine.play(
        draughts.Board(variant="russian"), draughts.Limit(depth=6), on_info=lambda i: seen.append(i.depth)
    )
    assert result.info.depth == 6
    assert seen == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("limit", [1, 500, 20000])
def test_node_limit_is_honoured_exactly(limit):
    engine = Engine(tt_mb=4)
    result = engine.play(draughts.Board(), draughts.Limit(nodes=limit))
    assert result.info.nodes <= limit
    assert result.move in draughts.Board().legal_moves


def test_movetime_ends_the_search_promptly():
    engine = Engine(tt_mb=4)
    t0 = time.perf_counter()
    result = engine.play(draughts.Board(), draughts.Limit(movetime=0.2))
    elapsed = time.perf_counter() - t0
    assert result.move is not None
    assert elapsed < 2.0  # a loose bound, not a benchmark


def test_stop_from_another_thread_ends_an_infinite_search():
    engine = Engine(tt_mb=4)
    box = {}

    def run():
        box["result"] = engine.play(draughts.Board(), draughts.Limit(infinite=True))

    worker = threading.Thread(target=run)
    worker.start()
    time.sleep(0.3)
    t0 = time.perf_counter()
    engine.stop()
    worker.join(5)
    assert not worker.is_alive()
    assert time.perf_counter() - t0 < 1.0
    assert box["result"].move in draughts.Board().legal_moves


def test_clock_search_uses_a_fraction_of_the_time():
    engine = Engine("american", tt_mb=4)
    soft, hard = Engine.time_budget(10.0, 0.1, None)
    assert 0 < soft <= hard <= 5.0
    t0 = time.perf_counter()
    engine.play(draughts.Board(variant="american"), draughts.Limit(time=1.0, inc=0.0))
    assert time.perf_counter() - t0 < 1.0


def test_same_search_after_new_game_gives_same_nodes():
    engine = Engine("spanish", tt_mb=8)
    board = draughts.Board(variant="spanish")
    engine.new_game()
    first = engine.play(board, draughts.Limit(depth=8)).info.nodes
    engine.new_game()
    second = engine.play(board, draughts.Limit(depth=8)).info.nodes
    assert first == second


def test_known_drawn_ending_scores_zero():
    # 2 kings against 1 with flying kings is a known draw
    board = draughts.Board("W:WK46,K5:BK50", variant="international")
    assert Engine(tt_mb=4).play(board, draughts.Limit(depth=6)).info.score == 0.0


def test_repetition_in_the_game_is_seen_in_the_search():
    """A lost side that can repeat the position for the third time scores a draw."""
    fen = "W:WK32:BK1,K2,K3"  # american: three kings beat one
    fresh = draughts.Board(fen, variant="american")
    # no database: it knows this ending is lost and nothing of repetitions
    lost = Engine("american", tt_mb=4, egdb=None).play(fresh, draughts.Limit(depth=8)).info.score
    assert lost < -1.0
    board = draughts.Board(fen, variant="american")
    for text in ("32-28", "1-5", "28-32", "5-1"):
        board.push_text(text)
    assert board.fen() == fresh.fen()
    result = Engine("american", tt_mb=4, egdb=None).play(board, draughts.Limit(depth=8))
    assert result.info.score == 0.0
    assert board.move_text(result.move) == "32-28"


def test_info_reports_every_iteration():
    infos = []
    Engine("czech", tt_mb=4).play(draughts.Board(variant="czech"), draughts.Limit(depth=5), on_info=infos.append)
    assert [i.depth for i in infos] == [1, 2, 3, 4, 5]
    for info in infos:
        assert info.nodes > 0 and info.pv and info.time >= 0


def test_strength_levels_limit_depth():
    weak = Engine("american", level=1, seed=1, tt_mb=2)
    result = weak.play(draughts.Board(variant="american"), draughts.Limit(depth=10))
    assert result.info.depth <= 2
    with pytest.raises(ValueError):
        Engine(level=0)
    with pytest.raises(ValueError):
        Engine(level=21)


def test_bad_limits_are_rejected():
    engine = Engine(tt_mb=1)
    for kwargs in ({"depth": 0}, {"nodes": -5}, {"movetime": -1}, {"time": "soon"}):
        with pytest.raises(ValueError):
            engine.play(draughts.Board(), draughts.Limit(**kwargs))
    with pytest.raises(ValueError):
        Engine(tt_mb=0)


def test_the_bench_covers_every_variant():
    # an opening, a middlegame and an endgame each, all legal and not over
    by_variant = {}
    for name, fen in bench.POSITIONS:
        board = draughts.Board(fen, variant=name)
        assert not board.is_game_over(), (name, fen)
        by_variant.setdefault(name, []).append(fen)
    assert sorted(by_variant) == sorted(draughts.VARIANTS)
    assert all(len(fens) == 3 for fens in by_variant.values())


def test_bench_signature_is_pinned():
    nodes, _ = bench.run()
    assert nodes == BENCH_NODES


@pytest.mark.parametrize(
    "kwargs",
    [
        {"time": math.nan},
        {"time": 1.0, "inc": math.nan},
        {"movetime": math.inf},
        {"movetime": -1.0},
        {"nodes": 2**64},
        {"depth": 2**31},
        {"depth": 0},
        {"nodes": True},
        {"moves_to_go": 2**40},
        {"start": math.nan},
    ],
)
def test_search_rejects_bad_limits_with_a_draughts_error(kwargs):
    engine = Engine("american", tt_mb=1)
    with pytest.raises(DraughtsError):
        if "start" in kwargs:
            engine.play(draughts.Board(variant="american"), draughts.Limit(depth=1), **kwargs)
        else:
            engine.play(draughts.Board(variant="american"), draughts.Limit(**kwargs))


def test_a_table_that_cannot_be_had_is_a_draughts_error_and_the_old_one_stays():
    # a real allocation failure, under an address-space limit, in a child process
    code = """
import resource, draughts
from draughts.errors import DraughtsError, TableMemoryError
engine = draughts.Engine("american", tt_mb=16)
resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))
try:
    engine.configure({"tt-size": 4000})
except TableMemoryError as e:
    assert isinstance(e, DraughtsError) and isinstance(e, ValueError), type(e)
    assert "4000 MiB" in str(e) and "keeping the 16 MiB" in str(e), str(e)
assert engine.tt_mb == 16
assert engine.play(draughts.Board(variant="american"), draughts.Limit(depth=3)).move is not None
try:
    draughts.Engine("american", tt_mb=4000)
except TableMemoryError as e:
    print("ok", e)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok cannot allocate a 4000 MiB")

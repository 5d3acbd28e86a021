"""Move generation and push/pop speed on capture-heavy positions (pytest-benchmark).

Run with ``python -m pytest benchmarks/ --benchmark-only``.  Timings are
reported, never asserted; the move counts are facts (perft(1) of the published
positions in tests/data/perft.json) and are checked.

Three levels are measured:

* the Python API, ``list(board.legal_moves)``.  A Board caches its legal move
  list, so every round gets a freshly built board
  (built in the untimed setup) and the round times one real generation,
  Move objects included;
* the core, ``board.position.moves()`` (tuples) and
  ``board.position.count_moves()`` (a count only; nothing is cached there);
* the Python API push/pop cycle, and the core's copy-make ``Position.play``.

``extra_info`` carries ``moves`` (legal moves in the position) and
``calls_per_s`` (1 / median time).
"""

import pytest

import draughts

ALL_KINGS = "W:{}:{}".format(
    "W" + ",".join(f"K{s}" for s in range(31, 51)),
    "B" + ",".join(f"K{s}" for s in range(1, 21)),
)

# id: (variant, FEN, legal moves with duplicates dropped)
POSITIONS = {
    # DCTL / FMJD forum t=2308 "Random178": 14 moves, 178 capture paths
    "intl-random178": ("international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", 14),
    # DCTL / FMJD forum t=2308: every piece a king
    "intl-allkings": ("international", ALL_KINGS, 17),
    # DCTL italian/gilbert.cpp "Italian 3": king-heavy, italian numbering
    "italian-kings": ("italian", "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", 13),
    # baseline: the international start, quiet moves only
    "intl-start": ("international", None, 9),
}
IDS = list(POSITIONS)

API_ROUNDS = 3000


def board_of(key):
    variant, fen, _ = POSITIONS[key]
    return draughts.Board(fen, variant=variant) if fen else draughts.Board(variant=variant)


def record_rate(benchmark, moves):
    benchmark.extra_info["moves"] = moves
    stats = getattr(getattr(benchmark, "stats", None), "stats", None)
    if stats is not None and stats.median > 0:
        benchmark.extra_info["calls_per_s"] = round(1 / stats.median)


@pytest.mark.parametrize("key", IDS)
def test_api_legal_moves(benchmark, key):
    """list(board.legal_moves) on a board that has not generated yet."""
    expected = POSITIONS[key][2]
    benchmark.group = "movegen: Python API list(board.legal_moves), fresh board"

    def setup():
        board = board_of(key)
        # nothing generated yet, so the round measures generation
        assert getattr(board, "_cache", None) is None
        return (board,), {}

    moves = benchmark.pedantic(lambda board: list(board.legal_moves), setup=setup, rounds=API_ROUNDS, warmup_rounds=10)
    assert len(moves) == expected
    record_rate(benchmark, expected)


@pytest.mark.parametrize("key", IDS)
def test_core_moves(benchmark, key):
    """Position.moves(): every legal move as a tuple (from, to, captured, promotion, path, code)."""
    expected = POSITIONS[key][2]
    pos = board_of(key).position
    benchmark.group = "movegen: core position.moves()"
    moves = benchmark(pos.moves)
    assert len(moves) == expected
    record_rate(benchmark, expected)


@pytest.mark.parametrize("key", IDS)
def test_core_count_moves(benchmark, key):
    """Position.count_moves(): the number of legal moves, no move objects."""
    expected = POSITIONS[key][2]
    pos = board_of(key).position
    benchmark.group = "movegen: core position.count_moves()"
    n = benchmark(pos.count_moves)
    assert n == expected
    record_rate(benchmark, expected)


@pytest.mark.parametrize("key", ["intl-start", "intl-random178"])
def test_api_push_pop(benchmark, key):
    """board.push(move); board.pop().  push checks the move against the legal set, so
    whatever the Board keeps across pop (or has to generate again) is part of the cycle."""
    board = board_of(key)
    move = list(board.legal_moves)[0]
    fen = board.fen()
    benchmark.group = "push/pop"

    def cycle():
        board.push(move)
        board.pop()

    benchmark(cycle)
    assert board.fen() == fen and board.ply == 0
    record_rate(benchmark, POSITIONS[key][2])


@pytest.mark.parametrize("key", ["intl-start", "intl-random178"])
def test_core_play(benchmark, key):
    """Position.play_code(): copy-make of one move in the core (no legality check)."""
    pos = board_of(key).position
    code = pos.moves()[0][-1]
    benchmark.group = "push/pop"
    child = benchmark(pos.play_code, code)
    assert child.turn != pos.turn
    record_rate(benchmark, POSITIONS[key][2])

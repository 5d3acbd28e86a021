"""Search speed (pytest-benchmark): nodes per second from the start position of
every variant at a fixed depth, and the depth reached in one second from the
international start.  Node counts are deterministic and reported; nothing is
asserted about time."""

import pytest

import draughts

DEPTHS = {
    "international": 12,
    "american": 14,
    "russian": 13,
    "brazilian": 13,
    "spanish": 13,
    "italian": 14,
    "czech": 13,
}


@pytest.mark.parametrize("variant", list(DEPTHS))
def test_search_nodes_per_second(benchmark, variant):
    board = draughts.Board(variant=variant)
    engine = draughts.Engine(variant, tt_mb=64)

    def run():
        engine.new_game()
        return engine.play(board, draughts.Limit(depth=DEPTHS[variant]))

    result = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["depth"] = DEPTHS[variant]
    benchmark.extra_info["nodes"] = result.info.nodes
    benchmark.extra_info["nodes_per_s"] = result.info.nodes / benchmark.stats.stats.median


def test_depth_in_one_second_international(benchmark):
    board = draughts.Board()
    engine = draughts.Engine(tt_mb=64)

    def run():
        engine.new_game()
        return engine.play(board, draughts.Limit(movetime=1.0))

    result = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["depth"] = result.info.depth
    benchmark.extra_info["seldepth"] = result.info.seldepth
    benchmark.extra_info["nodes_per_s"] = result.info.nps

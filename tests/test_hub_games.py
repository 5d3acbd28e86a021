"""The real `draughts hub` process, driven by our client, plays itself a whole
game of every variant at a small fixed depth; every move is checked legal by
our Board."""

import sys

import pytest

import draughts
from draughts.hub import HubEngine, Limit

MAX_PLIES = 400  # the draw rules end every game well before this


@pytest.fixture(scope="module")
def engine():
    with HubEngine([sys.executable, "-m", "draughts", "hub"], params={"tt-size": 8}) as engine:
        yield engine
    assert engine.returncode == 0


def play_game(engine, board, depth):
    engine.new_game()
    while board.outcome() is None:
        assert board.ply < MAX_PLIES, board.fen()
        legal = set(board.legal_moves)
        result = engine.play(board, Limit(depth=depth))
        assert result.move in legal
        assert result.move.hub() in {m.hub() for m in legal}
        assert not result.late
        if result.ponder is not None:
            after = board.copy()
            after.push(result.move)
            assert result.ponder in after.legal_moves
        board.push(result.move)
    return board


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_a_whole_game_of_every_variant(engine, variant):
    board = play_game(engine, draughts.Board(variant=variant), depth=3)
    assert board.ply > 10
    assert board.result() in board.variant.result_tokens
    assert engine.params["variant"].value == variant
    assert engine.stderr == []


def test_a_game_with_the_house_rule(engine):
    house = draughts.variant("american", mandatory_capture=False)
    board = play_game(engine, draughts.Board(variant=house), depth=2)
    assert board.outcome() is not None
    assert engine.params["mandatory-capture"].value == "false"
    # back to the standard rules for the next game
    play_game(engine, draughts.Board(variant="american"), depth=1)
    assert engine.params["mandatory-capture"].value == "true"

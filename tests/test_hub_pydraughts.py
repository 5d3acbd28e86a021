"""`set-param name=pydraughts value=true`: the 8x8 dialect of pydraughts' Hub client.

The reference is pydraughts 0.6.7's source (PyPI): `draughts/engines/hub.py`
sends `pos pos=<Game.initial_hub_fen> moves="<Move.hub_move> ..."`; on 8x8 the
start is always `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` (`core/game.py`,
`startpos_to_fen` and `li_fen_to_hub_fen`).  Its move numbers are the
variant's own (`convert.move_to_variant`): american numbers in english, and
in russian and brazilian numbers that count from a1 (`_numeric_to_algebraic_square`:
row = ceil(n / 4) - 1, column = 2 * ((n - 1) % 4) + (1 on odd rows)).  The
whole-game check against pydraughts itself is in test_hub_interop.py.
"""

import math
import re

import pytest

import draughts
from draughts.hub.protocol import parse_line
from draughts.notation import squares_of
from hub_scripts.transcript import ServerSession

PYDRAUGHTS_START_8X8 = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"


def pydraughts_russian_square(n: int) -> str:
    """pydraughts' russian/brazilian square number as an algebraic name."""
    row = math.ceil(n / 4) - 1
    column = 2 * ((n - 1) % 4) + (1 if row % 2 == 1 else 0)
    return "abcdefgh"[column] + str(row + 1)


@pytest.fixture
def hub():
    session = ServerSession()
    yield session
    session.close()


def _done(hub, *lines):
    hub.send(*lines)
    return parse_line(hub.until("done")[-1])[1]


def test_the_parameter_is_declared_and_off_by_default(hub):
    hub.send("hub")
    assert "param name=pydraughts value=false type=bool" in hub.until("wait")
    hub.send("set-param name=variant value=american", "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")
    assert hub.server.board.fen() == draughts.Board(variant="american").fen()


def test_pydraughts_names_international_standard(hub):
    hub.send("set-param name=variant value=standard")
    assert hub.server.variant.name == "international"


def test_english_start_and_moves(hub):
    hub.send("set-param name=pydraughts value=true", "set-param name=variant value=english")
    hub.send(f"pos pos={PYDRAUGHTS_START_8X8}")
    assert hub.server.board.fen() == draughts.Board(variant="american").fen()
    hub.send(f'pos pos={PYDRAUGHTS_START_8X8} moves="11-15 23-19 8-11"')
    expected = draughts.Board(variant="american")
    for text in ("11-15", "23-19", "8-11"):
        expected.push(expected.parse_move(text))
    assert hub.server.board.fen() == expected.fen()
    done = _done(hub, "level depth=3", "go think")
    move = expected.parse_move(done["move"])  # american numbers, White to move
    assert move in expected.legal_moves
    expected.push(move)
    assert expected.parse_move(done["ponder"]) in expected.legal_moves


def test_english_positions_are_turned_with_the_colours_exchanged(hub):
    # pydraughts' internal board: its "white" man on 29 and its "black" king on 4,
    # its white to move, is the real american Black man on 33-29 = 4 and White
    # king on 33-4 = 29, Black to move.
    hub.send("set-param name=variant value=english", "set-param name=pydraughts value=true")
    cells = ["e"] * 32
    cells[29 - 1] = "w"
    cells[4 - 1] = "B"
    hub.send("pos pos=W" + "".join(cells))
    assert hub.server.board.fen() == draughts.Board("B:WK29:B4", variant="american").fen()


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_russian_moves_count_from_a1(hub, variant):
    hub.send(f"set-param name=variant value={variant}", "set-param name=pydraughts value=true")
    # 11-15 is e3-f4 and 22-18 (square 22 = d6, 18 = c5) is d6-c5 in pydraughts' numbers
    assert (pydraughts_russian_square(11), pydraughts_russian_square(15)) == ("e3", "f4")
    hub.send(f'pos pos={PYDRAUGHTS_START_8X8} moves="11-15 22-18"')
    expected = draughts.Board(variant=variant)
    expected.push(expected.parse_move("e3-f4"))
    expected.push(expected.parse_move("d6-c5"))
    assert hub.server.board.fen() == expected.fen()
    done = _done(hub, "level depth=4", "go think")
    squares = squares_of(expected.variant)

    def name(number):
        return squares.name[squares.internal[number]]

    for key in ("move", "ponder"):
        start, end, *captured = [pydraughts_russian_square(int(n)) for n in re.split("[-x]", done[key])]
        found = [
            m
            for m in expected.legal_moves
            if (name(m.start), name(m.end)) == (start, end) and {name(c) for c in m.captured} == set(captured)
        ]
        assert len(found) == 1, (key, done[key], start, end, captured)
        expected.push(found[0])


def test_international_and_italian_are_unchanged(hub):
    hub.send("set-param name=pydraughts value=true", "set-param name=variant value=italian")
    hub.send(f'pos pos={PYDRAUGHTS_START_8X8} moves="21-17"')
    expected = draughts.Board(variant="italian")
    expected.push(expected.parse_move("21-17"))
    assert hub.server.board.fen() == expected.fen()
    hub.send("set-param name=variant value=standard", 'pos start moves="32-28"')
    assert hub.server.board.fen() == draughts.Board("B:W31,33-50,28:B1-20").fen()


def test_only_ascii_digits_are_square_numbers(hub):
    hub.send("set-param name=variant value=russian", "set-param name=pydraughts value=true")
    hub.send('pos start moves="١١-١٥"')  # Arabic-Indic 11-15 is not move text
    assert hub.read().startswith('error message="move 1 of moves:')
    # the rejected pos leaves the position as it was: the start, no move played
    assert hub.server.board.fen() == draughts.Board(variant="russian").fen()
    assert hub.server.board.move_stack == []

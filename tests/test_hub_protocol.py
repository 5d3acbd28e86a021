"""The Hub line codec shared by server and client: lines, positions, moves."""

import random

import pytest
from hypothesis import given, settings, strategies as st

import draughts
from draughts.errors import AmbiguousMoveError, HubPositionError, HubSyntaxError, IllegalMoveError, InvalidMoveError
from draughts.hub import protocol
from draughts.hub.protocol import (
    board_from_position,
    format_line,
    format_position,
    match_move,
    parse_line,
    parse_move,
    parse_position,
    root_board,
)

INTERNATIONAL_START = "W" + "b" * 20 + "e" * 10 + "w" * 20


# --- lines ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "line,command,args",
    [
        ("hub", "hub", {}),
        ("  ping  \r\n", "ping", {}),
        ("", "", {}),
        ("   ", "", {}),
        ("go think", "go", {"think": ""}),
        ("pos start", "pos", {"start": ""}),
        ("set-param name=variant value=russian", "set-param", {"name": "variant", "value": "russian"}),
        ("pos pos=W" + "e" * 50 + ' moves="32-28 19-23"', "pos", {"pos": "W" + "e" * 50, "moves": "32-28 19-23"}),
        ("error message=\"a = b, said 'x'\"", "error", {"message": "a = b, said 'x'"}),
        ('param name=book value="" type=string', "param", {"name": "book", "value": "", "type": "string"}),
        ("info depth=3 score=", "info", {"depth": "3", "score": ""}),
        ("level moves=40 time=60.5 inc=0.25", "level", {"moves": "40", "time": "60.5", "inc": "0.25"}),
        ("x a=b=c", "x", {"a": "b=c"}),  # lenient: '=' in a bare value
        ("x\ta=1\t\tb", "x", {"a": "1", "b": ""}),
        ("x a=1 a=2", "x", {"a": "2"}),  # the last value wins
        ("perft depth=3 divide", "perft", {"depth": "3", "divide": ""}),
    ],
)
def test_parse_line(line, command, args):
    assert parse_line(line) == (command, args)


def test_parse_line_keeps_the_order_of_args():
    _, args = parse_line('id name=x version=1 author="A B"')
    assert list(args) == ["name", "version", "author"]


@pytest.mark.parametrize(
    "line",
    [
        'error message="no end',  # unterminated quote
        "x =value",  # a value without a name
        'x a="b"c',  # text glued to a closing quote
        "a=b",  # the line starts with a pair, not a command
        '"quoted"',
        'x "y"',
    ],
)
def test_parse_line_rejects_malformed_lines(line):
    with pytest.raises(HubSyntaxError):
        parse_line(line)


def test_format_line_quotes_what_needs_quotes():
    assert format_line("hub") == "hub"
    assert format_line("go", [("think", None)]) == "go think"
    assert format_line("param", {"name": "book", "value": ""}) == 'param name=book value=""'
    assert format_line("info", {"pv": "32-28 19-23"}) == 'info pv="32-28 19-23"'
    assert format_line("error", {"message": "a=b"}) == 'error message="a=b"'
    assert format_line("param", {"value": True, "other": False}) == "param value=true other=false"
    assert format_line("x", {"n": 3, "f": 0.5}) == "x n=3 f=0.5"


def test_format_line_never_writes_two_lines_or_a_stray_quote():
    line = format_line("error", {"message": 'bad "move"\nsecond line\r\x00\x85\u2028end'})
    assert "\n" not in line and "\r" not in line
    assert len(line.splitlines()) == 1
    assert parse_line(line) == ("error", {"message": "bad 'move' second line    end"})


@pytest.mark.parametrize("name", ["", "a b", "a=b", 'a"', "a\n"])
def test_format_line_rejects_bad_words(name):
    with pytest.raises(ValueError):
        format_line(name)
    with pytest.raises(ValueError):
        format_line("x", {name: "1"})


_words = st.text(
    st.characters(blacklist_characters='="', blacklist_categories=("Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=12
).filter(lambda w: not any(c.isspace() for c in w))


@given(
    _words,
    st.lists(st.tuples(_words, st.one_of(st.none(), st.text(max_size=30))), max_size=6, unique_by=lambda kv: kv[0]),
)
@settings(max_examples=300, deadline=None)
def test_format_then_parse_round_trips(command, pairs):
    line = format_line(command, pairs)
    assert len(line.splitlines()) == 1
    got_command, got = parse_line(line)
    assert got_command == command
    assert list(got) == [k for k, _ in pairs]
    for name, value in pairs:
        # a flag reads back as "", a value as the writer cleaned it (no quote, no control character)
        assert got[name] == ("" if value is None else protocol._clean(value))


@given(st.text(max_size=80))
@settings(max_examples=300, deadline=None)
def test_parse_line_never_fails_but_with_a_syntax_error(text):
    try:
        command, args = parse_line(text)
    except HubSyntaxError:
        return
    assert isinstance(command, str) and all(isinstance(v, str) for v in args.values())


# --- positions -----------------------------------------------------------------


def test_the_international_start_is_scans_string():
    assert format_position(draughts.Board()) == INTERNATIONAL_START
    assert board_from_position(INTERNATIONAL_START, "international").fen() == draughts.Board().fen()
    assert board_from_position(INTERNATIONAL_START, "normal").variant.name == "international"


@pytest.mark.parametrize(
    "variant,start",
    [
        # 8x8: 33 characters, squares in the variant's own numbering (american grid for russian)
        ("american", "B" + "b" * 12 + "e" * 8 + "w" * 12),
        ("russian", "W" + "b" * 12 + "e" * 8 + "w" * 12),
        ("brazilian", "W" + "b" * 12 + "e" * 8 + "w" * 12),
        ("czech", "W" + "b" * 12 + "e" * 8 + "w" * 12),
        ("italian", "W" + "b" * 12 + "e" * 8 + "w" * 12),
        ("spanish", "W" + "w" * 12 + "e" * 8 + "b" * 12),  # spanish square 1 is on White's side
    ],
)
def test_8x8_start_positions(variant, start):
    board = draughts.Board(variant=variant)
    assert format_position(board) == start
    assert board_from_position(start, variant).fen() == board.fen()


def test_position_letters_follow_the_variant_numbering():
    board = draughts.Board("W:Wc3,Kd2:Bf6", variant="russian")  # c3 = 22, d2 = 26, f6 = 11
    text = format_position(board)
    assert len(text) == 33
    assert (text[22], text[26], text[11]) == ("w", "W", "b")
    assert text.count("e") == 29


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_positions_round_trip_on_random_boards(variant):
    rnd = random.Random(variant)
    for _ in range(30):
        board = draughts.Board(variant=variant)
        for _ in range(rnd.randrange(0, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rnd.choice(moves))
        text = format_position(board)
        assert len(text) == board.variant.squares + 1
        again = board_from_position(text, variant)
        # a Hub position (Scan's format) has no frisian king-move count: the
        # count comes back through `moves=` (the server replays the game)
        assert again.fen() == board.fen().split(":+")[0]
        assert format_position(again) == text
        white, black, kings, turn = parse_position(text, variant)
        assert turn == board.turn and len(white) + len(black) == len(board.pieces())


@pytest.mark.parametrize(
    "text,variant,words",
    [
        ("W" + "e" * 32, "international", "51 characters"),
        (INTERNATIONAL_START, "russian", "33 characters"),
        ("X" + "e" * 50, "international", "side to move"),
        ("w" + "e" * 50, "international", "side to move"),
        ("W" + "e" * 49 + "x", "international", "square 50"),
        ("W" + "e" * 49 + "0", "international", "square 50"),
    ],
)
def test_bad_positions_are_named(text, variant, words):
    with pytest.raises(HubPositionError, match=words):
        board_from_position(text, variant)


def test_root_board_takes_the_board_back():
    board = draughts.Board()
    board.push_text("32-28")
    board.push_text("19-23")
    root = root_board(board)
    assert root.fen() == draughts.Board().fen() and not root.move_stack
    assert len(board.move_stack) == 2


# --- moves ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,parsed",
    [
        ("32-28", (32, 28, ())),
        ("28x19x23", (28, 19, (23,))),
        ("1x1x7x8x9", (1, 1, (7, 8, 9))),
        (" 28X19X23 ", (28, 19, (23,))),
        ("28x19", (28, 19, ())),
    ],
)
def test_parse_move(text, parsed):
    assert parse_move(text) == parsed


@pytest.mark.parametrize(
    "text", ["", "32", "32-", "32--28", "32-28-23", "c3-d4", "28x", "x19", "32:28", "1234-1", "32 28", "0x-1"]
)
def test_parse_move_rejects_non_moves(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


def test_match_move_uses_the_captured_set_in_any_order():
    board = draughts.Board("W:W28,K48:B23,33,19,9,8", variant="international")
    moves = {m.hub(): m for m in board.legal_moves}
    assert moves
    for text, move in moves.items():
        squares = text.split("x")
        shuffled = "x".join(squares[:2] + list(reversed(squares[2:])))
        assert match_move(board, shuffled) == move
        assert move.hub() == text


def test_match_move_quiet_and_errors():
    board = draughts.Board()
    assert match_move(board, "32-28") == board.parse_move("32-28")
    with pytest.raises(IllegalMoveError):
        match_move(board, "32-26")
    with pytest.raises(IllegalMoveError):
        match_move(board, "32x28")  # not a capture
    with pytest.raises(InvalidMoveError):
        match_move(board, "e3-f4")
    board.push_text("32-28")
    board.push_text("19-23")
    with pytest.raises(IllegalMoveError):
        match_move(board, "28x19x24")  # wrong captured square
    with pytest.raises(InvalidMoveError):
        match_move(board, "28x19x23x23")  # a captured square twice
    assert match_move(board, "28x19x23").captured == (23,)
    assert match_move(board, "28x19").captured == (23,)  # lenient: the short form when unique


def test_match_move_reports_ambiguity_of_the_short_form():
    # the king on 47 ends on 26 by two captures with different captured sets
    board = draughts.Board("W:WK47:B9,21,22,42,43", variant="international")
    with pytest.raises(AmbiguousMoveError) as err:
        match_move(board, "47x26")
    assert sorted(m.hub() for m in err.value.candidates) == ["47x26x21x22x42", "47x26x9x21x42"]
    assert set(match_move(board, "47x26x42x22x21").captured) == {21, 22, 42}


@pytest.mark.parametrize("variant", ["russian", "brazilian", "czech", "italian", "spanish", "american"])
def test_8x8_moves_are_numeric(variant):
    board = draughts.Board(variant=variant)
    for m in board.legal_moves:
        text = m.hub()
        assert all(part.isdigit() for part in text.replace("x", "-").split("-"))
        assert match_move(board, text) == m

"""The 10x10 variants frisian, frysk, antidraughts, breakthrough and killer.

Perft against DCTL's published tables (tests/data/perft-variants10.json names
the sources), frysk's start against the reference generator, and one test for
every rule those variants add (the expected moves below are worked out by hand
from the rule texts named in draughts/variants.py).

Squares on the 10x10 board: square n is on row (n - 1) // 5 counted from the
top; even rows hold columns 1, 3, ..., 9, odd rows columns 0, 2, ..., 8.  Along
a row the next playing square is the next number (27, 28, 29 on row 5); along
a column it is ten numbers on (33, 23, 13 on column 5).
"""

import json
import os
import pathlib
import sys

import pytest

import draughts
from draughts import BLACK, WHITE, Board, Engine
from draughts.board import Termination
from draughts.egdb import rules_dir
from draughts.errors import EgdbError, FenError
from draughts.hub.protocol import engine_variant_name
from draughts.pdn import Game, read_game, write_game

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_movegen as R  # noqa: E402

DATA = json.loads((pathlib.Path(__file__).parent / "data" / "perft-variants10.json").read_text())
FAST_LEAVES = 10_000_000  # the deeper counts: benchmarks/perft_tables.py
NEW = ("frisian", "frysk", "antidraughts", "breakthrough", "killer")


def cases(section):
    for entry in DATA[section]:
        name = entry.get("name", "start")
        for depth, count in enumerate(entry["counts"], start=1):
            if count <= FAST_LEAVES:  # deeper: benchmarks/perft_tables.py
                yield pytest.param(entry, depth, count, id=f"{entry['variant']}-{name}-{entry['duplicates']}-d{depth}")


@pytest.mark.parametrize("entry,depth,expected", list(cases("start")))
def test_start_perft(entry, depth, expected):
    board = Board(variant=entry["variant"])
    assert board.perft(depth, duplicates=entry["duplicates"]) == expected


@pytest.mark.parametrize("entry,depth,expected", list(cases("positions")))
def test_published_position_perft(entry, depth, expected):
    board = Board(entry["fen"], variant=entry["variant"])
    assert board.perft(depth, duplicates=entry["duplicates"]) == expected


def test_frisian_duplicates_matter_at_depth_4():
    # DCTL's two frisian rows part at depth 4: orthogonal and diagonal lines
    # cross, so two-piece captures already have twins
    board = Board(variant="frisian")
    assert (board.perft(4, "keep"), board.perft(4, "drop")) == (3880, 3874)


@pytest.mark.parametrize("duplicates", ["drop", "keep"])
def test_frysk_start_against_the_reference(duplicates):
    board = Board(variant="frysk")
    assert board.fen() == "W:W46,47,48,49,50:B1,2,3,4,5"
    ref = R.start_position("frysk")
    assert [board.perft(d, duplicates) for d in range(1, 5)] == [
        R.perft(ref, d, "frysk", True, duplicates) for d in range(1, 5)
    ]


def moves(board):
    return sorted(str(m) for m in board.legal_moves)


# --- frisian: orthogonal captures --------------------------------------------


def test_frisian_man_captures_along_a_row_and_a_column():
    assert moves(Board("W:W28:B29", variant="frisian")) == ["28x30"]
    assert moves(Board("W:W33:B23", variant="frisian")) == ["33x13"]
    # backwards along a column too, and not in international
    assert moves(Board("W:W23:B33", variant="frisian")) == ["23x43"]
    assert "23x43" not in moves(Board("W:W23:B33", variant="international"))


def test_frisian_man_cannot_capture_across_the_row_end():
    # 30 ends row 5 and 31 starts row 6: not neighbours along a row
    assert all("x" not in m for m in moves(Board("W:W30:B31,1", variant="frisian")))


def test_frisian_flying_king_captures_orthogonally_and_moves_diagonally():
    # along row 8 over 43, up column 1 over 21
    board = Board("W:WK41:B43,21", variant="frisian")
    assert moves(board) == ["41x1", "41x11", "41x44", "41x45"]
    # quiet king moves stay on the diagonals
    assert moves(Board("W:WK46:B1", variant="frisian")) == [
        "46-10",
        "46-14",
        "46-19",
        "46-23",
        "46-28",
        "46-32",
        "46-37",
        "46-41",
        "46-5",
    ]


def test_frisian_chain_mixes_diagonal_and_orthogonal_jumps():
    # 33 takes 28 diagonally (landing 22), then 23 along row 4 (landing 24)
    board = Board("W:W33:B28,23", variant="frisian")
    move = board.parse_move("33x22x24")
    assert sorted(move.captured) == [23, 28]
    assert moves(board) == ["33x22x24"]


def test_frisian_full_path_with_an_orthogonal_segment_reads_back():
    board = Board("W:W33:B28,23", variant="frisian")
    assert board.parse_move("33x22x24") is not None
    assert str(board.push_text("33x22x24")) == "33x22x24"


# --- frisian: capture value ----------------------------------------------------


def test_frisian_a_king_is_worth_more_than_a_man():
    # 33x13 takes a king, 36x27 a man
    assert moves(Board("W:W33,36:BK23,31", variant="frisian")) == ["33x13"]
    # international: no capture along a column
    assert moves(Board("W:W33,36:BK23,31", variant="international")) == ["36x27"]


def test_frisian_two_men_are_worth_more_than_a_king():
    # 36x27x16 takes two men, 33x13 one king: value 2 against 2 - epsilon
    assert moves(Board("W:W33,36:BK23,31,21", variant="frisian")) == ["36x27x16"]


def test_frisian_equal_value_a_king_must_capture():
    # king 46 takes 41 (landing 37 to 19: the white man on 14 blocks), the
    # man 14 takes 9: one man each, so the king
    board = Board("W:WK46,14:B41,9", variant="frisian")
    got = moves(board)
    assert got == ["46x19", "46x23", "46x28", "46x32", "46x37"]
    assert moves(Board("W:WK46,14:B41,9", variant="international")) == sorted(got + ["14x3"])


# --- frisian: three quiet moves in a row with one king ---------------------------


def test_frisian_a_king_stops_after_three_quiet_moves_while_men_remain():
    board = Board("W:WK46,50:B1", variant="frisian")
    for white, black in (("46-41", "1-7"), ("41-46", "7-12"), ("46-41", "12-18")):
        board.push_text(white)
        board.push_text(black)
    assert board.king_moves()[WHITE] == (3, 41)
    assert board.fen() == "W:WK41,50:B18:+0+341"
    # only the man may move now
    assert moves(board) == ["50-44", "50-45"]
    board.push_text("50-44")
    assert board.king_moves()[WHITE] == (0, None)
    board.push_text("18-22")
    assert "41-46" in moves(board)


def test_frisian_another_king_starts_a_new_count():
    board = Board("W:WK46,K48,50:B1:+0+246", variant="frisian")
    board.push_text("48-42")
    assert board.king_moves()[WHITE] == (1, 42)


def test_frisian_a_counted_king_may_still_capture():
    board = Board("W:WK46,50:B26,1:+0+346", variant="frisian")
    assert moves(board) == ["46x16", "46x6"]


def test_frisian_count_does_not_apply_with_only_kings():
    # the count is dropped for a side with no men: the king moves freely
    board = Board("W:WK46:B1:+0+346", variant="frisian")
    assert board.king_moves()[WHITE] == (0, None)
    assert len(moves(board)) == 9


def test_frisian_count_is_part_of_the_position():
    a = Board("W:WK46,50:B1:+0+246", variant="frisian")
    b = Board("W:WK46,50:B1", variant="frisian")
    assert a.position != b.position and a.position.key() != b.position.key()
    assert Board(a.fen(), variant="frisian").position == a.position


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK46,50:B1:+0+446",
        "W:WK46,50:B1:+0+3",
        "W:WK46,50:B1:+0+345",
        "W:WK46,50:B1:+0+346:+0+0",
        "W:WK46,50:B1:+x+1",
    ],
)
def test_frisian_bad_king_move_fields_are_errors(fen):
    with pytest.raises(FenError):
        Board(fen, variant="frisian")


def test_frisian_engine_respects_the_count():
    board = Board("W:WK46,50:B1:+0+346", variant="frisian")
    result = Engine(variant="frisian").play(board, draughts.Limit(depth=4))
    assert str(result.move) in ("50-44", "50-45")


# --- frisian: draws ---------------------------------------------------------------

SHUFFLE = ("46-41", "1-7", "41-46", "7-1")  # no capture for either side on the way


@pytest.mark.parametrize("fen,plies", [("W:WK46:BK1", 4), ("W:WK46,K50:BK1", 14)])
def test_frisian_king_endings_are_drawn_after_their_moves(fen, plies):
    # one king against one: 2 moves each; two kings against one: 7 moves each
    # (repetitions off, so that the shuffle may go on)
    board = Board(fen, variant=draughts.variant("frisian", repetitions=0))
    for ply in range(plies):
        assert board.outcome() is None, ply
        board.push_text(SHUFFLE[ply % 4])
    outcome = board.outcome()
    assert outcome.termination is Termination.MOVE_COUNT and outcome.winner is None
    # with a man on the board the count does not run (5 plies: past the one
    # against one limit, and the king's three moves in a row)
    board = Board("W:WK46,50:BK1", variant=draughts.variant("frisian", repetitions=0))
    for ply in range(5):
        board.push_text(SHUFFLE[ply % 4])
    assert board.outcome() is None


# --- killer ------------------------------------------------------------------------


def test_killer_king_lands_directly_behind_a_king_taken_last():
    assert moves(Board("W:WK46:BK37", variant="killer")) == ["46x32"]
    assert moves(Board("W:WK46:BK37", variant="international")) == [
        "46x10",
        "46x14",
        "46x19",
        "46x23",
        "46x28",
        "46x32",
        "46x5",
    ]
    # a man taken last: any square behind
    assert len(moves(Board("W:WK46:B37", variant="killer"))) == 7


def test_killer_rule_only_at_the_end_of_the_capture():
    # the king takes the king on 37, may not stop but goes on from 28 over
    # the man on 22 (to 17 or 11): the halt applies to the last piece only
    board = Board("W:WK46:BK37,22", variant="killer")
    assert moves(board) == ["46x28x11", "46x28x17", "46x28x6"]


# --- antidraughts ----------------------------------------------------------------


def test_antidraughts_side_without_pieces_or_moves_wins():
    outcome = Board("W:W:B1", variant="antidraughts").outcome()
    assert outcome.termination is Termination.NO_PIECES and outcome.winner == WHITE
    assert Board("W:W:B1", variant="international").outcome().winner == BLACK


def test_antidraughts_blocked_side_to_move_wins():
    board = Board("W:W46:B41,37", variant="antidraughts")
    assert not list(board.legal_moves)
    outcome = board.outcome()
    assert outcome.termination is Termination.NO_MOVES and outcome.winner == WHITE
    assert Board("W:W46:B41,37", variant="international").outcome().winner == BLACK


def test_antidraughts_engine_gives_its_last_man_away():
    board = Board("W:W33:B22,1,2", variant="antidraughts")
    result = Engine(variant="antidraughts").play(board, draughts.Limit(depth=4))
    assert str(result.move) == "33-28"
    assert result.info.win_in is not None and result.info.win_in > 0


# --- breakthrough ------------------------------------------------------------------


def test_breakthrough_first_king_wins():
    board = Board("W:W6,40:B45", variant="breakthrough")
    board.push_text("6-1")
    assert not list(board.legal_moves)
    outcome = board.outcome()
    assert outcome.termination is Termination.KING_CROWNED and outcome.winner == WHITE
    assert board.result() == "2-0"


def test_breakthrough_engine_crowns_at_once():
    board = Board("W:W6,31:B45", variant="breakthrough")
    result = Engine(variant="breakthrough").play(board, draughts.Limit(depth=3))
    assert str(result.move) in ("6-1", "6-2")
    assert result.info.win_in == 1


def test_breakthrough_perft_stops_at_a_crowning():
    # 6-1 (the man's one move) ends the game; in international Black's man
    # on 44 has two moves
    board = Board("W:W6:B44", variant="breakthrough")
    assert board.perft(1) == 1
    assert board.perft(2) == 0
    assert Board("W:W6:B44", variant="international").perft(2) == 2


# --- names, files, tools -------------------------------------------------------------


@pytest.mark.parametrize(
    "name,expected",
    [
        ("losing", "antidraughts"),
        ("bt", "breakthrough"),
        ("frisian", "frisian"),
        ("killer", "killer"),
        ("frysk!", "frysk"),
        ("antidraughts", "antidraughts"),
    ],
)
def test_names_and_aliases(name, expected):
    assert draughts.variant(name).name == expected


def test_hub_uses_scans_names():
    scan = ["normal", "killer", "bt", "frisian", "losing"]
    got = {v: engine_variant_name(draughts.variant(v), scan) for v in NEW}
    assert got == {
        "frisian": "frisian",
        "frysk": None,
        "antidraughts": "losing",
        "breakthrough": "bt",
        "killer": "killer",
    }


@pytest.mark.parametrize(
    "gametype,name",
    [("40", "frisian"), ("97", "frysk"), ("98", "antidraughts"), ("96", "breakthrough"), ("20", "international")],
)
def test_pdn_gametypes(gametype, name):
    assert draughts.variant_for_gametype(gametype).name == name


@pytest.mark.parametrize("variant", NEW)
def test_pdn_round_trip(variant):
    board = Board(variant=variant)
    engine = Engine(variant=variant)
    for _ in range(6):
        board.push(engine.play(board, draughts.Limit(depth=2)).move)
    text = write_game(Game.from_board(board))
    game = read_game(text, variant=variant)
    assert game.variant.name == variant
    assert [str(m) for m in game.moves] == [str(m) for m in board.move_stack]


def test_pdn_frisian_orthogonal_capture_reads_back():
    board = Board("W:W33:B28,23,1", variant="frisian")
    board.push_text("33x24")
    game = read_game(write_game(Game.from_board(board)))
    assert game.variant.name == "frisian" and game.end().fen() == board.fen()


@pytest.mark.parametrize("variant", NEW)
def test_svg_draws_every_new_variant(variant):
    text = draughts.svg.board(Board(variant=variant))
    assert text.startswith("<svg") and text.count("<circle") >= 10


@pytest.mark.parametrize("variant", ["frisian", "killer", "antidraughts"])
def test_no_endgame_databases_for_these_rules(variant, tmp_path):
    with pytest.raises(EgdbError):
        rules_dir(draughts.variant(variant), str(tmp_path))
    # an engine given a database directory plays on without one
    engine = Engine(variant=variant, egdb=str(tmp_path))
    assert engine.egdb is None


def test_pdn_killer_is_named_by_a_variant_tag():
    board = Board("W:WK46:BK37,1", variant="killer")
    board.push_text("46x32")
    text = write_game(Game.from_board(board))
    assert '[GameType "20,W,10,10,N2,0"]' in text and '[Variant "killer"]' in text
    assert read_game(text).variant.name == "killer"
    # without the tag, GameType 20 is international
    assert read_game(text.replace('[Variant "killer"]\n', "")).variant.name == "international"

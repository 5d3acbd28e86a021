"""One test (or more) for every rule of pool (APCA American pool checkers) and
thai (Mak-hos) that the other 8x8 variants do not share.

Both play on the american grid (see tests/test_rules.py for the diagram)::

     8    1     2     3     4          b8  d8  f8  h8
     7 5     6     7     8          a7  c7  e7  g7
     6    9    10    11    12          b6  d6  f6  h6
     5 13    14    15    16          a5  c5  e5  g5
     4    17    18    19    20          b4  d4  f4  h4
     3 21    22    23    24          a3  c3  e3  g3
     2    25    26    27    28          b2  d2  f2  h2
     1 29    30    31    32          a1  c1  e1  g1

Expected move sets are worked out by hand as (start, end, sorted captured).
"""

import pytest

import draughts
from draughts import BLACK, WHITE, Board, Piece, Termination


def make(fen, variant, **options):
    return Board(fen, variant=draughts.variant(variant, **options))


def triples(board):
    return sorted((m.start, m.end, tuple(sorted(m.captured))) for m in board.legal_moves)


# --- both ----------------------------------------------------------------------


@pytest.mark.parametrize("variant,men,rows,first,gametype", [("pool", 12, 3, BLACK, 23), ("thai", 8, 2, WHITE, 31)])
def test_start_position_and_first_player(variant, men, rows, first, gametype):
    board = Board(variant=variant)
    assert board.turn == first
    pieces = board.pieces()
    white = sorted(s for s, p in pieces.items() if p == Piece(WHITE, False))
    black = sorted(s for s, p in pieces.items() if p == Piece(BLACK, False))
    assert black == list(range(1, men + 1))
    assert white == list(range(33 - men, 33))
    assert len(pieces) == 2 * men == 2 * rows * 4
    assert board.variant.gametype == gametype
    assert draughts.variant_for_gametype(gametype).name == variant


@pytest.mark.parametrize(
    "alias,name", [("american-pool", "pool"), ("pool-checkers", "pool"), ("makhos", "thai"), ("Mak-hos", "thai")]
)
def test_aliases(alias, name):
    assert draughts.variant(alias).name == name


@pytest.mark.parametrize("variant", ["pool", "thai"])
def test_capture_is_compulsory(variant):
    # white d4 (18) before black e5 (15), f6 empty: the capture is the only move
    assert triples(make("W:W18,30:B15", variant)) == [(18, 11, (15,))]


@pytest.mark.parametrize("variant", ["pool", "thai"])
def test_free_choice_between_a_short_and_a_long_capture(variant):
    # d4 takes c5 (one piece) or e5 and then e7 (two pieces): no majority rule
    assert triples(make("W:W18:B14,15,7", variant)) == [(18, 2, (7, 15)), (18, 9, (14,))]
    assert triples(make("W:W18:B14,15,7", "russian", majority_capture=True)) == [(18, 2, (7, 15))]


# --- pool ----------------------------------------------------------------------


def test_pool_men_capture_backwards():
    # white d4 (18) takes black c3 (22) backwards, landing on b2 (25)
    assert triples(make("W:W18:B22", "pool")) == [(18, 25, (22,))]
    assert triples(make("W:W18:B22", "american")) == [(18, 14, ()), (18, 15, ())]


def test_pool_kings_fly():
    # the king on a1 runs the long diagonal up to h8
    assert triples(make("W:WK29:B1", "pool")) == [(29, e, ()) for e in (4, 8, 11, 15, 18, 22, 25)]


def test_pool_flying_king_captures_at_distance_and_lands_anywhere_behind():
    assert triples(make("W:WK29:B18", "pool")) == [(29, e, (18,)) for e in (4, 8, 11, 15)]


def test_pool_no_crowning_in_passing():
    # white c7 (6)... the man on e7 (11 is f6; 7 is e7): f6 takes e7, reaches d8 (2)
    # and goes on backwards as a man over c7 (6) to b6 (9): not crowned
    board = make("W:W11:B7,6", "pool")
    assert triples(board) == [(11, 9, (6, 7))]
    move = next(iter(board.legal_moves))
    assert not move.promotion
    board.push(move)
    assert board.piece_at(9) == Piece(WHITE, False)


def test_pool_crowned_when_the_capture_ends_on_the_far_row():
    board = make("W:W11:B7", "pool")
    assert triples(board) == [(11, 2, (7,))]
    assert next(iter(board.legal_moves)).promotion


def test_pool_captured_pieces_stay_until_the_move_ends():
    # the king on b2 takes d4, g5, g3 and lands on f2 or e1; from f2 the line up-left
    # meets d4 again, still on the board: it is neither taken twice nor passed (c5)
    fen = "W:WK25:B18,16,24,14"
    moves = [(25, 27, (16, 18, 24)), (25, 28, (18, 24)), (25, 31, (16, 18, 24))]
    assert triples(make(fen, "pool")) == moves
    # removed at once, d4's square is empty: the king passes it and takes c5 too
    assert triples(make(fen, "pool", remove_at_once=True)) == [
        (25, 5, (14, 16, 18, 24)),
        (25, 9, (14, 16, 18, 24)),
        (25, 28, (18, 24)),
    ]


def test_pool_fifteen_king_moves_each_draw():
    """DCTL rules/pool.hpp (APCA rule 26): 30 reversible plies, king moves with
    no capture, are a draw; a man move resets the count."""
    shuttle = ["30-26", "3-7", "26-30", "7-3"]
    board = make("W:WK30,21:BK3,12", "pool", repetitions=0)
    for ply in range(29):
        board.push(board.parse_move(shuttle[ply % 4]))
        assert board.outcome() is None
    board.push(board.parse_move(shuttle[29 % 4]))
    assert board.outcome().termination == Termination.MOVE_COUNT
    # a man move on the way starts the count again
    board = make("W:WK30,21:BK3,12", "pool", repetitions=0)
    for ply in range(29):
        board.push(board.parse_move(shuttle[ply % 4]))
    board.push(board.parse_move("12-16"))
    assert board.outcome() is None


def test_pool_three_kings_against_one_win_within_thirteen_moves():
    """APCA: three kings against a lone king must win within 13 moves each
    (26 plies from the moment the material arises), else the game is drawn."""
    white = ["32-27", "27-32"]
    black = ["4-8", "8-4"]
    board = make("W:WK30,K31,K32:BK4", "pool", repetitions=0)
    for ply in range(25):
        board.push(board.parse_move((white if ply % 2 == 0 else black)[(ply // 2) % 2]))
        assert board.outcome() is None, ply
    board.push(board.parse_move(black[(25 // 2) % 2]))
    outcome = board.outcome()
    assert outcome.termination == Termination.MOVE_COUNT and "13" in outcome.reason
    # two kings against one: no such rule (only the 15-move king-move rule, at 30 plies)
    board = make("W:WK31,K32:BK4", "pool", repetitions=0)
    for ply in range(26):
        board.push(board.parse_move((white if ply % 2 == 0 else black)[(ply // 2) % 2]))
    assert board.outcome() is None


# --- thai ----------------------------------------------------------------------


def test_thai_men_capture_forward_only():
    assert triples(make("W:W18:B22", "thai")) == [(18, 14, ()), (18, 15, ())]


def test_thai_black_man_captures_forward_only():
    # black c5 (14) takes d4 (18) downwards; white b6 (9) behind it is not taken
    assert triples(make("B:W18,9:B14", "thai")) == [(14, 23, (18,))]


def test_thai_kings_fly():
    assert triples(make("W:WK29:B1", "thai")) == [(29, e, ()) for e in (4, 8, 11, 15, 18, 22, 25)]


def test_thai_king_lands_directly_behind_the_piece_it_takes():
    # a1 sees d4 across b2 and c3 and takes it, landing on e5 only (russian: e5-h8)
    assert triples(make("W:WK29:B18", "thai")) == [(29, 15, (18,))]
    assert triples(make("W:WK29:B18", "russian")) == [(29, e, (18,)) for e in (4, 8, 11, 15)]


def test_thai_king_goes_on_only_from_the_square_behind():
    # russian: the king must land on f6 (11), the one square from which it takes g5
    # (16); in thai it stands on e5 and sees nothing more
    assert triples(make("W:WK29:B18,16", "russian")) == [(29, 20, (16, 18))]
    assert triples(make("W:WK29:B18,16", "thai")) == [(29, 15, (18,))]


def test_thai_king_goes_straight_on_from_the_square_behind():
    # from e5 the king flies on over f6 to take g7 (8), landing on h8 (4)
    assert triples(make("W:WK29:B18,8", "thai")) == [(29, 4, (8, 18))]


def test_thai_captured_pieces_leave_at_once_and_the_king_may_turn_back():
    # the king on c3 (22) takes d4 and lands on e5, turns back over the emptied d4
    # and its own start to take b2 (25), landing on a1; or the other way round
    board = make("W:WK22:B18,25", "thai")
    assert triples(board) == [(22, 15, (18, 25)), (22, 29, (18, 25))]
    # under the Turkish strike (russian) the king may not turn back over d4
    assert triples(make("W:WK22:B18,25", "russian")) == sorted(
        [(22, 29, (25,))] + [(22, e, (18,)) for e in (4, 8, 11, 15)]
    )
    board.push(next(m for m in board.legal_moves if m.end == 29))
    assert board.pieces() == {29: Piece(WHITE, True)}


def test_thai_man_reaching_the_far_row_in_a_capture_is_crowned_and_stops():
    # f6 takes e7 to d8 and is crowned; c7 behind is not taken (a king could go on)
    board = make("W:W11:B7,6", "thai")
    assert triples(board) == [(11, 2, (7,))]
    assert next(iter(board.legal_moves)).promotion


def test_thai_three_piece_capture_in_two_orders_is_one_move():
    """The king on e3 (23) takes d4, h2 and b6 ending on a7 (5), or h2, d4 and b6:
    the same move (start, end, captured set), counted once with duplicates
    dropped and twice when every path is kept."""
    board = make("W:WK23:BK2,K9,18,K27", "thai")
    assert triples(board) == [(23, 5, (9, 18, 27)), (23, 32, (9, 18, 27))]
    assert board.perft(1) == 2
    assert board.perft(1, duplicates="keep") == 3


def test_thai_two_kings_catch_a_lone_king():
    """The reason for the landing rule: a king that must stop right behind the
    piece it takes can be caught; here the black king on h8 must take g7 and
    stop on f6, where the white king on a1 takes it."""
    board = make("B:WK29,8:BK4", "thai")
    assert triples(board) == [(4, 11, (8,))]
    board.push(next(iter(board.legal_moves)))
    assert triples(board) == [(29, 8, (11,))]

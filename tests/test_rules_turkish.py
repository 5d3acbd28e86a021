"""One test (or more) for every rule of turkish draughts (Dama), on the
orthogonal board: every square is played on, squares are written a1..h8 (or
pydraughts' numbers 1..64 from a8 along the rows).  Expected move sets are
worked out by hand as (start, end, sorted captured) in algebraic names."""

import pytest

import draughts
from draughts import BLACK, WHITE, Board, Piece


def make(fen, **options):
    return Board(fen, variant=draughts.variant("turkish", **options))


def triples(board):
    name = lambda n: draughts.notation.square_text(board.variant, board._squares.internal[n])  # noqa: E731
    return sorted((name(m.start), name(m.end), tuple(sorted(name(c) for c in m.captured))) for m in board.legal_moves)


def quiet(start, *ends):
    return sorted((start, e, ()) for e in ends)


def test_start_position():
    board = Board(variant="turkish")
    assert board.turn == WHITE
    pieces = board.pieces()
    white = {n for n, p in pieces.items() if p == Piece(WHITE, False)}
    black = {n for n, p in pieces.items() if p == Piece(BLACK, False)}
    # pydraughts' numbering: 1..64 from a8; White on the second and third rows
    assert white == set(range(41, 57)) and black == set(range(9, 25))
    assert board.fen().startswith("W:Wa3,b3,c3,")
    assert board.variant.gametype == 30 and draughts.variant_for_gametype("30").name == "turkish"
    assert Board("W:W41-56:B9-24", variant="turkish").fen() == board.fen()


def test_men_move_forward_and_sideways_only():
    assert triples(make("W:Wd4:Bh8")) == quiet("d4", "c4", "d5", "e4")
    assert triples(make("B:Wa1:Bd5")) == quiet("d5", "c5", "d4", "e5")
    assert triples(make("W:Wa4:Bh8")) == quiet("a4", "a5", "b4")


def test_kings_fly_along_rows_and_columns():
    ends = [f"{c}4" for c in "abcefgh"] + [f"d{r}" for r in (1, 2, 3, 5, 6, 7, 8)]
    assert triples(make("W:WKd4:Bh8")) == sorted(quiet("d4", *ends) + [])


@pytest.mark.parametrize(
    "fen,expected",
    [
        ("W:Wd4:Bd5", [("d4", "d6", ("d5",))]),  # forward
        ("W:Wd4:Bc4", [("d4", "b4", ("c4",))]),  # sideways
        ("W:Wd4:Be4", [("d4", "f4", ("e4",))]),
        ("W:Wd4:BKd5", [("d4", "d6", ("d5",))]),  # men take kings
    ],
)
def test_men_capture_forward_and_sideways(fen, expected):
    assert triples(make(fen)) == expected


def test_men_never_capture_backwards_or_diagonally():
    assert triples(make("W:Wd4:Bd3")) == quiet("d4", "c4", "d5", "e4")
    assert triples(make("W:Wd4:Be5")) == quiet("d4", "c4", "d5", "e4")


def test_capture_is_compulsory_and_the_most_pieces_must_be_taken():
    # d4 takes e4 alone, or d5 and then c6 (two pieces): the two-piece capture only
    assert triples(make("W:Wd4:Bd5,c6,e4")) == [("d4", "b6", ("c6", "d5"))]


def test_king_captures_at_distance_and_lands_anywhere_behind():
    assert triples(make("W:WKa1:Ba5")) == [("a1", e, ("a5",)) for e in ("a6", "a7", "a8")]


def test_capturing_piece_never_turns_back():
    # the king on d4 takes d6 (landing d7 or d8) or d2 (landing d1); turning back
    # over the emptied d6 to take d2 as well is not allowed
    assert triples(make("W:WKd4:Bd6,d2")) == [("d4", "d1", ("d2",)), ("d4", "d7", ("d6",)), ("d4", "d8", ("d6",))]
    assert triples(make("W:WKd4:Bd6,d2", no_turn_back=False)) == sorted(
        [("d4", "d1", ("d2", "d6"))] + [("d4", e, ("d2", "d6")) for e in ("d7", "d8")]
    )


def test_captured_pieces_leave_the_board_at_once():
    """The king on h3 takes h5 first and comes back to land on its square: only
    possible because h5 left the board when it was taken."""
    fen = "W:WKh3:Bd8,b6,g5,h5,g2"
    assert triples(make(fen)) == [("h3", "h2", ("b6", "d8", "g2", "h5")), ("h3", "h5", ("b6", "d8", "g5", "h5"))]
    assert triples(make(fen, remove_at_once=False)) == [("h3", "h2", ("b6", "d8", "g2", "h5"))]


def test_a_piece_is_not_taken_twice():
    # a1 takes a4 up and, from a6, c6 to the right; the emptied a4 and c6 are
    # never taken again, and no other piece is left: two pieces, five landings
    board = make("W:WKa1:Ba4,c6")
    assert triples(board) == [("a1", f"{c}6", ("a4", "c6")) for c in "defgh"]


def test_man_crowned_at_the_end_of_a_capture_through_the_last_row():
    # d6 takes d7 to d8 and goes on sideways as a man over c8 to b8: crowned there
    board = make("W:Wd6:Bd7,c8")
    assert triples(board) == [("d6", "b8", ("c8", "d7"))]
    move = next(iter(board.legal_moves))
    assert move.promotion
    board.push(move)
    assert board.piece_at(2) == Piece(WHITE, True)


def test_man_on_the_last_row_goes_on_as_a_man_not_a_king():
    # from d8 a king would see b8 across c8 and take it; the man cannot
    board = make("W:Wd6:Bd7,b8")
    assert triples(board) == [("d6", "d8", ("d7",))]
    assert next(iter(board.legal_moves)).promotion


def test_quiet_man_move_to_the_last_row_crowns():
    board = make("W:Wd7:Bh2")
    assert [m.promotion for m in board.legal_moves if m.end == 4] == [True]


def test_duplicate_conventions():
    """The king on a1 takes a3, lands on a4, a5 or a6 and goes on straight to
    take a7: one move (duplicates dropped), three paths when every landing
    square counts (the kish crate's convention for its perft)."""
    board = make("W:WKa1:Ba3,a7")
    assert triples(board) == [("a1", "a8", ("a3", "a7"))]
    assert board.perft(1) == 1
    assert board.perft(1, duplicates="keep") == 3


def test_the_classic_evaluation_plays():
    engine = draughts.Engine(variant="turkish", eval="classic")
    board = make("W:WKa1:Ba3,a7")
    result = engine.play(board, draughts.Limit(depth=2))
    assert result.move in list(board.legal_moves)


def test_a_position_repeated_through_sideways_man_moves_draws():
    """The third repetition draws (the variant's only draw rule).  A man's move
    along its row can be undone by the next one, so it does not end the
    repetition window as a move forward or a capture does."""
    board = make("W:WKa1:Bd5")
    shuffle = ["a1-a2", "d5-e5", "a2-a1", "e5-d5"]
    for i, text in enumerate(shuffle * 2, start=1):
        board.push(text)
        assert (board.outcome() is None) == (i < 8), i
    assert board.outcome().termination == draughts.Termination.REPETITION
    assert board.result() == "1/2-1/2"
    # a move forward (d5-d4) is irreversible: the count starts again
    board = make("W:WKa1:Bd5")
    for text in shuffle + ["a1-a2", "d5-d4", "a2-a1", "d4-e4", "a1-a2", "e4-d4", "a2-a1"]:
        board.push(text)
    assert board.outcome() is None and board.quiet_plies == 5


def test_the_search_sees_a_repetition_through_sideways_man_moves():
    """A lost side that can repeat the position scores a draw, also when its
    moves in between were a man's sideways moves."""
    fen = "B:WKa1,Kh8:Bd5"  # two kings beat a man
    engine = draughts.Engine(variant="turkish", tt_mb=4)
    assert engine.play(make(fen), draughts.Limit(depth=6)).info.score < -1.0
    board = make(fen)
    for text in ("d5-e5", "a1-a2", "e5-d5", "a2-a1"):
        board.push(text)
    assert board.fen() == make(fen).fen()
    result = draughts.Engine(variant="turkish", tt_mb=4).play(board, draughts.Limit(depth=6))
    assert result.info.score == 0.0
    assert board.move_text(result.move) == "d5-e5"

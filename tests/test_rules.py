"""One test (or more) for every line and cell of the rule book (docs/rules.md).

Every position is built here from a FEN in the variant's own numbering:

american, russian, brazilian, czech (russian, brazilian and czech also read
these numbers, or the algebraic names shown on the right)::

     8    1     2     3     4          b8  d8  f8  h8
     7 5     6     7     8          a7  c7  e7  g7
     6    9    10    11    12          b6  d6  f6  h6
     5 13    14    15    16          a5  c5  e5  g5
     4    17    18    19    20          b4  d4  f4  h4
     3 21    22    23    24          a3  c3  e3  g3
     2    25    26    27    28          b2  d2  f2  h2
     1 29    30    31    32          a1  c1  e1  g1
        a  b  c  d  e  f  g  h

italian (mirrored colouring)          spanish (mirrored, numbered from White's right)::

     8  1     2     3     4             8 32    31    30    29
     7     5     6     7     8          7    28    27    26    25
     6  9    10    11    12             6 24    23    22    21
     5    13    14    15    16          5    20    19    18    17
     4 17    18    19    20             4 16    15    14    13
     3    21    22    23    24          3    12    11    10     9
     2 25    26    27    28             2  8     7     6     5
     1    29    30    31    32          1     4     3     2     1
        a  b  c  d  e  f  g  h             a  b  c  d  e  f  g  h

international::

    10     1     2     3     4     5
     9  6     7     8     9    10
     8    11    12    13    14    15
     7 16    17    18    19    20
     6    21    22    23    24    25
     5 26    27    28    29    30
     4    31    32    33    34    35
     3 36    37    38    39    40
     2    41    42    43    44    45
     1 46    47    48    49    50

Expected move sets are written out by hand, as (start, end, sorted captured
squares) in the variant's numbers, or as move text.
"""

import pytest

import draughts
from draughts import BLACK, WHITE, Board, Piece, Termination
from draughts.notation import squares_of

ALL = ["american", "russian", "brazilian", "spanish", "italian", "czech", "international"]
GRID8 = ["american", "russian", "brazilian", "czech"]  # the american grid and colouring


# --- helpers -------------------------------------------------------------------


def make(fen, variant, **options):
    return Board(fen, variant=draughts.variant(variant, **options))


def triples(board):
    """The legal moves as sorted (start, end, sorted captured) tuples."""
    return sorted((m.start, m.end, tuple(sorted(m.captured))) for m in board.legal_moves)


def texts(board):
    return sorted(board.move_text(m) for m in board.legal_moves)


def after(board, text):
    child = board.copy()
    child.push(child.parse_move(text))
    return child


def quiet(start, *ends):
    return [(start, end, ()) for end in ends]


# =============================================================================
# Common to all variants
# =============================================================================

# A man moves one square diagonally forward to an empty square.
# (variant, fen, white's moves, black's moves); the two men are far apart.
FORWARD = [
    ("american", "W:W22:B10", quiet(22, 17, 18), quiet(10, 14, 15)),
    ("russian", "W:W22:B10", quiet(22, 17, 18), quiet(10, 14, 15)),
    ("brazilian", "W:W22:B10", quiet(22, 17, 18), quiet(10, 14, 15)),
    ("czech", "W:W22:B10", quiet(22, 17, 18), quiet(10, 14, 15)),
    ("italian", "W:W22:B10", quiet(22, 18, 19), quiet(10, 13, 14)),
    ("spanish", "W:W10:B23", quiet(10, 13, 14), quiet(23, 19, 20)),
    ("international", "W:W33:B18", quiet(33, 28, 29), quiet(18, 22, 23)),
]


@pytest.mark.parametrize("variant,fen,white,black", FORWARD, ids=[c[0] for c in FORWARD])
def test_man_moves_one_square_diagonally_forward_only(variant, fen, white, black):
    board = make(fen, variant)
    assert board.turn == WHITE
    assert triples(board) == white
    board = make("B" + fen[1:], variant)
    assert triples(board) == black


def test_man_on_the_edge_has_one_move():
    assert triples(make("W:W21:B1", "american")) == quiet(21, 17)  # a3 - b4 only
    assert triples(make("W:W20:B1", "american")) == quiet(20, 16)  # h4 - g5 only
    assert triples(make("W:W36:B1", "international")) == quiet(36, 31)


def test_man_cannot_move_onto_an_occupied_square():
    # american 22 (c3): 17 (b4) holds a white man, so only 22-18; 17 moves to 13 or 14.
    board = make("W:W22,17:B10", "american")
    assert triples(board) == quiet(17, 13, 14) + quiet(22, 18)


# Capture: jump diagonally over an adjacent enemy piece to the empty square
# directly behind it; capturing is compulsory (the man's quiet moves disappear).
FORWARD_CAPTURE = [
    ("american", "W:W22:B18,5", [(22, 15, (18,))]),
    ("russian", "W:W22:B18,5", [(22, 15, (18,))]),
    ("brazilian", "W:W22:B18,5", [(22, 15, (18,))]),
    ("czech", "W:W22:B18,5", [(22, 15, (18,))]),
    ("italian", "W:W22:B19,1", [(22, 15, (19,))]),
    ("spanish", "W:W10:B14,32", [(10, 19, (14,))]),
    ("international", "W:W33:B28,1", [(33, 22, (28,))]),
]


@pytest.mark.parametrize("variant,fen,expected", FORWARD_CAPTURE, ids=[c[0] for c in FORWARD_CAPTURE])
def test_capture_is_compulsory_and_lands_directly_behind(variant, fen, expected):
    board = make(fen, variant)
    assert triples(board) == expected
    start, end, (taken,) = expected[0]
    child = board.copy()
    child.push(next(iter(board.legal_moves)))
    assert child.piece_at(end) == Piece(WHITE, False)
    assert child.piece_at(start) is None
    assert child.piece_at(taken) is None


def test_no_capture_when_the_square_behind_is_occupied():
    # american: 22 (c3) faces a black man on 18 (d4), but 15 (e5) behind it is taken.
    board = make("W:W22:B18,15", "american")
    assert triples(board) == quiet(22, 17)


def test_capture_chain_goes_on_changes_direction_and_is_one_move():
    # d2 (26) takes c3 (22) to b4 (17), then c5 (14) to d6 (10): up-left then up-right.
    # Stopping on b4 is not a move; the quiet move 26-23 is not allowed either.
    for variant in GRID8:
        board = make("W:W26:B22,14", variant)
        assert triples(board) == [(26, 10, (14, 22))], variant
        move = next(iter(board.legal_moves))
        assert move.path == (26, 17, 10)
        child = board.copy()
        child.push(move)
        assert child.pieces() == {10: Piece(WHITE, False)}


# A man that reaches the far row becomes a king (by a quiet move here).
PROMOTION = [
    # variant, white to move, white move, black to move, black move
    ("american", "W:W6:BK32", (6, 1), "B:WK1:B27", (27, 31)),
    ("russian", "W:W6:BK32", (6, 1), "B:WK1:B27", (27, 31)),
    ("brazilian", "W:W6:BK32", (6, 1), "B:WK1:B27", (27, 31)),
    ("czech", "W:W6:BK32", (6, 1), "B:WK1:B27", (27, 31)),
    ("italian", "W:W6:BK29", (6, 2), "B:WK4:B26", (26, 30)),
    ("spanish", "W:W27:BK4", (27, 31), "B:WK32:B6", (6, 2)),
    ("international", "W:W8:BK50", (8, 2), "B:WK1:B43", (43, 48)),
]


@pytest.mark.parametrize("variant,wfen,wmove,bfen,bmove", PROMOTION, ids=[c[0] for c in PROMOTION])
def test_man_reaching_the_far_row_becomes_a_king(variant, wfen, wmove, bfen, bmove):
    for fen, (start, end), colour in ((wfen, wmove, WHITE), (bfen, bmove, BLACK)):
        board = make(fen, variant)
        move = next(m for m in board.legal_moves if (m.start, m.end) == (start, end))
        assert move.promotion
        board.push(move)
        assert board.piece_at(end) == Piece(colour, True)


def test_man_not_on_the_far_row_stays_a_man():
    board = make("W:W10:BK32", "american")
    for move in board.legal_moves:
        assert not move.promotion
        assert after(board, board.move_text(move)).piece_at(move.end) == Piece(WHITE, False)


# A player with no pieces, or no legal move on their turn, loses.
@pytest.mark.parametrize("variant", ALL)
def test_side_with_no_pieces_loses(variant):
    board = make("W:W:BK1", variant)
    outcome = board.outcome()
    assert outcome.termination == Termination.NO_PIECES
    assert outcome.winner == BLACK
    board = make("B:WK1:B", variant)
    assert board.outcome().termination == Termination.NO_PIECES
    assert board.outcome().winner == WHITE


BLOCKED = [
    # White's only man cannot move: both forward squares are taken and nothing can be captured.
    ("american", "W:W29:B25,22"),  # a1: b2 black, c3 behind it black
    ("russian", "W:W29:B25,22"),
    ("brazilian", "W:W29:B25,22"),
    ("czech", "W:W29:B25,22"),
    ("italian", "W:W32:B28,23"),  # h1: g2 black, f3 behind it black
    ("spanish", "W:W1:B5,10"),  # h1: g2 black, f3 behind it black
    ("international", "W:W46:B41,37"),
]


@pytest.mark.parametrize("variant,fen", BLOCKED, ids=[c[0] for c in BLOCKED])
def test_side_with_no_legal_move_loses(variant, fen):
    board = make(fen, variant)
    assert board.legal_moves.count() == 0
    outcome = board.outcome()
    assert outcome.termination == Termination.NO_MOVES
    assert outcome.winner == BLACK
    assert board.is_game_over()


def test_blocked_side_to_move_loses_even_with_more_pieces():
    # american, Black to move: Black's man on 5 (a7) is blocked by white men on
    # 9 (b6) and 14 (c5) behind it.
    board = make("B:W9,14,31,32:B5", "american")
    assert board.legal_moves.count() == 0
    assert board.outcome().termination == Termination.NO_MOVES
    assert board.outcome().winner == WHITE


# Two capture sequences with the same start, end and captured set are ONE move.
def test_duplicate_man_loop_is_one_move_international():
    # The man on 32 takes 28, 18, 17, 27 round the square 22 and comes back to 32,
    # clockwise or anticlockwise: two paths, one move.
    board = make("W:W32:B17,18,27,28", "international")
    assert triples(board) == [(32, 32, (17, 18, 27, 28))]
    assert board.perft(1) == board.perft(1, "drop") == 1
    assert board.perft(1, "keep") == 2
    child = board.copy()
    child.push(next(iter(board.legal_moves)))
    assert child.pieces() == {32: Piece(WHITE, False)}


def test_either_path_of_a_duplicate_capture_names_the_one_move():
    # both capture sequences of the man's loop are legal: written in full, either
    # reads back as the one move (docs/rules.md: they are ONE move).
    board = make("W:W32:B17,18,27,28", "international")
    move = next(iter(board.legal_moves))
    one_way = board.parse_move("32x21x12x23x32")  # up-left first
    other_way = board.parse_move("32x23x12x21x32")  # up-right first
    assert one_way == other_way == move


def test_duplicate_king_loop_is_one_move_international():
    # The king on 32 goes round 28, 18, 17, 27 either way.  Clockwise it finally
    # takes 27 going down-right and may stop on 32, 38, 43 or 49; anticlockwise it
    # takes 28 going down-left and may stop on 32, 37, 41 or 46.  Only the end on
    # 32 is reached both ways: 8 paths, 7 moves.
    board = make("W:WK32:B17,18,27,28", "international")
    every = (17, 18, 27, 28)
    assert triples(board) == sorted((32, end, every) for end in (32, 37, 38, 41, 43, 46, 49))
    assert board.perft(1, "drop") == 7
    assert board.perft(1, "keep") == 8
    assert board.perft(1) == 7


def test_duplicate_short_king_loop_is_one_move_american():
    board = make("W:WK26:B14,15,22,23", "american")
    assert triples(board) == [(26, 26, (14, 15, 22, 23))]
    assert (board.perft(1, "drop"), board.perft(1, "keep")) == (1, 2)


def test_captures_with_same_ends_but_different_pieces_are_two_moves():
    board = make("W:W26:B22,14,23,15", "american")
    assert triples(board) == [(26, 10, (14, 22)), (26, 10, (15, 23))]
    assert (board.perft(1, "drop"), board.perft(1, "keep")) == (2, 2)


# =============================================================================
# The variants table
# =============================================================================


# board, men per side, moves first
@pytest.mark.parametrize(
    "variant,size,men,first",
    [
        ("american", 8, 12, BLACK),
        ("russian", 8, 12, WHITE),
        ("brazilian", 8, 12, WHITE),
        ("spanish", 8, 12, WHITE),
        ("italian", 8, 12, WHITE),
        ("czech", 8, 12, WHITE),
        ("international", 10, 20, WHITE),
    ],
)
def test_board_men_and_first_player(variant, size, men, first):
    board = Board(variant=variant)
    assert board.variant.size == size
    assert len(squares_of(board.variant).coords) == size * size // 2
    assert board.turn == first
    pieces = board.pieces()
    assert sum(1 for p in pieces.values() if p == Piece(WHITE, False)) == men
    assert sum(1 for p in pieces.values() if p == Piece(BLACK, False)) == men
    assert len(pieces) == 2 * men


# men capture backwards: russian, brazilian, international yes; the others no.
BACKWARDS = [
    # variant, white to move, black to move, captures backwards?, white's moves, black's moves
    ("american", "W:W18:B22", "B:W14:B18", False, quiet(18, 14, 15), quiet(18, 22, 23)),
    ("czech", "W:W18:B22", "B:W14:B18", False, quiet(18, 14, 15), quiet(18, 22, 23)),
    ("russian", "W:W18:B22", "B:W14:B18", True, [(18, 25, (22,))], [(18, 9, (14,))]),
    ("brazilian", "W:W18:B22", "B:W14:B18", True, [(18, 25, (22,))], [(18, 9, (14,))]),
    ("italian", "W:W19:B22", "B:W15:B19", False, quiet(19, 14, 15), quiet(19, 22, 23)),
    ("spanish", "W:W14:B11", "B:W18:B14", False, quiet(14, 18, 19), quiet(14, 10, 11)),
    ("international", "W:W28:B33", "B:W22:B28", True, [(28, 39, (33,))], [(28, 17, (22,))]),
]


@pytest.mark.parametrize("variant,wfen,bfen,back,white,black", BACKWARDS, ids=[c[0] for c in BACKWARDS])
def test_men_capture_backwards(variant, wfen, bfen, back, white, black):
    assert draughts.variant(variant).men_capture_backwards is back
    assert triples(make(wfen, variant)) == white
    assert triples(make(bfen, variant)) == black


# flying kings: moves any number of empty squares; short kings one square, all four ways
KING_MOVES = [
    # variant, fen (a lone king, an enemy man off its diagonals), destinations
    ("american", "W:WK18:B1", [14, 15, 22, 23]),
    ("italian", "W:WK19:B4", [14, 15, 22, 23]),
    ("russian", "W:WK18:B1", [4, 5, 8, 9, 11, 14, 15, 22, 23, 25, 27, 29, 32]),
    ("brazilian", "W:WK18:B1", [4, 5, 8, 9, 11, 14, 15, 22, 23, 25, 27, 29, 32]),
    ("czech", "W:WK18:B1", [4, 5, 8, 9, 11, 14, 15, 22, 23, 25, 27, 29, 32]),
    ("spanish", "W:WK14:B31", [1, 4, 5, 7, 10, 11, 18, 19, 21, 23, 25, 28, 32]),
    ("international", "W:WK28:B1", [5, 6, 10, 11, 14, 17, 19, 22, 23, 32, 33, 37, 39, 41, 44, 46, 50]),
]


@pytest.mark.parametrize("variant,fen,ends", KING_MOVES, ids=[c[0] for c in KING_MOVES])
def test_king_moves_flying_or_short(variant, fen, ends):
    board = make(fen, variant)
    start = next(s for s, p in board.pieces().items() if p.color == WHITE)
    assert triples(board) == quiet(start, *ends)
    assert draughts.variant(variant).flying_kings is (len(ends) > 4)


KING_CAPTURE_AT_DISTANCE = [
    # variant, fen: a king on the long diagonal, an enemy man three squares away
    ("american", "W:WK29:B18", quiet(29, 25)),
    ("italian", "W:WK29:B19", quiet(29, 25, 26)),
    ("russian", "W:WK29:B18", [(29, e, (18,)) for e in (4, 8, 11, 15)]),
    ("brazilian", "W:WK29:B18", [(29, e, (18,)) for e in (4, 8, 11, 15)]),
    ("czech", "W:WK29:B18", [(29, e, (18,)) for e in (4, 8, 11, 15)]),
    ("spanish", "W:WK1:B14", [(1, e, (14,)) for e in (19, 23, 28, 32)]),
    ("international", "W:WK46:B28", [(46, e, (28,)) for e in (5, 10, 14, 19, 23)]),
]


@pytest.mark.parametrize("variant,fen,expected", KING_CAPTURE_AT_DISTANCE, ids=[c[0] for c in KING_CAPTURE_AT_DISTANCE])
def test_flying_king_captures_at_distance_and_lands_anywhere_behind(variant, fen, expected):
    assert triples(make(fen, variant)) == expected


@pytest.mark.parametrize(
    "variant,fen,expected",
    [
        # a short king takes an adjacent piece, one square behind it, in any direction
        ("american", "W:WK22:B18", [(22, 15, (18,))]),
        ("american", "W:WK15:B18", [(15, 22, (18,))]),  # backwards
        ("italian", "W:WK22:B19", [(22, 15, (19,))]),
        ("italian", "W:WK15:B19", [(15, 22, (19,))]),
        # a flying king next to the piece still lands on any empty square behind it
        ("russian", "W:WK22:B18", [(22, e, (18,)) for e in (4, 8, 11, 15)]),
    ],
)
def test_king_captures_adjacent(variant, fen, expected):
    assert triples(make(fen, variant)) == expected


def test_flying_king_capture_needs_empty_squares_between_and_behind():
    # a1 (29) looks up the long diagonal: c3 (22) and d4 (18) black side by side:
    # nothing behind c3 is empty, so no capture; the king just moves to b2.
    assert triples(make("W:WK29:B22,18", "russian")) == quiet(29, 25)
    # a white man on b2 (25) blocks the king's view of d4 (18).
    assert triples(make("W:WK29,25:B18", "russian")) == quiet(25, 21, 22)


@pytest.mark.parametrize("variant", ["russian", "brazilian", "czech"])
def test_flying_king_must_land_where_it_can_capture_again(variant):
    # a1 (29) takes d4 (18); of e5, f6, g7, h8 only f6 (11) sees another piece,
    # e7 (7), with d8 (2) behind it: the king must land on f6 and go on.
    board = make("W:WK29:B18,7", variant)
    assert triples(board) == [(29, 2, (7, 18))]
    assert next(iter(board.legal_moves)).path == (29, 11, 2)


def test_flying_king_must_land_where_it_can_capture_again_international():
    # 46 takes 28; of 23, 19, 14, 10, 5 only 19 sees 13 (up-left) with 8 behind.
    board = make("W:WK46:B28,13", "international")
    assert triples(board) == [(46, 2, (13, 28)), (46, 8, (13, 28))]
    for move in board.legal_moves:
        assert move.path[1] == 19


def test_flying_king_with_two_continuations_may_choose():
    # russian: a1 takes d4; from e5 (15) it can take f4 (19) down-right to g3/h2,
    # and from f6 (11) it can take e7 (7) to d8: both continuations are moves.
    board = make("W:WK29:B18,7,19", "russian")
    assert triples(board) == [(29, 2, (7, 18)), (29, 24, (18, 19)), (29, 28, (18, 19))]


# men may capture kings: every variant but italian
MEN_TAKE_KINGS = [
    ("american", "W:W22:BK18", [(22, 15, (18,))]),
    ("russian", "W:W22:BK18", [(22, 15, (18,))]),
    ("brazilian", "W:W22:BK18", [(22, 15, (18,))]),
    ("czech", "W:W22:BK18", [(22, 15, (18,))]),
    ("spanish", "W:W10:BK14", [(10, 19, (14,))]),
    ("international", "W:W33:BK28", [(33, 22, (28,))]),
    ("italian", "W:W22:BK19", quiet(22, 18)),  # NO: the man just moves
]


@pytest.mark.parametrize("variant,fen,expected", MEN_TAKE_KINGS, ids=[c[0] for c in MEN_TAKE_KINGS])
def test_men_may_capture_kings_except_in_italian(variant, fen, expected):
    assert triples(make(fen, variant)) == expected


def test_italian_king_captures_king_and_man_captures_man():
    assert triples(make("W:WK22:BK19", "italian")) == [(22, 15, (19,))]
    assert triples(make("W:W22:B19", "italian")) == [(22, 15, (19,))]


def test_italian_man_chain_stops_before_a_king():
    # italian 27 (e2) takes 23 (f3) landing on 20 (g4).  The next piece on the way,
    # 15 (f5), is a king: the man may not take it, so the capture ends on 20.
    board = make("W:W27:B23,K15", "italian")
    assert triples(board) == [(27, 20, (23,))]
    # With a man on 15 the chain goes on to 11 (e6).
    assert triples(make("W:W27:B23,15", "italian")) == [(27, 11, (15, 23))]


# must take the most pieces: brazilian, spanish, italian, international; not american,
# russian, czech.  A man can take 2 (a chain) or another man 1.
MAJORITY = [
    ("american", "W:W26,31:B14,22,27", False, [(26, 10, (14, 22)), (31, 24, (27,))]),
    ("russian", "W:W26,31:B14,22,27", False, [(26, 10, (14, 22)), (31, 24, (27,))]),
    ("czech", "W:W26,31:B14,22,27", False, [(26, 10, (14, 22)), (31, 24, (27,))]),
    ("brazilian", "W:W26,31:B14,22,27", True, [(26, 10, (14, 22))]),
    # the same position mirrored for the other colouring
    ("spanish", "W:W3,6:B7,10,18", True, [(6, 22, (10, 18))]),
    ("italian", "W:W27,30:B15,23,26", True, [(27, 11, (15, 23))]),
    ("international", "W:W43,49:B28,38,44", True, [(43, 23, (28, 38))]),
]


@pytest.mark.parametrize("variant,fen,majority,expected", MAJORITY, ids=[c[0] for c in MAJORITY])
def test_majority_capture(variant, fen, majority, expected):
    assert draughts.variant(variant).majority_capture is majority
    assert triples(make(fen, variant)) == expected


def test_majority_counts_a_king_as_one_piece():
    # international: one man takes a king (44), the other two men: two pieces win.
    assert triples(make("W:W43,49:B28,38,K44", "international")) == [(43, 23, (28, 38))]
    # brazilian: the man on 31 takes a king (27), the man on 26 two men.
    assert triples(make("W:W26,31:B14,22,K27", "brazilian")) == [(26, 10, (14, 22))]


def test_majority_applies_to_flying_king_captures():
    # international: the king on 48 can take 43 then 33 then 9 (ending on 4), or
    # 43, 24, 9 (also ending on 4), or only 43 and 9 via 25 (ending on 3).
    # Majority keeps the two 3-piece captures.
    board = make("W:WK48:B9,24,33,43", "international")
    assert triples(board) == [(48, 4, (9, 24, 43)), (48, 4, (9, 33, 43))]
    # russian-like free choice would keep the 2-piece capture too
    free = make("W:WK48:B9,24,33,43", "international", majority_capture=False)
    assert triples(free) == [(48, 3, (9, 43)), (48, 4, (9, 24, 43)), (48, 4, (9, 33, 43))]


# further precedence: free choice (american, russian, brazilian, international)
def test_free_choice_among_equal_captures_ignores_kings():
    # brazilian: two 2-piece captures, one of them taking a king (19): both allowed.
    board = make("W:W26,31:B22,14,27,K19", "brazilian")
    assert triples(board) == [(26, 10, (14, 22)), (31, 15, (19, 27))]


# Spanish: the most pieces; if equal, the most kings.
def test_spanish_equal_counts_take_the_most_kings():
    # 6 takes 10, 18 (to 22); 3 takes 7, 15 (to 19).  Men only: both.
    assert triples(make("W:W3,6:B7,15,10,18", "spanish")) == [(3, 19, (7, 15)), (6, 22, (10, 18))]
    # 15 a king: only 3's capture.
    assert triples(make("W:W3,6:B7,K15,10,18", "spanish")) == [(3, 19, (7, 15))]
    # two kings against one: 10 and 18 kings, 15 a king.
    assert triples(make("W:W3,6:B7,K15,K10,K18", "spanish")) == [(6, 22, (10, 18))]


def test_spanish_most_pieces_before_most_kings():
    # 3 can take only the king on 7 (15 is missing); 6 takes two men: two men win.
    assert triples(make("W:W3,6:BK7,10,18", "spanish")) == [(6, 22, (10, 18))]


def test_spanish_kings_rule_among_flying_king_captures():
    # the king on 14 (e4) can take 23 (c6, landing 28 or 32) or 5 (g2, landing 1).
    assert triples(make("W:WK14:B23,5", "spanish")) == [(14, 1, (5,)), (14, 28, (23,)), (14, 32, (23,))]
    assert triples(make("W:WK14:B23,K5", "spanish")) == [(14, 1, (5,))]
    # international (free choice) keeps both in the same situation
    assert triples(make("W:WK28:B17,K39", "international")) == [
        (28, 6, (17,)),
        (28, 11, (17,)),
        (28, 44, (39,)),
        (28, 50, (39,)),
    ]


# Italian: (1) most pieces; (2) king rather than man; (3) most kings; (4) first king earliest.
# The white king on 27 (e2) can take 23 (f3) then 15 (f5), ending on 11 (e6);
# the white king on 30 (d1) can take 26 (c2) then 18 (c4), ending on 14 (d5).
def test_italian_1_most_pieces_even_against_a_king_capture():
    # the man on 27 takes two men; the king on 30 only one (26): the man's capture.
    assert triples(make("W:W27,K30:B15,23,26", "italian")) == [(27, 11, (15, 23))]


def test_italian_1_most_pieces_before_most_kings():
    # the king on 30 takes only the king on 26; the king on 27 takes two men.
    assert triples(make("W:WK27,K30:B15,23,K26", "italian")) == [(27, 11, (15, 23))]


def test_italian_2_king_captures_rather_than_man():
    # one piece each: the man on 27 could take 23 (to 20), the king on 30 takes 26.
    assert triples(make("W:W27,K30:B23,26", "italian")) == [(30, 21, (26,))]


def test_italian_3_most_kings():
    both = [(27, 11, (15, 23)), (30, 14, (18, 26))]
    assert triples(make("W:WK27,K30:B15,23,18,26", "italian")) == both
    assert triples(make("W:WK27,K30:B15,23,K18,26", "italian")) == [(30, 14, (18, 26))]
    assert triples(make("W:WK27,K30:BK15,23,18,26", "italian")) == [(27, 11, (15, 23))]


def test_italian_4_first_king_captured_earliest():
    # one king in each capture.
    both = [(27, 11, (15, 23)), (30, 14, (18, 26))]
    # each takes its king first: both allowed
    assert triples(make("W:WK27,K30:BK23,15,18,K26", "italian")) == both
    # 27 takes its king (23) first, 30 takes 26 first and its king (18) second
    assert triples(make("W:WK27,K30:BK23,15,K18,26", "italian")) == [(27, 11, (15, 23))]
    # 27 takes its king (15) second, 30 takes its king (26) first
    assert triples(make("W:WK27,K30:B23,K15,18,K26", "italian")) == [(30, 14, (18, 26))]
    # each takes its king second: both allowed
    assert triples(make("W:WK27,K30:B23,K15,K18,26", "italian")) == both


# Czech: no majority rule, but a king that can capture must (no capture by a man then).
def test_czech_men_free_choice_without_majority():
    # 18 (d4) takes 14 (c5) to 9; 24 (g3) takes 19 (f4) and 10 (d6) to 6 (c7).
    assert triples(make("W:W18,24:B19,10,14", "czech")) == [(18, 9, (14,)), (24, 6, (10, 19))]


def test_czech_king_capture_forbids_man_captures():
    # add a king on a1 (29) that can take b2 (25), landing only on c3 (d4 is white).
    board = make("W:WK29,18,24:B25,19,10,14", "czech")
    assert triples(board) == [(29, 22, (25,))]
    # russian has free choice in the same position
    assert triples(make("W:WK29,18,24:B25,19,10,14", "russian")) == [(18, 9, (14,)), (24, 6, (10, 19)), (29, 22, (25,))]


def test_czech_no_majority_among_king_captures():
    # a1 (29) takes b2 (25), landing on c3 only (d4 is white); g1 (32) takes f2 (27),
    # lands on e3 (d4 white again) and takes g5 (16) to h6 (12).  Both are allowed.
    fen = "W:WK29,18,K32:B25,27,16"
    assert triples(make(fen, "czech")) == [(29, 22, (25,)), (32, 12, (16, 27))]
    assert triples(make(fen, "brazilian")) == [(32, 12, (16, 27))]


# A man reaching the far row during a capture.
# f6 (11) takes e7 (7) and lands on d8 (2), the far row; from d8 the piece could go
# on over c7 (6) to b6 (9) (a5 (13) beyond it).
FAR_ROW = [
    # crowned, move ends
    ("american", "W:W11:B7,6", [(11, 2, (7,))], True),
    ("czech", "W:W11:B7,6", [(11, 2, (7,))], True),
    ("spanish", "W:W23:B27,26", [(23, 30, (27,))], True),  # mirrored: c6 takes d7, e8; f7 next
    ("italian", "W:W10:B6,7", [(10, 3, (6,))], True),
    # crowned, goes on capturing as a (flying) king
    ("russian", "W:W11:B7,6", [(11, 9, (6, 7)), (11, 13, (6, 7))], True),
    # goes on capturing as a man (backwards), crowned only if it ends there
    ("brazilian", "W:W11:B7,6", [(11, 9, (6, 7))], False),
    ("international", "W:W13:B8,7", [(13, 11, (7, 8))], False),
]


@pytest.mark.parametrize("variant,fen,expected,crowned", FAR_ROW, ids=[c[0] for c in FAR_ROW])
def test_man_reaching_far_row_during_capture(variant, fen, expected, crowned):
    board = make(fen, variant)
    assert triples(board) == expected
    for move in board.legal_moves:
        assert move.promotion is crowned
        child = board.copy()
        child.push(move)
        assert child.piece_at(move.end) == Piece(WHITE, crowned)
        for taken in move.captured:
            assert child.piece_at(taken) is None


@pytest.mark.parametrize(
    "variant,fen,expected",
    [
        ("brazilian", "W:W11:B7", [(11, 2, (7,))]),
        ("international", "W:W13:B8", [(13, 2, (8,))]),
        # on the far row, only a king could go on (b6 is two squares away): the man stops, crowned
        ("brazilian", "W:W11:B7,9", [(11, 2, (7,))]),
    ],
)
def test_pass_mode_crowns_when_the_capture_ends_on_the_far_row(variant, fen, expected):
    board = make(fen, variant)
    assert triples(board) == expected
    move = next(iter(board.legal_moves))
    assert move.promotion
    assert after(board, board.move_text(move)).piece_at(move.end) == Piece(WHITE, True)


@pytest.mark.parametrize("variant", ["american", "spanish", "italian", "czech"])
def test_stop_and_pass_agree_where_men_capture_only_forward(variant):
    """docs/rules.md: a man capturing only forward cannot go on from the far row, so
    "crowned, move ends" and "crowned only if the capture ends there" agree."""
    fen = {"american": "W:W11:B7,6", "czech": "W:W11:B7,6", "spanish": "W:W23:B27,26", "italian": "W:W10:B6,7"}[variant]
    stop = make(fen, variant)
    passing = make(fen, variant, crown_during_capture="pass")
    assert triples(stop) == triples(passing)
    assert [m.promotion for m in stop.legal_moves] == [m.promotion for m in passing.legal_moves] == [True]
    if variant in ("american", "czech"):
        # men of both sides near their far rows, with captures onto it
        for near in ("W:W5,6,7,8:B1,14,15,16", "B:W25,26,27,28:B17,18,19,K31,K32"):
            assert make(near, variant).perft(4) == make(near, variant, crown_during_capture="pass").perft(4)


def test_russian_man_crowned_goes_on_as_flying_king():
    # from d8 the new king sees b6 (9) across the empty c7 and takes it, landing on a5
    board = make("W:W11:B7,9", "russian")
    assert triples(board) == [(11, 13, (7, 9))]
    assert next(iter(board.legal_moves)).promotion


def test_russian_black_man_crowned_on_c1_takes_on_as_king():
    # the rule book's example: black a3 takes b2, is crowned on c1, takes e3 and
    # lands on f4, g5 or h6 as a king.
    board = make("B:W9,K23,K25:B5,21", "russian")
    assert texts(board) == ["a3:f4", "a3:g5", "a3:h6", "a7:c5"]
    for move in board.legal_moves:
        if move.start != 21:
            continue
        assert move.promotion
        assert move.path[:2] == (21, 30)
        child = board.copy()
        child.push(move)
        assert child.piece_at(move.end) == Piece(BLACK, True)
        assert child.piece_at("b2") is None and child.piece_at("e3") is None
    # brazilian: it goes on as a man, and from c1 a man sees nothing to take (d2 is
    # empty, e3 two squares away): it stops on c1, crowned; one piece, like a7:c5.
    board = make("B:W9,K23,K25:B5,21", "brazilian")
    assert triples(board) == [(5, 14, (9,)), (21, 30, (25,))]
    assert [m.promotion for m in board.legal_moves if m.start == 21] == [True]


# Captured pieces leave the board at once (american) or at the end of the move.
# Turkish strike, russian: the king on b2 (25) takes d4 (18), lands on f6 (11),
# takes g5 (16) to h4 (20), takes g3 (24) to f2 (27) or e1 (31).  From e5 (15)
# it can instead take g3 to h2 (28).  From f2 the line up-left runs e3 (23),
# d4 (the captured piece, still on the board), c5 (14), b6 (9), a7 (5).
TURKISH = "W:WK25:B18,16,24"
TURKISH_MOVES = [(25, 27, (16, 18, 24)), (25, 28, (18, 24)), (25, 31, (16, 18, 24))]


def test_turkish_strike_captured_piece_is_not_taken_twice():
    # d4 has empty squares behind it seen from f2: it is not taken a second time.
    assert triples(make(TURKISH, "russian")) == TURKISH_MOVES
    # with removal at once, d4 is gone and f2 sees nothing: the same moves
    assert triples(make(TURKISH, "russian", remove_at_once=True)) == TURKISH_MOVES


def test_turkish_strike_captured_piece_blocks_passing():
    # c5 (14) behind d4: the king on f2 would have to pass over d4 to take it.
    fen = "W:WK25:B18,16,24,14"
    assert triples(make(fen, "russian")) == TURKISH_MOVES
    # removed at once, the king passes over d4's square, takes c5 and lands on b6 or
    # a7, so it must land on f2 (not e1) after g3.
    at_once = make(fen, "russian", remove_at_once=True)
    assert sorted((m.start, m.end, len(m.captured)) for m in at_once.legal_moves) == [
        (25, 5, 4),
        (25, 9, 4),
        (25, 28, 2),
    ]
    assert [m.path for m in at_once.legal_moves if m.end == 5] == [(25, 11, 20, 27, 5)]


def test_removal_at_once_flying_king_passing_an_emptied_square_captures_the_right_piece():
    """A flying king under at-once removal (a variant option: russian with
    remove_at_once=True) passes over the emptied d4 and takes c5.  The move must
    list c5 among its captured pieces, and playing it must remove c5."""
    board = make("W:WK25:B18,16,24,14", "russian", remove_at_once=True)
    assert triples(board) == [(25, 5, (14, 16, 18, 24)), (25, 9, (14, 16, 18, 24)), (25, 28, (18, 24))]
    move = next(m for m in board.legal_moves if m.end == 5)
    assert sorted(move.captured) == [14, 16, 18, 24]
    board.push(move)
    assert board.pieces() == {5: Piece(WHITE, True)}


def test_turkish_strike_captured_piece_blocks_landing():
    # e3 (23) in front of d4 seen from f2: taking it would land on d4's square.
    fen = "W:WK25:B18,16,24,23"
    assert triples(make(fen, "russian")) == TURKISH_MOVES
    every = (16, 18, 23, 24)
    assert triples(make(fen, "russian", remove_at_once=True)) == sorted(
        [(25, e, every) for e in (5, 9, 14, 18)] + [(25, 28, (18, 24))]
    )


@pytest.mark.parametrize("variant", ["russian", "brazilian", "czech"])
def test_turkish_strike_in_every_flying_variant_of_the_american_grid(variant):
    moves = triples(make("W:WK25:B18,16,24,14", variant))
    if draughts.variant(variant).majority_capture:
        assert moves == [m for m in TURKISH_MOVES if len(m[2]) == 3]
    else:
        assert moves == TURKISH_MOVES


def test_turkish_strike_international():
    # The king on 41 takes 32 (up-right) and must land on 23 (from 28 it could only
    # take 39 for two pieces; majority wants three): 23 takes 29 down-right, landing
    # on 34, takes 39 down-left, landing on 43 or 48.  From 43 the line up-left runs
    # 38, 32 (captured, still there), 27, 21, 16.
    three = [(41, 43, (29, 32, 39)), (41, 48, (29, 32, 39))]
    # 32 is not taken a second time although 27 behind it is empty
    assert triples(make("W:WK41:B32,29,39", "international")) == three
    # 27 behind the captured 32 cannot be reached: the king may not pass over 32
    assert triples(make("W:WK41:B32,29,39,27", "international")) == three
    # with removal at once the king would pass and take 27 (four pieces)
    at_once = make("W:WK41:B32,29,39,27", "international", remove_at_once=True)
    assert sorted((m.start, m.end, len(m.captured)) for m in at_once.legal_moves) == [(41, 16, 4), (41, 21, 4)]


def test_american_removal_at_once_is_not_observable_for_short_pieces():
    """docs/rules.md: american removes captured pieces at once, so a later jump may land
    on or pass over an emptied square.  With short pieces this never changes the
    moves: every jump moves two rows, so a capturing piece only ever stands on
    squares of its starting row parity, while every piece it jumps stands on the
    other parity: it can never land on an emptied square; and a short jump passes
    over exactly the piece it takes, so it never "passes over" an emptied square
    without taking something there.  Shown here: the king's loop round four men
    (back to its own start square) and a few perfts, with either removal rule."""
    at_once = draughts.variant("american")
    assert at_once.remove_at_once
    turkish = draughts.variant("american", remove_at_once=False)
    for fen in (
        "W:WK26:B14,15,22,23",
        "W:WK26,K19:B14,15,22,23,10,11",
        "B:W17,18,K26,27:BK11,14,15,22,23",
        "B:W21-32:B1-12",
    ):
        a, t = Board(fen, variant=at_once), Board(fen, variant=turkish)
        assert triples(a) == triples(t)
        assert a.perft(3) == t.perft(3)
        assert a.perft(3, "keep") == t.perft(3, "keep")
    assert triples(Board("W:WK26:B14,15,22,23", variant=at_once)) == [(26, 26, (14, 15, 22, 23))]


def test_american_captured_pieces_leave_at_once():
    board = make("W:WK26:B14,15,22,23", "american")
    board.push(next(iter(board.legal_moves)))
    assert board.pieces() == {26: Piece(WHITE, True)}


# =============================================================================
# House rule: no compulsory capture
# =============================================================================


def test_house_rule_allows_quiet_moves_beside_captures():
    board = make("W:W22:B18,5", "american", mandatory_capture=False)
    assert triples(board) == [(22, 15, (18,)), (22, 17, ())]
    assert triples(make("W:W22:B18,5", "american")) == [(22, 15, (18,))]


def test_house_rule_a_begun_chain_must_be_completed():
    board = make("W:W26:B22,14", "american", mandatory_capture=False)
    assert triples(board) == [(26, 10, (14, 22)), (26, 23, ())]
    board = make("W:WK29:B18,7", "russian", mandatory_capture=False)
    assert [m for m in triples(board) if m[2]] == [(29, 2, (7, 18))]


def test_house_rule_precedence_still_chooses_spanish():
    board = make("W:W3,6:B7,10,18", "spanish", mandatory_capture=False)
    assert triples(board) == [(6, 11, ()), (6, 22, (10, 18))]


def test_house_rule_precedence_still_chooses_italian():
    board = make("W:W27,K30:B23,26", "italian", mandatory_capture=False)
    assert triples(board) == [(27, 22, ()), (30, 21, (26,))]


@pytest.mark.parametrize("variant", ["american", "russian", "brazilian", "spanish", "italian", "czech"])
def test_house_rule_is_an_option_on_every_8x8_variant(variant):
    v = draughts.variant(variant, mandatory_capture=False)
    assert v.mandatory_capture is False and v.name == variant
    assert draughts.variant(variant).mandatory_capture is True
    # from the start position nothing can be captured: same moves either way
    assert Board(variant=v).perft(2) == Board(variant=variant).perft(2)


# =============================================================================
# Square numbering and notation
# =============================================================================


@pytest.mark.parametrize(
    "variant,first,fourth,corner,last",
    [
        # square 1, square 4 (5 on 10x10), square 29 (46), last square: (row, col)
        ("international", (0, 1), (5, (0, 9)), (46, (9, 0)), (50, (9, 8))),
        ("american", (0, 1), (4, (0, 7)), (29, (7, 0)), (32, (7, 6))),
        ("italian", (0, 0), (4, (0, 6)), (29, (7, 1)), (32, (7, 7))),
        ("spanish", (7, 7), (4, (7, 1)), (29, (0, 6)), (32, (0, 0))),
        # russian, brazilian, czech use the american grid where a number is needed
        ("russian", (0, 1), (4, (0, 7)), (29, (7, 0)), (32, (7, 6))),
        ("brazilian", (0, 1), (4, (0, 7)), (29, (7, 0)), (32, (7, 6))),
        ("czech", (0, 1), (4, (0, 7)), (29, (7, 0)), (32, (7, 6))),
    ],
)
def test_square_numbering(variant, first, fourth, corner, last):
    sq = squares_of(draughts.variant(variant))

    def rc(n):
        return tuple(sq.coords[sq.internal[n]])

    assert rc(1) == first
    assert rc(fourth[0]) == fourth[1]
    assert rc(corner[0]) == corner[1]
    assert rc(last[0]) == last[1]
    assert sorted(sq.internal) == list(range(1, last[0] + 1))


def test_numbering_runs_along_the_rows():
    am = squares_of(draughts.variant("american"))
    it = squares_of(draughts.variant("italian"))
    sp = squares_of(draughts.variant("spanish"))
    intl = squares_of(draughts.variant("international"))
    assert [am.coords[am.internal[n]] for n in (1, 2, 3, 4, 5)] == [(0, 1), (0, 3), (0, 5), (0, 7), (1, 0)]
    assert [it.coords[it.internal[n]] for n in (1, 2, 3, 4, 5)] == [(0, 0), (0, 2), (0, 4), (0, 6), (1, 1)]
    # spanish: right to left from White's lower right
    assert [sp.coords[sp.internal[n]] for n in (1, 2, 3, 4, 5)] == [(7, 7), (7, 5), (7, 3), (7, 1), (6, 6)]
    assert [intl.coords[intl.internal[n]] for n in (1, 5, 6, 10, 11)] == [(0, 1), (0, 9), (1, 0), (1, 8), (2, 1)]


@pytest.mark.parametrize("variant", ALL)
def test_playing_squares_and_colouring(variant):
    v = draughts.variant(variant)
    coords = set(squares_of(v).coords)
    n = v.size
    bottom_left = (n - 1, 0)
    if variant in ("italian", "spanish"):
        assert bottom_left not in coords
        assert (n - 1, n - 1) in coords
        assert all((r + c) % 2 == 0 for r, c in coords)
    else:
        assert bottom_left in coords
        assert all((r + c) % 2 == 1 for r, c in coords)
    assert len(coords) == n * n // 2


@pytest.mark.parametrize("variant", ["russian", "brazilian", "czech"])
def test_algebraic_names_and_american_grid_numbers(variant):
    # 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1
    board = make("W:WK1,K4,5,29,32:B", variant)
    assert board.fen() == "W:WKb8,Kh8,a7,a1,g1:B"
    assert board.fen(numeric=True) == "W:WK1,K4,5,29,32:B"
    for name, number in (("b8", 1), ("h8", 4), ("a7", 5), ("a1", 29), ("g1", 32)):
        assert board.piece_at(name) == board.piece_at(number) == Piece(WHITE, number in (1, 4))
    # the same position from algebraic names
    assert make("W:WKb8,Kh8,a7,a1,g1:B", variant).pieces() == board.pieces()


@pytest.mark.parametrize(
    "variant,white,black",
    [
        ("international", range(31, 51), range(1, 21)),
        ("american", range(21, 33), range(1, 13)),
        ("italian", range(21, 33), range(1, 13)),
        ("spanish", range(1, 13), range(21, 33)),
        ("russian", range(21, 33), range(1, 13)),
        ("brazilian", range(21, 33), range(1, 13)),
        ("czech", range(21, 33), range(1, 13)),
    ],
)
def test_start_positions(variant, white, black):
    board = Board(variant=variant)
    expected = {s: Piece(WHITE, False) for s in white}
    expected.update({s: Piece(BLACK, False) for s in black})
    assert board.pieces() == expected
    # White starts at the bottom of the diagram, Black at the top
    sq = squares_of(board.variant)
    rows_w = {sq.coords[sq.internal[s]][0] for s in white}
    rows_b = {sq.coords[sq.internal[s]][0] for s in black}
    n = board.variant.size
    assert rows_w == set(range(n - len(rows_w), n))
    assert rows_b == set(range(len(rows_b)))


def test_russian_start_rows_by_name():
    board = Board(variant="russian")
    white = {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}
    for name in white:
        assert board.piece_at(name) == Piece(WHITE, False)
    assert board.fen().startswith("W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:B")


@pytest.mark.parametrize(
    "variant,tokens",
    [
        ("international", ("2-0", "1-1", "0-2")),
        ("american", ("1-0", "1/2-1/2", "0-1")),
        ("russian", ("1-0", "1/2-1/2", "0-1")),
        ("brazilian", ("1-0", "1/2-1/2", "0-1")),
        ("spanish", ("1-0", "1/2-1/2", "0-1")),
        ("italian", ("1-0", "1/2-1/2", "0-1")),
        ("czech", ("1-0", "1/2-1/2", "0-1")),
    ],
)
def test_result_tokens(variant, tokens):
    v = draughts.variant(variant)
    assert v.result_tokens == tokens
    first, second = v.first, ~v.first
    assert draughts.Outcome(Termination.RESIGNATION, first).result(v) == tokens[0]
    assert draughts.Outcome(Termination.AGREEMENT, None).result(v) == tokens[1]
    assert draughts.Outcome(Termination.TIME, second).result(v) == tokens[2]


def test_pdn_gametypes():
    expected = {
        "international": "20,W,10,10,N2,0",
        "american": "21,B,8,8,N1,0",
        "italian": "22,W,8,8,N2,1",
        "spanish": "24,W,8,8,N1,1",
        "russian": "25,W,8,8,A0,0",
        "brazilian": "26,W,8,8,A0,0",
        "czech": "29,W,8,8,A0,0",
    }
    for name, gametype in expected.items():
        assert draughts.variant(name).pdn_gametype == gametype
        assert draughts.variant_for_gametype(gametype).name == name


# Move text: quiet 32-28; capture 28x19 (russian c3:e5); full path when two
# captures share start and end; an ambiguous short form is an error naming them.
def test_move_text_quiet_and_capture():
    board = Board(variant="international")
    move = board.parse_move("32-28")
    assert (move.start, move.end, move.captured) == (32, 28, ())
    assert board.move_text(move) == "32-28"
    board = make("W:W28:B23", "international")
    assert texts(board) == ["28x19"]
    assert board.parse_move("28x19").captured == (23,)
    board = make("W:W22:B18", "american")
    assert texts(board) == ["22x15"]


def test_move_text_russian_uses_colon_and_names():
    board = make("W:Wc3:Bd4", "russian")
    assert texts(board) == ["c3:e5"]
    assert board.parse_move("c3:e5") == board.parse_move("22x15") == board.parse_move("c3xe5")
    board = make("W:Wc3:Bh8", "russian")
    assert texts(board) == ["c3-b4", "c3-d4"]
    # brazilian and czech write algebraic squares with x
    assert texts(make("W:Wc3:Bd4", "brazilian")) == ["c3xe5"]
    assert texts(make("W:Wc3:Bd4", "czech")) == ["c3xe5"]


def test_move_text_full_path_when_two_captures_share_start_and_end():
    board = make("W:W26:B22,14,23,15", "american")
    assert texts(board) == ["26x17x10", "26x19x10"]
    left = board.parse_move("26x17x10")
    right = board.parse_move("26x19x10")
    assert set(left.captured) == {22, 14} and set(right.captured) == {23, 15}
    # the Hub form start x end x captured is read too
    assert board.parse_move("26x10x14x22") == left


def test_move_text_full_path_international():
    board = make("W:WK48:B9,24,33,43", "international")
    assert texts(board) == ["48x30x13x4", "48x39x22x4"]
    for text in texts(board):
        assert board.move_text(board.parse_move(text)) == text


def test_move_text_full_path_russian():
    # the king on d8 takes e7 and either e5 (via f6, landing c3) or g3 (via h4,
    # landing e1), and then b4, ending on a5 both ways.
    board = make("W:WKd8:Bb4,e5,Ka1,e7,g3", "russian")
    assert texts(board) == ["d8:f6:c3:a5", "d8:h4:e1:a5"]
    assert set(board.parse_move("d8:f6:c3:a5").captured) == {7, 15, 17}
    assert set(board.parse_move("d8:h4:e1:a5").captured) == {7, 24, 17}
    # men capturing forward only (czech) on two routes d2-b4-d6 and d2-f4-d6
    board = make("W:Wd2:Bc3,c5,e3,e5", "czech")
    assert texts(board) == ["d2xb4xd6", "d2xf4xd6"]


def test_ambiguous_short_form_is_an_error_naming_the_candidates():
    board = make("W:W26:B22,14,23,15", "american")
    with pytest.raises(draughts.AmbiguousMoveError) as info:
        board.parse_move("26x10")
    assert sorted(info.value.candidates, key=lambda m: m.path) == sorted(board.legal_moves, key=lambda m: m.path)
    assert "26x17x10" in str(info.value) and "26x19x10" in str(info.value)
    assert isinstance(info.value, ValueError)
    board = make("W:WKd8:Bb4,e5,Ka1,e7,g3", "russian")
    with pytest.raises(draughts.AmbiguousMoveError) as info:
        board.parse_move("d8:a5")
    assert len(info.value.candidates) == 2
    assert "d8:f6:c3:a5" in str(info.value) and "d8:h4:e1:a5" in str(info.value)


def test_short_form_of_a_unique_capture_is_not_ambiguous():
    # two paths to the same move (the loop) are one move: its short form reads back
    board = make("W:W32:B17,18,27,28", "international")
    move = board.parse_move("32x32")
    assert set(move.captured) == {17, 18, 27, 28}
    assert board.move_text(move) == "32x32"

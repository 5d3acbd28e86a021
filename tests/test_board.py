"""The Board API: FEN, errors, Move values, the move stack, the legal-move view,
draw rules and results.  Positions are built here; see tests/test_rules.py for
diagrams of every numbering."""

import collections
import copy
import pickle

import pytest

import draughts
from draughts import (
    BLACK,
    WHITE,
    AmbiguousMoveError,
    Board,
    DraughtsError,
    FenError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Outcome,
    Piece,
    Termination,
    VariantError,
)


def make(fen, variant, **options):
    return Board(fen, variant=draughts.variant(variant, **options))


# =============================================================================
# FEN
# =============================================================================


def test_fen_numeric_with_ranges_and_kings():
    board = make("W:W31-35,K40:B1-5,K20", "international")
    expected = {s: Piece(WHITE, False) for s in range(31, 36)}
    expected[40] = Piece(WHITE, True)
    expected.update({s: Piece(BLACK, False) for s in range(1, 6)})
    expected[20] = Piece(BLACK, True)
    assert board.pieces() == expected
    assert board.turn == WHITE
    assert board.fen() == "W:W31,32,33,34,35,K40:B1,2,3,4,5,K20"


def test_fen_black_to_move_and_either_colour_first():
    a = make("B:W21,K22:B1,K2", "american")
    b = make("B:B1,K2:W21,K22", "american")
    assert a.turn == b.turn == BLACK
    assert a.pieces() == b.pieces()
    assert b.fen() == "B:W21,K22:B1,K2"


def test_fen_lower_case_side_and_spaces():
    board = make(" w:W21, 22 :B1 ", "american")
    assert board.turn == WHITE
    assert sorted(board.pieces()) == [1, 21, 22]


@pytest.mark.parametrize(
    "fen,expected",
    [
        ("W:W10:B", {10: Piece(WHITE, False)}),
        ("B:W:BK12", {12: Piece(BLACK, True)}),
        ("W:W10", {10: Piece(WHITE, False)}),
        ("W:B12", {12: Piece(BLACK, False)}),
        ("W:W:B", {}),
    ],
)
def test_fen_side_with_no_pieces(fen, expected):
    board = make(fen, "american")
    assert board.pieces() == expected


def test_fen_algebraic_and_numeric_on_algebraic_variants():
    for variant in ("russian", "brazilian", "czech"):
        by_name = make("W:Wa1,Kc3:BKh8,b8", variant)
        by_number = make("W:W29,K22:BK4,1", variant)
        assert (
            by_name.pieces()
            == by_number.pieces()
            == {1: Piece(BLACK, False), 4: Piece(BLACK, True), 22: Piece(WHITE, True), 29: Piece(WHITE, False)}
        )
        assert by_name.fen() == "W:WKc3,a1:Bb8,Kh8"  # sorted by number: 22, 29 / 1, 4
        assert by_name.fen(numeric=True) == "W:WK22,29:B1,K4"
        assert make("W:W21-24:B", variant).fen() == "W:Wa3,c3,e3,g3:B"


def test_fen_pdn_tag_and_trailing_period():
    assert make('[FEN "B:W31,32:B1,2"]', "international").fen() == "B:W31,32:B1,2"
    assert make("B:W31,32:B1,2.", "international").fen() == "B:W31,32:B1,2"


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_fen_round_trip(variant):
    board = Board(variant=variant)
    fens = [board.fen()]
    # play a short deterministic game: always the first legal move
    for _ in range(30):
        if board.is_game_over():
            break
        board.push(next(iter(board.legal_moves)))
        fens.append(board.fen())
    for fen in fens:
        again = Board(fen, variant=variant)
        assert again.fen() == fen
        assert Board(again.fen(numeric=True), variant=variant).fen() == fen
    # kings survive the round trip
    # (on turkish's 64 squares 6 is on the top row, where a white man would be a king)
    kinged = Board("B:WK1,6:BK31,K32" if variant != "turkish" else "B:WK1,10:BK31,K32", variant=variant)
    assert Board(kinged.fen(), variant=variant).pieces() == kinged.pieces()
    assert Board(kinged.fen(), variant=variant).turn == BLACK


def test_set_fen_clears_history():
    board = Board(variant="american")
    board.push("11-15")
    board.set_fen("W:W21:B1")
    assert board.move_stack == []
    assert board.fen() == "W:W21:B1"
    board.reset()
    assert board.fen() == Board(variant="american").fen()


# --- FEN errors: the message names the token ---------------------------------


@pytest.mark.parametrize(
    "variant,fen,token",
    [
        ("american", "X:W1:B2", "X"),  # bad side
        ("american", "W1:B2", "W1"),  # side missing
        ("american", "W:W1,zz:B5", "zz"),  # not a square
        ("american", "W:W33:B1", "33"),  # off the 8x8 board
        ("american", "W:W0:B1", "0"),
        ("international", "W:W51:B1", "51"),  # off the 10x10 board
        ("russian", "W:Wa2:Bh8", "a2"),  # a light square
        ("russian", "W:Wi1:Bh8", "i1"),  # no such file
        ("american", "W:W1,2:B2", "2"),  # the same square twice
        ("american", "W:W1-5,3:B10", "3"),  # ... once inside a range
        ("american", "W:W5-3:B10", "5-3"),  # a range running backwards
        ("american", "W:W30-35:B1", "30-35"),  # a range leaving the board
        ("american", "W:WK:B1", "K"),
        ("american", "W:X1:B2", "X1"),  # a field without a colour
        ("american", "W:W1:W2", "W2"),  # two white fields
    ],
)
def test_fen_errors_name_the_token(variant, fen, token):
    with pytest.raises(FenError) as info:
        Board(fen, variant=variant)
    assert info.value.token == token
    if token == "W2":
        assert "two W fields" in str(info.value)
    else:
        assert repr(token) in str(info.value)
    assert info.value.fen == fen
    assert isinstance(info.value, ValueError)


def test_fen_errors_empty_and_not_a_string():
    with pytest.raises(FenError):
        Board("", variant="american")
    with pytest.raises(FenError):
        Board("   ", variant="american")
    with pytest.raises(FenError):
        Board(b"W:W1:B2", variant="american")


# =============================================================================
# Errors: one family of ValueErrors
# =============================================================================


def test_error_family():
    for cls in (FenError, InvalidMoveError, IllegalMoveError, AmbiguousMoveError, VariantError, draughts.PdnError):
        assert issubclass(cls, DraughtsError)
        assert issubclass(cls, ValueError)


@pytest.mark.parametrize(
    "text", ["hello", "", "   ", "32", "32-", "-28", "32-28-", "32--28", "32 28", "99-98", "0-5", "k3-k4"]
)
def test_invalid_move_text(text):
    board = Board(variant="international")
    with pytest.raises(InvalidMoveError):
        board.parse_move(text)
    with pytest.raises(ValueError):
        board.push(text)
    assert board.move_stack == []


def test_move_text_must_be_a_string():
    with pytest.raises(InvalidMoveError):
        Board(variant="international").parse_move(3228)


@pytest.mark.parametrize(
    "variant,text",
    [
        ("international", "46-41"),  # onto an occupied square
        ("international", "32-23"),  # two rows at once
        ("international", "32x23"),
        ("american", "21-17"),  # White's man, but Black moves first
        ("american", "9-5"),  # backwards, onto a man
        ("russian", "c3-b2"),
    ],
)
def test_illegal_move(variant, text):
    board = Board(variant=variant)
    with pytest.raises(IllegalMoveError):
        board.parse_move(text)
    with pytest.raises(IllegalMoveError):
        board.push(text)


def test_light_square_in_move_text_is_invalid():
    with pytest.raises(InvalidMoveError):
        Board(variant="russian").parse_move("c3-c4")


def test_pushing_an_illegal_move_raises_and_changes_nothing():
    board = Board(variant="international")
    fen = board.fen()
    with pytest.raises(IllegalMoveError):
        board.push(Move(1, 7))
    with pytest.raises(IllegalMoveError):
        board.push(Move(32, 28, captured=(23,)))
    assert board.fen() == fen and board.move_stack == []
    with pytest.raises(TypeError):
        board.push(3228)


def test_capture_is_compulsory_so_a_quiet_move_is_illegal():
    board = make("W:W22,31:B18", "american")
    with pytest.raises(IllegalMoveError):
        board.push("31-26")
    assert board.push("22x15").captured == (18,)


def test_ambiguous_move_error_has_candidates():
    board = make("W:W26:B22,14,23,15", "american")
    with pytest.raises(AmbiguousMoveError) as info:
        board.push("26x10")
    cands = info.value.candidates
    assert isinstance(cands, tuple) and len(cands) == 2
    assert {frozenset(m.captured) for m in cands} == {frozenset({22, 14}), frozenset({23, 15})}
    assert all(m in board.legal_moves for m in cands)
    assert "26x17x10" in str(info.value) and "26x19x10" in str(info.value)
    assert board.move_stack == []


@pytest.mark.parametrize(
    "name,options",
    [
        ("chess", {}),
        ("", {}),
        (5, {}),
        ("american", {"foo": 1}),
        ("american", {"quiet_plies": -1}),
        ("american", {"repetitions": 1}),
        ("american", {"precedence": "most"}),  # not a field: the flags below are
        ("american", {"prefer_more_kings": "yes"}),
        ("american", {"crown_during_capture": "never"}),
        ("american", {"size": 9}),
        ("international", {"numbering": "italian"}),
        ("russian", {"endgame_rules": "fide"}),
    ],
)
def test_bad_variant_or_option(name, options):
    with pytest.raises(VariantError):
        draughts.variant(name, **options)
    with pytest.raises(ValueError):
        draughts.variant(name, **options)


def test_unknown_variant_on_board():
    with pytest.raises(VariantError):
        Board(variant="chess")
    with pytest.raises(VariantError):
        draughts.variant_for_gametype("27")


def test_variant_names_and_aliases():
    assert draughts.variant("English").name == "american"
    assert draughts.variant(" Shashki ").name == "russian"
    assert draughts.variant().name == "international"
    v = draughts.variant("american", mandatory_capture=False)
    assert draughts.variant(v) is v
    assert not v.is_standard and draughts.variant("american").is_standard


# =============================================================================
# Move values
# =============================================================================


def test_move_is_immutable():
    move = Move(26, 10, (26, 17, 10), (22, 14))
    for attr, value in (("start", 1), ("end", 2), ("path", ()), ("captured", ()), ("promotion", True)):
        with pytest.raises(AttributeError):
            setattr(move, attr, value)
    with pytest.raises(AttributeError):
        move.color = WHITE
    assert (move.start, move.end, move.path, move.captured) == (26, 10, (26, 17, 10), (22, 14))


def test_move_attributes_cannot_be_deleted():
    move = Move(26, 10, (26, 17, 10), (22, 14))
    with pytest.raises(AttributeError):
        del move.start
    assert move.start == 26


def test_move_survives_copy_and_pickle():
    # an immutable value: copy, deepcopy and pickle give an equal value
    move = Move(26, 10, (26, 17, 10), (22, 14))
    for clone in (copy.copy(move), copy.deepcopy(move), pickle.loads(pickle.dumps(move))):
        assert clone == move and clone.path == move.path and clone.captured == move.captured


def test_move_equality_ignores_path_and_capture_order():
    a = Move(32, 32, (32, 21, 12, 23, 32), (27, 17, 18, 28))
    b = Move(32, 32, (32, 23, 12, 21, 32), (28, 18, 17, 27))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != Move(32, 32, (32, 23, 12, 21, 32), (28, 18, 17))
    assert Move(26, 10, captured=(22, 14)) != Move(26, 10, captured=(23, 15))
    assert Move(32, 28) == Move(32, 28, (32, 28))
    assert Move(32, 28) != Move(28, 32)
    assert Move(32, 28) != "32-28"


def test_move_repr_evaluates_back():
    moves = [
        Move(32, 28),
        Move(26, 10, (26, 17, 10), (22, 14)),
        Move(6, 1, promotion=True),
        Move(11, 9, (11, 2, 9), (7, 6), True),
    ]
    board = make("W:WK32:B17,18,27,28", "international")
    moves += list(board.legal_moves)
    board = make("B:W9,K23,K25:B5,21", "russian")
    moves += list(board.legal_moves)
    for move in moves:
        again = eval(repr(move), {"Move": Move})
        assert again == move
        assert (again.path, again.captured, again.promotion) == (move.path, move.captured, move.promotion)
        assert repr(move).startswith("Move(")


def test_move_properties_and_text():
    move = Move(26, 10, (26, 17, 10), (22, 14))
    assert move.is_capture and not Move(32, 28).is_capture
    assert str(move) == "26x17x10"
    assert move.hub() == "26x10x14x22"
    assert str(Move(32, 28)) == Move(32, 28).hub() == "32-28"
    assert Move(32, 28).path == (32, 28)


# =============================================================================
# push, pop, peek, move_stack, copy
# =============================================================================


def test_push_pop_peek_move_stack():
    board = Board(variant="american")
    start = board.fen()
    assert board.turn == BLACK
    first = board.push("11-15")
    assert isinstance(first, Move) and (first.start, first.end) == (11, 15)
    assert board.peek() == first and board.move_stack == [first]
    assert board.turn == WHITE and board.ply == 1
    second = board.push(board.parse_move("24-19"))
    assert board.move_stack == [first, second]
    third = board.push_text("15x24")
    assert third.captured == (19,)
    assert board.piece_at(19) is None and board.piece_at(24) == Piece(BLACK, False)
    assert board.pop() == third
    assert board.piece_at(19) == Piece(WHITE, False) and board.piece_at(24) is None
    assert board.pop() == second and board.pop() == first
    assert board.fen() == start and board.move_stack == [] and board.ply == 0
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_push_returns_the_legal_move_with_its_path():
    board = make("W:W26:B22,14", "american")
    played = board.push(Move(26, 10, captured=(14, 22)))
    assert played.path == (26, 17, 10)
    assert board.peek().path == (26, 17, 10)


def test_copy_is_independent():
    board = Board(variant="russian")
    board.push("c3-d4")
    copy = board.copy()
    assert copy.fen() == board.fen() and copy.move_stack == board.move_stack
    copy.push("f6-e5")
    assert board.ply == 1 and copy.ply == 2
    assert board.fen() != copy.fen()
    copy.pop()
    copy.pop()
    assert copy.fen() == Board(variant="russian").fen()
    assert board.peek().start == 22 and board.peek().end == 18
    bare = board.copy(stack=False)
    assert bare.fen() == board.fen() and bare.move_stack == []
    with pytest.raises(IndexError):
        bare.pop()
    assert bare.variant == board.variant


def test_board_deepcopy_and_pickle():
    board = Board(variant="russian")
    board.push("c3-d4")
    for clone in (copy.deepcopy(board), pickle.loads(pickle.dumps(board))):
        assert clone.fen() == board.fen()
        assert clone.move_stack == board.move_stack
        clone.push("f6-e5")
        assert board.ply == 1


def test_boards_of_two_variants_live_side_by_side():
    a = Board(variant="american")
    r = Board(variant="russian")
    i = Board(variant="international")
    assert (a.legal_moves.count(), r.legal_moves.count(), i.legal_moves.count()) == (7, 7, 9)
    a.push("11-15")
    assert r.legal_moves.count() == 7 and i.legal_moves.count() == 9


# =============================================================================
# The legal-move view
# =============================================================================


def test_legal_moves_view():
    board = Board(variant="international")
    view = board.legal_moves
    assert view.count() == len(view) == 9
    assert bool(view)
    moves = list(view)
    assert len(moves) == 9 and len(set(moves)) == 9
    assert all(isinstance(m, Move) for m in moves)
    assert Move(32, 28) in view
    assert Move(32, 27) in view
    assert Move(32, 23) not in view
    assert "32-28" not in view
    assert board.parse_move("32-28") in view
    assert all(board.is_legal(m) for m in moves)
    assert not board.is_legal(Move(1, 7))


def test_legal_moves_view_follows_the_board():
    board = Board(variant="american")
    view = board.legal_moves
    before = set(view)
    board.push("11-15")
    assert set(view) == set(board.legal_moves) != before
    assert all(m.start > 20 for m in view)
    board.pop()
    assert set(view) == before


def test_legal_moves_view_empty():
    board = make("W:W:B1", "american")
    assert board.legal_moves.count() == 0 and len(board.legal_moves) == 0
    assert not board.legal_moves
    assert list(board.legal_moves) == []


# =============================================================================
# Draw rules
# =============================================================================


def king_walk(board, plies, avoid=(), on_ply=None):
    """Play `plies` king moves, none a capture, none leaving the opponent a
    capture, no position a third time and no king on a square in `avoid`;
    depth-first with backtracking, so deterministic.  `on_ply(board)` is called
    after every ply."""
    seen = collections.Counter([board.fen()])
    played = []

    def options():
        out = []
        for m in board.legal_moves:
            if m.captured or m.end in avoid or not board.piece_at(m.start).king:
                continue
            board.push(m)
            key = board.fen()
            ok = seen[key] < 2 and not any(x.captured for x in board.legal_moves)
            board.pop()
            if ok:
                out.append((seen[key], len(out), m))
        return [m for _, _, m in sorted(out)]

    def go(left):
        if left == 0:
            return True
        for m in options():
            board.push(m)
            seen[board.fen()] += 1
            played.append(m)
            if go(left - 1):
                return True
            played.pop()
            seen[board.fen()] -= 1
            board.pop()
        return False

    assert go(plies), "no walk found"
    if on_ply is not None:
        # replay to report every ply
        for _ in played:
            board.pop()
        for m in played:
            board.push(m)
            on_ply(board)
    return board


def draw_ply(board, limit):
    """Walk kings up to `limit` plies; return the ply at which the outcome first
    became a draw (or None), checking nothing ended earlier."""
    first = []

    def check(b):
        if not first and b.outcome() is not None:
            first.append((b.ply, b.outcome()))

    king_walk(board, limit, on_ply=check)
    return first[0] if first else None


def test_american_40_move_rule():
    board = make("W:WK29,K32:BK1,K4", "american")
    ply, outcome = draw_ply(board, 80)
    assert ply == 80
    assert outcome.termination == Termination.MOVE_COUNT and outcome.winner is None
    assert board.quiet_plies == 80
    assert board.result() == "1/2-1/2"
    assert board.is_game_over()
    # the rule does not end the game one ply earlier
    board.pop()
    assert board.outcome() is None and board.result() == "*"


def test_american_40_move_rule_men_that_do_not_move_do_not_matter():
    # the white man on 29 (a1) and the black man on 4 (h8) could move but are
    # left where they are: only kings move, so the count runs
    board = make("W:WK30,K31,29:BK2,K3,4", "american")
    ply, outcome = draw_ply(board, 80)
    assert ply == 80 and outcome.termination == Termination.MOVE_COUNT


def test_american_man_move_resets_the_count():
    board = make("W:WK30,K31,29:BK2,K3,4", "american")
    king_walk(board, 60, avoid={25})
    assert board.quiet_plies == 60 and board.turn == WHITE and board.outcome() is None
    board.push("29-25")
    assert board.quiet_plies == 0
    ply, outcome = draw_ply(board, 80)
    assert ply == 61 + 80 and outcome.termination == Termination.MOVE_COUNT
    assert board.quiet_plies == 80


def test_american_capture_resets_the_count():
    board = make("W:WK25:BK11", "american")
    for text in ("25-22", "11-15", "22-18"):
        board.push(text)
    assert board.quiet_plies == 3
    move = board.push("15x22")
    assert move.captured == (18,) and board.quiet_plies == 0
    assert board.outcome() == Outcome(Termination.NO_PIECES, BLACK, board.outcome().reason)


def test_american_alternative_counter_capture_or_promotion():
    alt = draughts.variant("american", quiet_plies=0, no_capture_promotion_plies=80)
    fen = "W:WK30,K31,29:BK2,K3,4"
    # a man move does not reset this counter
    board = Board(fen, variant=alt)
    king_walk(board, 40, avoid={25, 8})
    board.push("29-25")
    ply, outcome = draw_ply(board, 39)
    assert ply == 80
    assert outcome.termination == Termination.MOVE_COUNT
    assert "promotion" in outcome.reason
    # under the default rule the same game goes on
    default = Board(fen, variant="american")
    for move in board.move_stack:
        default.push(move)
    assert default.ply == 80 and default.outcome() is None


def test_american_alternative_counter_reset_by_promotion():
    alt = draughts.variant("american", quiet_plies=0, no_capture_promotion_plies=80)
    board = Board("W:WK2,K3,5:BK31,K32", variant=alt)  # the white man on a7 (5)
    king_walk(board, 30, avoid={1})
    promotion = board.push("5-1")
    assert promotion.promotion and board.piece_at(1) == Piece(WHITE, True)
    ply_before = board.ply
    result = draw_ply(board, 80)
    assert result is not None
    assert result[0] == ply_before + 80


def test_threefold_repetition():
    board = make("W:WK29:BK4", "american")
    shuffle = ["29-25", "4-8", "25-29", "8-4"]
    for i, text in enumerate(shuffle * 2, start=1):
        board.push(text)
        if i < 8:
            assert board.outcome() is None, i
    assert board.is_repetition()
    outcome = board.outcome()
    assert outcome.termination == Termination.REPETITION and outcome.winner is None
    assert board.result() == "1/2-1/2"
    board.pop()
    assert not board.is_repetition() and board.outcome() is None


@pytest.mark.parametrize(
    "variant,fen,shuffle,draw",
    [
        ("international", "W:WK46:BK1", ["46-41", "1-7", "41-46", "7-1"], "1-1"),
        ("russian", "W:WKa1:BKb8", ["a1-b2", "b8-a7", "b2-a1", "a7-b8"], "1/2-1/2"),
    ],
)
def test_threefold_repetition_other_variants(variant, fen, shuffle, draw):
    board = make(fen, variant)
    for text in shuffle * 2:
        board.push(text)
    assert board.outcome().termination == Termination.REPETITION
    assert board.result() == draw


def test_repetition_can_be_switched_off():
    board = make("W:WK29:BK4", "american", repetitions=0)
    for text in ["29-25", "4-8", "25-29", "8-4"] * 3:
        board.push(text)
    assert board.outcome() is None


def test_russian_15_move_king_rule():
    board = make("W:WKa1,Kc1:BKh8,Kf8", "russian")
    ply, outcome = draw_ply(board, 30)
    assert ply == 30 and outcome.termination == Termination.MOVE_COUNT


def test_russian_15_move_rule_counts_from_the_last_man_move():
    # the man on b2 goes to the edge (a3), where nothing can take it
    board = make("W:WKe1,Kg1,b2:BKd8,Kf8,h6", "russian")
    king_walk(board, 20, avoid={21})  # keep a3 (21) free
    assert board.turn == WHITE and board.quiet_plies == 20 and board.outcome() is None
    board.push("b2-a3")
    assert board.quiet_plies == 0
    ply, outcome = draw_ply(board, 30)
    assert ply == 21 + 30 and outcome.termination == Termination.MOVE_COUNT


def test_russian_default_has_no_5_move_rule():
    # two kings against one: the FMJD-64 endgame rules are optional, off by default
    board = make("W:WKc1,Ke1:BKh8", "russian")
    ply, _ = draw_ply(board, 30)
    assert ply == 30


@pytest.mark.parametrize(
    "variant,fen",
    [
        ("brazilian", "W:WKa1,Kc1:BKh8,Kf8"),
        ("spanish", "W:WK1,K2:BK31,K32"),
        ("italian", "W:WK29,K30:BK1,K2"),
        ("czech", "W:WKa1,Kc1:BKh8,Kf8"),
    ],
)
def test_reversible_move_counter_of_other_variants(variant, fen):
    limit = draughts.variant(variant).quiet_plies
    assert limit > 0
    ply, outcome = draw_ply(make(fen, variant), limit)
    assert ply == limit and outcome.termination == Termination.MOVE_COUNT


def test_international_25_move_rule():
    board = make("W:WK46,K47,K48,K49:BK3,K4", "international")
    ply, outcome = draw_ply(board, 50)
    assert ply == 50 and outcome.termination == Termination.MOVE_COUNT
    assert board.result() == "1-1"


def test_international_16_move_rule_three_kings_against_one():
    board = make("W:WK47,K48,K49:BK3", "international")
    ply, outcome = draw_ply(board, 32)
    assert ply == 32 and outcome.termination == Termination.MOVE_COUNT
    assert "16" in outcome.reason
    assert board.result() == "1-1"


def test_international_16_move_rule_counts_from_when_the_material_arises():
    # four white kings against one: no endgame rule yet.  The black king on 23
    # takes the white king on 28 and goes to the corner 46: three against one.
    board = make("B:WK28,K47,K48,K49:BK23", "international")
    move = board.push("23x46")
    assert move.captured == (28,)
    start = board.ply
    ply, outcome = draw_ply(board, 32)
    assert ply == start + 32 and outcome.termination == Termination.MOVE_COUNT


def test_international_5_move_rule_two_kings_against_one():
    board = make("W:WK47,K49:BK3", "international")
    ply, outcome = draw_ply(board, 10)
    assert ply == 10 and outcome.termination == Termination.MOVE_COUNT
    assert "5" in outcome.reason


def test_international_5_move_rule_king_and_man_against_king():
    board = make("W:WK47,36:BK3", "international")
    ply, outcome = draw_ply(board, 10)
    assert ply == 10 and outcome.termination == Termination.MOVE_COUNT


# =============================================================================
# Game end and results
# =============================================================================


@pytest.mark.parametrize(
    "variant,fen,winner,token",
    [
        ("international", "B:W31:B", WHITE, "2-0"),
        ("international", "W:W:B1", BLACK, "0-2"),
        ("international", "W:W46:B41,37", BLACK, "0-2"),  # white blocked
        ("american", "W:W:B1", BLACK, "1-0"),  # Black moves first: a Black win is 1-0
        ("american", "B:W21:B", WHITE, "0-1"),
        ("american", "B:W9,14:B5", WHITE, "0-1"),  # black blocked
        ("russian", "B:Wc3:B", WHITE, "1-0"),
        ("russian", "W:W:Bc3", BLACK, "0-1"),
        ("spanish", "B:W1:B", WHITE, "1-0"),
        ("italian", "W:W:B1", BLACK, "0-1"),
        ("brazilian", "W:W:Bc3", BLACK, "0-1"),
        ("czech", "B:Wc3:B", WHITE, "1-0"),
    ],
)
def test_result_of_a_won_game(variant, fen, winner, token):
    board = make(fen, variant)
    outcome = board.outcome()
    assert outcome.winner == winner
    assert outcome.termination in (Termination.NO_PIECES, Termination.NO_MOVES)
    assert board.result() == token
    assert board.is_game_over()


def test_no_pieces_and_no_moves_terminations():
    assert make("W:W:B1", "american").outcome().termination == Termination.NO_PIECES
    assert make("W:W29:B25,22", "american").outcome().termination == Termination.NO_MOVES


def test_game_in_progress():
    for variant in draughts.VARIANTS:
        board = Board(variant=variant)
        assert board.outcome() is None and board.result() == "*" and not board.is_game_over()


def test_outcome_result_tokens_for_resignation_agreement_time():
    intl = draughts.variant("international")
    american = draughts.variant("american")
    assert Outcome(Termination.RESIGNATION, BLACK).result(intl) == "0-2"
    assert Outcome(Termination.AGREEMENT, None).result(intl) == "1-1"
    assert Outcome(Termination.TIME, WHITE).result(intl) == "2-0"
    assert Outcome(Termination.RESIGNATION, BLACK).result(american) == "1-0"
    assert Outcome(Termination.TIME, WHITE).result(american) == "0-1"
    assert Outcome(Termination.AGREEMENT, None).result(american) == "1/2-1/2"


@pytest.mark.parametrize("text", ["٣٢-٢٨", "３２-２８", "32-٢٨"])
def test_move_text_takes_ascii_digits_only(text):
    board = draughts.Board()
    assert board.parse_move("32-28") in board.legal_moves
    with pytest.raises(draughts.InvalidMoveError):
        board.parse_move(text)


@pytest.mark.parametrize(
    "fen,variant,square",
    [
        ("W:W3:B29", "american", "3"),
        ("W:W3:B29", "american", "3"),
        ("B:W30:B47", "international", "47"),
        ("W:Wc3:Bd2,e1", "russian", "e1"),
    ],
)
def test_a_man_on_the_row_where_it_is_crowned_is_no_position(fen, variant, square):
    with pytest.raises(draughts.FenError, match=f"on square {square}, on the row where it is crowned"):
        draughts.Board(fen, variant=variant)


# --- a line of moves as text ------------------------------------------------------


def test_variation_str_numbers_the_moves_from_the_side_to_move():
    board = draughts.Board()
    assert board.variation_str(["32-28", "19-23", "28x19", "14x23"]) == "1. 32-28 19-23 2. 28x19 14x23"
    assert board.variation_str([]) == ""
    board.push("32-28")
    assert board.move_number() == 1
    assert board.variation_str(["19-23", "28x19"]) == "1... 19-23 2. 28x19"
    board.push("19-23")
    assert board.move_number() == 2
    assert board.variation_str(["28x19"]) == "2. 28x19"


def test_variation_str_counts_from_the_variants_first_side():
    # american: black moves first, so a black move begins each number
    board = draughts.Board(variant="american")
    assert board.variation_str(["11-15", "23-19", "8-11"]) == "1. 11-15 23-19 2. 8-11"
    # a position set up with white to move starts at 1...
    board = draughts.Board("W:W21,22,23:B9,10,11", variant="american")
    assert board.variation_str(["23-19", "11-15"]) == "1... 23-19 2. 11-15"
    # russian writes algebraic squares
    board = draughts.Board(variant="russian")
    assert board.variation_str(["c3-d4", "f6-e5"]) == "1. c3-d4 f6-e5"


def test_variation_str_takes_moves_and_leaves_the_board_alone():
    board = draughts.Board()
    moves = []
    b = board.copy()
    for text in ("32-28", "19-23", "28x19"):
        moves.append(b.push(text))
    fen = board.fen()
    assert board.variation_str(moves) == "1. 32-28 19-23 2. 28x19"
    assert board.fen() == fen and board.move_stack == []


def test_variation_str_refuses_an_illegal_move():
    board = draughts.Board()
    with pytest.raises(draughts.IllegalMoveError):
        board.variation_str(["32-28", "32-28"])
    after = board.copy()
    after.push("32-28")
    with pytest.raises(draughts.IllegalMoveError):
        board.variation_str([after.peek(), after.peek()])  # a Move not legal the second time


def test_variation_str_writes_the_full_path_where_two_captures_share_their_squares():
    # the king on 47 takes four men to 26 by two routes: the path tells them apart
    board = draughts.Board("W:WK47:B9,21,22,42,43")
    by_path = {m.path: m for m in board.legal_moves}
    assert board.variation_str([by_path[(47, 20, 3, 26)]]) == "1. 47x20x3x26"
    assert board.variation_str([by_path[(47, 33, 17, 26)]]) == "1. 47x33x17x26"

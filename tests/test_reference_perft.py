"""Validation of the reference move generator (tests/reference_movegen.py).

The reference is the oracle of tests/test_differential.py, so it is itself
checked here against published perft numbers and against small positions
worked out by hand from the rule book.

Perft sources (numbers copied here; nothing is read at run time):

* DCTL perft test suite, Rein Halbersma, https://github.com/rhalbersma/dctl,
  files test/src/algo/traversal/initial/board_08x08.cpp (8x8 start positions,
  collected from the shashki.com "Standard validation generator moves" thread
  and the damforum.nl "Perft for all recognized draughts variants" thread),
  test/src/algo/traversal/initial/board_10x10.cpp (international start),
  test/src/algo/traversal/international/fmjd.cpp (Random178, Woldouby,
  AllKings, AlmostPromotion; damforum.nl "Perft" thread),
  test/src/algo/traversal/international/shashki.cpp (FrontRows),
  test/src/algo/traversal/italian/gilbert.cpp (Italian positions by Gilbert,
  damforum.nl thread 2822).
* Conventions: "drop" = captures with the same start, end and captured set
  are merged into one move (DCTL drop_duplicates_gen, the project's move
  identity); "keep" = every capture path counts (DCTL keep_duplicates_gen).
  Up to the depths used here keep and drop agree for the start positions.

The hand-worked positions quote the rule book (docs/rules.md) and
the squares use the variant numbering of docs/rules.md "Square numbering":
international 1..50 with 1 = (0,1); american grid 1..32 with 1 = b8 = (0,1)
and 29 = a1 = (7,0) (also used for russian, brazilian and czech numbers);
italian 1 = (0,0), rows left to right; spanish 1 = (7,7), rows right to
left from the bottom.
"""

import dataclasses
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reference_movegen as R  # noqa: E402


def perft_list(pos, variant, depth, duplicates, mandatory_capture=True):
    """perft(1) .. perft(depth): the number of nodes at each ply, counted in one
    walk of the reference's moves (R.perft of each depth would walk the levels
    above the last again, a fifth more nodes); R.perft itself agrees at the
    first levels."""
    v = R.get_variant(variant)
    counts = [0] * depth

    def walk(p, ply, king_moves):
        moves = R.legal_moves(p, variant, mandatory_capture, duplicates, king_moves)
        counts[ply] += len(moves)
        if ply + 1 < depth:
            for m in moves:
                walk(R.apply_move(p, m), ply + 1, R.next_king_moves(p, m, king_moves, v) if v.king_limit else None)

    walk(pos, 0, None)
    shallow = min(depth, 3)
    assert [R.perft(pos, d, variant, mandatory_capture, duplicates) for d in range(1, shallow + 1)] == counts[:shallow]
    return counts


# ---------------------------------------------------------------------------
# Start positions
# ---------------------------------------------------------------------------

# (variant, duplicates, published numbers) -- DCTL board_08x08.cpp / board_10x10.cpp
START_PERFT = [
    ("american", "keep", [7, 49, 302, 1469, 7361, 36768, 179740]),  # DCTL "Checkers"
    ("american", "drop", [7, 49, 302, 1469, 7361, 36768]),
    ("russian", "keep", [7, 49, 302, 1469, 7482, 37986, 190146]),  # DCTL "Russian"
    ("russian", "drop", [7, 49, 302, 1469, 7482, 37986]),
    ("brazilian", "keep", [7, 49, 302, 1469, 7473, 37628, 187302]),  # DCTL "Brazilian"
    ("brazilian", "drop", [7, 49, 302, 1469, 7473, 37628]),
    ("spanish", "keep", [7, 49, 302, 1469, 7361, 36473, 177532]),  # DCTL "Spanish"
    ("spanish", "drop", [7, 49, 302, 1469, 7361, 36473]),
    ("italian", "keep", [7, 49, 302, 1469, 7361, 36473, 177532]),  # DCTL "Italian"
    ("italian", "drop", [7, 49, 302, 1469, 7361, 36473]),
    ("czech", "keep", [7, 49, 302, 1469, 7361, 36768, 179740]),  # DCTL "Czech"
    ("czech", "drop", [7, 49, 302, 1469, 7361, 36768]),
    ("international", "keep", [9, 81, 658, 4265, 27117, 167140]),  # DCTL "International"
    ("international", "drop", [9, 81, 658, 4265, 27117]),
]


@pytest.mark.parametrize("variant,duplicates,expected", START_PERFT, ids=[f"{v}-{d}" for v, d, _ in START_PERFT])
def test_start_position_perft(variant, duplicates, expected):
    pos = R.start_position(variant)
    assert perft_list(pos, variant, len(expected), duplicates) == expected


# ---------------------------------------------------------------------------
# Published positions
# ---------------------------------------------------------------------------

POSITION_PERFT = [
    # DCTL international/fmjd.cpp "Random178" (drop)
    (
        "international",
        "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
        "drop",
        [14, 55, 1168, 5432, 87195],
    ),
    # DCTL international/fmjd.cpp "Woldouby" (drop)
    (
        "international",
        "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
        "drop",
        [6, 12, 30, 73, 215, 590, 1944, 6269],
    ),
    # DCTL international/fmjd.cpp "AllKings" (drop)
    (
        "international",
        "W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50"
        ":BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20",
        "drop",
        [17, 79, 352, 1399, 7062],
    ),
    # DCTL international/fmjd.cpp "AlmostPromotion" (drop)
    ("international", "W:W6,7,8,9,10:B41,42,43,44,45", "drop", [9, 81, 795, 7578]),
    # DCTL international/shashki.cpp "FrontRows" (keep)
    ("international", "W:B16,17,18,19,20:W31,32,33,34,35", "keep", [9, 81, 534, 2538, 9052, 29999]),
    # DCTL italian/gilbert.cpp Position1..3 (keep), italian numbering
    (
        "italian",
        "W:W30,26,27,22,23,24,17,18,20:B14,15,16,9,11,5,6,1,3",
        "keep",
        [5, 13, 42, 107, 360, 1099, 3736, 12495],
    ),
    ("italian", "B:W30,21,22,17,20,K6:B25,28,9,5,1,3", "keep", [6, 47, 271, 1916, 10810, 73137]),
    (
        "italian",
        "W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4",
        "keep",
        [13, 112, 828, 6756, 46241, 368908],
    ),  # depth 7 (2468110) decides tie-break (4): below
]


@pytest.mark.parametrize(
    "variant,fen,duplicates,expected", POSITION_PERFT, ids=[f"{v}-{i}" for i, (v, *_rest) in enumerate(POSITION_PERFT)]
)
def test_position_perft(variant, fen, duplicates, expected):
    pos = R.parse_fen(fen, variant)
    assert perft_list(pos, variant, len(expected), duplicates) == expected


def test_italian_king_order_reading_matches_gilbert(monkeypatch):
    """Italian tie-break (4), "the sequence whose first king is captured
    earliest": the published numbers of Gilbert's Position3 decide between
    the two readings.  Both agree up to depth 6; at depth 7 the lexicographic
    reading (compare the positions of all captured kings in order) gives the
    published 2,468,110 and 'first king only' gives 2,468,111.  The one node
    where they differ is tested directly; POSITION_PERFT stops at depth 6 (the
    depth-7 count took 2.5 M leaves of this pure-Python generator, about 20 s,
    the slowest test of the suite), and the core's counts of the position go
    deeper in tests/test_perft.py."""
    fen = "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24"  # reached at ply 5 of Position3
    lex = {(3, 10, frozenset({7, 15, 14}), False)}  # kings at positions 0, 1
    other = (4, 9, frozenset({7, 14, 13}), False)  # kings at positions 0, 2
    monkeypatch.setattr(R, "ITALIAN_KING_ORDER", "lexicographic")
    assert move_set(fen, "italian", duplicates="keep") == lex
    monkeypatch.setattr(R, "ITALIAN_KING_ORDER", "first_king_only")
    assert move_set(fen, "italian", duplicates="keep") == lex | {other}


# ---------------------------------------------------------------------------
# Hand-worked positions (focused rule tests)
# ---------------------------------------------------------------------------


def move_set(fen, variant, mandatory_capture=True, duplicates="drop"):
    """Moves as (start, end, frozenset(captured), promotion) in variant numbering."""
    pos = R.parse_fen(fen, variant)
    sq = lambda rc: R.rc_to_square(variant, rc)  # noqa: E731
    return {
        (sq(m.start), sq(m.end), frozenset(sq(c) for c in m.captured), m.promotion)
        for m in R.legal_moves(pos, variant, mandatory_capture, duplicates)
    }


def test_russian_promotion_during_capture_goes_on_as_king():
    # Brief / docs/rules.md: russian, a man reaching the far row during a capture is
    # crowned and goes on capturing as a (flying) king.  Black man a3 (21)
    # takes b2 (25), is crowned on c1 (30), goes on to take e3 (23) and may
    # land on f4 (19), g5 (16) or h6 (12).  5x14 is a free alternative.
    moves = move_set("B:W9,K23,K25:B5,21", "russian")
    assert moves == {
        (21, 19, frozenset({25, 23}), True),
        (21, 16, frozenset({25, 23}), True),
        (21, 12, frozenset({25, 23}), True),
        (5, 14, frozenset({9}), False),
    }
    pos = R.parse_fen("B:W9,K23,K25:B5,21", "russian")
    for m in R.legal_moves(pos, "russian"):
        if m.start == R.square_to_rc("russian", 21):
            assert m.path[:2] == (R.square_to_rc("russian", 21), R.square_to_rc("russian", 30))
            after, side = R.apply_move(pos, m)
            assert after[m.end] == ("B", True) and side == "W"


def test_far_row_during_capture_three_behaviours():
    # Black man 21 (a3); White men 25 (b2) and 26 (d2).  Black takes 25 and
    # lands on c1 (30), the far row.  Square 23 (e3) behind 26 is empty.
    fen = "B:W25,26:B21"
    # russian: crowned on c1, goes on as a flying king over 26: lands e3/f4/g5/h6
    assert move_set(fen, "russian") == {(21, e, frozenset({25, 26}), True) for e in (23, 19, 16, 12)}
    # brazilian: goes on as a man (men capture backwards), ends on e3: no crown
    assert move_set(fen, "brazilian") == {(21, 23, frozenset({25, 26}), False)}
    # american / czech: crowned on c1, the move ends
    for v in ("american", "czech"):
        assert move_set(fen, v) == {(21, 30, frozenset({25}), True)}
    # brazilian, capture ending on the far row: crowned
    assert move_set("B:W9,K23,K25:B5,21", "brazilian") == {
        (21, 30, frozenset({25}), True),
        (5, 14, frozenset({9}), False),
    }


def test_turkish_strike_blocks_the_king():
    # International, White king 32, Black men 27 and 43.  After 32x27 the
    # captured man stays on 27 until the move ends, so the king cannot come
    # back over 27 to take 43: three single captures, no double capture.
    fen = "W:WK32:B27,43"
    assert move_set(fen, "international") == {
        (32, 21, frozenset({27}), False),
        (32, 16, frozenset({27}), False),
        (32, 49, frozenset({43}), False),
    }
    # With removal at once (not a real variant: a switch of the reference)
    # the king could come back: shows the test above really tests the rule.
    at_once = dataclasses.replace(R.VARIANTS["international"], remove_at_once=True)
    pos = R.parse_fen(fen, "international")
    assert max(len(m.captured) for m in R.legal_moves(pos, at_once)) == 2


def test_short_king_ring_capture_duplicates():
    # American king 26 and Black men 14, 15, 22, 23 around it: the king takes
    # all four and comes back to 26, clockwise or anticlockwise.  Same start,
    # end and captured set: ONE move when dropping duplicates, two paths kept.
    fen = "W:WK26:B14,15,22,23"
    assert move_set(fen, "american") == {(26, 26, frozenset({14, 15, 22, 23}), False)}
    pos = R.parse_fen(fen, "american")
    assert len(R.legal_moves(pos, "american", duplicates="keep")) == 2
    # A piece may not be jumped twice: nothing captures more than 4.
    assert all(len(m.captured) == 4 for m in R.legal_moves(pos, "american", duplicates="keep"))


def test_international_man_ring_captures_backwards():
    # Same ring with an international man (men capture backwards) on (6,3).
    v = "international"
    pieces = {(6, 3): ("W", False)}
    for rc in [(5, 4), (3, 4), (3, 2), (5, 2)]:
        pieces[rc] = ("B", False)
    pos = (pieces, "W")
    drop = R.legal_moves(pos, v)
    keep = R.legal_moves(pos, v, duplicates="keep")
    assert len(drop) == 1 and len(keep) == 2
    assert drop[0].start == drop[0].end == (6, 3) and not drop[0].promotion


def test_flying_king_same_direction_is_one_path():
    # International king on 46 (9,0); Black men on (7,2) and (4,5), on one
    # diagonal.  The king takes both and lands on any of 4 squares behind the
    # second; where it "landed" between the two does not make another path.
    v = "international"
    pos = ({(9, 0): ("W", True), (7, 2): ("B", False), (4, 5): ("B", False)}, "W")
    drop = R.legal_moves(pos, v)
    keep = R.legal_moves(pos, v, duplicates="keep")
    ends = {(3, 6), (2, 7), (1, 8), (0, 9)}
    assert {m.end for m in drop} == ends and len(drop) == 4
    assert {m.end for m in keep} == ends and len(keep) == 4


def test_flying_king_landing_rule():
    # Russian (no majority rule): White king a1 (29) takes c3 (22); of the
    # landing squares d4..h8 only e5 (15) allows a further capture (of 10, d6),
    # so the king must land on e5 and go on; it ends on c7 (6) or b8 (1).
    assert move_set("W:WK29:B10,22", "russian") == {
        (29, 6, frozenset({22, 10}), False),
        (29, 1, frozenset({22, 10}), False),
    }


def test_american_men_capture_forward_only_and_short_king():
    # White man 22 with Black men 18 (in front) and 26 (behind).
    assert move_set("W:W22:B18,26", "american") == {(22, 15, frozenset({18}), False)}
    # russian: men capture backwards too (26 is behind 22, landing 31 empty)
    assert move_set("W:W22:B18,26", "russian") == {(22, 15, frozenset({18}), False), (22, 31, frozenset({26}), False)}
    # short king moves one square only
    assert move_set("W:WK22:B1", "american") == {(22, e, frozenset(), False) for e in (17, 18, 25, 26)}


def test_optional_capture_house_rule():
    fen = "W:W22:B18"
    assert move_set(fen, "american") == {(22, 15, frozenset({18}), False)}
    assert move_set(fen, "american", mandatory_capture=False) == {
        (22, 15, frozenset({18}), False),
        (22, 17, frozenset(), False),
    }


def test_italian_man_cannot_capture_king():
    # Italian numbering.  White man 22 (5,3) faces a Black king on 18 (4,2).
    assert move_set("W:W22:BK18", "italian") == {(22, 19, frozenset(), False)}
    # a king may capture a king
    assert move_set("W:WK22:BK18", "italian") == {(22, 13, frozenset({18}), False)}


def test_italian_capture_with_king_rather_than_man():
    # White man 22 can take 18, White king 32 can take 28: one piece each.
    assert move_set("W:W22,K32:B18,28", "italian") == {(32, 23, frozenset({28}), False)}


def test_italian_most_kings():
    # White king 22 can take man 18 (to 13) or king 19 (to 15).
    assert move_set("W:WK22:B18,K19", "italian") == {(22, 15, frozenset({19}), False)}


def test_italian_first_king_earliest():
    # White king 22: 22x15x8 takes king 19 then man 12;
    #                22x13x6 takes man 18 then king 10.  Same count, same kings:
    # the sequence meeting the king first wins.
    assert move_set("W:WK22:B12,18,K10,K19", "italian") == {(22, 8, frozenset({19, 12}), False)}


def test_italian_king_order_lexicographic_vs_first_only(monkeypatch):
    # Two 3-piece captures with 2 kings each, both taking a king first:
    #   25x18x27x20 takes K21, K22, 23   (kings at positions 0, 1)
    #   25x18x11x4  takes K21, 14, K7    (kings at positions 0, 2)
    fen = "W:WK25:BK7,12,14,16,K21,K22,23,K26"
    a = (25, 20, frozenset({21, 22, 23}), False)
    b = (25, 4, frozenset({21, 14, 7}), False)
    monkeypatch.setattr(R, "ITALIAN_KING_ORDER", "lexicographic")
    assert move_set(fen, "italian") == {a}
    monkeypatch.setattr(R, "ITALIAN_KING_ORDER", "first_king_only")
    assert move_set(fen, "italian") == {a, b}


def test_spanish_most_kings():
    # Spanish (other colouring), White king on (4,4) can take the man on
    # (3,3) or the king on (3,5): it must take the king.
    v = "spanish"
    pos = ({(4, 4): ("W", True), (3, 3): ("B", False), (3, 5): ("B", True)}, "W")
    moves = R.legal_moves(pos, v)
    assert {(m.end, m.captured) for m in moves} == {((2, 6), ((3, 5),)), ((1, 7), ((3, 5),))}
    # czech / russian rules would let it choose (2 + 3 landing squares)
    assert len(R.legal_moves(pos, dataclasses.replace(R.VARIANTS["spanish"], precedence=None))) == 5


def test_czech_king_must_capture():
    # White king on (0,1) (square 1) can take (1,2) (square 6); the White man
    # on (7,0) (29) can take (6,1) (25).  Czech: the king must capture.
    fen = "W:W29,K1:B6,25"
    king_caps = {(1, e, frozenset({6}), False) for e in (10, 15, 19, 24, 28)}
    assert move_set(fen, "czech") == king_caps
    assert move_set(fen, "russian") == king_caps | {(29, 22, frozenset({25}), False)}


def test_majority_rule():
    # International: man A on (8,9) can take one piece, (7,8); man B on (8,1)
    # can take two, (7,2) then (5,4).  The majority rule leaves only B's.
    v = "international"
    pieces = {
        (8, 9): ("W", False),
        (7, 8): ("B", False),
        (8, 1): ("W", False),
        (7, 2): ("B", False),
        (5, 4): ("B", False),
    }
    pos = (pieces, "W")
    moves = R.legal_moves(pos, v)
    assert [(m.start, m.end, set(m.captured)) for m in moves] == [((8, 1), (4, 5), {(7, 2), (5, 4)})]
    no_majority = dataclasses.replace(R.VARIANTS[v], majority=False)
    assert len(R.legal_moves(pos, no_majority)) == 2


# ---------------------------------------------------------------------------
# Numbering and FEN (docs/rules.md "Square numbering and notation" table)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant,table",
    [
        ("international", {1: (0, 1), 5: (0, 9), 46: (9, 0), 50: (9, 8)}),
        ("american", {1: (0, 1), 4: (0, 7), 29: (7, 0), 32: (7, 6)}),
        ("russian", {1: (0, 1), 4: (0, 7), 5: (1, 0), 29: (7, 0), 32: (7, 6)}),
        ("italian", {1: (0, 0), 4: (0, 6), 29: (7, 1), 32: (7, 7)}),
        ("spanish", {1: (7, 7), 4: (7, 1), 29: (0, 6), 32: (0, 0)}),
    ],
)
def test_square_numbering(variant, table):
    for n, rc in table.items():
        assert R.square_to_rc(variant, n) == rc
        assert R.rc_to_square(variant, rc) == n
    n_squares = 50 if variant == "international" else 32
    assert sorted(R.rc_to_square(variant, R.square_to_rc(variant, n)) for n in range(1, n_squares + 1)) == list(
        range(1, n_squares + 1)
    )


def test_algebraic():
    assert R.algebraic_to_rc("russian", "a1") == (7, 0) == R.square_to_rc("russian", 29)
    assert R.algebraic_to_rc("russian", "b8") == (0, 1)
    assert R.rc_to_algebraic("russian", (7, 6)) == "g1"


@pytest.mark.parametrize(
    "variant,fen",
    [
        ("american", "B:W21-32:B1-12"),
        ("russian", "W:W21-32:B1-12"),
        ("italian", "W:W21-32:B1-12"),
        ("spanish", "W:W1-12:B21-32"),
        ("czech", "W:W21-32:B1-12"),
        ("brazilian", "W:W21-32:B1-12"),
        ("international", "W:W31-50:B1-20"),
    ],
)
def test_start_positions_match_rules_table(variant, fen):
    assert R.parse_fen(fen, variant) == R.start_position(variant)


def test_fen_parse_and_write():
    pos = R.parse_fen("W:W31,32,K33:B1,2", "international")
    assert pos == (
        {(6, 1): ("W", False), (6, 3): ("W", False), (6, 5): ("W", True), (0, 1): ("B", False), (0, 3): ("B", False)},
        "W",
    )
    assert R.write_fen(pos, "international") == "W:W31,32,K33:B1,2"
    assert R.parse_fen("B:B1,2:WK33,31,32", "international") == (pos[0], "B")
    assert R.parse_fen("W:W5:B", "american") == ({(1, 0): ("W", False)}, "W")
    assert R.parse_fen("W:WK1-3:B", "american")[0] == {(0, 1): ("W", True), (0, 3): ("W", True), (0, 5): ("W", True)}
    assert R.parse_fen("W:Wa1,Kc1:Bh8", "russian")[0] == {
        (7, 0): ("W", False),
        (7, 2): ("W", True),
        (0, 7): ("B", False),
    }

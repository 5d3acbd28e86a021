"""Differential test: the engine (package ``draughts``) against the reference
move generator (tests/reference_movegen.py, validated by
tests/test_reference_perft.py).

For every variant (and for american and russian also with the house rule
``mandatory_capture=False``) it builds POSITIONS_PER_CONFIG positions with a
fixed seed:

* half taken from random games played from the start position with the
  reference generator (uniformly random legal moves);
* half random "king-heavy" placements: random squares, each piece a king with
  probability 1/2, men never on their own promotion row, random side to move.

For every position it compares the full set of legal moves as
(start, end, frozenset(captured), promotion) in the variant numbering
(duplicates dropped: docs/rules.md move identity), checks that the engine lists no
move twice, and for each move compares the resulting position square by
square (``Board.pieces``) and the side to move.
"""

import functools
import os
import random
import sys
import zlib

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import draughts  # noqa: E402  (the engine under test; not skipped if missing)
import reference_movegen as R  # noqa: E402

SEED = 20240917
POSITIONS_PER_CONFIG = 3000
PERFT_POSITIONS_PER_CONFIG = 300  # of the same positions, for the perft check
PERFT_DEPTH = 2
MAX_REPORTED = 8

CONFIGS = [
    ("american", True),
    ("russian", True),
    ("brazilian", True),
    ("spanish", True),
    ("italian", True),
    ("czech", True),
    ("international", True),
    ("american", False),
    ("russian", False),
    ("pool", True),
    ("thai", True),
]
# the variants added later run fewer positions, to keep the default run short
POSITIONS = {"pool": 1000, "thai": 1000}


# ---------------------------------------------------------------------------
# Position generation (reference only, deterministic)
# ---------------------------------------------------------------------------


def _rng(variant, mandatory, salt):
    key = f"{variant}/{mandatory}/{salt}".encode()
    return random.Random(SEED ^ zlib.crc32(key))


def playout_positions(variant, mandatory, count):
    rnd = _rng(variant, mandatory, "playout")
    out = []
    while len(out) < count:
        pos = R.start_position(variant)
        plies = []
        for _ply in range(200):
            moves = R.legal_moves(pos, variant, mandatory)
            plies.append(pos)
            if not moves:
                break
            pos = R.apply_move(pos, rnd.choice(moves))
        # take a handful of positions spread over the game
        take = min(len(plies), max(1, len(plies) // 6))
        for p in rnd.sample(plies, take):
            out.append(p)
    return out[:count]


def random_positions(variant, mandatory, count):
    rnd = _rng(variant, mandatory, "random")
    v = R.get_variant(variant)
    squares = R.squares(v)
    max_pieces = 24 if v.size == 8 else 40
    out = []
    while len(out) < count:
        n = rnd.randint(2, rnd.choice([6, 12, max_pieces]))
        chosen = rnd.sample(squares, n)
        pieces = {}
        for i, sq in enumerate(chosen):
            colour = "W" if i == 0 else "B" if i == 1 else rnd.choice("WB")
            king = rnd.random() < 0.5 or sq[0] == v.crown_row(colour)
            pieces[sq] = (colour, king)
        out.append((pieces, rnd.choice("WB")))
    return out


@functools.lru_cache(maxsize=None)
def positions_for(variant, mandatory):
    total = POSITIONS.get(variant, POSITIONS_PER_CONFIG)
    half = total // 2
    return tuple(playout_positions(variant, mandatory, half) + random_positions(variant, mandatory, total - half))


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


def _num(variant, sq):
    """Engine square -> variant number (accepts ints and, for the 8x8 variants
    written algebraically, strings like 'c3')."""
    if isinstance(sq, str):
        if sq.isdigit():
            return int(sq)
        return R.rc_to_square(variant, R.algebraic_to_rc(variant, sq))
    return int(sq)


def _engine_key(variant, m):
    return (
        _num(variant, m.start),
        _num(variant, m.end),
        frozenset(_num(variant, c) for c in m.captured),
        bool(m.promotion),
    )


def _ref_key(variant, m):
    sq = lambda rc: R.rc_to_square(variant, rc)  # noqa: E731
    return (sq(m.start), sq(m.end), frozenset(sq(c) for c in m.captured), m.promotion)


ALGEBRAIC = ("russian", "brazilian", "czech")


def _fmt_key(k, variant=None):
    start, end, caps, promo = k
    sep = "x" if caps else "-"
    s = f"{start}{sep}{end}"
    if caps:
        s += " takes " + ",".join(map(str, sorted(caps)))
    if variant in ALGEBRAIC:
        alg = lambda n: R.rc_to_algebraic(variant, R.square_to_rc(variant, n))  # noqa: E731
        s += f" [{alg(start)}{':' if caps else '-'}{alg(end)}"
        if caps:
            s += " takes " + ",".join(alg(c) for c in sorted(caps))
        s += "]"
    if promo:
        s += " (promotes)"
    return s


def _engine_colour(c):
    if c == draughts.WHITE:
        return "W"
    if c == draughts.BLACK:
        return "B"
    raise AssertionError(f"unknown colour {c!r}")


def king_moves_fen(variant, king_moves):
    """The frisian king-move counts as lidraughts' FEN field (black first)."""
    if not king_moves:
        return ""

    def one(colour):
        count, rc = king_moves.get(colour, (0, None))
        return f"{count}{R.rc_to_square(variant, rc):02d}" if count else "0"

    return f":+{one('B')}+{one('W')}"


def _engine_board(variant, mandatory, board_variant, pos, king_moves=None):
    return draughts.Board(R.write_fen(pos, variant) + king_moves_fen(variant, king_moves), variant=board_variant)


def _engine_king_moves(variant, child):
    out = {}
    for colour, (count, square) in child.king_moves().items():
        if count:
            out[_engine_colour(colour)] = (count, R.square_to_rc(variant, square))
    return out


@functools.lru_cache(maxsize=None)
def _numbers(variant):
    """The reference's (row, column) of each square -> its number in the variant."""
    return {rc: n for n, rc in enumerate(R.squares(variant), start=1)}


def compare_position(variant, mandatory, board_variant, pos, king_moves=None):
    """Return a list of problem descriptions (empty when the engine agrees);
    king_moves: the frisian counts ({colour: (count, square)})."""
    problems = []
    number = _numbers(variant)
    ref_moves = R.legal_moves(pos, variant, mandatory, king_moves=king_moves)
    ref = {_ref_key(variant, m): m for m in ref_moves}
    board = _engine_board(variant, mandatory, board_variant, pos, king_moves)
    eng = {}
    for m in board.legal_moves:
        k = _engine_key(variant, m)
        if k in eng:
            problems.append(f"engine lists move twice: {_fmt_key(k, variant)}")
        eng[k] = m
        path = tuple(_num(variant, s) for s in m.path)
        if not path or path[0] != k[0] or path[-1] != k[1]:
            problems.append(f"engine path {path} does not run from start to end of {_fmt_key(k, variant)}")
    only_eng = sorted(set(eng) - set(ref), key=_fmt_key)
    only_ref = sorted(set(ref) - set(eng), key=_fmt_key)
    if only_eng:
        problems.append("moves only in engine: " + "; ".join(_fmt_key(x, variant) for x in only_eng))
    if only_ref:
        problems.append("moves only in reference: " + "; ".join(_fmt_key(x, variant) for x in only_ref))
    for k in sorted(set(eng) & set(ref), key=_fmt_key):
        expected_pieces, expected_side = R.apply_move(pos, ref[k])
        child = board.copy()
        child.push(eng[k])
        diffs = []
        got = {n: (_engine_colour(p.color), bool(p.king)) for n, p in child.pieces().items()}
        want = {number[rc]: piece for rc, piece in expected_pieces.items()}
        if got != want:
            for n in sorted(set(got) | set(want)):
                if got.get(n) != want.get(n):
                    diffs.append(f"square {n}: engine {got.get(n)}, reference {want.get(n)}")
        if _engine_colour(child.turn) != expected_side:
            diffs.append(f"side to move: engine {child.turn}, reference {expected_side}")
        if R.get_variant(variant).king_limit:
            want_km = R.next_king_moves(pos, ref[k], king_moves, variant)
            got_km = _engine_king_moves(variant, child)
            if got_km != want_km:
                diffs.append(f"king moves: engine {got_km}, reference {want_km}")
        if diffs:
            problems.append(f"after {_fmt_key(k, variant)}: " + "; ".join(diffs[:6]))
    return problems


@pytest.mark.parametrize(
    "variant,mandatory", CONFIGS, ids=[f"{v}{'' if m else '-optional-capture'}" for v, m in CONFIGS]
)
def test_engine_matches_reference(variant, mandatory):
    board_variant = variant if mandatory else draughts.variant(variant, mandatory_capture=False)
    failures = []
    n_failed = 0
    positions = positions_for(variant, mandatory)
    assert len(positions) == POSITIONS.get(variant, POSITIONS_PER_CONFIG)
    for pos in positions:
        problems = compare_position(variant, mandatory, board_variant, pos)
        if problems:
            n_failed += 1
            if len(failures) < MAX_REPORTED:
                failures.append(
                    f"variant={variant} mandatory_capture={mandatory} "
                    f"FEN {R.write_fen(pos, variant)}\n" + R.board_text(pos, variant) + "\n  " + "\n  ".join(problems)
                )
    assert not failures, (
        f"{n_failed} of {len(positions)} positions differ (showing {len(failures)}):\n\n" + "\n\n".join(failures)
    )


@pytest.mark.parametrize(
    "variant,mandatory", CONFIGS, ids=[f"{v}{'' if m else '-optional-capture'}" for v, m in CONFIGS]
)
def test_engine_perft_matches_reference(variant, mandatory):
    """Shallow perft from the first positions of each kind, in both duplicate
    conventions: 'drop' (docs/rules.md move identity) and 'keep' (every capture
    path; a flying king going on in the same direction is one path)."""
    board_variant = variant if mandatory else draughts.variant(variant, mandatory_capture=False)
    positions = positions_for(variant, mandatory)
    half = POSITIONS.get(variant, POSITIONS_PER_CONFIG) // 2
    sample = positions[: PERFT_POSITIONS_PER_CONFIG // 2] + positions[half : half + PERFT_POSITIONS_PER_CONFIG // 2]
    failures = []
    for pos in sample:
        board = _engine_board(variant, mandatory, board_variant, pos)
        for dup in ("drop", "keep"):
            want = [R.perft(pos, d, variant, mandatory, dup) for d in range(1, PERFT_DEPTH + 1)]
            got = [board.perft(d, duplicates=dup) for d in range(1, PERFT_DEPTH + 1)]
            if got != want:
                failures.append(
                    f"variant={variant} mandatory_capture={mandatory} duplicates={dup} "
                    f"FEN {R.write_fen(pos, variant)}: engine {got}, reference {want}"
                )
    assert not failures, (
        f"{len(failures)} perft differences (showing {min(len(failures), MAX_REPORTED)}):\n"
        + "\n".join(failures[:MAX_REPORTED])
    )


# Hand-worked positions of tests/test_reference_perft.py (one per tricky rule),
# played in every variant whose numbering they fit.
GRID_8X8 = ("american", "russian", "brazilian", "czech")  # american-grid numbers
RULE_POSITIONS = (
    [
        (v, fen)
        for v in GRID_8X8
        for fen in (
            "B:W9,K23,K25:B5,21",  # russian: crowned in the capture, goes on as king
            "B:W25,26:B21",  # the three far-row behaviours
            "W:WK26:B14,15,22,23",  # ring capture, duplicates
            "W:WK29:B10,22",  # flying-king landing rule
            "W:W22:B18,26",  # men capture backwards or not
            "W:W22:B18",  # optional capture
            "W:W29,K1:B6,25",  # czech: the king must capture
        )
    ]
    + [
        ("international", fen)
        for fen in (
            "W:WK32:B27,43",  # Turkish strike
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            "W:W6,7,8,9,10:B41,42,43,44,45",
        )
    ]
    + [
        ("italian", fen)
        for fen in (
            "W:W22:BK18",
            "W:WK22:BK18",
            "W:W22,K32:B18,28",
            "W:WK22:B18,K19",
            "W:WK22:B12,18,K10,K19",
            "W:WK25:BK7,12,14,16,K21,K22,23,K26",
            "W:WK3,K4,5,17,20,K27,K28:BK7,K13,14,K15,21,24",
        )
    ]
    + [
        ("spanish", fen)
        for fen in (
            "W:WK14:B10,K11",
            "W:WK14:BK10,11",
        )
    ]
)


@pytest.mark.parametrize("variant,fen", RULE_POSITIONS, ids=[f"{v}-{f}" for v, f in RULE_POSITIONS])
def test_engine_matches_reference_on_rule_positions(variant, fen):
    pos = R.parse_fen(fen, variant)
    for mandatory in (True, False) if variant != "international" else (True,):
        board_variant = variant if mandatory else draughts.variant(variant, mandatory_capture=False)
        problems = compare_position(variant, mandatory, board_variant, pos)
        assert not problems, (
            f"variant={variant} mandatory_capture={mandatory} FEN {fen}\n"
            + R.board_text(pos, variant)
            + "\n  "
            + "\n  ".join(problems)
        )


# ---------------------------------------------------------------------------
# frisian, frysk, killer, antidraughts, breakthrough: the same comparison on
# NEW_POSITIONS positions each (half random playouts, half random placements,
# king-heavy except in breakthrough, where a king ends the game), with the
# frisian king-move counts: kept along the playouts by the reference, random
# on the placements.
# ---------------------------------------------------------------------------

NEW_VARIANTS = ("frisian", "frysk", "killer", "antidraughts", "breakthrough")
NEW_POSITIONS = 1000
NEW_PERFT_POSITIONS = 60


def _random_king_moves(rnd, pos, v):
    pieces, _ = pos
    out = {}
    for colour in "WB":
        kings = sorted(rc for rc, (c, k) in pieces.items() if c == colour and k)
        has_men = any(c == colour and not k for c, k in pieces.values())
        if kings and has_men and rnd.random() < 0.7:
            out[colour] = (rnd.randint(1, v.king_limit), rnd.choice(kings))
    return out


@functools.lru_cache(maxsize=None)
def new_positions_for(variant):
    """((pieces, side), king moves) pairs."""
    v = R.get_variant(variant)
    rnd = _rng(variant, True, "new-variants")
    out = []
    half = NEW_POSITIONS // 2
    while len(out) < half:
        pos, km, seen = R.start_position(variant), {}, []
        for _ply in range(200):
            moves = R.legal_moves(pos, variant, True, king_moves=km)
            seen.append((pos, km))
            if not moves:
                break
            m = rnd.choice(moves)
            km, pos = (R.next_king_moves(pos, m, km, v) if v.king_limit else {}), R.apply_move(pos, m)
        out.extend(rnd.sample(seen, min(len(seen), max(1, len(seen) // 6))))
    out = out[:half]
    squares = R.squares(v)
    while len(out) < NEW_POSITIONS:
        n = rnd.randint(2, rnd.choice([6, 12, 40]))
        king_share = rnd.choice([0.0, 0.0, 0.0, 0.5]) if v.goal == "breakthrough" else 0.5
        pieces = {}
        for i, sq in enumerate(rnd.sample(squares, n)):
            colour = "W" if i == 0 else "B" if i == 1 else rnd.choice("WB")
            pieces[sq] = (colour, rnd.random() < king_share or sq[0] == v.crown_row(colour))
        pos = (pieces, rnd.choice("WB"))
        out.append((pos, _random_king_moves(rnd, pos, v) if v.king_limit else {}))
    return tuple(out)


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_new_variants_match_reference(variant):
    failures, n_failed = [], 0
    positions = new_positions_for(variant)
    assert len(positions) == NEW_POSITIONS
    for pos, km in positions:
        problems = compare_position(variant, True, variant, pos, km)
        if problems:
            n_failed += 1
            if len(failures) < MAX_REPORTED:
                failures.append(
                    f"variant={variant} FEN {R.write_fen(pos, variant)}{king_moves_fen(variant, km)}\n"
                    + R.board_text(pos, variant)
                    + "\n  "
                    + "\n  ".join(problems)
                )
    assert not failures, (
        f"{n_failed} of {len(positions)} positions differ (showing {len(failures)}):\n\n" + "\n\n".join(failures)
    )


@pytest.mark.parametrize("variant", NEW_VARIANTS)
def test_new_variants_perft_match_reference(variant):
    """perft(1..2) in both duplicate conventions from the first positions of each kind."""
    positions = new_positions_for(variant)
    half = NEW_POSITIONS // 2
    sample = positions[: NEW_PERFT_POSITIONS // 2] + positions[half : half + NEW_PERFT_POSITIONS // 2]
    failures = []
    for pos, km in sample:
        board = _engine_board(variant, True, variant, pos, km)
        for dup in ("drop", "keep"):
            want = [R.perft(pos, d, variant, True, dup, km or None) for d in (1, 2)]
            got = [board.perft(d, duplicates=dup) for d in (1, 2)]
            if got != want:
                failures.append(
                    f"variant={variant} duplicates={dup} FEN {R.write_fen(pos, variant)}"
                    f"{king_moves_fen(variant, km)}: engine {got}, reference {want}"
                )
    assert not failures, f"{len(failures)} perft differences:\n" + "\n".join(failures[:MAX_REPORTED])

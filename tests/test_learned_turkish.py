"""Turkish in the learned evaluation: its block patterns, dense features and
score against a slow pure-Python computation from board coordinates, colour
and mirror symmetry, the shipped weights file, and training end to end.

The reference knows nothing of bitboards or lookup tables.  Squares are
(row, column) pairs, row 0 at the top (White moves up), internal square
i = 8 * row + column (pydraughts' number i + 1 from a8, the start has White
on rows 5 and 6).  The regions are the 2x4 blocks (rows r, r+1, columns
c..c+3) for r = 0..6 and c = 0, 2, 4, then the 4x2 blocks (rows r..r+3,
columns c, c+1) for r = 0, 2, 4 and c = 0, 2, 4, 6, each block's squares row
by row its base-3 digits, lowest first (0 empty or a king, 1 white man, 2
black man).  The pattern score is symmetrised by evaluating the parameters
on the position, its mirror image (+) and the colour-flipped images of both
(-), board by board, with no index tables (the king square weights likewise
over the position and its mirror image); the dense features are those of
draughts.learned.DENSE_ORTHO, Black's counted on the board turned round with
the colours swapped.
"""

import hashlib
import itertools
import json
import os
import random
import sys

import numpy as np
import pytest

import draughts
from draughts import learned
from draughts.engine import Engine
from draughts_core.eval_features import features
from draughts_core.position import Position

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_turkish as T  # noqa: E402

TURKISH = draughts.variant("turkish")
BLOCKS = [(r, c, 2, 4) for r in range(7) for c in (0, 2, 4)] + [(r, c, 4, 2) for r in (0, 2, 4) for c in (0, 2, 4, 6)]
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
FULL = 32


# --- the reference ------------------------------------------------------------


def board_of(white, black, kings):
    """{(row, col): (colour, king)} of internal squares lists."""
    out = {}
    for colour, group in ((0, white), (1, black)):
        for s in group:
            out[divmod(s, 8)] = (colour, s in kings)
    return out


def turned(board):
    """The board turned half round with the colours swapped."""
    return {(7 - r, 7 - c): (1 - colour, king) for (r, c), (colour, king) in board.items()}


def mirrored(board):
    return {(r, 7 - c): piece for (r, c), piece in board.items()}


def on_board(r, c):
    return 0 <= r < 8 and 0 <= c < 8


def ref_regions(board):
    out = []
    for r0, c0, _h, w in BLOCKS:
        index = 0
        for k in range(8):
            piece = board.get((r0 + k // w, c0 + k % w))
            digit = 0 if piece is None or piece[1] else 1 + piece[0]
            index += digit * 3**k
        out.append(index)
    return out


def ref_side(board):
    """White's dense features (the first 12 of DENSE_ORTHO)."""
    men = [rc for rc, (col, king) in board.items() if col == 0 and not king]
    kings = [rc for rc, (col, king) in board.items() if col == 0 and king]

    def empty(r, c):
        return on_board(r, c) and (r, c) not in board

    king_mobility = 0
    stuck = 0
    for r, c in kings:
        for dr, dc in DIRECTIONS:
            rr, cc = r + dr, c + dc
            while empty(rr, cc):
                king_mobility += 1
                rr, cc = rr + dr, cc + dc
        stuck += not any(empty(r + dr, c + dc) for dr, dc in DIRECTIONS)
    moves = [sum(empty(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1))) for r, c in men]
    left = sum(1 for r, c in men if c < 4)
    k = len(kings)
    by_name = {
        "men": len(men),
        "king1": int(k >= 1),
        "king2": int(k >= 2),
        "kings3": max(0, k - 2),
        "king_mobility": king_mobility,
        "men_mobility": sum(moves),
        "king_stuck": stuck,
        "tempo": sum(7 - r for r, c in men),
        "balance": abs(2 * left - len(men)),
        "threshold": sum(1 for r, c in men if r == 1),
        "threshold_free": sum(1 for r, c in men if r == 1 and empty(0, c)),
        "locked": sum(1 for m in moves if m == 0),
    }
    # in the order the core's enum (draughts_core.eval.DenseOrtho) names them
    return [by_name[name] for name in learned.DENSE_ORTHO[: learned.SIDE_FEATURES]]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def ref_features(white, black, kings, turn):
    board = board_of(white, black, kings)
    fw = ref_side(board)
    fb = ref_side(turned(board))
    dense = [a - b for a, b in zip(fw, fb)]
    dense.append(1 if turn == 0 else -1)
    mw = fw[0] + 3 * sum(1 for col, king in board.values() if col == 0 and king)
    mb = fb[0] + 3 * sum(1 for col, king in board.values() if col == 1 and king)
    dense.append(trunc_div((mw - mb) * 32, mw + mb) if mw + mb else 0)
    king_sq = [0] * 64
    for s in kings:
        if s in white:
            king_sq[s] += 1
        else:
            king_sq[63 - s] -= 1
    return ref_regions(board), dense, len(board), king_sq


def ref_score(patterns, dense_w, king_w, white, black, kings, turn):
    """The learned score from the side to move, integer arithmetic as the core
    (the weights are small enough that no table entry is clipped)."""
    if len(white) == 1 and len(black) == 1:
        return 0  # one piece against one piece: a draw (below)
    board = board_of(white, black, kings)
    _, dense, pieces, king_sq = ref_features(white, black, kings, turn)
    tot = [0, 0]
    for sign, image in ((1, board), (1, mirrored(board)), (-1, turned(board)), (-1, turned(mirrored(board)))):
        for r, i in enumerate(ref_regions(image)):
            for phase in (0, 1):
                tot[phase] += sign * int(patterns[r][i][phase])
    for f, x in enumerate(dense):
        for phase in (0, 1):
            tot[phase] += x * int(dense_w[f][phase])
    # the king squares, symmetrised as the patterns: the board and its mirror image
    mirror_kings = [8 * (s // 8) + 7 - s % 8 for s in kings]
    mirror_white = [8 * (s // 8) + 7 - s % 8 for s in white]
    for ksq in (king_sq, ref_features(mirror_white, [8 * (s // 8) + 7 - s % 8 for s in black], mirror_kings, turn)[3]):
        for s, x in enumerate(ksq):
            for phase in (0, 1):
                tot[phase] += x * int(king_w[s][phase])
    ph = min(pieces, FULL)
    score = trunc_div(tot[0] * ph + tot[1] * (FULL - ph), FULL)
    return score if turn == 0 else -score


# --- positions ----------------------------------------------------------------


def random_placements(count, seed):
    """Random placements: no man on its crowning row, kings often; a few
    kings-only endings."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        density = rnd.choice((0.1, 0.3, 0.55))
        white, black, kings = [], [], []
        for s in range(64):
            if rnd.random() > density:
                continue
            colour = rnd.randrange(2)
            row = s // 8
            king = rnd.random() < 0.15 or (colour == 0 and row == 0) or (colour == 1 and row == 7)
            (white if colour == 0 else black).append(s)
            if king:
                kings.append(s)
        out.append((white, black, kings, rnd.randrange(2)))
    for wk, bk in ((1, 1), (2, 1), (1, 3)):
        sq = rnd.sample(range(64), wk + bk)
        out.append((sq[:wk], sq[wk:], sq, rnd.randrange(2)))
    # one piece against one, and two against one
    for kinds in ((True, False), (False, True), (False, False), (True, False, False), (True, True, False)):
        sq = rnd.sample(range(8, 56), len(kinds))
        white = sq[:1] if len(kinds) == 2 else sq[:2]
        out.append((white, [s for s in sq if s not in white], [s for s, k in zip(sq, kinds) if k], rnd.randrange(2)))
    return out


def played_positions(count, seed):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        board = draughts.Board(variant=TURKISH)
        for _ in range(rnd.randrange(0, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rnd.choice(moves))
        white, black, kings = board.position.pieces()
        out.append((white, black, kings, board.position.turn))
    return out


def positions(seed):
    return random_placements(150, seed) + played_positions(50, seed)


def position(white, black, kings, turn):
    return Position(TURKISH.core_rules, white, black, kings, turn)


def key_of(white, black, kings, turn):
    return position(white, black, kings, turn).key()[:4]


def weights_file(path, seed, pattern_scale):
    """A weights file with random parameters at `path`, patterns within
    +/- pattern_scale: (path, patterns, dense, king squares)."""
    rng = np.random.default_rng(seed)
    patterns = rng.integers(-pattern_scale, pattern_scale, size=(len(BLOCKS), learned.NPAT, 2))
    dense = rng.integers(-150, 150, size=(len(learned.DENSE_ORTHO), 2))
    king_sq = rng.integers(-100, 100, size=(64, 2))
    learned.write(str(path), patterns, dense, king_sq, {"test": True})
    return str(path), patterns, dense, king_sq


@pytest.fixture(scope="module")
def random_weights(tmp_path_factory):
    return weights_file(tmp_path_factory.mktemp("w") / "random-turkish.npz", 7, 400)


# --- tests --------------------------------------------------------------------


def test_the_internal_squares_are_rows_from_the_top():
    white, black, _ = draughts.Board(variant=TURKISH).position.pieces()
    assert sorted(white) == list(range(40, 56)) and sorted(black) == list(range(8, 24))


def test_features_equal_the_reference():
    for white, black, kings, turn in positions(21):
        got = features(TURKISH.core_rules, *key_of(white, black, kings, turn))
        assert (got[0], got[1], got[2], got[3]) == ref_features(white, black, kings, turn), (white, black, kings, turn)


def test_feature_arrays_equal_one_by_one():
    keys = [key_of(*p) for p in positions(22)]
    w, b, k, t = (np.array(col, dtype=np.uint64 if i < 3 else np.uint8) for i, col in enumerate(zip(*keys)))
    idx, dense, pieces, king_sq = learned.features(TURKISH, w, b, k, t)
    assert idx.shape == (len(keys), len(BLOCKS)) and king_sq.shape == (len(keys), 64)
    for j, key in enumerate(keys):
        one = features(TURKISH.core_rules, *key)
        assert list(idx[j]) == one[0] and list(dense[j]) == one[1] and pieces[j] == one[2]
        assert list(king_sq[j]) == one[3]


def test_learned_score_equals_the_reference(random_weights):
    path, patterns, dense, king_sq = random_weights
    engine = Engine(TURKISH, eval="learned", weights_file=path, tt_mb=1)
    assert engine.eval == "learned"
    nonzero = 0
    for white, black, kings, turn in positions(23):
        got = engine._searcher.evaluate(position(white, black, kings, turn))
        assert got == ref_score(patterns, dense, king_sq, white, black, kings, turn), (white, black, kings, turn)
        nonzero += got != 0
    assert nonzero > 150


@pytest.mark.parametrize("scale,packed", [(3000, False), (100, True)])
def test_pattern_sums_packed_or_not_score_exactly(tmp_path, scale, packed):
    """The core sums the patterns packed (opening and endgame in one int32)
    only when no sum can leave 16 bits, as for the shipped file; larger
    weights take the plain sums; both score exactly as the reference."""
    path, patterns, dense, king_sq = weights_file(tmp_path / f"turkish-{scale}.npz", 8, scale)
    assert learned.load(TURKISH, path).packed == packed
    assert learned.load(TURKISH).packed
    engine = Engine(TURKISH, eval="learned", weights_file=path, tt_mb=1)
    big = 0
    for white, black, kings, turn in positions(24):
        want = ref_score(patterns, dense, king_sq, white, black, kings, turn)
        assert engine._searcher.evaluate(position(white, black, kings, turn)) == want, (white, black, kings, turn)
        big += abs(want) > 2 * scale
    assert big > 20


def _weights(which, random_weights):
    return random_weights[0] if which == "random" else None


@pytest.mark.parametrize("which", ["random", "shipped"])
def test_colour_flip_negates_and_the_mirror_keeps_the_score(which, random_weights):
    """The board turned round with the colours swapped: the same score for the
    side to move (now the other colour); the mirror image (columns reversed):
    the same score."""
    engine = Engine(TURKISH, eval="learned", weights_file=_weights(which, random_weights), tt_mb=1)
    nonzero = 0
    for white, black, kings, turn in positions(24):
        a = engine._searcher.evaluate(position(white, black, kings, turn))
        flip = position([63 - s for s in black], [63 - s for s in white], [63 - s for s in kings], 1 - turn)
        mir = [[8 * (s // 8) + 7 - s % 8 for s in group] for group in (white, black, kings)]
        assert engine._searcher.evaluate(flip) == a, (white, black, kings, turn)
        assert engine._searcher.evaluate(position(*mir, turn)) == a, (white, black, kings, turn)
        nonzero += a != 0
    assert nonzero > 150


def test_weights_of_another_board_are_refused(tmp_path, random_weights):
    with pytest.raises(draughts.DraughtsError, match="are for the orthogonal 8x8 board, not 8x8"):
        Engine("american", eval="learned", weights_file=random_weights[0])
    diagonal = tmp_path / "diagonal.npz"
    learned.write(
        str(diagonal), np.zeros((learned.regions(8), learned.NPAT, 2)), np.zeros((14, 2)), np.zeros((32, 2)), {}
    )
    with pytest.raises(draughts.DraughtsError, match="are for 8x8, not the orthogonal 8x8 board"):
        Engine(TURKISH, eval="learned", weights_file=str(diagonal))
    bad = tmp_path / "bad.npz"
    np.savez(
        bad,
        patterns=np.zeros((len(BLOCKS), learned.NPAT, 2), dtype=np.int16),
        dense=np.zeros((14, 2), dtype=np.int16),
        king_squares=np.zeros((32, 2), dtype=np.int16),
    )
    with pytest.raises(draughts.DraughtsError, match="king squares of shape"):
        Engine(TURKISH, eval="learned", weights_file=str(bad))


def test_shipped_weights_load_and_match_their_manifest():
    path = learned.weights_path(TURKISH)
    man = learned.manifest(path)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == man["sha256"]
    assert man["variant"] == "turkish"
    assert man["command"].startswith("draughts train ") and "-v turkish" in man["command"]
    assert man["heldout_loss"] < man["heldout_loss_start"]
    assert man["positions"] > 10000 and man["games"] >= 100 and man["generation"] >= 1
    patterns, dense, king_sq = learned.read(path, learned.layout(TURKISH))
    assert patterns.dtype == np.int16 and patterns.shape == (len(BLOCKS), learned.NPAT, 2)
    assert dense.shape == (len(learned.DENSE_ORTHO), 2) and king_sq.shape == (64, 2)
    engine = Engine(TURKISH, eval="learned", tt_mb=1)
    board = draughts.Board(variant=TURKISH)
    # the start is symmetric: its score is the side to move's share only
    assert abs(engine.evaluate(board)) < 0.5
    assert engine.play(board, draughts.Limit(depth=3)).move in list(board.legal_moves)


def test_training_lowers_the_heldout_loss(tmp_path):
    """`draughts train -v turkish` end to end on a tiny budget: games, fit,
    weights file and manifest; the fitted weights beat the starting ones on
    held-out games and play."""
    from draughts.cli import main

    out = tmp_path / "run"
    argv = [
        "train",
        "-v",
        "turkish",
        "--out",
        str(out),
        "--games",
        "100",
        "--nodes",
        "200",
        "--epochs",
        "3",
        "--workers",
        "2",
        "--nice",
        "0",
        "--seed",
        "3",
        "--score-weight",
        "0.5",
    ]
    assert main(argv) == 0
    man = json.loads((out / "weights-1.json").read_text())
    assert man["heldout_loss"] < man["heldout_loss_start"]
    assert man["games"] == 100 and man["variant"] == "turkish" and man["played_with"] == "classic"
    assert man["command"] == "draughts train " + " ".join(argv[1:])
    engine = Engine(TURKISH, eval="learned", weights_file=str(out / "weights-1.npz"), tt_mb=1)
    board = draughts.Board(variant=TURKISH)
    assert engine.play(board, draughts.Limit(depth=4)).move in list(board.legal_moves)


# --- endings --------------------------------------------------------------------


def lone_pieces():
    """Every position of one piece against one (each a king or a man, no man
    on its crowning row), either side to move, in the reference's form."""
    for a, b in itertools.permutations(range(64), 2):
        for wking, bking in itertools.product((False, True), repeat=2):
            ra, rb = divmod(a, 8), divmod(b, 8)
            if (not wking and ra[0] == 0) or (not bking and rb[0] == 7):
                continue
            pieces = {ra: (T.WHITE, wking), rb: (T.BLACK, bking)}
            for side in (T.WHITE, T.BLACK):
                yield a, b, wking, bking, (pieces, side)


def has_capture(pos):
    return any(m.captured for m in T.legal_moves(pos))


def test_one_piece_against_one_is_a_draw_and_scores_zero():
    """With one piece each, the side to move always has a move after which the
    other cannot capture (checked with the reference generator on every such
    position where it cannot capture itself): neither side can force a win,
    so both evaluations score these positions 0 (they scored a king against a
    man about +3)."""
    engines = [Engine(TURKISH, eval=e, tt_mb=1) for e in ("classic", "learned")]
    quiet = 0
    for a, b, wking, bking, pos in lone_pieces():
        if has_capture(pos):
            continue
        quiet += 1
        assert any(not has_capture(T.apply_move(pos, m)) for m in T.legal_moves(pos)), T.write_fen(pos)
        p = position([a], [b], [s for s, k in ((a, wking), (b, bking)) if k], 0 if pos[1] == T.WHITE else 1)
        for engine in engines:
            assert engine._searcher.evaluate(p) == 0, (engine.eval, T.write_fen(pos))
    assert quiet > 20000


#: won endings, White to move, and the plies to the win with best play (from a
#: retrograde solve of each class by benchmarks/turkish_endings.py,
#: benchmarks/results/2026-12-01-turkish.md; only the win is checked here): two kings against a man or a king, a king and a man
#: against a man or a king
WON = [
    ("W:WKd4,Kc2:Bh2", 11),
    ("W:WKf7,Kf2:Ba2", 11),
    ("W:WKa2,e1:Bf6", 11),
    ("W:WKa6,b4:Bc3", 15),
    ("W:WKh7,f1:Bb6", 13),
    ("W:WKf4,Ka1:BKh3", 9),
    ("W:WKa5,Kd4:BKb3", 11),
    ("W:We6,Kf1:BKh4", 17),
    ("W:WKd6,f6:BKg3", 19),
]


@pytest.mark.parametrize("eval_name", ["classic", "learned"])
def test_won_endings_are_won(eval_name):
    """Each side searching to depth 3, White wins every WON ending by the rules
    (Black has no piece or no move left) within 200 plies (at this commit the
    classic evaluation took 19-155 plies, the learned one 13-139)."""
    engine = Engine(TURKISH, eval=eval_name, tt_mb=4)
    for fen, _ in WON:
        board = draughts.Board(fen, variant=TURKISH)
        engine.new_game()
        while board.outcome() is None and board.ply < 200:
            board.push(engine.play(board, draughts.Limit(depth=3)).move)
        outcome = board.outcome()
        assert outcome is not None and outcome.winner == draughts.WHITE, (fen, board.fen(), outcome)

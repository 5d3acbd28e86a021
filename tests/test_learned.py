"""The learned evaluation: features and scores against a slow pure-Python
computation from board coordinates, colour symmetry, the shipped weights
files, and the training pipeline end to end.

The reference here knows nothing of bitboards: squares are (row, column)
pairs of the internal grid (row 0 at the top, White moving up; square i is
row i // H, column 2 (i % H) + 1 on even rows and 2 (i % H) on odd ones, H
playable squares a row), Black's features are White's features of the board
turned round (row, col) -> (size-1-row, size-1-col) with the colours
swapped, and the feature definitions are those of draughts.learned.DENSE.
"""

import dataclasses
import hashlib
import json
import os
import random

import numpy as np
import pytest

import draughts
from draughts import learned
from draughts.engine import Engine
from draughts.tuning import default_weights
from draughts_core.eval_features import features

#: the learned evaluation on the diagonal grid; turkish (every square) has its
#: own patterns and tests (tests/test_learned_turkish.py)
VARIANTS = [n for n in draughts.VARIANTS if n != "turkish"]
#: every variant on the diagonal grid ships its trained weights
SHIPPED = VARIANTS


# --- the reference ------------------------------------------------------------


def squares(size):
    h = size // 2
    out = []
    for i in range(size * h):
        r = i // h
        out.append((r, 2 * (i % h) + 1 if r % 2 == 0 else 2 * (i % h)))
    return out


def board_of(size, white, black, kings):
    """{(row, col): (colour, king)} of internal squares lists."""
    sq = squares(size)
    out = {}
    for colour, group in ((0, white), (1, black)):
        for s in group:
            out[sq[s]] = (colour, s in kings)
    return out


def turned(size, board):
    """The board turned round with the colours swapped."""
    return {(size - 1 - r, size - 1 - c): (1 - colour, king) for (r, c), (colour, king) in board.items()}


def ref_regions(size, board):
    sq = squares(size)
    out = []
    for r0 in range(0, size - 3, 2):
        for c0 in range(0, size - 3, 2):
            inside = [rc for rc in sq if r0 <= rc[0] < r0 + 4 and c0 <= rc[1] < c0 + 4]
            assert len(inside) == 8
            index = 0
            for k, rc in enumerate(inside):  # internal order: row by row, left to right
                piece = board.get(rc)
                digit = 0 if piece is None or piece[1] else 1 + piece[0]
                index += digit * 3**k
            out.append(index)
    return out


def on_board(size, r, c):
    return 0 <= r < size and 0 <= c < size


def ref_side(size, flying, board):
    """White's dense features (the first 12 of DENSE)."""
    men = [rc for rc, (col, king) in board.items() if col == 0 and not king]
    kings = [rc for rc, (col, king) in board.items() if col == 0 and king]
    enemy = [rc for rc, (col, _) in board.items() if col == 1]
    mobility = 0
    stuck = 0
    for r, c in kings:
        free_near = False
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            rr, cc = r + dr, c + dc
            if on_board(size, rr, cc) and (rr, cc) not in board:
                free_near = True
            while on_board(size, rr, cc) and (rr, cc) not in board:
                mobility += 1
                if not flying:
                    break
                rr, cc = rr + dr, cc + dc
        stuck += not free_near
    left = sum(1 for r, c in men if c < size // 2)
    runaway = 0
    for r, c in men:
        if 1 <= r <= 3 and not any(er < r and abs(ec - c) <= r - er for er, ec in enemy):
            runaway += 1
    locked = sum(
        1 for r, c in men if not any(on_board(size, r - 1, c + dc) and (r - 1, c + dc) not in board for dc in (-1, 1))
    )
    k = len(kings)
    by_name = {
        "men": len(men),
        "king1": int(k >= 1),
        "king2": int(k >= 2),
        "kings3": max(0, k - 2),
        "king_mobility": mobility,
        "king_long_diagonal": sum(1 for r, c in kings if r + c == size - 1),
        "king_stuck": stuck,
        "tempo": sum(size - 1 - r for r, c in men),
        "balance": abs(2 * left - len(men)),
        "back_rank": sum(1 for r, c in men if r == size - 1),
        "runaway": runaway,
        "locked": locked,
    }
    # in the order the core's enum (draughts_core.eval.Dense) names them
    return [by_name[name] for name in learned.DENSE[: learned.SIDE_FEATURES]]


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def ref_features(variant, white, black, kings, turn):
    size = variant.size
    board = board_of(size, white, black, kings)
    fw = ref_side(size, variant.flying_kings, board)
    fb = ref_side(size, variant.flying_kings, turned(size, board))
    dense = [a - b for a, b in zip(fw, fb)]
    dense.append(1 if turn == 0 else -1)
    mw = fw[0] + 3 * sum(1 for col, king in board.values() if col == 0 and king)
    mb = fb[0] + 3 * sum(1 for col, king in board.values() if col == 1 and king)
    dense.append(trunc_div((mw - mb) * 32, mw + mb) if mw + mb else 0)
    n = size * size // 2
    king_sq = [0] * n
    for s in kings:
        if s in white:
            king_sq[s] += 1
        else:
            king_sq[n - 1 - s] -= 1
    return ref_regions(size, board), dense, len(board), king_sq


def ref_score(variant, patterns, dense_w, king_w, white, black, kings, turn):
    """The learned score from the side to move, integer arithmetic as the core."""
    size = variant.size
    nreg = len(patterns)
    idx, dense, pieces, king_sq = ref_features(variant, white, black, kings, turn)
    wm = sum(1 for s in white if s not in kings)
    bm = sum(1 for s in black if s not in kings)
    wk, bk = len(white) - wm, len(black) - bm
    end = 0
    if variant.flying_kings and default_weights(variant).lone_king_draw:
        if wm == 0 and bm == 0:
            if (bk == 1 and wk <= 2) or (wk == 1 and bk <= 2):
                return 0
            if (bk == 1 and wk == 3) or (wk == 1 and bk == 3):
                end = 2
    elif not variant.flying_kings and wm == bm == 0 and wk == bk == 1:
        return 0
    op = eg = 0
    for r, i in enumerate(idx):
        # the flipped pattern: digits reversed, colours 1 <-> 2
        digits = [(i // 3**k) % 3 for k in range(8)]
        j = sum((0 if d == 0 else 3 - d) * 3**k for k, d in enumerate(reversed(digits)))
        for phase in (0, 1):
            t = int(patterns[r][i][phase]) - int(patterns[nreg - 1 - r][j][phase])
            t = max(-32767, min(32767, t))
            if phase == 0:
                op += t
            else:
                eg += t
    for f, x in enumerate(dense + king_sq):
        w = dense_w[f] if f < len(dense) else king_w[f - len(dense)]
        op += x * int(w[0])
        eg += x * int(w[1])
    full = 24 if size == 8 else 40
    ph = min(pieces, full)
    score = trunc_div(op * ph + eg * (full - ph), full)
    if end == 2:
        score = trunc_div(score, 8)
    return score if turn == 0 else -score


# --- positions ----------------------------------------------------------------


def random_placements(v, count, seed):
    """Random legal-looking placements: no man on its crowning row, kings often."""
    rnd = random.Random(seed)
    size = v.size
    n = size * size // 2
    h = size // 2
    out = []
    for _ in range(count):
        density = rnd.choice((0.15, 0.4, 0.7))
        white, black, kings = [], [], []
        for s in range(n):
            if rnd.random() > density:
                continue
            colour = rnd.randrange(2)
            row = s // h
            king = rnd.random() < 0.2 or (colour == 0 and row == 0) or (colour == 1 and row == size - 1)
            (white if colour == 0 else black).append(s)
            if king:
                kings.append(s)
        out.append((white, black, kings, rnd.randrange(2)))
    # the known endings: kings only
    for wk, bk in ((1, 1), (2, 1), (1, 3), (3, 1), (4, 1)):
        sq = rnd.sample(range(n), wk + bk)
        out.append((sq[:wk], sq[wk:], sq, rnd.randrange(2)))
    return out


def played_boards(v, count, seed, plies=100):
    """`count` boards after up to `plies` random moves from the start."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        board = draughts.Board(variant=v)
        for _ in range(rnd.randrange(0, plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rnd.choice(moves))
        out.append(board)
    return out


def scored_differently(one, other, v, seed):
    """Of 50 boards after up to 30 random moves, how many the two engines
    evaluate differently."""
    return sum(one.evaluate(board) != other.evaluate(board) for board in played_boards(v, 50, seed, plies=30))


def played_positions(v, count, seed):
    return [board.position.pieces() + (board.position.turn,) for board in played_boards(v, count, seed)]


def positions(v, seed):
    return random_placements(v, 150, seed) + played_positions(v, 50, seed)


def key_of(v, white, black, kings, turn):
    p = draughts_core_position(v, white, black, kings, turn)
    return p.key()[:4]  # (white, black, kings, turn); the fifth is the frisian king-move count


def draughts_core_position(v, white, black, kings, turn):
    from draughts_core.position import Position

    return Position(v.core_rules, white, black, kings, turn)


def weights_files(tmp_path_factory, seed, pattern_scale, tag):
    """Weights files with random parameters, one per board size: {size:
    (path, patterns, dense, king squares)}, patterns within +/- pattern_scale."""
    rng = np.random.default_rng(seed)
    out = {}
    for size in (8, 10):
        patterns = rng.integers(-pattern_scale, pattern_scale, size=(learned.regions(size), learned.NPAT, 2))
        dense = rng.integers(-150, 150, size=(len(learned.DENSE), 2))
        king_sq = rng.integers(-100, 100, size=(size * size // 2, 2))
        path = str(tmp_path_factory.mktemp("w") / f"{tag}-{size}.npz")
        learned.write(path, patterns, dense, king_sq, {"test": True})
        out[size] = (path, patterns, dense, king_sq)
    return out


@pytest.fixture(scope="module")
def random_weights(tmp_path_factory):
    return weights_files(tmp_path_factory, 5, 400, "random")


# --- tests --------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_features_equal_the_reference(name):
    v = draughts.variant(name)
    for white, black, kings, turn in positions(v, 11):
        got = features(v.core_rules, *key_of(v, white, black, kings, turn))
        want = ref_features(v, white, black, kings, turn)
        assert (got[0], got[1], got[2], got[3]) == want, (white, black, kings, turn)


@pytest.mark.parametrize("name", VARIANTS)
def test_feature_arrays_equal_one_by_one(name):
    v = draughts.variant(name)
    keys = [key_of(v, *p) for p in positions(v, 12)]
    w, b, k, t = (np.array(col, dtype=np.uint64 if i < 3 else np.uint8) for i, col in enumerate(zip(*keys)))
    idx, dense, pieces, king_sq = learned.features(v, w, b, k, t)
    for j, key in enumerate(keys):
        one = features(v.core_rules, *key)
        assert list(idx[j]) == one[0] and list(dense[j]) == one[1] and pieces[j] == one[2]
        assert list(king_sq[j]) == one[3]


@pytest.mark.parametrize("name", VARIANTS)
def test_learned_score_equals_the_reference(name, random_weights):
    v = draughts.variant(name)
    path, patterns, dense, king_sq = random_weights[v.size]
    engine = Engine(v, eval="learned", weights_file=path, tt_mb=1)
    assert engine.eval == "learned"
    for white, black, kings, turn in positions(v, 13):
        p = draughts_core_position(v, white, black, kings, turn)
        got = engine._searcher.evaluate(p)
        assert got == ref_score(v, patterns, dense, king_sq, white, black, kings, turn), (white, black, kings, turn)


@pytest.fixture(scope="module")
def large_weights(tmp_path_factory):
    """Pattern weights too large to be summed packed in 16 bits a phase."""
    return weights_files(tmp_path_factory, 6, 5000, "large")


@pytest.mark.parametrize("name", ["international", "american", "killer"])
def test_large_pattern_weights_are_summed_unpacked_and_exactly(name, large_weights, random_weights):
    """The core sums the patterns packed (opening and endgame in one int32)
    only when no sum can leave 16 bits; larger weights take the plain sums
    and still score exactly as the reference."""
    v = draughts.variant(name)
    path, patterns, dense, king_sq = large_weights[v.size]
    assert not learned.load(v, path).packed
    assert learned.load(v, random_weights[v.size][0]).packed
    engine = Engine(v, eval="learned", weights_file=path, tt_mb=1)
    big = 0
    for white, black, kings, turn in positions(v, 15):
        p = draughts_core_position(v, white, black, kings, turn)
        want = ref_score(v, patterns, dense, king_sq, white, black, kings, turn)
        assert engine._searcher.evaluate(p) == want, (white, black, kings, turn)
        big += abs(want) > 3000
    assert big > 20


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_files_are_summed_packed(name):
    assert learned.load(name).packed


@pytest.mark.parametrize("name,which", [(n, "shipped") for n in SHIPPED] + [(n, "random") for n in VARIANTS])
def test_colour_flip_negates_the_score(name, which, random_weights):
    """The board turned round with the colours swapped: the same score for the
    side to move (now the other colour), so the opposite score for White."""
    v = draughts.variant(name)
    n = v.size * v.size // 2
    path = random_weights[v.size][0] if which == "random" else None
    engine = Engine(v, eval="learned", weights_file=path, tt_mb=1)
    nonzero = 0
    for white, black, kings, turn in positions(v, 14):
        p = draughts_core_position(v, white, black, kings, turn)
        flip = draughts_core_position(
            v, [n - 1 - s for s in black], [n - 1 - s for s in white], [n - 1 - s for s in kings], 1 - turn
        )
        a, b = engine._searcher.evaluate(p), engine._searcher.evaluate(flip)
        assert a == b, (white, black, kings, turn)
        nonzero += a != 0
    assert nonzero > 100


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_weights_load_and_match_their_manifest(name):
    v = draughts.variant(name)
    path = learned.weights_path(v)
    man = learned.manifest(path)
    with open(path, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == man["sha256"]
    assert man["variant"] == name
    if man["command"].startswith("draughts positions fit "):  # fitted to a position set
        assert all(st["settings"]["variant"] == name for st in man["sets"]) and man["sets"]
        assert man["heldout_loss_target"] < man["heldout_loss_target_start"]
    else:
        assert man["command"].startswith("draughts train ") and f"-v {name} " in man["command"]
    if man.get("score_weight", 0.0) < 1.0:
        # the games' results are part of what the fit minimised: their loss fell
        assert man["heldout_loss"] < man["heldout_loss_start"]
    else:
        # fitted to the search's label alone (score weight 1): the results'
        # loss is not minimised, but a fit must not lose sight of them
        assert man["heldout_loss"] < man["heldout_loss_start"] * 1.005
    assert man["positions"] > 10000 and man["games"] >= 100 and man["generation"] >= 1
    patterns, dense, _ = learned.read(path, learned.layout(v))
    assert patterns.dtype == np.int16 and patterns.shape == (learned.layout(v).nreg, learned.NPAT, 2)
    engine = Engine(v, eval="learned", tt_mb=1)
    assert engine.evaluate(draughts.Board(variant=v)) == engine.evaluate(draughts.Board(variant=v))


def test_frysk_has_its_own_file_fitted_from_frisians():
    """Frysk is frisian from the 5-against-5 start (the same rules and board):
    its file was fitted to frysk games starting from frisian's file, and an
    engine of each variant plays its own."""
    frysk, frisian = draughts.variant("frysk"), draughts.variant("frisian")
    differ = {f.name for f in dataclasses.fields(frysk) if getattr(frysk, f.name) != getattr(frisian, f.name)}
    assert differ <= {"name", "gametype", "pdn_gametype", "start_fen", "aliases", "description"}
    path = learned.weights_path(frysk)
    assert os.path.basename(path) == "learned-frysk.npz" and path != learned.weights_path(frisian)
    man = learned.manifest(path)
    assert man["variant"] == "frysk" and man["start"] == "learned-frisian.npz"
    assert man["heldout_loss"] < man["heldout_loss_start"] < man["heldout_loss_classic"]
    engine = Engine(frysk, eval="learned", tt_mb=1)
    own = Engine(frysk, eval="learned", weights_file=path, tt_mb=1)
    other = Engine(frysk, eval="learned", weights_file=learned.weights_path(frisian), tt_mb=1)
    differs = 0
    for board in played_boards(frysk, 50, 8, plies=30):
        assert engine.evaluate(board) == own.evaluate(board)
        differs += engine.evaluate(board) != other.evaluate(board)
    assert differs > 25


def test_killer_has_its_own_file_fitted_from_internationals():
    """Killer (international but for where a capturing king stops) has its own
    file, fitted to killer games played with international's file and from it;
    it scores killer positions differently from international's."""
    killer, international = draughts.variant("killer"), draughts.variant("international")
    path = learned.weights_path(killer)
    assert os.path.basename(path) == "learned-killer.npz"
    man = learned.manifest(path)
    assert man["variant"] == "killer" and man["start"] == "learned-international.npz"
    assert "-v killer " in man["data_command"] and "--start-weights learned-international.npz" in man["data_command"]
    assert man["heldout_loss"] < man["heldout_loss_start"] < man["heldout_loss_classic"]
    other = Engine(killer, eval="learned", weights_file=learned.weights_path(international), tt_mb=1)
    assert scored_differently(Engine(killer, eval="learned", tt_mb=1), other, killer, 9) > 25


def test_the_breakthrough_file_is_fitted_to_deeper_self_play():
    """Breakthrough's file is fitted to games of 20,000 nodes a move (the
    first files' 3,000 were level with the classic evaluation at 0.1 s), to
    the search's score, from the file those games' first part was played
    with; it scores played positions unlike the classic evaluation, and its
    held-out loss is below both the start's and the classic evaluation's."""
    v = draughts.variant("breakthrough")
    man = learned.manifest(learned.weights_path(v))
    assert man["nodes"] == 20000 and man["score_weight"] == 1.0 and man["l2_toward"] == "start"
    assert "--nodes 20000" in man["data_command"] and "--data bt-g2/games-0" in man["start_command"]
    assert man["start"] == "bt-b2/weights-1.npz" and "--data bt-g2/games-0" in man["command"]
    assert man["heldout_loss"] < man["heldout_loss_start"] < man["heldout_loss_classic"]
    classic = Engine(v, eval="classic", tt_mb=1)
    assert scored_differently(Engine(v, eval="learned", tt_mb=1), classic, v, 10) > 25


def test_the_antidraughts_file_knows_what_winning_means():
    """Antidraughts: the side with no move wins, so in an ending the side with
    one man against ten is winning, whichever colour it is and whoever moves."""
    engine = Engine("antidraughts", eval="learned", tt_mb=1)
    for fen, sign in (("W:W46:B1-10", 1), ("B:W46:B1-10", -1), ("W:W41-50:B5", -1), ("B:W41-50:B5", 1)):
        assert sign * engine.evaluate(draughts.Board(fen, variant="antidraughts")) > 3, fen


def test_the_breakthrough_file_values_a_runaway_man():
    """Breakthrough (the first king wins): a man one step from the crown with
    nothing in its way is worth more than two men kept back, whichever colour
    it is and whoever moves."""
    engine = Engine("breakthrough", eval="learned", tt_mb=1)
    for fen, sign in (("W:W8:B1,4,5", 1), ("B:W8:B1,4,5", 1), ("B:W46,47,50:B43", -1), ("W:W46,47,50:B43", -1)):
        score = engine.evaluate(draughts.Board(fen, variant="breakthrough"))
        white = score if fen[0] == "W" else -score
        assert sign * white > 0, (fen, score)


def test_a_missing_weights_file_is_a_clear_error(tmp_path):
    with pytest.raises(draughts.DraughtsError, match="no learned weights"):
        Engine("breakthrough", eval="learned", weights_file=str(tmp_path / "missing.npz"), tt_mb=1)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_learned_evaluation_is_the_default_where_it_ships(name):
    """A variant's learned weights ship once they beat the classic evaluation
    in an SPRT, and then the engine plays them unless told otherwise; a
    variant with no shipped file plays the classic one."""
    v = draughts.variant(name)
    assert Engine(v, tt_mb=1).eval == ("learned" if learned.has_weights(v) else "classic")


def test_a_variant_without_a_weights_file_plays_the_classic_evaluation(monkeypatch, tmp_path):
    # the default follows the file: nothing else lists the variants
    monkeypatch.setattr(learned, "weights_path", lambda v: str(tmp_path / f"learned-{v.name}.npz"))
    assert Engine("american", tt_mb=1).eval == "classic"


def test_bad_weights_files_are_refused(tmp_path, random_weights):
    with pytest.raises(draughts.DraughtsError, match="8x8, not 10x10"):
        Engine("international", eval="learned", weights_file=random_weights[8][0])
    bad = tmp_path / "bad.npz"
    np.savez(
        bad,
        patterns=np.zeros((3, 5, 2), dtype=np.int16),
        dense=np.zeros((14, 2), dtype=np.int16),
        king_squares=np.zeros((32, 2), dtype=np.int16),
    )
    with pytest.raises(draughts.DraughtsError, match="patterns of shape"):
        Engine("american", eval="learned", weights_file=str(bad))
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a weights file")
    with pytest.raises(draughts.DraughtsError, match="cannot read learned weights"):
        Engine("american", eval="learned", weights_file=str(junk))
    with pytest.raises(draughts.DraughtsError, match="eval must be auto or one of"):
        Engine("american", eval="neural")


def test_eval_can_be_switched():
    engine = Engine("american", eval="classic", tt_mb=1)
    board = draughts.Board("B:W18,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", variant="american")
    classic = engine.evaluate(board)
    engine.configure({"eval": "learned"})
    assert engine.eval == "learned"
    assert engine.evaluate(board) != classic
    engine.configure({"eval": "classic"})
    assert engine.evaluate(board) == classic


def test_the_fit_starts_from_the_variants_material():
    """The fit starts from the classic evaluation's material: a man and a king
    are assets, but in antidraughts (the side with no move wins) liabilities,
    as in the classic eval_losing_g."""
    from draughts.train import Model

    men, king1 = learned.DENSE.index("men"), learned.DENSE.index("king1")
    for name, sign in (("international", 1), ("american", 1), ("breakthrough", 1), ("antidraughts", -1)):
        v = draughts.variant(name)
        w = default_weights(v)
        model = Model(v)
        assert list(model.dense[men]) == [sign * w.man] * 2, name
        assert list(model.dense[king1]) == [sign * w.king] * 2, name


def classic_trade(w, white, black, kings):
    """The classic trade term (eval_g) for White, centi-men."""
    mw = sum(w.king if s in kings else w.man for s in white)
    mb = sum(w.king if s in kings else w.man for s in black)
    return trunc_div(w.trade * (mw - mb), mw + mb) if mw + mb and mw != mb else 0


@pytest.mark.parametrize("name", ["breakthrough", "international", "american", "russian", "killer"])
def test_the_classic_start_reproduces_the_classic_evaluation(name, tmp_path):
    """`draughts train --start-classic` starts from parameters whose learned
    score is the classic one, but for the trade term, which the dense feature
    measures in 32nds with kings worth 3 men (the test computes both terms
    from the piece counts) and the drawish flying-king endings (kings only,
    left out here)."""
    from draughts.train import classic_model

    v = draughts.variant(name)
    w = default_weights(v)
    model = classic_model(v)
    path = str(tmp_path / "classic.npz")
    learned.write(path, model.patterns, model.dense, model.king_sq, {"test": True})
    as_learned = Engine(v, eval="learned", weights_file=path, tt_mb=1)
    classic = Engine(v, eval="classic", tt_mb=1)
    trade = int(model.dense[learned.DENSE.index("trade")][0])
    compared = 0
    for white, black, kings, turn in positions(v, 15):
        if v.flying_kings and set(white) | set(black) <= set(kings):
            continue
        p = draughts_core_position(v, white, black, kings, turn)
        _, dense, _, _ = ref_features(v, white, black, kings, turn)
        sign = 1 if turn == 0 else -1
        expected = (trade * dense[learned.DENSE.index("trade")] - classic_trade(w, white, black, kings)) * sign
        got = as_learned._searcher.evaluate(p) - classic._searcher.evaluate(p)
        assert got == expected, (white, black, kings, turn)
        compared += 1
    assert compared > 150
    # the start position and a runaway man: the same score exactly
    for fen in (None, "W:W13,40,45:B1,2,30,35" if v.size == 10 else "W:W6,27:B21,25"):
        board = draughts.Board(fen, variant=v) if fen else draughts.Board(variant=v)
        assert as_learned.evaluate(board) == classic.evaluate(board), fen


def test_the_classic_start_refuses_what_it_cannot_express():
    from draughts.train import classic_model

    for name in ("antidraughts", "turkish"):
        with pytest.raises(draughts.DraughtsError, match="cannot express"):
            classic_model(name)


def test_the_prior_of_the_l2_term():
    """Positions the start already predicts (empty windows, even scores, even
    results): centred on the start the L2 term leaves the classic start as it
    is; centred on zero it shrinks the pattern weights."""
    from draughts.train import Data, classic_model, fit

    v = draughts.variant("breakthrough")
    n = 200
    lay = learned.layout(v)
    data = Data(
        idx=np.zeros((n, lay.nreg), dtype=np.uint16),
        dense=np.zeros((n, len(lay.dense)), dtype=np.int32),
        king_sq=np.zeros((n, lay.squares), dtype=np.int8),
        phase=np.full(n, 0.5),
        result=np.full(n, 0.5),
        heldout=np.arange(n) % 10 == 7,
        score=np.zeros(n),
    )
    start = classic_model(v).patterns
    moved = {}
    for prior in (None, start):
        model = classic_model(v)
        fit(model, data, 0.01, epochs=20, batch=n, lr=5.0, l2=2.0, prior=prior)
        moved["zero" if prior is None else "start"] = np.abs(model.patterns - start).max()
    assert moved["start"] == 0 and moved["zero"] > 10


def test_training_lowers_the_heldout_loss(tmp_path, capsys):
    """`draughts train` end to end on a tiny budget: games, fit, weights file
    and manifest; the fitted weights beat the starting ones on held-out games,
    and a second generation plays with the first one's weights."""
    from draughts.cli import main

    out = tmp_path / "run"
    argv = [
        "train",
        "-v",
        "american",
        "--out",
        str(out),
        "--games",
        "100",
        "--nodes",
        "200",
        "--generations",
        "2",
        "--epochs",
        "3",
        "--workers",
        "2",
        "--nice",
        "0",
        "--seed",
        "3",
    ]
    assert main(argv) == 0
    man = json.loads((out / "weights-2.json").read_text())
    first = json.loads((out / "weights-1.json").read_text())
    assert first["heldout_loss"] < first["heldout_loss_start"]
    assert man["generation"] == 2 and man["played_with"] == "weights-1.npz"
    assert man["games"] == 200 and man["positions"] > first["positions"]
    assert man["command"] == "draughts train " + " ".join(argv[1:])
    engine = Engine("american", eval="learned", weights_file=str(out / "weights-2.npz"), tt_mb=1)
    assert engine.play(draughts.Board(variant="american"), draughts.Limit(depth=4)).move is not None
    # a seeded rerun in a fresh directory writes the same games and the same weights
    again = tmp_path / "again"
    argv[4] = str(again)
    argv[argv.index("--generations") + 1] = "1"
    assert main(argv) == 0
    a, b = (np.load(p / "weights-1.npz") for p in (out, again))
    assert (a["patterns"] == b["patterns"]).all() and (a["dense"] == b["dense"]).all()
    # --games 0 fits the games of earlier runs (--data) without playing any;
    # a fit from --start-weights keeps their sigmoid scale (their unit)
    refit = tmp_path / "refit"
    assert (
        main(
            [
                "train",
                "-v",
                "american",
                "--out",
                str(refit),
                "--games",
                "0",
                "--data",
                str(out / "games-0"),
                "--data",
                str(out / "games-1"),
                "--start-weights",
                str(out / "weights-1.npz"),
                "--score-weight",
                "0.5",
                "--epochs",
                "2",
                "--seed",
                "3",
            ]
        )
        == 0
    )
    rman = json.loads((refit / "weights-1.json").read_text())
    assert rman["games"] == 200 and rman["positions"] == man["positions"] and rman["played_with"] == "none"
    assert rman["scale"] == first["scale"]
    assert rman["data"] == [str(out / "games-0"), str(out / "games-1")] and rman["score_weight"] == 0.5
    assert rman["heldout_loss"] < rman["heldout_loss_start"]
    assert not (refit / "games-0").exists()
    assert main(["train", "-v", "american", "--out", str(refit), "--games", "0", "--data", str(refit)]) == 2
    assert "no games-NNNNN.npz chunk files" in capsys.readouterr().err
    assert main(["train", "-v", "american", "--out", str(refit), "--games", "0"]) == 2
    assert "--games 0 fits the --data games once" in capsys.readouterr().err

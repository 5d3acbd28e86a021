"""Differential test of turkish: the engine against the independent reference
generator of the orthogonal board (tests/reference_turkish.py), on 1,000
positions from a fixed seed: half from random games played with the reference
generator from the start, half random king-heavy placements.  For every
position the legal move sets (start, end, captured set, promotion) must agree,
the engine must list no move twice and every resulting position must agree
square by square; on a sample, perft(1..2) in both duplicate conventions."""

import functools
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import draughts  # noqa: E402
import reference_turkish as T  # noqa: E402

SEED = 20261201
POSITIONS = 1000
PERFT_SAMPLE = 100
MAX_REPORTED = 8


def playout_positions(count):
    rnd = random.Random(SEED)
    out = []
    while len(out) < count:
        pos = T.start_position()
        plies = []
        for _ply in range(160):
            moves = T.legal_moves(pos)
            plies.append(pos)
            if not moves:
                break
            pos = T.apply_move(pos, rnd.choice(moves))
        out.extend(rnd.sample(plies, min(len(plies), max(1, len(plies) // 8))))
    return out[:count]


def random_positions(count):
    rnd = random.Random(SEED + 1)
    squares = [(r, c) for r in range(8) for c in range(8)]
    out = []
    while len(out) < count:
        chosen = rnd.sample(squares, rnd.randint(2, rnd.choice([6, 12, 24])))
        pieces = {}
        for i, sq in enumerate(chosen):
            colour = "W" if i == 0 else "B" if i == 1 else rnd.choice("WB")
            pieces[sq] = (colour, rnd.random() < 0.5 or sq[0] == T.crown_row(colour))
        out.append((pieces, rnd.choice("WB")))
    return out


@functools.lru_cache(maxsize=None)
def positions():
    half = POSITIONS // 2
    return tuple(playout_positions(half) + random_positions(POSITIONS - half))


def key_of_engine(m):
    return (m.start, m.end, frozenset(m.captured), bool(m.promotion))


def key_of_reference(m):
    sq = T.rc_to_square
    return (sq(m.start), sq(m.end), frozenset(sq(c) for c in m.captured), m.promotion)


def colour(c):
    return "W" if c == draughts.WHITE else "B"


def compare(pos):
    problems = []
    ref = {key_of_reference(m): m for m in T.legal_moves(pos)}
    board = draughts.Board(T.write_fen(pos), variant="turkish")
    eng = {}
    for m in board.legal_moves:
        k = key_of_engine(m)
        if k in eng:
            problems.append(f"engine lists {k} twice")
        eng[k] = m
    if set(eng) != set(ref):
        problems.append(
            f"only engine: {sorted(set(eng) - set(ref), key=str)}; "
            f"only reference: {sorted(set(ref) - set(eng), key=str)}"
        )
    for k in set(eng) & set(ref):
        want, side = T.apply_move(pos, ref[k])
        child = board.copy()
        child.push(eng[k])
        for n in range(1, 65):
            p = child.piece_at(n)
            got = None if p is None else (colour(p.color), bool(p.king))
            if got != want.get(T.square_to_rc(n)):
                problems.append(f"after {k}: square {n} engine {got}, reference {want.get(T.square_to_rc(n))}")
                break
        if colour(child.turn) != side:
            problems.append(f"after {k}: side to move differs")
    return problems


def test_engine_matches_reference():
    failures = []
    for pos in positions():
        problems = compare(pos)
        if problems:
            failures.append(f"FEN {T.write_fen(pos)}\n  " + "\n  ".join(problems[:4]))
    assert not failures, f"{len(failures)} of {POSITIONS} positions differ:\n" + "\n".join(failures[:MAX_REPORTED])


def test_engine_perft_matches_reference_in_both_conventions():
    half = POSITIONS // 2
    sample = positions()[: PERFT_SAMPLE // 2] + positions()[half : half + PERFT_SAMPLE // 2]
    failures = []
    for pos in sample:
        board = draughts.Board(T.write_fen(pos), variant="turkish")
        for dup in ("drop", "keep"):
            want = [T.perft(pos, d, dup) for d in (1, 2)]
            got = [board.perft(d, duplicates=dup) for d in (1, 2)]
            if got != want:
                failures.append(f"{dup} FEN {T.write_fen(pos)}: engine {got}, reference {want}")
    assert not failures, "\n".join(failures[:MAX_REPORTED])

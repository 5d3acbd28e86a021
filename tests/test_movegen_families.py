"""The move generator's rule families (movegen.pyx: XIntl, XAmer): code in
which international's or american's capture rules are constants.  A rule set
takes a family only when it has every rule the family holds constant, and a
family generates exactly what the generic generator (the struct's rules read
at every step) generates, on positions of play and king-heavy placements."""

import random
import zlib

import pytest

import draughts
from draughts.variants import VARIANTS, variant
from draughts_core.movegen import FAMILY_RULES
from draughts_core.position import CoreRules, Position

FAMILY_INTL, FAMILY_AMERICAN = 1, 2


def test_the_families_hold_the_capture_rules_of_their_variants():
    assert set(FAMILY_RULES) == {FAMILY_INTL, FAMILY_AMERICAN}
    for family, name in ((FAMILY_INTL, "international"), (FAMILY_AMERICAN, "american")):
        rules = VARIANTS[name].core_rules.as_dict()
        assert {k: rules[k] for k in FAMILY_RULES[family]} == FAMILY_RULES[family]
    # the two differ where their variants do
    intl, amer = FAMILY_RULES[FAMILY_INTL], FAMILY_RULES[FAMILY_AMERICAN]
    assert intl["flying_kings"] == 1 and amer["flying_kings"] == 0
    assert intl["men_capture_backwards"] == 1 and amer["men_capture_backwards"] == 0
    assert intl["majority_capture"] == 1 and amer["majority_capture"] == 0


def test_each_variant_takes_the_family_of_its_rules():
    families = {name: v.core_rules.family for name, v in VARIANTS.items()}
    # brazilian is international's rules on 8x8; antidraughts changes only the goal
    assert {n for n, f in families.items() if f == FAMILY_INTL} == {"international", "brazilian", "antidraughts"}
    assert {n for n, f in families.items() if f == FAMILY_AMERICAN} == {"american"}
    # the rest read their rules from the struct: russian (crowned during a capture, no
    # majority), italian and spanish (precedences), frisian, killer, thai, turkish ...
    for name in ("russian", "italian", "spanish", "czech", "pool", "thai", "frisian", "killer", "breakthrough"):
        assert families[name] == 0, name


@pytest.mark.parametrize("name", ["international", "american", "brazilian"])
def test_a_house_rule_leaves_the_family(name):
    # captures not compulsory: not the family's rules, so the generic code
    assert variant(name, mandatory_capture=False).core_rules.family == 0
    assert variant(name).core_rules.family != 0


def test_the_generic_copy_and_pickling():
    import pickle

    rules = VARIANTS["international"].core_rules
    generic = rules.generic()
    assert generic.family == 0 and generic.as_dict() == rules.as_dict()
    assert rules.family == FAMILY_INTL  # the original is not touched
    assert pickle.loads(pickle.dumps(rules)).family == FAMILY_INTL
    built = CoreRules(**rules.as_dict())
    assert built.family == FAMILY_INTL


def _positions(name, count, seed):
    """Positions of random play from the start, then random king-heavy placements."""
    rnd = random.Random(seed)
    v = VARIANTS[name]
    out = []
    while len(out) < count // 2:
        board = draughts.Board(variant=name)
        for _ in range(rnd.randrange(4, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rnd.choice(moves))
            out.append(board.position)
    n = v.core_rules.size * v.core_rules.size // 2
    rows = v.core_rules.size
    per_row = v.core_rules.size // 2
    while len(out) < count:
        squares = rnd.sample(range(n), rnd.randrange(2, 17))
        white, black, kings = [], [], []
        for sq in squares:
            row = sq // per_row
            side = rnd.randrange(2)
            king = rnd.random() < 0.5
            # a man never stands on the row where it would have been crowned
            if not king and ((side == 0 and row == 0) or (side == 1 and row == rows - 1)):
                king = True
            (white if side == 0 else black).append(sq)
            if king:
                kings.append(sq)
        out.append(Position(v.core_rules, white, black, kings, rnd.randrange(2)))
    return out


def _same_position(pos, rules):
    white, black, kings = pos.pieces()
    return Position(rules, white, black, kings, pos.turn)


@pytest.mark.parametrize("name", ["international", "brazilian", "antidraughts", "american"])
def test_a_family_generates_what_the_generic_generator_does(name):
    rules = VARIANTS[name].core_rules
    generic = rules.generic()
    assert rules.family != 0 and generic.family == 0
    positions = _positions(name, 1200, seed=zlib.crc32(name.encode()))
    captures = 0
    for pos in positions:
        other = _same_position(pos, generic)
        assert pos.has_capture() == other.has_capture()
        for keep in (False, True):
            mine = pos.moves(keep=keep)
            theirs = other.moves(keep=keep)
            assert sorted(m[:4] for m in mine) == sorted(m[:4] for m in theirs), (name, pos.pieces(), pos.turn)
            assert sorted(m[4] for m in mine) == sorted(m[4] for m in theirs)
            assert pos.count_moves(keep=keep) == other.count_moves(keep=keep)
        captures += pos.has_capture()
    # the positions reach the capture code, kings' captures included
    assert captures > 200
    for pos in positions[::40]:
        other = _same_position(pos, generic)
        for keep in (False, True):
            assert pos.perft(3, keep=keep) == other.perft(3, keep=keep)

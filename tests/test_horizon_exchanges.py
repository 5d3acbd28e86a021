"""The horizon's exchanges (the `horizon-exchanges` search option): which quiet
moves the core takes for an offered one-for-one exchange, against a reference
written here on the public position API, in every variant."""

import random

import pytest

import draughts
from draughts import Limit
from draughts.engine import Engine
from draughts.variants import VARIANTS


def covered(variant):
    """The rules the exchanges are defined for: the diagonal boards' plain
    rules (no frisian orthogonal captures, king-move limit or breakthrough
    goal, not the orthogonal board) with compulsory capture."""
    r = draughts.variant(variant).core_rules.as_dict()
    return (
        r["geometry"] == 0
        and not r["orthogonal_captures"]
        and not r["king_move_limit"]
        and r["goal"] in (0, 1)  # not breakthrough (draughts_core.rules: GOAL_BREAKTHROUGH 2)
        and r["mandatory_capture"]
    )


def reference_exchanges(pos):
    """The definition, move by move: with no king on the board and no capture
    for the side to move, a man's quiet non-crowning move after which every
    legal reply captures exactly one piece, one of the replies takes the man
    that moved, and after every reply the side has a capture."""
    white, black, kings = pos.pieces()
    if kings or pos.has_capture():
        return []
    out = []
    for move in pos.moves():
        code = move[5]
        frm, to, capt, promo = code
        if capt or promo:
            continue
        child = pos.play_code(code)
        replies = [r[5] for r in child.moves()]
        if not replies or any(bin(r[2]).count("1") != 1 for r in replies):
            continue
        if not any((r[2] >> to) & 1 for r in replies):
            continue
        if all(child.play_code(r).has_capture() for r in replies):
            out.append(code)
    return out


def playout_positions(variant, count, seed):
    """Quiet positions without kings from random games of the variant."""
    rnd = random.Random(seed)
    out = []
    for _game in range(200):
        board = draughts.Board(variant=variant)
        for _ply in range(120):
            moves = list(board.legal_moves)
            if not moves:
                break
            pos = board.position
            if not pos.pieces()[2] and not pos.has_capture():
                out.append(pos)
            board.push(rnd.choice(moves))
        if len(out) >= count:
            break
    return out[:count]


def test_the_rule_set_covers_the_main_variants():
    assert covered("international") and covered("american") and covered("russian") and covered("brazilian")
    assert not covered("frisian") and not covered("turkish")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_exchange_moves_are_the_definitions(variant):
    positions = playout_positions(variant, 400, seed=1207)
    assert len(positions) >= 100
    found = 0
    for pos in positions:
        got = sorted(pos.exchange_codes())
        if covered(variant):
            want = sorted(reference_exchanges(pos))
            assert got == want, (variant, pos.pieces(), pos.turn)
            found += bool(want)
        else:
            assert got == []
    if covered(variant):
        assert found >= 5  # the random games do offer exchanges: the comparison is not of empty lists


def test_an_exchange_is_an_offer_with_a_certain_recapture():
    # 33-28 is taken 23x32 (41 stops the jump going on over 37) and 37x28 takes back;
    # 33-29 is taken 23x34 with no recapture; 37-32 and the others offer nothing
    board = draughts.Board("W:W33,37,41,46:B23,5", variant="international")
    codes = {m.code: (m.start, m.end) for m in board.legal_moves}
    assert [codes[c] for c in board.position.exchange_codes()] == [(33, 28)]
    # without 41 the capture goes on, 23x41 takes two: no longer an exchange
    board = draughts.Board("W:W33,37,46:B23,5", variant="international")
    assert board.position.exchange_codes() == []
    # a king on the board: no exchanges at all
    board = draughts.Board("W:W33,37,41,46:B23,K5", variant="international")
    assert board.position.exchange_codes() == []


def test_the_option_searches_the_exchange_at_the_horizon_and_nothing_else():
    def nodes(exchanges, fen):
        engine = Engine("international", tt_mb=1, egdb=None)
        engine.configure({"horizon-exchanges": exchanges, "probcut": "off"})
        return engine.play(draughts.Board(fen, variant="international"), Limit(depth=1)).info.nodes

    # Black to move, one ply: after 5-10 (or 5-9) White's horizon is quiet and
    # offers 33-28, which only the option searches (with 23x32 and 37x28 after it)
    offered = "B:W33,37,41,46:B23,5"
    assert nodes(1, offered) >= nodes(0, offered) + 3
    # nothing on offer anywhere: the same tree either way
    quiet = "B:W46,47:B5,6"
    assert nodes(1, quiet) == nodes(0, quiet)

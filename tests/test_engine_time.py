"""The engine's time management: the budget never plans past the clock, the
move overhead and the lateness and stall marks are kept back from later moves,
and a search counts from the moment its clock started."""

import time

import pytest

import draughts
from draughts.engine import DEFAULT_MOVE_OVERHEAD, STALL_FACTOR, Engine
from draughts.errors import DraughtsError
from draughts.hub.protocol import parse_line
from draughts.limits import Limit
from hub_scripts.transcript import ServerSession


@pytest.mark.parametrize(
    "time_left,inc,mtg",
    [
        (60.0, 0.0, None),
        (1.0, 0.01, None),
        (0.05, 0.01, None),
        (0.0, 0.01, None),
        (0.001, 0.0, None),
        (10.0, 1.0, 1),
        (5.0, 0.0, 40),
        (0.3, 0.1, 2),
    ],
)
@pytest.mark.parametrize("overhead", [0.0, 0.02, 0.1])
def test_the_budget_never_plans_past_the_clock(time_left, inc, mtg, overhead):
    soft, hard = Engine.time_budget(time_left, inc, mtg, overhead)
    assert 0 < soft <= hard
    available = time_left + inc
    if available - overhead > 0.002:
        assert hard + overhead <= available  # the overhead is kept back
    else:
        assert hard <= 0.001  # nothing left: depth 1 at once


def test_a_move_time_keeps_the_overhead_back():
    engine = Engine("american", tt_mb=1, move_overhead=0.015)
    assert engine.move_budget(Limit(movetime=0.05)) == pytest.approx((0.035, 0.035))
    assert engine.move_budget(Limit(movetime=0.01))[1] == 0.001  # less than the overhead: at once
    engine.configure({"move-overhead": 0})
    assert engine.move_budget(Limit(movetime=0.02)) == (0.02, 0.02)
    with pytest.raises(DraughtsError, match="move-overhead"):
        engine.configure({"move-overhead": float("nan")})
    assert Engine("american", tt_mb=1).move_overhead == DEFAULT_MOVE_OVERHEAD


def test_a_late_answer_is_kept_back_from_the_next_moves():
    # a search held up past its hard limit (here by its own info callback,
    # as a busy machine would hold up the process) makes the engine keep
    # that much more back from the next timed moves, less and less after
    engine = Engine("international", tt_mb=1, move_overhead=0.01)
    assert engine.lateness == 0.0
    held = []

    def hold_up(info):
        if not held:
            held.append(info)
            time.sleep(0.15)

    engine.play(draughts.Board(), draughts.Limit(movetime=0.1), on_info=hold_up)
    late = engine.lateness
    assert 0.05 <= late <= 0.5
    soft, hard = engine.move_budget(Limit(movetime=1.0))
    assert hard == pytest.approx(1.0 - 0.01 - late - STALL_FACTOR * engine.stall)
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))  # on time: the mark decays
    assert engine.lateness == pytest.approx(late * 0.9, rel=0.2)
    engine.play(draughts.Board(), draughts.Limit(depth=2))  # untimed searches leave it alone
    assert engine.lateness == pytest.approx(late * 0.9, rel=0.2)


def test_a_stall_inside_the_search_is_kept_back_twice_from_the_next_moves():
    # the search thread held up between two clock readings (its info
    # callback sleeping, as a busy machine would deschedule it): the engine
    # keeps twice that wait back from later timed moves, for the two waits
    # it cannot see (its reader on `go`, the caller's on the answer)
    engine = Engine("international", tt_mb=1, move_overhead=0.01)
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))
    quiet = engine.stall
    assert quiet < 0.1  # a plain search reads its clock often
    held = []

    def hold_up(info):
        if not held:
            held.append(info)
            time.sleep(0.12)

    engine.play(draughts.Board(), draughts.Limit(movetime=0.3), on_info=hold_up)
    stall = engine.stall
    assert 0.12 <= stall <= 0.5
    soft, hard = engine.move_budget(Limit(movetime=1.0))
    assert hard == pytest.approx(1.0 - 0.01 - engine.lateness - STALL_FACTOR * stall)
    engine.play(draughts.Board(), draughts.Limit(depth=2))  # untimed: the mark stays
    assert engine.stall == stall
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))  # timed, no stall: it decays
    assert engine.stall == pytest.approx(stall * 0.9, rel=0.05)


def test_the_search_counts_from_the_moment_its_clock_started():
    engine = Engine("international", tt_mb=1, move_overhead=0)
    board = draughts.Board()
    started = engine.clock() - 0.45  # the clock started 0.45 s ago
    result = engine.play(board, draughts.Limit(movetime=0.5), start=started)
    assert result.move is not None
    # the reported time includes the 0.45 s before the call, and the search
    # stopped near the deadline rather than 0.5 s after the call
    assert result.info.time >= 0.45
    assert engine.clock() - started < 0.5 + 2.0


def test_move_overhead_is_a_hub_parameter():
    session = ServerSession()
    try:
        session.transcript("""
            > set-param name=move-overhead value=35
            > init
            < info egdb="international up to 4 pieces"
            < ready
            > set-param name=move-overhead value=-1
            < error message="move-overhead takes a whole number from 0 to 5000, not '-1'"
            > set-param name=move-overhead value=x
            < error message="move-overhead takes a whole number from 0 to 5000, not 'x'"
        """)
        assert session.server.engine().move_overhead == pytest.approx(0.035)
        session.transcript("""
            > set-param name=move-overhead value=5
            > ping
            < pong
        """)
        assert session.server.engine().move_overhead == pytest.approx(0.005)
    finally:
        session.close()


def test_a_stopped_search_reports_its_whole_time_before_done():
    session = ServerSession()
    try:
        session.send(
            "set-param name=move-overhead value=0", "set-param name=book value=none", "level move-time=0.2", "go think"
        )
        lines = session.until("done", timeout=10)
        infos = [parse_line(l)[1] for l in lines if l.startswith("info")]
        # the last info carries the time of the whole search, stopped iteration included
        assert float(infos[-1]["time"]) >= 0.15
    finally:
        session.close()

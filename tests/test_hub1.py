"""Hub version 1 (Scan 2.0's dialect): the client's lines against a scripted
peer in memory, and matches through the real runner against a scripted
version-1 engine (tests/hub_scripts/hub1_engine.py): a normal game, the
options sent as `set`, the faults labelled as for version 2, the clock's
`level` lines and the `stop` at the end of a move's time."""

import io
import json
import logging
import sys
import threading
from pathlib import Path

import pytest

import draughts
from draughts import pdn
from draughts.engine_api import Info
from draughts.errors import EngineCommandError, EngineError, EngineNoMoveError, EngineProtocolError
from draughts.hub.hub1 import LAG_MAX, Hub1Engine, next_lag, planned_stop, position_lines, read_info, search_lines
from draughts.hub.protocol import format_position
from draughts.hub.testing import MockTransport
from draughts.limits import Limit
from draughts.match import cli
from draughts.match.engines import parse_engine
from draughts.match.game import record_board
from draughts.match.runner import Console, Match

SCRIPT = str(Path(__file__).parent / "hub_scripts" / "hub1_engine.py")
START = "w" + "b" * 20 + "e" * 10 + "w" * 20


# --- the dialect's lines ----------------------------------------------------------------


def test_limits_become_time_level_and_depth_lines_with_the_stop_time():
    assert search_lines(Limit(movetime=0.2)) == (["time 170"], 0.17)
    assert search_lines(Limit(movetime=0.2), stop_margin=0.05) == (["time 150"], 0.15)
    assert search_lines(Limit(movetime=0.02)) == (["time 15"], 0.015)  # the margin is at most a quarter
    lines, stop = search_lines(Limit(time=60, inc=1, moves_to_go=40))
    assert lines == ["level 40 60000 1000"] and stop == pytest.approx(30.47)
    lines, stop = search_lines(Limit(time=2, moves_to_go=1))
    assert lines == ["level 1 2000 0"] and stop == pytest.approx(1.57)  # the last move: 0.8 of it
    assert search_lines(Limit(depth=7)) == (["depth 7"], None)
    assert search_lines(Limit(depth=7, movetime=1)) == (["depth 7", "time 970"], 0.97)
    for bad in (Limit(nodes=1000), Limit(infinite=True)):
        with pytest.raises(ValueError):
            search_lines(bad)


def test_the_position_is_the_root_then_the_moves_with_a_lower_case_side():
    board = draughts.Board()
    assert position_lines(board) == ["pos " + START]
    board.push("32-28")
    board.push("19-23")
    board.push("28x19")
    assert position_lines(board) == ["pos " + START, "move 32-28", "move 19-23", "move 28x19x23"]
    black_to_move = draughts.Board(board.fen())
    assert position_lines(black_to_move) == ["pos b" + format_position(board)[1:]]


def test_info_words_are_read_in_version_2_units():
    board = draughts.Board()
    info = read_info("14 16.0 -35 784233 0.12 6.3 31-26 17-21 26x17 99-98 12x21".split(), board)
    assert info.depth == 14 and info.extra["mean-depth"] == "16.0"
    assert info.score == -0.35  # centi-men to men
    assert info.nodes == 784233 and info.time == 0.12
    assert info.nps == pytest.approx(6.3e6)
    assert [m.hub() for m in info.pv] == ["31-26", "17-21", "26x17x21"]  # as far as legal
    assert read_info(["x", "y"]) == Info()


# --- the client against a scripted peer ----------------------------------------------------


def handshake(mock, sets=()):
    mock.expect("hub", ["Scan-like banner", "name Mock 1.0", "author Someone", "country Nowhere", "wait"])
    for line in sets:
        mock.expect(line)
    mock.expect("init", ["init eval", "ready"])


def test_handshake_sends_the_params_with_set_before_init():
    mock = MockTransport()
    handshake(mock, ["set book false", "set threads 1"])
    engine = Hub1Engine.from_transport(mock, params={"book": False, "threads": 1})
    assert engine.id == {"name": "Mock 1.0", "author": "Someone", "country": "Nowhere"}
    assert engine.name == "Mock 1.0" and engine.settings == {"book": "false", "threads": "1"}
    mock.expect("new")
    mock.expect("ping", ["pong"])
    engine.new_game()
    mock.expect("quit")
    engine.quit()
    mock.assert_done()


def test_the_two_dialects_clients_are_siblings_over_one_base():
    from draughts.hub import AsyncHubEngine, HubEngine
    from draughts.hub.async_client import AsyncHubClient
    from draughts.hub.client import HubClient
    from draughts.hub.hub1 import AsyncHub1Engine

    for base, v2, v1 in ((AsyncHubClient, AsyncHubEngine, AsyncHub1Engine), (HubClient, HubEngine, Hub1Engine)):
        assert v2.__bases__ == (base,) and v1.__bases__ == (base,)
        assert not issubclass(v1, v2) and not issubclass(v2, v1)
    # what each dialect does its own way, over the shared transport and ping
    for name in ("start", "configure", "new_game", "play", "analyse", "_next", "_error_text"):
        assert name in vars(AsyncHub1Engine) and name in vars(AsyncHubEngine), name
    for name in ("ping", "stop", "quit", "_read", "_sync", "_resync"):
        assert name not in vars(AsyncHub1Engine), name


def test_an_error_before_the_pong_is_the_engines_words():
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    mock.expect("set hash 9")
    mock.expect("ping", ["error no such setting", "pong"])
    with pytest.raises(EngineCommandError, match=r"rejected set hash: no such setting\Z"):
        engine.configure({"hash": 9})
    mock.expect("quit")
    engine.quit()
    mock.assert_done()


def test_a_setting_must_be_one_word():
    with pytest.raises(EngineError, match="one word"):
        Hub1Engine.from_transport(MockTransport(), params={"book": "not a word"})


def test_play_sends_pos_moves_then_time_and_reads_info_and_move():
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    board = draughts.Board()
    board.push("32-28")
    mock.expect("pos " + START)
    mock.expect("move 32-28")
    mock.expect("time 970")
    mock.expect("go", ["info 13 15.4 25 435186 0.08 5.4 19-23 28x19", "move 19-23 28x19"])
    result = engine.play(board, Limit(movetime=1.0))
    assert result.move.hub() == "19-23" and result.ponder.hub() == "28x19x23"
    assert result.info.score == 0.25 and result.info.depth == 13 and not result.late
    assert result.latency == pytest.approx(result.elapsed - 0.08)
    mock.expect("quit")
    engine.quit()
    mock.assert_done()


def test_the_stop_is_planned_earlier_by_the_lag_which_decays():
    assert planned_stop(0.27, 0.0) == 0.27
    assert planned_stop(0.27, 0.01) == pytest.approx(0.26)
    assert planned_stop(0.27, 0.1) == pytest.approx(0.27 - 0.0675)  # by at most a quarter
    assert planned_stop(0.002, 1.0) == pytest.approx(0.0015)
    assert next_lag(0.0, 0.004) == 0.004  # the delay measured
    assert next_lag(0.1, 0.004) == pytest.approx(0.09)  # or the last one, decayed
    assert next_lag(0.1, 0.2) == 0.2 and next_lag(0.0, 3.0) == LAG_MAX


def stops(caplog):
    """(sent, planned, lag) of each search the client stopped at its time, as
    it logs them: seconds after `go` it sent `stop` and had planned to, and
    seconds from the planned stop to the move."""
    out = [r.args for r in caplog.records if r.name == "draughts.hub" and r.msg.startswith("stopped the search")]
    caplog.clear()
    return out


def test_the_client_stops_a_search_when_the_moves_time_is_up(caplog):
    caplog.set_level(logging.DEBUG, logger="draughts.hub")
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    # a move time: the engine is told the time less the margin, and stopped then
    mock.expect("pos " + START)
    mock.expect("time 270")
    mock.expect("go", ["info 12 14.0 0 1000 0.05 0.1 32-28"])
    mock.expect("stop", ['input "stop"', "move 32-28"])  # the move comes only after the stop
    result = engine.play(draughts.Board(), Limit(movetime=0.3))
    assert result.move.hub() == "32-28" and result.info.depth == 12
    [(sent, planned, lag)] = stops(caplog)
    assert planned == pytest.approx(0.27, abs=1e-6) and sent >= planned  # not before its time
    assert engine.lag == pytest.approx(next_lag(0.0, lag))  # the delay to the move
    # a clock: stopped once half of it (time and increment), less the margin, has gone
    engine._engine.lag = 0.0
    mock.expect("pos " + START)
    mock.expect("level 0 400 0")
    mock.expect("go")
    mock.expect("stop", ["move 33-28"])
    result = engine.play(draughts.Board(), Limit(time=0.4))
    assert result.move.hub() == "33-28"
    [(sent, planned, lag)] = stops(caplog)
    assert planned == pytest.approx(0.2 - 0.03, abs=1e-6) and sent >= planned
    # an engine that was slow to answer a stop is stopped that much earlier
    # (by at most a quarter of the time), and its lag decays
    engine._engine.lag = 0.1
    mock.expect("pos " + START)
    mock.expect("time 270")
    mock.expect("go")
    mock.expect("stop", ["move 32-28"])
    engine.play(draughts.Board(), Limit(movetime=0.3))
    [(sent, planned, lag)] = stops(caplog)
    assert planned == pytest.approx(planned_stop(0.27, 0.1), abs=1e-6) == pytest.approx(0.2025)
    assert engine.lag == pytest.approx(next_lag(0.1, lag)) and engine.lag >= 0.09
    mock.expect("quit")
    engine.quit()
    mock.assert_done()


def test_play_reports_each_info_line_and_stop_asks_for_the_move_at_once(caplog):
    caplog.set_level(logging.DEBUG, logger="draughts.hub")
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    mock.expect("pos " + START)
    mock.expect("time 9970")
    mock.expect("go", ["info 1 1.0 10 20 0.00 0.1 32-28", "info 2 2.0 -5 80 0.01 0.1 32-28 19-23"])
    mock.expect("stop", ["move 32-28"])
    seen = []
    thinking = threading.Event()

    def on_info(info):
        seen.append(info)
        if len(seen) == 2:
            thinking.set()

    def stop_when_thinking():  # from another thread, as a GUI's stop button
        assert thinking.wait(30)
        engine.stop()

    stopper = threading.Thread(target=stop_when_thinking)
    stopper.start()
    result = engine.play(draughts.Board(), Limit(movetime=10.0), on_info=on_info)
    stopper.join()
    assert result.move.hub() == "32-28"
    # the stop was stop()'s, not the client's at the end of the 10 s: that one
    # is logged and measures the lag, which stays as it was
    assert stops(caplog) == [] and engine.lag == 0.0
    assert [(i.depth, i.score) for i in seen] == [(1, 0.1), (2, -0.05)]
    assert [m.hub() for m in seen[1].pv] == ["32-28", "19-23"]
    assert engine.busy is None
    engine.stop()  # idle: nothing is sent
    mock.expect("quit")
    engine.quit()
    mock.assert_done()


@pytest.mark.parametrize(
    "line, error",
    [("move 46-41", EngineProtocolError), ("move banana", EngineProtocolError), ("move", EngineNoMoveError)],
)
def test_a_bad_move_line_is_an_error_carrying_the_line(line, error):
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    mock.expect("pos " + START)
    mock.expect("depth 3")
    mock.expect("go", [line])
    with pytest.raises(error) as e:
        engine.play(draughts.Board(), Limit(depth=3))
    assert e.value.line == line
    engine.quit(0.0)


def test_other_variants_and_node_limits_are_refused():
    mock = MockTransport()
    handshake(mock)
    engine = Hub1Engine.from_transport(mock)
    with pytest.raises(EngineError, match="international"):
        engine.play(draughts.Board(variant="frisian"), Limit(depth=2))
    with pytest.raises(ValueError, match="node"):
        engine.play(draughts.Board(), Limit(nodes=100))
    engine.quit(0.0)
    with pytest.raises(draughts.DraughtsError, match="nodes="):
        parse_engine(["proto=hub1", "cmd=scan", "nodes=1000"])
    with pytest.raises(draughts.DraughtsError, match="cmd="):
        parse_engine(["proto=hub1", "st=1"])


# --- matches through the runner ----------------------------------------------------------


def run(argv):
    """A match in this process from command-line words; (result, stdout text)."""
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match.run(), out.getvalue()


def hub1(mode, log, *extra, after=3, name="v1"):
    return [
        "-engine",
        f"name={name}",
        "proto=hub1",
        f"cmd={sys.executable}",
        f"arg={SCRIPT}",
        f"arg={mode}",
        f"arg={after}",
        f"arg={log}",
        *extra,
    ]


# the opponent: the version-2 scripted engine (it plays the first legal move)
GOOD = ["-engine", "name=good", f"cmd={sys.executable}", "arg=-m", "arg=draughts.hub.testing", "arg=ok", "depth=1"]


def sent(log):
    """(seconds, line) of every line the scripted engine read."""
    out = []
    for text in log.read_text().splitlines():
        t, _, line = text.partition(" ")
        out.append((float(t), line))
    return out


def test_a_match_against_a_version_1_engine_with_its_options_sent_as_set(tmp_path):
    log, pdn_path = tmp_path / "v1.log", tmp_path / "games.pdn"
    result, out = run(
        hub1("ok", log, "depth=1", "option.book=false", "option.threads=1")
        + GOOD
        + ["-games", "2", "-repeat", "-pdnout", str(pdn_path)]
    )
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination == "normal"
        assert record_board(rec, draughts.variant("international")).outcome() is not None
    assert "Score of v1 vs good: " in out and "Finished match" in out
    games = list(pdn.read_games(pdn_path.read_text()))  # replays legally
    assert len(games) == 2 and {g.headers["White"] for g in games} == {"v1", "good"}
    lines = [line for _, line in sent(log)]
    assert lines[:4] == ["hub", "set book false", "set threads 1", "init"]
    assert lines.count("new") == 2
    # every search: pos, the moves since, then the limit (pos clears it), then go
    for i, line in enumerate(lines):
        if line == "go":
            j = i - 1
            assert lines[j] == "depth 1"
            while lines[j - 1].startswith("move "):
                j -= 1
            assert lines[j - 1].startswith("pos ")
    assert "error" not in out


# mode: (PDN Termination, words of the reason, the bad engine's limit)
FAULTS = {
    "illegal": ("illegal move", "makes an illegal move: ", "depth=1"),
    "nonsense": ("illegal move", "makes an illegal move: move banana", "depth=1"),
    "nomove": ("illegal move", "sends no move", "depth=1"),
    "crash": ("abandoned", "disconnects", "depth=1"),
    "stall": ("stalled connection", "'s connection stalls", "st=0.2"),
    "late": ("time forfeit", "loses on time", "st=0.2"),
}


@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_a_misbehaving_version_1_engine_loses_as_a_version_2_one_does(mode, tmp_path):
    termination, words, limit = FAULTS[mode]
    json_path = tmp_path / "match.json"
    result, out = run(
        hub1(mode, tmp_path / "v1.log", limit, "timemargin=100")
        + GOOD
        + ["-games", "2", "-recover", "-jsonout", str(json_path)]
    )
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination == termination
        assert words in rec.reason
        assert rec.winner == 1
        colour = "White" if rec.first == 0 else "Black"  # international: White moves first
        assert rec.reason.startswith(colour)
        assert len(rec.moves) == (4 if rec.first == 0 else 5)  # the fault on its third move
        if mode in ("crash", "stall"):
            assert rec.failed == [0]
    assert "Score of v1 vs good: 0 - 2 - 0" in out
    assert json.loads(json_path.read_text())["terminations"] == {termination: 2}


def test_the_clock_is_sent_as_level_after_each_pos(tmp_path):
    log = tmp_path / "v1.log"
    result, out = run(hub1("ok", log, "tc=10/2+0.05") + GOOD + ["-games", "1", "-maxmoves", "12"])
    rec = result.records[0]
    assert rec.first == 0 and rec.termination == "adjudication"  # 12 moves, none lost on time
    lines = [line for _, line in sent(log)]
    levels = [lines[i - 1] for i, line in enumerate(lines) if line == "go"]
    assert len(levels) == 12 and all(l.startswith("level ") for l in levels)
    values = [[int(w) for w in l.split()[1:]] for l in levels]
    assert values[0] == [10, 2000, 50]
    assert [v[0] for v in values] == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 10, 9]  # moves to go
    assert all(v[2] == 50 for v in values)  # the increment
    # the clock: what was left, plus the increment, less the move's time (in
    # the PDN comment, to 10 ms), plus the next period's time after 10 moves
    for k in range(11):
        used = float(rec.comments[2 * k].split()[-1].rstrip("s")) * 1000.0
        expected = values[k][1] + 50 - used + (2000 if k == 9 else 0)
        assert abs(values[k + 1][1] - expected) <= 6, (k, values[k], values[k + 1], used)


def test_the_runner_stops_a_search_at_the_end_of_the_moves_time(tmp_path):
    log, json_path = tmp_path / "v1.log", tmp_path / "match.json"
    result, out = run(
        hub1("ok", log, "st=0.3", "timemargin=50")
        + GOOD
        + ["-games", "1", "-maxmoves", "4", "-jsonout", str(json_path)]
    )
    rec = result.records[0]
    assert rec.termination == "adjudication" and rec.reason == "Draw by adjudication: maximum moves"
    events = sent(log)
    # each search is told the move's time less the margin, and stopped by the
    # client: the engine would think 1.08 s alone (four times the time), and
    # its move would lose on time (the game ended by adjudication, none lost)
    searches = [
        line.split()[0] if line.startswith("pos ") else line
        for _, line in events
        if line in ("go", "stop") or line.startswith(("time ", "pos "))
    ]
    assert searches == ["pos", "time 270", "go", "stop"] * 4
    # the latency is measured as for any engine
    assert len(rec.latency[str(0)]) == 4

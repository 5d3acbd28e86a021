"""The Hub client (`draughts.hub.HubEngine`): transcripts against scripted engines
through an in-memory transport, then real processes that crash, stall, run
late or play illegal moves."""

import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import draughts
from draughts.hub.testing import in_memory_engine
from draughts.errors import (
    EngineCommandError,
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from draughts.hub import HubEngine, Limit, MemoryTransport
from draughts.hub.protocol import parse_line
from hub_scripts.transcript import matches

FAKE = str(Path(__file__).parent / "hub_scripts" / "fake_engine.py")
START = "W" + "b" * 20 + "e" * 10 + "w" * 20
RUSSIAN_START = "W" + "b" * 12 + "e" * 8 + "w" * 12

HANDSHAKE = """
    client: hub
    engine: id name=scripted version=1.0 author="Test Author"
    engine: param name=variant value=normal type=enum values="normal russian"
    engine: param name=tt-size value=64 type=int min=1 max=1024
    engine: param name=ponder value=false type=bool
    engine: wait
    client: init
    engine: ready
"""


class ScriptedEngine:
    """An engine that follows a transcript: `client: pattern` lines must come from
    the client in order (`*` matches any text); the `engine:` lines after one
    are the answer.  `engine: <exit N>` ends the engine's output with exit code
    N, `engine: <sleep S>` delays the rest of the answer, `engine: <stderr TEXT>`
    writes to the log."""

    def __init__(self, transcript: str, exits: bool = True):
        self.exits = exits
        self.steps = []
        for raw in textwrap.dedent(transcript).strip("\n").splitlines():
            raw = raw.strip()
            if raw:
                who, _, text = raw.partition(": ")
                assert who in ("client", "engine"), raw
                self.steps.append((who, text))
        self.transport = MemoryTransport(self._on_line)
        self.failures = []
        self.pos = 0
        self._answer()

    def _on_line(self, line: str) -> None:
        if self.pos >= len(self.steps):
            if line != "quit":
                self.failures.append(f"unexpected client line {line!r} after the transcript")
            elif self.exits:
                self.transport.close(0)
            return
        who, want = self.steps[self.pos]
        if who != "client" or not matches(want, line):
            self.failures.append(f"step {self.pos}: expected client: {want!r}, got {line!r}")
            return
        self.pos += 1
        self._answer()

    def _answer(self) -> None:
        batch = []
        while self.pos < len(self.steps) and self.steps[self.pos][0] == "engine":
            batch.append(self.steps[self.pos][1])
            self.pos += 1
        if any(item.startswith("<sleep ") for item in batch):
            threading.Thread(target=self._emit, args=(batch,), daemon=True).start()
        else:
            self._emit(batch)

    def _emit(self, batch) -> None:
        for item in batch:
            if item.startswith("<sleep "):
                time.sleep(float(item[7:-1]))
            elif item.startswith("<exit "):
                self.transport.close(int(item[6:-1]))
            elif item.startswith("<stderr "):
                self.transport.stderr.append(item[8:-1])
            else:
                self.transport.emit(item)

    def finished(self) -> bool:
        return self.pos == len(self.steps) and not self.failures


def scripted(transcript: str, exits: bool = True, **options):
    script = ScriptedEngine(transcript, exits)
    options.setdefault("timeout", 2.0)  # a transcript mismatch fails fast
    engine = HubEngine.from_transport(script.transport, **options)
    return script, engine


# --- handshake and parameters ------------------------------------------------------


def test_handshake_reads_id_and_params():
    script, engine = scripted(HANDSHAKE)
    with engine:
        assert engine.id == {"name": "scripted", "version": "1.0", "author": "Test Author"}
        assert engine.name == "scripted"
        assert engine.params["variant"].values == ["normal", "russian"]
        assert engine.params["tt-size"].min == 1 and engine.params["tt-size"].max == 1024
        assert engine.params["ponder"].type == "bool" and engine.params["ponder"].value == "false"
    assert script.finished(), script.failures


def test_start_up_params_are_sent_before_init():
    script, engine = scripted(
        """
        client: hub
        engine: some banner text the client ignores
        engine: id name=scripted
        engine: param name=tt-size value=64 type=int min=1 max=1024
        engine: param name=book-file value="" type=string
        engine: wait
        client: set-param name=tt-size value=16
        client: set-param name=book-file value="/a b/c.pdn"
        client: init
        engine: ready
    """,
        params={"tt_size": 16, "book-file": "/a b/c.pdn"},
    )
    with engine:
        assert engine.params["tt-size"].value == "16"
    assert script.finished(), script.failures


def test_configure_sends_set_param_and_syncs_with_ping():
    script, engine = scripted(
        HANDSHAKE
        + """
        client: set-param name=tt-size value=32
        client: set-param name=ponder value=true
        client: ping
        engine: pong
        client: set-param name=tt-size value=5000
        client: ping
        engine: error message="tt-size must be from 1 to 1024, not 5000"
        engine: pong
    """
    )
    with engine:
        engine.configure({"tt_size": 32, "ponder": True})
        assert engine.params["ponder"].value == "true"
        with pytest.raises(EngineCommandError) as err:
            engine.configure({"tt-size": 5000})
        assert err.value.line == 'error message="tt-size must be from 1 to 1024, not 5000"'
        assert engine.params["tt-size"].value == "32"
        with pytest.raises(EngineError, match="no parameter 'threads'"):
            engine.configure({"threads": 4})  # not declared: nothing is sent
    assert script.finished(), script.failures


def test_a_startup_that_stalls_times_out():
    script = ScriptedEngine("""
        client: hub
        engine: id name=slow
    """)
    t0 = time.monotonic()
    with pytest.raises(EngineTimeoutError, match="waiting for wait"):
        HubEngine.from_transport(script.transport, startup_timeout=0.3)
    assert time.monotonic() - t0 < 2.0


# --- play -----------------------------------------------------------------------------


def test_play_sends_the_game_and_reads_the_move():
    board = draughts.Board()
    board.push_text("32-28")
    board.push_text("19-23")
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: set-param name=variant value=normal
        client: ping
        engine: pong
        client: pos pos={START} moves="32-28 19-23"
        client: level depth=6
        client: go think
        engine: info depth=1 score=0.50 nodes=10 time=0.001 nps=0.01 pv=28x19x23
        engine: info depth=6 mean-depth=7.5 score=-0.25 nodes=12345 time=0.020 nps=0.62 pv="28x19x23 14x23x19" hashfull=3
        engine: done move=28x19x23 ponder=14x23x19
    """
    )
    with engine:
        engine.params["variant"].value = "russian"  # so that play must set it back
        result = engine.play(board, Limit(depth=6))
    assert script.finished(), script.failures
    assert result.move == board.parse_move("28x19")
    after = board.copy()
    after.push(result.move)
    assert result.ponder == after.parse_move("14x23")
    info = result.info
    assert (info.depth, info.score, info.nodes, info.time, info.win_in) == (6, -0.25, 12345, 0.02, None)
    assert info.nps == pytest.approx(620000.0) and info.pv == [result.move, result.ponder]
    assert info.multipv == 1 and info.extra == {"mean-depth": "7.5", "hashfull": "3"}
    assert result.latency == pytest.approx(result.elapsed - 0.02)
    assert not result.late


def test_play_sets_the_variant_and_sends_33_character_positions():
    board = draughts.Board(variant="russian")
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: set-param name=variant value=russian
        client: ping
        engine: pong
        client: pos pos={RUSSIAN_START}
        client: level move-time=0.5
        client: go think
        engine: done move=22-18
        client: pos pos={RUSSIAN_START} moves=22-18
        client: level moves=20 time=10 inc=0.1
        client: go think
        engine: done move=11-15 ponder=garbage
    """
    )
    with engine:
        r1 = engine.play(board, Limit(movetime=0.5))
        assert board.move_text(r1.move) == "c3-d4"
        board.push(r1.move)
        r2 = engine.play(board, Limit(time=10, inc=0.1, moves_to_go=20))
        assert r2.ponder is None  # an unreadable ponder move is dropped
        assert r2.move in board.legal_moves
    assert script.finished(), script.failures


def test_variants_and_rules_the_engine_lacks_are_errors():
    script, engine = scripted("""
        client: hub
        engine: id name=tenbyten
        engine: wait
        client: init
        engine: ready
    """)
    with engine:
        with pytest.raises(EngineError, match="plays only international draughts, not russian"):
            engine.play(draughts.Board(variant="russian"), Limit(depth=1))
        house = draughts.variant("international", mandatory_capture=False)
        with pytest.raises(EngineError, match="mandatory-capture"):
            engine.play(draughts.Board(variant=house), Limit(depth=1))
    script, engine = scripted(HANDSHAKE)
    with engine:
        with pytest.raises(EngineError, match="does not play american"):
            engine.play(draughts.Board(variant="american"), Limit(depth=1))
        with pytest.raises(ValueError, match="game is over"):
            engine.play(draughts.Board("W:W:B1"), Limit(depth=1))
        with pytest.raises(ValueError, match="Limit needs"):
            engine.play(draughts.Board(), Limit())


@pytest.mark.parametrize(
    "done",
    ["done move=32-26", "done move=32-27x", "done move=e3-f4", "done", "done move= ponder=19-23", "done move=0-0"],
)
def test_an_illegal_or_unreadable_move_carries_the_engines_line(done):
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level depth=1
        client: go think
        engine: {done}
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        with pytest.raises(EngineProtocolError) as err:
            engine.play(draughts.Board(), Limit(depth=1))
    assert err.value.line == done
    assert repr(done) in str(err.value)


def test_an_error_answer_to_go_is_raised_and_the_client_resyncs():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level depth=1
        client: go think
        engine: error message="cannot think today"
        client: stop
        client: ping
        engine: pong
        client: ping
        engine: pong
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        with pytest.raises(EngineCommandError, match="cannot think today") as err:
            engine.play(draughts.Board(), Limit(depth=1))
        assert err.value.line == 'error message="cannot think today"'
        assert engine.ping() >= 0
    assert script.finished(), script.failures


def test_a_late_move_is_returned_as_late_with_its_time():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level move-time=0.1
        client: go think
        engine: <sleep 0.4>
        engine: done move=32-28
        client: pos pos={START}
        client: level time=0.5 inc=0.5
        client: go think
        engine: <sleep 0.7>
        engine: done move=32-28
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        result = engine.play(draughts.Board(), Limit(movetime=0.1))
        assert result.late and result.elapsed >= 0.39
        result = engine.play(draughts.Board(), Limit(time=0.5, inc=0.5))  # 1 s with the increment
        assert not result.late and result.elapsed >= 0.69
    assert script.finished(), script.failures


def test_a_stalled_engine_times_out_and_a_crashed_one_is_terminated():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level move-time=0.1
        client: go think
        engine: info depth=1
        client: pos pos={START}
        client: level depth=1
        client: go think
        engine: <stderr Segmentation fault>
        engine: <exit 139>
    """,
        timeout=0.3,
    )
    with engine:
        engine.params["variant"].value = "normal"
        t0 = time.monotonic()
        with pytest.raises(EngineTimeoutError) as err:
            engine.play(draughts.Board(), Limit(movetime=0.1))
        assert 0.35 < time.monotonic() - t0 < 1.5  # the move time, then the timeout
        assert "waiting for the move" in err.value.waiting_for
        with pytest.raises(EngineTerminatedError) as err:
            engine.play(draughts.Board(), Limit(depth=1))
        assert err.value.returncode == 139
        assert err.value.stderr_tail == ["Segmentation fault"]
        assert "exit code 139" in str(err.value)
        with pytest.raises(EngineTerminatedError):
            engine.ping()
    assert engine.returncode == 139


def test_stale_and_unknown_lines_do_not_confuse_the_next_command():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level depth=1
        client: go think
        engine: done move=32-28
        engine: info depth=2 score=0.10
        engine: "garbage with a quote
        engine: unknown-command x=1
        client: ping
        engine: pong
        client: pos pos={START}
        client: level depth=1
        client: go think
        engine: something-else
        engine: done move=31-27
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        engine.play(draughts.Board(), Limit(depth=1))
        time.sleep(0.05)
        engine.ping()
        assert engine.play(draughts.Board(), Limit(depth=1)).move.hub() == "31-27"
    assert script.finished(), script.failures


# --- analysis, stop, quit ----------------------------------------------------------------


def test_analyse_streams_info_and_stops_at_the_limit():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level infinite
        client: go analyze
        engine: info depth=1 score=0.10 pv=32-28
        engine: info depth=2 score=0.05 pv="32-28 19-23"
        engine: info depth=3 score=0.00 pv="33-28 18-23"
        client: stop
        engine: done move=33-28 ponder=18-23
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        with engine.analysis(draughts.Board(), Limit(depth=3)) as analysis:
            depths = [info.depth for info in analysis]
        assert depths == [1, 2, 3]
        assert analysis.result.move.hub() == "33-28" and analysis.result.ponder.hub() == "18-23"
        assert analysis.info.score == 0.0
    assert script.finished(), script.failures


def test_an_analysis_without_a_limit_runs_until_stop():
    script, engine = scripted(
        HANDSHAKE
        + f"""
        client: pos pos={START}
        client: level infinite
        client: go analyze
        engine: info depth=1 score=0.10 pv=32-28
        client: stop
        engine: done move=32-28
    """
    )
    with engine:
        engine.params["variant"].value = "normal"
        analysis = engine.analysis(draughts.Board())
        assert analysis.next().depth == 1
        with pytest.raises(EngineError, match="busy"):
            engine.play(draughts.Board(), Limit(depth=1))
        engine.stop()
        assert analysis.wait().move.hub() == "32-28"
        assert analysis.next() is None
    assert script.finished(), script.failures


def test_quit_kills_an_engine_that_does_not_exit():
    script, engine = scripted(HANDSHAKE, exits=False)
    t0 = time.monotonic()
    assert engine.quit(timeout=0.2) == -9
    assert time.monotonic() - t0 < 1.5
    assert engine.quit() == -9  # quitting twice is harmless


# --- our client against our server, in memory -------------------------------------------


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_client_and_server_in_memory_play_a_game(variant):
    board = draughts.Board(variant=variant)
    with in_memory_engine() as engine:
        engine.new_game()
        while board.outcome() is None and board.ply < 40:
            result = engine.play(board, Limit(depth=2))
            assert result.move in board.legal_moves
            board.push(result.move)
        with engine.analysis(board, Limit(depth=3)) as analysis:
            assert [info.depth for info in analysis][:3] == [1, 2, 3]
    assert engine.returncode == 0


# --- real processes -------------------------------------------------------------------------


def fake(mode, **options):
    return HubEngine([sys.executable, FAKE, mode], **options)


def test_a_process_gets_its_cwd_and_env_and_its_stderr_is_logged(tmp_path):
    env = dict(os.environ, FAKE_ENGINE_TAG="tagged")
    log = tmp_path / "engine.log"
    with fake("ok", cwd=str(tmp_path), env=env, stderr_path=str(log)) as engine:
        assert engine.params["cwd"].value == str(tmp_path)
        assert engine.params["tag"].value == "tagged"
        result = engine.play(draughts.Board(), Limit(movetime=1))
        assert result.move.hub() == "32-28" and result.ponder.hub() == "19-23"
        assert not result.late
    assert engine.returncode == 0
    assert engine.stderr == ["fake engine starting in mode ok"]
    assert log.read_text() == "fake engine starting in mode ok\n"


def test_a_crashing_process_reports_its_exit_code_and_stderr():
    with fake("crash") as engine:
        with pytest.raises(EngineTerminatedError) as err:
            engine.play(draughts.Board(), Limit(depth=1))
    assert err.value.returncode == 3
    assert err.value.stderr_tail[-1] == "fatal: out of cheese"


def test_a_stalling_process_times_out_and_is_killed_at_quit():
    with fake("stubborn", timeout=0.3) as engine:
        with pytest.raises(EngineTimeoutError):
            engine.ping(timeout=-1)  # no time at all
        t0 = time.monotonic()
        rc = engine.quit(timeout=0.3)
    assert rc == -9 and time.monotonic() - t0 < 2.0


def test_a_stalled_search_times_out():
    with fake("stall", timeout=0.3) as engine:
        with pytest.raises(EngineTimeoutError):
            engine.play(draughts.Board(), Limit(movetime=0.1))


def test_a_late_process_move_is_late():
    with fake("late") as engine:
        result = engine.play(draughts.Board(), Limit(movetime=0.1))
    assert result.late and result.elapsed >= 0.4


def test_an_illegal_process_move_carries_its_line():
    with fake("illegal") as engine:
        with pytest.raises(EngineProtocolError) as err:
            engine.play(draughts.Board(), Limit(depth=1))
    assert err.value.line == "done move=32-27x"


def test_a_silent_process_fails_the_start_up_and_is_killed():
    t0 = time.monotonic()
    with pytest.raises(EngineTimeoutError):
        fake("silent", startup_timeout=0.5)
    assert time.monotonic() - t0 < 3.0


def test_a_missing_program_is_a_terminated_error(tmp_path):
    with pytest.raises(EngineTerminatedError, match="cannot start"):
        HubEngine([str(tmp_path / "no-such-engine"), "hub"])


def test_a_command_string_is_split_like_a_shell_would():
    with HubEngine(f'"{sys.executable}" "{FAKE}" ok') as engine:
        assert engine.name == "fake-ok"


def test_the_client_pings_after_new_game():
    from draughts.hub import HubEngine
    from draughts.hub.client import MemoryTransport

    sent = []

    def handler(line):
        sent.append(line)
        command, _ = parse_line(line)
        if command == "hub":
            transport.emit("id name=t")
            transport.emit("wait")
        elif command == "init":
            transport.emit("ready")
        elif command == "ping":
            transport.emit("pong")

    transport = MemoryTransport(handler)
    with HubEngine.from_transport(transport) as engine:
        engine.new_game()
        assert sent[-2:] == ["new-game", "ping"]


def test_play_reports_what_the_search_finds_as_it_goes_and_stop_asks_for_the_move():
    engine = in_memory_engine(params={"book": "none"})  # a search from the start, not the book
    try:
        board = draughts.Board()
        seen = []
        result = engine.play(board, Limit(depth=6), on_info=seen.append)
        depths = [i.depth for i in seen]
        assert depths[-1] == 6 and depths == sorted(depths) and len(set(depths)) >= 3
        assert seen[-1].pv and seen[-1].pv[0] == result.move
        assert all(i.score is not None for i in seen)
        assert engine.busy is None
        engine.stop()  # idle: nothing happens
        timer = threading.Timer(0.3, engine.stop)
        timer.start()
        t0 = time.monotonic()
        result = engine.play(board, Limit(movetime=30.0))
        took = time.monotonic() - t0
        timer.join()
        assert result.move in board.legal_moves and 0.25 <= took < 5.0
        assert engine.play(board, Limit(depth=2)).move in board.legal_moves  # and it goes on
    finally:
        engine.quit()

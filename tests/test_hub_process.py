"""The real `draughts hub` process: stdout carries protocol lines only, and the
process ends promptly on quit or at the end of its input."""

import sys
import time

import pytest

from hub_scripts.transcript import EngineProcess


@pytest.fixture
def engine():
    proc = EngineProcess()
    yield proc
    proc.kill()


def test_a_session_with_bad_input_writes_only_protocol_lines(engine):
    engine.send("hub")
    assert engine.until("wait")[0].startswith("id name=draughts ")
    engine.send("init")
    engine.until("ready")
    engine.send(
        "nonsense",
        'pos pos="open',
        b"\xff\xfe invalid utf-8 \xc3",
        "level depth=x",
        "set-param name=variant value=russian",
        "pos start",
        "level depth=3",
        "go think",
    )
    lines = engine.until("done")
    assert [line for line in lines if line.startswith("error")] == [
        "error message=\"unknown command 'nonsense'\"",
        'error message="cannot read the line: the value of pos has no closing quote"',
        "error message=\"unknown command '\ufffd\ufffd'\"",
        "error message=\"level depth= takes a number, not 'x'\"",
    ]
    engine.send("quit")
    assert engine.wait(5) == 0
    assert engine.read() is None
    assert engine.stderr == []  # nothing went wrong inside


def test_quit_during_a_search_exits_at_once(engine):
    engine.send("pos start", "level infinite", "go think")
    engine.read()
    t0 = time.monotonic()
    engine.send("quit")
    assert engine.wait(5) == 0
    assert time.monotonic() - t0 < 2.0


@pytest.mark.parametrize(
    "work",
    [
        ["level infinite", "go think"],
        ["level infinite", "go analyze"],
        ["level time=100", "go ponder"],
        ["perft depth=14"],  # cannot be stopped: the process still ends
    ],
)
def test_end_of_input_ends_the_process_promptly(engine, work):
    engine.send("pos start", *work, "ping")
    engine.until("pong")
    t0 = time.monotonic()
    engine.close_input()
    assert engine.wait(5) == 0
    assert time.monotonic() - t0 < 3.0


def test_the_hub_command_is_registered():
    import subprocess

    out = subprocess.run([sys.executable, "-m", "draughts", "hub", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "Hub protocol" in out.stdout

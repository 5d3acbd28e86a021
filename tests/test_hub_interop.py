"""Interoperability with Hub programs no one here wrote.

* `pydraughts` (PyPI), a third-party Hub client, drives `draughts hub` through
  whole games of every variant both know (international, english, russian,
  brazilian, italian), in its own 8x8 dialect (`pydraughts=true`).
* Our client drives `dame hub` (PyPI package `dame-rs`, an international
  engine) through a game.

Both packages live in a separate virtual environment: pydraughts' import name
`draughts` clashes with ours.  Its interpreter comes from the environment
variable DRAUGHTS_INTEROP_PYTHON (set by .ci/run); otherwise the test makes the
environment itself in `.venv-interop/` at the repository root and reuses it.
These tests are never skipped.
"""

import json
import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import draughts
from draughts.hub import HubEngine, Limit

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).resolve().parent / "hub_scripts"
PACKAGES = ["pydraughts==0.6.7", "dame-rs==0.2.0"]
CHECK = "from draughts.engine import HubEngine; import dame"


def _works(python: str) -> bool:
    try:
        return subprocess.run([python, "-I", "-c", CHECK], capture_output=True, timeout=60).returncode == 0
    except OSError:
        return False


@pytest.fixture(scope="module")
def interop_python() -> str:
    given = os.environ.get("DRAUGHTS_INTEROP_PYTHON")
    if given:
        assert _works(given), f"DRAUGHTS_INTEROP_PYTHON={given} cannot import pydraughts and dame"
        return given
    venv = ROOT / ".venv-interop"
    python = venv / "bin" / "python"
    if not (python.exists() and _works(str(python))):
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *PACKAGES], check=True, timeout=900)
        assert _works(str(python)), "the interop environment was made but cannot import its packages"
    return str(python)


@pytest.fixture
def hub_program(tmp_path) -> str:
    """`draughts hub` as one executable file (pydraughts takes a program path and
    resolves symbolic links, which would leave a virtual environment)."""
    program = tmp_path / "draughts-hub"
    # pydraughts runs without PYTHONPATH (its `draughts` is another package); the
    # program gets this run's back, so it is the draughts under test
    path = os.environ.get("PYTHONPATH")
    env = f"export PYTHONPATH={shlex.quote(path)}\n" if path else ""
    program.write_text(f'#!/bin/sh\n{env}exec "{sys.executable}" -m draughts hub "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(program)


PYDRAUGHTS_VARIANTS = {
    "normal": "international",
    "standard": "international",
    "english": "american",
    "russian": "russian",
    "brazilian": "brazilian",
    "italian": "italian",
}


def _pydraughts_game(interop_python: str, program: str, tmp_path, variant: str, plies: int, *options: str):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(
        [interop_python, "-I", str(SCRIPTS / "pydraughts_game.py"), program, variant, str(plies), *options],
        capture_output=True,
        text=True,
        cwd=str(tmp_path),
        env=env,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def _same_position(a: draughts.Board, b: draughts.Board) -> bool:
    return a.turn == b.turn and a.pieces() == b.pieces()


@pytest.mark.parametrize(
    "variant, options",
    [
        ("normal", ()),  # Scan's name, no dialect needed on 10x10
        ("standard", ("pydraughts=true",)),
        ("english", ("pydraughts=true",)),
        ("russian", ("pydraughts=true",)),
        ("brazilian", ("pydraughts=true",)),
        ("italian", ()),
        ("italian", ("pydraughts=true",)),
    ],
)
def test_pydraughts_drives_our_engine_through_a_game(interop_python, hub_program, tmp_path, variant, options):
    game = _pydraughts_game(interop_python, hub_program, tmp_path, variant, 300, *options)
    assert game["id"]["name"] == "draughts"
    assert {"variant", "tt-size", "ponder", "mandatory-capture", "level", "pydraughts"} <= set(game["options"])
    assert {"normal", "international", "russian", "brazilian", "american", "italian"} <= set(game["variants"])
    assert game["exit"] == 0
    # pydraughts pushed every engine move on its own Board (it raises on a move it
    # finds illegal) and read every ponder move there; here each of its positions,
    # in the variant's own notation, must follow from the last by one move legal
    # for our Board too.
    ours = PYDRAUGHTS_VARIANTS[variant]
    board = draughts.Board(game["fens"][0], variant=ours)
    assert _same_position(board, draughts.Board(variant=ours))
    for ply, (text, fen) in enumerate(zip(game["moves"], game["fens"][1:]), start=1):
        after = draughts.Board(fen, variant=ours)
        played = [m for m in board.legal_moves if _same_position(_pushed(board, m), after)]
        assert played, f"ply {ply}: pydraughts' {text} leads to {fen}, which no legal move of ours reaches"
        board.push(played[0])
    for info in game["infos"]:
        assert {"depth", "score", "nodes", "time", "nps"} <= set(info)
    assert len(game["moves"]) > 20
    assert game["over"] or len(game["moves"]) == 300
    if game["over"] and game["winner"]:  # pydraughts: 2 is White, 1 Black
        assert board.outcome() is not None
        assert board.outcome().winner == (draughts.WHITE if game["winner"] == 2 else draughts.BLACK)


def _pushed(board: draughts.Board, move) -> draughts.Board:
    after = board.copy()
    after.push(move)
    return after


def test_pydraughts_international_moves_are_ours(interop_python, hub_program, tmp_path):
    game = _pydraughts_game(interop_python, hub_program, tmp_path, "normal", 60)
    board = draughts.Board()
    for text, ponder in zip(game["moves"], game["ponders"]):
        move = board.parse_move(text)
        assert move.hub() == text
        board.push(move)
        if ponder is not None and board.legal_moves:
            assert board.parse_move(ponder) in board.legal_moves


def test_our_client_drives_dame_through_a_game(interop_python):
    board = draughts.Board()
    with HubEngine([interop_python, "-I", "-m", "dame", "hub"], params={"hash": 16}) as engine:
        assert engine.name == "dame"
        assert "variant" not in engine.params  # international only
        with pytest.raises(draughts.EngineError):
            engine.play(draughts.Board(variant="russian"), Limit(depth=1))
        engine.new_game()
        while board.outcome() is None and board.ply < 300:
            result = engine.play(board, Limit(depth=3) if board.ply % 2 else Limit(movetime=0.02))
            assert result.move in board.legal_moves
            board.push(result.move)
        # the start position: the game's last one varies with the clock, and
        # dame answers a bare `done` where its own rules end the game
        with engine.analysis(draughts.Board(), Limit(depth=4)) as analysis:
            assert any(info.depth == 4 for info in analysis)
        assert analysis.result.move is not None
        assert engine.ping() >= 0
    assert engine.returncode == 0
    assert board.ply > 20

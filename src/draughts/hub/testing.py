"""Helpers for testing programs that drive Hub engines, shipped with the
library (as python-chess ships its `MockTransport`).

`MockTransport` is an engine that follows a script: each line the client is
expected to send, with the lines the engine answers it.

    >>> from draughts.hub import HubEngine
    >>> mock = MockTransport()
    >>> mock.expect("hub", ["id name=mock", "wait"])
    >>> mock.expect("init", ["ready"])
    >>> mock.expect("ping", ["pong"])
    >>> engine = HubEngine.from_transport(mock)
    >>> engine.ping() >= 0
    True
    >>> mock.expect("quit")
    >>> engine.quit()
    0
    >>> mock.assert_done()

`python -m draughts.hub.testing MODE [AFTER]` is a Hub engine that plays the
first legal move (squares in order) and misbehaves on its AFTER-th move of
every game (default 3) as MODE says: `ok` never; `illegal` answers a move that
is not legal; `garbage` writes unreadable lines, then a legal move, every move
(harmless); `nonsense` answers `done move=banana`; `crash` exits with code 3;
`stall` stops answering; `late` answers 0.6 s after its time; `slowclear` takes
0.5 s over every new-game; `flood` writes info lines without end (until
`stop`); `emptydone` answers `done` without a move.  Match runners and GUIs
test their fault handling with it.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import List, Optional, Sequence, Tuple

from draughts.board import Board
from draughts.hub.protocol import board_from_position, format_line, match_move, parse_line
from draughts.hub.transport import MemoryTransport
from draughts.variants import VARIANTS, variant as get_variant

__all__ = ["MockTransport", "MODES", "scripted_engine"]

MODES = ("ok", "illegal", "garbage", "nonsense", "crash", "stall", "late", "slowclear", "flood", "emptydone")


class MockTransport(MemoryTransport):
    """An in-memory engine that answers a script; a line the script does not
    expect there ends the engine's output (exit code 1) and is reported by
    `assert_done()`."""

    def __init__(self):
        super().__init__(self._answer)
        self._script: List[Tuple[str, List[str]]] = []
        self._lock_script = threading.Lock()
        self.unexpected: List[str] = []

    def expect(self, line: str, answers: Sequence[str] = ()) -> None:
        """The client sends `line` next; the engine then writes `answers`."""
        with self._lock_script:
            self._script.append((line, list(answers)))

    def _answer(self, line: str) -> None:
        with self._lock_script:
            if not self._script or self._script[0][0] != line:
                wanted = self._script[0][0] if self._script else "nothing"
                self.unexpected.append(f"expected {wanted!r}, got {line!r}")
                self.close(1)
                return
            _, answers = self._script.pop(0)
        for answer in answers:
            self.emit(answer)
        if line == "quit":
            self.close(0)

    def assert_done(self) -> None:
        """Every expected line came, and nothing else."""
        with self._lock_script:
            left = [line for line, _ in self._script]
        if self.unexpected or left:
            raise AssertionError("; ".join(self.unexpected + [f"never sent {line!r}" for line in left]))


# --- the scripted engine -------------------------------------------------------------

_OUT = threading.Lock()


def _say(line: str) -> None:
    with _OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def _flood(stopped: threading.Event) -> None:
    n = 0
    while not stopped.is_set():
        n += 1
        _say(format_line("info", [("depth", n % 50 + 1), ("score", "0.00"), ("nodes", n)]))


def scripted_engine(mode: str = "ok", after: int = 3, stdin=None) -> int:
    """Run the scripted engine on stdin/stdout (see the module's docstring)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
    variant = get_variant("international")
    board: Optional[Board] = None
    level: dict = {}
    moves_this_game = 0
    flooding = None
    for raw in stdin if stdin is not None else sys.stdin:
        command, args = parse_line(raw)
        if command == "hub":
            _say(format_line("id", [("name", f"scripted-{mode}"), ("version", "1"), ("author", "tests")]))
            _say(
                format_line(
                    "param",
                    [("name", "variant"), ("value", "international"), ("type", "enum"), ("values", " ".join(VARIANTS))],
                )
            )
            _say("wait")
        elif command == "set-param":
            if args.get("name") == "variant":
                variant = get_variant(args["value"])
        elif command == "init":
            _say("ready")
        elif command == "ping":
            _say("pong")
        elif command == "stop":
            if flooding is not None:
                flooding[0].set()
                flooding[1].join()
                _say(format_line("done", [("move", flooding[2])]))
                flooding = None
        elif command == "new-game":
            moves_this_game = 0
            if mode == "slowclear":
                time.sleep(0.5)
        elif command == "pos":
            board = board_from_position(args["pos"], variant) if "pos" in args else Board(variant=variant)
            for text in args.get("moves", "").split():
                board.push(match_move(board, text))
        elif command == "level":
            level = args
        elif command == "go" and board is not None:
            moves_this_game += 1
            legal = sorted(board.legal_moves, key=lambda m: (m.start, m.end, sorted(m.captured)))
            move = legal[0]
            if moves_this_game == after or mode == "garbage":
                if mode == "illegal":
                    squares = {m.start for m in legal}
                    bad = next(s for s in range(1, variant.squares + 1) if s not in squares)
                    _say(f"done move={bad}-{bad + 1}")
                    continue
                if mode == "nonsense":
                    _say("done move=banana")
                    continue
                if mode == "emptydone":
                    _say("done")
                    continue
                if mode == "flood":
                    stopped = threading.Event()
                    worker = threading.Thread(target=_flood, args=(stopped,), daemon=True)
                    worker.start()
                    flooding = (stopped, worker, move.hub())
                    continue
                if mode == "crash":
                    sys.stderr.write("scripted engine: crashing on purpose\n")
                    sys.stderr.flush()
                    os._exit(3)
                if mode == "stall":
                    continue  # never answers this search
                if mode == "late":
                    given = float(level.get("move-time", level.get("time", "0")))
                    time.sleep(given + 0.6)
                if mode == "garbage":
                    _say("%%% this is not a protocol line")
                    _say('info depth=x score="unterminated')
                    _say("\x01\x02 binary junk \x7f")
                    _say('info depth=1 score=0.00 pv="99-98 nonsense"')
            _say(format_line("info", [("depth", 1), ("score", "0.00")]))
            _say(format_line("done", [("move", move.hub())]))
        elif command == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(scripted_engine(sys.argv[1] if len(sys.argv) > 1 else "ok", int(sys.argv[2]) if len(sys.argv) > 2 else 3))


def in_memory_engine(**options):
    """Our Hub client driving our Hub server in this process, through a
    MemoryTransport (no process, no pipe): for tests of the two together."""
    from draughts.hub.client import HubEngine
    from draughts.hub.server import HubServer

    transport = MemoryTransport()
    server = HubServer(transport.emit)

    def handle(line: str) -> None:
        if not server.handle_line(line):
            server.close()
            transport.close(0)

    transport.handler = handle
    return HubEngine.from_transport(transport, **options)

"""A DXP engine behind the engine protocol (`draughts.engine_api`): `DxpEngine`.

We are the DXP initiator: at the engine's first move of a game a GAMEREQ
goes out with the position the game starts from (the normal start, or the
position after the first `start_at` plies of the board, `B`, the side to
move and the 50 squares: those plies are never sent), the engine's colour,
the game's time in whole minutes and its move count (which DXP engines,
Scan and Moby Dam, read as the length of the game).  The moves played since
then (the opponent's) follow as MOVE messages.

A GAMEEND instead of a move is the engine's claim: `play` raises
`EngineClaim` (with what it said in CHAT since its last move) for the caller
to decide.  A game is closed with a GAMEEND when the next one begins
(`new_game`), and the connection with a GAMEEND asking to stop at `quit`.
With a `command` the program is started first (and stopped at the end), and
the connection is tried until it listens.  The errors are the engine
protocol's family (`draughts.errors`): a disconnection is
`EngineTerminatedError`, silence past the limit `EngineTimeoutError`, an
illegal or unreadable move `EngineProtocolError`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any, List, Mapping, Optional, Sequence

from draughts.board import Board
from draughts.engine_api import Info, PlayResult
from draughts.dxp.protocol import (
    DEFAULT_PORT,
    BackAcc,
    BackReq,
    Chat,
    Connection,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
    colour_letter,
    format,
    legal_move,
    move_message,
    parse,
    position_of,
)
from draughts.errors import (
    DxpClosed,
    DxpConnectionError,
    DxpError,
    DxpTimeout,
    EngineClaim,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    InvalidInputError,
)
from draughts.limits import Limit

#: seconds a started program may take before it accepts the connection
CONNECT_TIMEOUT = 30.0
#: seconds to wait for a GAMEACC, and for the GAMEEND that answers ours
ANSWER_TIMEOUT = 10.0
#: seconds to wait for a move when the limit has no time (depth, nodes)
UNBOUNDED_TIMEOUT = 120.0
#: seconds to wait past the limit's time by default
GRACE = 2.0


class DxpEngine:
    """A DXP follower at `host`:`port`, driven as initiator.  `command`
    (with `cwd`) starts it first; `minutes` and `moves` are the game's time
    and length that the GAMEREQ announces (0: none); `timeout` is how long a
    move is awaited when the limit has no time.  International draughts only."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = DEFAULT_PORT,
        *,
        command: Optional[Sequence[str]] = None,
        cwd: Optional[str] = None,
        name: str = "",
        minutes: int = 0,
        moves: int = 0,
        timeout: float = UNBOUNDED_TIMEOUT,
    ):
        self.name = name or f"dxp@{host}:{port}"
        self.minutes, self.moves, self.timeout = minutes, moves, timeout
        self.alive = False
        self._process: Optional[subprocess.Popen] = None
        self._conn: Optional[Connection] = None
        self._open = False  # a game is going on
        self._sent = 0  # plies of the board the follower knows
        self._start = 0  # plies of the opening (the GAMEREQ's position is after them)
        if command:
            try:
                self._process = subprocess.Popen(
                    list(command),
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            except OSError as e:
                raise EngineTerminatedError(f"cannot start {' '.join(command)}: {e}") from None
        try:
            self._conn = Connection.connect(host, port, timeout=CONNECT_TIMEOUT)
        except DxpConnectionError as e:
            self._stop_process()
            raise EngineTerminatedError(f"engine {self.name}: {e}") from None
        self.alive = True

    @property
    def pid(self) -> Optional[int]:
        """The process id of the program this engine started (None when it connected only)."""
        return self._process.pid if self._process is not None else None

    # --- the engine protocol ---------------------------------------------------------
    def configure(self, options: Mapping[str, Any]) -> None:
        """DXP has no options: any one named is an InvalidInputError."""
        if options:
            raise InvalidInputError(f"a DXP engine takes no options, not {', '.join(map(str, options))}")

    def analyse(self, board: Board, limit: Limit, multipv: int = 1, *, grace: float = GRACE) -> List[Info]:
        """The engine's move as the one line (DXP reports no search)."""
        if multipv != 1:
            raise InvalidInputError(f"a DXP engine reports one line, not multipv={multipv!r}")
        result = self.play(board, limit, grace=grace)
        return [Info(pv=[result.move])]

    def quit(self) -> None:
        """End the game going on and the connection (and the program we started)."""
        self.close()

    # --- games -------------------------------------------------------------------------
    def new_game(self) -> None:
        """Close the game going on (GAMEEND): the next move asks for a new one."""
        self._end_game(stop=False)
        self._start = 0

    def start_at(self, plies: int) -> None:
        """The game starts after the first `plies` of the board (an opening's
        moves): the GAMEREQ carries that position and they are not sent."""
        self._start = plies

    def _connected(self) -> Connection:
        if self._conn is None:
            raise EngineTerminatedError(f"engine {self.name} is not connected")
        return self._conn

    def play(self, board: Board, limit: Limit, *, grace: float = GRACE) -> PlayResult:
        """The engine's move, awaited the limit's time plus `grace` seconds;
        EngineClaim when it ends the game instead."""
        if board.variant.name != "international":
            raise InvalidInputError(
                f"engine {self.name}: DXP plays international draughts only, not {board.variant.name}"
            )
        conn = self._connected()
        try:
            if not self._open:
                self._request(board, grace)
            for move in board.move_stack[self._sent :]:
                conn.send(move_message(move, 0))
            self._sent = len(board.move_stack)
            t0 = time.perf_counter()
            deadline = t0 + self._available(limit) + grace
            said: list = []
            while True:
                text = conn.recv_text(max(0.0, deadline - time.perf_counter()))
                try:
                    msg = parse(text)
                except DxpError as e:
                    raise EngineProtocolError(f"an unreadable DXP message: {e}", text) from None
                if isinstance(msg, MoveMsg):
                    elapsed = time.perf_counter() - t0
                    move = legal_move(board, msg)
                    if move is None:
                        raise EngineProtocolError(f"illegal move {text}", text)
                    self._sent += 1
                    budget = limit.budget()
                    return PlayResult(move, None, Info(pv=[move]), elapsed, budget is not None and elapsed > budget)
                if isinstance(msg, GameEnd):
                    # the side to move ends the game: a claim the referee decides
                    self._open = False
                    conn.send(GameEnd(GameEnd.UNKNOWN, 0))
                    raise EngineClaim(msg.reason, "; ".join(said), text)
                if isinstance(msg, Chat):
                    said.append(msg.text.strip())
                    print(f"{self.name}: {msg.text}", file=sys.stderr, flush=True)
                elif isinstance(msg, BackReq):
                    conn.send(BackAcc(BackAcc.NOT_SUPPORTED))  # the referee takes nothing back
                elif not isinstance(msg, BackAcc):
                    raise EngineProtocolError(f"a {type(msg).__name__} during a game", text)
        except DxpTimeout as e:
            self.alive = False
            raise EngineTimeoutError(str(e)) from None
        except DxpClosed as e:
            self.alive = False
            raise EngineTerminatedError(str(e)) from None
        except (DxpError, DxpConnectionError) as e:
            self.alive = False
            raise EngineTerminatedError(str(e)) from None

    def running(self) -> bool:
        """The connection (and the program, if we started it) is still there."""
        return (
            self.alive
            and self._conn is not None
            and not self._conn.closed
            and (self._process is None or self._process.poll() is None)
        )

    def close(self) -> None:
        """End the match (GAMEEND) and close the connection, whatever the
        goodbye raises, then stop the program this engine started."""
        conn = self._conn
        try:
            if conn is not None:
                self._end_game(stop=True)
        finally:
            if conn is not None:
                conn.close()
            self.alive = False
            self._stop_process()

    # --- helpers -------------------------------------------------------------------------
    def _available(self, limit: Limit) -> float:
        if limit.movetime is not None:
            return float(limit.movetime)
        if limit.time is not None:
            return float(limit.time) + float(limit.inc or 0.0)
        return self.timeout

    def _request(self, board: Board, grace: float) -> None:
        start = board.copy()  # the game from the opening's end, its moves to follow
        while len(start.move_stack) > self._start:
            start.pop()
        request = GameReq(
            "draughts match",
            colour_letter(board.turn),
            min(999, self.minutes),
            min(999, self.moves),
            position_of(start),
        )
        conn = self._connected()
        conn.send(request)
        end = time.monotonic() + ANSWER_TIMEOUT + grace
        while True:
            msg = conn.recv(max(0.01, end - time.monotonic()))
            if isinstance(msg, Chat):
                print(f"{self.name}: {msg.text}", file=sys.stderr, flush=True)
                continue
            if isinstance(msg, (GameEnd, MoveMsg)):
                continue  # left over from the last game
            break
        if not isinstance(msg, GameAcc):
            raise EngineTerminatedError(f"{self.name} answered a GAMEREQ with {format(msg)!r}")
        if msg.code != GameAcc.ACCEPT:
            why = {1: "wrong version", 2: "not this game", 3: "no games"}.get(msg.code, f"code {msg.code}")
            raise EngineTerminatedError(f"{self.name} refused the game ({why})")
        self._open = True
        self._sent = len(start.move_stack)

    def _end_game(self, stop: bool) -> None:
        """Close the game going on (GAMEEND 0) or, with `stop`, the match."""
        conn = self._conn
        if conn is None or conn.closed or not (self._open or stop):
            self._open = False
            return
        try:
            conn.send(GameEnd(GameEnd.UNKNOWN, 1 if stop else 0))
            end = time.monotonic() + ANSWER_TIMEOUT
            while True:
                msg = conn.recv(max(0.01, end - time.monotonic()))
                if isinstance(msg, GameEnd):
                    break
        except (DxpError, DxpConnectionError):
            pass
        self._open = False

    def _stop_process(self) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        try:
            process.wait(3.0)
        except subprocess.TimeoutExpired:
            process.terminate()
            try:
                process.wait(3.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

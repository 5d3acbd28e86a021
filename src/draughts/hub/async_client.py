"""The asyncio core of the Hub client: `AsyncHubEngine` drives one engine
over a `Transport`; `AsyncAnalysis` is a running `go analyze`.

Both dialects of the Hub protocol have a client, this one and
`draughts.hub.hub1.AsyncHub1Engine`, siblings over `AsyncHubClient` (as
python-chess's `UciProtocol` and `XBoardProtocol` are over its `Protocol`):
the base holds what they share (the transport, reading lines with timeouts,
the errors, `ping`, `stop`, `quit`, the bookkeeping of a move in progress),
each dialect its handshake, settings, positions, searches and line syntax.

Every read has a timeout.  An engine whose output ends (it crashed or quit)
raises `EngineTerminatedError` with its exit code and the tail of its stderr;
one that says nothing in time raises `EngineTimeoutError` (and one that kept
talking but sent no move, `EngineOvertimeError`).  A move that arrives after
the limit's time is returned with `late=True` and the time it took, so that a
match runner can score a loss on time.  A move that is not legal, or not Hub
move text, raises `EngineProtocolError` carrying the engine's exact line; an
`error` answer raises `EngineCommandError`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union

from draughts.board import Board, Move
from draughts.engine_api import Info, PlayResult
from draughts.errors import (
    EngineCommandError,
    EngineError,
    EngineNoMoveError,
    EngineOvertimeError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    HubError,
    InvalidInputError,
)
from draughts.hub.protocol import (
    engine_variant_name,
    Param,
    format_line,
    format_position,
    format_value,
    match_move,
    parse_bool,
    parse_info,
    parse_line,
    root_board,
)
from draughts.hub.transport import SubprocessTransport, Transport
from draughts.limits import Limit
from draughts.variants import variant as get_variant

__all__ = ["AsyncHubClient", "AsyncHubEngine", "AsyncAnalysis", "QUIT_TIMEOUT"]

LOG = logging.getLogger("draughts.hub")
LOG.addHandler(logging.NullHandler())  # a library logs only where its user asks
QUIT_TIMEOUT = 2.0


_EOF = object()
C = TypeVar("C", bound="AsyncHubClient")


def read_done(board: Board, args: Mapping[str, str], line: str, what: str) -> Tuple[Move, Optional[Move]]:
    """(move, ponder move or None) of a `done` line in `board`'s position;
    EngineNoMoveError without a move, EngineProtocolError for one that is not
    legal (an illegal ponder move is ignored)."""
    text = args.get("move", "")
    if not text:
        raise EngineNoMoveError(f"the engine answered `done` without a move: {line!r}", line)
    try:
        move = match_move(board, text)
    except InvalidInputError as e:
        raise EngineProtocolError(
            f"{what} {text!r}, which is not a legal move: {e} (its line: {line!r})", line
        ) from None
    ponder = None
    if args.get("ponder"):
        after = board.copy(stack=False)
        after.push(move)
        try:
            ponder = match_move(after, args["ponder"])
        except InvalidInputError:
            LOG.info("engine's ponder move %r is not legal; ignored", args["ponder"])
    return move, ponder


class AsyncHubClient:
    """What the clients of both Hub dialects share (see the module's text):
    the transport and its lines, the timeouts and errors, `ping`, `stop`,
    `quit` and `close`.  A dialect's client (`AsyncHubEngine` for version 2,
    `draughts.hub.hub1.AsyncHub1Engine` for version 1) reads its own line
    syntax (`_next`), and has its own handshake (`start`), settings
    (`configure`), `new_game`, `play`, `analyse` and `analysis`.  Create one
    with `await Client.popen(...)`, or `Client(transport)` then `await
    start()` (inside the event loop)."""

    def __init__(self, transport: Transport, *, timeout: float = 10.0, time_margin: float = 0.05):
        self.transport = transport
        #: seconds to wait for an answer (beyond any time the limit grants)
        self.timeout = timeout
        #: seconds a move may come after its limit before it counts as late
        self.time_margin = time_margin
        self.id: Dict[str, str] = {}
        self._queue: asyncio.Queue = asyncio.Queue()
        self._eof = False
        self._busy: Optional[str] = None
        # a move in progress: whether its `go` is out, and whether stop() was
        # called before it was (the stop then follows the `go` at once)
        self._go_sent = False
        self._stop_asked = False
        transport.attach(self._queue.put_nowait, lambda: self._queue.put_nowait(_EOF))

    @classmethod
    async def popen(
        cls: Type[C],
        command: Union[str, Sequence[str]],
        *,
        cwd=None,
        env=None,
        params: Optional[Mapping[str, Any]] = None,
        startup_timeout: float = 10.0,
        timeout: float = 10.0,
        time_margin: float = 0.05,
        stderr_path: Optional[str] = None,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> C:
        """Start an engine program (a list of arguments, or a string split like a
        shell would) and complete the handshake (`start`) within
        `startup_timeout` seconds.  `defaults` are parameters set only if the
        engine declares them and `params` does not set them (the match
        runner's `threads`; a dialect without declared parameters sends none)."""
        transport = await SubprocessTransport.start(command, cwd=cwd, env=env, stderr_path=stderr_path)
        return await cls.over(
            transport,
            params=params,
            startup_timeout=startup_timeout,
            timeout=timeout,
            time_margin=time_margin,
            defaults=defaults,
        )

    @classmethod
    async def over(
        cls: Type[C],
        transport: "Transport",
        *,
        params: Optional[Mapping[str, Any]] = None,
        startup_timeout: float = 10.0,
        timeout: float = 10.0,
        time_margin: float = 0.05,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> C:
        """A client over a started transport, handshake done (closed again if it fails)."""
        engine = cls(transport, timeout=timeout, time_margin=time_margin)
        try:
            await engine.start(params=params, timeout=startup_timeout, defaults=defaults)
        except BaseException:
            await engine.close()
            raise
        return engine

    @property
    def stderr(self) -> List[str]:
        """The engine's stderr lines so far (the last few thousand)."""
        return list(self.transport.stderr)

    @property
    def returncode(self) -> Optional[int]:
        return self.transport.returncode

    @property
    def name(self) -> str:
        return self.id.get("name", "")

    @property
    def busy(self) -> Optional[str]:
        """What the engine is doing: None, "play" (a move) or "an analysis"."""
        return self._busy

    # --- what each dialect does its own way ---------------------------------------------
    async def start(
        self,
        *,
        params: Optional[Mapping[str, Any]] = None,
        timeout: float = 10.0,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> None:
        """The handshake, `params` sent before the engine's `init`."""
        raise NotImplementedError

    async def configure(self, params: Mapping[str, Any]) -> None:
        """Set settings by name."""
        raise NotImplementedError

    async def new_game(self, timeout: Optional[float] = None) -> None:
        """The next search is unrelated to the last."""
        raise NotImplementedError

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> PlayResult:
        """The engine's move in the board's position."""
        raise NotImplementedError

    async def analyse(
        self, board: Board, limit: Limit, multipv: int = 1, *, timeout: Optional[float] = None
    ) -> List[Info]:
        """The `multipv` best lines, best first."""
        raise NotImplementedError

    async def analysis(
        self, board: Board, limit: Optional[Limit] = None, *, timeout: Optional[float] = None, multipv: int = 1
    ) -> "AsyncAnalysis":
        """A running analysis."""
        raise NotImplementedError

    async def _next(self, timeout: Optional[float], doing: str) -> Optional[Tuple[str, Any, str]]:
        """(command, arguments, line) of the next readable engine line, or None
        after `timeout` seconds (None: no limit)."""
        raise NotImplementedError

    def _error_text(self, line: str) -> str:
        """What an `error` line says."""
        return line.strip()

    # --- reading and writing ---------------------------------------------------
    def _send(self, line: str) -> None:
        try:
            self.transport.send(line)
        except (BrokenPipeError, ConnectionError, OSError):
            raise self._terminated(f"sending {line.split()[0] if line.split() else line!r}") from None

    def _terminated(self, doing: str) -> EngineTerminatedError:
        rc = self.transport.returncode
        text = "the engine ended" + (f" with exit code {rc}" if rc is not None else "")
        return EngineTerminatedError(f"{text} while {doing}", rc, list(self.transport.stderr)[-20:])

    async def _eof_error(self, doing: str) -> EngineTerminatedError:
        self._eof = True
        await self.transport.wait(1.0)
        return self._terminated(doing)

    async def _next_line(self, timeout: Optional[float], doing: str) -> Optional[str]:
        """The next line the engine wrote, or None after `timeout` seconds
        (None: no limit); EngineTerminatedError once its output has ended."""
        if self._eof:
            raise self._terminated(doing)
        if timeout is None:
            item = await self._queue.get()
        else:
            try:
                item = await asyncio.wait_for(self._queue.get(), max(0.0, timeout))
            except asyncio.TimeoutError:
                return None
        if item is _EOF:
            raise await self._eof_error(doing)
        return item

    async def _read(self, doing: str, *, timeout: Optional[float] = None, deadline: Optional[float] = None):
        """The next engine line within `timeout` seconds (or by the loop time
        `deadline`); raises EngineTimeoutError or EngineTerminatedError."""
        if deadline is not None:
            wait = deadline - asyncio.get_running_loop().time()
            if timeout is not None:
                wait = min(wait, timeout)
        else:
            wait = self.timeout if timeout is None else timeout
        got = await self._next(wait, doing)
        if got is None:
            raise EngineTimeoutError(
                f"the engine said nothing for {max(wait, 0.0):.2f} s while {doing}", max(wait, 0.0), doing
            )
        return got

    def _drain_stale(self) -> None:
        """Drop lines left from an earlier command (an info after a done...)."""
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is _EOF:
                self._eof = True
                return

    def _check_idle(self) -> None:
        if self._busy:
            raise EngineError(f"the engine is busy with {self._busy}")

    async def _sync(self, doing: str, timeout: Optional[float] = None) -> None:
        """`ping` and wait for `pong`; an `error` before it raises EngineCommandError."""
        self._send("ping")
        error = None
        while True:
            command, args, line = await self._read(f"{doing} (waiting for pong)", timeout=timeout)
            if command == "pong":
                break
            if command == "error" and error is None:
                error = line
        if error is not None:
            raise EngineCommandError(f"the engine rejected {doing}: {self._error_text(error)}", error)

    async def ping(self, timeout: Optional[float] = None) -> float:
        """Round-trip seconds of `ping` ... `pong`."""
        self._check_idle()
        self._drain_stale()
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await self._sync("ping", timeout)
        return loop.time() - t0

    def _begin_move(self) -> None:
        self._busy = "play"
        self._go_sent = self._stop_asked = False

    def _end_move(self) -> None:
        self._busy = None
        self._go_sent = self._stop_asked = False

    def _sent_go(self, line: str) -> None:
        """Send a move's `go` line, and at once a `stop` asked for before it."""
        self._send(line)
        self._go_sent = True
        if self._stop_asked:
            self._send("stop")

    async def _resync(self) -> bool:
        """After an unexpected answer: stop, then read up to a pong (errors
        ignored); False when no pong came."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(self.timeout, 2.0)
        try:
            self._send("stop")
            self._send("ping")
        except EngineError:
            return False
        # lines are skipped unparsed, the queued ones without waiting: an
        # engine that flooded may have left very many
        while not self._eof:
            if self._queue.empty():
                try:
                    item = await asyncio.wait_for(self._queue.get(), max(0.0, deadline - loop.time()))
                except asyncio.TimeoutError:
                    return False
            else:
                item = self._queue.get_nowait()
            if item is _EOF:
                self._eof = True
                return False
            if item.strip() == "pong":
                return True
        return False

    async def stop(self) -> None:
        """Ask the move being searched for at once (play then returns it; a
        stop before the move's `go` is sent right after it).  Nothing when the
        engine is idle."""
        if self._busy == "play":
            if not self._go_sent:
                self._stop_asked = True
            elif not self._stop_asked:
                self._stop_asked = True
                try:
                    self._send("stop")
                except EngineError:
                    pass  # it has ended: play reports that

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> Optional[int]:
        """`quit`; an engine that has not exited after `timeout` seconds is
        killed.  Returns the exit code."""
        try:
            self._send("quit")
            await self.transport.drain()
        except (EngineError, ConnectionError, OSError):
            pass
        rc = await self.transport.wait(timeout)
        if rc is None:
            LOG.warning("the engine did not exit %.1f s after quit; killing it", timeout)
            self.transport.kill()
            rc = await self.transport.wait(5.0)
        await self.transport.aclose()
        return rc

    async def close(self) -> None:
        """Kill the engine at once."""
        self.transport.kill()
        await self.transport.aclose()


class AsyncHubEngine(AsyncHubClient):
    """The asyncio client of one Hub (version 2) engine; create it with `await
    AsyncHubEngine.popen(...)` or `AsyncHubEngine(transport)` then `await
    start()` (inside the event loop).  `params` holds the parameters the
    engine declared, with the values sent."""

    def __init__(self, transport: Transport, *, timeout: float = 10.0, time_margin: float = 0.05):
        super().__init__(transport, timeout=timeout, time_margin=time_margin)
        self.params: Dict[str, Param] = {}
        self._analysis: Optional[AsyncAnalysis] = None

    # --- reading ----------------------------------------------------------------------
    def _error_text(self, line: str) -> str:
        return parse_line(line)[1].get("message", line)

    async def _next(self, timeout: Optional[float], doing: str):
        """(command, args, line) of the next readable engine line, or None after
        `timeout` seconds (None: no limit)."""
        while True:
            item = await self._next_line(timeout, doing)
            if item is None:
                return None
            try:
                command, args = parse_line(item)
            except HubError as e:
                LOG.warning("unreadable engine line %r: %s", item, e)
                continue
            if command:
                return command, args, item

    # --- the handshake ---------------------------------------------------------
    async def start(
        self,
        *,
        params: Optional[Mapping[str, Any]] = None,
        timeout: float = 10.0,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> None:
        """`hub` ... `wait`, then `set-param` for `params` and for those of
        `defaults` that the engine declares and `params` leaves out, then
        `init` ... `ready`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self._send("hub")
        while True:
            command, args, line = await self._read("starting (waiting for wait)", deadline=deadline)
            if command == "id":
                self.id.update(args)
            elif command == "param" and args.get("name"):
                self.params[args["name"]] = Param.from_args(args)
            elif command == "wait":
                break
            elif command == "error":
                raise EngineCommandError(f"the engine rejected hub: {args.get('message', line)}", line)
        pairs = self._param_pairs(params or {})
        given = {name for name, _ in pairs}
        pairs += [
            (name, value) for name, value in (defaults or {}).items() if name in self.params and name not in given
        ]
        for name, value in pairs:
            self._send(format_line("set-param", [("name", name), ("value", format_value(value))]))
            self.params[name].value = format_value(value)
        self._send("init")
        while True:
            command, args, line = await self._read("starting (waiting for ready)", deadline=deadline)
            if command == "ready":
                break
            if command == "error":
                raise EngineCommandError(f"the engine failed to start: {args.get('message', line)}", line)

    def _param_pairs(self, params: Mapping[str, Any]) -> List[Tuple[str, Any]]:
        out = []
        for key, value in params.items():
            name = key if key in self.params else key.replace("_", "-")
            if name not in self.params:
                known = ", ".join(self.params) or "none"
                raise EngineError(f"the engine has no parameter {name!r} (it has: {known})")
            out.append((name, value))
        return out

    # --- commands ----------------------------------------------------------------
    async def configure(self, params: Mapping[str, Any]) -> None:
        """Set parameters by name (`tt_size` sets `tt-size`); an undeclared one is
        an EngineError naming it, a value the engine rejects EngineCommandError."""
        self._check_idle()
        pairs = self._param_pairs(params)
        if not pairs:
            return
        self._drain_stale()
        for name, value in pairs:
            self._send(format_line("set-param", [("name", name), ("value", format_value(value))]))
        await self._sync("set-param " + ", ".join(name for name, _ in pairs))
        for name, value in pairs:
            self.params[name].value = format_value(value)

    async def new_game(self, timeout: Optional[float] = None) -> None:
        """The next search is unrelated to the last (`new-game`); returns once
        the engine has answered a `ping` after it, so that whatever it does for
        a new game (clearing a large table) is not charged to the first move."""
        self._check_idle()
        self._drain_stale()
        self._send("new-game")
        await self._sync("new-game", timeout)

    async def _sync_rules(self, board: Board) -> None:
        """Set the engine's `variant` and `mandatory-capture` to the board's."""
        v = board.variant
        wanted: Dict[str, Any] = {}
        p = self.params.get("variant")
        if p is None:
            if v.name != "international":
                raise EngineError(
                    f"the engine declares no variant parameter, so it plays only international draughts, not {v.name}"
                )
        else:
            names = p.values
            choice = engine_variant_name(v, names)
            if choice is None:
                raise EngineError(f"the engine does not play {v.name} (it plays {', '.join(names)})")
            if _variant_name(p.value) != v.name:
                wanted["variant"] = choice
        mc = self.params.get("mandatory-capture")
        if mc is None:
            if not v.mandatory_capture:
                raise EngineError("the engine has no mandatory-capture parameter for the house rule")
        else:
            try:
                current = parse_bool(mc.value)
            except ValueError:
                current = None
            if current != v.mandatory_capture:
                wanted["mandatory-capture"] = v.mandatory_capture
        if wanted:
            await self.configure(wanted)

    def _pos_line(self, board: Board) -> str:
        args: List[Tuple[str, Any]] = [("pos", format_position(root_board(board)))]
        if board.move_stack:
            args.append(("moves", " ".join(m.hub() for m in board.move_stack)))
        return format_line("pos", args)

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> PlayResult:
        """The engine's move in the board's position (sent with its move history).

        A move is awaited for the limit's time plus `timeout` seconds (the
        engine's timeout by default); without a clock in the limit, each line
        is awaited `timeout` seconds.  `on_info` is called (in the event loop)
        with what the search has reported so far at each of its info lines;
        without it the info lines are read once the move is in.  stop() asks
        for the move at once.
        """
        self._check_idle()
        if not board.legal_moves:
            raise ValueError(f"no legal move in {board.fen()}: the game is over")
        level = format_line("level", limit.level_args())
        await self._sync_rules(board)
        self._begin_move()
        try:
            return await self._play(board, limit, level, self.timeout if timeout is None else timeout, on_info)
        finally:
            self._end_move()

    async def _play(
        self, board: Board, limit: Limit, level: str, timeout: float, on_info: Optional[Callable[[Info], None]] = None
    ) -> PlayResult:
        loop = asyncio.get_running_loop()
        self._drain_stale()
        self._send(self._pos_line(board))
        self._send(level)
        t0 = loop.time()
        self._sent_go("go think")
        budget = limit.budget()
        deadline = t0 + budget + timeout if budget is not None else None
        raw_info: Dict[str, str] = {}  # read once the move is in: a flood stays cheap
        doing = "waiting for the move (done)"
        lines = 0
        last_line = t0
        while True:
            try:
                if deadline is not None:
                    command, args, line = await self._read(doing, deadline=deadline)
                else:
                    command, args, line = await self._read(doing, timeout=timeout)
            except EngineTimeoutError as e:
                if lines and loop.time() - last_line < min(1.0, timeout) and await self._resync():
                    raise EngineOvertimeError(
                        f"the engine sent {lines} lines but no move in {loop.time() - t0:.2f} s", e.waited, doing, lines
                    ) from None
                raise
            lines += 1
            last_line = loop.time()
            if command == "info":
                raw_info.update(args)
                if on_info is not None:
                    on_info(parse_info(raw_info, board))
            elif command == "done":
                break
            elif command == "error":
                await self._resync()
                raise EngineCommandError(f"the engine rejected the search: {args.get('message', line)}", line)
        elapsed = loop.time() - t0
        info = parse_info(raw_info, board)
        move, ponder = read_done(board, args, line, "the engine played")
        late = budget is not None and elapsed > budget + self.time_margin
        return PlayResult(move, ponder, info, elapsed, late)

    async def analyse(
        self, board: Board, limit: Limit, multipv: int = 1, *, timeout: Optional[float] = None
    ) -> List[Info]:
        """The `multipv` best lines, best first, of a `go analyze` stopped when
        `limit`'s depth, nodes or movetime is reached.  multipv > 1 needs an
        engine that declares a `multipv` parameter (this project's extension)
        and marks its info lines with `multipv=K`."""
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise ValueError(f"multipv must be a whole number from 1 up, not {multipv!r}")
        if limit is None or (limit.depth is None and limit.nodes is None and limit.movetime is None):
            raise ValueError("analyse needs a limit with depth, nodes or movetime (it is a `go analyze`)")
        p = self.params.get("multipv")
        if p is None and multipv > 1:
            raise EngineError(f"the engine declares no multipv parameter: it reports one line, not multipv={multipv}")
        if p is not None and str(p.value) != str(multipv):
            await self.configure({"multipv": multipv})
        analysis = await self.analysis(board, limit, timeout=timeout, multipv=multipv)
        await analysis.wait()
        return analysis.lines_found()

    async def analysis(
        self, board: Board, limit: Optional[Limit] = None, *, timeout: Optional[float] = None, multipv: int = 1
    ) -> "AsyncAnalysis":
        """Start `go analyze` (an infinite search).  The client sends `stop` itself
        once `limit`'s depth, nodes or movetime is reached (with `multipv`
        lines: once the last line of that depth has come); otherwise call stop()."""
        self._check_idle()
        if not board.legal_moves:
            raise ValueError(f"no legal move in {board.fen()}: the game is over")
        await self._sync_rules(board)
        self._drain_stale()
        self._send(self._pos_line(board))
        self._send("level infinite")
        self._send("go analyze")
        analysis = AsyncAnalysis(self, board, limit, self.timeout if timeout is None else timeout, multipv)
        self._busy = "an analysis"
        self._analysis = analysis
        analysis._start()
        return analysis

    async def stop(self) -> None:
        """Stop a running analysis (its result then arrives), or ask the move
        being searched for at once (play then returns it; a stop before the
        move's `go` is sent right after it).  Nothing when the engine is idle."""
        if self._analysis is not None:
            self._analysis.stop()
        else:
            await super().stop()

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> Optional[int]:
        """`quit` (a running analysis stopped first); an engine that has not
        exited after `timeout` seconds is killed.  Returns the exit code."""
        if self._analysis is not None:
            self._analysis.stop()
        return await super().quit(timeout)


def _variant_name(text: str) -> str:
    try:
        return get_variant(text).name
    except InvalidInputError:
        return text


class AsyncAnalysis:
    """A running `go analyze`: iterate for `Info`s; `result` once done."""

    def __init__(self, engine: AsyncHubEngine, board: Board, limit: Optional[Limit], timeout: float, multipv: int = 1):
        self.engine = engine
        self.board = board
        self.limit = limit
        self.timeout = timeout
        self.multipv = multipv
        #: the latest Info with a line, by its multipv index
        self.lines: Dict[int, Info] = {}
        self.result: Optional[PlayResult] = None
        self._items: asyncio.Queue = asyncio.Queue()
        self._stopped = False
        self._stop_deadline: Optional[float] = None
        self._error: Optional[BaseException] = None
        self._task: Optional[asyncio.Task] = None
        self._ended = False

    def _start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    def stop(self) -> None:
        if self._stopped or self._ended:
            return
        self._stopped = True
        self._stop_deadline = asyncio.get_running_loop().time() + self.engine.timeout
        try:
            self.engine._send("stop")
        except EngineError:
            pass

    @property
    def info(self) -> Info:
        """The best line's latest Info (an empty one before any)."""
        return self.lines.get(1) or Info()

    def lines_found(self) -> List[Info]:
        """The latest line of every index, best first."""
        return [self.lines[k] for k in sorted(self.lines)][: self.multipv]

    def _reached(self, info: Info) -> bool:
        lim = self.limit
        if lim is None or info.multipv < self.multipv:
            return False  # the other lines of this iteration are still to come
        if lim.depth is not None and info.depth >= lim.depth:
            return True
        if lim.nodes is not None and info.nodes >= lim.nodes:
            return True
        return False

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        engine = self.engine
        t0 = loop.time()
        timer = None
        if self.limit is not None and self.limit.movetime is not None:
            timer = loop.call_later(self.limit.movetime, self.stop)
        try:
            while True:
                if self._stopped:
                    deadline = self._stop_deadline if self._stop_deadline is not None else loop.time()
                    got = await engine._next(max(0.0, deadline - loop.time()), "waiting for done after stop")
                    if got is None:
                        raise EngineTimeoutError(
                            f"the engine did not answer stop within {engine.timeout:.1f} s",
                            engine.timeout,
                            "waiting for done after stop",
                        )
                else:
                    got = await engine._next(0.25, "analysing")
                    if got is None:
                        continue
                command, args, line = got
                if command == "info":
                    info = parse_info(args, self.board)
                    if info.pv or info.multipv not in self.lines:
                        self.lines[info.multipv] = info
                    self._items.put_nowait(info)
                    if self._reached(info):
                        self.stop()
                elif command == "done":
                    move, ponder = read_done(self.board, args, line, "the engine's analysis ended with")
                    self.result = PlayResult(move, ponder, self.info, loop.time() - t0, False)
                    return
                elif command == "error":
                    raise EngineCommandError(f"the engine rejected the analysis: {args.get('message', line)}", line)
        except BaseException as e:
            self._error = e
            if not isinstance(e, Exception):
                raise
        finally:
            if timer is not None:
                timer.cancel()
            self._ended = True
            engine._busy = None
            engine._analysis = None
            self._items.put_nowait(_EOF)

    async def next(self, timeout: Optional[float] = None) -> Optional[Info]:
        """The next Info, or None when the analysis has ended (raises what
        ended it badly)."""
        wait = self.timeout if timeout is None else timeout
        try:
            item = await asyncio.wait_for(self._items.get(), wait)
        except asyncio.TimeoutError:
            raise EngineTimeoutError(f"no analysis from the engine for {wait:.1f} s", wait, "analysing") from None
        if item is _EOF:
            self._items.put_nowait(_EOF)
            if self._error is not None:
                raise self._error
            return None
        return item

    def __aiter__(self):
        return self

    async def __anext__(self):
        item = await self.next()
        if item is None:
            raise StopAsyncIteration
        return item

    async def wait(self) -> PlayResult:
        """The final result (call stop() first for an analysis without a limit)."""
        if self._task is not None:
            await asyncio.shield(self._task)
        if self._error is not None:
            raise self._error
        if self.result is None:
            raise EngineError("the analysis ended without a result")
        return self.result

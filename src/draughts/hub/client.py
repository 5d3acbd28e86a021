"""A client that drives any Hub engine.

    >>> from draughts.hub import HubEngine, Limit
    >>> with HubEngine(["draughts", "hub"]) as engine:
    ...     result = engine.play(draughts.Board(), Limit(movetime=0.5))
    ...     result.move, result.ponder, result.info["score"], result.late

The core is asyncio (`AsyncHubEngine`): a reader task per stream of the
engine process, stderr kept in a log.  `HubEngine` is the synchronous wrapper:
it runs the core on its own event loop in a background thread.

Every read has a timeout.  An engine whose output ends (it crashed or quit)
raises `EngineTerminatedError` with its exit code and the tail of its stderr;
one that says nothing in time raises `EngineTimeoutError`.  A move that
arrives after the limit's time is returned with `late=True` and the time it
took, so that a match runner can score a loss on time.  A move that is not
legal, or not Hub move text, raises `EngineProtocolError` carrying the
engine's exact line; an `error` answer raises `EngineCommandError`.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import shlex
import signal
import threading
from dataclasses import dataclass, field
from typing import (Any, Callable, Deque, Dict, List, Mapping, Optional, Sequence, Tuple, Union)

from draughts._args import is_int, parse_int, parse_real
from draughts.board import Board, Move
from draughts.errors import DraughtsError
from draughts.hub.protocol import (HubError, format_line, format_position, format_value,
                                   match_move, parse_bool, parse_line, root_board)
from draughts.variants import variant as get_variant

__all__ = [
    "EngineError", "EngineTerminatedError", "EngineTimeoutError", "EngineProtocolError",
    "EngineCommandError", "EngineOvertimeError", "EngineNoMoveError", "Limit", "PlayResult", "Param", "Transport", "SubprocessTransport",
    "MemoryTransport", "AsyncHubEngine", "AsyncAnalysis", "HubEngine", "Analysis", "parse_info",
]

LOG = logging.getLogger("draughts.hub")
LOG.addHandler(logging.NullHandler())      # a library logs only where its user asks
STDERR_LINES = 2000
QUIT_TIMEOUT = 2.0


# --- errors ------------------------------------------------------------------

class EngineError(RuntimeError):
    """Base class of the errors of a driven engine."""


class EngineTerminatedError(EngineError):
    """The engine's output ended: it crashed, quit, or could not be started."""

    def __init__(self, message: str, returncode: Optional[int] = None, stderr_tail: Sequence[str] = ()):
        self.returncode = returncode
        self.stderr_tail = list(stderr_tail)
        if self.stderr_tail:
            message += "; its stderr ended with:\n" + "\n".join(self.stderr_tail)
        super().__init__(message)


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine said nothing in time (it stalls)."""

    def __init__(self, message: str, waited: float = 0.0, waiting_for: str = ""):
        super().__init__(message)
        self.waited = waited
        self.waiting_for = waiting_for


class EngineOvertimeError(EngineTimeoutError):
    """The engine kept talking (`lines` lines since `go`) but sent no move by
    the time it was waited for: it is over its time, not silent."""

    def __init__(self, message: str, waited: float = 0.0, waiting_for: str = "", lines: int = 0):
        super().__init__(message, waited, waiting_for)
        self.lines = lines


class EngineProtocolError(EngineError):
    """The engine wrote something wrong: `line` is its exact line."""

    def __init__(self, message: str, line: str = ""):
        super().__init__(message)
        self.line = line


class EngineNoMoveError(EngineProtocolError):
    """The engine answered `done` without a move."""


class EngineCommandError(EngineProtocolError):
    """The engine answered a command with `error message=...`."""


# --- values --------------------------------------------------------------------

def _seconds(x: float) -> str:
    text = f"{float(x):.6f}".rstrip("0").rstrip(".")
    return text or "0"


@dataclass(frozen=True)
class Limit:
    """When the engine must answer.  `time` is the clock before this move's
    increment `inc` (Hub adds the increment before each move), `movetime`
    the time for this move; all in seconds."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None
    time: Optional[float] = None
    inc: Optional[float] = None
    moves_to_go: Optional[int] = None

    def level_args(self) -> List[Tuple[str, Any]]:
        """The arguments of the `level` line."""
        args: List[Tuple[str, Any]] = []
        if self.depth is not None:
            args.append(("depth", int(self.depth)))
        if self.nodes is not None:
            args.append(("nodes", int(self.nodes)))
        if self.movetime is not None:
            args.append(("move-time", _seconds(self.movetime)))
        if self.time is not None:
            if self.moves_to_go:
                args.append(("moves", int(self.moves_to_go)))
            args.append(("time", _seconds(self.time)))
            if self.inc:
                args.append(("inc", _seconds(self.inc)))
        if not args:
            raise ValueError("a Limit needs depth, nodes, movetime or time")
        return args

    def budget(self) -> Optional[float]:
        """Seconds the move may take, or None when the limit is not a clock."""
        if self.time is not None:
            return float(self.time) + float(self.inc or 0.0)
        if self.movetime is not None:
            return float(self.movetime)
        return None


@dataclass
class PlayResult:
    """The engine's move; `late` when it came after the limit's time."""

    move: Move
    ponder: Optional[Move]
    info: Dict[str, Any]
    #: seconds from writing `go` to reading `done`
    elapsed: float = 0.0
    late: bool = False

    @property
    def latency(self) -> Optional[float]:
        """Seconds the move took beyond the engine's own last reported time
        (the pipe both ways, scheduling, this side's reading); None when the
        engine reported no time."""
        t = self.info.get("time")
        if isinstance(t, (int, float)) and not isinstance(t, bool):
            return self.elapsed - float(t)
        return None


@dataclass
class Param:
    """A parameter the engine declared (`param` line)."""

    name: str
    type: str
    value: str
    min: Optional[float] = None
    max: Optional[float] = None
    values: List[str] = field(default_factory=list)

    @classmethod
    def from_args(cls, args: Mapping[str, str]) -> "Param":
        def num(key):
            try:
                text = args[key]
                return parse_int(text) if is_int(text) else parse_real(text)
            except (KeyError, ValueError):
                return None
        return cls(args.get("name", ""), args.get("type", "string"), args.get("value", ""),
                   num("min"), num("max"), args.get("values", "").split())


def parse_info(args: Mapping[str, str], board: Optional[Board] = None) -> Dict[str, Any]:
    """An `info` line's values: numbers as numbers, `pv` as moves of `board`
    (as far as they are legal); unknown values as text.  A score in Scan's
    range for a won position (above 90 men) also gives `win_in` in plies."""
    out: Dict[str, Any] = {}
    for key, value in args.items():
        try:
            if key in ("depth", "nodes"):
                out[key] = parse_int(value)
            elif key in ("mean-depth", "score", "time", "nps"):
                out[key] = parse_real(value)
            elif key == "pv" and board is not None:
                out[key] = _pv_moves(board, value)
            else:
                out[key] = value
        except ValueError:
            out[key] = value
    score = out.get("score")
    if isinstance(score, float) and 90.0 < abs(score) <= 100.0:
        plies = round((100.0 - abs(score)) * 100)
        out["win_in"] = plies if score > 0 else -plies
    return out


def _pv_moves(board: Board, text: str) -> List[Move]:
    moves = []
    b = board.copy(stack=False)
    for word in text.split():
        try:
            m = match_move(b, word)
        except DraughtsError:
            break
        moves.append(m)
        b.push(m)
    return moves


# --- transports ------------------------------------------------------------------

class Transport:
    """Carries lines between the client and an engine."""

    def __init__(self):
        self.stderr: Deque[str] = collections.deque(maxlen=STDERR_LINES)
        self._on_line: Optional[Callable[[str], None]] = None
        self._on_eof: Optional[Callable[[], None]] = None

    def attach(self, on_line: Callable[[str], None], on_eof: Callable[[], None]) -> None:
        """Start delivering engine lines (called on the event loop)."""
        self._on_line = on_line
        self._on_eof = on_eof

    def send(self, line: str) -> None:
        raise NotImplementedError

    async def drain(self) -> None:
        pass

    @property
    def returncode(self) -> Optional[int]:
        raise NotImplementedError

    async def wait(self, timeout: float) -> Optional[int]:
        """The exit code once the engine has ended, or None after `timeout`."""
        raise NotImplementedError

    def kill(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release the transport (the engine has ended or been killed)."""


class SubprocessTransport(Transport):
    """An engine process: stdin, stdout, and stderr kept in `stderr` (and
    appended to `stderr_path` when given)."""

    def __init__(self, process: asyncio.subprocess.Process, stderr_path: Optional[str] = None):
        super().__init__()
        self.process = process
        self._stderr_file = open(stderr_path, "a", encoding="utf-8") if stderr_path else None
        self._tasks: List[asyncio.Task] = []

    @classmethod
    async def start(cls, command: Union[str, Sequence[str]], *, cwd=None, env=None,
                    stderr_path: Optional[str] = None) -> "SubprocessTransport":
        argv = shlex.split(command) if isinstance(command, str) else [os.fspath(a) for a in command]
        if not argv:
            raise EngineTerminatedError("no engine command given")
        try:
            process = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE, cwd=cwd, env=env, limit=1 << 20,
                start_new_session=True)
        except OSError as e:
            raise EngineTerminatedError(f"cannot start engine {argv!r}: {e}") from e
        return cls(process, stderr_path)

    def attach(self, on_line, on_eof) -> None:
        super().attach(on_line, on_eof)
        self._tasks = [asyncio.ensure_future(self._read_stdout()),
                       asyncio.ensure_future(self._read_stderr())]

    async def _lines(self, stream):
        while True:
            try:
                raw = await stream.readline()
            except ValueError:                  # a line over the limit: dropped
                LOG.warning("engine wrote a line over %d bytes; dropped", 1 << 20)
                continue
            except (ConnectionError, OSError):
                return
            if not raw:
                return
            yield raw.decode("utf-8", "replace").rstrip("\r\n")

    async def _read_stdout(self):
        try:
            async for line in self._lines(self.process.stdout):
                LOG.debug("engine >> %s", line)
                self._on_line(line)
        finally:
            self._on_eof()

    async def _read_stderr(self):
        async for line in self._lines(self.process.stderr):
            self.stderr.append(line)
            if self._stderr_file is not None:
                self._stderr_file.write(line + "\n")
                self._stderr_file.flush()

    def send(self, line: str) -> None:
        stdin = self.process.stdin
        if stdin is None or stdin.is_closing():
            raise BrokenPipeError("the engine's input is closed")
        LOG.debug("engine << %s", line)
        stdin.write((line + "\n").encode("utf-8"))

    async def drain(self) -> None:
        await self.process.stdin.drain()

    @property
    def returncode(self) -> Optional[int]:
        return self.process.returncode

    async def wait(self, timeout: float) -> Optional[int]:
        try:
            return await asyncio.wait_for(self.process.wait(), max(0.0, timeout))
        except asyncio.TimeoutError:
            return None

    def kill(self) -> None:
        if self.process.returncode is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)     # its own session: children too
        except (ProcessLookupError, PermissionError, AttributeError):
            try:
                self.process.kill()
            except ProcessLookupError:
                pass

    async def aclose(self) -> None:
        if self.process.stdin is not None and not self.process.stdin.is_closing():
            self.process.stdin.close()
        if self.process.returncode is None:
            self.kill()
        await self.wait(5.0)
        if self._tasks:
            done, pending = await asyncio.wait(self._tasks, timeout=2.0)
            for t in pending:
                t.cancel()
        if self._stderr_file is not None:
            self._stderr_file.close()
            self._stderr_file = None


class MemoryTransport(Transport):
    """An engine inside this process (tests, embedding): `handler(line)` gets
    every line the client sends; the engine answers with `emit(line)` from any
    thread and ends its output with `close(returncode)`."""

    def __init__(self, handler: Optional[Callable[[str], None]] = None):
        super().__init__()
        self.handler = handler
        self.sent: List[str] = []
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._pending: List[Any] = []
        self._returncode: Optional[int] = None
        self._closed = False
        self._lock = threading.Lock()

    def attach(self, on_line, on_eof) -> None:
        super().attach(on_line, on_eof)
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._ended = asyncio.Event()
            pending, self._pending = self._pending, []
        for item in pending:
            self._deliver(item)

    def _deliver(self, item) -> None:
        with self._lock:
            if self._loop is None:
                self._pending.append(item)
                return
            loop = self._loop
        if item is None:
            loop.call_soon_threadsafe(self._end)
        else:
            loop.call_soon_threadsafe(self._on_line, item)

    def _end(self) -> None:
        self._ended.set()
        self._on_eof()

    def emit(self, line: str) -> None:
        """The engine writes a line."""
        if not self._closed:
            self._deliver(line)

    def close(self, returncode: int = 0) -> None:
        """The engine's output ends; it exits with `returncode`."""
        if self._closed:
            return
        self._closed = True
        self._returncode = returncode
        self._deliver(None)

    def send(self, line: str) -> None:
        if self._closed:
            raise BrokenPipeError("the engine has ended")
        self.sent.append(line)
        if self.handler is not None:
            try:
                self.handler(line)
            except Exception as e:              # the in-process engine crashed
                self.stderr.append(f"{type(e).__name__}: {e}")
                self.close(1)

    @property
    def returncode(self) -> Optional[int]:
        return self._returncode if self._closed else None

    async def wait(self, timeout: float) -> Optional[int]:
        if not self._closed:
            try:
                await asyncio.wait_for(self._ended.wait(), max(0.0, timeout))
            except asyncio.TimeoutError:
                return None
        return self._returncode

    def kill(self) -> None:
        self.close(-9)


# --- the asyncio core ------------------------------------------------------------

_EOF = object()


class AsyncHubEngine:
    """The asyncio client of one Hub engine; create it with `await AsyncHubEngine.popen(...)`
    or `AsyncHubEngine(transport)` then `await start()` (inside the event loop)."""

    def __init__(self, transport: Transport, *, timeout: float = 10.0, time_margin: float = 0.05):
        self.transport = transport
        #: seconds to wait for an answer (beyond any time the limit grants)
        self.timeout = timeout
        #: seconds a move may come after its limit before it counts as late
        self.time_margin = time_margin
        self.id: Dict[str, str] = {}
        self.params: Dict[str, Param] = {}
        self._queue: asyncio.Queue = asyncio.Queue()
        self._eof = False
        self._busy: Optional[str] = None
        self._analysis: Optional[AsyncAnalysis] = None
        transport.attach(self._queue.put_nowait, lambda: self._queue.put_nowait(_EOF))

    @classmethod
    async def popen(cls, command: Union[str, Sequence[str]], *, cwd=None, env=None,
                    params: Optional[Mapping[str, Any]] = None, startup_timeout: float = 10.0,
                    timeout: float = 10.0, time_margin: float = 0.05,
                    stderr_path: Optional[str] = None) -> "AsyncHubEngine":
        """Start an engine program (a list of arguments, or a string split like a
        shell would) and complete the handshake (`hub` ... `wait`, the `params`,
        `init` ... `ready`) within `startup_timeout` seconds."""
        transport = await SubprocessTransport.start(command, cwd=cwd, env=env, stderr_path=stderr_path)
        return await cls.over(transport, params=params, startup_timeout=startup_timeout,
                              timeout=timeout, time_margin=time_margin)

    @classmethod
    async def over(cls, transport: "Transport", *, params: Optional[Mapping[str, Any]] = None,
                   startup_timeout: float = 10.0, timeout: float = 10.0,
                   time_margin: float = 0.05) -> "AsyncHubEngine":
        """A client over a started transport, handshake done (closed again if it fails)."""
        engine = cls(transport, timeout=timeout, time_margin=time_margin)
        try:
            await engine.start(params=params, timeout=startup_timeout)
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

    async def _next(self, timeout: Optional[float], doing: str):
        """(command, args, line) of the next readable engine line, or None after
        `timeout` seconds (None: no limit)."""
        while True:
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
            try:
                command, args = parse_line(item)
            except HubError as e:
                LOG.warning("unreadable engine line %r: %s", item, e)
                continue
            if command:
                return command, args, item

    async def _read(self, doing: str, *, timeout: Optional[float] = None,
                    deadline: Optional[float] = None):
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
            raise EngineTimeoutError(f"the engine said nothing for {max(wait, 0.0):.2f} s while {doing}",
                                     max(wait, 0.0), doing)
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
            raise EngineCommandError(f"the engine rejected {doing}: {parse_line(error)[1].get('message', error)}",
                                     error)

    # --- the handshake ---------------------------------------------------------
    async def start(self, *, params: Optional[Mapping[str, Any]] = None, timeout: float = 10.0) -> None:
        """`hub` ... `wait`, then `set-param` for `params`, then `init` ... `ready`."""
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
        for name, value in self._param_pairs(params or {}):
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
    async def configure(self, **params: Any) -> None:
        """Set parameters (`tt_size=32` sets `tt-size`); raises EngineCommandError
        when the engine rejects a value."""
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

    async def ping(self, timeout: Optional[float] = None) -> float:
        """Round-trip seconds of `ping` ... `pong`."""
        self._check_idle()
        self._drain_stale()
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        await self._sync("ping", timeout)
        return loop.time() - t0

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
                raise EngineError(f"the engine declares no variant parameter, so it plays only "
                                  f"international draughts, not {v.name}")
        else:
            names = p.values
            if not names or v.name in names:
                choice = v.name
            elif v.name == "international" and "normal" in names:
                choice = "normal"
            else:
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
            await self.configure(**wanted)

    def _pos_line(self, board: Board) -> str:
        args: List[Tuple[str, Any]] = [("pos", format_position(root_board(board)))]
        if board.move_stack:
            args.append(("moves", " ".join(m.hub() for m in board.move_stack)))
        return format_line("pos", args)

    async def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The engine's move in the board's position (sent with its move history).

        A move is awaited for the limit's time plus `timeout` seconds (the
        engine's timeout by default); without a clock in the limit, each line
        is awaited `timeout` seconds.
        """
        self._check_idle()
        if not board.legal_moves:
            raise ValueError(f"no legal move in {board.fen()}: the game is over")
        level = format_line("level", limit.level_args())
        await self._sync_rules(board)
        self._busy = "play"
        try:
            return await self._play(board, limit, level, self.timeout if timeout is None else timeout)
        finally:
            self._busy = None

    async def _play(self, board: Board, limit: Limit, level: str, timeout: float) -> PlayResult:
        loop = asyncio.get_running_loop()
        self._drain_stale()
        self._send(self._pos_line(board))
        self._send(level)
        t0 = loop.time()
        self._send("go think")
        budget = limit.budget()
        deadline = t0 + budget + timeout if budget is not None else None
        raw_info: Dict[str, str] = {}        # read once the move is in: a flood stays cheap
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
                        f"the engine sent {lines} lines but no move in {loop.time() - t0:.2f} s",
                        e.waited, doing, lines) from None
                raise
            lines += 1
            last_line = loop.time()
            if command == "info":
                raw_info.update(args)
            elif command == "done":
                break
            elif command == "error":
                await self._resync()
                raise EngineCommandError(f"the engine rejected the search: {args.get('message', line)}", line)
        elapsed = loop.time() - t0
        info = parse_info(raw_info, board)
        text = args.get("move", "")
        if not text:
            raise EngineNoMoveError(f"the engine answered `done` without a move: {line!r}", line)
        try:
            move = match_move(board, text)
        except DraughtsError as e:
            raise EngineProtocolError(f"the engine played {text!r}, which is not a legal move: {e} "
                                      f"(its line: {line!r})", line) from None
        ponder = None
        if args.get("ponder"):
            after = board.copy(stack=False)
            after.push(move)
            try:
                ponder = match_move(after, args["ponder"])
            except DraughtsError:
                LOG.info("engine's ponder move %r is not legal; ignored", args["ponder"])
        late = budget is not None and elapsed > budget + self.time_margin
        return PlayResult(move, ponder, info, elapsed, late)

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

    async def analysis(self, board: Board, limit: Optional[Limit] = None, *,
                       timeout: Optional[float] = None) -> "AsyncAnalysis":
        """Start `go analyze` (an infinite search).  The client sends `stop` itself
        once `limit`'s depth, nodes or movetime is reached; otherwise call stop()."""
        self._check_idle()
        if not board.legal_moves:
            raise ValueError(f"no legal move in {board.fen()}: the game is over")
        await self._sync_rules(board)
        self._drain_stale()
        self._send(self._pos_line(board))
        self._send("level infinite")
        self._send("go analyze")
        analysis = AsyncAnalysis(self, board, limit, self.timeout if timeout is None else timeout)
        self._busy = "an analysis"
        self._analysis = analysis
        analysis._start()
        return analysis

    async def stop(self) -> None:
        """Stop a running analysis (its result then arrives)."""
        if self._analysis is not None:
            self._analysis.stop()

    async def quit(self, timeout: float = QUIT_TIMEOUT) -> Optional[int]:
        """`quit`; an engine that has not exited after `timeout` seconds is
        killed.  Returns the exit code."""
        if self._analysis is not None:
            self._analysis.stop()
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


def _variant_name(text: str) -> str:
    try:
        return get_variant(text).name
    except DraughtsError:
        return text


class AsyncAnalysis:
    """A running `go analyze`: iterate for info dicts; `result` once done."""

    def __init__(self, engine: AsyncHubEngine, board: Board, limit: Optional[Limit], timeout: float):
        self.engine = engine
        self.board = board
        self.limit = limit
        self.timeout = timeout
        #: every info line's values merged (the latest win)
        self.info: Dict[str, Any] = {}
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

    def _reached(self, info: Dict[str, Any]) -> bool:
        lim = self.limit
        if lim is None:
            return False
        if lim.depth is not None and isinstance(info.get("depth"), int) and info["depth"] >= lim.depth:
            return True
        if lim.nodes is not None and isinstance(info.get("nodes"), int) and info["nodes"] >= lim.nodes:
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
                    got = await engine._next(max(0.0, self._stop_deadline - loop.time()), "waiting for done after stop")
                    if got is None:
                        raise EngineTimeoutError(f"the engine did not answer stop within {engine.timeout:.1f} s",
                                                 engine.timeout, "waiting for done after stop")
                else:
                    got = await engine._next(0.25, "analysing")
                    if got is None:
                        continue
                command, args, line = got
                if command == "info":
                    info = parse_info(args, self.board)
                    self.info.update(info)
                    self._items.put_nowait(info)
                    if self._reached(info):
                        self.stop()
                elif command == "done":
                    text = args.get("move", "")
                    try:
                        move = match_move(self.board, text)
                    except DraughtsError as e:
                        raise EngineProtocolError(f"the engine's analysis ended with {text!r}, which is not "
                                                  f"a legal move: {e} (its line: {line!r})", line) from None
                    ponder = None
                    if args.get("ponder"):
                        after = self.board.copy(stack=False)
                        after.push(move)
                        try:
                            ponder = match_move(after, args["ponder"])
                        except DraughtsError:
                            pass
                    self.result = PlayResult(move, ponder, dict(self.info), loop.time() - t0, False)
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

    async def next(self, timeout: Optional[float] = None) -> Optional[Dict[str, Any]]:
        """The next info dict, or None when the analysis has ended (raises what
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
        await asyncio.shield(self._task)
        if self._error is not None:
            raise self._error
        return self.result


# --- the synchronous wrapper ------------------------------------------------------

class _LoopThread:
    """An event loop running in a daemon thread."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.closed = False
        self._thread = threading.Thread(target=self._main, name="hub-client", daemon=True)
        self._thread.start()

    def _main(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coro):
        if self.closed:
            coro.close()
            raise EngineError("the engine has been closed")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def close(self):
        if self.closed:
            return
        self.closed = True

        async def cancel_all():
            me = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not me]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(cancel_all(), self.loop).result(5.0)
        except Exception:
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5.0)
        if not self._thread.is_alive():
            self.loop.close()


class HubEngine:
    """A Hub engine driven synchronously; use it as a context manager.

        with HubEngine(["scan", "hub"], cwd="/opt/scan") as engine:
            engine.configure(variant="normal")
            result = engine.play(board, Limit(time=60, inc=1))

    `command` is a list of arguments (or a string split like a shell would),
    `cwd` and `env` as for subprocess (`env` is the whole environment).  The
    handshake must end within `startup_timeout` seconds; `timeout` is how long
    any other answer is awaited (beyond the time a limit grants); a move more
    than `time_margin` seconds after its limit is `late`.  The engine's stderr
    is kept in `stderr` (and appended to `stderr_path`).
    """

    def __init__(self, command: Union[str, Sequence[str]], *, cwd=None, env=None,
                 params: Optional[Mapping[str, Any]] = None, startup_timeout: float = 10.0,
                 timeout: float = 10.0, time_margin: float = 0.05, stderr_path: Optional[str] = None):
        self._thread = _LoopThread()
        try:
            self._engine: AsyncHubEngine = self._thread.run(AsyncHubEngine.popen(
                command, cwd=cwd, env=env, params=params, startup_timeout=startup_timeout,
                timeout=timeout, time_margin=time_margin, stderr_path=stderr_path))
        except BaseException:
            self._thread.close()
            raise

    @classmethod
    def from_transport(cls, transport: Transport, *, params: Optional[Mapping[str, Any]] = None,
                       startup_timeout: float = 10.0, timeout: float = 10.0,
                       time_margin: float = 0.05) -> "HubEngine":
        """A client over any transport (MemoryTransport for an in-process engine)."""
        self = cls.__new__(cls)
        self._thread = _LoopThread()
        try:
            self._engine = self._thread.run(AsyncHubEngine.over(
                transport, params=params, startup_timeout=startup_timeout, timeout=timeout,
                time_margin=time_margin))
        except BaseException:
            self._thread.close()
            raise
        return self

    # --- state ---------------------------------------------------------------------
    @property
    def id(self) -> Dict[str, str]:
        return self._engine.id

    @property
    def name(self) -> str:
        return self._engine.name

    @property
    def params(self) -> Dict[str, Param]:
        return self._engine.params

    @property
    def stderr(self) -> List[str]:
        return self._engine.stderr

    @property
    def returncode(self) -> Optional[int]:
        return self._engine.returncode

    @property
    def timeout(self) -> float:
        return self._engine.timeout

    @timeout.setter
    def timeout(self, value: float) -> None:
        self._engine.timeout = value

    @property
    def time_margin(self) -> float:
        return self._engine.time_margin

    @time_margin.setter
    def time_margin(self, value: float) -> None:
        self._engine.time_margin = value

    # --- commands ---------------------------------------------------------------------
    def configure(self, **params: Any) -> None:
        self._thread.run(self._engine.configure(**params))

    def ping(self, timeout: Optional[float] = None) -> float:
        return self._thread.run(self._engine.ping(timeout))

    def new_game(self, timeout: Optional[float] = None) -> None:
        self._thread.run(self._engine.new_game(timeout))

    def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        return self._thread.run(self._engine.play(board, limit, timeout=timeout))

    def analyse(self, board: Board, limit: Optional[Limit] = None, *,
                timeout: Optional[float] = None) -> "Analysis":
        """Start an analysis; iterate the returned object for info dicts (each
        awaited at most `timeout` seconds).  With a limit it ends by itself;
        otherwise call stop() (leaving a `with` block stops it too)."""
        a = self._thread.run(self._engine.analysis(board, limit, timeout=timeout))
        return Analysis(self, a)

    analysis = analyse

    def stop(self) -> None:
        """Stop a running analysis."""
        self._thread.run(self._engine.stop())

    def quit(self, timeout: float = QUIT_TIMEOUT) -> Optional[int]:
        """Ask the engine to quit, kill it if it does not within `timeout`; returns its exit code."""
        if self._thread.closed:
            return self._engine.returncode
        try:
            return self._thread.run(self._engine.quit(timeout))
        finally:
            self._thread.close()

    close = quit

    def __enter__(self) -> "HubEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __repr__(self):
        return f"<HubEngine {self.name or '?'} returncode={self.returncode}>"


class Analysis:
    """A running analysis (synchronous): iterate for info dicts."""

    def __init__(self, engine: HubEngine, analysis: AsyncAnalysis):
        self._engine = engine
        self._a = analysis

    @property
    def info(self) -> Dict[str, Any]:
        return self._a.info

    @property
    def result(self) -> Optional[PlayResult]:
        return self._a.result

    def next(self, timeout: Optional[float] = None) -> Optional[Dict[str, Any]]:
        return self._engine._thread.run(self._a.next(timeout))

    def __iter__(self):
        while True:
            item = self.next()
            if item is None:
                return
            yield item

    def stop(self) -> None:
        async def stop():
            self._a.stop()
        self._engine._thread.run(stop())

    def wait(self) -> PlayResult:
        return self._engine._thread.run(self._a.wait())

    def __enter__(self) -> "Analysis":
        return self

    def __exit__(self, exc_type, *rest) -> None:
        self.stop()
        try:
            self.wait()
        except EngineError:
            if exc_type is None:
                raise

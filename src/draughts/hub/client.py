"""A client that drives any Hub engine: `HubEngine`, the synchronous face of
`draughts.hub.async_client.AsyncHubEngine`, which it runs on an event loop of
its own in a background thread.

    >>> from draughts.hub import HubEngine, Limit
    >>> with HubEngine(["draughts", "hub"]) as engine:                # doctest: +SKIP
    ...     result = engine.play(draughts.Board(), Limit(movetime=0.5))
    ...     result.move, result.ponder, result.info.score, result.late
    ...     lines = engine.analyse(draughts.Board(), Limit(depth=8), multipv=3)

`HubEngine` and the version-1 client (`draughts.hub.hub1.Hub1Engine`) are
siblings over `HubClient`, the synchronous face of any asyncio client of
`draughts.hub.async_client.AsyncHubClient`.

`HubEngine` satisfies `draughts.engine_api.EngineProtocol` (its `PlayResult`
and `Info` are those of every engine).  The pieces live in modules of their
own: the errors (`draughts.errors`), the values shared with the server
(`draughts.hub.protocol`: `Param`, `parse_info`; `draughts.limits.Limit`), the transports
(`draughts.hub.transport`) and the asyncio core (`draughts.hub.async_client`);
this module also names the values and the transports.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Type, TypeVar, Union

from draughts.errors import EngineError
from draughts.board import Board
from draughts.hub.async_client import QUIT_TIMEOUT, AsyncAnalysis, AsyncHubClient, AsyncHubEngine
from draughts.engine_api import Info, PlayResult
from draughts.hub.protocol import Param, parse_info
from draughts.hub.transport import MemoryTransport, SubprocessTransport, Transport
from draughts.limits import Limit

__all__ = [
    "Limit",
    "PlayResult",
    "Info",
    "Param",
    "Transport",
    "SubprocessTransport",
    "MemoryTransport",
    "AsyncHubEngine",
    "AsyncAnalysis",
    "HubClient",
    "HubEngine",
    "Analysis",
    "parse_info",
]


S = TypeVar("S", bound="HubClient")


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


class HubClient:
    """A Hub engine of either dialect driven synchronously: the asyncio client
    `_async_class` run on an event loop of its own in a background thread.
    Use `HubEngine` (version 2) or `draughts.hub.hub1.Hub1Engine` (version 1);
    the arguments are theirs (see HubEngine)."""

    #: the asyncio client this one runs (each dialect's own)
    _async_class: Type[AsyncHubClient] = AsyncHubClient
    _engine: AsyncHubClient

    def __init__(
        self,
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
    ):
        self._thread = _LoopThread()
        try:
            self._engine = self._thread.run(
                self._async_class.popen(
                    command,
                    cwd=cwd,
                    env=env,
                    params=params,
                    startup_timeout=startup_timeout,
                    timeout=timeout,
                    time_margin=time_margin,
                    stderr_path=stderr_path,
                    defaults=defaults,
                )
            )
        except BaseException:
            self._thread.close()
            raise

    @classmethod
    def from_transport(
        cls: Type[S],
        transport: Transport,
        *,
        params: Optional[Mapping[str, Any]] = None,
        startup_timeout: float = 10.0,
        timeout: float = 10.0,
        time_margin: float = 0.05,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> S:
        """A client over any transport (MemoryTransport for an in-process engine)."""
        self = cls.__new__(cls)
        self._thread = _LoopThread()
        try:
            self._engine = self._thread.run(
                cls._async_class.over(
                    transport,
                    params=params,
                    startup_timeout=startup_timeout,
                    timeout=timeout,
                    time_margin=time_margin,
                    defaults=defaults,
                )
            )
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
    def stderr(self) -> List[str]:
        return self._engine.stderr

    @property
    def returncode(self) -> Optional[int]:
        return self._engine.returncode

    @property
    def pid(self) -> Optional[int]:
        """The engine's process id (None for an engine without a process)."""
        process = getattr(self._engine.transport, "process", None)
        return getattr(process, "pid", None)

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
    def configure(self, options: Mapping[str, Any]) -> None:
        """Set the engine's parameters by name (`tt_size` sets `tt-size`)."""
        self._thread.run(self._engine.configure(options))

    def ping(self, timeout: Optional[float] = None) -> float:
        return self._thread.run(self._engine.ping(timeout))

    def new_game(self, timeout: Optional[float] = None) -> None:
        self._thread.run(self._engine.new_game(timeout))

    def play(
        self,
        board: Board,
        limit: Limit,
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> PlayResult:
        """The engine's move (see AsyncHubEngine.play).  `on_info` is called,
        from the client's own thread, with what the search has reported so far
        at each info line; stop() from another thread asks for the move now."""
        return self._thread.run(self._engine.play(board, limit, timeout=timeout, on_info=on_info))

    def analyse(self, board: Board, limit: Limit, multipv: int = 1, *, timeout: Optional[float] = None) -> List[Info]:
        """The `multipv` best lines, best first, once `limit`'s depth, nodes
        or movetime is reached (see AsyncHubEngine.analyse)."""
        return self._thread.run(self._engine.analyse(board, limit, multipv, timeout=timeout))

    @property
    def busy(self) -> Optional[str]:
        """What the engine is doing: None, "play" (a move) or "an analysis"."""
        return self._engine.busy

    def stop(self) -> None:
        """Stop a running analysis, or ask the move being searched for at once
        (from another thread than play's); nothing when the engine is idle."""
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

    def __enter__(self: S) -> S:
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __repr__(self):
        return f"<{type(self).__name__} {self.name or '?'} returncode={self.returncode}>"


class HubEngine(HubClient):
    """A Hub engine driven synchronously; use it as a context manager.

        with HubEngine(["scan", "hub"], cwd="/opt/scan") as engine:
            engine.configure({"variant": "normal"})
            result = engine.play(board, Limit(time=60, inc=1))

    `command` is a list of arguments (or a string split like a shell would),
    `cwd` and `env` as for subprocess (`env` is the whole environment).  The
    handshake must end within `startup_timeout` seconds; `timeout` is how long
    any other answer is awaited (beyond the time a limit grants); a move more
    than `time_margin` seconds after its limit is `late`.  The engine's stderr
    is kept in `stderr` (and appended to `stderr_path`).  `defaults` are
    parameters set only when the engine declares them and `params` does not
    set them.
    """

    _async_class = AsyncHubEngine
    _engine: AsyncHubEngine

    @property
    def params(self) -> Dict[str, Param]:
        return self._engine.params

    def analysis(self, board: Board, limit: Optional[Limit] = None, *, timeout: Optional[float] = None) -> "Analysis":
        """Start an analysis; iterate the returned object for `Info`s (each
        awaited at most `timeout` seconds).  With a limit it ends by itself;
        otherwise call stop() (leaving a `with` block stops it too)."""
        a = self._thread.run(self._engine.analysis(board, limit, timeout=timeout))
        return Analysis(self, a)


class Analysis:
    """A running analysis (synchronous): iterate for `Info`s."""

    def __init__(self, engine: HubEngine, analysis: AsyncAnalysis):
        self._engine = engine
        self._a = analysis

    @property
    def info(self) -> Info:
        """The best line's latest Info."""
        return self._a.info

    @property
    def result(self) -> Optional[PlayResult]:
        return self._a.result

    def next(self, timeout: Optional[float] = None) -> Optional[Info]:
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

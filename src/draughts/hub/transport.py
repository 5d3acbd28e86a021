"""How lines travel between a Hub client and its engine: an engine process
(`SubprocessTransport`) or a scripted peer in memory (`MemoryTransport`)."""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import shlex
import signal
import threading
from typing import Any, Callable, Deque, List, Optional, Sequence, Union

from draughts.errors import EngineTerminatedError

__all__ = ["Transport", "SubprocessTransport", "MemoryTransport", "STDERR_LINES"]

LOG = logging.getLogger("draughts.hub")
STDERR_LINES = 2000


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
    async def start(
        cls, command: Union[str, Sequence[str]], *, cwd=None, env=None, stderr_path: Optional[str] = None
    ) -> "SubprocessTransport":
        argv = shlex.split(command) if isinstance(command, str) else [os.fspath(a) for a in command]
        if not argv:
            raise EngineTerminatedError("no engine command given")
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=env,
                limit=1 << 20,
                start_new_session=True,
            )
        except OSError as e:
            raise EngineTerminatedError(f"cannot start engine {argv!r}: {e}") from e
        return cls(process, stderr_path)

    def attach(self, on_line, on_eof) -> None:
        super().attach(on_line, on_eof)
        self._tasks = [asyncio.ensure_future(self._read_stdout()), asyncio.ensure_future(self._read_stderr())]

    async def _lines(self, stream):
        while True:
            try:
                raw = await stream.readline()
            except ValueError:  # a line over the limit: dropped
                LOG.warning("engine wrote a line over %d bytes; dropped", 1 << 20)
                continue
            except (ConnectionError, OSError):
                return
            if not raw:
                return
            yield raw.decode("utf-8", "replace").rstrip("\r\n")

    async def _read_stdout(self):
        on_line, on_eof = self._on_line, self._on_eof
        assert on_line is not None and on_eof is not None, "the reader starts after attach()"
        try:
            async for line in self._lines(self.process.stdout):
                LOG.debug("engine >> %s", line)
                on_line(line)
        finally:
            on_eof()

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
        if self.process.stdin is not None:
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
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: children too
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
        elif self._on_line is not None:
            loop.call_soon_threadsafe(self._on_line, item)

    def _end(self) -> None:
        self._ended.set()
        if self._on_eof is not None:
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
            except Exception as e:  # the in-process engine crashed
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

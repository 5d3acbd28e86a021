"""Transcript helpers for the Hub tests (imported by tests/test_hub_*.py)."""

from __future__ import annotations

import queue
import re
import textwrap
import threading
import time
from typing import List, Optional

from draughts.errors import HubSyntaxError
from draughts.hub.protocol import parse_line
from draughts.hub.server import HubServer

#: every command word the engine may write
ENGINE_WORDS = {"id", "param", "wait", "ready", "info", "done", "pong", "error", "perft", "divide", "bench"}


def matches(pattern: str, line: str) -> bool:
    """`*` in `pattern` stands for any text; everything else is literal."""
    return re.fullmatch(".*".join(re.escape(part) for part in pattern.split("*")), line) is not None


def check_engine_line(line: str) -> None:
    """Fail unless `line` is one protocol line the engine may write."""
    assert "\n" not in line and "\r" not in line, repr(line)
    try:
        command, _ = parse_line(line)
    except HubSyntaxError as e:  # pragma: no cover - a failure
        raise AssertionError(f"unreadable engine line {line!r}: {e}") from None
    assert command in ENGINE_WORDS, f"not a protocol line: {line!r}"


class ServerSession:
    """An in-memory `draughts hub`: lines in through handle_line, lines out through a queue."""

    def __init__(self):
        self.out: "queue.Queue[str]" = queue.Queue()
        self.log: List[str] = []
        self.server = HubServer(self._write, log=self.log.append)
        self.written: List[str] = []
        self._back: List[str] = []
        self._lock = threading.Lock()

    def _write(self, line: str) -> None:
        with self._lock:
            self.written.append(line)
        self.out.put(line)

    def send(self, *lines: str) -> None:
        for line in lines:
            self.server.handle_line(line)

    def read(self, timeout: float = 10.0) -> str:
        if self._back:
            return self._back.pop()
        try:
            line = self.out.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the engine said nothing for {timeout} s") from None
        check_engine_line(line)
        return line

    def unread(self, line: str) -> None:
        self._back.append(line)

    def until(self, command: str, timeout: float = 10.0) -> List[str]:
        """Lines up to and including the first `command` line."""
        out = []
        end = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, end - time.monotonic()))
            out.append(line)
            if parse_line(line)[0] == command:
                return out

    def quiet(self, wait: float = 0.05) -> None:
        """Nothing more is written within `wait` seconds."""
        assert not self._back, self._back
        try:
            line = self.out.get(timeout=wait)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected engine line {line!r}")

    def transcript(self, text: str, *, quiet: bool = True) -> None:
        """Play a transcript: `> line` is sent, `< pattern` must be the next line
        (`*` matches any text), `<* pattern` skips any lines that match; a
        lone `>` sends an empty line."""
        skip: Optional[str] = None
        for raw in textwrap.dedent(text).strip("\n").splitlines():
            if not raw.strip():
                continue
            if raw.rstrip() == ">":
                self.send("")
            elif raw.startswith("> "):
                self.send(raw[2:])
            elif raw.startswith("<* "):
                skip = raw[3:]
            elif raw.startswith("< "):
                want = raw[2:]
                while True:
                    got = self.read()
                    if matches(want, got):
                        break
                    if skip is not None and matches(skip, got):
                        continue
                    raise AssertionError(f"expected {want!r}, the engine wrote {got!r}")
                skip = None
            else:
                raise ValueError(f"bad transcript line {raw!r}")
        if quiet:
            self.quiet()

    def close(self) -> None:
        assert self.server.close(timeout=30.0), "the worker did not end"


class EngineProcess:
    """A real `draughts hub` process (or any command): lines in, checked lines out,
    stderr drained into `stderr`."""

    def __init__(self, command=None, check: bool = True, **popen):
        import subprocess
        import sys

        self.command = command or [sys.executable, "-m", "draughts", "hub"]
        self.check = check
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen
        )
        self.out: "queue.Queue[Optional[str]]" = queue.Queue()
        self.stdout: List[str] = []
        self.stderr: List[str] = []
        self._threads = [
            threading.Thread(target=self._pump_out, daemon=True),
            threading.Thread(target=self._pump_err, daemon=True),
        ]
        for t in self._threads:
            t.start()

    def _pump_out(self):
        for raw in self.proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.stdout.append(line)
            self.out.put(line)
        self.out.put(None)

    def _pump_err(self):
        for raw in self.proc.stderr:
            self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def send(self, *lines) -> None:
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode("utf-8")
            self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 10.0) -> Optional[str]:
        """The next line, or None at the end of output."""
        try:
            line = self.out.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the engine said nothing for {timeout} s; stderr: {self.stderr[-5:]}") from None
        if line is None:
            self.out.put(None)
        elif self.check:
            check_engine_line(line)
        return line

    def until(self, command: str, timeout: float = 10.0) -> List[str]:
        out = []
        end = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, end - time.monotonic()))
            if line is None:
                raise AssertionError(f"the engine ended before {command}; stderr: {self.stderr[-5:]}")
            out.append(line)
            if parse_line(line)[0] == command:
                return out

    def close_input(self) -> None:
        self.proc.stdin.close()

    def wait(self, timeout: float = 10.0) -> int:
        return self.proc.wait(timeout)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass

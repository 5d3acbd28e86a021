"""The errors of a driven Hub engine (`draughts.hub.client`): the engine's
output ended, it said nothing in time, or it said something wrong."""

from __future__ import annotations

from typing import Optional, Sequence

__all__ = [
    "EngineError", "EngineTerminatedError", "EngineTimeoutError", "EngineOvertimeError",
    "EngineProtocolError", "EngineNoMoveError", "EngineCommandError",
]


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

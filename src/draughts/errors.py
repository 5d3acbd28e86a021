"""Every error draughts raises, in one family under `DraughtsError`.

Two branches, so that a caller can tell a mistake in what it passed from a
fault of something it drives:

* `InvalidInputError` (a `ValueError`): bad input -- a FEN, a move, a PDN
  game, a variant, an option value, a protocol line, a file of ours that
  cannot be read.  Fix the input and try again.
* `EngineError` (a `RuntimeError`): an engine or a connection failed -- an
  engine process that died, said nothing in time or broke its protocol, a
  DXP connection that broke, a Ray cluster that was lost.

Two more are interruptions, not errors: `PerftStopped` (a perft count
stopped before it finished) and `EngineClaim` (an engine ended the game
instead of moving).

Each class is defined here once and has one name; `draughts` exports them.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

__all__ = [
    "DraughtsError",
    "InvalidInputError",
    "EngineError",
    "VariantError",
    "FenError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AmbiguousMoveError",
    "PdnError",
    "OptionError",
    "TableMemoryError",
    "HubError",
    "HubSyntaxError",
    "HubPositionError",
    "DxpError",
    "EgdbError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "EngineOvertimeError",
    "EngineProtocolError",
    "EngineNoMoveError",
    "EngineCommandError",
    "DxpConnectionError",
    "DxpClosed",
    "DxpTimeout",
    "DxpIncomplete",
    "ClusterLost",
    "PerftStopped",
    "EngineClaim",
]


class DraughtsError(Exception):
    """The root of every error draughts raises."""


# --- bad input -----------------------------------------------------------------


class InvalidInputError(DraughtsError, ValueError):
    """Input that cannot be used: the message names the input and why."""


class VariantError(InvalidInputError):
    """An unknown variant name or a bad variant option."""


class FenError(InvalidInputError):
    """A FEN that cannot be read; the message names the token and why."""

    def __init__(self, message: str, fen: Optional[str] = None, token: Optional[str] = None) -> None:
        super().__init__(message)
        self.fen = fen
        self.token = token


class InvalidMoveError(InvalidInputError):
    """Move text that is not a move at all (syntax)."""


class IllegalMoveError(InvalidInputError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(InvalidInputError):
    """Move text matching several legal moves; `candidates` lists them."""

    def __init__(self, message: str, candidates: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


class PdnError(InvalidInputError):
    """A PDN game that cannot be read; says which game, line and token."""

    def __init__(
        self,
        message: str,
        game_number: Optional[int] = None,
        line: Optional[int] = None,
        token: Optional[str] = None,
        text: Optional[str] = None,
        game: Any = None,
    ) -> None:
        super().__init__(message)
        self.game_number = game_number
        self.line = line
        self.token = token
        self.text = text
        self.game = game


class OptionError(InvalidInputError):
    """An option value that cannot be read or is out of range; `option` is
    the option's name as the user wrote it (e.g. `--depth`, `tt-size`)."""

    def __init__(self, message: str, option: str = "", text: Optional[str] = None):
        super().__init__(message)
        self.option = option
        self.text = text


class TableMemoryError(InvalidInputError, MemoryError):
    """A table (transposition, perft) of a size that cannot be allocated;
    the old one, if any, stays in use."""


class HubError(InvalidInputError):
    """Text that is not valid Hub protocol."""


class HubSyntaxError(HubError):
    """A line that cannot be read (an unterminated quote, a value with no name...)."""


class HubPositionError(HubError):
    """A position string of the wrong length, side or letters, or an impossible position."""


class DxpError(InvalidInputError):
    """A DXP message that cannot be read (or names an impossible position)."""


class EgdbError(InvalidInputError):
    """An endgame database that is missing, damaged or of other rules."""


# --- engine and connection faults ------------------------------------------------


class EngineError(DraughtsError, RuntimeError):
    """An engine or a connection to one failed."""


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
    """The engine wrote something wrong (a move that is not legal or not
    readable, a message out of place): `line` is its exact line."""

    def __init__(self, message: str, line: str = ""):
        super().__init__(message)
        self.line = line


class EngineNoMoveError(EngineProtocolError):
    """The engine answered `done` without a move."""


class EngineCommandError(EngineProtocolError):
    """The engine answered a command with `error message=...`."""


class DxpConnectionError(EngineError):
    """A DXP connection that could not be made or broke."""


class DxpClosed(DxpConnectionError):
    """The peer closed the connection (or it broke)."""


class DxpTimeout(DxpConnectionError):
    """No message within the time allowed."""


class DxpIncomplete(DxpConnectionError):
    """A message begun and not finished (no NUL) within the frame timeout."""


class ClusterLost(EngineError):
    """The Ray cluster could not be reached, or its head stopped answering
    during a run."""


# --- interruptions -----------------------------------------------------------------


class PerftStopped(DraughtsError):
    """A perft count stopped before it finished (its count is unknown)."""


class EngineClaim(DraughtsError):
    """The engine to move ended the game instead of moving (DXP's GAMEEND):
    `kind` is NONE (no verdict), RESIGN, DRAW or WIN, from its side; `said` is
    what it said about it (its CHAT), `line` what it sent."""

    NONE, RESIGN, DRAW, WIN = 0, 1, 2, 3

    def __init__(self, kind: int, said: str = "", line: str = ""):
        super().__init__(f"GAMEEND {kind}")
        self.kind, self.said, self.line = kind, said, line

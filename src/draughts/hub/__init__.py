"""The Hub protocol: `draughts hub` (the engine side, `draughts.hub.server`)
and a client that drives any Hub engine (`draughts.hub.client`), over one
shared line codec (`draughts.hub.protocol`).  Its errors are in `draughts.errors`.

    >>> import draughts
    >>> from draughts.hub import HubEngine, Limit
    >>> board = draughts.Board(variant="russian")
    >>> with HubEngine(["draughts", "hub"]) as engine:
    ...     engine.play(board, Limit(depth=6)).move in board.legal_moves
    True
"""

from draughts.hub.client import (
    Analysis,
    AsyncAnalysis,
    AsyncHubEngine,
    HubEngine,
    Info,
    Limit,
    MemoryTransport,
    Param,
    PlayResult,
    SubprocessTransport,
    Transport,
    parse_info,
)
from draughts.hub.protocol import format_line, format_position, match_move, parse_line, parse_move, parse_position

__all__ = [
    "HubEngine",
    "AsyncHubEngine",
    "Analysis",
    "AsyncAnalysis",
    "Limit",
    "PlayResult",
    "Info",
    "Param",
    "Transport",
    "SubprocessTransport",
    "MemoryTransport",
    "parse_info",
    "parse_line",
    "format_line",
    "parse_position",
    "format_position",
    "parse_move",
    "match_move",
]

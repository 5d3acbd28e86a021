"""When an engine must answer: one `Limit` value for the engine, the Hub
protocol's client and server, and the match clock."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

__all__ = ["Limit"]


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

"""When an engine must answer: one `Limit` value for the engine
(`Engine.play` and `Engine.analyse`), the Hub protocol's server (`level`) and client, and the
match clock; and the one time policy that turns a limit into a search's
soft and hard budget.

    >>> Limit(time=60, inc=1).budget()          # the clock before the increment, plus it
    61.0
    >>> soft, hard = search_budget(Limit(movetime=0.5), overhead=0.02)
    >>> round(soft, 3), round(hard, 3)
    (0.48, 0.48)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, List, Optional, Tuple

from draughts.errors import InvalidInputError

__all__ = ["Limit", "search_budget", "clock_budget", "DEPTH_MAX", "NODES_MAX"]

#: the largest depth and node count a search takes
DEPTH_MAX = 1000
NODES_MAX = (1 << 63) - 1
_MOVES_MAX = 1 << 30


def _seconds(x: float) -> str:
    text = f"{float(x):.6f}".rstrip("0").rstrip(".")
    return text or "0"


@dataclass(frozen=True)
class Limit:
    """When the engine must answer: a depth, a node count, a time for this
    move (`movetime`), a clock (`time` before this move's increment `inc`, as
    the Hub protocol adds the increment before the move; `moves_to_go` to the
    next time control), or `infinite` (until told to stop).  Times are
    seconds.  Every value is checked: a bad one is an InvalidInputError."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    movetime: Optional[float] = None
    time: Optional[float] = None
    inc: Optional[float] = None
    moves_to_go: Optional[int] = None
    infinite: bool = False

    def __post_init__(self) -> None:
        for name, high in (("depth", DEPTH_MAX), ("nodes", NODES_MAX), ("moves_to_go", _MOVES_MAX)):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high):
                raise InvalidInputError(f"{name} must be a whole number from 1 to {high}, not {value!r}")
        for name in ("movetime", "time", "inc"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0
            ):
                raise InvalidInputError(f"{name} must be a finite number of seconds >= 0, not {value!r}")
        if not isinstance(self.infinite, bool):
            raise InvalidInputError(f"infinite must be True or False, not {self.infinite!r}")

    @property
    def empty(self) -> bool:
        """Nothing bounds the search."""
        return all(getattr(self, f.name) in (None, False) for f in fields(self))

    def level_args(self) -> List[Tuple[str, Any]]:
        """The arguments of the Hub protocol's `level` line."""
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
        if self.infinite:
            args.append(("infinite", None))
        if not args:
            raise ValueError("a Limit needs depth, nodes, movetime, time or infinite")
        return args

    def budget(self) -> Optional[float]:
        """Seconds the move may take, or None when the limit is not a clock."""
        if self.time is not None:
            return float(self.time) + float(self.inc or 0.0)
        if self.movetime is not None:
            return float(self.movetime)
        return None


def clock_budget(
    time: float, inc: float = 0.0, moves_to_go: Optional[int] = None, overhead: float = 0.0
) -> Tuple[float, float]:
    """(soft, hard) seconds of search for a move with `time` on the clock
    before this move's increment `inc`.  No new iteration starts after the
    soft limit; the search stops at the hard one.  `overhead` is kept back for
    the answer's way to the caller, so the hard limit plus the overhead never
    exceeds what the clock allows."""
    usable = time + inc - overhead
    if usable <= 0.002:
        return 0.001, 0.001  # answer at once: depth 1
    mtg = min(moves_to_go, 50) if moves_to_go and moves_to_go > 0 else 30
    cap = usable * (0.8 if mtg == 1 else 0.5)
    target = min(max(time - overhead, 0.0) / mtg + 0.75 * inc, cap)
    return min(target * 0.6, cap), min(target * 2.5, cap)


def search_budget(limit: Limit, overhead: float = 0.0) -> Tuple[float, float]:
    """(soft, hard) seconds of search under the limit's move time or clock,
    less `overhead`; (0, 0) when neither bounds it in time."""
    if limit.movetime is not None:
        hard = max(0.001, limit.movetime - overhead)
        return hard, hard
    if limit.time is not None:
        return clock_budget(limit.time, limit.inc or 0.0, limit.moves_to_go, overhead)
    return 0.0, 0.0

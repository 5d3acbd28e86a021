"""Time controls in cutechess-cli's words, and the clock the referee keeps.

    tc=40/60+0.5   40 moves in 60 s, then the next 40 in 60 s more, 0.5 s a move
    tc=2:00        sudden death: two minutes for the game
    tc=60+1        Fischer: a minute and one second a move
    tc=inf         no clock
    st=300         a fixed 300 s for every move (the five-minutes-a-move site rule)
    depth=8        search to depth 8 (no clock unless tc= or st= is given too)
    nodes=100000   search this many nodes

`timemargin=MS` is the grace in milliseconds before a late move loses on time.
Times are seconds, or minutes:seconds (also h:mm:ss).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Dict, Optional

from draughts._args import parse_real
from draughts.errors import InvalidInputError
from draughts.limits import Limit

_TC = re.compile(r"(?:([0-9]+)/)?([0-9:.]+)(?:\+([0-9.]+))?\Z")


def parse_seconds(text: str, what: str = "time") -> float:
    """Seconds from `90`, `1.5`, `1:30` or `1:00:00`."""
    t = text.strip()
    parts = t.split(":")
    try:
        if len(parts) > 3 or any(p == "" for p in parts):
            raise ValueError
        values = [parse_real(p) for p in parts]
    except ValueError:
        raise InvalidInputError(f"{what} {text!r} is not a time (seconds, m:ss or h:mm:ss)") from None
    total = 0.0
    for v in values:
        total = total * 60.0 + v
    if not math.isfinite(total) or total < 0:
        raise InvalidInputError(f"{what} {text!r} is not a time >= 0")
    return total


@dataclass(frozen=True)
class TimeControl:
    """How long an engine may think: a clock (`moves`/`time`+`inc`), a fixed
    time a move (`movetime`), and/or search limits (`depth`, `nodes`)."""

    moves: int = 0  # moves per period; 0: the whole game
    time: float = 0.0  # seconds per period (0 with no clock)
    inc: float = 0.0
    movetime: float = 0.0  # st=
    depth: Optional[int] = None
    nodes: Optional[int] = None
    margin: float = 0.0  # seconds of grace (timemargin= is given in ms)
    infinite: bool = False  # tc=inf: explicitly no clock

    @property
    def has_clock(self) -> bool:
        return self.time > 0

    @property
    def bounded(self) -> bool:
        """The engine is told to stop by something: a clock, st, depth or nodes."""
        return self.has_clock or self.movetime > 0 or bool(self.depth) or bool(self.nodes)

    def text(self) -> str:
        """The PDN `TimeControl` value: cutechess's form (`40/60+0.5`,
        `300/move`, `inf`), with any depth or node limit after it."""
        parts = []
        if self.has_clock:
            t = _num(self.time)
            if self.moves:
                t = f"{self.moves}/{t}"
            if self.inc:
                t += f"+{_num(self.inc)}"
            parts.append(t)
        elif self.movetime:
            parts.append(f"{_num(self.movetime)}/move")
        if self.depth:
            parts.append(f"depth={self.depth}")
        if self.nodes:
            parts.append(f"nodes={self.nodes}")
        return ", ".join(parts) if parts else "inf"

    def to_json(self) -> Dict:
        return {
            "moves": self.moves,
            "time": self.time,
            "inc": self.inc,
            "movetime": self.movetime,
            "depth": self.depth,
            "nodes": self.nodes,
            "margin": self.margin,
            "infinite": self.infinite,
        }

    @classmethod
    def from_json(cls, data: Dict) -> "TimeControl":
        return cls(**data)


def _num(x: float) -> str:
    return f"{x:g}"


def parse_tc(text: str) -> Dict:
    """The fields of a `tc=` value (moves, time, inc, infinite)."""
    t = text.strip().lower()
    if t in ("inf", "infinite"):
        return {"moves": 0, "time": 0.0, "inc": 0.0, "infinite": True}
    m = _TC.match(t)
    if not m:
        raise InvalidInputError(f"tc={text!r} is not a time control (moves/time+inc, time+inc, time or inf)")
    moves = int(m.group(1)) if m.group(1) else 0
    time = parse_seconds(m.group(2), "tc time")
    inc = parse_seconds(m.group(3), "tc increment") if m.group(3) else 0.0
    if time <= 0:
        raise InvalidInputError(f"tc={text!r}: the time must be more than 0")
    if m.group(1) is not None and moves < 1:
        raise InvalidInputError(f"tc={text!r}: the number of moves must be at least 1")
    return {"moves": moves, "time": time, "inc": inc, "infinite": False}


class Clock:
    """One engine's clock in one game."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.remaining = tc.time
        self.moves_made = 0

    def moves_to_go(self) -> Optional[int]:
        if not self.tc.moves:
            return None
        return self.tc.moves - (self.moves_made % self.tc.moves)

    def available(self) -> Optional[float]:
        """Seconds the engine may use on this move (None: no time limit).
        With an increment, it is added before the move (Hub's convention)."""
        if self.tc.has_clock:
            return self.remaining + self.tc.inc
        if self.tc.movetime:
            return self.tc.movetime
        return None

    def limit(self) -> Limit:
        """The search limit of this move."""
        tc = self.tc
        fields: Dict = {}
        if tc.depth:
            fields["depth"] = tc.depth
        if tc.nodes:
            fields["nodes"] = tc.nodes
        if tc.has_clock:
            fields["time"] = max(0.0, self.remaining)
            if tc.inc:
                fields["inc"] = tc.inc
            mtg = self.moves_to_go()
            if mtg:
                fields["moves_to_go"] = mtg
        elif tc.movetime:
            fields["movetime"] = tc.movetime
        return Limit(**fields)

    def spend(self, elapsed: float) -> bool:
        """Charge a move that took `elapsed` seconds; False when it was late
        (past the time available plus the margin)."""
        available = self.available()
        late = available is not None and elapsed > available + self.tc.margin
        if self.tc.has_clock:
            self.remaining = self.remaining + self.tc.inc - elapsed
            self.moves_made += 1
            if self.tc.moves and self.moves_made % self.tc.moves == 0:
                self.remaining += self.tc.time
        else:
            self.moves_made += 1
        return not late

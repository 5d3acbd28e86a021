"""The games of a match as they are played, in a file a viewer reads (`-live FILE`).

The runner keeps, for every game in progress on this machine, its start
position, the moves so far, both clocks, which one runs and since when, and
each engine's latest line (depth, score, nodes per second, principal
variation) as it thinks.  A thread of its own writes that to the file, whole
and atomically (a temporary file renamed over it), at most every
WRITE_EVERY seconds and only when something has changed; the games' threads
only update a dict under a lock, so a viewer costs the engines' clocks
nothing measurable.  `draughts gui --watch FILE` follows it (with the state
file it names for the finished games).

The file (JSON, `"kind": "draughts-match-live"`)::

    {"kind": ..., "version": 1, "variant": "international", "mandatory_capture": true,
     "names": ["a", "b"], "state": "/abs/path/state.json" or null,
     "played": 3, "total": 10, "status": "running" | "finished" | "stopped",
     "updated": UNIX_TIME,
     "games": [{"index": 3, "white": "a", "black": "b", "fen": START_FEN,
                "moves": ["32-28", ...], "clocks": {"white": 0.2, "black": 0.2},
                "running": "white" | null, "since": UNIX_TIME | null,
                "lines": {"white": {"depth": 9, "score": 0.12, "nps": 3e6, "pv": ["19-23", ...]},
                          "black": null}}]}

Moves are Hub notation (numbers, `x` between the squares of a capture); a
clock is the seconds its side had when its move began (a move time, or the
clock's time and increment), `since` the moment the running one started.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any, Dict, List, Optional

from draughts.board import Board, Move
from draughts.engine_api import Info
from draughts.errors import InvalidInputError
from draughts.variants import Color

LIVE_KIND = "draughts-match-live"
LIVE_VERSION = 1
#: seconds between two writes of the file at most
WRITE_EVERY = 0.25


def _colour(c: Color) -> str:
    return "white" if c == Color.WHITE else "black"


class LiveGame:
    """One game in progress: what play_game tells of it (its `watch`)."""

    def __init__(self, owner: "LiveBoard", index: int, white: str, black: str, board: Board):
        self._owner = owner
        self.data: Dict[str, Any] = {
            "index": index,
            "white": white,
            "black": black,
            "fen": board.fen(),
            "moves": [],
            "clocks": {"white": None, "black": None},
            "running": None,
            "since": None,
            "lines": {"white": None, "black": None},
        }
        self._board = board.copy()

    def thinking(self, colour: Color, available: Optional[float]) -> None:
        """`colour`'s move has begun, with `available` seconds on its clock."""
        with self._owner.lock:
            side = _colour(colour)
            self.data["clocks"][side] = None if available is None else round(available, 3)
            self.data["running"] = side
            self.data["since"] = time.time()
            self.data["lines"][side] = None
            self._owner.changed()

    def info(self, colour: Color, info: Info) -> None:
        """What `colour`'s engine has found so far in its move."""
        if info.score is None or not info.pv:
            return
        line = {
            "depth": info.depth,
            "score": round(info.score, 3),
            "nps": round(info.nps or 0.0),
            "pv": [m.hub() for m in info.pv],
        }
        with self._owner.lock:
            self.data["lines"][_colour(colour)] = line
            self._owner.changed()

    def moved(self, colour: Color, move: Move, left: Optional[float]) -> None:
        """`colour` played `move`, its clock then showing `left` seconds."""
        with self._owner.lock:
            side = _colour(colour)
            self.data["moves"].append(move.hub())
            if left is not None:
                self.data["clocks"][side] = round(max(0.0, left), 3)
            self.data["running"] = self.data["since"] = None
            self._owner.changed()

    def ended(self) -> None:
        self._owner._drop(self)


class LiveBoard:
    """The file of a match's games in progress, kept by a writer thread."""

    def __init__(
        self,
        path: str,
        *,
        variant: str,
        mandatory_capture: bool,
        names: List[str],
        total: int,
        played: int = 0,
        state: Optional[str] = None,
    ):
        self.path = path
        self.lock = threading.Lock()
        self._games: List[LiveGame] = []
        self._head: Dict[str, Any] = {
            "kind": LIVE_KIND,
            "version": LIVE_VERSION,
            "variant": variant,
            "mandatory_capture": mandatory_capture,
            "names": list(names),
            "state": os.path.abspath(state) if state else None,
            "played": played,
            "total": total,
            "status": "running",
        }
        self._dirty = threading.Event()
        self._closed = False
        self.write()
        self._thread = threading.Thread(target=self._writer, name="match-live", daemon=True)
        self._thread.start()

    def game(self, index: int, white: str, black: str, board: Board) -> LiveGame:
        g = LiveGame(self, index, white, black, board)
        with self.lock:
            self._games.append(g)
            self.changed()
        return g

    def _drop(self, g: LiveGame) -> None:
        with self.lock:
            if g in self._games:
                self._games.remove(g)
                self.changed()

    def changed(self) -> None:
        self._dirty.set()

    def finished(self, played: int) -> None:
        with self.lock:
            self._head["played"] = played
            self.changed()

    def snapshot(self) -> Dict[str, Any]:
        with self.lock:
            return {
                **self._head,
                "updated": time.time(),
                "games": [json.loads(json.dumps(g.data)) for g in self._games],
            }

    def write(self) -> None:
        data = self.snapshot()
        tmp = f"{self.path}.tmp{os.getpid()}"
        try:
            with open(tmp, "w") as fh:
                fh.write(json.dumps(data, separators=(",", ":")))  # dumps: the C encoder
            os.replace(tmp, self.path)
        except OSError:
            pass  # a viewer's file must never stop the match

    def _writer(self) -> None:
        while not self._closed:
            self._dirty.wait()
            if self._closed:
                break
            self._dirty.clear()
            self.write()
            time.sleep(WRITE_EVERY)

    def close(self, status: str) -> None:
        """The match has ended (`finished`) or stopped: the last write."""
        with self.lock:
            self._head["status"] = status
            self._games.clear()
        self._closed = True
        self._dirty.set()
        self._thread.join(5)
        self.write()


def read_live(path: str) -> Dict[str, Any]:
    """A live file's contents; InvalidInputError when it cannot be read or is not one."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as e:
        raise InvalidInputError(f"cannot read the live match file {path!r}: {e.strerror}") from None
    except ValueError as e:
        raise InvalidInputError(f"cannot read the live match file {path!r}: {e}") from None
    if not isinstance(data, dict) or data.get("kind") != LIVE_KIND:
        raise InvalidInputError(f"{path!r} is not a live match file (draughts match -live FILE)")
    return data

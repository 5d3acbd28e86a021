"""One face for every engine, shaped like python-chess's engine API.

The engine in this process (`draughts.Engine`), a Hub program
(`draughts.hub.HubEngine`), a Hub version 1 program
(`draughts.hub.hub1.Hub1Engine`) and a DXP program
(`draughts.dxp.engine.DxpEngine`) all satisfy `EngineProtocol`:

  * `play(board, limit) -> PlayResult`: the engine's move;
  * `analyse(board, limit, multipv=1) -> list[Info]`: the best lines, best first;
  * `configure(options)`: set options by name (the Hub parameters' names);
  * `quit()`: let the engine go.

    >>> import draughts
    >>> engine = draughts.Engine(variant="american", tt_mb=1)
    >>> isinstance(engine, EngineProtocol)
    True
    >>> result = engine.play(draughts.Board(variant="american"), draughts.Limit(depth=4))
    >>> result.info.depth, result.move == result.info.pv[0]
    (4, True)

A match's referee (`draughts.match.game.play_game`) talks to players, not to
engines: a `Player` is an engine with what a referee needs around it (the
grace a move is given past its time, whether the engine is fit for another
game).  Every player of `draughts.match.players` satisfies it, and so does
the GUI's watched player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Protocol, runtime_checkable

from draughts.board import Board, Move
from draughts.limits import Limit
from draughts.variants import Variant

__all__ = ["Info", "PlayResult", "EngineProtocol", "Player"]


@dataclass
class Info:
    """What a search found for one line: the best line's, or the `multipv`-th
    best root move's (1 is the best).  Scores are in men from the side to
    move; a won or lost position also gives `win_in`, the plies to the end
    (negative: the side to move loses).  What an engine does not report is
    None (or 0, an empty `pv`)."""

    depth: int = 0
    seldepth: int = 0
    score: Optional[float] = None
    win_in: Optional[int] = None
    nodes: int = 0
    #: seconds the search had taken
    time: Optional[float] = None
    #: nodes a second
    nps: float = 0.0
    pv: List[Move] = field(default_factory=list)
    multipv: int = 1
    #: positions the endgame database answered (None: not known)
    egdb_hits: Optional[int] = None
    #: the move came from an opening book (no search)
    book: bool = False
    #: what else a remote engine reported, as its text (Hub: `mean-depth`, ...)
    extra: Dict[str, str] = field(default_factory=dict)


@dataclass
class PlayResult:
    """The engine's move, the reply it expects (`ponder`), what its search
    found (`info`, the best line), the seconds from asking to answer
    (`elapsed`), and `late` when the answer came after the limit's time
    (beyond the client's margin)."""

    move: Move
    ponder: Optional[Move] = None
    info: Info = field(default_factory=Info)
    elapsed: float = 0.0
    late: bool = False

    @property
    def latency(self) -> Optional[float]:
        """Seconds the move took beyond the engine's own reported time (the
        way of the answer: a pipe, a socket, scheduling); None when the
        engine reported no time."""
        if self.info.time is None:
            return None
        return self.elapsed - self.info.time


@runtime_checkable
class EngineProtocol(Protocol):
    """What every engine does (see the module's text)."""

    def play(self, board: Board, limit: Limit) -> PlayResult: ...

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> List[Info]: ...

    def configure(self, options: Mapping[str, Any]) -> None: ...

    def quit(self) -> object: ...


@runtime_checkable
class Player(Protocol):
    """What the referee of a match talks to (see the module's text):

      * `name`: the engine's name in the match;
      * `alive`: whether it is fit for another game (False once it ended,
        stalled or was closed);
      * `new_game(variant)`: the next moves are of a new game;
      * `play(board, limit, grace) -> PlayResult`: its move, awaited `grace`
        seconds past the time `limit` grants (without a time in the limit:
        for each line) before it counts as stalled; raises the engine
        errors of `draughts.errors`;
      * `close()`: let the engine go (it may be playing on another thread).

    A player may also have `on_info` (set to a callable that hears what the
    search reports while it thinks), `start_at(plies)` (a DXP engine: the
    game starts after an opening's plies), `running()` (its process is still
    there) and `pid`; the referee and the runner look for them.
    """

    @property
    def name(self) -> str: ...

    @property
    def alive(self) -> bool: ...

    def new_game(self, variant: Variant) -> None: ...

    def play(self, board: Board, limit: Limit, grace: float) -> PlayResult: ...

    def close(self) -> None: ...

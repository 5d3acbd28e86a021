"""The players the referee talks to: thin runner-side wrappers over engines
of the engine protocol (`draughts.engine_api`), one for each `proto=`.

Every player satisfies `draughts.engine_api.Player`: it has `name`,
`alive`, `new_game(variant)`, `play(board, limit, grace) -> PlayResult` and
`close()` (and `config`, its settings); `limit` is a `draughts.Limit`,
`grace` is how long to wait past the time the limit grants (with no time in
the limit: for each line) before the engine counts as stalled.  The engine
itself is started by `draughts.match.engines.open_engine` (its options,
book, threads, start-up timeout and variant check); what the runner needs
beyond the engine protocol lives here: the grace, which faults leave an
engine fit for another game, the restarts (`running`), a DXP engine's
opening (`start_at`).  `play` raises the engine
protocol's errors (`draughts.errors`; named in `draughts.match.engines`
for what they mean to the referee) or a DXP engine's `EngineClaim`.  The
referee checks the move again on its own board whatever the player says.

Players:
  * `HubPlayer`: any Hub protocol program (`proto=hub`), through
    `draughts.hub.HubEngine`.
  * `InProcessPlayer`: our own engine in the runner's process
    (`proto=builtin`), with no process to start: quick, for tests and for
    the built-in default pairing.
  * `Hub1Player`: a Hub version 1 program such as Scan 2.0 (`proto=hub1`),
    through `draughts.hub.hub1.Hub1Engine`; international draughts only.
  * `DxpPlayer`: a DXP (DamExchange) engine over TCP (`proto=dxp host=H
    port=P`, `cmd=` to start it), through `draughts.dxp.engine.DxpEngine`;
    10x10 only.
"""

from __future__ import annotations

from typing import Callable, Optional

from draughts.board import Board
from draughts.dxp.engine import DxpEngine
from draughts.engine import Engine
from draughts.engine_api import Info, PlayResult, Player
from draughts.errors import EngineError, EngineOvertimeError, EngineProtocolError
from draughts.hub.client import HubEngine
from draughts.hub.hub1 import Hub1Engine
from draughts.limits import Limit
from draughts.match.engines import EngineConfig, EngineTerminatedError, open_engine
from draughts.variants import Variant

__all__ = ["InProcessPlayer", "HubPlayer", "Hub1Player", "DxpPlayer", "make_player"]


class InProcessPlayer:
    """Our engine in this process (`proto=builtin`).  Its `option.NAME=VALUE`
    settings are `Engine.configure`'s options (`option.level=N`,
    `option.tt-size=M`, `option.eval=auto|classic|learned`,
    `option.eval-file=F`, `option.threads=T`, and for tuning
    `option.futility=`, `option.lmr-divisor=`,
    `option.probcut=off|auto|MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T[,CAPTURES]`); the
    table is 16 MiB and the threads the runner's `threads` (see make_player)
    unless they say otherwise."""

    #: called with what the search reports while it thinks (set by the referee for -live)
    on_info: Optional[Callable[[Info], None]] = None

    def __init__(self, config: EngineConfig, variant: Variant, threads: Optional[int] = None):
        self.name = config.name
        self.config = config
        engine = open_engine(config, variant, threads=threads)
        assert isinstance(engine, Engine)
        self._engine = engine
        self.alive = True

    def new_game(self, variant: Variant) -> None:
        self._engine.configure({"variant": variant})
        self._engine.new_game()

    def play(self, board: Board, limit: Limit, grace: float) -> PlayResult:
        if not self.alive:
            raise EngineTerminatedError(f"engine {self.name} was closed (the match is stopping)")
        result = self._engine.play(board, limit, on_info=self.on_info)
        if not self.alive:
            raise EngineTerminatedError(f"engine {self.name} was closed (the match is stopping)")
        return result

    def close(self) -> None:
        """Stop a search under way (another thread may be playing a game with
        this engine) and refuse to play on: a stopping match does not wait for
        its in-process games to end."""
        self.alive = False
        self._engine.quit()


class HubPlayer:
    """A Hub protocol engine in its own process, driven by `draughts.hub.HubEngine`.
    The `option.NAME=VALUE` settings are sent with `set-param` before `init`;
    so is `threads` (the processors the runner gives each engine, see
    make_player) when the engine declares it and no option sets it."""

    #: called with what the engine reports while it thinks (set by the referee for -live)
    on_info: Optional[Callable[[Info], None]] = None

    def __init__(self, config: EngineConfig, variant: Variant, threads: Optional[int] = None):
        self.name = config.name
        self.config = config
        self.alive = False
        engine = open_engine(config, variant, threads=threads)
        assert isinstance(engine, (HubEngine, Hub1Engine))
        self._engine = engine
        self.alive = True

    def _call(self, fn, *args, **kwargs):
        """Call the client; an engine that ended, stalled or failed otherwise
        is not trusted with another game (closing it kills it).  One that was
        only over its time answered the stop that followed (the client
        checks) and one that sent a bad move is still talking: both stay."""
        try:
            return fn(*args, **kwargs)
        except (EngineOvertimeError, EngineProtocolError):
            raise
        except EngineError:
            self.alive = False
            raise

    @property
    def pid(self) -> Optional[int]:
        """The engine's process id."""
        return self._engine.pid

    def running(self) -> bool:
        """The process is still there (an idle engine may have died between games)."""
        return self.alive and self._engine.returncode is None

    def new_game(self, variant: Variant) -> None:
        self._call(self._engine.new_game)

    def play(self, board: Board, limit: Limit, grace: float) -> PlayResult:
        return self._call(self._engine.play, board, limit, timeout=grace, on_info=self.on_info)

    def close(self) -> None:
        engine = getattr(self, "_engine", None)
        if engine is None:
            return
        was_alive = self.alive
        self.alive = False
        try:
            engine.quit(timeout=1.0 if was_alive else 0.0)
        except Exception:
            pass


class Hub1Player(HubPlayer):
    """A Hub version 1 engine (`proto=hub1`) in its own process, driven by
    `draughts.hub.hub1.Hub1Engine`: the `option.NAME=VALUE` settings are sent
    as `set NAME VALUE` before `init` (Scan 2.0: `option.book=false`,
    `option.threads=1`); the runner's `threads` is not (a version-1 engine
    declares no settings: give it with option.threads=).  A move time is
    sent as `time`, a clock as `level`, a depth as `depth`, and the client
    sends `stop` when the move's time is up (see `draughts.hub.hub1`).  The
    referee, the clocks and the fault labels are those of proto=hub."""


class DxpPlayer:
    """A DXP engine (`proto=dxp`), driven by `draughts.dxp.engine.DxpEngine`:
    the GAMEREQ announces the engine's `tc=` in whole minutes (rounded up;
    DXP has no increment, and a depth or node limit is sent as no clock,
    000) and the move count of `tc=MOVES/TIME`; a game that starts from an
    opening starts at its end (`start_at`)."""

    def __init__(self, config: EngineConfig, variant: Variant):
        self.name = config.name
        self.config = config
        engine = open_engine(config, variant)
        assert isinstance(engine, DxpEngine)
        self._engine = engine

    @property
    def alive(self) -> bool:
        return self._engine.alive

    def new_game(self, variant: Variant) -> None:
        self._engine.new_game()

    def start_at(self, plies: int) -> None:
        """The game starts after the first `plies` of the board (an opening's moves)."""
        self._engine.start_at(plies)

    def play(self, board: Board, limit: Limit, grace: float) -> PlayResult:
        return self._engine.play(board, limit, grace=grace)

    def running(self) -> bool:
        return self._engine.running()

    def close(self) -> None:
        self._engine.quit()


def make_player(config: EngineConfig, variant: Variant, threads: Optional[int] = None) -> Player:
    """A player for the engine; `threads` is how many processors it may
    search on (None: the engine's own default), set unless its options say.
    An engine without a clock or a move time (depth= or nodes= only) keeps its
    own default: more threads would make its games irreproducible and gain it
    nothing."""
    if not (config.tc.has_clock or config.tc.movetime > 0):
        threads = None
    if config.proto == "builtin":
        return InProcessPlayer(config, variant, threads)
    if config.proto == "dxp":
        return DxpPlayer(config, variant)
    if config.proto == "hub1":
        return Hub1Player(config, variant, threads)
    return HubPlayer(config, variant, threads)

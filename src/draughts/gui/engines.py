"""The GUI's one door to the engines: every engine call of `draughts gui` is
made here, so that a change of the engine API is a change of this module.

The engines the page may pick are engine settings of the match runner
(`draughts.match.engines.EngineConfig`): our own engine in this process
(`builtin`), a Hub program or a DXP engine (international draughts only;
DXP has no analysis) named on the command line or in the config file.
They are started by `draughts.match.engines.open_engine`, as the match
runner starts its engines.  `GuiEngine` plays moves and analyses positions
with any of them, blocking (the server calls it on a worker thread) and
reporting what the search finds through a callback as it goes.

Every engine is driven through the engine protocol (`draughts.engine_api`):
`play` for moves, `analyse(..., multipv=N)` for the best lines (our engine's
`on_info` callback and a Hub engine's `analysis` iterator give them depth by
depth), `configure` for settings.  Multi-PV is the engine's own: a Hub engine
that declares no `multipv` parameter analyses one line.
"""

from __future__ import annotations

import shlex
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from draughts._args import is_int, parse_int
from draughts.board import Board, Move
from draughts.dxp.engine import DxpEngine
from draughts.engine import LEVEL_MAX, Engine
from draughts.engine_api import Info, PlayResult
from draughts.errors import EngineError, InvalidInputError
from draughts.hub.client import HubEngine
from draughts.limits import Limit
from draughts.match.engines import BUILTIN_TT_MB, EngineConfig, open_engine
from draughts.match.timecontrol import TimeControl
from draughts_core.search import MULTIPV_LINES
from draughts.variants import Variant

#: the deepest an analysis goes before it ends by itself
ANALYSIS_DEPTH_MAX = 40
#: MiB of transposition table of an in-process engine (the match runner's)
TT_MB = BUILTIN_TT_MB
PROTOS = ("builtin", "hub", "dxp")
#: seconds a Hub engine of the page may take to start
STARTUP_TIMEOUT = 10.0


def EngineSpec(
    name: str,
    proto: str = "builtin",
    command: Sequence[str] = (),
    dir: Optional[str] = None,
    host: str = "",
    port: int = 0,
) -> EngineConfig:
    """An engine the page may pick, as the match runner's settings: `command`
    is the program and its arguments (a DXP engine's, if any, starts it),
    `host` and `port` a DXP engine's address.  A Hub engine keeps its own
    opening book (`book=on`), as the page's engines always have."""
    argv = tuple(command)
    return EngineConfig(
        name=name,
        cmd=argv[0] if argv else "",
        args=argv[1:],
        dir=dir,
        proto=proto,
        host=host,
        port=port,
        book=proto == "hub",
    )


BUILTIN = EngineSpec("draughts", "builtin")


def engine_json(spec: EngineConfig) -> dict:
    """What the page is told of an engine: its name and protocol (not its command)."""
    return {"name": spec.name, "proto": spec.proto}


def parse_engine_arg(text: str) -> EngineConfig:
    """`NAME=CMD` of the command line (CMD split like a shell): a Hub engine;
    `NAME=dxp://HOST:PORT`: a DXP engine listening there."""
    if "=" not in text:
        raise InvalidInputError(f"--engine takes NAME=COMMAND, not {text!r}")
    name, cmd = text.split("=", 1)
    name = name.strip()
    if cmd.startswith("dxp://"):
        host, _, port = cmd[len("dxp://") :].rpartition(":")
        if not name or not host or not is_int(port) or not 1 <= parse_int(port) <= 65535:
            raise InvalidInputError(f"--engine takes NAME=dxp://HOST:PORT, not {text!r}")
        return EngineSpec(name, "dxp", host=host, port=parse_int(port))
    try:
        argv = tuple(shlex.split(cmd))
    except ValueError as e:
        raise InvalidInputError(f"--engine {name}: {e}") from None
    if not name or not argv:
        raise InvalidInputError(f"--engine takes NAME=COMMAND, not {text!r}")
    return EngineSpec(name, "hub", argv)


def specs_from_config(data) -> List[EngineConfig]:
    """The engines of a config file: {"engines": [{"name", "cmd", "dir"?, "proto"?}]}
    where cmd is a list of arguments or a string split like a shell would."""
    if not isinstance(data, dict) or not isinstance(data.get("engines", []), list):
        raise InvalidInputError('the config file holds {"engines": [{"name": ..., "cmd": ...}, ...]}')
    out = []
    for item in data.get("engines", []):
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("name"), str)
            or not (item.get("cmd") or item.get("proto") == "dxp")
        ):
            raise InvalidInputError(f"config: an engine needs a name and a cmd, not {item!r}")
        cmd = item.get("cmd") or ()
        argv = tuple(shlex.split(cmd)) if isinstance(cmd, str) else tuple(str(a) for a in cmd)
        proto = item.get("proto", "hub")
        if proto == "dxp":
            port = item.get("port", 27531)
            if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
                raise InvalidInputError(f"config: engine {item['name']}: port must be 1-65535")
            out.append(EngineSpec(item["name"], "dxp", argv, item.get("dir"), str(item.get("host", "127.0.0.1")), port))
            continue
        if proto != "hub":
            raise InvalidInputError(
                f"config: engine {item['name']}: proto {proto!r} is not one the GUI drives (hub, dxp)"
            )
        out.append(EngineSpec(item["name"], "hub", argv, item.get("dir")))
    return out


@dataclass
class Line:
    """One of the best lines: its rank (1 = best), score (men, side to move) and moves."""

    multipv: int
    score: float
    pv: List[Move]
    win_in: Optional[int] = None


@dataclass
class Report:
    """What a search has found so far."""

    depth: int
    nodes: int
    nps: float
    time: float
    lines: List[Line] = field(default_factory=list)


OnReport = Callable[[Report], None]


class GuiEngine:
    """One engine for one page: our own in-process engine, a Hub program or
    a DXP engine.  Calls block; `stop()` may be called from another thread."""

    def __init__(self, spec: EngineConfig, variant: Variant, *, level: int = LEVEL_MAX):
        self.spec = spec
        self.level = level
        self._stopped = threading.Event()
        #: a Hub engine's move is being asked for (see _stop_hub_move)
        self._playing = False
        self._hub: Any = None
        self._analysis: Any = None
        self._engine: Optional[Engine] = None
        self._dxp: Optional[DxpEngine] = None
        #: the start position and moves a DXP engine knows of its game
        self._dxp_line: Tuple[str, List[Move]] = ("", [])
        self._dxp_movetime = 0.0
        if spec.proto == "builtin":
            engine = open_engine(replace(spec, options=spec.options + (("level", str(level)),)), variant)
            assert isinstance(engine, Engine)
            self._engine = engine
        elif spec.proto == "hub":
            # the variant is the page's to change: the engine is told it at each move
            hub = open_engine(spec, None, startup_timeout=STARTUP_TIMEOUT)
            assert isinstance(hub, HubEngine)
            self._hub = hub
        elif spec.proto != "dxp":
            raise InvalidInputError(f"unknown engine kind {spec.proto!r}")

    @property
    def pid(self) -> Optional[int]:
        if self.spec.proto == "dxp":
            return self._dxp.pid if self._dxp is not None else None
        return self._hub.pid if self._hub is not None else None

    def set_level(self, level: int) -> None:
        """Strength 1-20 (our engine; a Hub engine plays at its own)."""
        self.level = level
        if self._engine is not None:
            self._engine.configure({"level": level})

    def new_game(self) -> None:
        if self._engine is not None:
            self._engine.new_game()
        elif self._hub is not None:
            self._hub.new_game()
        elif self._dxp is not None:
            self._dxp.new_game()
            self._dxp_line = ("", [])

    def _dxp_play(self, board: Board, limit: Limit, timeout: Optional[float]) -> PlayResult:
        """A DXP engine's move: a game (GAMEREQ) from the board's start, its
        moves sent as they come; a new game whenever the board does not go
        on from the moves the engine knows (a take-back, a new position)."""
        if board.variant.name != "international" or not board.variant.mandatory_capture:
            raise InvalidInputError(f"engine {self.spec.name}: DXP plays international draughts only")
        movetime = limit.movetime or 1.0
        if self._dxp is not None and (not self._dxp.running() or movetime != self._dxp_movetime):
            self._dxp.quit()
            self._dxp = None
        if self._dxp is None:
            # a game's clock of DXP_MOVES moves at the move time (match.engines.dxp_clock)
            dxp = open_engine(replace(self.spec, tc=TimeControl(movetime=movetime)), board.variant)
            assert isinstance(dxp, DxpEngine)
            self._dxp = dxp
            self._dxp_movetime = movetime
            self._dxp_line = ("", [])
        root = board.root().fen()
        known_root, known = self._dxp_line
        if root != known_root or board.move_stack[: len(known)] != known or not known_root:
            self._dxp.new_game()
        result = self._dxp.play(board, limit, grace=timeout if timeout is not None else 10.0)
        self._dxp_line = (root, list(board.move_stack) + [result.move])
        return result

    # --- playing -------------------------------------------------------------
    def play(
        self, board: Board, limit: Limit, on_report: Optional[OnReport] = None, timeout: Optional[float] = None
    ) -> PlayResult:
        """The engine's move in the board's position (a Hub engine's answer is
        awaited `timeout` seconds beyond the limit's time); `on_report` hears
        what the search finds."""
        self._stopped.clear()
        if self._engine is not None:

            def on_info(info: Info) -> None:
                if on_report is not None:
                    on_report(_report([info]))

            self._engine.arm()
            if self._stopped.is_set():
                self._engine.stop()
            return self._engine.play(board, limit, on_info=on_info, arm=False)
        if self.spec.proto == "dxp":
            return self._dxp_play(board, limit, timeout)
        hub_info: Optional[Callable[[Info], None]] = None
        if on_report is not None:
            report = on_report

            def hub_info(info: Info) -> None:
                if info.score is not None and info.pv:
                    report(_report([info]))

        self._playing = True
        try:
            result = self._hub.play(board, limit, timeout=timeout, on_info=hub_info)
        finally:
            self._playing = False
        if not result.info.pv:
            result.info.pv = [result.move]
        if on_report is not None and result.info.score is not None:
            on_report(_report([result.info]))
        return result

    # --- analysing -----------------------------------------------------------
    def analyse(self, board: Board, multipv: int, on_report: OnReport, max_depth: int = ANALYSIS_DEPTH_MAX) -> None:
        """Analyse until stop() or max_depth, reporting each depth's best lines."""
        self._stopped.clear()
        if self.spec.proto == "dxp":
            raise InvalidInputError(f"{self.spec.name} is a DXP engine: DXP has no analysis")
        if not board.legal_moves:
            return
        n = max(1, min(multipv, board.legal_moves.count()))
        if self._engine is not None:
            self._analyse_builtin(board, n, on_report, max_depth)
        else:
            self._analyse_hub(board, n, on_report, max_depth)

    def _analyse_builtin(self, board: Board, n: int, on_report: OnReport, max_depth: int) -> None:
        """`Engine.analyse`: its on_info gives every line of every depth in
        turn (best first); a depth is reported once its last line has come."""
        assert self._engine is not None
        lines = min(n, MULTIPV_LINES)
        depth_lines: List[Info] = []

        def on_info(info: Info) -> None:
            if info.multipv == 1:
                depth_lines.clear()
            depth_lines.append(info)
            if info.multipv == lines and len(depth_lines) == lines:
                on_report(_report(depth_lines))

        self._engine.configure({"level": LEVEL_MAX})
        self._engine.arm()
        try:
            if self._stopped.is_set():
                return
            self._engine.analyse(board, Limit(depth=max_depth), multipv=lines, on_info=on_info, arm=False)
        finally:
            self._engine.configure({"level": self.level})

    def _analyse_hub(self, board: Board, n: int, on_report: OnReport, max_depth: int) -> None:
        """A Hub engine's `analysis`, its `multipv` parameter set to n (an
        engine without one reports a single line); each depth's lines are
        reported once the last of them has come, and the analysis ends at
        max_depth (the iterator's own limit counts the best line only)."""
        params = self._hub.params
        if "multipv" in params:
            self._hub.configure({"multipv": n})
        elif n > 1:
            raise EngineError(f"{self.spec.name} declares no multipv parameter: it analyses one line")
        found: Dict[int, Info] = {}
        self._analysis = self._hub.analysis(board, Limit(depth=max_depth))
        try:
            for info in self._analysis:
                if self._stopped.is_set():
                    break
                if info.score is None or not info.pv:
                    continue
                if info.multipv == 1:
                    found.clear()
                elif 1 not in found or found[1].depth != info.depth:
                    continue  # a line of another depth (after a stop)
                found[info.multipv] = info
                if len(found) == n:
                    on_report(_report([found[k] for k in sorted(found)]))
                    if info.depth >= max_depth:
                        break
        finally:
            a, self._analysis = self._analysis, None
            a.stop()
            try:
                a.wait()
            except EngineError:
                pass

    def stop(self) -> None:
        """Stop the running search or analysis (from another thread)."""
        self._stopped.set()
        if self._engine is not None:
            self._engine.stop()
        elif self._analysis is not None:
            try:
                self._analysis.stop()
            except EngineError:
                pass
        elif self._hub is not None:
            self._stop_hub_move()

    def _stop_hub_move(self, tries: int = 200) -> None:
        """A Hub engine thinking on a move is asked for it at once (HubEngine.stop);
        a move asked for but not yet begun (its rules still being set) is
        stopped as soon as it begins: tried again every 50 ms, 10 s at most."""
        hub = self._hub
        if hub is None or not self._playing or not self._stopped.is_set():
            return
        if hub.busy == "play":
            try:
                hub.stop()
            except EngineError:
                pass
        elif tries > 0:
            timer = threading.Timer(0.05, self._stop_hub_move, (tries - 1,))
            timer.daemon = True
            timer.start()

    def close(self) -> None:
        """End the engine: a Hub program is told to quit and killed if it does not."""
        self.stop()
        dxp, self._dxp = self._dxp, None
        if dxp is not None:
            try:
                dxp.quit()
            except Exception:
                pass
        if self._hub is not None:
            try:
                self._hub.quit(timeout=1.0)
            except Exception:
                pass
            self._hub = None


def _report(lines: List[Info]) -> Report:
    """A Report of one depth's lines (best first), the depth, nodes and time the first's."""
    first = lines[0]
    return Report(
        first.depth,
        first.nodes,
        first.nps,
        first.time or 0.0,
        [Line(rank, float(i.score or 0.0), list(i.pv), i.win_in) for rank, i in enumerate(lines, start=1)],
    )


def by_name(specs: Sequence[EngineConfig], name: str) -> EngineConfig:
    for s in specs:
        if s.name == name:
            return s
    raise InvalidInputError(f"no engine named {name!r} (known: {', '.join(s.name for s in specs)})")

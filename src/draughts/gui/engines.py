"""The GUI's one door to the engines: every engine call of `draughts gui` is
made here, so that a change of the engine API is a change of this module.

An `EngineSpec` names an engine the page may pick: our own engine in this
process (`builtin`), a Hub program or a DXP engine (international draughts
only; DXP has no analysis) named on the command line or in the config file.  `GuiEngine` plays moves and analyses positions with either,
blocking (the server calls it on a worker thread) and reporting what the
search finds through a callback as it goes.

Multi-PV: the engine API has no multi-PV search yet, so `analyse` with
multipv > 1 uses the adapter's fallback, `_multipv_fallback`: at each depth
every root move's resulting position is searched one ply less deep and the
N best (score = - the child's score) are reported.
"""

from __future__ import annotations

import shlex
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from draughts.board import Board, Move
from draughts.engine import LEVEL_MAX, Engine
from draughts.errors import DraughtsError
from draughts.limits import Limit
from draughts.variants import Variant

#: the deepest an analysis goes before it ends by itself
ANALYSIS_DEPTH_MAX = 40
#: MiB of transposition table of an in-process engine
TT_MB = 16
PROTOS = ("builtin", "hub", "dxp")
#: the longest a Hub engine searches one root move's position in the multi-PV
#: fallback (a Hub engine's move cannot be cut short but by `stop`)
HUB_CHILD_TIME = 1.0
#: seconds of a DXP game's clock per second a move (DXP has no time a move)
DXP_MOVES = 75


@dataclass(frozen=True)
class EngineSpec:
    """An engine the page may pick."""

    name: str
    proto: str = "builtin"
    command: Tuple[str, ...] = ()
    dir: Optional[str] = None
    #: a DXP engine's address (proto "dxp"); `command`, if any, starts it
    host: str = ""
    port: int = 0

    def to_json(self) -> dict:
        return {"name": self.name, "proto": self.proto}


BUILTIN = EngineSpec("draughts", "builtin")


def parse_engine_arg(text: str) -> EngineSpec:
    """`NAME=CMD` of the command line (CMD split like a shell): a Hub engine;
    `NAME=dxp://HOST:PORT`: a DXP engine listening there."""
    if "=" not in text:
        raise DraughtsError(f"--engine takes NAME=COMMAND, not {text!r}")
    name, cmd = text.split("=", 1)
    name = name.strip()
    if cmd.startswith("dxp://"):
        host, _, port = cmd[len("dxp://"):].rpartition(":")
        if not name or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise DraughtsError(f"--engine takes NAME=dxp://HOST:PORT, not {text!r}")
        return EngineSpec(name, "dxp", host=host, port=int(port))
    try:
        argv = tuple(shlex.split(cmd))
    except ValueError as e:
        raise DraughtsError(f"--engine {name}: {e}") from None
    if not name or not argv:
        raise DraughtsError(f"--engine takes NAME=COMMAND, not {text!r}")
    return EngineSpec(name, "hub", argv)


def specs_from_config(data) -> List[EngineSpec]:
    """The engines of a config file: {"engines": [{"name", "cmd", "dir"?, "proto"?}]}
    where cmd is a list of arguments or a string split like a shell would."""
    if not isinstance(data, dict) or not isinstance(data.get("engines", []), list):
        raise DraughtsError('the config file holds {"engines": [{"name": ..., "cmd": ...}, ...]}')
    out = []
    for item in data.get("engines", []):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not (
                item.get("cmd") or item.get("proto") == "dxp"):
            raise DraughtsError(f"config: an engine needs a name and a cmd, not {item!r}")
        cmd = item.get("cmd") or ()
        argv = tuple(shlex.split(cmd)) if isinstance(cmd, str) else tuple(str(a) for a in cmd)
        proto = item.get("proto", "hub")
        if proto == "dxp":
            port = item.get("port", 27531)
            if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
                raise DraughtsError(f"config: engine {item['name']}: port must be 1-65535")
            out.append(EngineSpec(item["name"], "dxp", argv, item.get("dir"), str(item.get("host", "127.0.0.1")),
                                  port))
            continue
        if proto != "hub":
            raise DraughtsError(f"config: engine {item['name']}: proto {proto!r} is not one the GUI drives "
                                f"(hub, dxp)")
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


@dataclass
class Played:
    move: Move
    score: Optional[float]
    depth: Optional[int]
    pv: List[Move]


OnReport = Callable[[Report], None]


class GuiEngine:
    """One engine for one page: our own in-process engine or a Hub program.
    Calls block; `stop()` may be called from another thread."""

    def __init__(self, spec: EngineSpec, variant: Variant, *, level: int = LEVEL_MAX):
        self.spec = spec
        self.level = level
        self._stopped = threading.Event()
        #: a Hub engine's move is being asked for (see _stop_hub_move)
        self._playing = False
        self._hub: Any = None
        self._analysis: Any = None
        self._engine: Optional[Engine] = None
        if spec.proto == "builtin":
            self._engine = Engine(variant, tt_mb=TT_MB, level=level)
        elif spec.proto == "hub":
            from draughts.hub import HubEngine
            self._hub = HubEngine(list(spec.command), cwd=spec.dir)
        elif spec.proto == "dxp":
            self._dxp: Any = None
            self._dxp_line: Tuple[str, List[Move]] = ("", [])
            self._dxp_movetime = 0.0
        else:
            raise DraughtsError(f"unknown engine kind {spec.proto!r}")

    @property
    def pid(self) -> Optional[int]:
        if self.spec.proto == "dxp":
            process = getattr(self._dxp, "_process", None)
            return process.pid if process is not None else None
        return self._hub.pid if self._hub is not None else None

    def set_level(self, level: int) -> None:
        """Strength 1-20 (our engine; a Hub engine plays at its own)."""
        self.level = level
        if self._engine is not None:
            self._engine.set_level(level)

    def new_game(self) -> None:
        if self._engine is not None:
            self._engine.new_game()
        elif self._hub is not None:
            self._hub.new_game()
        elif self.spec.proto == "dxp":
            self._dxp_line = ("", [])

    def _dxp_play(self, board: Board, limit: Limit, timeout: Optional[float]) -> Played:
        """A DXP engine's move: a game (GAMEREQ) from the board's start, its
        moves sent as they come; a new game whenever the board does not go
        on from the moves the engine knows (a take-back, a new position)."""
        from draughts.dxp.player import DxpPlayer
        from draughts.match.engines import EngineConfig
        from draughts.match.timecontrol import TimeControl
        if board.variant.name != "international" or not board.variant.mandatory_capture:
            raise DraughtsError(f"engine {self.spec.name}: DXP plays international draughts only")
        movetime = limit.movetime or 1.0
        if self._dxp is not None and (not self._dxp.running() or movetime != self._dxp_movetime):
            self._dxp.close()
            self._dxp = None
        if self._dxp is None:
            config = EngineConfig(self.spec.name, self.spec.command[0] if self.spec.command else "",
                                  tuple(self.spec.command[1:]), self.spec.dir, "dxp",
                                  tc=TimeControl(time=movetime * DXP_MOVES), host=self.spec.host,
                                  port=self.spec.port)
            self._dxp = DxpPlayer(config, board.variant)
            self._dxp_movetime = movetime
            self._dxp_line = ("", [])
        root = board.root().fen()
        known_root, known = self._dxp_line
        if root != known_root or board.move_stack[:len(known)] != known or not known_root:
            self._dxp.new_game(board.variant)
        reply = self._dxp.play(board, limit, timeout if timeout is not None else 10.0)
        self._dxp_line = (root, list(board.move_stack) + [reply.move])
        return Played(reply.move, None, None, [reply.move])

    # --- playing -------------------------------------------------------------
    def play(self, board: Board, limit: Limit, on_report: Optional[OnReport] = None,
             timeout: Optional[float] = None) -> Played:
        """The engine's move in the board's position (a Hub engine's answer is
        awaited `timeout` seconds beyond the limit's time)."""
        self._stopped.clear()
        if self._engine is not None:
            def on_info(i):
                if on_report is not None:
                    on_report(Report(i.depth, i.nodes, i.nps, i.time, [Line(1, i.score, list(i.pv), i.win_in)]))
            self._engine.arm()
            if self._stopped.is_set():
                self._engine.stop()
            r = self._engine.search(board, limit, on_info=on_info, arm=False)
            if r.move is None:
                raise DraughtsError("the engine found no move")
            return Played(r.move, r.score, r.depth, list(r.pv))
        if self.spec.proto == "dxp":
            return self._dxp_play(board, limit, timeout)
        self._playing = True
        try:
            res = self._hub.play(board, limit, timeout=timeout)
        finally:
            self._playing = False
        facts: Dict[str, Any] = res.info or {}
        score = facts.get("score")
        pv: List[Move] = facts["pv"] if isinstance(facts.get("pv"), list) else [res.move]
        if on_report is not None and isinstance(score, (int, float)):
            on_report(_report(facts, float(score), pv))
        depth = facts.get("depth")
        return Played(res.move, float(score) if isinstance(score, (int, float)) else None,
                      depth if isinstance(depth, int) else None, pv)

    # --- analysing -----------------------------------------------------------
    def analyse(self, board: Board, multipv: int, on_report: OnReport,
                max_depth: int = ANALYSIS_DEPTH_MAX) -> None:
        """Analyse until stop() or max_depth, reporting each depth's best lines."""
        self._stopped.clear()
        if self.spec.proto == "dxp":
            raise DraughtsError(f"{self.spec.name} is a DXP engine: DXP has no analysis")
        if not board.legal_moves:
            return
        n = max(1, min(multipv, board.legal_moves.count()))
        if n > 1:
            self._multipv_fallback(board, n, on_report, max_depth)
            return
        if self._engine is not None:
            def on_info(i):
                on_report(Report(i.depth, i.nodes, i.nps, i.time, [Line(1, i.score, list(i.pv), i.win_in)]))
            self._engine.set_level(LEVEL_MAX)
            self._engine.arm()
            if self._stopped.is_set():
                return
            try:
                self._engine.search(board, Limit(depth=max_depth), on_info=on_info, arm=False)
            finally:
                self._engine.set_level(self.level)
            return
        self._analysis = self._hub.analyse(board, Limit(depth=max_depth))
        try:
            for facts in self._analysis:
                if self._stopped.is_set():
                    break
                score = facts.get("score")
                if not isinstance(score, (int, float)) or not facts.get("pv"):
                    continue
                on_report(_report(facts, float(score), list(facts["pv"])))
        finally:
            a, self._analysis = self._analysis, None
            a.stop()
            try:
                a.wait()
            except Exception:
                pass

    def _child_search(self, child: Board, depth: int) -> Tuple[float, List[Move], int, Optional[int]]:
        """(score for the side to move in `child`, its line, nodes, plies to the end)."""
        if self._engine is not None:
            self._engine.arm()
            if self._stopped.is_set():
                return 0.0, [], 0, None
            r = self._engine.search(child, Limit(depth=depth), arm=False)
            return r.score, list(r.pv), r.nodes, r.win_in
        res = self._hub.play(child, Limit(depth=depth, movetime=HUB_CHILD_TIME))
        facts: Dict[str, Any] = res.info or {}
        score = facts.get("score")
        pv: List[Move] = facts["pv"] if isinstance(facts.get("pv"), list) else [res.move]
        return (float(score) if isinstance(score, (int, float)) else 0.0, pv,
                int(facts.get("nodes") or 0), facts.get("win_in"))

    def _multipv_fallback(self, board: Board, n: int, on_report: OnReport, max_depth: int) -> None:
        """The adapter's multi-PV until the engine has its own: every root
        move's position searched at depth - 1, the n best reported."""
        clock = Engine.clock
        t0 = clock()
        nodes = 0
        if self._engine is not None:
            self._engine.set_level(LEVEL_MAX)
        try:
            for depth in range(2, max_depth + 1):
                scored = []
                for move in board.legal_moves:
                    if self._stopped.is_set():
                        return
                    child = board.copy()
                    child.push(move)
                    outcome = child.outcome()
                    if outcome is not None:
                        end: Optional[int] = None
                        if outcome.winner is None:
                            score = 0.0
                        else:
                            won = outcome.winner == board.turn
                            score, end = (99.99, 1) if won else (-99.99, -1)
                        scored.append(Line(0, score, [move], end))
                        continue
                    s, pv, k, win = self._child_search(child, depth - 1)
                    if self._stopped.is_set():
                        return
                    nodes += k
                    # plies to the end from the root: one more than from the child
                    root_win = None if win is None else -win + (1 if win < 0 else -1)
                    scored.append(Line(0, -s, [move] + pv, root_win))
                scored.sort(key=lambda line: -line.score)
                best = scored[:n]
                for rank, line in enumerate(best, start=1):
                    line.multipv = rank
                t = clock() - t0
                on_report(Report(depth, nodes, nodes / t if t > 0 else 0.0, t, best))
        finally:
            if self._engine is not None:
                self._engine.set_level(self.level)

    def stop(self) -> None:
        """Stop the running search or analysis (from another thread)."""
        self._stopped.set()
        if self._engine is not None:
            self._engine.stop()
        elif self._analysis is not None:
            try:
                self._analysis.stop()
            except Exception:
                pass
        elif self._hub is not None:
            self._stop_hub_move()

    def _stop_hub_move(self) -> None:
        """A Hub engine thinking on a move (`go think`) is sent `stop`, which it
        answers with its move at once; a move asked for but not yet begun is
        stopped as soon as it begins.  HubEngine has no call for it (it stops
        analyses only), so the line goes through its client's loop."""
        hub = self._hub
        inner = getattr(hub, "_engine", None)
        thread = getattr(hub, "_thread", None)
        if inner is None or thread is None or not self._playing:
            return
        loop = thread.loop
        tries = [200]                               # 10 s at most

        def send_stop():
            if not self._playing or not self._stopped.is_set():
                return
            if inner._busy == "play":
                try:
                    inner._send("stop")
                except Exception:
                    pass
            elif tries[0] > 0:
                tries[0] -= 1
                loop.call_later(0.05, send_stop)
        try:
            loop.call_soon_threadsafe(send_stop)
        except RuntimeError:                        # its loop has closed
            pass

    def close(self) -> None:
        """End the engine: a Hub program is told to quit and killed if it does not."""
        self.stop()
        dxp = getattr(self, "_dxp", None)
        if dxp is not None:
            self._dxp = None
            try:
                dxp.close()
            except Exception:
                pass
        if self._hub is not None:
            try:
                self._hub.quit(timeout=1.0)
            except Exception:
                pass
            self._hub = None


def _report(facts: Dict[str, Any], score: float, pv: List[Move]) -> Report:
    """A Report of a Hub engine's `info` values."""
    return Report(int(facts.get("depth") or 0), int(facts.get("nodes") or 0), float(facts.get("nps") or 0.0),
                  float(facts.get("time") or 0.0), [Line(1, score, pv, facts.get("win_in"))])


def start_engine(spec: EngineSpec, variant: Variant, level: int = LEVEL_MAX) -> GuiEngine:
    return GuiEngine(spec, variant, level=level)


def by_name(specs: Sequence[EngineSpec], name: str) -> EngineSpec:
    for s in specs:
        if s.name == name:
            return s
    raise DraughtsError(f"no engine named {name!r} (known: {', '.join(s.name for s in specs)})")


class MatchPlayer:
    """A player of the match runner's referee (`draughts.match.game.play_game`:
    name, alive, new_game, play -> Reply, close) that is a GuiEngine, so that
    the page sees its lines as it thinks (`on_report(name, report)`)."""

    def __init__(self, spec: EngineSpec, name: str, variant: Variant, level: int,
                 on_report: Callable[[str, Report], None]):
        from draughts.hub.errors import EngineTerminatedError
        self.name = name
        self._crashed = EngineTerminatedError
        try:
            self._engine = GuiEngine(spec, variant, level=level)
        except DraughtsError:
            raise
        except Exception as e:
            raise EngineTerminatedError(f"cannot start {name}: {e}") from None
        self._on_report = on_report
        self.alive = True

    def new_game(self, variant: Variant) -> None:
        self._engine.new_game()

    def play(self, board: Board, limit: Limit, grace: float):
        from draughts.match.engines import Reply
        if not self.alive:
            raise self._crashed(f"engine {self.name} was closed (the match is stopping)")
        t0 = Engine.clock()
        played = self._engine.play(board, limit, lambda r: self._on_report(self.name, r), timeout=grace)
        elapsed = Engine.clock() - t0
        if not self.alive:
            raise self._crashed(f"engine {self.name} was closed (the match is stopping)")
        return Reply(played.move, elapsed, played.score, played.depth, played.move.hub())

    def close(self) -> None:
        self.alive = False
        self._engine.close()

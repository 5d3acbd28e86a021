"""Engine settings (`-engine`/`-each` in cutechess-cli's words) and the
players the referee talks to.

A player is anything with `name`, `alive`, `new_game(variant)`, `play(board,
limit, grace) -> Reply` and `close()`; `limit` is a `draughts.Limit`, `grace`
is how long to wait past the time the limit grants (with no time in the
limit: for each line) before the engine counts as stalled.  `play` raises the
engine errors of `draughts.errors`, one family for every protocol:
`EngineTerminatedError` (the engine died), `EngineTimeoutError` (no answer in
time), `EngineOvertimeError` (lines but no move in time), `EngineProtocolError`
(a move that is not legal or not readable, with the line it sent) or
`EngineNoMoveError` (a `done` without a move).  The referee checks
the move again on its own board whatever the player says.

Players:
  * `HubPlayer`: any Hub protocol program (`proto=hub`), through
    `draughts.hub.HubEngine`.
  * `InProcessPlayer`: our own engine in the runner's process
    (`proto=builtin`), with no process to start: quick, for tests and for
    the built-in default pairing.
  * `Hub1Player`: a Hub version 1 program such as Scan 2.0 (`proto=hub1`),
    through `draughts.hub.hub1.Hub1Engine`; international draughts only.
  * `draughts.dxp.player.DxpPlayer`: a DXP (DamExchange) engine over TCP
    (`proto=dxp host=H port=P`, `cmd=` to start it), 10x10 only.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple, Union

from draughts._args import parse_bool, parse_int, parse_real
from draughts import hub
from draughts.board import Board, Move
from draughts.engine import LEVEL_MAX, Engine, ProbCutFit
from draughts.hub.hub1 import Hub1Engine
from draughts.hub.protocol import engine_variant_name
from draughts.limits import Limit
from draughts.errors import (EngineError, EngineNoMoveError, EngineOvertimeError, EngineProtocolError,
                             EngineTerminatedError, EngineTimeoutError, InvalidInputError)
from draughts.match.timecontrol import TimeControl, parse_seconds, parse_tc
from draughts.variants import Variant

PROTOCOLS = ("hub", "hub1", "builtin", "dxp")
#: seconds to wait past the time available before an engine counts as stalled
STALL_GRACE = 2.0
#: seconds to wait for a move when nothing bounds the search in time (depth/nodes only)
UNBOUNDED_TIMEOUT = 120.0
#: seconds an engine may take to start (`hub` ... `ready`)
STARTUP_TIMEOUT = 30.0


@dataclass
class Reply:
    move: Move
    elapsed: float
    score: Optional[float] = None      # men, from the mover's side
    depth: Optional[int] = None
    text: str = ""
    #: seconds beyond the engine's own reported time (None: it reported none)
    latency: Optional[float] = None


@dataclass(frozen=True)
class EngineConfig:
    name: str = ""
    cmd: str = ""
    args: Tuple[str, ...] = ()
    dir: Optional[str] = None
    proto: str = "hub"
    options: Tuple[Tuple[str, str], ...] = ()
    tc: TimeControl = field(default_factory=TimeControl)
    restart: bool = False
    #: seconds to wait for a move when neither a clock nor st= bounds it
    timeout: float = UNBOUNDED_TIMEOUT
    #: proto=dxp: where the engine listens
    host: str = ""
    port: int = 0

    def command(self) -> List[str]:
        """The command line to start, `draughts` resolving to this Python's
        own package when no `draughts` program is on the PATH."""
        if self.cmd == "draughts" and shutil.which("draughts") is None:
            return [sys.executable, "-m", "draughts", *self.args]
        return [self.cmd, *self.args]

    def option_dict(self) -> Dict[str, str]:
        return dict(self.options)

    def to_json(self) -> Dict:
        return {"name": self.name, "cmd": self.cmd, "args": list(self.args), "dir": self.dir,
                "proto": self.proto, "options": [list(o) for o in self.options],
                "tc": self.tc.to_json(), "restart": self.restart, "timeout": self.timeout,
                "host": self.host, "port": self.port}

    @classmethod
    def from_json(cls, d: Dict) -> "EngineConfig":
        return cls(d["name"], d["cmd"], tuple(d["args"]), d.get("dir"), d["proto"],
                   tuple((k, v) for k, v in d["options"]), TimeControl.from_json(d["tc"]),
                   bool(d["restart"]), float(d.get("timeout", UNBOUNDED_TIMEOUT)), d.get("host", ""),
                   int(d.get("port", 0)))


def split_token(token: str) -> Tuple[str, str]:
    if "=" not in token:
        raise InvalidInputError(f"engine setting {token!r} is not key=value")
    key, value = token.split("=", 1)
    return key.strip(), value


ENGINE_KEYS = ("name", "cmd", "arg", "dir", "proto", "tc", "st", "depth", "nodes", "timemargin",
               "restart", "timeout", "host", "port")


def parse_engine(tokens: Sequence[str], each: Sequence[str] = ()) -> EngineConfig:
    """An EngineConfig from `-each` tokens then the engine's own (which win)."""
    values: Dict[str, str] = {}
    args: List[str] = []
    each_args: List[str] = []
    options: Dict[str, str] = {}
    own_keys = set()
    for source, arg_list in ((each, each_args), (tokens, args)):
        own = source is tokens
        for token in source:
            key, value = split_token(token)
            if key.startswith("option."):
                name = key[len("option."):]
                if not name:
                    raise InvalidInputError(f"{token!r}: option.NAME=VALUE needs a name")
                options[name] = value
            elif key == "arg":
                arg_list.append(value)
            elif key in ENGINE_KEYS:
                other = "st" if key == "tc" else "tc"
                if own and key in ("tc", "st") and other not in own_keys:
                    values.pop(other, None)           # the engine's own clock replaces -each's
                if own:
                    own_keys.add(key)
                values[key] = value
            else:
                raise InvalidInputError(f"unknown engine setting {key!r} (known: {', '.join(ENGINE_KEYS)}, option.NAME)")
    proto = values.get("proto", "hub").strip().lower()
    if proto not in PROTOCOLS:
        raise InvalidInputError(f"proto={proto!r}: this runner speaks {' and '.join(PROTOCOLS)}")
    cmd = values.get("cmd", "")
    if proto == "hub" and not cmd:
        raise InvalidInputError("an engine needs cmd= (our own engine: cmd=draughts arg=hub)")
    if proto == "hub1" and not cmd:
        raise InvalidInputError("a proto=hub1 engine needs cmd= (Scan 2.0: cmd=./scan arg=hub dir=SCAN_DIR)")
    if proto == "hub1" and "nodes" in values:
        raise InvalidInputError("nodes= is not for proto=hub1 engines (Hub version 1 has no node limit)")
    tc_fields: Dict = {}
    if "tc" in values:
        tc_fields.update(parse_tc(values["tc"]))
    if "st" in values:
        st = parse_seconds(values["st"], "st")
        if st <= 0:
            raise InvalidInputError("st= must be more than 0 seconds")
        if tc_fields.get("time"):
            raise InvalidInputError("an engine takes tc= or st=, not both")
        tc_fields["movetime"] = st
    if "depth" in values:
        tc_fields["depth"] = parse_int(values["depth"], "depth=", low=1)
    if "nodes" in values:
        tc_fields["nodes"] = parse_int(values["nodes"], "nodes=", low=1)
    if "timemargin" in values:
        tc_fields["margin"] = parse_int(values["timemargin"], "timemargin=", low=0) / 1000.0
    tc = TimeControl(**tc_fields)
    if not tc.bounded and proto != "builtin":
        raise InvalidInputError("an engine needs a limit: tc=, st=, depth= or nodes= (tc=inf only with depth= or nodes=)")
    timeout = UNBOUNDED_TIMEOUT
    if "timeout" in values:
        timeout = parse_seconds(values["timeout"], "timeout")
    name = values.get("name") or (os.path.basename(cmd) if cmd else "draughts")
    if proto == "hub" and cmd == "draughts" and not values.get("name"):
        name = "draughts"
    restart = parse_bool(values["restart"], "restart=") if "restart" in values else False
    all_args = tuple(each_args + args) if args or each_args else ()
    host, port = _dxp_address(proto, values)
    if proto == "dxp" and not values.get("name"):
        name = os.path.basename(cmd) if cmd else f"dxp@{host or '127.0.0.1'}:{port or 27531}"
    return EngineConfig(name, cmd, all_args, values.get("dir"), proto, tuple(options.items()), tc,
                        restart, timeout, host, port)


def _dxp_address(proto: str, values: Dict[str, str]) -> Tuple[str, int]:
    """host= and port= of a DXP engine (they mean nothing to the others)."""
    if proto != "dxp":
        for key in ("host", "port"):
            if key in values:
                raise InvalidInputError(f"{key}= is for proto=dxp engines")
        return "", 0
    port = parse_int(values["port"], "port=", low=1, high=65535) if "port" in values else 0
    return values.get("host", "").strip(), port


def unique_names(configs: Sequence[EngineConfig]) -> List[EngineConfig]:
    """Engines of one name get `-2`, `-3`... so that results can tell them apart."""
    seen: Dict[str, int] = {}
    out = []
    taken = {c.name for c in configs}
    for c in configs:
        n = seen.get(c.name, 0) + 1
        seen[c.name] = n
        if n > 1:
            new = f"{c.name}-{n}"
            while new in taken:
                n += 1
                new = f"{c.name}-{n}"
            taken.add(new)
            c = replace(c, name=new)
        out.append(c)
    return out


def stall_grace(tc: TimeControl, available: Optional[float], config: EngineConfig) -> float:
    """Seconds to wait for a move past the time available (or, with no time
    limit, for each line of the engine) before it counts as stalled."""
    if available is None:
        return config.timeout
    return tc.margin + max(STALL_GRACE, 0.5 * available)


# --- players -----------------------------------------------------------------

def parse_probcut(name: str, text: str) -> Union[None, str, ProbCutFit]:
    """`option.probcut`: off, auto, or the seven figures of a ProbCutFit."""
    if text in ("off", "auto"):
        return None if text == "off" else "auto"
    parts = text.split(",")
    try:
        if len(parts) != 7:
            raise ValueError("seven figures")
        md, pct, slope, icpt, sigma, s1, t = parts
        return ProbCutFit(parse_int(md), parse_int(pct), parse_real(slope), parse_int(icpt), parse_real(sigma),
                          parse_real(s1), parse_real(t))
    except ValueError:
        raise InvalidInputError(f"engine {name}: option.probcut is off, auto or MIN,PCT,SLOPE,ICPT,SIGMA,"
                            f"SIGMA_PER_PLY,T, not {text!r}") from None


class InProcessPlayer:
    """Our engine in this process (`proto=builtin`); `option.level=N`,
    `option.tt-size=M`, `option.eval=classic|learned`, `option.eval-file=F`
    (a learned weights file), `option.threads=T` (default: the `threads` the
    runner gives, see make_player), `option.futility=CENTIMEN` (the
    futility margin a ply, 0 off; for tuning) and `option.probcut=off|auto|
    MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T` (ProbCut's figures, see
    `draughts.engine.ProbCutFit`; for tuning) are honoured."""

    def __init__(self, config: EngineConfig, variant: Variant, threads: Optional[int] = None):
        opts = config.option_dict()
        try:
            level = parse_int(str(opts.get("level", LEVEL_MAX)), "option.level=")
            tt = parse_int(str(opts.get("tt-size", 16)), "option.tt-size=")
            threads = parse_int(str(opts["threads"]), "option.threads=") if "threads" in opts else (threads or 1)
        except ValueError as e:
            raise InvalidInputError(f"engine {config.name}: {e}") from None
        self.name = config.name
        self.config = config
        ev = opts.get("eval", "auto")
        self._engine = Engine(variant, tt_mb=tt, level=level, eval=None if ev == "auto" else ev,
                              weights_file=opts.get("eval-file"), threads=threads)
        if "futility" in opts:
            try:
                self._engine.set_tuning(futility=parse_int(opts["futility"], "option.futility="))
            except ValueError as e:
                raise InvalidInputError(f"engine {config.name}: {e}") from None
        if "probcut" in opts:
            self._engine.set_probcut(parse_probcut(config.name, opts["probcut"]))
        self.alive = True

    def new_game(self, variant: Variant) -> None:
        self._engine.set_variant(variant)
        self._engine.new_game()

    def play(self, board: Board, limit: Limit, grace: float) -> Reply:
        if not self.alive:
            raise EngineTerminatedError(f"engine {self.name} was closed (the match is stopping)")
        t0 = time.perf_counter()
        result = self._engine.search(board, limit)
        elapsed = time.perf_counter() - t0
        if not self.alive:
            raise EngineTerminatedError(f"engine {self.name} was closed (the match is stopping)")
        if result.move is None:
            raise EngineNoMoveError("the engine found no move")
        return Reply(result.move, elapsed, result.score, result.depth, result.move.hub(),
                     elapsed - result.time)

    def close(self) -> None:
        """Stop a search under way (another thread may be playing a game with
        this engine) and refuse to play on: a stopping match does not wait for
        its in-process games to end."""
        self.alive = False
        self._engine.stop()


class HubPlayer:
    """A Hub protocol engine in its own process, driven by `draughts.hub.HubEngine`.
    The `option.NAME=VALUE` settings are sent with `set-param` before `init`;
    so is `threads` (the processors the runner gives each engine, see
    make_player) when the engine declares it and no option sets it."""

    #: the client class that drives the engine
    _client = hub.HubEngine

    def __init__(self, config: EngineConfig, variant: Variant, threads: Optional[int] = None):
        self.name = config.name
        self.config = config
        self.alive = False
        command = config.command()
        params = config.option_dict()
        try:
            self._engine = self._client(command, cwd=config.dir, params=params,
                                        startup_timeout=STARTUP_TIMEOUT, timeout=10.0,
                                        time_margin=config.tc.margin,
                                        defaults={"threads": threads} if threads else None)
        except EngineTerminatedError as e:
            raise EngineTerminatedError(f"cannot start {' '.join(command)}: {e}") from None
        except EngineTimeoutError as e:
            raise EngineTimeoutError(f"{' '.join(command)} did not finish its start-up: {e}") from None
        except EngineError as e:
            raise InvalidInputError(f"engine {config.name}: {e}") from None
        self.alive = True
        self._check_variant(variant)

    def _check_variant(self, variant: Variant) -> None:
        p = self._engine.params.get("variant")
        names = p.values if p is not None else ["international"]
        if engine_variant_name(variant, names) is None:
            self.close()
            raise InvalidInputError(f"engine {self.name} does not play {variant.name} "
                                f"(it plays {', '.join(sorted(names))})")

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

    def play(self, board: Board, limit: Limit, grace: float) -> Reply:
        result = self._call(self._engine.play, board, limit, timeout=grace)
        info = result.info or {}
        score = info.get("score")
        depth = info.get("depth")
        return Reply(result.move, float(result.elapsed),
                     float(score) if isinstance(score, (int, float)) else None,
                     int(depth) if isinstance(depth, int) else None, result.move.hub(), result.latency)

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

    _client = Hub1Engine

    def _check_variant(self, variant: Variant) -> None:
        if variant.name != "international":
            self.close()
            raise InvalidInputError(f"engine {self.name}: a Hub version 1 engine plays international draughts "
                                f"only, not {variant.name}")


def make_player(config: EngineConfig, variant: Variant, threads: Optional[int] = None):
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
        from draughts.dxp.player import DxpPlayer
        return DxpPlayer(config, variant)
    if config.proto == "hub1":
        return Hub1Player(config, variant, threads)
    return HubPlayer(config, variant, threads)

"""Engine settings (`-engine`/`-each` in cutechess-cli's words): `EngineConfig`,
read by `parse_engine`; `open_engine`, which turns settings into a running
engine; the fault names the referee uses for the engine protocol's errors;
the grace a move is given.

`open_engine` is the one place where an engine specification becomes an
engine, for every user: the match runner's players
(`draughts.match.players`), the GUI (`draughts.gui.engines`) and Python:

    >>> import draughts
    >>> config = parse_engine(["proto=builtin", "depth=2", "option.level=10"])
    >>> engine = open_engine(config, draughts.variant("american"))
    >>> engine.play(draughts.Board(variant="american"), draughts.Limit(depth=2)).move is not None
    True
    >>> engine.quit()

What it returns satisfies `draughts.engine_api.EngineProtocol`: our engine
in this process (`proto=builtin`: `draughts.Engine`), a Hub program
(`proto=hub`: `draughts.hub.HubEngine`), a Hub version 1 program
(`proto=hub1`: `draughts.hub.hub1.Hub1Engine`) or a DXP engine (`proto=dxp`:
`draughts.dxp.engine.DxpEngine`).
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field, fields, replace
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from draughts._args import parse_bool, parse_int
from draughts.dxp.engine import DEFAULT_PORT, DxpEngine
from draughts.engine import Engine

# the engine errors, re-exported here for the runner's players
from draughts.errors import (
    DraughtsError,
    EngineError,
    EngineNoMoveError,  # noqa: F401
    EngineOvertimeError,  # noqa: F401
    EngineProtocolError,  # noqa: F401
    EngineTerminatedError,
    EngineTimeoutError,
    InvalidInputError,
)
from draughts.hub.client import HubEngine
from draughts.hub.hub1 import Hub1Engine
from draughts.hub.protocol import engine_variant_name
from draughts.match.timecontrol import TimeControl, parse_seconds, parse_tc
from draughts.variants import Variant

PROTOCOLS = ("hub", "hub1", "builtin", "dxp")
#: seconds to wait past the time available before an engine counts as stalled
STALL_GRACE = 2.0
#: seconds to wait for a move when nothing bounds the search in time (depth/nodes only)
UNBOUNDED_TIMEOUT = 120.0
#: seconds an engine may take to start (`hub` ... `ready`)
STARTUP_TIMEOUT = 30.0
#: MiB of transposition table of an engine in this process
BUILTIN_TT_MB = 16

#: what `open_engine` returns
AnyEngine = Union[Engine, HubEngine, Hub1Engine, DxpEngine]


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
    #: the engine keeps its own opening book (`book=on`); off by default, so
    #: that balanced openings stay the test (a book parameter it declares is set to none)
    book: bool = False

    def command(self) -> List[str]:
        """The command line to start, `draughts` resolving to this Python's
        own package when no `draughts` program is on the PATH."""
        if self.cmd == "draughts" and shutil.which("draughts") is None:
            return [sys.executable, "-m", "draughts", *self.args]
        return [self.cmd, *self.args]

    def option_dict(self) -> Dict[str, str]:
        return dict(self.options)

    def to_json(self) -> Dict:
        """Every field (a new one cannot be forgotten by the state file)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = (
                value.to_json()
                if f.name == "tc"
                else [list(o) for o in value]
                if f.name == "options"
                else list(value)
                if f.name == "args"
                else value
            )
        return out

    @classmethod
    def from_json(cls, d: Dict) -> "EngineConfig":
        """The engine of a state file; a field it does not name keeps its default."""
        kwargs: Dict = {}
        for f in fields(cls):
            if f.name not in d:
                continue
            value = d[f.name]
            kwargs[f.name] = (
                TimeControl.from_json(value)
                if f.name == "tc"
                else tuple((k, v) for k, v in value)
                if f.name == "options"
                else tuple(value)
                if f.name == "args"
                else value
            )
        return cls(**kwargs)


def split_token(token: str) -> Tuple[str, str]:
    if "=" not in token:
        raise InvalidInputError(f"engine setting {token!r} is not key=value")
    key, value = token.split("=", 1)
    return key.strip(), value


ENGINE_KEYS = (
    "name",
    "cmd",
    "arg",
    "dir",
    "proto",
    "tc",
    "st",
    "depth",
    "nodes",
    "timemargin",
    "restart",
    "timeout",
    "host",
    "port",
    "book",
)


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
                name = key[len("option.") :]
                if not name:
                    raise InvalidInputError(f"{token!r}: option.NAME=VALUE needs a name")
                options[name] = value
            elif key == "arg":
                arg_list.append(value)
            elif key in ENGINE_KEYS:
                other = "st" if key == "tc" else "tc"
                if own and key in ("tc", "st") and other not in own_keys:
                    values.pop(other, None)  # the engine's own clock replaces -each's
                if own:
                    own_keys.add(key)
                values[key] = value
            else:
                raise InvalidInputError(
                    f"unknown engine setting {key!r} (known: {', '.join(ENGINE_KEYS)}, option.NAME)"
                )
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
        raise InvalidInputError(
            "an engine needs a limit: tc=, st=, depth= or nodes= (tc=inf only with depth= or nodes=)"
        )
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
    book = parse_bool(values["book"], "book=") if "book" in values else False
    return EngineConfig(
        name, cmd, all_args, values.get("dir"), proto, tuple(options.items()), tc, restart, timeout, host, port, book
    )


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


def _defaults(config: EngineConfig, threads: Optional[int]) -> Optional[Dict[str, Any]]:
    """The parameters set when a Hub engine declares them and no option sets
    them: the threads it is given, and its book off unless book=on."""
    out: Dict[str, Any] = {}
    if threads:
        out["threads"] = threads
    if not config.book:
        out["book"] = "none"
    return out or None


def open_engine(
    config: EngineConfig,
    variant: Optional[Variant] = None,
    *,
    threads: Optional[int] = None,
    startup_timeout: float = STARTUP_TIMEOUT,
) -> AnyEngine:
    """The running engine of `config` (see the module's text).

    `variant` is the variant it is to play, refused at once when the engine
    does not play it (None: the engine refuses a board it does not play when
    asked to move; our own engine then starts on international draughts).
    `threads` is how many processors it may search on (None: the engine's
    own default), set unless its options say.  A Hub engine is sent its
    `option.NAME=VALUE` settings before `init` (version 2: `set-param`,
    version 1: `set`) and must finish its start-up within `startup_timeout`
    seconds; its book is turned off unless `book=on` (see `EngineConfig.book`).
    A DXP engine is announced the `tc=` clock (`dxp_clock`) and started
    with `cmd=` when it has one.

    Errors: an engine that cannot start raises EngineTerminatedError or
    EngineTimeoutError naming its command; settings it refuses, or a variant
    it does not play, InvalidInputError.
    """
    if config.proto == "builtin":
        return _open_builtin(config, variant, threads)
    if config.proto == "dxp":
        return _open_dxp(config, variant)
    if config.proto in ("hub", "hub1"):
        return _open_hub(config, variant, threads, startup_timeout)
    raise InvalidInputError(f"proto={config.proto!r}: an engine speaks {', '.join(PROTOCOLS)}")


def _open_builtin(config: EngineConfig, variant: Optional[Variant], threads: Optional[int]) -> Engine:
    """Our engine in this process: `option.NAME=VALUE` are `Engine.configure`'s
    options; the table is BUILTIN_TT_MB MiB and the threads `threads` (else
    1) unless they say otherwise; its book the shipped one with book=on."""
    options: Dict[str, Any] = {"tt-size": BUILTIN_TT_MB, "threads": threads or 1, **config.option_dict()}
    options.setdefault("book", "auto" if config.book else "none")
    try:
        return Engine(variant if variant is not None else "international", tt_mb=1, options=options)
    except DraughtsError as e:
        raise InvalidInputError(f"engine {config.name}: {e}") from None


def _open_hub(
    config: EngineConfig, variant: Optional[Variant], threads: Optional[int], startup_timeout: float
) -> Union[HubEngine, Hub1Engine]:
    client = Hub1Engine if config.proto == "hub1" else HubEngine
    command = config.command()
    try:
        engine = client(
            command,
            cwd=config.dir,
            params=config.option_dict(),
            startup_timeout=startup_timeout,
            timeout=10.0,
            time_margin=config.tc.margin,
            defaults=_defaults(config, threads),
        )
    except EngineTerminatedError as e:
        raise EngineTerminatedError(f"cannot start {' '.join(command)}: {e}") from None
    except EngineTimeoutError as e:
        raise EngineTimeoutError(f"{' '.join(command)} did not finish its start-up: {e}") from None
    except EngineError as e:
        raise InvalidInputError(f"engine {config.name}: {e}") from None
    if variant is not None:
        refusal = _refusal(engine, variant)
        if refusal:
            try:
                engine.quit(timeout=1.0)
            except Exception:
                pass
            raise InvalidInputError(f"engine {config.name}{refusal}")
    return engine


def _refusal(engine: Union[HubEngine, Hub1Engine], variant: Variant) -> str:
    """Why a started Hub engine cannot play `variant` ("" when it can)."""
    if isinstance(engine, Hub1Engine):
        if variant.name != "international":
            return f": a Hub version 1 engine plays international draughts only, not {variant.name}"
        return ""
    p = engine.params.get("variant")
    names = p.values if p is not None else ["international"]
    if engine_variant_name(variant, names) is None:
        return f" does not play {variant.name} (it plays {', '.join(sorted(names))})"
    return ""


def _open_dxp(config: EngineConfig, variant: Optional[Variant]) -> DxpEngine:
    if variant is not None and variant.name != "international":
        raise InvalidInputError(f"engine {config.name}: DXP plays international draughts only, not {variant.name}")
    if config.options:
        raise InvalidInputError(f"engine {config.name}: a DXP engine takes no option.NAME= settings")
    minutes, moves = dxp_clock(config.tc)
    return DxpEngine(
        config.host or "127.0.0.1",
        config.port or DEFAULT_PORT,
        command=config.command() if config.cmd else None,
        cwd=config.dir,
        name=config.name,
        minutes=minutes,
        moves=moves,
        timeout=config.timeout,
    )


#: moves a DXP game is announced for when the engine plays at a fixed time a move (st=)
DXP_MOVES = 75


def dxp_clock(tc: TimeControl) -> Tuple[int, int]:
    """(minutes, moves) a DXP GAMEREQ announces for a time control: the clock
    in whole minutes (rounded up) and its move count; at a fixed time a
    move, DXP_MOVES moves at that time (at least a minute); with neither (a
    depth or node limit), no clock (0, 0).

        >>> dxp_clock(TimeControl(time=90, moves=40)), dxp_clock(TimeControl(movetime=1.0))
        ((2, 40), (2, 0))
    """
    if tc.has_clock:
        return math.ceil(tc.time / 60.0), tc.moves or 0
    if tc.movetime > 0:
        return max(1, math.ceil(tc.movetime * DXP_MOVES / 60.0)), 0
    return 0, 0

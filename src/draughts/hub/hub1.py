"""A client for engines of Hub version 1, the text protocol of Scan 2.0
(`scan hub`): `AsyncHub1Engine` (asyncio) and `Hub1Engine` (synchronous).

    >>> from draughts.hub.hub1 import Hub1Engine
    >>> with Hub1Engine(["./scan", "hub"], cwd="/opt/scan2",
    ...                 params={"book": False}) as engine:           # doctest: +SKIP
    ...     result = engine.play(draughts.Board(), Limit(movetime=1.0))

The dialect, one command a line, as this client speaks it:

    hub                   -> name ..., author ..., [country ...], wait
    set NAME VALUE        the engine's settings (Scan: its scan.ini names), before init
    init                  -> ready
    new                   a new game (answered by nothing: the client pings)
    pos <w|b><squares>    the side to move, then a letter a square (e w b W B);
                          it resets the search's limits, so they come after it
    move M                the moves played from there (the game's history, which
                          the engine needs for repetitions)
    time MS | level MOVES TIME_MS INC_MS | depth N
    go                    -> info DEPTH MEAN-DEPTH SCORE NODES TIME NPS PV...
                             (centi-men, seconds, millions of nodes a second), then
                             move M [PONDER]
    stop, ping -> pong, quit

Moves are written as in version 2 (`32-28`, `28x19x23` with every captured
square).  Lines the client does not know (a banner, Scan's `input "stop"`
echo) are skipped.  The errors, the `late` flag and `PlayResult` are those
of the version-2 client, so that a match runner referees both alike.

Time: a move time (`Limit.movetime`) is sent as `time` less `stop_margin`,
and a clock as `level` (the engine shares it out itself).  Scan's time
policy cannot stop a search before depth 12, so the client sends `stop`
itself: with a move time when the `time` it sent is up, with a clock once
half of what is left (with one move to the time control: 0.8 of it), less
the margin, has gone; then it takes the `move` that follows.  The `stop`
goes earlier by the time the move recently took to come after the planned
stop (`lag`: a loaded machine's delays on either side), so that it still
comes in time.

`AsyncHub1Engine` and the version-2 `draughts.hub.AsyncHubEngine` are
siblings over `draughts.hub.async_client.AsyncHubClient` (the transport,
the timeouts, ping, stop and quit), as `Hub1Engine` and `HubEngine` are
over `draughts.hub.client.HubClient`; each speaks its own dialect.
A depth is sent as `depth`; version 1 has no node limit.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from draughts._args import parse_real
from draughts.board import Board
from draughts.errors import (
    EngineCommandError,
    EngineError,
    EngineNoMoveError,
    EngineOvertimeError,
    EngineProtocolError,
    EngineTimeoutError,
    InvalidInputError,
)
from draughts.hub.async_client import LOG, AsyncHubClient
from draughts.hub.client import HubClient
from draughts.engine_api import Info, PlayResult
from draughts.hub.protocol import format_position, format_value, match_move, parse_info
from draughts.limits import Limit

__all__ = [
    "AsyncHub1Engine",
    "Hub1Engine",
    "STOP_MARGIN",
    "search_lines",
    "read_info",
    "position_lines",
    "planned_stop",
    "next_lag",
]

#: seconds before the end of a move's time at which the client sends `stop`
STOP_MARGIN = 0.03
#: the share of the clock (time left plus increment) after which a search is stopped
CLOCK_SHARE = 0.5
CLOCK_SHARE_LAST = 0.8  # with one move to go to the time control
#: the lag (see AsyncHub1Engine.lag) decays by this factor a stopped search, up to this many seconds
LAG_DECAY = 0.9
LAG_MAX = 0.5


def _ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000.0)))


def search_lines(limit: Limit, stop_margin: float = STOP_MARGIN) -> Tuple[List[str], Optional[float]]:
    """(the lines that set the search's limits, seconds after `go` at which
    the client sends `stop` or None).  ValueError for a node limit (version 1
    has none), an infinite search, or no limit.

    >>> search_lines(Limit(movetime=0.2))
    (['time 170'], 0.17)
    >>> search_lines(Limit(time=60, inc=1, depth=20))
    (['depth 20', 'level 0 60000 1000'], 30.47)
    """
    if limit.nodes is not None:
        raise ValueError("a Hub version 1 engine takes no node limit")
    if limit.infinite:
        raise ValueError("a Hub version 1 engine is not sent an infinite search")
    lines: List[str] = []
    stop_after: Optional[float] = None
    if limit.depth is not None:
        lines.append(f"depth {int(limit.depth)}")
    if limit.movetime is not None:
        t = float(limit.movetime)
        stop_after = max(0.001, t - min(stop_margin, 0.25 * t))
        lines.append(f"time {_ms(stop_after)}")
    elif limit.time is not None:
        inc = float(limit.inc or 0.0)
        mtg = limit.moves_to_go or 0
        lines.append(f"level {mtg} {_ms(limit.time)} {_ms(inc)}")
        usable = float(limit.time) + inc
        share = CLOCK_SHARE_LAST if mtg == 1 else CLOCK_SHARE
        stop_after = max(0.001, usable * share - min(stop_margin, 0.25 * usable))
    if not lines:
        raise ValueError("a Limit for a Hub version 1 engine needs a depth, a move time or a clock")
    if stop_after is not None:
        stop_after = round(stop_after, 6)
    return lines, stop_after


def planned_stop(stop_after: float, lag: float) -> float:
    """Seconds after `go` at which the client sends `stop`: `stop_after`
    (search_lines') earlier by the engine's recent `lag`, by at most a
    quarter of it.

    >>> planned_stop(0.27, 0.0), planned_stop(0.27, 0.01), round(planned_stop(0.27, 0.1), 4)
    (0.27, 0.26, 0.2025)
    """
    return max(0.001, stop_after - min(lag, 0.25 * stop_after))


def next_lag(lag: float, measured: float) -> float:
    """The lag after a stopped search whose move came `measured` seconds after
    the planned stop: that delay, or the last lag decayed by LAG_DECAY if it
    was more, at most LAG_MAX.

    >>> next_lag(0.0, 0.004), round(next_lag(0.1, 0.004), 6), next_lag(0.1, 0.2), next_lag(0.0, 3.0)
    (0.004, 0.09, 0.2, 0.5)
    """
    return min(LAG_MAX, max(measured, lag * LAG_DECAY))


def position_lines(board: Board) -> List[str]:
    """`pos` of the board's root (the start of its move stack), then a `move`
    line for each move played since."""
    text = format_position(board.root())
    lines = [f"pos {text[0].lower()}{text[1:]}"]
    lines += [f"move {m.hub()}" for m in board.move_stack]
    return lines


def read_info(words: Sequence[str], board: Optional[Board] = None) -> Info:
    """The `Info` of an `info DEPTH MEAN-DEPTH SCORE NODES TIME NPS PV...`
    line's words, read as version 2's: `score` in men, `time` in seconds,
    `nps` in nodes a second, `pv` as moves of `board`.  Words that are not
    numbers are left out.

    >>> info = read_info("13 15.4 -2 435186 0.08 5.5 34-30 17-21".split())
    >>> info.depth, info.score, info.nodes, info.time, info.nps
    (13, -0.02, 435186, 0.08, 5500000.0)
    """
    args: Dict[str, str] = {}
    for key, word in zip(("depth", "mean-depth", "score", "nodes", "time", "nps"), words):
        try:
            value = parse_real(word)
        except ValueError:
            continue
        if key == "score":
            args[key] = f"{value / 100.0:.2f}"
        else:
            args[key] = word
    if len(words) > 6:
        args["pv"] = " ".join(words[6:])
    return parse_info(args, board)


def _word(name: str, value: Any) -> str:
    text = format_value(value)
    for what, t in (("name", str(name)), ("value", text)):
        if not t or any(c.isspace() for c in t):
            raise EngineError(f"a Hub version 1 setting's {what} is one word, not {t!r}")
    return text


class AsyncHub1Engine(AsyncHubClient):
    """The asyncio client of one Hub version 1 engine; `await
    AsyncHub1Engine.popen(...)` as for version 2.  `params` are sent with
    `set` before `init`, as they are written (`defaults` are not sent: a
    version-1 engine declares no settings).  `id` holds its `name`,
    `author` and `country`; `settings` the values sent."""

    def __init__(self, transport, *, timeout: float = 10.0, time_margin: float = 0.05):
        super().__init__(transport, timeout=timeout, time_margin=time_margin)
        #: seconds before the end of a move's time at which `stop` is sent
        self.stop_margin = STOP_MARGIN
        #: the recent high-water mark of the seconds from the planned `stop` to
        #: the move (a late wake-up of this side, the engine's answer); the stop
        #: is planned that much earlier (by at most a quarter of the time)
        self.lag = 0.0
        self.settings: Dict[str, str] = {}

    async def _next(self, timeout: Optional[float], doing: str):
        """(command, words, line) of the next non-blank engine line, or None
        after `timeout` seconds (None: no limit)."""
        while True:
            item = await self._next_line(timeout, doing)
            if item is None:
                return None
            words = item.split()
            if words:
                return words[0], words[1:], item

    def _error_text(self, line: str) -> str:
        return line.strip()[6:]  # the words after `error`

    async def start(
        self,
        *,
        params: Optional[Mapping[str, Any]] = None,
        timeout: float = 10.0,
        defaults: Optional[Mapping[str, Any]] = None,
    ) -> None:
        """`hub` ... `wait`, `set` for each of `params`, `init` ... `ready`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        pairs = [(str(name), _word(name, value)) for name, value in (params or {}).items()]
        self._send("hub")
        while True:
            command, words, line = await self._read("starting (waiting for wait)", deadline=deadline)
            if command in ("name", "author", "country", "version"):
                self.id[command] = " ".join(words)
            elif command == "wait":
                break
            elif command == "error":
                raise EngineCommandError(f"the engine rejected hub: {line.strip()}", line)
        for name, value in pairs:
            self._send(f"set {name} {value}")
            self.settings[name] = value
        self._send("init")
        while True:
            command, words, line = await self._read("starting (waiting for ready)", deadline=deadline)
            if command == "ready":
                break
            if command == "error":
                raise EngineCommandError(f"the engine failed to start: {line.strip()}", line)

    async def configure(self, params: Mapping[str, Any]) -> None:
        """`set` each (`tt_size` sets `tt-size`), then a ping.  Scan reads
        most of its settings at `init` only: set them with `params` at the start."""
        self._check_idle()
        if not params:
            return
        pairs = [(name.replace("_", "-"), _word(name, value)) for name, value in params.items()]
        self._drain_stale()
        for name, value in pairs:
            self._send(f"set {name} {value}")
        await self._sync("set " + ", ".join(name for name, _ in pairs))
        self.settings.update(pairs)

    async def new_game(self, timeout: Optional[float] = None) -> None:
        """`new`, then a ping (so that whatever the engine does for a new game
        is not charged to the first move)."""
        self._check_idle()
        self._drain_stale()
        self._send("new")
        await self._sync("new", timeout)

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        timeout: Optional[float] = None,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> PlayResult:
        """The engine's move in the board's position (sent with its history).

        A move is awaited for the limit's time plus `timeout` seconds (the
        engine's timeout by default); without a time in the limit, each line
        is awaited `timeout` seconds.  International draughts only.
        `on_info` hears each info line as it comes; stop() asks for the move
        at once.
        """
        self._check_idle()
        if not board.legal_moves:
            raise ValueError(f"no legal move in {board.fen()}: the game is over")
        if board.variant.name != "international":
            raise EngineError(f"a Hub version 1 engine plays international draughts only, not {board.variant.name}")
        lines, stop_after = search_lines(limit, self.stop_margin)
        self._begin_move()
        try:
            return await self._play1(
                board, limit, lines, stop_after, self.timeout if timeout is None else timeout, on_info
            )
        finally:
            self._end_move()

    async def _play1(
        self,
        board: Board,
        limit: Limit,
        limit_lines: List[str],
        stop_after: Optional[float],
        timeout: float,
        on_info: Optional[Callable[[Info], None]] = None,
    ) -> PlayResult:
        loop = asyncio.get_running_loop()
        self._drain_stale()
        for line in position_lines(board) + limit_lines:
            self._send(line)
        t0 = loop.time()
        self._sent_go("go")
        budget = limit.budget()
        deadline = t0 + budget + timeout if budget is not None else None
        stop_at = None
        if stop_after is not None:  # earlier by the engine's recent lag
            stop_at = t0 + planned_stop(stop_after, self.lag)
        stopped = asked = False
        stop_sent = 0.0
        info_words: Optional[List[str]] = None  # read once the move is in
        doing = "waiting for the move"
        lines = 0
        last_line = t0
        while True:
            now = loop.time()
            if self._stop_asked and not stopped:  # stop() sent it
                stopped = asked = True
                stop_sent = now
            if stop_at is not None and not stopped and now >= stop_at:
                self._send("stop")
                stopped = True
                stop_sent = now
            if deadline is None:
                wait = timeout
            else:
                wait = deadline - now
                if stop_at is not None and not stopped:
                    wait = min(wait, stop_at - now)
            got = await self._next(max(0.0, wait), doing)
            if got is None:
                if stop_at is not None and not stopped and loop.time() >= stop_at - 0.0005:
                    continue  # time to send stop
                waited = loop.time() - t0 if deadline is not None else timeout
                if lines and loop.time() - last_line < min(1.0, timeout) and await self._resync():
                    raise EngineOvertimeError(
                        f"the engine sent {lines} lines but no move in {loop.time() - t0:.2f} s", waited, doing, lines
                    )
                raise EngineTimeoutError(f"the engine said nothing for {waited:.2f} s while {doing}", waited, doing)
            command, words, line = got
            lines += 1
            last_line = loop.time()
            if command == "info":
                info_words = words
                if on_info is not None:
                    on_info(read_info(words, board))
            elif command == "move":
                break
            elif command == "error":
                await self._resync()
                raise EngineCommandError(f"the engine rejected the search: {line.strip()}", line)
        elapsed = loop.time() - t0
        info = read_info(info_words, board) if info_words is not None else Info()
        move, ponder = _read_move(board, words, line)
        late = budget is not None and elapsed > budget + self.time_margin
        if stopped and stop_at is not None and not asked:
            # the delay from the planned stop to the move: this side's (a late
            # wake-up on a loaded machine) and the engine's
            lag = max(0.0, loop.time() - stop_at)
            self.lag = next_lag(self.lag, lag)
            LOG.debug(
                "stopped the search %.3f s after go (planned: %.3f s); the move came %.3f s after the planned stop",
                stop_sent - t0,
                stop_at - t0,
                lag,
            )
        return PlayResult(move, ponder, info, elapsed, late)

    async def analysis(
        self, board: Board, limit: Optional[Limit] = None, *, timeout: Optional[float] = None, multipv: int = 1
    ):
        raise EngineError("the Hub version 1 client plays moves (play); it has no running analysis")

    async def analyse(
        self, board: Board, limit: Limit, multipv: int = 1, *, timeout: Optional[float] = None
    ) -> List[Info]:
        """The best line, as the search of a move finds it (version 1 reports one line)."""
        if multipv != 1:
            raise EngineError(f"a Hub version 1 engine reports one line, not multipv={multipv!r}")
        result = await self.play(board, limit, timeout=timeout)
        info = result.info
        if not info.pv or info.pv[0] != result.move:
            info.pv = [result.move] + ([result.ponder] if result.ponder is not None else [])
        return [info]


def _read_move(board: Board, words: Sequence[str], line: str):
    """(move, ponder or None) of a `move M [PONDER]` line."""
    if not words:
        raise EngineNoMoveError(f"the engine answered `move` without a move: {line!r}", line)
    try:
        move = match_move(board, words[0])
    except InvalidInputError as e:
        raise EngineProtocolError(
            f"the engine played {words[0]!r}, which is not a legal move: {e} (its line: {line!r})", line
        ) from None
    ponder = None
    if len(words) > 1:
        after = board.copy(stack=False)
        after.push(move)
        try:
            ponder = match_move(after, words[1])
        except InvalidInputError:
            LOG.info("engine's ponder move %r is not legal; ignored", words[1])
    return move, ponder


class Hub1Engine(HubClient):
    """A Hub version 1 engine driven synchronously, as `HubEngine` drives a
    version-2 one (the same arguments; `defaults` are not sent):

        with Hub1Engine(["./scan", "hub"], cwd=scan_dir, params={"book": "false"}) as engine:
            result = engine.play(board, Limit(movetime=0.5))
    """

    _async_class = AsyncHub1Engine

    @property
    def _v1(self) -> AsyncHub1Engine:
        engine = self._engine
        assert isinstance(engine, AsyncHub1Engine)
        return engine

    @property
    def settings(self) -> Dict[str, str]:
        """The settings sent with `set`."""
        return self._v1.settings

    @property
    def lag(self) -> float:
        """The recent seconds from a planned `stop` to the move (see AsyncHub1Engine)."""
        return self._v1.lag

    @property
    def stop_margin(self) -> float:
        return self._v1.stop_margin

    @stop_margin.setter
    def stop_margin(self, value: float) -> None:
        self._v1.stop_margin = float(value)

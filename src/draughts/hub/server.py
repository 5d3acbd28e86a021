"""`draughts hub`: the engine as a Hub protocol program.

The input loop reads stdin on the main thread and dispatches every line
through a table of commands; a search, perft or bench runs on a worker
thread (the search releases the GIL), so `ping` and `stop` are answered at
once.  Every line on stdout goes through one lock-protected writer that
flushes it; nothing else is written there (stray prints go to stderr).
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import draughts
from draughts import bench, options
from draughts._args import a_or_an, parse_int
from draughts._memory import check_table_size
from draughts.board import Board, Move
from draughts.engine import Engine
from draughts.engine_api import Info, PlayResult
from draughts.errors import DraughtsError, HubError, InvalidInputError, OptionError, PerftStopped
from draughts.hub.protocol import (
    ArgValue,
    Args,
    Param,
    board_from_position,
    format_line,
    match_move,
    parse_level,
    parse_line,
    quote,
)
from draughts.hub.pydraughts import IDENTITY, VARIANT_NAMES, Dialect, dialect_for
from draughts.limits import Limit
from draughts_core.perft import StopFlag
from draughts_core.position import MAX_PERFT_DEPTH
from draughts.variants import Variant, variant as get_variant

ENGINE_NAME = "draughts"
ENGINE_AUTHOR = "the draughts developers"
DEFAULT_TT_MB = options.DEFAULT_TT_MB
TT_MB_MAX = options.TT_MB_MAX
#: longest error message written (bad input is quoted, never echoed whole)
ERROR_MAX = 240
#: what `go` searches for: a move (think), during the opponent's time (ponder), until stopped (analyze)
GO_KINDS = ("think", "ponder", "analyze")
MOVE_OVERHEAD_MAX = options.MOVE_OVERHEAD_MAX_MS
#: Scan's convention for won positions: 100 men less a hundredth per ply to the win
HUB_WIN = 100.0

#: the parameters the engine itself takes (Engine.configure)
ENGINE_PARAMS = tuple(o.name for o in options.hub_options() if o.engine and o.name != "variant")

VARIANT_VALUES = options.VARIANT_VALUES


class CommandError(InvalidInputError):
    """A command that cannot be carried out as given: answered with `error message=...`."""


@dataclass
class _Job:
    """One piece of work on the worker thread: a search, perft or bench."""

    kind: str  # think, ponder, analyze, perft, bench
    board: Optional[Board] = None
    level: Limit = field(default_factory=Limit)
    #: hold `done` until released (ponder until ponder-hit or stop; infinite until stop)
    release: threading.Event = field(default_factory=threading.Event)
    stop_requested: bool = False
    ponder_hit: bool = False
    timer: Optional[threading.Timer] = None
    thread: Optional[threading.Thread] = None
    args: Args = field(default_factory=dict)
    #: when the `go` line was read (Engine.clock()): the move's clock started then
    start: float = 0.0
    #: ends a perft (set by stop and quit)
    perft_stop: StopFlag = field(default_factory=StopFlag)
    bench: Optional["bench.Bench"] = None


class Writer:
    """Lock-protected line writer that flushes every line; a closed or broken
    output is ignored (the process is ending)."""

    def __init__(self, stream, lock: Optional[threading.Lock] = None):
        self._stream = stream
        self._lock = lock or threading.Lock()
        self.closed = False

    def __call__(self, line: str) -> None:
        with self._lock:
            if self.closed:
                return
            try:
                data = (line + "\n").encode("utf-8", "replace")
                buf = getattr(self._stream, "buffer", None)
                if buf is not None:
                    buf.write(data)
                    buf.flush()
                else:
                    self._stream.write(data.decode("utf-8"))
                    self._stream.flush()
            except (OSError, ValueError):
                self.closed = True


class HubServer:
    """The Hub engine behind a line interface: feed lines to `handle_line`,
    get protocol lines through `write` (called from the reader thread and the
    worker thread; it must be thread-safe)."""

    def __init__(self, write: Callable[[str], None], *, log: Optional[Callable[[str], None]] = None):
        self._out = write
        self._log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self._lock = threading.RLock()
        self._engine: Optional[Engine] = None
        self._job: Optional[_Job] = None
        self._closed = False  # no more input is taken
        self._silent = False  # no more output is written
        # one `param` line for each of the options the Hub declares (draughts.options)
        self.params: Dict[str, Param] = {
            o.name: Param(o.name, o.type, o.default, o.min, o.max, list(o.values)) for o in options.hub_options()
        }
        #: the last accepted `pos` (its position argument and move texts), so
        #: that the next one, the same game a move or two on, plays only the new moves
        self._pos_key: Optional[tuple] = None
        self._pos_board: Optional[Board] = None
        self._pos_moves: List[str] = []
        #: when the line being handled was read (Engine.clock())
        self._received = 0.0
        self.board: Optional[Board] = Board(variant=self.variant)
        #: the search limits of the last `level`
        self.level = Limit(movetime=1.0)
        self._commands: Dict[str, Callable[[Args], None]] = {
            "hub": self._hub,
            "set-param": self._set_param,
            "init": self._init,
            "pos": self._pos,
            "level": self._level,
            "go": self._go,
            "ping": self._ping,
            "stop": self._stop,
            "ponder-hit": self._ponder_hit,
            "new-game": self._new_game,
            "quit": self._quit,
            "perft": self._perft,
            "bench": self._bench,
        }
        #: commands allowed while the worker is busy
        self._while_busy = {"ping", "stop", "ponder-hit", "quit"}

    # --- plumbing -------------------------------------------------------------
    @property
    def variant(self) -> Variant:
        name = self.params["variant"].value
        if self.params["mandatory-capture"].value:
            return get_variant(name)
        return get_variant(name, mandatory_capture=False)

    @property
    def dialect(self) -> Dialect:
        """The client's 8x8 dialect: pydraughts' with `pydraughts=true`, else the documented one."""
        return dialect_for(self.variant) if self.params["pydraughts"].value else IDENTITY

    def _move_text(self, move: Move) -> str:
        return self.dialect.move_out(move.hub())

    @property
    def busy(self) -> bool:
        return self._job is not None

    @property
    def closed(self) -> bool:
        return self._closed

    def _write(self, line: str) -> None:
        if not self._silent:
            self._out(line)

    def _error(self, message: str) -> None:
        if len(message) > ERROR_MAX:
            message = message[: ERROR_MAX - 3] + "..."
        self._write(format_line("error", {"message": message}))

    def engine(self) -> Engine:
        if self._engine is None:
            ev = self.params["eval"].value
            self._engine = Engine(
                self.variant,
                tt_mb=self.params["tt-size"].value,
                level=self.params["level"].value,
                move_overhead=self.params["move-overhead"].value / 1000.0,
                eval=None if ev == "auto" else ev,
                egdb=self.params["egdb-path"].value or None,
                threads=self.params["threads"].value,
                book=self.params["book"].value or None,
                book_margin=self.params["book-margin"].value,
            )
        return self._engine

    def handle_line(self, line: str, received: Optional[float] = None) -> bool:
        """Handle one input line (read at `received`, an Engine.clock()
        reading; default now); False once the engine has quit."""
        self._received = received if received is not None else Engine.clock()
        if self._closed:
            return False
        try:
            command, args = parse_line(line)
        except HubError as e:
            self._error(f"cannot read the line: {e}")
            return True
        if not command:
            return True
        handler = self._commands.get(command)
        if handler is None:
            self._error(f"unknown command {quote(command)}")
            return True
        try:
            with self._lock:
                if self._job is not None and command not in self._while_busy:
                    raise CommandError(f"{command}: busy with {a_or_an(self._job.kind)} (send stop first)")
                handler(args)
        except (CommandError, OptionError) as e:  # they name what is wrong themselves
            self._error(str(e))
        except (DraughtsError, ValueError, MemoryError) as e:
            self._error(f"{command}: {e}")
        except Exception as e:  # a bug: say so, keep running
            self._log(traceback.format_exc())
            self._error(f"{command}: internal error {type(e).__name__}: {e}")
        return not self._closed

    def close(self, timeout: float = 1.0) -> bool:
        """Stop any work (a stopped search still writes its `done`), then stop
        writing; True if the worker ended within `timeout`."""
        with self._lock:
            self._closed = True
            job = self._job
            if job is not None:
                self._request_stop(job)
        ended = True
        if job is not None and job.thread is not None:
            job.thread.join(timeout)
            ended = not job.thread.is_alive()
        self._silent = True
        return ended

    # --- start-up -------------------------------------------------------------
    def _hub(self, args: Args) -> None:
        self._write(
            format_line("id", [("name", ENGINE_NAME), ("version", draughts.__version__), ("author", ENGINE_AUTHOR)])
        )
        for p in self.params.values():
            self._write(p.line())
        self._write("wait")

    def _set_param(self, args: Args) -> None:
        if "name" not in args:
            raise CommandError("set-param needs name=")
        if "value" not in args:
            raise CommandError("set-param needs value=")
        name = args["name"]
        p = self.params.get(name)
        if p is None:
            raise CommandError(f"unknown parameter {name!r}; known: {', '.join(self.params)}")
        value: Any
        if name == "variant":  # any name or alias of a variant
            text = args["value"]
            try:
                value = get_variant(VARIANT_NAMES.get(text.strip().lower(), text)).name
            except InvalidInputError:
                raise CommandError(f"unknown variant {quote(text)}; known: {', '.join(VARIANT_VALUES)}") from None
        else:
            try:
                value = p.parse(args["value"])
            except ValueError as e:
                raise CommandError(str(e)) from None
        if name == "tt-size":
            check_table_size(value, "transposition table")
        if name == "egdb-path" and value not in ("", "none", "auto") and not os.path.isdir(value):
            raise CommandError(f"egdb-path: no directory {value!r}")
        if name == "book" and value not in ("", "none", "auto"):
            from draughts.book import Book

            try:
                Book(value)
            except DraughtsError as e:
                raise CommandError(f"book: {e}") from None
        if name in ENGINE_PARAMS and self._engine is not None and value != p.value:
            try:
                self._engine.configure({name: value})  # a table that cannot be had: the old one stays
            except MemoryError:
                raise CommandError(f"cannot allocate a {value} MiB table; keeping {p.value} MiB") from None
        p.value = value
        if name in ("variant", "mandatory-capture"):
            self.board = Board(variant=self.variant)

    def _init(self, args: Args) -> None:
        engine = self.engine()
        if engine.egdb is not None:
            db = engine.egdb
            self._write(format_line("info", [("egdb", f"{db.variant.name} up to {db.pieces} pieces")]))
        self._write("ready")

    def _new_game(self, args: Args) -> None:
        if self._engine is not None:
            self._engine.new_game()

    def _ping(self, args: Args) -> None:
        self._write("pong")

    def _quit(self, args: Args) -> None:
        job = self._job
        self._closed = True
        if job is not None:
            self._request_stop(job)

    # --- position and level ---------------------------------------------------
    def _pos(self, args: Args) -> None:
        # a rejected pos changes nothing: the last good position stays, to be
        # searched by the next go until a valid pos replaces it
        given = [k for k in ("pos", "fen", "start") if k in args]
        if len(given) != 1:
            raise CommandError(
                "pos needs exactly one of pos=, fen= or start"
                if not given
                else f"pos takes one of pos=, fen= or start, not {' and '.join(given)}"
            )
        v = self.variant
        dialect = self.dialect
        key = (given[0], args.get(given[0], ""), v, dialect)
        moves = args.get("moves", "").split()
        known = self._pos_moves
        if key == self._pos_key and self._pos_board is not None and moves[: len(known)] == known:
            # the same game some moves on (what GUIs and match runners send
            # every move): play only the new moves (on a copy: a bad one
            # leaves the last position as it was)
            board, first = self._pos_board.copy(), len(known)
        else:
            first = 0
            try:
                if "pos" in args:
                    board = board_from_position(dialect.position_in(args["pos"]), v)
                elif "fen" in args:
                    board = Board(args["fen"], variant=v)
                else:
                    board = Board(variant=v)
            except InvalidInputError as e:
                raise CommandError(f"bad position: {e}") from None
        for n, text in enumerate(moves[first:], start=first + 1):
            try:
                board.push(match_move(board, dialect.move_in(text)))
            except InvalidInputError as e:
                raise CommandError(f"move {n} of moves: {e}") from None
        self.board = board
        self._pos_key, self._pos_board, self._pos_moves = key, board, moves

    def _level(self, args: Args) -> None:
        try:
            self.level = parse_level(args)
        except HubError as e:
            raise CommandError(str(e)) from None

    # --- work on the worker thread ---------------------------------------------
    def _need_board(self) -> Board:
        if self.board is None:
            raise CommandError("no position: the last pos was rejected")
        return self.board

    def _go(self, args: Args) -> None:
        # exactly one of the three, and nothing else: a misspelt `go thinkk`
        # is an error, not a `go think`
        kinds = [k for k in GO_KINDS if k in args]
        others = [k for k in args if k not in GO_KINDS]
        if len(kinds) != 1 or others:
            said = " and ".join(quote(k) for k in [*kinds, *others])
            raise CommandError("go takes one of think, ponder or analyze" + (f", not {said}" if said else ""))
        kind = kinds[0]
        board = self._need_board()
        if not board.legal_moves:
            raise CommandError(f"the game is over: no legal move in {board.fen(numeric=True)}")
        self.engine()  # a table that cannot be had is an error now
        job = _Job(kind, board.copy(), self.level, start=self._received)
        hold = kind in ("ponder", "analyze") or (kind == "think" and job.level.infinite)
        if not hold:
            job.release.set()
        self.engine().arm()  # from here on a stop reaches this search
        self._start(job, self._search)

    def _perft(self, args: Args) -> None:
        board = self._need_board()
        parse_int(args.get("depth", ""), "perft depth=", 0, MAX_PERFT_DEPTH)
        dup = args.get("duplicates", "drop")
        if dup not in ("drop", "keep"):
            raise CommandError(f"perft duplicates= takes drop or keep, not {quote(dup)}")
        job = _Job("perft", board.copy(), args=dict(args))
        job.release.set()
        self._start(job, self._run_perft)

    def _bench(self, args: Args) -> None:
        text = args.get("depth")
        depth = parse_int(text, "bench depth=", 1, 64) if text is not None else bench.DEFAULT_DEPTH
        job = _Job("bench", args=dict(args))
        job.bench = bench.Bench(depth, bench.DEFAULT_TT_MB)
        job.release.set()
        self._start(job, self._run_bench)

    def _start(self, job: _Job, target) -> None:
        self._job = job
        job.thread = threading.Thread(target=self._work, args=(job, target), name=f"hub-{job.kind}", daemon=True)
        job.thread.start()

    def _work(self, job: _Job, target) -> None:
        lines: List[str] = []
        # no cyclic garbage collection between `go` and the answer: a full
        # collection's pause would be charged to the move's clock
        collect = job.kind in ("think", "ponder", "analyze") and gc.isenabled()
        if collect:
            gc.disable()
        try:
            lines = target(job)
        except Exception as e:  # a bug: say so, and still answer a go
            self._log(traceback.format_exc())
            lines = [format_line("error", {"message": f"{job.kind} failed: {type(e).__name__}: {e}"})]
            if job.kind in ("think", "ponder", "analyze") and job.board is not None:
                lines.append(done_line(job.board, None, self._move_text))
        job.release.wait()
        with self._lock:
            if job.timer is not None:
                job.timer.cancel()
            if self._job is job:
                self._job = None
            for line in lines:
                self._write(line)
        if collect:
            gc.enable()

    def _request_stop(self, job: _Job) -> None:
        job.stop_requested = True
        job.release.set()
        job.perft_stop.set()
        if job.bench is not None:
            job.bench.stop()
        if job.kind in ("think", "ponder", "analyze") and self._engine is not None:
            self._engine.stop()

    def _stop(self, args: Args) -> None:
        if self._job is not None:
            self._request_stop(self._job)

    def _ponder_hit(self, args: Args) -> None:
        job = self._job
        if job is None or job.kind != "ponder":
            raise CommandError("ponder-hit without a go ponder")
        if job.ponder_hit:
            return
        job.ponder_hit = True
        level = job.level
        budget = None
        soft, hard = self.engine().move_budget(level)
        if level.movetime is not None or level.time is not None:
            budget = hard if level.movetime is not None else min(hard, 1.5 * soft)
            # the clock started when ponder-hit was read
            budget = max(0.0, budget - (Engine.clock() - self._received))
        if budget is not None:
            job.timer = threading.Timer(budget, self._time_up, args=(job,))
            job.timer.daemon = True
            job.timer.start()
        if not level.infinite or budget is not None:
            job.release.set()

    def _time_up(self, job: _Job) -> None:
        with self._lock:
            if self._job is job:
                self._request_stop(job)

    def _search_limit(self, job: _Job) -> Limit:
        level = job.level
        if job.kind == "analyze":
            return Limit(infinite=True)
        if job.kind == "ponder":
            # no clock before ponder-hit: only the depth and node limits apply
            return Limit(depth=level.depth, nodes=level.nodes, infinite=True)
        return level

    def _search(self, job: _Job) -> List[str]:
        engine = self.engine()
        last: List[Info] = []
        multipv = self.params["multipv"].value if job.kind == "analyze" else 1

        def on_info(info: Info) -> None:
            last[:] = [info]
            self._write(info_line(info, self._move_text, multipv > 1))

        board = job.board
        assert board is not None, "a search job has a board"
        # armed at `go`: a stop sent since then stops this search when it begins
        found = engine.analyse(board, self._search_limit(job), multipv, on_info=on_info, arm=False, start=job.start)
        lines = []
        best = found[0] if found else None
        if best is not None and best.pv and (not last or last[0].nodes != best.nodes):
            # the whole search's time and nodes (a stopped iteration has no
            # info line of its own): what a runner compares its clock with
            lines += [info_line(info, self._move_text, multipv > 1) for info in found]
        result = None
        if best is not None and best.pv:
            result = PlayResult(best.pv[0], best.pv[1] if len(best.pv) > 1 else None, best)
        lines.append(done_line(board, result, self._move_text))
        return lines

    def _run_perft(self, job: _Job) -> List[str]:
        depth = parse_int(job.args["depth"])
        dup = job.args.get("duplicates", "drop")
        board = job.board
        assert board is not None, "a perft job has a board"
        t0 = time.perf_counter()
        lines = []
        try:
            if "divide" in job.args and depth >= 1:
                total = 0
                for move, n in board.divide(depth, dup, stop=job.perft_stop):
                    lines.append(format_line("divide", [("move", self._move_text(move)), ("nodes", n)]))
                    total += n
            else:
                total = board.perft(depth, dup, stop=job.perft_stop)
        except PerftStopped:
            lines = [
                format_line(
                    "perft", [("depth", depth), ("interrupted", None), ("time", f"{time.perf_counter() - t0:.3f}")]
                )
            ]
            return lines
        dt = time.perf_counter() - t0
        lines.append(format_line("perft", [("depth", depth), ("nodes", total), ("time", f"{dt:.3f}")]))
        return lines

    def _run_bench(self, job: _Job) -> List[str]:
        bench = job.bench
        assert bench is not None, "a bench job has a bench"
        nodes, seconds = bench.run()
        if bench.stopped:
            return [format_line("bench", [("interrupted", None), ("time", f"{seconds:.3f}")])]
        nps = nodes / seconds / 1e6 if seconds > 0 else 0.0
        return [format_line("bench", [("nodes", nodes), ("time", f"{seconds:.3f}"), ("nps", f"{nps:.2f}")])]


def hub_score(score: float, win_in: Optional[int]) -> float:
    """A score for the protocol: men, or Scan's 100 - plies/100 for a won position."""
    if win_in is None:
        return score
    plies = abs(win_in)
    value = HUB_WIN - plies / 100.0
    return value if win_in > 0 else -value


def info_line(info: Info, text: Callable[[Move], str] = Move.hub, multipv: bool = False) -> str:
    """The `info` line of a search's Info; with `multipv`, it names its line
    (`multipv=K`, 1 the best: an extension of the protocol)."""
    args: List[Tuple[str, ArgValue]] = [("depth", info.depth)]
    if multipv:
        args.append(("multipv", info.multipv))
    args += [
        ("score", f"{hub_score(info.score or 0.0, info.win_in):.2f}"),
        ("nodes", info.nodes),
        ("time", f"{info.time or 0.0:.3f}"),
        ("nps", f"{info.nps / 1e6:.2f}"),
    ]
    if info.egdb_hits:
        args.append(("egdb-hits", info.egdb_hits))
    if info.book:
        args.append(("book", "yes"))
    if info.pv:
        args.append(("pv", " ".join(text(m) for m in info.pv)))
    return format_line("info", args)


def done_line(board: Board, result: Optional[PlayResult], text: Callable[[Move], str] = Move.hub) -> str:
    move = result.move if result is not None else None
    if move is None:  # stopped before the search began
        move = next(iter(board.legal_moves))
    args = [("move", text(move))]
    if result is not None and result.ponder is not None and result.move == move:
        args.append(("ponder", text(result.ponder)))
    return format_line("done", args)


def serve(stdin=None, stdout=None, book: Optional[str] = None) -> int:
    """Run the engine on stdin/stdout until `quit` or the end of input;
    `book`: the `book` parameter's value at the start (default its own)."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    write = Writer(stdout)
    saved = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not reach the protocol
    server = HubServer(write)
    if book is not None:
        server.params["book"].value = book
    # what the start-up made lives to the end: no collection walks it again
    gc.freeze()
    try:
        source = getattr(stdin, "buffer", stdin)
        while True:
            raw = source.readline()
            if not raw:
                break  # end of input: exit at once
            received = Engine.clock()
            line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
            if not server.handle_line(line, received):
                break
    except KeyboardInterrupt:
        pass
    finally:
        ended = server.close(timeout=1.0)
        write.closed = True
        sys.stdout = saved
    if not ended:  # a perft or bench that cannot be stopped
        sys.stderr.flush()
        os._exit(0)
    return 0


def cmd_hub(args) -> int:
    book = args.book
    if book is not None and book not in ("", "none", "auto"):
        from draughts.book import Book

        Book(book)  # a bad file: an error before the protocol starts
    return serve(book=book)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "hub",
        help="speak the Hub protocol on stdin/stdout (for GUIs and match tools)",
        description="Run the engine as a Hub protocol (version 2) program: "
        "protocol lines on stdin and stdout, diagnostics on stderr.",
    )
    p.add_argument(
        "--book",
        metavar="FILE",
        help="the book parameter's start value: a book file, auto (the variant's shipped book, the default) or none",
    )
    p.set_defaults(func=cmd_hub)

"""The engine: a negamax search in the native core behind a small Python API.

    >>> import draughts
    >>> board = draughts.Board(variant="american")
    >>> engine = draughts.Engine(variant="american", tt_mb=16)
    >>> result = engine.play(board, draughts.Limit(depth=8))
    >>> result.move in board.legal_moves, result.info.depth, result.info.pv[0] == result.move
    (True, 8, True)
    >>> lines = engine.analyse(board, draughts.Limit(depth=6), multipv=3)
    >>> [info.multipv for info in lines], len({info.pv[0] for info in lines})
    ([1, 2, 3], 3)

`Engine` has the engine protocol of `draughts.engine_api` (`play`,
`analyse`, `configure`, `quit`).  Scores are in men from the side to move
(1.00 = one man).  A won position scores 100 less a hundredth per ply to the
win (Scan's convention, as the Hub protocol reports it: 99.97 wins in 3
plies) and `Info.win_in` tells
the plies (negative: the side to move loses).  With an endgame database
(`Engine(egdb=DIR)`, see `draughts.egdb`) a position it knows to be won
scores 90 men less a hundredth a ply plus the evaluation within 8 men.
"""

from __future__ import annotations

import math
import os
import random
import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

from draughts import learned, options
from draughts._memory import check_table_size
from draughts._args import parse_int
from draughts.board import Board, Move
from draughts.engine_api import Info, PlayResult
from draughts.egdb import Database, auto_dir as egdb_auto_dir, open_shared, rule_fields, supported as egdb_supported
from draughts.errors import DraughtsError, InvalidInputError, TableMemoryError
from draughts.limits import Limit, clock_budget, search_budget
from draughts.tuning import EvalWeights, ProbCutFit, SearchParams, default_search_params, default_weights, tuning_fields

# the tuning's names, where users of the engine have found them
from draughts.tuning import PROBCUT as PROBCUT  # noqa: F401
from draughts.variants import Variant, variant as get_variant
from draughts_core.search import MULTIPV_LINES, THREADS_MAX, WIN_SCORE, WIN_THRESHOLD, Searcher, clock

if TYPE_CHECKING:
    from draughts.book import Book, BookMove

LEVEL_MAX = options.LEVEL_MAX
#: seconds kept back from every timed move for the way of the answer to the
#: caller: the pipe both ways, the process being scheduled on a loaded
#: machine, the Python work before and after the search.  Chosen from the
#: latencies measured in matches: docs/decisions.md#move-overhead.
DEFAULT_MOVE_OVERHEAD = options.DEFAULT_MOVE_OVERHEAD_MS / 1000.0
#: centi-men below the best within which a book move may be chosen (the Hub's book-margin)
BOOK_MARGIN = options.BOOK_MARGIN
#: the `egdb` setting that finds a variant's endgame database by itself
#: (draughts.egdb.auto_dir): the database directory's, else the shipped tables
EGDB_AUTO = "auto"
#: the engine's measured lateness (see Engine.lateness): its high-water mark
#: keeps this share a move, and is never taken above LATENESS_MAX seconds
LATENESS_DECAY = 0.9
LATENESS_MAX = 0.5
#: a busy machine's scheduling stalls (see Engine.stall) are kept back this
#: many times over: the search cannot see the two waits outside it, for the
#: engine's reader to be scheduled when `go` arrives and for the caller's
#: when the answer does, and each is a wait of the same kind
STALL_FACTOR = 2.0
EVALS = ("classic", "learned")


def default_eval(v: Variant) -> str:
    """The evaluation an Engine uses for a variant unless told otherwise: the
    learned one wherever the package ships its weights (a variant's file is
    shipped once it beats the classic evaluation in self-play:
    docs/decisions.md#the-learned-evaluation-is-every-variants-default), else
    the classic one."""
    return "learned" if learned.has_weights(v) else "classic"


def _score_men(score: int) -> Tuple[float, Optional[int]]:
    """(score in men, plies to the end when the game is won or lost)."""
    if score >= WIN_THRESHOLD:
        plies = WIN_SCORE - score
        return round(100.0 - plies / 100.0, 2), plies
    if score <= -WIN_THRESHOLD:
        plies = WIN_SCORE + score
        return round(-100.0 + plies / 100.0, 2), -plies
    return score / 100.0, None


def level_settings(level: int) -> Tuple[int, int]:
    """(depth cap or 0, evaluation noise in centi-men) of a strength level 1-20."""
    if level >= LEVEL_MAX:
        return 0, 0
    return 1 + (level * 3) // 4, (LEVEL_MAX - level) * 12


def parse_probcut(text: str) -> Union[None, str, ProbCutFit]:
    """The `probcut` option's text: off, auto, or the seven figures of a
    ProbCutFit (MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T) and, eighth and
    optional, CAPTURES (1: tried with a capture on the board too; 0, the
    default: at quiet nodes only)."""
    if text in ("off", "auto"):
        return None if text == "off" else "auto"
    parts = text.split(",")
    try:
        if len(parts) not in (7, 8):
            raise ValueError("seven or eight figures")
        md, pct, slope, icpt, sigma, s1, t = parts[:7]
        captures = parts[7].strip() if len(parts) == 8 else "0"
        if captures not in ("0", "1"):
            raise ValueError("CAPTURES is 0 or 1")
        return ProbCutFit(
            int(md), int(pct), float(slope), int(icpt), float(sigma), float(s1), float(t), captures == "1"
        )
    except ValueError:
        raise InvalidInputError(
            f"probcut is off, auto or MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T[,CAPTURES], not {text!r}"
        ) from None


def _whole(name: str, value: Any, low: int, high: int, text: bool = True) -> int:
    """A whole number option from low to high (with `text`, text is read as one)."""
    n = value
    if text and isinstance(value, str):
        try:
            n = parse_int(value)
        except ValueError:
            n = value
    if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= high:
        raise InvalidInputError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return n


def _check_probcut(value: Any) -> Union[None, str, ProbCutFit]:
    if isinstance(value, str):
        value = parse_probcut(value)
    if not (value is None or value == "auto" or isinstance(value, ProbCutFit)):
        raise InvalidInputError(f"probcut takes a ProbCutFit, 'off', 'auto' or its figures, not {value!r}")
    if isinstance(value, ProbCutFit):
        # what the core's set_probcut takes
        min_depth, slope, _, _, margin = value.packed()
        if not 2 <= min_depth < 64 or not 256 <= slope <= 4096 or min(margin) < 0:
            raise InvalidInputError(
                f"probcut needs 2 <= min_depth < 64, a slope from 0.25 to 4 and margins not below 0, not {value!r}"
            )
    return value


def _check_move_overhead(value: Any) -> float:
    """move-overhead in milliseconds (as the Hub parameter)."""
    n = value
    if isinstance(value, str):
        try:
            n = float(value)
        except ValueError:
            n = value
    if (
        isinstance(n, bool)
        or not isinstance(n, (int, float))
        or not math.isfinite(n)
        or not 0 <= n <= options.MOVE_OVERHEAD_MAX_MS
    ):
        raise InvalidInputError(
            f"move-overhead must be a number of milliseconds from 0 to {options.MOVE_OVERHEAD_MAX_MS}, not {value!r}"
        )
    return float(n)


def _check_egdb(value: Any) -> Union[None, str, Database]:
    if value is None or value == "" or value == "none":
        return None
    if isinstance(value, Database) or value == EGDB_AUTO:
        return EGDB_AUTO
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidInputError(f"egdb-path takes a directory, auto, a Database or none, not {value!r}")
    path = os.fspath(value)
    if not os.path.isdir(path):
        raise InvalidInputError(f"egdb-path: no endgame database directory {path!r}")
    return path


def _check_tt_size(mib: int) -> int:
    check_table_size(mib, "transposition table")
    return mib


def _check_eval(value: Any) -> Optional[str]:
    if value is None or value == "auto":
        return None
    if value not in EVALS:
        raise InvalidInputError(f"eval must be auto or one of {', '.join(EVALS)}, not {value!r}")
    return value


def _check_eval_file(value: Any) -> Optional[str]:
    if value is None or value == "":
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidInputError(f"eval-file takes a learned weights file, not {value!r}")
    return os.fspath(value)


def _check_variant(value: Any) -> Variant:
    if isinstance(value, Variant):
        return value
    if not isinstance(value, str):
        raise InvalidInputError(f"variant takes a variant's name, not {value!r}")
    try:
        return get_variant(value)
    except DraughtsError as e:
        raise InvalidInputError(f"variant: {e}") from None


def _check_book(value: Any) -> Union[None, str, "Book"]:
    from draughts.book import Book

    if value is None or value in ("", "none"):
        return None
    if isinstance(value, Book) or value == "auto":
        return value
    if not isinstance(value, (str, os.PathLike)):
        raise InvalidInputError(f"book takes a book file, auto or none, not {value!r}")
    return os.fspath(value)


def _checker(o: "options.Option") -> Callable[[Any], Any]:
    """What reads an option's value: the option's own reader, or its type's."""
    low, high = (o.min or 0), (o.max if o.max is not None else 0)
    special: Dict[str, Callable[[Any], Any]] = {
        "variant": _check_variant,
        "tt-size": lambda v: _check_tt_size(_whole("tt-size", v, low, high)),
        "move-overhead": _check_move_overhead,
        "eval": _check_eval,
        "eval-file": _check_eval_file,
        "egdb-path": _check_egdb,
        "probcut": _check_probcut,
        "book": _check_book,
    }
    if o.name in special:
        return special[o.name]
    if o.type == "int":
        return lambda v: _whole(o.name, v, low, high)
    raise AssertionError(f"option {o.name} has no reader")  # a new option's reader goes above


#: the options of `Engine.configure`, by their Hub parameter names (declared in
#: draughts.options), and what reads each value (a bad one is an
#: InvalidInputError naming the option)
OPTIONS: Dict[str, Callable[[Any], Any]] = {o.name: _checker(o) for o in options.engine_options()}
#: the options that are SearchParams fields
_TUNING = {**{f.name.replace("_", "-"): f.name for f in tuning_fields()}, "probcut": "probcut"}


class Engine:
    """A search engine for one variant at a time (it follows the board it is
    given); it satisfies `draughts.engine_api.EngineProtocol`."""

    def __init__(
        self,
        variant: Union[str, Variant] = "international",
        *,
        tt_mb: int = 64,
        level: int = LEVEL_MAX,
        weights: Optional[EvalWeights] = None,
        seed: Optional[int] = None,
        move_overhead: float = DEFAULT_MOVE_OVERHEAD,
        eval: Optional[str] = None,
        weights_file: Optional[str] = None,
        egdb: Union[None, str, "os.PathLike[str]", Database] = "auto",
        threads: int = 1,
        book: Union[None, str, "os.PathLike[str]", "Book"] = None,
        book_margin: int = BOOK_MARGIN,
        options: Optional[Mapping[str, Any]] = None,
    ):
        """eval: "classic" or "learned" (None: the variant's default, see
        default_eval); weights_file: a learned weights file to use instead of
        the shipped one (for the variant of this engine); egdb: endgame
        databases to probe (a directory, a loaded Database, None for none, or
        "auto": the database directory's when it has the variant's rules,
        else the small tables shipped in the package); threads: search
        threads sharing the transposition table; move_overhead: seconds kept
        back from every timed move; options: more settings, as `configure`
        takes them; book: an opening book to answer from before searching
        (a book file or Book, "auto": the variant's shipped book, None: none),
        choosing among its moves within book_margin centi-men of the best
        (see `book_move`); only timed, depth and node limits use it, not
        infinite analysis or multi-PV."""
        self._variant = get_variant(variant)
        self._weights_override = weights
        self._eval = _check_eval(eval)
        self._weights_file = weights_file
        self._tt_mb = self._check_tt(tt_mb)
        self._move_overhead = self._check_overhead(move_overhead)
        #: seconds by which timed searches have lately returned past their
        #: hard limit (the process not scheduled in time on a busy machine, a
        #: slow answer path): a high-water mark that decays by LATENESS_DECAY
        #: a move, kept back from timed moves on top of `move_overhead`
        self.lateness = 0.0
        #: the SearchParams fields the user has set (the rest follow the variant)
        self._tuning: Dict[str, Any] = {}
        #: seconds of the longest wait to be scheduled seen lately inside a
        #: timed search (the longest gap between two clock readings of the
        #: search, a fraction of a millisecond on an idle machine): a
        #: high-water mark that decays by LATENESS_DECAY a move, kept back
        #: STALL_FACTOR times from timed moves
        self.stall = 0.0
        try:
            self._searcher = Searcher(self._variant.core_rules, self._weights().core(), self._tt_mb)
        except MemoryError:
            raise TableMemoryError(f"cannot allocate a {tt_mb} MiB transposition table") from None
        self._configure_rules()
        self._lock = threading.Lock()
        self._set_threads(_whole("threads", threads, 1, THREADS_MAX, text=False))
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(8), "little") >> 2
        self._level = LEVEL_MAX
        self._set_level(_whole("level", level, 1, LEVEL_MAX, text=False))
        #: the endgame database in use (None: none)
        self.egdb: Optional[Database] = None
        self._egdb_source: Union[None, str, Database] = None
        self._egdb_cache: dict = {}
        self._set_egdb(_check_egdb(egdb))
        self._book_source: Union[None, str, "Book"] = None
        self._books: Dict[str, Optional["Book"]] = {}
        self.book_margin = OPTIONS["book-margin"](book_margin)
        self._book_source = _check_book(book)
        if isinstance(self._book_source, str) and self._book_source != "auto":
            self._book_for(self._variant)  # a bad file: an error now, not at the first move
        if options:
            self.configure(options)

    # --- options -------------------------------------------------------------------
    def configure(self, options: Mapping[str, Any]) -> None:
        """Set options by their Hub parameter names (`tt_size` is `tt-size`):
        `variant`, `tt-size` (MiB), `threads`, `level` (1-20), `move-overhead`
        (milliseconds), `eval` (auto, classic, learned), `eval-file`,
        `egdb-path` (a directory, a Database, auto, or "", none or None:
        none), and the
        search tuning (`SearchParams`, each field by its name with dashes):
        `lmr-divisor`, `lmr-base`, `lmr-min-depth`, `lmr-min-index`,
        `futility` (centi-men a ply, 0 off), `futility-depth`, `aspiration`,
        `aspiration-min-depth`, `horizon-promotions` and `horizon-exchanges`
        (each 0 or 1), and `probcut` (off, auto, a ProbCutFit or its seven or
        eight figures).  Only what is named changes, and a
        user's tuning stays through a change of variant.  Every value is
        checked before any is set: an unknown option or a bad value is a
        InvalidInputError naming it.  Taken between searches."""
        if not isinstance(options, Mapping):
            raise InvalidInputError(f"configure takes a mapping of options, not {type(options).__name__}")
        values: Dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("_", "-") if isinstance(key, str) else key
            if name not in OPTIONS:
                raise InvalidInputError(f"unknown engine option {key!r} (known: {', '.join(OPTIONS)})")
            values[name] = OPTIONS[name](value)
        if "tt-size" in values:  # first: it is the one that may fail now
            self._resize(values.pop("tt-size"))
        if "variant" in values:
            self._set_variant(values.pop("variant"))
        rules = False
        if "eval" in values:
            self._eval = values.pop("eval")
            rules = True
        if "eval-file" in values:
            self._weights_file = values.pop("eval-file")
            rules = True
        for name, field_name in _TUNING.items():
            if name in values:
                value = values.pop(name)
                if name == "probcut" and value == "auto":
                    self._tuning.pop(field_name, None)
                else:
                    self._tuning[field_name] = value
        if rules:
            self._apply_eval()
            self._searcher.clear()
        self._apply_search_params()
        if "threads" in values:
            self._set_threads(values.pop("threads"))
        if "level" in values:
            self._set_level(values.pop("level"))
        if "move-overhead" in values:
            self._move_overhead = values.pop("move-overhead") / 1000.0
        if "egdb-path" in values:
            self._set_egdb(values.pop("egdb-path"))
        if "book" in values:
            source = values.pop("book")
            books, old = self._books, self._book_source
            self._books, self._book_source = {}, source
            if isinstance(source, str) and source != "auto":
                try:
                    self._book_for(self._variant)
                except DraughtsError:
                    self._books, self._book_source = books, old
                    raise
        if "book-margin" in values:
            self.book_margin = values.pop("book-margin")
        assert not values, f"options not applied: {values}"

    @property
    def variant(self) -> Variant:
        """The variant searched now (the last board's)."""
        return self._variant

    @property
    def eval(self) -> str:
        """The evaluation in use: "classic" or "learned"."""
        return self._eval or default_eval(self._variant)

    @property
    def search_params(self) -> SearchParams:
        """The search tuning in use: the variant's defaults
        (`default_search_params`) with the user's choices over them."""
        return replace(default_search_params(self._variant, self.eval), **self._tuning)

    @property
    def probcut(self) -> Optional[ProbCutFit]:
        """The ProbCut figures in use (None: no ProbCut)."""
        return self.search_params.probcut

    @property
    def level(self) -> int:
        """Strength 1 (weakest) to 20 (full strength)."""
        return self._level

    @property
    def threads(self) -> int:
        """Search threads (Lazy SMP: helpers search beside the main thread and
        share its transposition table; 1 is the single-threaded search, node
        for node)."""
        return self._searcher.threads

    @property
    def tt_mb(self) -> int:
        """The transposition table's size in MiB."""
        return self._tt_mb

    @property
    def move_overhead(self) -> float:
        """Seconds kept back from every timed move (see DEFAULT_MOVE_OVERHEAD)."""
        return self._move_overhead

    @staticmethod
    def _check_tt(tt_mb: Any) -> int:
        if not isinstance(tt_mb, int) or isinstance(tt_mb, bool) or not 1 <= tt_mb <= 65536:
            raise InvalidInputError(f"tt_mb must be a whole number of MiB from 1 to 65536, not {tt_mb!r}")
        check_table_size(tt_mb, "transposition table")
        return tt_mb

    @staticmethod
    def _check_overhead(seconds: Any) -> float:
        if (
            isinstance(seconds, bool)
            or not isinstance(seconds, (int, float))
            or not math.isfinite(seconds)
            or not 0 <= seconds <= 60
        ):
            raise InvalidInputError(f"move_overhead must be a number of seconds from 0 to 60, not {seconds!r}")
        return float(seconds)

    def _set_egdb(self, egdb: Union[None, str, Database]) -> None:
        """Probe endgame databases: a directory (the database of the engine's
        variant in it is loaded, again after a change of variant; none there is
        no error), a loaded `Database`, or None for none."""
        self._egdb_source = egdb
        self._egdb_cache.clear()
        self._load_egdb()

    def _load_egdb(self) -> None:
        src, db = self._egdb_source, None
        if not egdb_supported(self._variant):
            src = None  # no databases for these rules (frisian, killer, turkish, ...)
        if isinstance(src, Database):
            db = src if rule_fields(src.variant) == rule_fields(self._variant) else None
        elif src is not None:
            key = rule_fields(self._variant)
            if key not in self._egdb_cache:
                where = egdb_auto_dir(self._variant) if src == EGDB_AUTO else src
                self._egdb_cache[key] = open_shared(self._variant, where) if where is not None else None
            db = self._egdb_cache[key]
        self.egdb = db
        self._searcher.set_egdb(db.core if db is not None else None)

    def _apply_eval(self) -> None:
        table = learned.load(self._variant, self._weights_file) if self.eval == "learned" else None
        self._searcher.set_learned(table)

    def _apply_search_params(self) -> None:
        params = self.search_params
        self._searcher.set_tuning(**params.core())
        fit = params.probcut
        try:
            if fit is None:
                self._searcher.set_probcut()
            else:
                self._searcher.set_probcut(*fit.packed(), captures=fit.captures)
        except ValueError as e:
            raise InvalidInputError(f"probcut: {e}") from None

    def probcut_counts(self) -> Tuple[int, int]:
        """ProbCut's shallow searches in the last search and the cuts they made."""
        return self._searcher.pc_tries, self._searcher.pc_cuts

    def _weights(self) -> EvalWeights:
        return self._weights_override or default_weights(self._variant)

    def _configure_rules(self) -> None:
        v = self._variant
        self._searcher.set_rules(v.core_rules)
        self._searcher.set_weights(**self._weights().core())
        self._apply_eval()
        self._apply_search_params()

    def _set_variant(self, variant: Variant) -> None:
        if variant != self._variant:
            self._variant = variant
            self._configure_rules()
            self._searcher.clear()
            if self._egdb_source is not None:
                self._load_egdb()

    def _set_level(self, level: int) -> None:
        self._level = level
        _, noise = level_settings(level)
        self._searcher.set_noise(noise, self._seed)

    def _resize(self, tt_mb: int) -> None:
        """A new table; if it cannot be had, the old one stays (and `tt_mb`
        still says its size)."""
        try:
            with self._lock:
                self._searcher.resize(tt_mb)
        except MemoryError:
            raise TableMemoryError(
                f"cannot allocate a {tt_mb} MiB transposition table; keeping the {self._tt_mb} MiB one"
            ) from None
        self._tt_mb = tt_mb

    def _set_threads(self, threads: int) -> None:
        with self._lock:  # waits for a running search to end
            self._searcher.set_threads(threads)

    # --- the opening book ------------------------------------------------------------
    def _book_for(self, variant: Variant) -> Optional["Book"]:
        """The book that answers in this variant (None: none)."""
        from draughts.book import Book, shipped_path

        source = self._book_source
        if source is None:
            return None
        if variant.name not in self._books:
            if isinstance(source, Book):
                book: Optional[Book] = source
            elif source == "auto":
                path = shipped_path(variant)
                book = Book(path) if os.path.exists(path) else None
            else:
                book = Book(source)
            if book is not None and book.rules_differ(variant):
                if source != "auto" and not isinstance(source, Book) and book.variant.name == variant.name:
                    book.check_rules(variant)  # the same name, other rules: say so
                book = None
            self._books[variant.name] = book
        return self._books[variant.name]

    @property
    def book(self) -> Optional["Book"]:
        """The opening book answering in the current variant (None: none)."""
        return self._book_for(self._variant)

    def book_move(self, board: Board) -> Optional["BookMove"]:
        """The book's move for the board (None: the position is not in the
        book, or no book): one of its moves within `book_margin` centi-men of
        the best, drawn from a generator seeded by the engine's seed and the
        position, so an engine of a given seed plays the same book."""
        book = self._book_for(board.variant)
        if book is None:
            return None
        from draughts.book import position_hash

        return book.choose(board, self.book_margin, random.Random(self._seed ^ position_hash(board)[0]))

    # --- games and searches ----------------------------------------------------------
    def new_game(self) -> None:
        """The next search is unrelated to the last: clear the table and the move-ordering tables."""
        self._searcher.clear()

    def stop(self) -> None:
        """Stop the running search (from another thread); it returns its best move
        so far.  A stop that comes after `arm()` but before the search has begun
        stops that search as soon as it begins."""
        self._searcher.stop()

    def quit(self) -> None:
        """Stop a running search; the engine may still be used afterwards
        (there is no process to end)."""
        self._searcher.stop()

    def arm(self) -> None:
        """Forget earlier stops: the next search runs until its limits or a
        stop() from now on.  play() and analyse() arm themselves unless told
        not to."""
        self._searcher.pending_stop = False

    def evaluate(self, board: Board) -> float:
        """The static evaluation of the position, in men from the side to move."""
        self._set_variant(board.variant)
        return self._searcher.evaluate(board.position) / 100.0

    @staticmethod
    def time_budget(
        time: float, inc: float = 0.0, moves_to_go: Optional[int] = None, overhead: float = DEFAULT_MOVE_OVERHEAD
    ) -> Tuple[float, float]:
        """(soft, hard) seconds of search on a clock: `draughts.limits.clock_budget`."""
        return clock_budget(time, inc, moves_to_go, overhead)

    def move_budget(self, limit: Limit) -> Tuple[float, float]:
        """(soft, hard) seconds of search under the limit's move time or
        clock, less this engine's move overhead, its recent lateness and
        STALL_FACTOR times its recent stalls; (0, 0) when neither is given."""
        return search_budget(limit, self._move_overhead + self.lateness + STALL_FACTOR * self.stall)

    def _note_lateness(self, begun: float, hard: float) -> None:
        """Record how far past `begun + hard` (seconds) this timed search answers."""
        late = clock() - begun - hard
        self.lateness = min(LATENESS_MAX, max(late, self.lateness * LATENESS_DECAY, 0.0))
        stall = self._searcher.max_stall_ms / 1000.0
        self.stall = min(LATENESS_MAX, max(stall, self.stall * LATENESS_DECAY))

    @staticmethod
    def clock() -> float:
        """The search's clock (seconds): pass a reading as `play(start=...)`."""
        return clock()

    def play(
        self,
        board: Board,
        limit: Optional[Limit] = None,
        *,
        on_info: Optional[Callable[[Info], None]] = None,
        arm: bool = True,
        start: Optional[float] = None,
    ) -> PlayResult:
        """Search the board's position and return the best move found, with
        the reply expected (`ponder`) and the last iteration's `Info`.

        With no limit the search stops at depth 12 (use `Limit(infinite=True)`
        and `stop()` to search until told).  `on_info` is called with every
        finished iteration's Info.  Times count from `start` (an
        `Engine.clock()` reading taken when the move's clock started;
        default: now) and keep `move_overhead` back.  The GIL is released
        while searching.  A caller that starts the search on another thread
        calls `arm()` first and passes arm=False, so that a stop sent in
        between is not lost.  A position without a legal move is a
        DraughtsError.
        """
        if not board.legal_moves:
            raise InvalidInputError(f"no legal move in {board.fen()}: the game is over")
        lines, elapsed, budget = self._search(board, limit, 1, on_info, arm, start)
        info = lines[0]
        return PlayResult(
            info.pv[0], info.pv[1] if len(info.pv) > 1 else None, info, elapsed, budget is not None and elapsed > budget
        )

    def analyse(
        self,
        board: Board,
        limit: Optional[Limit] = None,
        multipv: int = 1,
        *,
        on_info: Optional[Callable[[Info], None]] = None,
        arm: bool = True,
        start: Optional[float] = None,
    ) -> List[Info]:
        """The `multipv` best root moves, each with its score and line, best
        first (one a legal move at most; none when the game is over).  The
        limit, `on_info` (called for every line of every finished iteration,
        `Info.multipv` telling which), `arm` and `start` are play()'s.  With
        multipv > 1 the lines are searched in turn at each depth on one
        thread (the first as the best line, then the best of the moves not
        yet reported), sharing the table; multipv 1 is play()'s search."""
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise InvalidInputError(f"multipv must be a whole number from 1 up, not {multipv!r}")
        if not board.legal_moves:
            return []
        return self._search(board, limit, multipv, on_info, arm, start)[0]

    def _search(
        self,
        board: Board,
        limit: Optional[Limit],
        multipv: int,
        on_info: Optional[Callable[[Info], None]],
        arm: bool,
        start: Optional[float],
    ) -> Tuple[List[Info], float, Optional[float]]:
        """(the lines, best first; seconds from `start` to the answer; the
        seconds the limit grants, None when it is not timed)."""
        if limit is None:
            limit = Limit()
        elif not isinstance(limit, Limit):
            raise InvalidInputError(f"the limit is a draughts.Limit, not {type(limit).__name__}")
        if start is not None and (
            isinstance(start, bool) or not isinstance(start, (int, float)) or not math.isfinite(start) or start < 0
        ):
            raise InvalidInputError(f"start must be an Engine.clock() reading, not {start!r}")
        if arm:
            self.arm()
        self._set_variant(board.variant)
        begun = start if start is not None else clock()
        if multipv == 1 and not limit.infinite and self._book_source is not None:
            bm = self.book_move(board)
            if bm is not None:
                men, win = _score_men(
                    bm.score if abs(bm.score) < 3000 else (WIN_SCORE - 1 if bm.score > 0 else -WIN_SCORE + 1)
                )
                took = clock() - begun
                book = self._book_for(board.variant)
                assert book is not None
                info = Info(
                    depth=bm.depth, score=men, win_in=win, nodes=0, time=took, pv=book.line(board, bm.move), book=True
                )
                if on_info is not None:
                    on_info(info)
                return [info], took, self.move_budget(limit)[1] or None
        soft, hard = self.move_budget(limit)
        timed = hard > 0 and not limit.infinite
        soft, hard = soft * 1000.0, hard * 1000.0
        max_depth = limit.depth or 0
        cap, _ = level_settings(self._level)
        if cap:
            max_depth = min(max_depth, cap) if max_depth else cap
        if limit.empty and not cap:
            max_depth = 12
        legal = list(board.legal_moves)
        if (
            limit.budget() is not None
            and not limit.infinite
            and limit.depth is None
            and limit.nodes is None
            and len(legal) == 1
        ):
            # one legal move on a clock: nothing to choose, so no time to
            # spend; a one-ply search still gives the score and the reply
            max_depth, soft, hard, timed = 1, 0.0, 0.0, False
        lines_wanted = min(multipv, len(legal), MULTIPV_LINES)
        state = board.search_state()

        def info_of(d: int, sel: int, score: int, n: int, ms: float, pv: List[Any], index: int) -> Info:
            men, win = _score_men(score)
            t = ms / 1000.0
            return Info(
                d,
                sel,
                men,
                win,
                n,
                t,
                n / t if t > 0 else 0.0,
                self._pv_moves(board, pv),
                index,
                self._searcher.egdb_hits,
            )

        def info_cb(d: int, sel: int, score: int, n: int, ms: float, pv: List[Any], index: int) -> None:
            if on_info is not None:
                on_info(info_of(d, sel, score, n, ms, pv, index))

        with self._lock:
            r = self._searcher.run(
                state.position,
                state.history,
                max_depth=max_depth,
                nodes=limit.nodes or 0,
                soft_ms=soft,
                hard_ms=hard,
                rev=state.reversible,
                cp=state.capture_promo,
                egp=state.endgame_plies,
                callback=info_cb if on_info else None,
                start=start or 0.0,
                multipv=lines_wanted,
            )
            mv, score, d, sel, n, ms, pv = r.move, r.score, r.depth, r.seldepth, r.nodes, r.ms, r.pv
            found = self._searcher.lines
        if lines_wanted > 1 and found:
            lines = [info_of(ld, lsel, lscore, n, ms, lpv, k + 1) for k, (lscore, ld, lsel, lpv) in enumerate(found)]
        else:
            best = info_of(d, sel, score, n, ms, pv, 1)
            mv_obj = board.move_of_code(mv) if mv is not None else None
            if mv_obj is None:  # stopped before the first iteration
                best.pv = [legal[0]]
            elif not best.pv or best.pv[0] != mv_obj:
                best.pv = [mv_obj]
            lines = [best]
        if timed:
            self._note_lateness(begun, hard / 1000.0)
        return lines, clock() - begun, limit.budget() if timed else None

    def _pv_moves(self, board: Board, pv: List[Any]) -> List[Move]:
        out = []
        b = board.copy(stack=False)
        for mv in pv:
            m = b.move_of_code(mv)
            if m is None:
                break
            out.append(m)
            b.push(m)
        return out

"""The engine: a negamax search in the native core behind a small Python API.

    >>> import draughts
    >>> board = draughts.Board(variant="american")
    >>> engine = draughts.Engine(variant="american", tt_mb=16)
    >>> result = engine.search(board, depth=8)
    >>> result.move in board.legal_moves, result.depth, len(result.pv) >= 1
    (True, 8, True)

Scores are in men from the side to move (1.00 = one man).  A won position
scores 100 less a hundredth per ply to the win (Scan's convention, as the Hub
protocol reports it: 99.97 wins in 3 plies) and `SearchResult.win_in` tells
the plies (negative: the side to move loses).  With an endgame database
(`Engine(egdb=DIR)`, see `draughts.egdb`) a position it knows to be won
scores 90 men less a hundredth a ply plus the evaluation within 8 men.
"""

from __future__ import annotations

import math
import os
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple, Union

from draughts import learned
from draughts._memory import check_table_size
from draughts.board import Board, Move
from draughts.egdb import Database, complete_pieces, rule_fields, supported as egdb_supported
from draughts.errors import InvalidInputError, TableMemoryError
from draughts.limits import Limit, clock_budget, search_budget
from draughts.variants import Variant, variant as get_variant
from draughts_core.search import THREADS_MAX, WIN_SCORE, WIN_THRESHOLD, Searcher, clock

LEVEL_MAX = 20
#: seconds kept back from every timed move for the way of the answer to the
#: caller: the pipe both ways, the process being scheduled on a loaded
#: machine, the Python work before and after the search.  Chosen from the
#: latencies measured in benchmarks/README.md ("Time losses").
DEFAULT_MOVE_OVERHEAD = 0.020
#: the engine's measured lateness (see Engine.lateness): its high-water mark
#: keeps this share a move, and is never taken above LATENESS_MAX seconds
LATENESS_DECAY = 0.9
LATENESS_MAX = 0.5
EVALS = ("classic", "learned")
#: variants whose default evaluation is the learned one (it won in self-play)
LEARNED_DEFAULT = frozenset({
    "american", "international", "russian", "brazilian", "spanish", "czech", "italian",
    "frisian", "frysk", "antidraughts", "killer", "pool", "thai", "turkish", "breakthrough",
})


@dataclass(frozen=True)
class ProbCutFit:
    """ProbCut's figures for one variant and evaluation (fitted by
    benchmarks/probcut_fit.py): from depth `min_depth`, a search of
    `shallow_pct` per cent of the depth predicts the deep score as
    slope * shallow + intercept (centi-men) with a residual spread of
    sigma + sigma_per_ply * depth; a node is cut when the prediction clears
    beta by `t` spreads."""

    min_depth: int
    shallow_pct: int
    slope: float
    intercept: int
    sigma: float
    sigma_per_ply: float
    t: float

    def packed(self) -> Tuple[int, int, int, List[int], List[int]]:
        """The core's tables: (min_depth, slope x1024, intercept, shallow depth
        by depth, margin by depth), as `Searcher.set_probcut` takes them."""
        shallow = [min(max(1, d * self.shallow_pct // 100), max(d - 1, 1)) for d in range(64)]
        margin = [max(0, round(self.t * (self.sigma + self.sigma_per_ply * d))) for d in range(64)]
        return self.min_depth, round(self.slope * 1024), self.intercept, shallow, margin


#: ProbCut per (variant, evaluation), fitted by benchmarks/probcut_fit.py and
#: kept where a node-limited SPRT against the search without it passed
#: (benchmarks/README.md, "Selectivity (issue 13), session 4"); elsewhere off.
PROBCUT: Dict[Tuple[str, str], ProbCutFit] = {
    # probcut_fit.py --variant american --positions 300 --depth 14 (seed 2026):
    # shallow 50 %, slope 1.04, intercept -1, sigma_d = 23.0 + 1.36 d; t = 1.0
    ("american", "learned"): ProbCutFit(min_depth=4, shallow_pct=50, slope=1.04, intercept=-1,
                                        sigma=23.0, sigma_per_ply=1.36, t=1.0),
    # probcut_fit.py --variant italian --positions 300 --depth 14 (seed 2026):
    # shallow 50 %, slope 1.044, intercept -1, sigma_d = 47.8 + 0.13 d; t = 1.5
    # (Buro's): at t = 1.0 the search missed the shot of tests/test_shots.py's
    # italian-1 at depths 8-11
    ("italian", "learned"): ProbCutFit(min_depth=4, shallow_pct=50, slope=1.044, intercept=-1,
                                       sigma=47.8, sigma_per_ply=0.13, t=1.5),
}


@dataclass(frozen=True)
class EvalWeights:
    """Evaluation weights in centi-men (100 = one man)."""

    man: int = 100
    king: int = 300
    advance: Tuple[int, ...] = ()
    back_guard: int = 6
    centre: int = 4
    runaway: int = 30
    king_mobility: int = 2
    trade: int = 60
    lone_king_draw: bool = True

    def packed(self):
        return (self.man, self.king, tuple(self.advance), self.back_guard, self.centre,
                self.runaway, self.king_mobility, self.trade, int(self.lone_king_draw))


def default_weights(v: Variant) -> EvalWeights:
    """Weights per variant: a king's worth depends on flying or short kings and board size;
    antidraughts and breakthrough have their own goals."""
    rows = v.size
    if v.goal == "losing":
        # (eval_losing_g) own pieces and own moves are liabilities; men kept
        # back a little better than men advanced (they can still be given away)
        return EvalWeights(man=100, king=150, advance=(0,) * (rows - 3) + (-2, -4, 0), back_guard=0,
                           centre=0, runaway=0, king_mobility=4, trade=0, lone_king_draw=False)
    if v.goal == "breakthrough":
        # the first king wins: advancement and runaway men dominate
        advance = (0, 2, 5, 9, 14, 21, 30, 44, 64, 0) if rows == 10 else (0, 3, 7, 13, 22, 36, 56, 0)
        return EvalWeights(man=100, king=100, advance=advance, back_guard=8, centre=3, runaway=250,
                           king_mobility=0, trade=30, lone_king_draw=False)
    if v.halt_behind_king:
        # killer: two or three kings do win against a lone king
        return EvalWeights(king=320, advance=(0, 1, 2, 3, 5, 7, 9, 12, 16, 0), back_guard=4,
                           centre=3, runaway=40, king_mobility=1, lone_king_draw=False)
    if v.size == 10:
        return EvalWeights(king=320, advance=(0, 1, 2, 3, 5, 7, 9, 12, 16, 0), back_guard=4,
                           centre=3, runaway=40, king_mobility=1)
    if v.geometry == "orthogonal":
        # turkish: kings fly along rows and columns and are worth about three
        # men; men start on the second and third rows and gain as they advance
        return EvalWeights(king=300, advance=(0, 0, 0, 4, 8, 13, 20, 0), back_guard=3,
                           centre=3, runaway=0, king_mobility=2, lone_king_draw=False)
    if v.flying_kings:
        # a king that must land right behind the piece it takes (thai) is caught by
        # two kings: a lone king is not drawish there
        return EvalWeights(king=250, advance=(0, 2, 4, 7, 10, 14, 20, 0), back_guard=6,
                           centre=4, runaway=35, king_mobility=2,
                           lone_king_draw=not v.king_lands_behind)
    # short kings: worth about one and a half men; men are slow, guard the back rank
    king = 170 if not v.men_capture_kings else 150
    return EvalWeights(king=king, advance=(0, 2, 4, 6, 9, 12, 16, 0), back_guard=10,
                       centre=5, runaway=30, king_mobility=3, lone_king_draw=False)


def default_eval(v: Variant) -> str:
    """The evaluation an Engine uses for a variant unless told otherwise."""
    return "learned" if v.name in LEARNED_DEFAULT and learned.has_weights(v) else "classic"


@dataclass
class Info:
    """What one finished iteration found."""

    depth: int
    seldepth: int
    score: float
    nodes: int
    time: float
    nps: float
    pv: List[Move]
    win_in: Optional[int] = None
    #: positions the endgame database answered so far
    egdb_hits: int = 0


@dataclass
class SearchResult:
    move: Optional[Move]
    score: float
    pv: List[Move]
    depth: int
    seldepth: int
    nodes: int
    time: float
    nps: float
    win_in: Optional[int] = None
    #: the move the engine expects in reply (second move of the PV), if any
    ponder: Optional[Move] = None
    #: positions the endgame database answered
    egdb_hits: int = 0


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


class Engine:
    """A search engine for one variant at a time (it follows the board it is given)."""

    def __init__(self, variant: Union[str, Variant] = "international", *, tt_mb: int = 64,
                 level: int = LEVEL_MAX, weights: Optional[EvalWeights] = None,
                 seed: Optional[int] = None, move_overhead: float = DEFAULT_MOVE_OVERHEAD,
                 eval: Optional[str] = None, weights_file: Optional[str] = None,
                 egdb: Union[None, str, "os.PathLike[str]", Database] = None, threads: int = 1):
        """eval: "classic" or "learned" (None: the variant's default, see
        default_eval); weights_file: a learned weights file to use instead of
        the shipped one (for the variant of this engine); egdb: endgame
        databases to probe (a directory or a loaded Database; see set_egdb);
        threads: search threads sharing the transposition table (see
        set_threads)."""
        self.variant = get_variant(variant)
        self._weights_override = weights
        self._eval = self._check_eval(eval)
        self._weights_file = weights_file
        self._tt_mb = self._check_tt(tt_mb)
        #: seconds kept back from every timed move (see DEFAULT_MOVE_OVERHEAD)
        self.move_overhead = self._check_overhead(move_overhead)
        #: seconds by which timed searches have lately returned past their
        #: hard limit (the process not scheduled in time on a busy machine, a
        #: slow answer path): a high-water mark that decays by LATENESS_DECAY
        #: a move, kept back from timed moves on top of `move_overhead`
        self.lateness = 0.0
        try:
            self._searcher = Searcher(self.variant.core_rules, self._weights().packed(), self._tt_mb)
        except MemoryError:
            raise TableMemoryError(f"cannot allocate a {tt_mb} MiB transposition table") from None
        self._probcut_choice: Union[None, str, ProbCutFit] = "auto"
        self._configure_rules()
        self._lock = threading.Lock()
        self.set_threads(threads)
        self._seed = seed if seed is not None else int.from_bytes(os.urandom(8), "little") >> 2
        self.level = LEVEL_MAX
        self.set_level(level)
        #: the endgame database in use (None: none)
        self.egdb: Optional[Database] = None
        self._egdb_source: Union[None, str, Database] = None
        self._egdb_cache: dict = {}
        self.set_egdb(egdb)

    def set_egdb(self, egdb: Union[None, str, "os.PathLike[str]", Database]) -> None:
        """Probe endgame databases: a directory (the database of the engine's
        variant in it is loaded, again after a change of variant; none there is
        no error), a loaded `Database`, or None for none."""
        if egdb is not None and not isinstance(egdb, Database):
            egdb = os.fspath(egdb)
            if not os.path.isdir(egdb):
                raise InvalidInputError(f"no endgame database directory {egdb!r}")
        self._egdb_source = egdb
        self._egdb_cache.clear()
        self._load_egdb()

    def _load_egdb(self) -> None:
        src, db = self._egdb_source, None
        if not egdb_supported(self.variant):
            src = None                  # no databases for these rules (frisian, killer, turkish, ...)
        if isinstance(src, Database):
            db = src if rule_fields(src.variant) == rule_fields(self.variant) else None
        elif src is not None:
            key = rule_fields(self.variant)
            if key not in self._egdb_cache:
                found = complete_pieces(self.variant, src) >= 2
                self._egdb_cache[key] = Database.open(self.variant, src) if found else None
            db = self._egdb_cache[key]
        self.egdb = db
        self._searcher.set_egdb(db.core if db is not None else None)

    @staticmethod
    def _check_tt(tt_mb) -> int:
        if not isinstance(tt_mb, int) or isinstance(tt_mb, bool) or not 1 <= tt_mb <= 65536:
            raise InvalidInputError(f"tt_mb must be a whole number of MiB from 1 to 65536, not {tt_mb!r}")
        check_table_size(tt_mb, "transposition table")
        return tt_mb

    @staticmethod
    def _check_overhead(seconds) -> float:
        if (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                or not math.isfinite(seconds) or not 0 <= seconds <= 60):
            raise InvalidInputError(f"move_overhead must be a number of seconds from 0 to 60, not {seconds!r}")
        return float(seconds)

    @staticmethod
    def _check_eval(name: Optional[str]) -> Optional[str]:
        if name is not None and name not in EVALS:
            raise InvalidInputError(f"eval must be one of {', '.join(EVALS)}, not {name!r}")
        return name

    @property
    def eval(self) -> str:
        """The evaluation in use: "classic" or "learned"."""
        return self._eval or default_eval(self.variant)

    def set_eval(self, name: Optional[str]) -> None:
        """Evaluate with "classic" or "learned" (None: the variant's default)."""
        self._eval = self._check_eval(name)
        self._apply_eval()
        self._searcher.clear()

    def _apply_eval(self) -> None:
        table = learned.load(self.variant, self._weights_file) if self.eval == "learned" else None
        self._searcher.set_learned(table)
        self._apply_probcut()

    @property
    def probcut(self) -> Optional[ProbCutFit]:
        """The ProbCut figures in use (None: no ProbCut)."""
        choice = self._probcut_choice
        if isinstance(choice, str):             # "auto"
            return PROBCUT.get((self.variant.name, self.eval))
        return choice

    def set_probcut(self, fit: Union[None, str, ProbCutFit] = "auto") -> None:
        """Search with these ProbCut figures: "auto" (the default) takes the
        variant's and evaluation's from `PROBCUT` (none there: off), again
        after either changes; a `ProbCutFit` or None (off) is kept whatever
        the variant."""
        if not (fit is None or fit == "auto" or isinstance(fit, ProbCutFit)):
            raise InvalidInputError(f"probcut takes a ProbCutFit, None or 'auto', not {fit!r}")
        old, self._probcut_choice = self._probcut_choice, fit
        try:
            self._apply_probcut()
        except InvalidInputError:
            self._probcut_choice = old
            raise

    def probcut_counts(self) -> Tuple[int, int]:
        """ProbCut's shallow searches in the last search and the cuts they made."""
        return self._searcher.pc_tries, self._searcher.pc_cuts

    def _apply_probcut(self) -> None:
        fit = self.probcut
        try:
            self._searcher.set_probcut(*(fit.packed() if fit is not None else ()))
        except ValueError as e:
            raise InvalidInputError(f"probcut: {e}") from None

    def _weights(self) -> EvalWeights:
        return self._weights_override or default_weights(self.variant)

    def _configure_rules(self):
        v = self.variant
        self._searcher.set_rules(v.core_rules)
        self._searcher.set_weights(self._weights().packed())
        self._apply_eval()
        # futility pruning that never skips a move offering a capture (a shot):
        # node-equal self-play against none, american -2 Elo (200 games),
        # russian +21 (100), international +35 (120); it also saves time
        self.set_tuning(futility=120)

    def set_variant(self, variant: Union[str, Variant]) -> None:
        new = get_variant(variant)
        if new != self.variant:
            self.variant = new
            self._configure_rules()
            self._searcher.clear()
            if self._egdb_source is not None:
                self._load_egdb()

    def set_tuning(self, lmr_mode: int = 1, lmr_divisor: int = 225, futility: int = 0) -> None:
        """Search tuning knobs (for testing changes against each other):
        late-move reductions (mode 0 fixed, 1 logarithmic) and the futility
        margin per ply in centi-men (0: off)."""
        self._searcher.set_tuning(lmr_mode, lmr_divisor, futility)

    def set_level(self, level: int) -> None:
        """Strength 1 (weakest) to 20 (full strength)."""
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= LEVEL_MAX:
            raise InvalidInputError(f"level must be a whole number from 1 to {LEVEL_MAX}, not {level!r}")
        self.level = level
        _, noise = level_settings(level)
        self._searcher.set_noise(noise, self._seed)

    def resize(self, tt_mb: int) -> None:
        """A new transposition table of tt_mb MiB; if it cannot be had, the
        old table stays (and `tt_mb` still says its size).  Taken between
        searches (the threads of a running one are reading the table)."""
        size = self._check_tt(tt_mb)
        try:
            with self._lock:
                self._searcher.resize(size)
        except MemoryError:
            raise TableMemoryError(f"cannot allocate a {size} MiB transposition table; "
                                   f"keeping the {self._tt_mb} MiB one") from None
        self._tt_mb = size

    def set_threads(self, threads: int) -> None:
        """Search on `threads` native threads (Lazy SMP: helpers search beside
        the main thread and share its transposition table; the GIL is
        released).  1 is the single-threaded search, node for node.  Taken
        between searches (it waits for a running one to end)."""
        if (not isinstance(threads, int) or isinstance(threads, bool)
                or not 1 <= threads <= THREADS_MAX):
            raise InvalidInputError(f"threads must be a whole number from 1 to {THREADS_MAX}, not {threads!r}")
        with self._lock:
            self._searcher.set_threads(threads)

    @property
    def threads(self) -> int:
        """Search threads (see set_threads)."""
        return self._searcher.threads

    def set_move_overhead(self, seconds: float) -> None:
        """Seconds kept back from every timed move."""
        self.move_overhead = self._check_overhead(seconds)

    @property
    def tt_mb(self) -> int:
        return self._tt_mb

    def new_game(self) -> None:
        """The next search is unrelated to the last: clear the table and the move-ordering tables."""
        self._searcher.clear()

    def stop(self) -> None:
        """Stop the running search (from another thread); it returns its best move
        so far.  A stop that comes after `arm()` but before the search has begun
        stops that search as soon as it begins."""
        self._searcher.stop()

    def arm(self) -> None:
        """Forget earlier stops: the next search runs until its limits or a
        stop() from now on.  search() arms itself unless told not to."""
        self._searcher.pending_stop = False

    def evaluate(self, board: Board) -> float:
        """The static evaluation of the position, in men from the side to move."""
        self.set_variant(board.variant)
        return self._searcher.evaluate(board.position) / 100.0

    @staticmethod
    def time_budget(time: float, inc: float = 0.0, moves_to_go: Optional[int] = None,
                    overhead: float = DEFAULT_MOVE_OVERHEAD) -> Tuple[float, float]:
        """(soft, hard) seconds of search on a clock: `draughts.limits.clock_budget`."""
        return clock_budget(time, inc, moves_to_go, overhead)

    def move_budget(self, limit: Limit) -> Tuple[float, float]:
        """(soft, hard) seconds of search under the limit's move time or
        clock, less this engine's move overhead and its recent lateness; (0,
        0) when neither is given."""
        return search_budget(limit, self.move_overhead + self.lateness)

    def _note_lateness(self, begun: float, hard: float) -> None:
        """Record how far past `begun + hard` (seconds) this timed search answers."""
        late = clock() - begun - hard
        self.lateness = min(LATENESS_MAX, max(late, self.lateness * LATENESS_DECAY, 0.0))

    @staticmethod
    def clock() -> float:
        """The search's clock (seconds): pass a reading as `search(start=...)`."""
        return clock()

    def search(self, board: Board, limit: Optional[Limit] = None, *, depth: Optional[int] = None,
               nodes: Optional[int] = None, movetime: Optional[float] = None,
               time: Optional[float] = None, inc: Optional[float] = None,
               moves_to_go: Optional[int] = None, infinite: bool = False,
               on_info: Optional[Callable[[Info], None]] = None, arm: bool = True,
               start: Optional[float] = None) -> SearchResult:
        """Search the board's position and return the best move found.

        The limit is a `Limit`, or its fields as keywords.  With no limit at
        all the search stops at depth 12 (use `infinite=True` and `stop()` to
        search until told).  `time` is the clock before this move's increment
        `inc`.  Times count from `start` (an `Engine.clock()` reading taken
        when the move's clock started; default: now) and keep `move_overhead`
        back.  The GIL is released while searching.  A caller that starts the
        search on another thread calls `arm()` first and passes arm=False, so
        that a stop sent in between is not lost.
        """
        keywords = Limit(depth, nodes, movetime, time, inc, moves_to_go, infinite)
        if limit is None:
            limit = keywords
        elif not isinstance(limit, Limit):
            raise InvalidInputError(f"search takes a draughts.Limit, not {type(limit).__name__}")
        elif not keywords.empty:
            raise InvalidInputError("search takes a Limit or limit keywords, not both")
        if start is not None and (isinstance(start, bool) or not isinstance(start, (int, float))
                                  or not math.isfinite(start) or start < 0):
            raise InvalidInputError(f"start must be an Engine.clock() reading, not {start!r}")
        if arm:
            self.arm()
        self.set_variant(board.variant)
        begun = start if start is not None else clock()
        soft, hard = self.move_budget(limit)
        timed = hard > 0 and not limit.infinite
        soft, hard = soft * 1000.0, hard * 1000.0
        depth, nodes = limit.depth, limit.nodes
        max_depth = depth or 0
        cap, _ = level_settings(self.level)
        if cap:
            max_depth = min(max_depth, cap) if max_depth else cap
        if limit.empty and not cap:
            max_depth = 12
        if (limit.budget() is not None and not limit.infinite and limit.depth is None
                and limit.nodes is None and board.legal_moves.count() == 1):
            # one legal move on a clock: nothing to choose, so no time to
            # spend; a one-ply search still gives the score and the reply
            max_depth, soft, hard, timed = 1, 0.0, 0.0, False
        state = board.search_state()

        def info_cb(d, sel, score, n, ms, pv):
            if on_info is None:
                return
            men, win = _score_men(score)
            t = ms / 1000.0
            on_info(Info(d, sel, men, n, t, n / t if t > 0 else 0.0, self._pv_moves(board, pv), win,
                         self._searcher.egdb_hits))

        with self._lock:
            mv, score, d, sel, n, ms, pv = self._searcher.run(
                state.position, state.history, max_depth, nodes or 0, soft, hard,
                state.reversible, state.capture_promo, state.endgame_plies,
                info_cb if on_info else None, start or 0.0)
        legal = list(board.legal_moves)
        mv_obj: Optional[Move]
        if mv is None and legal:
            mv_obj = legal[0]
            pv_moves = [mv_obj]
        else:
            pv_moves = self._pv_moves(board, pv) if pv else []
            mv_obj = board.move_of_code(mv) if mv is not None else None
            if pv_moves and mv_obj is not None and pv_moves[0] != mv_obj:
                pv_moves = [mv_obj]
        men, win = _score_men(score)
        t = ms / 1000.0
        out = SearchResult(mv_obj, men, pv_moves, d, sel, n, t, n / t if t > 0 else 0.0, win,
                           pv_moves[1] if len(pv_moves) > 1 else None, self._searcher.egdb_hits)
        if timed:
            self._note_lateness(begun, hard / 1000.0)
        return out

    def _pv_moves(self, board: Board, pv) -> List[Move]:
        out = []
        b = board.copy(stack=False)
        for mv in pv:
            m = b.move_of_code(mv)
            if m is None:
                break
            out.append(m)
            b.push(m)
        return out

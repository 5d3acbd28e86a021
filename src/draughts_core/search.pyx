# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Iterative deepening negamax: PVS, aspiration windows, transposition table.

The numbered steps of `search`:
  1. stop checks (flag, node limit, clock every 1024 nodes);
  2. draws: repetition on the path or in the game, the variant's move-count
     and endgame rules;
  3. mate-distance pruning;
  4. transposition-table cut-offs (not at PV nodes), then move generation:
     no move is a loss; at the horizon a quiet position is scored
     statically, a capture or a single forced reply is searched on;
  5. ProbCut (non-PV nodes, no capture pending: see `probcut`), then the
     table's move is looked up for ordering;
  6. moves in order: TT move, captures by size, promotions, killers, history;
     late quiet moves at non-PV nodes are searched reduced first;
  7. the result is stored with its bound.
Win scores are WIN - ply (the fastest win scores highest); the table keeps
them relative to the node that stores them.

Parallel search (Lazy SMP): with threads > 1 the Searcher runs helper
Searchers on their own threads (Python threads, each inside a `nogil` search),
sharing its transposition table and its stop flag (`Shared`); each keeps its
own move lists, killers, history, PV, node count and repetition keys.  Every
thread's next iteration is one past the deepest any thread has completed, odd
helpers one ply further still, so that the threads spread over depths; what
they store orders and cuts the others' searches.  A depth-limited search ends
when any thread completes the depth.  The result is the main thread's, or a
helper's that completed a deeper iteration.

Multi-PV (`run(multipv=N)`): on the main thread alone, each depth searches
the root N times, each time leaving out the root moves already reported
(`excluded`, skipped by the root's move loop; the root's result is then not
stored), and sorts the lines by score.  multipv 1 is the plain search.
"""

import threading
from collections import namedtuple

cimport cython

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint16_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from draughts_core.bitboard cimport u64, popcount
from draughts_core.rules cimport Rules, GOAL_LOSING
from draughts_core.movegen cimport (Pos, CMove, MoveList, MAX_MOVES, gen_moves, gen_horizon, make_move,
                                   has_capture, has_quiet_promotion, exchange_squares, exchange_moves,
                                   offers_exchange)
from draughts_core.zobrist cimport full_key, key_after, kmoves_key
from draughts_core.draw cimport DrawCounts, counts_after, draw_by_counts, endgame_class
from draughts_core.tt cimport (TTable, TTEntry, tt_alloc, tt_free, tt_clear, tt_probe, tt_store,
                               tt_hashfull, tt_prefetch, fold16, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT)
from draughts_core.eval cimport EvalW, evaluate
from draughts_core.eval_weights cimport LearnedEval
from draughts_core.position cimport Position, CoreRules
from draughts_core.egdb cimport DB, EGDB, egdb_probe, EG_WIN, EG_LOSS, EG_DRAW, EG_UNKNOWN

#: what Searcher.run returns: the best move's code (None: no move), its score
#: (centi-men for the side to move; WIN_SCORE less plies for a win), the depth
#: completed, the selective depth, the nodes (all threads), the milliseconds,
#: and the principal variation (move codes)
SearchResult = namedtuple("SearchResult", "move score depth seldepth nodes ms pv")

cdef enum:
    MAX_PLY = 128
    MAX_GAME = 1024
    INF = 32000
    WIN = 30000
    WIN_MIN = WIN - 2 * MAX_PLY
    DB_WIN = 9000           # a database win: 90 men less a hundredth a ply, plus the evaluation
    DB_SPREAD = 800         # ... clamped to this, so that the search still makes progress
    MAX_THREADS = 256
    MULTIPV_MAX = 256       # root moves a multi-PV search reports at most
    PC_BOUND = DB_WIN - DB_SPREAD - MAX_PLY    # ProbCut only for windows inside the normal scores

# Move ordering: a move's sort key, in tiers that never overlap: the table's
# move, then captures (more pieces first, a crowning one first among equals),
# quiet promotions, the two killers, then quiet moves by their history score
# (capped below the killers).
cdef enum:
    ORDER_TT = 1 << 28
    ORDER_CAPTURE = 1 << 24         # + 1024 a captured piece + 512 for a promotion
    ORDER_PROMOTION = 1 << 23
    ORDER_KILLER = 1 << 22          # the first killer + 1
    ORDER_HISTORY_MAX = 1 << 21

# The search's tuning (set_tuning; its values and defaults are
# draughts.tuning.SearchParams, not the core's).  Late-move reductions apply
# to quiet moves (no capture, no promotion, below the killers' tier) from the
# lmr_min_index-th move on, at lmr_min_depth and deeper, by
# lmr_table[depth][index], a ply less at PV nodes.  Futility: quiet moves at
# non-PV nodes of depth 1 to futility_depth (margin futility a ply; 0: off).
# Aspiration: a window of +-aspiration round the last score from depth
# aspiration_min_depth (0: every iteration searches the full window).
# horizon_promotions: a quiet horizon position below beta searches the men's
# crowning moves (Scan 2.0's rule) instead of only scoring statically;
# horizon_exchanges: so does a quiet horizon position without kings, the men's
# moves that offer a one-for-one exchange with a certain recapture
# (movegen.offers_exchange).
ctypedef struct Tuning:
    int lmr_min_depth
    int lmr_min_index
    int futility
    int futility_depth
    int aspiration
    int aspiration_min_depth
    int horizon_promotions
    int horizon_exchanges


# ProbCut (Buro): at a non-PV node of depth d >= min_depth, a null-window
# search of depth shallow[d] predicts the deep score as
# slope / 1024 * shallow + intercept; the node fails high when the shallow
# search clears the bound that puts the prediction margin[d] (t residual
# spreads, centi-men) over beta.  The figures are data fitted per variant and
# evaluation (benchmarks/probcut_fit.py; draughts.tuning.PROBCUT), not literals
# of the search; min_depth 0 turns ProbCut off.  The shallow search does no
# ProbCut of its own.  `captures`: also at nodes with a capture on the board.
ctypedef struct ProbCut:
    int min_depth
    int captures
    int slope
    int intercept
    int shallow[64]
    int margin[64]


# What the threads of one search share (the table aside): the stop flag, the
# node limit over all threads and the nodes handed out against it (in batches,
# so that the threads together never search more), the deepest completed
# iteration, and each thread's node count as last published.
ctypedef struct Shared:
    volatile int stop
    int nthreads
    u64 node_limit
    u64 batch
    volatile u64 granted
    volatile int depth_done     # the deepest iteration any thread completed
    volatile u64 counts[MAX_THREADS]


cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static unsigned long long dr_fetch_add(volatile unsigned long long* p, unsigned long long v) {
        return (unsigned long long)_InterlockedExchangeAdd64((volatile long long*)p, (long long)v);
    }
    #else
    static unsigned long long dr_fetch_add(volatile unsigned long long* p, unsigned long long v) {
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    }
    #endif
    """
    u64 dr_fetch_add(volatile u64* p, u64 v) noexcept nogil

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <windows.h>
    #define dr_fence() MemoryBarrier()
    #else
    #define dr_fence() __atomic_thread_fence(__ATOMIC_SEQ_CST)
    #endif
    """
    void dr_fence() noexcept nogil

WIN_SCORE = WIN
MULTIPV_LINES = MULTIPV_MAX


def _line_score(line):
    return line[0]

WIN_THRESHOLD = WIN_MIN
THREADS_MAX = MAX_THREADS


cdef inline double now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6


def clock():
    """The search's clock in seconds (monotonic): a time taken with it can be
    passed to `Searcher.run` as the moment the move's clock started."""
    return now_ms() / 1000.0


cdef inline int score_to_tt(int s, int ply) noexcept nogil:
    if s >= WIN_MIN:
        return s + ply
    if s <= -WIN_MIN:
        return s - ply
    return s


cdef inline int score_from_tt(int s, int ply) noexcept nogil:
    if s >= WIN_MIN:
        return s - ply
    if s <= -WIN_MIN:
        return s + ply
    return s


cdef inline int db_report(int v, int score) noexcept nogil:
    """The score reported for a root the database knows: a won root scores as
    a database win at least (its own material is searched on, with normal
    scores, until a conversion is in sight), a drawn one as a draw."""
    cdef int floor = DB_WIN - DB_SPREAD - MAX_PLY
    if v == EG_WIN:
        return score if score > floor else floor
    if v == EG_LOSS:
        return score if score < -floor else -floor
    if v == EG_DRAW:
        return 0
    return score


cdef inline u64 material(const Pos* p) noexcept nogil:
    """Men and kings of each colour, one byte each."""
    cdef u64 k = p.kings
    return (<u64>popcount(p.bb[0] & ~k) | <u64>popcount(p.bb[0] & k) << 8
            | <u64>popcount(p.bb[1] & ~k) << 16 | <u64>popcount(p.bb[1] & k) << 24)


cdef inline bint same_move(const CMove* a, const CMove* b) noexcept nogil:
    return a.frm == b.frm and a.to == b.to and a.capt == b.capt


cdef inline int div_ceil(int a, int b) noexcept nogil:
    """a / b rounded up, b > 0 (C division truncates towards zero)."""
    return -((-a) // b) if a < 0 else (a + b - 1) // b


cdef inline bint same_capture_scores(const MoveList* ml, int n) noexcept nogil:
    """The list's first n moves are captures of as many pieces as the first,
    crowning as it does: Searcher.order would score them all alike."""
    cdef int i
    cdef int first = ml.moves[0].ncapt | (ml.moves[0].promo << 8)
    for i in range(1, n):
        if (ml.moves[i].ncapt | (ml.moves[i].promo << 8)) != first:
            return False
    return True


cdef inline u64 mix(u64 z) noexcept nogil:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


@cython.final
cdef class Searcher:
    """One search thread's state: rules, weights, table, limits, statistics;
    with threads > 1 also the helpers that search beside it."""

    cdef Rules r
    cdef EvalW w
    cdef TTable tt              # the table (a helper's stays empty: it uses its main's)
    cdef TTable* tab            # the table searched: &tt, or the main Searcher's
    cdef MoveList* lists
    cdef int scores[MAX_PLY][MAX_MOVES]
    cdef Shared own             # what this Searcher's threads share (when it is a main)
    cdef Shared* sh             # &own, or the main Searcher's
    cdef int tid                # thread index: 0 main, 1.. helpers
    cdef u64 poll_mask          # clock (and shared node count) every poll_mask + 1 nodes
    cdef double last_poll       # when this thread last read the clock (ms)
    # the longest time between two clock readings of the main thread in the
    # last search (ms): a few hundred nodes' worth when the thread runs, far
    # more when the machine is busy and it waited to be scheduled
    cdef readonly double max_stall_ms
    cdef list helpers
    cdef list running           # the helpers' threads of the last search (see wait_helpers)
    cdef volatile int done_seq  # odd while a helper writes its result below
    cdef int completed          # a helper's deepest completed iteration, its score and PV
    cdef int done_score
    cdef CMove done_pv[MAX_PLY]
    cdef int done_pvlen
    cdef u64 nodes
    cdef u64 node_limit
    cdef double t0
    cdef double hard_ms
    cdef int seldepth
    cdef u64 keys[MAX_GAME + MAX_PLY]
    cdef int ngame
    cdef CMove killers[MAX_PLY][2]
    cdef int history[2][64][64]
    cdef CMove pv[MAX_PLY][MAX_PLY]
    cdef int pvlen[MAX_PLY]
    cdef u64 noise_seed
    cdef int noise_amp
    cdef int lmr_table[64][64]
    cdef Tuning tn              # the search's tuning (set_tuning)
    cdef ProbCut pc             # ProbCut's fitted figures (pc.min_depth 0: off)
    cdef int in_probcut         # inside a ProbCut search (which does no ProbCut of its own)
    #: ProbCut's shallow searches in the last search, and the cuts they made (all threads)
    cdef readonly u64 pc_tries, pc_cuts
    cdef LearnedEval learned     # the learned evaluation's weights, or None: classic
    cdef object callback_error
    cdef DB* egdb               # endgame database (NULL: none)
    cdef EGDB egdb_owner
    cdef readonly u64 egdb_hits
    cdef u64 root_material
    cdef CMove excluded[MULTIPV_MAX]   # root moves a multi-PV line leaves out (those reported)
    cdef int nexcluded
    #: the lines of the last multi-PV search: (score, depth, seldepth, pv), best first
    cdef readonly list lines
    #: a stop asked for before the core search began (see Engine.arm)
    cdef public bint pending_stop

    def __cinit__(self):
        self.lists = <MoveList*>calloc(MAX_PLY + 1, sizeof(MoveList))
        if self.lists == NULL:
            raise MemoryError()
        self.tt.entries = NULL
        self.tab = &self.tt
        self.sh = &self.own
        self.own.nthreads = 1
        self.tid = 0
        self.poll_mask = 1023
        self.helpers = []
        self.running = []
        self.egdb = NULL
        self.nexcluded = 0

    def __dealloc__(self):
        free(self.lists)
        tt_free(&self.tt)       # (a helper's thread holds its main Searcher: none runs now)

    def __init__(self, CoreRules rules, weights, int tt_mb=64):
        """weights: the classic evaluation's weights, a mapping of
        set_weights' keywords (draughts.tuning.EvalWeights.core())."""
        self.r = rules.r
        self.set_weights(**weights)
        self.resize(tt_mb)
        self.noise_amp = 0
        self.noise_seed = 0
        # no reductions, no futility, no ProbCut until set_tuning and
        # set_probcut say: the tuning's defaults are the caller's
        # (draughts.tuning.default_search_params), not the core's
        memset(self.lmr_table, 0, sizeof(self.lmr_table))
        memset(&self.tn, 0, sizeof(self.tn))
        memset(&self.pc, 0, sizeof(self.pc))

    def set_tuning(self, *, int lmr_divisor, int lmr_base, int lmr_min_depth, int lmr_min_index,
                   int futility, int futility_depth, int aspiration, int aspiration_min_depth,
                   int horizon_promotions, int horizon_exchanges=0):
        """The search's tuning, by name (draughts.tuning.SearchParams says what
        each is): late-move reductions by lmr_base / 100 + ln(depth) ln(index)
        / (lmr_divisor / 100) plies from depth lmr_min_depth and move index
        lmr_min_index; the futility margin a ply in centi-men (0: off) up to
        depth futility_depth; the aspiration window's half width from depth
        aspiration_min_depth; horizon_promotions (0 or 1): a quiet horizon
        position below beta searches its men's crowning moves;
        horizon_exchanges (0 or 1): a quiet horizon position below beta
        without kings searches its men's moves that offer an exchange."""
        from math import log
        cdef int d, i
        if lmr_divisor < 1:
            raise ValueError(f"lmr_divisor must be at least 1, not {lmr_divisor}")
        if min(lmr_base, lmr_min_depth, lmr_min_index, futility, futility_depth, aspiration_min_depth) < 0:
            raise ValueError("the tuning's values must not be negative")
        if aspiration < 1:
            raise ValueError(f"aspiration must be at least 1, not {aspiration}")
        if horizon_promotions not in (0, 1):
            raise ValueError(f"horizon_promotions is 0 or 1, not {horizon_promotions}")
        if horizon_exchanges not in (0, 1):
            raise ValueError(f"horizon_exchanges is 0 or 1, not {horizon_exchanges}")
        self.tn.lmr_min_depth = lmr_min_depth
        self.tn.lmr_min_index = lmr_min_index
        self.tn.futility = futility
        self.tn.futility_depth = futility_depth
        self.tn.aspiration = aspiration
        self.tn.aspiration_min_depth = aspiration_min_depth
        self.tn.horizon_promotions = horizon_promotions
        self.tn.horizon_exchanges = horizon_exchanges
        for d in range(64):
            for i in range(64):
                if d == 0 or i == 0:
                    self.lmr_table[d][i] = 0
                else:
                    self.lmr_table[d][i] = int(lmr_base / 100.0 + log(d) * log(i) * 100.0 / lmr_divisor)

    def set_probcut(self, int min_depth=0, int slope=1024, int intercept=0, shallow=(), margin=(),
                    *, bint captures=False):
        """ProbCut from depth `min_depth` (0: off): at depth d a search of
        depth shallow[d] predicts the deep score as slope / 1024 * shallow +
        intercept, and the node is cut when that prediction clears beta by
        margin[d] centi-men (0: not at that depth).  shallow and margin have
        64 entries, indexed by depth (the last one serves deeper searches).
        captures: also at a node with a capture on the board (else only at
        quiet nodes)."""
        cdef int d
        shallow, margin = list(shallow), list(margin)
        if min_depth:
            if not 2 <= min_depth < 64 or len(shallow) != 64 or len(margin) != 64:
                raise ValueError("ProbCut needs 2 <= min_depth < 64 and 64 shallow depths and margins")
            if any(not 1 <= shallow[d] < d for d in range(min_depth, 64)):
                raise ValueError("ProbCut's shallow depth must be from 1 to the depth less one")
            if any(m < 0 for m in margin) or not 256 <= slope <= 4096:
                raise ValueError("ProbCut's margins are not negative and its slope is from 256 to 4096 (x1024)")
        memset(&self.pc, 0, sizeof(self.pc))
        self.pc.min_depth = min_depth
        self.pc.captures = captures
        self.pc.slope = slope
        self.pc.intercept = intercept
        for d in range(min_depth if min_depth else 64, 64):
            self.pc.shallow[d] = shallow[d]
            self.pc.margin[d] = margin[d]

    def resize(self, int tt_mb):
        """A new table of tt_mb MiB; on failure the old table stays."""
        cdef TTable fresh
        if tt_mb < 1:
            raise ValueError("the table needs at least 1 MiB")
        self.wait_helpers()
        if tt_alloc(&fresh, tt_mb) != 0:
            raise MemoryError(f"cannot allocate a {tt_mb} MiB table")
        tt_free(&self.tt)
        self.tt = fresh

    def set_rules(self, CoreRules rules):
        self.r = rules.r

    def set_weights(self, *, int man, int king, advance, int back_guard, int centre, int runaway,
                    int king_mobility, int trade, bint lone_king_draw):
        """The classic evaluation's weights, by name (draughts.tuning.EvalWeights
        says what each is); advance: up to 10 values, one a row."""
        advance = list(advance)
        if len(advance) > 10:
            raise ValueError(f"advance has at most 10 values (one a row), not {len(advance)}")
        advance += [0] * (10 - len(advance))
        self.w.man = man
        self.w.king = king
        for i in range(10):
            self.w.advance[i] = advance[i]
        self.w.back_guard = back_guard
        self.w.centre = centre
        self.w.runaway = runaway
        self.w.king_mobility = king_mobility
        self.w.trade = trade
        self.w.lone_king_draw = lone_king_draw

    def set_learned(self, LearnedEval table):
        """Evaluate with the learned weights `table` (None: the classic weights)."""
        if table is not None and table.geometry != self.r.geometry:
            raise ValueError("learned weights for the " + ("orthogonal" if table.geometry else "diagonal")
                             + " board, the board is " + ("orthogonal" if self.r.geometry else "diagonal"))
        if table is not None and table.size != self.r.size:
            raise ValueError(f"learned weights for {table.size}x{table.size}, board is {self.r.size}x{self.r.size}")
        self.learned = table
        self.w.learned = &table.lw if table is not None else NULL

    def set_noise(self, int amplitude, seed):
        """Random evaluation noise of +-amplitude centi-men (the strength setting)."""
        self.noise_amp = amplitude
        self.noise_seed = <u64>(seed & 0xFFFFFFFFFFFFFFFF)

    def clear(self):
        """Forget everything learnt (a new game)."""
        cdef Searcher h
        self.wait_helpers()
        tt_clear(&self.tt)
        memset(self.history, 0, sizeof(self.history))
        memset(self.killers, 0, sizeof(self.killers))
        for h in self.helpers:
            memset(h.history, 0, sizeof(h.history))
            memset(h.killers, 0, sizeof(h.killers))

    def stop(self):
        self.pending_stop = True
        self.sh.stop = 1

    def set_egdb(self, EGDB db):
        """Probe this endgame database (None: no database); it must be of the searcher's rules."""
        self.egdb_owner = db
        self.egdb = db.db if db is not None else NULL

    def evaluate(self, Position p):
        return evaluate(&self.r, &self.w, &p.pos)

    def hashfull(self):
        return tt_hashfull(&self.tt)

    # --- draw rules -----------------------------------------------------------
    cdef inline bint repeated(self, int idx, int rev) noexcept nogil:
        """Position keys[idx] occurred before with the same side to move."""
        cdef int i = idx - 2
        cdef int lo = idx - rev
        if lo < 0:
            lo = 0
        while i >= lo:
            if self.keys[i] == self.keys[idx]:
                return True
            i -= 2
        return False

    # --- evaluation with the strength noise ---------------------------------------
    cdef inline int static_eval(self, const Pos* p, u64 key) noexcept nogil:
        cdef int s = evaluate(&self.r, &self.w, p)
        if self.noise_amp:
            s += <int>(mix(key ^ self.noise_seed) % <u64>(2 * self.noise_amp + 1)) - self.noise_amp
        return s

    # --- endgame database ---------------------------------------------------------
    cdef inline int egdb_score(self, int v, const Pos* p, u64 key, int ply) noexcept nogil:
        """A database result as a score: a win is DB_WIN less the ply, plus the
        evaluation within DB_SPREAD (so that the winner still makes progress)."""
        cdef int s
        if v == EG_DRAW:
            return 0
        s = self.static_eval(p, key)
        if s > DB_SPREAD:
            s = DB_SPREAD
        elif s < -DB_SPREAD:
            s = -DB_SPREAD
        if v == EG_WIN:
            return DB_WIN - ply + s
        return -DB_WIN + ply + s

    cdef void egdb_root_filter(self, const Pos* p, MoveList* ml) noexcept nogil:
        """Keep the root moves that keep the database's result."""
        cdef int v = egdb_probe(self.egdb, p), want, i, k = 0
        cdef Pos child
        if v == EG_UNKNOWN or v == EG_LOSS:
            return
        want = EG_LOSS if v == EG_WIN else EG_DRAW
        for i in range(ml.n):
            make_move(&self.r, p, &ml.moves[i], &child)
            if egdb_probe(self.egdb, &child) == want:
                ml.moves[k] = ml.moves[i]
                k += 1
        if k > 0:
            ml.n = k

    # --- the search -----------------------------------------------------------
    cdef void poll(self) noexcept nogil:
        """Every poll_mask + 1 nodes: the clock (and the longest wait between
        two readings); with threads, this thread's node count is published
        (for the info lines)."""
        cdef double t = self.read_clock()
        if self.sh.nthreads > 1:
            self.sh.counts[self.tid] = self.nodes
        if self.hard_ms > 0 and t - self.t0 >= self.hard_ms:
            self.sh.stop = 1

    cdef inline double read_clock(self) noexcept nogil:
        """Now (ms), with the wait since the last reading noted in max_stall_ms."""
        cdef double t = now_ms()
        if t - self.last_poll > self.max_stall_ms:
            self.max_stall_ms = t - self.last_poll
        self.last_poll = t
        return t

    cdef bint more_nodes(self) noexcept nogil:
        """This thread has searched the nodes it was given: with threads, take
        another batch of the limit (False: the limit is spent)."""
        cdef u64 old, got
        if self.sh.nthreads == 1 or self.sh.node_limit == 0:
            return False
        old = dr_fetch_add(&self.sh.granted, self.sh.batch)
        if old >= self.sh.node_limit:
            return False
        got = self.sh.node_limit - old
        if got > self.sh.batch:
            got = self.sh.batch
        self.node_limit = self.nodes + got
        return True

    cdef void order(self, MoveList* ml, int ply, const CMove* ttm, int stm) noexcept nogil:
        cdef int i
        cdef CMove* m
        cdef int s, fromto
        cdef int* scores = self.scores[ply]
        cdef int* hist = &self.history[stm][0][0]       # [from][to], 64 x 64
        # a quiet move (no capture: capt 0) is a killer when its from and to
        # are the killer's and the killer is quiet too (-1: matches nothing)
        cdef const CMove* k0 = &self.killers[ply][0]
        cdef const CMove* k1 = &self.killers[ply][1]
        cdef int kill0 = (k0.frm | (k0.to << 8)) if k0.capt == 0 else -1
        cdef int kill1 = (k1.frm | (k1.to << 8)) if k1.capt == 0 else -1
        for i in range(ml.n):
            m = &ml.moves[i]
            if ttm != NULL and same_move(m, ttm):
                s = ORDER_TT
            elif m.ncapt:
                s = ORDER_CAPTURE + m.ncapt * 1024 + m.promo * 512
            elif m.promo:
                s = ORDER_PROMOTION
            else:
                fromto = m.frm | (m.to << 8)
                if fromto == kill0:
                    s = ORDER_KILLER + 1
                elif fromto == kill1:
                    s = ORDER_KILLER
                else:
                    s = hist[m.frm * 64 + m.to]
                    if s > ORDER_HISTORY_MAX:
                        s = ORDER_HISTORY_MAX
            scores[i] = s

    cdef inline int pick(self, MoveList* ml, int ply, int start) noexcept nogil:
        """Move the best-scored remaining move to `start`."""
        cdef int i, s, best = start
        cdef int* scores = self.scores[ply]
        cdef int top = scores[start]
        cdef CMove tmp
        for i in range(start + 1, ml.n):
            # (conditional moves, not a branch: which score is higher is a coin toss)
            s = scores[i]
            best = i if s > top else best
            top = s if s > top else top
        if best != start:
            tmp = ml.moves[start]
            ml.moves[start] = ml.moves[best]
            ml.moves[best] = tmp
            scores[best] = scores[start]
            scores[start] = top
        return start

    cdef int search(self, const Pos* p, u64 key, int depth, int alpha, int beta, int ply,
                    DrawCounts dc, bint pvnode) noexcept nogil:
        cdef MoveList* ml
        cdef TTEntry e
        cdef bint have_e
        cdef CMove ttm
        cdef CMove* m
        cdef bint have_ttm = False
        cdef Pos child
        cdef u64 ckey
        cdef int n, i, j, score, best, bestidx, red, newdepth, stand
        cdef bint fut, fut_known, uniform
        cdef int tts, bound, egv, old_alpha = alpha
        cdef DrawCounts cdc
        cdef int idx = self.ngame + ply
        cdef int skipped = 0            # root moves left out by a multi-PV search
        cdef bint counted = False       # the moves were counted, not generated (gen_horizon)
        cdef bint qextra = False        # a quiet horizon node searching its crowning moves or exchanges
        cdef u64 hot = 0                # ... the squares where a man's move may offer an exchange
        cdef bint listed = False        # ... the list holds only its exchanges (exchange_moves)

        self.pvlen[ply] = ply
        # 1. stop checks
        if self.sh.stop:
            return 0
        self.nodes += 1
        if self.node_limit and self.nodes >= self.node_limit:
            if not self.more_nodes():
                self.sh.stop = 1
        if (self.nodes & self.poll_mask) == 0:
            self.poll()
        if ply > self.seldepth:
            self.seldepth = ply
        self.keys[idx] = key

        # 2. draws by the rules
        if ply > 0:
            if dc.rev >= 4 and self.repeated(idx, dc.rev):
                return 0
            if draw_by_counts(&self.r, &dc):
                return 0
            # 3. mate distance pruning (antidraughts: a side with no move wins here)
            if alpha < -WIN + ply:
                alpha = -WIN + ply
            if self.r.goal != GOAL_LOSING and beta > WIN - ply - 1:
                beta = WIN - ply - 1
            elif beta > WIN - ply:
                beta = WIN - ply
            if alpha >= beta:
                return alpha
        if ply >= MAX_PLY - 1:
            return self.static_eval(p, key)

        # 4. transposition-table cut-off, before generating anything (the
        # horizon's capture sequences do without the table)
        have_e = depth > 0 and tt_probe(self.tab, key, &e)
        if have_e and not pvnode and e.depth >= depth:
            tts = score_from_tt(e.score, ply)
            bound = e.genbound & 3
            if bound == BOUND_EXACT:
                return tts
            if bound == BOUND_LOWER and tts >= beta:
                return tts
            if bound == BOUND_UPPER and tts <= alpha:
                return tts

        # moves (at the horizon, a position without a capture only counts
        # its quiet moves: it is scored statically unless it has just one)
        ml = &self.lists[ply]
        if depth <= 0 and ply > 0:
            n = gen_horizon(&self.r, p, ml, &counted)
        else:
            n = gen_moves(&self.r, p, ml, False, NULL)
        if depth >= 2:
            # the children's table buckets, fetched while this node orders its moves
            for j in range(n):
                tt_prefetch(self.tab, key_after(p, key, &ml.moves[j]))
        if n == 0:
            # a loss, or in antidraughts a win (breakthrough: the move
            # generator has no move once the other side has crowned)
            return WIN - ply if self.r.goal == GOAL_LOSING else -WIN + ply
        # the endgame database knows the result; the root keeps its moves that
        # keep it, and the root's own material is searched on (so that a won
        # ending is driven to a conversion, not shuffled)
        if self.egdb != NULL and popcount(p.bb[0] | p.bb[1]) <= self.egdb.max_pieces:
            if ply > 0 and material(p) != self.root_material:
                egv = egdb_probe(self.egdb, p)
                if egv != EG_UNKNOWN:
                    self.egdb_hits += 1
                    return self.egdb_score(egv, p, key, ply)
            elif ply == 0:
                self.egdb_root_filter(p, ml)
                n = ml.n
        if depth <= 0:
            if n == 1 and ply < MAX_PLY // 2:
                depth = 1                       # a forced reply is played out
                if counted:
                    n = gen_moves(&self.r, p, ml, False, NULL)
            elif counted or ml.moves[0].ncapt == 0:
                stand = self.static_eval(p, key)  # quiet: score statically ...
                if stand >= beta or ply >= MAX_PLY // 2:
                    return stand
                if self.tn.horizon_exchanges:
                    hot = exchange_squares(&self.r, p)
                qextra = self.tn.horizon_promotions and has_quiet_promotion(&self.r, p)
                if not qextra and not hot:
                    return stand
                # ... unless a man can crown or offer an exchange below beta:
                # those moves are searched (without a crowning move, only the
                # exchanges are listed)
                if not qextra:
                    n = exchange_moves(&self.r, p, hot, ml, &self.lists[ply + 1])
                    if n == 0:
                        return stand
                    listed = True
                elif counted:
                    n = gen_moves(&self.r, p, ml, False, NULL)
                qextra = True
                if stand > alpha:
                    alpha = stand
            elif not self.r.mandatory_capture:
                # house rule: the side may decline captures
                stand = self.static_eval(p, key)
                if stand >= beta:
                    return stand
                if stand > alpha:
                    alpha = stand
        elif n == 1 and ply < MAX_PLY // 2:
            depth += 1                          # forced move: extend

        # ProbCut: a shallow null-window search around beta moved by the
        # fitted margin predicts this node's fail-high; never in PV nodes or
        # near won or database scores, nor with a capture on the board unless
        # the figures say so (pc.captures)
        if (self.pc.min_depth and not pvnode and depth >= self.pc.min_depth and n > 1
                and not self.in_probcut and (self.pc.captures or ml.moves[0].ncapt == 0)
                and -PC_BOUND < beta < PC_BOUND):
            if self.probcut(p, key, depth, beta, ply, dc, have_e, &e, &score):
                return score
            # the shallow search used this ply's move list: again, with the
            # best move it stored for ordering
            n = gen_moves(&self.r, p, ml, False, NULL)
            have_e = tt_probe(self.tab, key, &e)

        # 5. the stored move, for ordering
        if have_e and e.frm != 255:
            for i in range(n):
                if (ml.moves[i].frm == e.frm and ml.moves[i].to == e.to
                        and fold16(ml.moves[i].capt) == e.capt16):
                    ttm = ml.moves[i]
                    have_ttm = True
                    break

        # 6. the moves in order (a list whose moves would all score alike, as
        # one move or captures of one count and crowning with no stored move,
        # keeps the generator's order: ordering it would move nothing)
        uniform = n == 1 or (not have_ttm and ml.moves[0].ncapt and same_capture_scores(ml, n))
        if not uniform:
            self.order(ml, ply, &ttm if have_ttm else NULL, p.stm)
        best = -INF
        bestidx = -1
        # futility: near the horizon, quiet moves of a position far below alpha
        # are not searched once one move has been (never in PV nodes, never
        # when captures are on the board, never a move that offers a capture)
        # (the static score only once a quiet move after the first comes up:
        # a first move that cuts off never needs it)
        fut = (self.tn.futility and not pvnode and 0 < depth <= self.tn.futility_depth
               and ml.moves[0].ncapt == 0 and alpha > -WIN_MIN and alpha < WIN_MIN)
        fut_known = False
        for i in range(n):
            if not uniform:
                self.pick(ml, ply, i)
            m = &ml.moves[i]
            if depth <= 0 and m.ncapt == 0 and not listed and not (
                    qextra and ((m.promo and self.tn.horizon_promotions)
                                or ((hot >> m.to) & 1 and offers_exchange(&self.r, p, m, &self.lists[ply + 1])))):
                continue                        # only captures (crowning moves, exchanges) at the horizon
            if ply == 0 and self.nexcluded and self.is_excluded(m):
                skipped += 1
                continue                        # a multi-PV line already reported
            make_move(&self.r, p, m, &child)
            if fut and i > 0 and m.ncapt == 0 and not m.promo:
                if not fut_known:
                    fut_known = True
                    fut = self.static_eval(p, key) + self.tn.futility * depth <= alpha
                if fut and not has_capture(&self.r, &child):
                    continue                    # (a move offering a capture may be a shot: searched)
            # the child's key only for a move that is searched
            ckey = key_after(p, key, m)
            tt_prefetch(self.tab, ckey)
            if p.kmoves | child.kmoves:
                ckey ^= kmoves_key(p.kmoves) ^ kmoves_key(child.kmoves)
            cdc = counts_after(&self.r, p, m, &child, &dc)
            newdepth = depth - 1
            if i == skipped:
                score = -self.search(&child, ckey, newdepth, -beta, -alpha, ply + 1,
                                     cdc, pvnode)
            else:
                red = 0
                if (depth >= self.tn.lmr_min_depth and i >= self.tn.lmr_min_index and m.ncapt == 0 and not m.promo
                        and self.scores[ply][i] < ORDER_KILLER):
                    red = self.lmr_table[depth if depth < 64 else 63][i if i < 64 else 63]
                    if pvnode and red > 0:
                        red -= 1
                    if red >= newdepth:
                        red = newdepth - 1 if newdepth > 1 else 0
                score = -self.search(&child, ckey, newdepth - red, -alpha - 1, -alpha, ply + 1,
                                     cdc, False)
                if score > alpha and red:
                    score = -self.search(&child, ckey, newdepth, -alpha - 1, -alpha, ply + 1,
                                         cdc, False)
                if score > alpha and score < beta and pvnode:
                    score = -self.search(&child, ckey, newdepth, -beta, -alpha, ply + 1,
                                         cdc, True)
            if self.sh.stop:
                return 0
            if score > best:
                best = score
                bestidx = i
                if score > alpha:
                    alpha = score
                    self.pv[ply][ply] = m[0]
                    for k in range(ply + 1, self.pvlen[ply + 1]):
                        self.pv[ply][k] = self.pv[ply + 1][k]
                    self.pvlen[ply] = self.pvlen[ply + 1] if self.pvlen[ply + 1] > ply + 1 else ply + 1
                    if alpha >= beta:
                        if m.ncapt == 0:
                            if not same_move(m, &self.killers[ply][0]):
                                self.killers[ply][1] = self.killers[ply][0]
                                self.killers[ply][0] = m[0]
                            if depth > 0:
                                self.history[p.stm][m.frm][m.to] += depth * depth
                        break
        if bestidx < 0:
            # house rule at the horizon with only quiet moves left
            return alpha
        if qextra and best < stand:
            return stand                        # no crowning move or exchange beat the static score

        # 7. store
        if best >= beta:
            bound = BOUND_LOWER
        elif best > old_alpha:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        m = &ml.moves[bestidx]
        if depth > 0 and not (ply == 0 and self.nexcluded):
            tt_store(self.tab, key, score_to_tt(best, ply), depth, bound, m.frm, m.to, fold16(m.capt))
        return best

    cdef inline bint is_excluded(self, const CMove* m) noexcept nogil:
        cdef int k
        for k in range(self.nexcluded):
            if same_move(m, &self.excluded[k]):
                return True
        return False

    cdef bint probcut(self, const Pos* p, u64 key, int depth, int beta, int ply,
                      DrawCounts dc, bint have_e, const TTEntry* e,
                      int* out) noexcept nogil:
        """ProbCut's shallow search at this node: True (and the score to
        return in `out`) when it predicts the deep search's fail-high."""
        cdef int d = depth if depth < 64 else 63, bound, score
        if self.pc.margin[d] == 0:
            return False
        # deep >= beta + margin  <=  shallow >= (beta + margin - intercept) / slope
        bound = div_ceil((beta + self.pc.margin[d] - self.pc.intercept) * 1024, self.pc.slope)
        if bound >= PC_BOUND:
            return False
        # not worth trying when the table already says the shallow search
        # fails low, or when the static evaluation is below the bound
        if (have_e and e.depth >= self.pc.shallow[d] and (e.genbound & 3) != BOUND_LOWER
                and score_from_tt(e.score, ply) < bound):
            return False
        if self.static_eval(p, key) < bound:
            return False
        self.pc_tries += 1
        self.in_probcut += 1
        score = self.search(p, key, self.pc.shallow[d], bound - 1, bound, ply, dc, False)
        self.in_probcut -= 1
        if self.sh.stop:
            out[0] = 0
            return True
        if score >= bound:
            self.pc_cuts += 1
            out[0] = beta
            return True
        return False

    # --- the driver -------------------------------------------------------------
    def run(self, Position root, history, *, int max_depth=0, u64 nodes=0, double soft_ms=0,
            double hard_ms=0, int rev=0, int cp=0, int egp=0, callback=None, double start=0,
            int multipv=1):
        """Search `root` by iterative deepening.

        history: positions of the game before root (oldest first) since the last
        irreversible move, for repetitions.  max_depth 0 = no depth limit;
        soft_ms: do not start a new iteration after this; hard_ms: stop; both
        count from `start` (a `clock()` reading; 0: now), and so does the time
        reported.
        callback(depth, seldepth, score, nodes, ms, pv, index) is called after
        every iteration with the GIL held (index: the line, 1 the best).
        Returns a SearchResult (move: the best move's code or None, score,
        depth completed, seldepth, nodes, ms, pv: a list of move codes).
        rev, cp and egp are the game's draw counters at root (plies without
        a man move or capture, without a capture or promotion, and in the
        endgame class: Board.search_state()).

        multipv > 1 searches that many root moves (at most MULTIPV_MAX) on
        this thread alone: at each depth the best line, then the best of the
        moves not yet reported, and so on (sharing the table); `lines` then
        holds them, best first, and the callback is called for each line
        after every iteration.  multipv 1 is the plain search.
        """
        cdef Pos p = root.pos
        cdef u64 key = full_key(&p)
        cdef int d, score = 0, prev = 0, completed = 0, sel = 0
        cdef int limit = max_depth if max_depth > 0 else MAX_PLY - 8
        cdef int root_db
        cdef DrawCounts dc
        cdef double elapsed
        cdef CMove best
        cdef bint have_best = False
        cdef int k, nh = len(self.helpers), seq, done_score, done_depth
        cdef Position hp
        cdef Searcher h, deepest = None
        cdef CMove done_move
        self.lines = []
        if multipv > 1:
            nh = 0                  # one thread: the lines are searched in turn
        if limit > MAX_PLY - 8:
            limit = MAX_PLY - 8
        hist = list(history)[-MAX_GAME:]
        self.ngame = len(hist)
        for k, obj in enumerate(hist):
            hp = obj
            self.keys[k] = full_key(&hp.pos)
        if rev > self.ngame:
            rev = self.ngame
        self.callback_error = None
        self.sh.stop = 0          # a pending stop ends the search after its first iteration
        self.nodes = 0
        self.egdb_hits = 0
        # one thread counts its nodes against the limit; with helpers each
        # thread takes batches of the limit as it goes (see more_nodes)
        self.own.nthreads = 1 + nh
        self.own.node_limit = nodes if nh else 0
        self.own.granted = 0
        self.own.batch = nodes // (16 * (1 + nh))
        if self.own.batch < 16:
            self.own.batch = 16
        elif self.own.batch > 1024:
            self.own.batch = 1024
        self.own.counts[0] = 0
        self.node_limit = nodes
        if nh and nodes:
            self.node_limit = 0
            self.more_nodes()
        self.poll_mask = 255 if nh else 1023
        self.seldepth = 0
        self.in_probcut = 0
        self.pc_tries = 0
        self.pc_cuts = 0
        self.hard_ms = hard_ms
        self.t0 = now_ms()
        self.last_poll = self.t0
        self.max_stall_ms = 0.0
        if start > 0 and start * 1000.0 < self.t0:
            self.t0 = start * 1000.0
        self.tt.generation = (self.tt.generation + 1) & 63
        memset(self.killers, 0, sizeof(self.killers))
        dc.rev, dc.cp, dc.egc, dc.egp = rev, cp, endgame_class(&self.r, &p), egp
        self.root_material = material(&p)
        root_db = EG_UNKNOWN
        if self.egdb != NULL and popcount(p.bb[0] | p.bb[1]) <= self.egdb.max_pieces:
            root_db = egdb_probe(self.egdb, &p)
        pv_out = []
        self.own.depth_done = 0
        if multipv > 1:
            return self._run_multi(&p, key, limit, max_depth, soft_ms, dc, root_db,
                                   multipv, callback)
        threads = self._start_helpers(root, limit, dc)
        d = 0
        with nogil:
            while True:
                # the next iteration: past the deepest any thread completed
                d = (d if d > self.sh.depth_done else self.sh.depth_done) + 1
                if d > limit:
                    break
                score = self.aspire(&p, key, d, prev, dc)
                if self.sh.stop and completed > 0:
                    break
                if self.pvlen[0] > 0:
                    best = self.pv[0][0]
                    have_best = True
                if self.sh.stop:
                    break
                completed = d
                if self.sh.depth_done < d:
                    self.sh.depth_done = d
                prev = score
                if self.pending_stop:
                    self.sh.stop = 1
                sel = self.seldepth
                elapsed = now_ms() - self.t0
                with gil:
                    pv_out = [self._move_tuple(&self.pv[0][k]) for k in range(self.pvlen[0])]
                    if callback is not None:
                        try:
                            callback(d, sel, db_report(root_db, score), self._all_nodes(), elapsed, pv_out, 1)
                        except BaseException as exc:        # reported to the caller
                            self.callback_error = exc
                            self.sh.stop = 1
                if self.sh.stop:
                    break
                if prev >= WIN_MIN or prev <= -WIN_MIN:
                    if d >= WIN - (prev if prev > 0 else -prev) + 2 and max_depth == 0 and soft_ms > 0:
                        break                           # the win is proven and short enough
                if soft_ms > 0 and elapsed >= soft_ms:
                    break
        total = self.nodes
        if nh:
            # the helpers are told to stop but not waited for: one that the
            # scheduler has put aside would hold the answer up (the next
            # search, or a change of the table, waits for them instead)
            self.sh.stop = 1
            self.running = threads
            for h in self.helpers:
                total += h.nodes
                self.egdb_hits += h.egdb_hits
                self.pc_tries += h.pc_tries
                self.pc_cuts += h.pc_cuts
                if h.seldepth > sel:
                    sel = h.seldepth
                seq = h.done_seq
                dr_fence()
                if seq & 1 or h.completed <= completed or h.done_pvlen == 0:
                    continue
                done_move = h.done_pv[0]
                done_score = h.done_score
                done_depth = h.completed
                done_pv = [self._move_tuple(&h.done_pv[k]) for k in range(h.done_pvlen)]
                dr_fence()
                if h.done_seq == seq:           # not rewritten meanwhile
                    completed = done_depth
                    deepest = h
                    best = done_move
                    prev = done_score
                    pv_out = done_pv
            if deepest is not None:
                have_best = True
                if callback is not None and self.callback_error is None:
                    try:        # the iteration reported is the helper's
                        callback(completed, sel, db_report(root_db, prev), total, now_ms() - self.t0, pv_out, 1)
                    except BaseException as exc:
                        self.callback_error = exc
        elapsed = self.read_clock() - self.t0        # the last wait, up to the answer, counts too
        self.pending_stop = False
        if self.callback_error is not None:
            err = self.callback_error
            self.callback_error = None
            raise err
        move = self._move_tuple(&best) if have_best else None
        return SearchResult(move, db_report(root_db, prev), completed, sel, total, elapsed, pv_out)

    cdef object _run_multi(self, const Pos* p, u64 key, int limit, int max_depth, double soft_ms,
                           DrawCounts dc, int root_db, int multipv, callback):
        """run()'s iterative deepening over `multipv` lines (see run)."""
        cdef int d = 0, pvi, k, score, prev, completed = 0, sel = 0, top
        cdef double elapsed
        if multipv > MULTIPV_MAX:
            multipv = MULTIPV_MAX
        lines = []          # (score, depth, seldepth, pv) of the deepest completed iteration
        while True:
            d += 1
            if d > limit:
                break
            fresh = []
            self.nexcluded = 0
            for pvi in range(multipv):
                prev = lines[min(pvi, len(lines) - 1)][0] if lines else 0
                with nogil:
                    score = self.aspire(p, key, d, prev, dc)
                if self.sh.stop or self.pvlen[0] == 0:
                    break           # stopped, or no root move left (the database kept fewer)
                self.excluded[self.nexcluded] = self.pv[0][0]
                self.nexcluded += 1
                fresh.append((score, d, self.seldepth,
                              [self._move_tuple(&self.pv[0][k]) for k in range(self.pvlen[0])]))
            self.nexcluded = 0
            fresh.sort(key=_line_score, reverse=True)     # stable: ties keep their order
            if self.sh.stop:
                # the lines this iteration finished, then the last one's others
                moves = {line[3][0] for line in fresh}
                lines = (fresh + [line for line in lines if line[3][0] not in moves])[:multipv]
                break
            lines = fresh
            completed = d
            sel = self.seldepth
            if self.pending_stop:
                self.sh.stop = 1
            elapsed = now_ms() - self.t0
            if callback is not None:
                try:
                    for k in range(len(lines)):
                        callback(d, sel, db_report(root_db, lines[k][0]), self.nodes, elapsed,
                                 lines[k][3], k + 1)
                except BaseException as exc:        # reported to the caller
                    self.callback_error = exc
                    self.sh.stop = 1
            if self.sh.stop:
                break
            top = lines[0][0] if lines else 0
            if top >= WIN_MIN or top <= -WIN_MIN:
                if d >= WIN - (top if top > 0 else -top) + 2 and max_depth == 0 and soft_ms > 0:
                    break                           # the win is proven and short enough
            if soft_ms > 0 and elapsed >= soft_ms:
                break
        elapsed = self.read_clock() - self.t0        # the last wait, up to the answer, counts too
        self.pending_stop = False
        self.lines = [(db_report(root_db, line[0]), line[1], line[2], line[3]) for line in lines]
        if self.callback_error is not None:
            err = self.callback_error
            self.callback_error = None
            raise err
        if not lines:
            return SearchResult(None, 0, completed, sel, self.nodes, elapsed, [])
        return SearchResult(lines[0][3][0], self.lines[0][0], completed, sel, self.nodes, elapsed, lines[0][3])

    cdef int aspire(self, const Pos* p, u64 key, int d, int prev, DrawCounts dc) noexcept nogil:
        """One iteration: an aspiration window around the last score `prev`,
        widened until the score falls inside (or the search stops)."""
        cdef int alpha, beta, score
        cdef int delta = self.tn.aspiration
        if self.tn.aspiration_min_depth and d >= self.tn.aspiration_min_depth and prev > -WIN_MIN and prev < WIN_MIN:
            alpha = prev - delta
            beta = prev + delta
        else:
            alpha = -INF
            beta = INF
        while True:
            score = self.search(p, key, d, alpha, beta, 0, dc, True)
            if self.sh.stop:
                break
            if score <= alpha:
                alpha = score - delta if score - delta > -INF else -INF
                delta *= 2
            elif score >= beta:
                beta = score + delta if score + delta < INF else INF
                delta *= 2
            else:
                break
        return score

    # --- parallel search -------------------------------------------------------
    def set_threads(self, int n):
        """Search on n threads (1: this one alone); the table is shared."""
        if not 1 <= n <= MAX_THREADS:
            raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {n}")
        self.wait_helpers()
        while len(self.helpers) < n - 1:
            self.helpers.append(Searcher.__new__(Searcher))
        del self.helpers[n - 1:]

    @property
    def threads(self):
        return 1 + len(self.helpers)

    @property
    def main_nodes(self):
        """Nodes this (the main) thread searched in the last search, without
        its helpers': with every thread at the same speed, the search's wall
        time in nodes (see benchmarks/smp.py ttd --nodes)."""
        return self.nodes

    def wait_helpers(self):
        """Wait for the helper threads of the last search to end (they were
        told to stop when it returned, so this takes microseconds)."""
        running, self.running = self.running, []
        for t in running:
            t.join()

    cdef u64 _all_nodes(self):
        """Nodes of every thread so far (the helpers' as last published)."""
        cdef u64 total = self.nodes
        cdef int i
        for i in range(1, self.own.nthreads):
            total += self.own.counts[i]
        return total

    cdef list _start_helpers(self, Position root, int limit, DrawCounts dc):
        """Give every helper this search's settings and start its thread."""
        cdef Searcher h
        cdef int i
        self.wait_helpers()
        threads = []
        for i in range(len(self.helpers)):
            h = self.helpers[i]
            h.r = self.r
            h.w = self.w
            h.learned = self.learned
            h.noise_amp = self.noise_amp
            h.noise_seed = self.noise_seed
            memcpy(h.lmr_table, self.lmr_table, sizeof(self.lmr_table))
            h.tn = self.tn
            h.pc = self.pc
            h.in_probcut = 0
            h.pc_tries = 0
            h.pc_cuts = 0
            h.egdb = self.egdb
            h.egdb_owner = self.egdb_owner
            h.egdb_hits = 0
            h.root_material = self.root_material
            memcpy(h.keys, self.keys, self.ngame * sizeof(u64))
            h.ngame = self.ngame
            h.tab = &self.tt
            h.sh = &self.own
            h.tid = i + 1
            h.nodes = 0
            h.node_limit = 0
            h.poll_mask = self.poll_mask
            h.seldepth = 0
            h.t0 = self.t0
            h.last_poll = now_ms()
            h.hard_ms = self.hard_ms
            h.completed = 0
            h.done_pvlen = 0
            self.own.counts[i + 1] = 0
            memset(h.killers, 0, sizeof(h.killers))
        try:
            for i in range(len(self.helpers)):
                t = threading.Thread(target=self.helpers[i]._help, args=(self, root, limit, dc.rev, dc.cp, dc.egc, dc.egp),
                                     name=f"draughts-search-{i + 1}", daemon=True)
                t.start()
                threads.append(t)
        except BaseException:
            self.sh.stop = 1
            for t in threads:
                t.join()
            raise
        return threads

    def _help(self, Searcher main, Position root, int limit, int rev, int cp, int egc, int egp):
        """A helper thread's body: iterative deepening until the main thread
        stops it (`main`, whose table and Shared it uses, is held meanwhile)."""
        cdef DrawCounts dc
        dc.rev, dc.cp, dc.egc, dc.egp = rev, cp, egc, egp
        cdef Pos p = root.pos
        cdef u64 key = full_key(&p)
        with nogil:
            if self.sh.node_limit == 0 or self.more_nodes():
                self.help_loop(&p, key, limit, dc)

    cdef void help_loop(self, const Pos* p, u64 key, int limit, DrawCounts dc) noexcept nogil:
        cdef int depth, score, prev = 0, k
        while True:
            # past the deepest completed iteration; odd helpers a ply further
            depth = self.sh.depth_done if self.sh.depth_done > self.completed else self.completed
            depth += 1 + (self.tid & 1)
            if depth > limit:
                depth = limit
            if depth <= self.completed:
                break
            score = self.aspire(p, key, depth, prev, dc)
            if self.sh.stop:
                break
            prev = score
            self.done_seq += 1
            dr_fence()
            self.completed = depth
            self.done_score = score
            self.done_pvlen = self.pvlen[0]
            for k in range(self.pvlen[0]):
                self.done_pv[k] = self.pv[0][k]
            dr_fence()
            self.done_seq += 1
            if self.sh.depth_done < depth:
                self.sh.depth_done = depth
            if depth >= limit:
                self.sh.stop = 1            # the depth asked for is done
                break
        self.sh.counts[self.tid] = self.nodes

    cdef object _move_tuple(self, const CMove* m):
        """The move in the core's encoding, as Position.moves() gives it."""
        return (m.frm, m.to, m.capt, m.promo != 0)

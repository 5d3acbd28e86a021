# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Move generation for every rule set of draughts_core.rules.Rules.

Captures are found by a depth-first search per piece.  The search keeps the
capture-precedence key of the best capture found so far and the move list
holds only captures with that key.  Quiet moves are produced only when no
capture is available (or always under the house rule).
"""

from libc.string cimport memcpy
from draughts_core.bitboard cimport (u64, uint32_t, G8, G10, G64, geo_t, step, step8, opposite8, board_mask,
                                     top_row, bottom_row, lsb, ctz, popcount)
from draughts_core.rules cimport (Rules, CROWN_STOP, CROWN_CONTINUE, CROWN_PASS, GOAL_BREAKTHROUGH, FAMILY_INTL,
                                  FAMILY_AMERICAN)
from draughts_core.movegen cimport CMove, MoveList, PathList, Pos, MAX_MOVES, MAX_PATH


# The move generator is specialised at compile time twice over: per geometry
# (geo_t) and per rule family (ext_t): XPlain for the diagonal-only variants,
# XExt for the rules that need more (frisian's eight directions and king-move
# count, breakthrough's end), chosen once per call by Rules.extended; and two
# families whose capture rules are constants in their code, not reads of the
# struct: XIntl (international's rules: brazilian and antidraughts have them
# too) and XAmer (american's), chosen by Rules.family (FAMILY_RULES below
# says which rules each holds, and CoreRules sets the family from it).
ctypedef struct XPlain:
    char _tag
ctypedef struct XExt:
    char _tag
ctypedef struct XIntl:
    char _tag
ctypedef struct XAmer:
    char _tag

ctypedef fused ext_t:
    XPlain
    XExt
    XIntl
    XAmer


# --- the capture rules, constant in a family's code ----------------------------

cdef inline int men_back(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl:
        return 1
    elif ext_t is XAmer:
        return 0
    else:
        return r.men_capture_backwards


cdef inline int flying(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl:
        return 1
    elif ext_t is XAmer:
        return 0
    else:
        return r.flying_kings


cdef inline int men_take_kings(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 1
    else:
        return r.men_capture_kings


cdef inline int majority(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl:
        return 1
    elif ext_t is XAmer:
        return 0
    else:
        return r.majority_capture


cdef inline int king_mover_first(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.prefer_king_mover


cdef inline int more_kings_first(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.prefer_more_kings


cdef inline int early_kings_first(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.prefer_early_kings


cdef inline int crowning(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl:
        return CROWN_PASS
    elif ext_t is XAmer:
        return CROWN_STOP
    else:
        return r.crown_during_capture


cdef inline int removed_at_once(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl:
        return 0
    elif ext_t is XAmer:
        return 1
    else:
        return r.remove_at_once


cdef inline int compulsory(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 1
    else:
        return r.mandatory_capture


cdef inline int lands_behind(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.king_lands_behind


cdef inline int halts_behind_king(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.halt_behind_king


cdef inline int never_turns_back(ext_t* x, const Rules* r) noexcept nogil:
    if ext_t is XIntl or ext_t is XAmer:
        return 0
    else:
        return r.no_turn_back


cdef dict _family_rules(ext_t* x):
    """The rules a family's code holds constant, by name (the struct's fields)."""
    return {
        "men_capture_backwards": men_back(x, NULL),
        "flying_kings": flying(x, NULL),
        "men_capture_kings": men_take_kings(x, NULL),
        "majority_capture": majority(x, NULL),
        "prefer_king_mover": king_mover_first(x, NULL),
        "prefer_more_kings": more_kings_first(x, NULL),
        "prefer_early_kings": early_kings_first(x, NULL),
        "crown_during_capture": crowning(x, NULL),
        "remove_at_once": removed_at_once(x, NULL),
        "mandatory_capture": compulsory(x, NULL),
        "king_lands_behind": lands_behind(x, NULL),
        "halt_behind_king": halts_behind_king(x, NULL),
        "no_turn_back": never_turns_back(x, NULL),
        # and none of the extended rules, on the diagonal board
        "geometry": 0,
        "orthogonal_captures": 0,
        "capture_value": 0,
        "king_move_limit": 0,
    }


#: family number (Rules.family) -> the rules its code holds constant; a rule
#: set takes the family whose rules it has, every one (goal 2, breakthrough,
#: is extended and takes none)
FAMILY_RULES = {FAMILY_INTL: _family_rules(<XIntl*>NULL), FAMILY_AMERICAN: _family_rules(<XAmer*>NULL)}


# State of one capture search.  Turkish strike (remove_at_once == 0): captured pieces
# stay on the board until the move ends: they block, and are never taken twice.
ctypedef struct Ctx:
    const Rules* r
    MoveList* out
    PathList* paths
    u64 empty           # empty squares, the moving piece's origin included
    u64 enemy_kings
    u64 man_targets     # enemy pieces a man may take
    u64 king_targets    # enemy pieces a king may take
    u64 promo_row       # far row of the side to move
    u64 best            # precedence key of the captures in out
    int frm             # bit index of the moving piece
    int king_mover
    int keep            # keep every path (perft "keep" convention)
    int twin_min        # the fewest pieces a capture with a twin (another path, the same move) takes
    int plen            # squares on the current path
    u64 path[MAX_PATH]


cdef inline void add_capture(ext_t* x, Ctx* c, u64 to, u64 capt, int n, uint32_t korder, int promo) noexcept nogil:
    cdef const Rules* r = c.r
    cdef u64 key = 0
    cdef MoveList* out = c.out
    cdef CMove* m
    cdef int i, k, t
    if majority(x, r):
        key = (<u64>n) << 24
    if king_mover_first(x, r) and c.king_mover:
        key |= (<u64>1) << 23
    if more_kings_first(x, r):
        key |= (<u64>popcount(capt & c.enemy_kings)) << 16
    if early_kings_first(x, r):
        key |= korder
    if key < c.best:
        return
    if key > c.best:
        out.n = 0
        c.best = key
    t = ctz(to)
    # Two paths with the same start, end, captured set and promotion are one
    # move; no capture of fewer than three pieces can have a twin, except that
    # of a flying king turning back over a piece removed at once (two pieces).
    if not c.keep and n >= c.twin_min:
        for i in range(out.n):
            m = &out.moves[i]
            if m.capt == capt and m.to == t and m.frm == c.frm and m.promo == promo:
                return
    if out.n >= MAX_MOVES:
        out.overflow = 1
        return
    m = &out.moves[out.n]
    m.frm = <unsigned char>c.frm
    m.to = <unsigned char>t
    m.capt = capt
    m.promo = <unsigned char>promo
    m.ncapt = <unsigned char>n
    if c.paths != NULL:
        c.paths.npath[out.n] = <unsigned char>(c.plen + 1)
        for k in range(c.plen):
            c.paths.path[out.n][k] = <unsigned char>ctz(c.path[k])
        c.paths.path[out.n][c.plen] = <unsigned char>t
    out.n += 1


cdef inline void push_capture(Ctx* c, u64 to, u64 capt, int n, u64 key, int promo,
                              int twins_from) noexcept nogil:
    """Add a finished capture with precedence key `key` (dropped below the best
    so far, the list emptied above it).  Captures of `twins_from` or more
    pieces are checked for a twin (another path with the same start, end,
    captured set and promotion: the same move).  add_capture is the same for
    the diagonal variants, written out in full for their speed."""
    cdef MoveList* out = c.out
    cdef CMove* m
    cdef int i, k, t
    if key < c.best:
        return
    if key > c.best:
        out.n = 0
        c.best = key
    t = ctz(to)
    # Two paths with the same start, end, captured set and promotion are one
    # move; with diagonal captures only, no capture of fewer than three
    # pieces can have a twin.
    if not c.keep and n >= twins_from:
        for i in range(out.n):
            m = &out.moves[i]
            if m.capt == capt and m.to == t and m.frm == c.frm and m.promo == promo:
                return
    if out.n >= MAX_MOVES:
        out.overflow = 1
        return
    m = &out.moves[out.n]
    m.frm = <unsigned char>c.frm
    m.to = <unsigned char>t
    m.capt = capt
    m.promo = <unsigned char>promo
    m.ncapt = <unsigned char>n
    if c.paths != NULL:
        c.paths.npath[out.n] = <unsigned char>(c.plen + 1)
        for k in range(c.plen):
            c.paths.path[out.n][k] = <unsigned char>ctz(c.path[k])
        c.paths.path[out.n][c.plen] = <unsigned char>t
    out.n += 1


cdef inline uint32_t king_bit(Ctx* c, u64 v, int n) noexcept nogil:
    """Italian order key: captured piece number n (0-based) was a king."""
    if (v & c.enemy_kings) and n < 16:
        return (<uint32_t>1) << (15 - n)
    return 0


cdef bint king_dfs(geo_t* g, ext_t* x, Ctx* c, u64 sq, u64 capt, int n, uint32_t korder,
                   int din, int promo) noexcept nogil:
    """Captures of a king standing on sq (one-hot) that has taken capt so far,
    having arrived moving in direction din (-1 at the start).  Adds every
    finished capture to c.out; returns whether sq has any capture."""
    cdef const Rules* r = c.r
    cdef u64 empty = c.empty | capt if removed_at_once(x, r) else c.empty
    cdef u64 targets = c.king_targets & ~capt
    cdef u64 v, land, t, ncapt, empty2
    cdef int d, found = 0, cont
    cdef uint32_t nk
    if c.plen >= MAX_PATH - 1:
        return 0
    for d in range(4):
        if din >= 0:
            if d == 3 - din and not (removed_at_once(x, r) and not never_turns_back(x, r)):
                continue        # back over the piece just taken: it still blocks (or turkish)
            if d == din and not lands_behind(x, r) and (step(g, sq, d) & empty):
                # straight on is tried once, from the end of the run; on the
                # orthogonal board every landing square starts a path of its
                # own when paths are kept (the count of the kish crate)
                if geo_t is not G64 or not c.keep:
                    continue
        v = step(g, sq, d)
        if flying(x, r):
            while v & empty:
                v = step(g, v, d)
        if not (v & targets):
            continue
        land = step(g, v, d)
        if not (land & empty):
            continue
        found = 1
        ncapt = capt | v
        nk = korder | king_bit(c, v, n)
        empty2 = c.empty | ncapt if removed_at_once(x, r) else c.empty
        cont = 0
        t = land
        while True:
            c.path[c.plen] = t
            c.plen += 1
            if king_dfs(g, x, c, t, ncapt, n + 1, nk, d, promo):
                cont = 1
            c.plen -= 1
            if not flying(x, r) or lands_behind(x, r):
                break
            t = step(g, t, d)
            if not (t & empty2):
                break
        if not cont:
            # no landing square goes on: every one of them ends the move
            # (killer: only the first behind a king taken last)
            t = land
            while True:
                add_capture(x, c, t, ncapt, n + 1, nk, promo)
                if not flying(x, r) or lands_behind(x, r) or (halts_behind_king(x, r) and (v & c.enemy_kings)):
                    break
                t = step(g, t, d)
                if not (t & empty2):
                    break
    return found


cdef inline void man_dirs(geo_t* g, ext_t* x, const Rules* r, int stm, int* d0, int* d1) noexcept nogil:
    """The directions d0 <= d < d1 a man of stm moves and captures in: the two
    forward diagonals (all four with men_capture_backwards), or on the orthogonal board
    forward and the two sideways ones."""
    if men_back(x, r):
        d0[0] = 0
        d1[0] = 4
    elif geo_t is G64:
        d0[0] = 0 if stm == 0 else 1
        d1[0] = d0[0] + 3
    elif stm == 0:
        d0[0] = 0
        d1[0] = 2
    else:
        d0[0] = 2
        d1[0] = 4


cdef inline bint man_goes_on(geo_t* g, ext_t* x, Ctx* c, u64 sq, u64 capt, int stm, int din) noexcept nogil:
    """Whether man_dfs from sq finds a capture: its loop's test for every
    direction at once, with literal directions (on the orthogonal board: True,
    man_dfs looks)."""
    cdef const Rules* r = c.r
    cdef u64 empty = c.empty | capt if removed_at_once(x, r) else c.empty
    cdef u64 targets = c.man_targets & ~capt
    cdef int back = 3 - din if never_turns_back(x, r) and din >= 0 else -1
    if geo_t is G64:
        return True
    else:
        if men_back(x, r) or stm == 0:
            if back != 0 and (step(g, step(g, sq, 0) & targets, 0) & empty):
                return True
            if back != 1 and (step(g, step(g, sq, 1) & targets, 1) & empty):
                return True
        if men_back(x, r) or stm != 0:
            if back != 2 and (step(g, step(g, sq, 2) & targets, 2) & empty):
                return True
            if back != 3 and (step(g, step(g, sq, 3) & targets, 3) & empty):
                return True
        return False


cdef bint man_dfs(geo_t* g, ext_t* x, Ctx* c, u64 sq, u64 capt, int n, uint32_t korder, int stm,
                  int din) noexcept nogil:
    """Captures of a man on sq (one-hot), having arrived moving in direction
    din (-1 at the start); see king_dfs."""
    cdef const Rules* r = c.r
    cdef u64 empty = c.empty | capt if removed_at_once(x, r) else c.empty
    cdef u64 targets = c.man_targets & ~capt
    cdef u64 v, land, ncapt
    cdef int d, d0, d1, more, promo
    cdef unsigned dirs = 0
    cdef uint32_t nk
    cdef int back = 3 - din if never_turns_back(x, r) and din >= 0 else -1
    if c.plen >= MAX_PATH - 1:
        return 0
    man_dirs(g, x, r, stm, &d0, &d1)
    # the directions with a capture, as bits, without a branch on each (whether
    # a direction has one is a coin toss); then taken in the same order
    for d in range(d0, d1):
        dirs |= (<unsigned>((step(g, step(g, sq, d) & targets, d) & empty) != 0)) << d
    if back >= 0:
        dirs &= ~((<unsigned>1) << back)
    if not dirs:
        return 0
    while dirs:
        d = ctz(dirs)
        dirs &= dirs - 1
        v = step(g, sq, d)
        land = step(g, v, d)
        ncapt = capt | v
        nk = korder | king_bit(c, v, n)
        c.path[c.plen] = land
        c.plen += 1
        if land & c.promo_row:
            promo = 1
            if crowning(x, r) == CROWN_STOP:
                more = 0
            elif crowning(x, r) == CROWN_CONTINUE:
                more = king_dfs(g, x, c, land, ncapt, n + 1, nk, d, 1)
            else:
                more = man_goes_on(g, x, c, land, ncapt, stm, d) and man_dfs(g, x, c, land, ncapt, n + 1, nk, stm, d)
        else:
            promo = 0
            # (most captures end here: the call is made only when one goes on)
            more = man_goes_on(g, x, c, land, ncapt, stm, d) and man_dfs(g, x, c, land, ncapt, n + 1, nk, stm, d)
        c.plen -= 1
        if not more:
            add_capture(x, c, land, ncapt, n + 1, nk, promo)
    return 1


# --- frisian: captures in eight directions (four diagonal, four orthogonal)

cdef inline void add_capture_fr(Ctx* c, u64 to, u64 capt, int n, int promo) noexcept nogil:
    """add_capture under the frisian precedence: the greatest value, a king
    worth more than a man and less than two (so men + 2 * kings first, then
    the fewer kings: KNDB/FDS rules, as DCTL's rules/frisian.hpp), then a
    capture by a king."""
    cdef const Rules* r = c.r
    cdef u64 key = 0
    cdef int k
    if r.capture_value:
        k = popcount(capt & c.enemy_kings)
        key = (<u64>((n + k) * 64 - k)) << 24
    elif r.majority_capture:
        key = (<u64>n) << 24
    if r.prefer_king_mover and c.king_mover:
        key |= (<u64>1) << 23
    # orthogonal and diagonal lines cross, so two-piece captures can have twins
    push_capture(c, to, capt, n, key, promo, 2)


cdef bint fr_king_dfs(geo_t* g, Ctx* c, u64 sq, u64 capt, int n, int din) noexcept nogil:
    """king_dfs in eight directions (captured pieces stay until the move ends)."""
    cdef const Rules* r = c.r
    cdef u64 empty = c.empty
    cdef u64 targets = c.king_targets & ~capt
    cdef u64 v, land, t, ncapt
    cdef int d, found = 0, cont
    if c.plen >= MAX_PATH - 1:
        return 0
    for d in range(8):
        if din >= 0:
            if d == opposite8(din):
                continue        # back over the piece just taken: it still blocks
            if d == din and (step8(g, sq, d) & empty):
                continue        # straight on is tried once, from the end of the run
        v = step8(g, sq, d)
        if r.flying_kings:
            while v & empty:
                v = step8(g, v, d)
        if not (v & targets):
            continue
        land = step8(g, v, d)
        if not (land & empty):
            continue
        found = 1
        ncapt = capt | v
        cont = 0
        t = land
        while True:
            c.path[c.plen] = t
            c.plen += 1
            if fr_king_dfs(g, c, t, ncapt, n + 1, d):
                cont = 1
            c.plen -= 1
            if not r.flying_kings:
                break
            t = step8(g, t, d)
            if not (t & empty):
                break
        if not cont:
            t = land
            while True:
                add_capture_fr(c, t, ncapt, n + 1, 0)
                if not r.flying_kings:
                    break
                t = step8(g, t, d)
                if not (t & empty):
                    break
    return found


cdef bint fr_man_dfs(geo_t* g, Ctx* c, u64 sq, u64 capt, int n, int stm) noexcept nogil:
    """man_dfs in eight directions; a man passing the far row stays a man."""
    cdef const Rules* r = c.r
    cdef u64 targets = c.man_targets & ~capt
    cdef u64 v, land, ncapt
    cdef int d, found = 0, more, promo
    if c.plen >= MAX_PATH - 1:
        return 0
    for d in range(8):
        if d < 4 and not r.men_capture_backwards and (d < 2) != (stm == 0):
            continue
        v = step8(g, sq, d)
        if not (v & targets):
            continue
        land = step8(g, v, d)
        if not (land & c.empty):
            continue
        found = 1
        ncapt = capt | v
        c.path[c.plen] = land
        c.plen += 1
        if land & c.promo_row:
            promo = 1
            if r.crown_during_capture == CROWN_STOP:
                more = 0
            elif r.crown_during_capture == CROWN_CONTINUE:
                more = fr_king_dfs(g, c, land, ncapt, n + 1, d)
            else:
                more = fr_man_dfs(g, c, land, ncapt, n + 1, stm)
        else:
            promo = 0
            more = fr_man_dfs(g, c, land, ncapt, n + 1, stm)
        c.plen -= 1
        if not more:
            add_capture_fr(c, land, ncapt, n + 1, promo)
    return found


cdef inline void fr_capture_sources(geo_t* g, const Rules* r, const Pos* p,
                                    u64* men_out, u64* kings_out) noexcept nogil:
    """capture_sources in eight directions."""
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 opp = p.bb[stm ^ 1]
    cdef u64 empty = ~(me | opp) & board_mask(g)
    cdef u64 men = me & ~p.kings
    cdef u64 kings = me & p.kings
    cdef u64 mt = opp if r.men_capture_kings else opp & ~p.kings
    cdef u64 mres = 0, kres = 0, x, y
    cdef int d, b
    for d in range(8):
        b = opposite8(d)
        x = step8(g, mt & step8(g, empty, b), b)
        if d >= 4 or r.men_capture_backwards or (d < 2) == (stm == 0):
            mres |= men & x
        if kings:
            x = step8(g, opp & step8(g, empty, b), b)
            if r.flying_kings:
                y = x & empty
                while y:
                    y = step8(g, y, b)
                    x |= y
                    y &= empty
            kres |= kings & x
    men_out[0] = mres
    kings_out[0] = kres


cdef inline u64 frozen_king(const Rules* r, const Pos* p) noexcept nogil:
    """Frisian: the king of the side to move that has made its quiet moves in
    a row while the side still has men (it may only capture), or 0."""
    cdef uint32_t km
    if not r.king_move_limit:
        return 0
    km = (p.kmoves >> (8 * p.stm)) & 0xFF
    if <int>(km & 3) < r.king_move_limit or not (p.bb[p.stm] & ~p.kings):
        return 0
    return (<u64>1) << (km >> 2)


cdef inline u64 flying_reach(geo_t* g, u64 from_, u64 empty, int d) noexcept nogil:
    """Empty squares reached from every square of from_ along d, up to a block."""
    cdef u64 acc = 0
    cdef u64 x = step(g, from_, d) & empty
    while x:
        acc |= x
        x = step(g, x, d) & empty
    return acc


cdef inline u64 jumps(geo_t* g, u64 targets, u64 empty, int d) noexcept nogil:
    """Squares from which a step d hits a target with an empty square behind
    it (d a literal at every call: the steps fold to constant shifts)."""
    return step(g, targets & step(g, empty, 3 - d), 3 - d)


cdef inline u64 flying_jumps(geo_t* g, u64 targets, u64 empty, int d) noexcept nogil:
    """jumps, or any square that sees such a square along d across empty ones."""
    cdef u64 x = jumps(g, targets, empty, d)
    cdef u64 y = x & empty
    while y:
        y = step(g, y, 3 - d)
        x |= y
        y &= empty
    return x


cdef inline void capture_sources(geo_t* g, ext_t* x, const Rules* r, const Pos* p,
                                 u64* men_out, u64* kings_out) noexcept nogil:
    """Pieces of the side to move that have at least one capture."""
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 opp = p.bb[stm ^ 1]
    cdef u64 empty = ~(me | opp) & board_mask(g)
    cdef u64 men = me & ~p.kings
    cdef u64 kings = me & p.kings
    cdef u64 mt = opp if men_take_kings(x, r) else opp & ~p.kings
    cdef u64 mres = 0, kres = 0
    if geo_t is G64:
        capture_sources_loop(g, r, p, men_out, kings_out)
    else:
        # the directions written out one by one, so that every step is a constant shift
        if men:
            if men_back(x, r):
                mres = jumps(g, mt, empty, 0) | jumps(g, mt, empty, 1) | jumps(g, mt, empty, 2) | jumps(g, mt, empty, 3)
            elif stm == 0:
                mres = jumps(g, mt, empty, 0) | jumps(g, mt, empty, 1)
            else:
                mres = jumps(g, mt, empty, 2) | jumps(g, mt, empty, 3)
        if kings:
            if flying(x, r):
                kres = (flying_jumps(g, opp, empty, 0) | flying_jumps(g, opp, empty, 1)
                        | flying_jumps(g, opp, empty, 2) | flying_jumps(g, opp, empty, 3))
            else:
                kres = (jumps(g, opp, empty, 0) | jumps(g, opp, empty, 1) | jumps(g, opp, empty, 2)
                        | jumps(g, opp, empty, 3))
        men_out[0] = men & mres
        kings_out[0] = kings & kres


cdef inline void capture_sources_loop(geo_t* g, const Rules* r, const Pos* p,
                                      u64* men_out, u64* kings_out) noexcept nogil:
    """capture_sources on the orthogonal board (where men move sideways too)."""
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 opp = p.bb[stm ^ 1]
    cdef u64 empty = ~(me | opp) & board_mask(g)
    cdef u64 men = me & ~p.kings
    cdef u64 kings = me & p.kings
    cdef u64 mt = opp if r.men_capture_kings else opp & ~p.kings
    cdef u64 mres = 0, kres = 0, x, y
    cdef int d, b, d0, d1
    man_dirs(g, <XPlain*>NULL, r, stm, &d0, &d1)
    for d in range(4):
        b = 3 - d
        # squares from which a step d hits a target with an empty square behind
        x = step(g, mt & step(g, empty, b), b)
        if d0 <= d < d1:
            mres |= men & x
        if kings:
            # one square before a target with an empty square behind it ...
            x = step(g, opp & step(g, empty, b), b)
            if r.flying_kings:
                # ... or any square that sees such a square across empty ones
                y = x & empty
                while y:
                    y = step(g, y, b)
                    x |= y
                    y &= empty
            kres |= kings & x
    men_out[0] = mres
    kings_out[0] = kres


cdef void gen_captures(geo_t* g, ext_t* x, const Rules* r, const Pos* p, MoveList* out,
                       bint keep, PathList* paths, u64 men, u64 kings) noexcept nogil:
    cdef Ctx c
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 opp = p.bb[stm ^ 1]
    cdef u64 b
    c.r = r
    c.out = out
    c.paths = paths
    c.enemy_kings = opp & p.kings
    c.king_targets = opp
    c.man_targets = opp if men_take_kings(x, r) else opp & ~p.kings
    c.promo_row = top_row(g) if stm == 0 else bottom_row(g)
    c.best = 0
    c.keep = keep
    c.twin_min = 2 if removed_at_once(x, r) and flying(x, r) and not never_turns_back(x, r) and not lands_behind(x, r) else 3
    out.n = 0
    while kings:
        b = lsb(kings)
        kings ^= b
        c.frm = ctz(b)
        c.king_mover = 1
        c.empty = (~(me | opp) & board_mask(g)) | b
        c.path[0] = b
        c.plen = 1
        if ext_t is XExt and r.orthogonal_captures:
            fr_king_dfs(g, &c, b, 0, 0, -1)
        else:
            king_dfs(g, x, &c, b, 0, 0, 0, -1, 0)
    while men:
        b = lsb(men)
        men ^= b
        c.frm = ctz(b)
        c.king_mover = 0
        c.empty = (~(me | opp) & board_mask(g)) | b
        c.path[0] = b
        c.plen = 1
        if ext_t is XExt and r.orthogonal_captures:
            fr_man_dfs(g, &c, b, 0, 0, stm)
        else:
            man_dfs(g, x, &c, b, 0, 0, 0, stm, -1)


cdef inline void push_quiet(MoveList* out, PathList* paths, u64 frm, u64 to, int promo) noexcept nogil:
    cdef CMove* m
    if out.n >= MAX_MOVES:
        out.overflow = 1
        return
    m = &out.moves[out.n]
    m.frm = <unsigned char>ctz(frm)
    m.to = <unsigned char>ctz(to)
    m.capt = 0
    m.promo = <unsigned char>promo
    m.ncapt = 0
    if paths != NULL:
        paths.npath[out.n] = 2
        paths.path[out.n][0] = m.frm
        paths.path[out.n][1] = m.to
    out.n += 1


cdef void gen_quiet(geo_t* g, ext_t* x, const Rules* r, const Pos* p, MoveList* out, PathList* paths) noexcept nogil:
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 empty = ~(me | p.bb[stm ^ 1]) & board_mask(g)
    cdef u64 men = me & ~p.kings
    cdef u64 kings = me & p.kings
    cdef u64 promo_row = top_row(g) if stm == 0 else bottom_row(g)
    cdef u64 t, b, k
    cdef int d, d0 = 0 if stm == 0 else 2, d1 = d0 + 2
    if geo_t is G64:
        d0 = 0 if stm == 0 else 1
        d1 = d0 + 3
    if ext_t is XExt:
        kings &= ~frozen_king(r, p)
    while kings:
        k = lsb(kings)
        kings ^= k
        for d in range(4):
            t = step(g, k, d) & empty
            while t:
                push_quiet(out, paths, k, t, 0)
                if not flying(x, r):
                    break
                t = step(g, t, d) & empty
    if geo_t is G64:
        for d in range(d0, d1):
            t = step(g, men, d) & empty
            while t:
                b = lsb(t)
                t ^= b
                push_quiet(out, paths, step(g, b, 3 - d), b, (b & promo_row) != 0)
    elif stm == 0:
        # the men's two directions written out: constant shifts
        men_quiet(g, out, paths, men, empty, promo_row, 0)
        men_quiet(g, out, paths, men, empty, promo_row, 1)
    else:
        men_quiet(g, out, paths, men, empty, promo_row, 2)
        men_quiet(g, out, paths, men, empty, promo_row, 3)


cdef inline void men_quiet(geo_t* g, MoveList* out, PathList* paths, u64 men, u64 empty, u64 promo_row,
                           int d) noexcept nogil:
    """The quiet moves of the men along diagonal d (a literal at every call),
    in the order of their destination squares."""
    cdef u64 t = step(g, men, d) & empty
    cdef u64 b
    while t:
        b = lsb(t)
        t ^= b
        push_quiet(out, paths, step(g, b, 3 - d), b, (b & promo_row) != 0)


cdef inline u64 count_quiet(geo_t* g, ext_t* x, const Rules* r, const Pos* p) noexcept nogil:
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 empty = ~(me | p.bb[stm ^ 1]) & board_mask(g)
    cdef u64 men = me & ~p.kings
    cdef u64 kings = me & p.kings
    cdef u64 n = 0
    cdef int d, d0 = 0 if stm == 0 else 2, d1 = d0 + 2
    if geo_t is G64:
        d0 = 0 if stm == 0 else 1
        d1 = d0 + 3
    if ext_t is XExt:
        kings &= ~frozen_king(r, p)
    if geo_t is G64:
        for d in range(d0, d1):
            n += popcount(step(g, men, d) & empty)
    elif stm == 0:
        n = popcount(step(g, men, 0) & empty) + popcount(step(g, men, 1) & empty)
    else:
        n = popcount(step(g, men, 2) & empty) + popcount(step(g, men, 3) & empty)
    if kings:
        for d in range(4):
            if flying(x, r):
                # rays of two kings along one direction never overlap
                n += popcount(flying_reach(g, kings, empty, d))
            else:
                n += popcount(step(g, kings, d) & empty)
    return n


cdef inline void sources(geo_t* g, ext_t* x, const Rules* r, const Pos* p, u64* men, u64* kings) noexcept nogil:
    if ext_t is XExt and r.orthogonal_captures:
        fr_capture_sources(g, r, p, men, kings)
    else:
        capture_sources(g, x, r, p, men, kings)


cdef int gen_moves_g(geo_t* g, ext_t* x, const Rules* r, const Pos* p, MoveList* out, bint keep,
                     PathList* paths) noexcept nogil:
    cdef u64 men, kings
    out.n = 0
    out.overflow = 0
    if ext_t is XExt:
        if r.goal == GOAL_BREAKTHROUGH and p.kings:
            return 0            # a king was crowned: the game is over
    sources(g, x, r, p, &men, &kings)
    if men | kings:
        gen_captures(g, x, r, p, out, keep, paths, men, kings)
        if compulsory(x, r):
            return out.n
    gen_quiet(g, x, r, p, out, paths)
    return out.n


cdef u64 count_moves_g(geo_t* g, ext_t* x, const Rules* r, const Pos* p, bint keep,
                       MoveList* scratch) noexcept nogil:
    cdef u64 men, kings
    if ext_t is XExt:
        if r.goal == GOAL_BREAKTHROUGH and p.kings:
            return 0
    sources(g, x, r, p, &men, &kings)
    if men | kings:
        scratch.n = 0
        scratch.overflow = 0
        gen_captures(g, x, r, p, scratch, keep, NULL, men, kings)
        if compulsory(x, r):
            return scratch.n
        return scratch.n + count_quiet(g, x, r, p)
    return count_quiet(g, x, r, p)


cdef int gen_horizon_g(geo_t* g, ext_t* x, const Rules* r, const Pos* p, MoveList* out,
                       bint* counted) noexcept nogil:
    cdef u64 men, kings
    out.n = 0
    out.overflow = 0
    counted[0] = False
    if ext_t is XExt:
        if r.goal == GOAL_BREAKTHROUGH and p.kings:
            return 0
    sources(g, x, r, p, &men, &kings)
    if men | kings:
        gen_captures(g, x, r, p, out, False, NULL, men, kings)
        if compulsory(x, r):
            return out.n
        gen_quiet(g, x, r, p, out, NULL)
        return out.n
    counted[0] = True
    return <int>count_quiet(g, x, r, p)


cdef int gen_moves(const Rules* r, const Pos* p, MoveList* out, bint keep, PathList* paths) noexcept nogil:
    if r.geometry:
        return gen_moves_g(<G64*>NULL, <XPlain*>NULL, r, p, out, keep, paths)
    if r.extended:
        if r.size == 8:
            return gen_moves_g(<G8*>NULL, <XExt*>NULL, r, p, out, keep, paths)
        return gen_moves_g(<G10*>NULL, <XExt*>NULL, r, p, out, keep, paths)
    if r.family == FAMILY_INTL:
        if r.size == 8:
            return gen_moves_g(<G8*>NULL, <XIntl*>NULL, r, p, out, keep, paths)
        return gen_moves_g(<G10*>NULL, <XIntl*>NULL, r, p, out, keep, paths)
    if r.family == FAMILY_AMERICAN:
        if r.size == 8:
            return gen_moves_g(<G8*>NULL, <XAmer*>NULL, r, p, out, keep, paths)
        return gen_moves_g(<G10*>NULL, <XAmer*>NULL, r, p, out, keep, paths)
    if r.size == 8:
        return gen_moves_g(<G8*>NULL, <XPlain*>NULL, r, p, out, keep, paths)
    return gen_moves_g(<G10*>NULL, <XPlain*>NULL, r, p, out, keep, paths)


cdef u64 count_moves(const Rules* r, const Pos* p, bint keep, MoveList* scratch) noexcept nogil:
    if r.geometry:
        return count_moves_g(<G64*>NULL, <XPlain*>NULL, r, p, keep, scratch)
    if r.extended:
        if r.size == 8:
            return count_moves_g(<G8*>NULL, <XExt*>NULL, r, p, keep, scratch)
        return count_moves_g(<G10*>NULL, <XExt*>NULL, r, p, keep, scratch)
    if r.family == FAMILY_INTL:
        if r.size == 8:
            return count_moves_g(<G8*>NULL, <XIntl*>NULL, r, p, keep, scratch)
        return count_moves_g(<G10*>NULL, <XIntl*>NULL, r, p, keep, scratch)
    if r.family == FAMILY_AMERICAN:
        if r.size == 8:
            return count_moves_g(<G8*>NULL, <XAmer*>NULL, r, p, keep, scratch)
        return count_moves_g(<G10*>NULL, <XAmer*>NULL, r, p, keep, scratch)
    if r.size == 8:
        return count_moves_g(<G8*>NULL, <XPlain*>NULL, r, p, keep, scratch)
    return count_moves_g(<G10*>NULL, <XPlain*>NULL, r, p, keep, scratch)


cdef bint has_capture(const Rules* r, const Pos* p) noexcept nogil:
    cdef u64 men, kings
    if r.geometry:
        capture_sources(<G64*>NULL, <XPlain*>NULL, r, p, &men, &kings)
    elif r.family == FAMILY_INTL:
        if r.size == 8:
            capture_sources(<G8*>NULL, <XIntl*>NULL, r, p, &men, &kings)
        else:
            capture_sources(<G10*>NULL, <XIntl*>NULL, r, p, &men, &kings)
    elif r.family == FAMILY_AMERICAN:
        if r.size == 8:
            capture_sources(<G8*>NULL, <XAmer*>NULL, r, p, &men, &kings)
        else:
            capture_sources(<G10*>NULL, <XAmer*>NULL, r, p, &men, &kings)
    elif r.extended:
        if r.goal == GOAL_BREAKTHROUGH and p.kings:
            return 0
        if r.size == 8:
            sources(<G8*>NULL, <XExt*>NULL, r, p, &men, &kings)
        else:
            sources(<G10*>NULL, <XExt*>NULL, r, p, &men, &kings)
    elif r.size == 8:
        capture_sources(<G8*>NULL, <XPlain*>NULL, r, p, &men, &kings)
    else:
        capture_sources(<G10*>NULL, <XPlain*>NULL, r, p, &men, &kings)
    return (men | kings) != 0


cdef inline bint quiet_promotion_g(geo_t* g, const Pos* p) noexcept nogil:
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 empty = ~(me | p.bb[stm ^ 1]) & board_mask(g)
    cdef u64 men = me & ~p.kings
    if geo_t is G64:
        # forward only: a man on the far row is already a king
        return (step(g, men, 0 if stm == 0 else 3) & empty & (top_row(g) if stm == 0 else bottom_row(g))) != 0
    elif stm == 0:
        return ((step(g, men, 0) | step(g, men, 1)) & empty & top_row(g)) != 0
    return ((step(g, men, 2) | step(g, men, 3)) & empty & bottom_row(g)) != 0


cdef bint has_quiet_promotion(const Rules* r, const Pos* p) noexcept nogil:
    if r.geometry:
        return quiet_promotion_g(<G64*>NULL, p)
    if r.size == 8:
        return quiet_promotion_g(<G8*>NULL, p)
    return quiet_promotion_g(<G10*>NULL, p)


cdef inline u64 exchange_squares_g(geo_t* g, const Rules* r, const Pos* p) noexcept nogil:
    cdef int stm = p.stm
    cdef u64 me = p.bb[stm]
    cdef u64 opp = p.bb[stm ^ 1]
    cdef u64 empty = ~(me | opp) & board_mask(g)
    cdef u64 beyond = empty | me        # (the square a man leaves is empty after its move)
    cdef u64 reach, hot
    # an enemy man on e takes the piece on t = step(e, d) and lands on step(t, d):
    # t is in step(opp, d) and in step(beyond, 3 - d); the directions written out
    if stm == 0:
        reach = (step(g, me, 0) | step(g, me, 1)) & empty
    else:
        reach = (step(g, me, 2) | step(g, me, 3)) & empty
    if r.men_capture_backwards:
        hot = ((step(g, opp, 0) & step(g, beyond, 3)) | (step(g, opp, 1) & step(g, beyond, 2))
               | (step(g, opp, 2) & step(g, beyond, 1)) | (step(g, opp, 3) & step(g, beyond, 0)))
    elif stm == 0:
        hot = (step(g, opp, 2) & step(g, beyond, 1)) | (step(g, opp, 3) & step(g, beyond, 0))
    else:
        hot = (step(g, opp, 0) & step(g, beyond, 3)) | (step(g, opp, 1) & step(g, beyond, 2))
    return hot & reach


cdef u64 exchange_squares(const Rules* r, const Pos* p) noexcept nogil:
    """The squares a man of the side to move can step to where an enemy man
    could take it at once: the destinations worth offers_exchange's test.
    Men only (0 with a king on the board), the diagonal boards' plain rules
    (0 under frisian's, breakthrough's or the orthogonal board's), and
    captures compulsory."""
    if p.kings or r.geometry or r.extended or not r.mandatory_capture:
        return 0
    if r.size == 8:
        return exchange_squares_g(<G8*>NULL, r, p)
    return exchange_squares_g(<G10*>NULL, r, p)


cdef bint offers_exchange(const Rules* r, const Pos* p, const CMove* m, MoveList* scratch) noexcept nogil:
    """Whether the quiet move m of a man (no king on the board, captures
    compulsory) offers a one-for-one exchange: after it the other side must
    capture, every capture it has takes a single piece and one of them the man
    that moved, and after each of them the side can capture back.  scratch
    holds the other side's captures meanwhile."""
    cdef Pos child, grand
    cdef int i, n
    cdef bint takes_it = False
    if m.ncapt or m.promo or p.kings or not r.mandatory_capture:
        return False
    make_move(r, p, m, &child)
    n = gen_moves(r, &child, scratch, False, NULL)
    if n == 0 or scratch.moves[0].ncapt == 0:
        return False
    for i in range(n):
        if scratch.moves[i].ncapt != 1:
            return False
        if (scratch.moves[i].capt >> m.to) & 1:
            takes_it = True
    if not takes_it:
        return False
    for i in range(n):
        make_move(r, &child, &scratch.moves[i], &grand)
        if not has_capture(r, &grand):
            return False
    return True


cdef inline void exchange_moves_d(geo_t* g, const Rules* r, const Pos* p, u64 targets, int d,
                                  MoveList* out, MoveList* scratch) noexcept nogil:
    """exchange_moves along diagonal d (a literal at every call): the men's
    steps onto targets (empty squares of exchange_squares) that offer one."""
    cdef u64 b
    cdef CMove m
    cdef u64 t = step(g, p.bb[p.stm], d) & targets
    while t:
        b = lsb(t)
        t ^= b
        m.frm = <unsigned char>ctz(step(g, b, 3 - d))
        m.to = <unsigned char>ctz(b)
        m.capt = 0
        m.ncapt = 0
        m.promo = (b & (top_row(g) if p.stm == 0 else bottom_row(g))) != 0
        if out.n < MAX_MOVES and offers_exchange(r, p, &m, scratch):
            out.moves[out.n] = m
            out.n += 1


cdef inline void exchange_moves_g(geo_t* g, const Rules* r, const Pos* p, u64 hot, MoveList* out,
                                  MoveList* scratch) noexcept nogil:
    # the men's two directions written out: constant shifts
    if p.stm == 0:
        exchange_moves_d(g, r, p, hot, 0, out, scratch)
        exchange_moves_d(g, r, p, hot, 1, out, scratch)
    else:
        exchange_moves_d(g, r, p, hot, 2, out, scratch)
        exchange_moves_d(g, r, p, hot, 3, out, scratch)


cdef int exchange_moves(const Rules* r, const Pos* p, u64 hot, MoveList* out, MoveList* scratch) noexcept nogil:
    """The men's quiet moves onto hot (exchange_squares' squares, or fewer)
    that offer an exchange (offers_exchange), into out; their number.  The
    side to move has no capture and no king is on the board (else hot is 0)."""
    out.n = 0
    out.overflow = 0
    if not hot:
        return 0
    if r.size == 8:
        exchange_moves_g(<G8*>NULL, r, p, hot, out, scratch)
    else:
        exchange_moves_g(<G10*>NULL, r, p, hot, out, scratch)
    return out.n


cdef int gen_horizon(const Rules* r, const Pos* p, MoveList* out, bint* counted) noexcept nogil:
    """gen_moves (keep off, no paths) when the side has a capture; without one
    the quiet moves are only counted: out is left empty, `counted` is set and
    the count returned (what a search horizon needs to score a quiet position)."""
    if r.geometry:
        return gen_horizon_g(<G64*>NULL, <XPlain*>NULL, r, p, out, counted)
    if r.extended:
        if r.size == 8:
            return gen_horizon_g(<G8*>NULL, <XExt*>NULL, r, p, out, counted)
        return gen_horizon_g(<G10*>NULL, <XExt*>NULL, r, p, out, counted)
    if r.family == FAMILY_INTL:
        if r.size == 8:
            return gen_horizon_g(<G8*>NULL, <XIntl*>NULL, r, p, out, counted)
        return gen_horizon_g(<G10*>NULL, <XIntl*>NULL, r, p, out, counted)
    if r.family == FAMILY_AMERICAN:
        if r.size == 8:
            return gen_horizon_g(<G8*>NULL, <XAmer*>NULL, r, p, out, counted)
        return gen_horizon_g(<G10*>NULL, <XAmer*>NULL, r, p, out, counted)
    if r.size == 8:
        return gen_horizon_g(<G8*>NULL, <XPlain*>NULL, r, p, out, counted)
    return gen_horizon_g(<G10*>NULL, <XPlain*>NULL, r, p, out, counted)

# The endgame counting rules (docs/rules.md): which class the material is in, and how many plies
# that class allows before the game is a draw.  The one place these rules are written: the search
# calls them at every capture or promotion, draughts.Board through Position.endgame_class().

from draughts_core.bitboard cimport popcount, u64
from draughts_core.movegen cimport Pos, CMove
from draughts_core.rules cimport (Rules, ENDGAME_NONE, ENDGAME_FMJD, ENDGAME_FMJD64, ENDGAME_FRISIAN,
                                  ENDGAME_POOL)


cdef inline int endgame_class(const Rules* r, const Pos* p) noexcept nogil:
    """The material's endgame class: 0 (no counting), 16 or 5 (FMJD: 3 or at most 2 pieces
    with a king against a lone king), or the russian FMJD-64 classes 15 (3 or more kings against
    a lone king), 5, 30 (4-5 pieces with kings on both sides) and 60 (6-7 pieces), or frisian's
    7 (kings only, two against one) and 2 (one king against one), or pool's 13 (three kings
    against a lone king)."""
    cdef u64 k = p.kings
    cdef int wm = popcount(p.bb[0] & ~k), wk = popcount(p.bb[0] & k)
    cdef int bm = popcount(p.bb[1] & ~k), bk = popcount(p.bb[1] & k)
    cdef int side, sm, sk, tm, tk, total
    if r.endgame_rules == ENDGAME_NONE:
        return 0
    if r.endgame_rules == ENDGAME_FRISIAN:
        if wm or bm:
            return 0
        if (wk == 2 and bk == 1) or (wk == 1 and bk == 2):
            return 7
        return 2 if wk == 1 and bk == 1 else 0
    if r.endgame_rules == ENDGAME_POOL:
        if wm or bm:
            return 0
        return 13 if (wk == 3 and bk == 1) or (wk == 1 and bk == 3) else 0
    for side in range(2):
        if side == 0:
            sm, sk, tm, tk = wm, wk, bm, bk
        else:
            sm, sk, tm, tk = bm, bk, wm, wk
        if tm == 0 and tk == 1 and sk >= 1:          # a lone king against a side with a king
            total = sm + sk
            if r.endgame_rules == ENDGAME_FMJD:
                if total == 3:
                    return 16
                if total <= 2:
                    return 5
            else:
                if sm == 0 and sk >= 3:
                    return 15
                if total <= 2:
                    return 5
    if r.endgame_rules == ENDGAME_FMJD64 and wk and bk:
        total = wm + wk + bm + bk
        if total == 4 or total == 5:
            return 30
        if total == 6 or total == 7:
            return 60
    return 0


cdef inline int endgame_limit(int cls) noexcept nogil:
    """Plies the class allows (its number of moves by each side, times two); 0: no limit."""
    if (cls == 16 or cls == 5 or cls == 15 or cls == 30 or cls == 60 or cls == 7 or cls == 2
            or cls == 13):
        return 2 * cls
    return 0


# The draw-rule counters a search carries from a position to its children:
# the plies since the last irreversible move (repetitions and the quiet-move
# rule), since the last capture or promotion (the capture-or-promotion rule),
# and the endgame rule's class and plies in it.
ctypedef struct DrawCounts:
    int rev             # plies since a capture or a man's move (one that cannot be undone)
    int cp              # plies since a capture or a promotion
    int egc             # the material's endgame class (endgame_class; 0: no counting)
    int egp             # plies played in that class


cdef inline bint draw_by_counts(const Rules* r, const DrawCounts* dc) noexcept nogil:
    """The quiet-move, capture-or-promotion and endgame rules end the game here."""
    if r.quiet_plies and dc.rev >= r.quiet_plies:
        return True
    if r.no_capture_promotion_plies and dc.cp >= r.no_capture_promotion_plies:
        return True
    return dc.egc != 0 and dc.egp >= endgame_limit(dc.egc)


cdef inline DrawCounts counts_after(const Rules* r, const Pos* p, const CMove* m, const Pos* child,
                                    const DrawCounts* dc) noexcept nogil:
    """The counters after the move m from p to child."""
    cdef DrawCounts out
    cdef bint is_king = (p.kings >> m.frm) & 1
    # irreversible: a capture or a man move, except a man's move along its
    # row on the orthogonal board (the next one can undo it)
    out.rev = 0 if (m.ncapt or not (is_king or (r.geometry and (m.frm >> 3) == (m.to >> 3)))) \
        else dc.rev + 1
    out.cp = 0 if (m.ncapt or m.promo) else dc.cp + 1
    if r.endgame_rules and (m.ncapt or m.promo):
        out.egc = endgame_class(r, child)
        out.egp = 0 if out.egc != dc.egc else dc.egp + 1
    else:
        out.egc = dc.egc
        out.egp = dc.egp + 1 if dc.egc else 0
    return out

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Endgame databases: the retrograde builder.

A table pair (a, b, c, d) + (c, d, a, b)
is built at once, after every table it leads into by a capture (fewer
pieces) or a promotion (one man fewer, one king more): those are final and
are probed like any loaded table.  Inside the pair the blocks (placements of
the men) are solved in order of decreasing advancement: a man move advances
the men, so a block leads only into blocks already solved, or into itself and
its partner block in the other table by king moves.  Each block group is then
solved by forward iteration: a position is a win when some move reaches a
loss for the opponent, a loss when every move reaches a win (or there is no
move); when an iteration changes nothing, the rest are draws.
"""

from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint32_t
from draughts_core.bitboard cimport u64, G8, G10, step, lsb, ctz
from draughts_core.movegen cimport Pos, MoveList, gen_moves, make_move, has_capture
from draughts_core.egdb cimport (DB, Slice, EGDB, EG_UNKNOWN, EG_WIN, EG_LOSS, EG_DRAW, EG_MAX_PIECES,
                                 new_slice, free_slice)
from draughts_core.egdb_index cimport probe, check_material, index_of, unrank, rot, orient, rank_men


# --- the builder ----------------------------------------------------------------

cdef int evaluate(const DB* db, const Pos* p, MoveList* ml) noexcept nogil:
    """The value of p from its successors' (UNKNOWN while one of them is unknown)."""
    cdef Pos child
    cdef int i, v, n, known = 1, draw = 0
    n = gen_moves(&db.r, p, ml, False, NULL)
    if n == 0:
        return EG_LOSS
    for i in range(n):
        make_move(&db.r, p, &ml.moves[i], &child)
        v = probe(db, &child)
        if v == EG_LOSS:
            return EG_WIN
        if v == EG_UNKNOWN:
            known = 0
        elif v == EG_DRAW:
            draw = 1
    if known:
        return EG_DRAW if draw else EG_LOSS
    return EG_UNKNOWN


cdef bint block_men(const DB* db, const Slice* s, u64 block, u64* om, u64* tm) noexcept nogil:
    """The men of a block; False when the two sets overlap (no position)."""
    cdef int pos[EG_MAX_PIECES]
    cdef int i, m = db.nsq - db.half
    cdef u64 x = 0, y = 0
    unrank(db, block // s.cm, s.a, m, pos)
    for i in range(s.a):
        x |= (<u64>1) << db.bit_of_sq[pos[i] + db.half]
    unrank(db, block % s.cm, s.c, m, pos)
    for i in range(s.c):
        y |= (<u64>1) << db.bit_of_sq[pos[i]]
    om[0] = x
    tm[0] = y
    return (x & y) == 0


cdef int block_level(const DB* db, u64 om, u64 tm) noexcept nogil:
    """Advancement of the men: a man move adds one."""
    cdef int adv = 0, b
    while om:
        b = ctz(om)
        om &= om - 1
        adv += db.size - 1 - db.row_of_bit[b]
    while tm:
        b = ctz(tm)
        tm &= tm - 1
        adv += db.row_of_bit[b]
    return adv


cdef inline u64 step_on(const DB* db, u64 b, int d) noexcept nogil:
    if db.size == 8:
        return step(<G8*>NULL, b, d)
    return step(<G10*>NULL, b, d)


cdef void mark_predecessors(const DB* db, Slice* t, const Pos* p) noexcept nogil:
    """Flag for another look the unknown positions of table t (the partner of
    p's table) that reach p by a quiet king move: the side not to move in p
    takes one of its kings back along a diagonal (a position that had a
    capture could not have made that move)."""
    cdef u64 occ = p.bb[0] | p.bb[1]
    cdef u64 kings = p.bb[1] & p.kings, k, x, idx
    cdef int d
    cdef Pos q, o
    q.bb[0] = p.bb[0]
    q.stm = 1
    q.kmoves = 0
    while kings:
        k = lsb(kings)
        kings ^= k
        for d in range(4):
            x = step_on(db, k, d) & ~occ
            while x:
                q.bb[1] = (p.bb[1] & ~k) | x
                q.kings = (p.kings & ~k) | x
                if not db.r.mandatory_capture or not has_capture(&db.r, &q):
                    orient(db, &q, &o)
                    idx = index_of(db, t, &o)
                    if t.bytes[idx] == 0:
                        t.dirty[idx] = 1
                if not db.r.flying_kings:
                    break
                x = step_on(db, x, d) & ~occ


cdef u64 block_pass(const DB* db, Slice* s, Slice* other, u64 block, u64 lo, u64 hi,
                    bint full, MoveList* ml) noexcept nogil:
    """One iteration over positions [lo, hi) of a block (every unknown one, or
    only those flagged); the number resolved.  A resolved position flags its
    predecessors in the partner table `other`."""
    cdef u64 om, tm, men, kr, idx, base, rb, rd, cur_rb, ok = 0, tk, x
    cdef int freebits[64]
    cdef int rest[64]
    cdef int pos[EG_MAX_PIECES]
    cdef int nfree = 0, nrest = 0, i, j, v, b
    cdef u64 changes = 0
    cdef Pos p
    if lo >= hi:
        return 0
    block_men(db, s, block, &om, &tm)
    men = om | tm
    x = db.board & ~men
    while x:
        freebits[nfree] = ctz(x)
        nfree += 1
        x &= x - 1
    base = block * s.kk
    cur_rb = <u64>-1
    p.stm = 0
    p.kmoves = 0
    for kr in range(lo, hi):
        idx = base + kr
        if s.bytes[idx] != 0 or not (full or s.dirty[idx]):
            continue
        s.dirty[idx] = 0
        rb = kr // s.k2
        rd = kr % s.k2
        if rb != cur_rb:
            cur_rb = rb
            unrank(db, rb, s.b, nfree, pos)
            ok = 0
            for i in range(s.b):
                ok |= (<u64>1) << freebits[pos[i]]
            nrest = 0
            for i in range(nfree):
                if not ((ok >> freebits[i]) & 1):
                    rest[nrest] = freebits[i]
                    nrest += 1
        unrank(db, rd, s.d, nrest, pos)
        tk = 0
        for i in range(s.d):
            tk |= (<u64>1) << rest[pos[i]]
        p.bb[0] = om | ok
        p.bb[1] = tm | tk
        p.kings = ok | tk
        v = evaluate(db, &p, ml)
        if v != EG_UNKNOWN:
            s.bytes[idx] = <uint8_t>v
            changes += 1
            if s.d:                 # only the other side's kings move back
                mark_predecessors(db, other, &p)
    return changes


cdef void block_finish(const DB* db, Slice* s, u64 block) noexcept nogil:
    """The positions still unknown when nothing changes are draws."""
    cdef u64 i, base = block * s.kk
    for i in range(base, base + s.kk):
        if s.bytes[i] == 0:
            s.bytes[i] = EG_DRAW


cdef class PairBuilder:
    """Builds the tables (a, b, c, d) and (c, d, a, b) into an EGDB.

    The tables they lead into must be loaded.  Work runs level by level (from
    the most advanced men down); the blocks of one level are independent, so
    threads share a level: either whole block groups each (`solve`), or one
    iteration over a share of the level's positions at a time (`sweep`, then
    `finish_level` when a sweep resolves nothing)."""

    cdef EGDB owner
    cdef DB* db
    cdef Slice* s1
    cdef Slice* s2
    cdef bint sym
    cdef uint32_t* groups         # block of s1 per group, by level (descending)
    cdef u64 ngroups
    cdef u64 level_start[128]
    cdef int nlevels
    cdef readonly tuple material
    cdef readonly tuple partner

    def __cinit__(self):
        self.groups = NULL

    def __init__(self, EGDB owner not None, int a, int b, int c, int d):
        cdef DB* db = owner.db
        cdef u64 blk, om, tm, pb, g
        cdef u64 counts[128]
        cdef u64 fill[128]
        cdef int lv, pieces = a + b + c + d
        check_material(a, b, c, d)
        if a + b == 0 or c + d == 0:
            raise ValueError("each side needs a piece")
        if db.slices[a][b][c][d] != NULL or db.slices[c][d][a][b] != NULL:
            raise ValueError(f"table {a}{b}{c}{d} is loaded already")
        self.owner = owner
        self.db = db
        self.material = (a, b, c, d)
        self.partner = (c, d, a, b)
        self.sym = (a == c and b == d)
        self.s1 = new_slice(db, a, b, c, d)
        self.s2 = self.s1 if self.sym else new_slice(db, c, d, a, b)
        if self.s1 == NULL or self.s2 == NULL:
            raise MemoryError()
        self.s1.bytes = <uint8_t*>calloc(self.s1.n if self.s1.n else 1, 1)
        self.s1.dirty = <uint8_t*>calloc(self.s1.n if self.s1.n else 1, 1)
        if not self.sym:
            self.s2.bytes = <uint8_t*>calloc(self.s2.n if self.s2.n else 1, 1)
            self.s2.dirty = <uint8_t*>calloc(self.s2.n if self.s2.n else 1, 1)
        if (self.s1.bytes == NULL or self.s2.bytes == NULL or self.s1.dirty == NULL
                or self.s2.dirty == NULL):
            self._release()
            raise MemoryError(f"cannot allocate {self.s1.n + self.s2.n} bytes to build {a}{b}{c}{d}")
        db.slices[a][b][c][d] = self.s1
        db.slices[c][d][a][b] = self.s2
        if db.max_pieces < pieces:
            db.max_pieces = pieces
        # block groups by level: a block of s1 and its turned partner in s2
        memset(counts, 0, sizeof(counts))
        with nogil:
            for blk in range(self.s1.blocks):
                if not block_men(db, self.s1, blk, &om, &tm):
                    continue
                if self.sym and self.partner_block(om, tm) < blk:
                    continue
                counts[block_level(db, om, tm)] += 1
        self.nlevels = 0
        g = 0
        for lv in range(127, -1, -1):
            fill[lv] = g
            g += counts[lv]
        self.ngroups = g
        self.groups = <uint32_t*>malloc((g if g else 1) * sizeof(uint32_t))
        if self.groups == NULL:
            self._release()
            raise MemoryError()
        for lv in range(128):
            self.level_start[lv] = fill[lv]
        with nogil:
            for blk in range(self.s1.blocks):
                if not block_men(db, self.s1, blk, &om, &tm):
                    continue
                if self.sym and self.partner_block(om, tm) < blk:
                    continue
                lv = block_level(db, om, tm)
                self.groups[fill[lv]] = <uint32_t>blk
                fill[lv] += 1

    cdef inline u64 partner_block(self, u64 om, u64 tm) noexcept nogil:
        return rank_men(self.db, rot(self.db, tm), self.db.half) * self.s2.cm + \
            rank_men(self.db, rot(self.db, om), 0)

    cdef void _release(self):
        cdef int a, b, c, d
        a, b, c, d = self.material
        if self.db.slices[a][b][c][d] == self.s1:
            self.db.slices[a][b][c][d] = NULL
        if self.db.slices[c][d][a][b] == self.s2:
            self.db.slices[c][d][a][b] = NULL
        if self.s2 != self.s1:
            free_slice(self.s2)
        free_slice(self.s1)
        self.s1 = NULL
        self.s2 = NULL

    def __dealloc__(self):
        if self.s1 != NULL:
            self._release()
        free(self.groups)

    def levels(self):
        """[(level, groups, positions)] in the order they must be solved."""
        out = []
        for lv in range(127, -1, -1):
            n = self._level_end(lv) - self.level_start[lv]
            if n:
                out.append((lv, n, n * self.s1.kk * (1 if self.sym else 2)))
        return out

    cdef inline u64 _level_end(self, int lv):
        return self.level_start[lv - 1] if lv > 0 else self.ngroups

    @property
    def positions(self):
        return self.s1.n + (0 if self.sym else self.s2.n)

    cdef u64 _partner_of(self, u64 blk) noexcept nogil:
        cdef u64 om, tm
        block_men(self.db, self.s1, blk, &om, &tm)
        return self.partner_block(om, tm)

    def solve(self, int level, int part, int parts):
        """Solve every group g of the level with g % parts == part to the end
        (GIL released); returns the positions of those groups."""
        cdef u64 g, lo = self.level_start[level], hi = self._level_end(level)
        cdef u64 blk, pblk, ch, done = 0
        cdef MoveList* ml = <MoveList*>malloc(sizeof(MoveList))
        cdef bint two, full
        if ml == NULL:
            raise MemoryError()
        with nogil:
            g = lo + part
            while g < hi:
                blk = self.groups[g]
                pblk = self._partner_of(blk)
                two = not (self.sym and pblk == blk)
                # look at every unknown position, then only at the flagged ones;
                # done when a look at every one changes nothing
                full = True
                while True:
                    ch = block_pass(self.db, self.s1, self.s2, blk, 0, self.s1.kk, full, ml)
                    if two:
                        ch += block_pass(self.db, self.s2, self.s1, pblk, 0, self.s2.kk, full, ml)
                    if ch == 0:
                        if full:
                            break
                        full = True
                    else:
                        full = False
                block_finish(self.db, self.s1, blk)
                done += self.s1.kk
                if two:
                    block_finish(self.db, self.s2, pblk)
                    done += self.s2.kk
                g += parts
        free(ml)
        return done

    def sweep(self, int level, int part, int parts, bint full=True):
        """One iteration over share `part` of `parts` of the level's positions
        (every unknown one, or only the flagged ones; GIL released); returns
        the number of positions resolved."""
        cdef u64 lo = self.level_start[level], hi = self._level_end(level)
        cdef u64 kk = self.s1.kk
        cdef u64 total = (hi - lo) * 2 * kk
        cdef u64 f0 = total * part // parts, f1 = total * (part + 1) // parts
        cdef u64 f, unit, g, blk, pblk, a, b, ch = 0
        cdef MoveList* ml = <MoveList*>malloc(sizeof(MoveList))
        if ml == NULL:
            raise MemoryError()
        with nogil:
            f = f0
            while f < f1:
                unit = f // kk                 # (group, which table)
                a = f % kk
                b = (unit + 1) * kk
                if b > f1:
                    b = f1
                b = b - unit * kk
                g = lo + unit // 2
                blk = self.groups[g]
                if unit % 2 == 0:
                    ch += block_pass(self.db, self.s1, self.s2, blk, a, b, full, ml)
                else:
                    pblk = self._partner_of(blk)
                    if not (self.sym and pblk == blk):
                        ch += block_pass(self.db, self.s2, self.s1, pblk, a, b, full, ml)
                f = unit * kk + b
        free(ml)
        return ch

    def finish_level(self, int level):
        """After a sweep that resolved nothing: the rest of the level is drawn."""
        cdef u64 g, blk, pblk, lo = self.level_start[level], hi = self._level_end(level)
        with nogil:
            for g in range(lo, hi):
                blk = self.groups[g]
                pblk = self._partner_of(blk)
                block_finish(self.db, self.s1, blk)
                if not (self.sym and pblk == blk):
                    block_finish(self.db, self.s2, pblk)

    def finish(self):
        """Pack both tables to 2 bits a position (they become loaded tables);
        returns [(material, packed bytes, (wins, draws, losses))]."""
        out = [(self.material,) + pack_slice(self.s1)]
        if not self.sym:
            out.append((self.partner,) + pack_slice(self.s2))
        self.s1 = NULL
        self.s2 = NULL
        return out


cdef tuple pack_slice(Slice* s):
    cdef u64 nbytes = (s.n + 3) // 4
    cdef uint8_t* packed = <uint8_t*>calloc(nbytes if nbytes else 1, 1)
    cdef u64 i, counts[4]
    cdef uint8_t v
    if packed == NULL:
        raise MemoryError()
    memset(counts, 0, sizeof(counts))
    with nogil:
        for i in range(s.n):
            v = s.bytes[i]
            counts[v] += 1
            packed[i >> 2] |= v << ((i & 3) * 2)
    free(s.bytes)
    free(s.dirty)
    s.bytes = NULL
    s.dirty = NULL
    s.packed = packed
    return ((<char*>packed)[:nbytes], (counts[1], counts[3], counts[2]))

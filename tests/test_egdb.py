"""Endgame databases: built here, checked against an independent solver.

The reference values come from tests/reference_movegen.py (the project's
independent pure-Python move generator) and a plain fixed-point solver in
this file that knows nothing of the core's indexing, colour symmetry or
build order: every (position, side to move) of the closure is a node, a node
with no move is lost, a node is won when a move reaches a lost node and lost
when every move reaches a won node; what never changes is drawn.
"""

import itertools
import os
import random
import sys
import zlib
from pathlib import Path

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import draughts  # noqa: E402
import reference_movegen as R  # noqa: E402
from draughts import egdb, errors  # noqa: E402
from draughts.cli import main  # noqa: E402
from draughts.hub.server import HubServer  # noqa: E402
from draughts_core.position import Position  # noqa: E402

#: every rule set: the variants databases serve and the house rule (optional capture) on 8x8
#: (of the reference generator's variants, not frisian, frysk, killer, antidraughts,
#: breakthrough, see tests/test_rules_10x10_variants.py, nor thai and turkish)
RULE_SETS = [(name, True) for name in R.VARIANTS if egdb.supported(draughts.variant(name))] + [("american", False)]
WIN, DRAW, LOSS = "win", "draw", "loss"


#: thai's landing rule and turkish's board are not in the table format: building declines them
UNSUPPORTED = ("thai", "turkish")


def test_databases_serve_the_seven_diagonal_variants_and_pool():
    assert sorted({name for name, _ in RULE_SETS}) == sorted(
        ["american", "russian", "brazilian", "spanish", "italian", "czech", "international", "pool"]
    )


def _variant(name, mandatory):
    return draughts.variant(name, mandatory_capture=mandatory)


@pytest.fixture(scope="session")
def egdb_dir(tmp_path_factory):
    """Databases of up to 3 pieces for every rule set (a few seconds in all)."""
    d = str(tmp_path_factory.mktemp("egdb"))
    for name, mandatory in RULE_SETS:
        egdb.build(_variant(name, mandatory), 3, d)
    return d


@pytest.fixture(scope="session")
def american4_dir(tmp_path_factory):
    """An american database of up to 4 pieces (about 6 s)."""
    d = str(tmp_path_factory.mktemp("egdb4"))
    egdb.build("american", 4, d)
    return d


# --- the independent solver ------------------------------------------------------


def _key(pos):
    pieces, side = pos
    return frozenset(pieces.items()), side


def _unkey(key):
    items, side = key
    return dict(items), side


def reference_values(name, mandatory, starts):
    """Win/draw/loss of every node reachable from `starts` (reference moves),
    by the textbook retrograde count over the explicit graph."""
    succ = {}
    stack = [_key(p) for p in starts]
    while stack:
        k = stack.pop()
        if k in succ:
            continue
        pos = _unkey(k)
        kids = {_key(R.apply_move(pos, m)) for m in R.legal_moves(pos, name, mandatory)}
        succ[k] = kids
        stack.extend(c for c in kids if c not in succ)
    preds = {k: [] for k in succ}
    for k, kids in succ.items():
        for c in kids:
            preds[c].append(k)
    left = {k: len(kids) for k, kids in succ.items()}  # successors not yet won
    value = {k: LOSS for k, kids in succ.items() if not kids}
    queue = list(value)
    while queue:
        k = queue.pop()
        for p in preds[k]:
            if p in value:
                continue
            if value[k] == LOSS:
                value[p] = WIN
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    value[p] = LOSS
                    queue.append(p)
    return {k: value.get(k, DRAW) for k in succ}


def all_positions(name, n, kinds_filter=None):
    """Every position of exactly n pieces, both sides present, men off their
    own crown row, either side to move."""
    v = R.get_variant(name)
    kinds = [(R.WHITE, False), (R.WHITE, True), (R.BLACK, False), (R.BLACK, True)]
    for squares in itertools.combinations(R.squares(name), n):
        for ks in itertools.product(kinds, repeat=n):
            colours = {c for c, _ in ks}
            if len(colours) < 2:
                continue
            if any(not king and rc[0] == v.crown_row(c) for rc, (c, king) in zip(squares, ks)):
                continue
            if kinds_filter is not None and not kinds_filter(ks):
                continue
            pieces = dict(zip(squares, ks))
            for side in (R.WHITE, R.BLACK):
                yield pieces, side


def _probe(db, name, mandatory, pos):
    """The database's value of a reference position, through the Board and its FEN."""
    return db.probe(draughts.Board(R.write_fen(pos, name), variant=_variant(name, mandatory)))


def _core_probe(db, name, pos):
    """The same without the FEN (fast): reference (row, col) to the core's
    internal squares (the other colouring is the mirror image)."""
    v = R.get_variant(name)
    h = v.size // 2
    white, black, kings = [], [], []
    for (r, c), (colour, king) in pos[0].items():
        sq = r * h + ((v.size - 1 - c) if v.other_colouring else c) // 2
        (white if colour == R.WHITE else black).append(sq)
        if king:
            kings.append(sq)
    p = Position(db.variant.core_rules, white, black, kings, 0 if pos[1] == R.WHITE else 1)
    return egdb.RESULTS.get(db.core.probe(p))


def test_the_fast_probe_reads_positions_as_the_board_does(egdb_dir):
    for name, mandatory in RULE_SETS:
        db = egdb.Database.open(_variant(name, mandatory), egdb_dir)
        for pos in random_positions(name, 3, 40, 7):
            assert _core_probe(db, name, pos) == _probe(db, name, mandatory, pos), R.write_fen(pos, name)


def _compare(egdb_dir, name, mandatory, positions):
    db = egdb.Database.open(_variant(name, mandatory), egdb_dir)
    ref = reference_values(name, mandatory, positions)
    bad = []
    for pos in positions:
        want = ref[_key(pos)]
        got = _core_probe(db, name, pos)
        if got != want:
            bad.append(f"{R.write_fen(pos, name)}: database {got}, reference {want}")
    assert not bad, f"{len(bad)} of {len(positions)} differ, e.g.\n" + "\n".join(bad[:8])
    return ref


@pytest.mark.parametrize("name,mandatory", RULE_SETS)
def test_every_position_of_two_pieces_equals_the_reference(egdb_dir, name, mandatory):
    ref = _compare(egdb_dir, name, mandatory, list(all_positions(name, 2)))
    assert set(ref.values()) == {WIN, DRAW, LOSS}


def test_every_three_king_american_position_equals_the_reference(egdb_dir):
    """Every position of up to three pieces of every rule set, men too, against
    this solver (the pure-Python generator over 5 M nodes, about 8 minutes of
    one core) is the long check benchmarks/test_long_egdb.py."""
    _compare(egdb_dir, "american", True, list(all_positions("american", 3, lambda ks: all(k for _, k in ks))))


# --- consistency with the successors ----------------------------------------------


def random_positions(name, n, count, seed):
    """Random placements of n pieces with men (men off their own crown row)."""
    rng = random.Random(seed ^ zlib.crc32(name.encode()))
    v = R.get_variant(name)
    squares = R.squares(name)
    out = []
    while len(out) < count:
        chosen = rng.sample(squares, n)
        colours = [R.WHITE, R.BLACK] + [rng.choice((R.WHITE, R.BLACK)) for _ in range(n - 2)]
        pieces = {}
        for rc, c in zip(chosen, colours):
            king = rng.random() < 0.4 or rc[0] == v.crown_row(c)
            pieces[rc] = (c, king)
        out.append((pieces, rng.choice((R.WHITE, R.BLACK))))
    return out


def _check_consistent(db, name, mandatory, positions):
    bad = []
    for pos in positions:
        got = _probe(db, name, mandatory, pos)
        kids = [_probe(db, name, mandatory, R.apply_move(pos, m)) for m in R.legal_moves(pos, name, mandatory)]
        assert None not in kids and got is not None
        want = WIN if LOSS in kids else LOSS if all(k == WIN for k in kids) else DRAW
        if got != want:
            bad.append(f"{R.write_fen(pos, name)}: {got}, successors {kids}")
    assert not bad, "\n".join(bad[:8])


@pytest.mark.parametrize("name,mandatory", RULE_SETS)
def test_three_piece_values_agree_with_their_successors(egdb_dir, name, mandatory):
    db = egdb.Database.open(_variant(name, mandatory), egdb_dir)
    _check_consistent(db, name, mandatory, random_positions(name, 3, 300, 3))


def test_four_piece_american_values_agree_with_their_successors(american4_dir):
    db = egdb.Database.open("american", american4_dir)
    assert db.pieces == 4
    _check_consistent(db, "american", True, random_positions("american", 4, 400, 4))


#: the table pairs of four pieces solved for every rule set (the side to move's
#: men and kings, then the other side's): three kings against a king, then a man
#: and two kings against a king, which promotes into the first
FOUR_PIECE_PAIRS = [(0, 3, 0, 1), (1, 2, 0, 1)]
_four_piece_pairs = {}


def four_piece_pairs(egdb_dir, name, mandatory):
    """A database of up to 3 pieces and the FOUR_PIECE_PAIRS, solved by
    `egdb.solve_pair` as `egdb.build` does (a whole 4-piece build is 6 s on
    8x8, 130 s for international); solved once a session per rule set."""
    if (name, mandatory) not in _four_piece_pairs:
        v = _variant(name, mandatory)
        db = egdb.Database.open(v, egdb_dir, pieces=3)
        db.core.max_pieces = 4
        for m in FOUR_PIECE_PAIRS:
            for mat, packed, _counts in egdb.solve_pair(db.core, m):
                db.core.add(*mat, packed)
        _four_piece_pairs[name, mandatory] = db
    return _four_piece_pairs[name, mandatory]


def material_positions(name, material, count, seed):
    """Random positions of one material (the side to move's men and kings, the
    other side's), men off their own crown row."""
    rng = random.Random(seed ^ zlib.crc32(f"{name} {material}".encode()))
    v = R.get_variant(name)
    squares = R.squares(name)
    a, b, c, d = material
    out = []
    while len(out) < count:
        side = rng.choice((R.WHITE, R.BLACK))
        other = R.BLACK if side == R.WHITE else R.WHITE
        kinds = [(side, False)] * a + [(side, True)] * b + [(other, False)] * c + [(other, True)] * d
        pieces = dict(zip(rng.sample(squares, len(kinds)), kinds))
        if all(king or rc[0] != v.crown_row(colour) for rc, (colour, king) in pieces.items()):
            out.append((pieces, side))
    return out


@pytest.mark.parametrize("name,mandatory", RULE_SETS)
def test_four_piece_values_agree_with_their_successors(egdb_dir, name, mandatory):
    """Every rule set at four pieces: the tables of FOUR_PIECE_PAIRS (kings'
    moves and captures, a man's, its promotion into the other table) against
    their successors.  Every table of four pieces of american: the test above."""
    db = four_piece_pairs(egdb_dir, name, mandatory)
    positions = []
    for a, b, c, d in FOUR_PIECE_PAIRS:
        for m in ((a, b, c, d), (c, d, a, b)):
            positions += material_positions(name, m, 100, 44)
    _check_consistent(db, name, mandatory, positions)


# --- known endings ----------------------------------------------------------------


def _board(name, white_kings, black_kings, side, mandatory=True):
    """A position from reference coordinates, kings only."""
    pieces = {rc: (R.WHITE, True) for rc in white_kings}
    pieces.update({rc: (R.BLACK, True) for rc in black_kings})
    return draughts.Board(R.write_fen((pieces, side), name), variant=_variant(name, mandatory))


@pytest.mark.parametrize("name,mandatory", RULE_SETS)
def test_a_king_against_a_king_is_a_draw(egdb_dir, name, mandatory):
    db = egdb.Database.open(_variant(name, mandatory), egdb_dir)
    v = R.get_variant(name)
    # each king in a double corner (with short kings an open-board king can be
    # cornered: american W:WK18:BK16 is a win)
    if v.size == 10:
        w, b = (1, 0), (8, 9)
    elif v.other_colouring:
        w, b = (1, 7), (6, 0)
    else:
        w, b = (1, 0), (6, 7)
    for side in (R.WHITE, R.BLACK):
        assert db.probe(_board(name, [w], [b], side, mandatory)) == DRAW


def test_two_kings_beat_one_king_in_american(egdb_dir):
    db = egdb.Database.open("american", egdb_dir)
    board = draughts.Board("W:WK1,K2:BK32", variant="american")
    assert db.probe(board) == WIN
    assert db.probe(draughts.Board("B:WK1,K2:BK32", variant="american")) == LOSS
    # the lone king in its double corner (squares 1/5 and 28/32) is lost too
    assert db.probe(draughts.Board("B:WK19,K22:BK28", variant="american")) == LOSS


INTL_LONG_DIAGONAL = [5, 10, 14, 19, 23, 28, 32, 37, 41, 46]


def test_three_kings_do_not_beat_a_king_on_the_long_diagonal(egdb_dir):
    # the tables of three kings against a king, not the whole 4-piece database
    db = four_piece_pairs(egdb_dir, "international", True)
    for lone in INTL_LONG_DIAGONAL:
        for side in "WB":
            board = draughts.Board(f"{side}:WK1,K2,K3:BK{lone}", variant="international")
            if board.position.has_capture() or board.position.with_turn(1 - board.turn).has_capture():
                continue  # a shot either way is no quiet ending
            assert db.probe(board) == DRAW, board.fen()


# --- files, keys, resuming --------------------------------------------------------


def test_each_rule_set_has_its_own_database(egdb_dir):
    names = {egdb.rules_name(_variant(n, m)) for n, m in RULE_SETS}
    assert len(names) == len(RULE_SETS)
    # the draw rules are no part of the key: the tables are pure win/draw/loss
    assert egdb.rules_name(draughts.variant("american", quiet_plies=0)) == egdb.rules_name(draughts.variant("american"))
    house = egdb.Database.open(_variant("american", False), egdb_dir)
    with pytest.raises(errors.EgdbError, match="rules"):
        house.probe(draughts.Board("W:WK1:BK32", variant="american"))


def test_a_damaged_table_is_refused_and_rebuilt(tmp_path):
    d = str(tmp_path)
    egdb.build("czech", 3, d)
    path = os.path.join(egdb.rules_dir(draughts.variant("czech"), d), "0m2k-1m0k.wdl")
    raw = bytearray(Path(path).read_bytes())
    raw[-1] ^= 0xFF
    Path(path).write_bytes(bytes(raw))
    with pytest.raises(errors.EgdbError, match="damaged"):
        egdb.Database.open("czech", d)
    rep = egdb.build("czech", 3, d)
    assert sorted(t.material for t in rep.built) == [(0, 2, 1, 0), (1, 0, 0, 2)]
    assert egdb.Database.open("czech", d).pieces == 3


def test_an_interrupted_build_goes_on_from_the_tables_that_exist(tmp_path):
    d = str(tmp_path)
    first = egdb.build("russian", 3, d)
    where = egdb.rules_dir(draughts.variant("russian"), d)
    want = {f: Path(where, f).read_bytes() for f in os.listdir(where)}
    for f in ("1m1k-0m1k.wdl", "0m1k-1m1k.wdl", "0m1k-0m1k.wdl"):
        os.remove(os.path.join(where, f))
    again = egdb.build("russian", 3, d)
    assert sorted(t.material for t in again.built) == [(0, 1, 0, 1), (0, 1, 1, 1), (1, 1, 0, 1)]
    assert again.reused == len(first.built) - 3
    assert {f: Path(where, f).read_bytes() for f in os.listdir(where)} == want


def test_threads_build_the_same_tables(tmp_path, egdb_dir):
    d = str(tmp_path)
    egdb.build("brazilian", 3, d, threads=2)
    a = egdb.rules_dir(draughts.variant("brazilian"), d)
    b = egdb.rules_dir(draughts.variant("brazilian"), egdb_dir)
    assert sorted(os.listdir(a)) == sorted(os.listdir(b))
    for f in os.listdir(a):
        assert Path(a, f).read_bytes() == Path(b, f).read_bytes(), f


def test_a_build_on_a_ray_cluster_equals_the_local_one(ray_cluster, tmp_path, egdb_dir):
    d = str(tmp_path)
    egdb.build("spanish", 3, d, cluster=ray_cluster)
    a = egdb.rules_dir(draughts.variant("spanish"), d)
    b = egdb.rules_dir(draughts.variant("spanish"), egdb_dir)
    assert sorted(os.listdir(a)) == sorted(os.listdir(b))
    for f in os.listdir(a):
        assert Path(a, f).read_bytes() == Path(b, f).read_bytes(), f


# --- the command line -------------------------------------------------------------


def test_the_command_line_builds_and_probes(tmp_path, capsys, monkeypatch):
    d = str(tmp_path / "db")
    assert (
        main(
            [
                "egdb",
                "build",
                "--variant",
                "american",
                "--pieces",
                "3",
                "--dir",
                d,
                "--threads",
                "2",
                "--progress",
                "off",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "egdb variant=american pieces=3" in out and "built=16" in out
    assert main(["egdb", "probe", "--variant", "american", "--fen", "W:WK1,K2:BK32", "--dir", d]) == 0
    assert capsys.readouterr().out.startswith("win")
    # $DRAUGHTS_EGDB is the default directory
    monkeypatch.setenv("DRAUGHTS_EGDB", d)
    assert main(["egdb", "probe", "--variant", "english", "--fen", "B:WK1,K2:BK32"]) == 0
    assert capsys.readouterr().out.startswith("loss")
    # too many pieces, or no database: a clear error
    assert main(["egdb", "probe", "--variant", "american", "--fen", "W:W21,22,23:B1,2"]) == 2
    assert "holds up to 3" in capsys.readouterr().err
    assert main(["egdb", "probe", "--variant", "italian", "--fen", "W:WK1:BK32"]) == 2
    assert "no endgame database for italian" in capsys.readouterr().err


def test_the_default_directory_is_in_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.delenv("DRAUGHTS_EGDB", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert egdb.default_dir() == os.path.join(str(tmp_path), "draughts", "egdb")


# --- the search ---------------------------------------------------------------------


def test_the_engine_keeps_a_won_result_and_converts_it(egdb_dir):
    engine = draughts.Engine("american", tt_mb=8, egdb=egdb_dir, seed=1)
    assert engine.egdb is not None and engine.egdb.pieces == 3
    db = engine.egdb
    board = draughts.Board("W:WK1,K2:BK32", variant="american")
    hits = 0
    for _ in range(60):
        if board.is_game_over():
            break
        result = engine.play(board, draughts.Limit(nodes=5000))
        hits += result.info.egdb_hits
        if board.turn == draughts.WHITE:
            child = board.copy()
            child.push(result.move)
            assert child.is_game_over() or db.probe(child) == LOSS
            assert result.info.score > 80  # a database win, or the mate itself
        board.push(result.move)
    assert board.outcome() is not None and board.outcome().winner == draughts.WHITE
    assert hits > 0


def test_an_engine_follows_the_variant_to_its_database(egdb_dir):
    engine = draughts.Engine("american", tt_mb=8, egdb=egdb_dir)
    engine.play(draughts.Board("W:WK1:BK32", variant="russian"), draughts.Limit(depth=2))
    assert engine.egdb.variant.name == "russian"
    # without a database the engine searches as before
    plain = draughts.Engine("american", tt_mb=8, egdb=None)
    assert plain.egdb is None
    assert draughts.Engine("american", tt_mb=8, egdb="none").egdb is None
    with pytest.raises(draughts.DraughtsError, match="no endgame database directory"):
        draughts.Engine("american", egdb=os.path.join(egdb_dir, "missing"))


def test_the_hub_engine_takes_an_egdb_path(egdb_dir):
    lines = []
    hub = HubServer(lines.append)
    for line in (
        "hub",
        "set-param name=variant value=american",
        f'set-param name=egdb-path value="{egdb_dir}"',
        "init",
    ):
        hub.handle_line(line)
    assert any(l.startswith("param name=egdb-path") and "type=string" in l for l in lines)
    assert 'info egdb="american up to 3 pieces"' in lines
    hub.handle_line("set-param name=egdb-path value=/no/such/dir")
    assert lines[-1].startswith("error") and "egdb-path" in lines[-1]
    hub.close()


@pytest.mark.parametrize("name", UNSUPPORTED)
def test_unsupported_rules_are_declined_with_a_clear_error(name, tmp_path):
    with pytest.raises(errors.EgdbError, match=f"not available for {name}"):
        egdb.build(name, 2, str(tmp_path))
    with pytest.raises(errors.EgdbError, match=f"not available for {name}"):
        egdb.Database.open(name, str(tmp_path))
    # an engine given a database directory plays on without tables
    engine = draughts.Engine(variant=name, egdb=str(tmp_path))
    assert engine.egdb is None


# --- the tables shipped in the package ---------------------------------------------

SHIPPED = ["american", "italian", "spanish", "russian", "brazilian", "czech", "pool", "international"]


@pytest.mark.parametrize("name", SHIPPED)
def test_the_package_ships_every_table_of_up_to_four_pieces(name):
    v = draughts.variant(name)
    assert egdb.complete_pieces(v, egdb.shipped_dir()) == 4
    db = egdb.Database.open(v, egdb.shipped_dir())
    assert db.pieces == 4 and len(db.tables) == len(egdb.materials(v, 4))


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_tables_agree_with_a_build_here(name, egdb_dir):
    """Every position of up to three pieces of the shipped tables equals the
    tables built in this run (which the reference solver checks above), and
    four-piece positions keep the value of their best successor."""
    v = draughts.variant(name)
    shipped = egdb.Database.open(v, egdb.shipped_dir())
    built = egdb.Database.open(v, egdb_dir)
    rng = random.Random(name)
    squares = v.size * v.size // 2
    checked = 0
    while checked < 300:
        n = rng.choice((2, 3))
        sq = rng.sample(range(1, squares + 1), n)
        w = ["K%d" % s if rng.random() < 0.5 else str(s) for s in sq[: rng.randint(1, n - 1)]]
        b = ["K%d" % s if rng.random() < 0.5 else str(s) for s in sq[len(w) :]]
        try:
            board = draughts.Board(f"{rng.choice('WB')}:W{','.join(w)}:B{','.join(b)}", variant=v)
        except draughts.DraughtsError:
            continue  # a man on its crowning row
        assert shipped.probe(board) == built.probe(board), board.fen()
        checked += 1


def test_an_engine_probes_the_shipped_tables_by_default():
    engine = draughts.Engine("international", tt_mb=8)
    assert engine.egdb is not None and engine.egdb.pieces == 4
    assert engine.egdb.directory == egdb.shipped_dir()
    # a 4-piece ending the search reaches through a capture: the tables answer
    board = draughts.Board("W:WK46,K50,28:BK5,23", variant="international")
    result = engine.play(board, draughts.Limit(depth=6))
    assert result.info.egdb_hits > 0
    # engines of one process share one copy of the tables
    assert draughts.Engine("international", tt_mb=8).egdb is engine.egdb


def test_the_database_directory_comes_before_the_shipped_tables(monkeypatch, egdb_dir):
    monkeypatch.setenv("DRAUGHTS_EGDB", egdb_dir)
    assert egdb.auto_dir("american") == egdb_dir
    assert draughts.Engine("american", tt_mb=8).egdb.pieces == 3
    # a rule set the directory lacks still finds the shipped tables
    empty = os.path.join(egdb_dir, "nothing-here")
    monkeypatch.setenv("DRAUGHTS_EGDB", empty)
    assert egdb.auto_dir("american") == egdb.shipped_dir()
    # no tables anywhere: none
    assert egdb.auto_dir(draughts.variant("american", mandatory_capture=False)) is None


def test_the_hub_engine_reports_the_shipped_tables_and_can_turn_them_off():
    lines = []
    hub = HubServer(lines.append)
    for line in ("hub", "init"):
        hub.handle_line(line)
    assert any(l.startswith("param name=egdb-path") and "value=auto" in l for l in lines)
    assert 'info egdb="international up to 4 pieces"' in lines
    hub.close()
    lines.clear()
    hub = HubServer(lines.append)
    for line in ("hub", "set-param name=egdb-path value=none", "init"):
        hub.handle_line(line)
    assert not any(l.startswith("info egdb") for l in lines)
    assert not any(l.startswith("error") for l in lines)
    hub.close()

"""Opening books: the file format, the builder's minimax, the engine and the
Hub answering from a book, and the match runner turning books off."""

import os
from typing import List, Tuple

import numpy as np
import pytest

from draughts import book as B, book_build as BB
from draughts.board import Board
from draughts.cli import main
from draughts.engine import Engine
from draughts.errors import DraughtsError
from draughts.limits import Limit
from draughts.match.engines import parse_engine
from draughts.match.players import make_player
from draughts.positions import label
from draughts.variants import variant
from hub_scripts.transcript import ServerSession

AM = variant("american")


def _moves(board, *texts):
    return [board.parse_move(t) for t in texts]


def test_the_format_round_trip(tmp_path):
    start = Board(variant=AM)
    after = start.copy()
    after.push(after.parse_move("11-15"))
    a, b, c = _moves(start, "11-15", "9-13", "10-14")
    (d,) = _moves(after, "22-18")
    entries = {
        B.position_hash(start): [(a, 12, 10, 3), (b, 30, 10, 0), (c, -3000 - 50, 9, 1)],
        B.position_hash(after): [(d, -12, 10, 0)],
    }
    path = tmp_path / "b.bin"
    B.write(str(path), AM, entries, [start.fen()], {"depth": 10})
    book = B.Book(str(path))
    assert len(book) == 2 and book.header["roots"] == [start.fen()] and book.header["built"] == {"depth": 10}
    assert isinstance(book.positions, np.memmap)
    assert book.header["positions_offset"] % B.ALIGN == 0 and book.header["moves_offset"] % B.ALIGN == 0
    got = book.probe(start)
    assert [(m.move, m.score, m.depth, m.games) for m in got] == [
        (b, 30, 10, 0),
        (a, 12, 10, 3),
        (c, -B.SCORE_CAP, 9, 1),
    ]  # best first, capped
    assert [m.move for m in book.probe(after)] == [d]
    assert book.line(start, b) == [b]  # 9-13 leaves the book
    assert book.line(start, a) == [a, d]
    assert os.path.getsize(path) == book.header["moves_offset"] + 4 * B.MOVE.itemsize
    assert B.POSITION.itemsize == 20 and B.MOVE.itemsize == 18


def test_a_collision_of_keys_is_told_from_a_hit(tmp_path):
    start = Board(variant=AM)
    key, check = B.position_hash(start)
    (a,) = _moves(start, "11-15")
    path = tmp_path / "b.bin"
    B.write(str(path), AM, {(key, check ^ 1): [(a, 5, 8, 0)]}, [start.fen()], {})
    assert B.Book(str(path)).probe(start) == []  # the same key, another position
    B.write(str(path), AM, {(key, check): [(a, 5, 8, 0)]}, [start.fen()], {})
    assert [m.move for m in B.Book(str(path)).probe(start)] == [a]


def test_a_capture_is_named_by_its_captured_squares(tmp_path):
    board = Board("W:W26:B22,14,23,15", variant="american")
    caps = [m for m in board.legal_moves if m.is_capture]
    same_ends = {}
    for m in caps:
        same_ends.setdefault((m.start, m.end), []).append(m)
    assert any(len(v) > 1 for v in same_ends.values())  # two captures between the same squares
    path = tmp_path / "i.bin"
    v = AM
    B.write(str(path), v, {B.position_hash(board): [(m, i, 4, 0) for i, m in enumerate(caps)]}, [board.fen()], {})
    got = B.Book(str(path)).probe(board)
    assert sorted((m.move.start, m.move.end, m.move.captured, m.score) for m in got) == sorted(
        (m.start, m.end, m.captured, i) for i, m in enumerate(caps)
    )


def test_bad_files_are_clear_errors(tmp_path):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not a book at all")
    with pytest.raises(DraughtsError, match="is not an opening book"):
        B.Book(str(bad))
    with pytest.raises(DraughtsError, match="cannot read opening book"):
        B.Book(str(tmp_path / "missing.bin"))


@pytest.fixture(scope="module")
def small_book(tmp_path_factory):
    path = tmp_path_factory.mktemp("book") / "american.bin"
    cfg = BB.BuildConfig("american", depth=3, margin=40, ply_cost=4)
    BB.build(cfg, str(path), positions=12, workers=2, progress=False)
    return path, cfg


def test_the_builder_minimaxes_its_leaves(small_book):
    """Every move's score is the negated value of the position it leads to:
    the best of that position's book moves, or a fresh search at the book's
    depth (computed here) when the book does not hold it."""
    path, cfg = small_book
    book = B.Book(str(path))
    assert len(book) == 12
    engine = Engine(AM, tt_mb=8, egdb=None)
    searched = 0
    todo = [Board(variant=AM)]
    seen = set()
    while todo:
        board = todo.pop()
        for bm in book.probe(board):
            child = board.copy()
            child.push(bm.move)
            inner = book.probe(child)
            if inner:
                assert bm.score == -max(m.score for m in inner)
                if B.position_hash(child) not in seen:
                    seen.add(B.position_hash(child))
                    todo.append(child)
            else:
                engine.new_game()
                assert bm.score == -label(engine.play(child, Limit(depth=cfg.depth)).info), (board.fen(), bm)
                searched += 1
    assert len(seen) == 11 and searched > 20


def test_the_builder_expands_the_cheapest_leaf_first(tmp_path, monkeypatch):
    """Drop-out expansion: each batch expands the cheapest leaves of the tree
    as it stands (their cost the drop of each move on the way from the best,
    plus a ply's cost a move), never one costing more than the margin, and
    the book counts its positions ply by ply."""
    expanded: List[Tuple[float, float, float]] = []  # (cost, the cheapest then, the dearest left)
    real_expand = BB.Tree.expand

    def watched(tree, keys, scorer):
        leaves = dict((k, c) for c, k in tree.leaves_by_cost())
        left = [c for k, c in leaves.items() if k not in keys]
        for k in keys:
            expanded.append((leaves[k], min(leaves.values()), max(left, default=float("inf"))))
        return real_expand(tree, keys, scorer)

    monkeypatch.setattr(BB.Tree, "expand", watched)
    cfg = BB.BuildConfig("american", depth=3, margin=40, ply_cost=4)
    path = tmp_path / "american.bin"
    BB.build(cfg, str(path), positions=12, workers=1, progress=False)
    assert len(expanded) >= 11
    # the root first (cost 0), then the position after its best move (no drop: a ply's cost)
    assert expanded[0][0] == 0 and expanded[1][0] == cfg.ply_cost
    for cost, cheapest, dearest_left in expanded:
        assert cost <= cfg.margin and cost <= dearest_left and cheapest <= cost
    book = B.Book(str(path))
    stats = BB.stats(book)
    assert stats["by_ply"][0] == 1 and sum(stats["by_ply"]) == 12 and stats["depth"] >= 3


def test_a_build_resumes_from_its_file(small_book, tmp_path):
    """A build stopped at 5 positions and grown to 12 is the build made in one go."""
    path, cfg = small_book
    part = tmp_path / "part.bin"
    BB.build(cfg, str(part), positions=5, workers=1, progress=False)
    assert len(B.Book(str(part))) == 5
    BB.build(cfg, str(part), positions=12, workers=1, progress=False)
    BB.build(cfg, str(tmp_path / "whole.bin"), positions=12, workers=1, progress=False)
    whole = B.Book(str(tmp_path / "whole.bin"))
    resumed = B.Book(str(part))
    assert len(resumed) == 12
    assert np.array_equal(np.asarray(resumed.positions), np.asarray(whole.positions))
    assert np.array_equal(np.asarray(resumed.moves), np.asarray(whole.moves))
    with pytest.raises(DraughtsError, match="other settings"):
        BB.build(BB.BuildConfig("american", depth=4), str(part), positions=13, progress=False)


def test_games_added_count_their_moves(small_book, tmp_path):
    from draughts import pdn

    path, cfg = small_book
    copy = tmp_path / "b.bin"
    copy.write_bytes(path.read_bytes())
    text = '[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n\n[GameType "21"]\n\n1. 11-15 23-19 2. 9-13 *\n'
    games = pdn.read_games(text, variant="american")
    used, counted = BB.add_games(cfg, str(copy), games, plies=3, workers=1)
    assert (used, counted) == (2, 6)
    book = B.Book(str(copy))
    start = Board(variant=AM)
    assert {board_move.move: board_move.games for board_move in book.probe(start)}[start.parse_move("11-15")] == 2
    b = start.copy()
    for t in ("11-15", "23-19"):
        b.push(b.parse_move(t))
    counts = {m.move: m.games for m in book.probe(b)}
    assert counts[b.parse_move("8-11")] == 1 and counts[b.parse_move("9-13")] == 1


def test_the_engine_answers_from_the_book_and_leaves_it(small_book):
    path, _ = small_book
    book = B.Book(str(path))
    engine = Engine(AM, tt_mb=8, egdb=None, book=str(path), book_margin=0, seed=3)
    start = Board(variant=AM)
    r = engine.play(start, Limit(depth=6))
    assert r.info.book and r.info.nodes == 0 and r.move == book.probe(start)[0].move
    assert r.info.score == book.probe(start)[0].score / 100
    assert r.info.pv[0] == r.move and len(r.info.pv) >= 2
    out = Board("B:W18,19,20,21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", variant=AM)
    r2 = engine.play(out, Limit(depth=4))
    assert not r2.info.book and r2.info.nodes > 0
    assert not engine.analyse(start, Limit(depth=4), 2)[0].book  # multi-PV searches
    wide = Engine(AM, tt_mb=8, egdb=None, book=str(path), book_margin=3000, seed=3)
    same = Engine(AM, tt_mb=8, egdb=None, book=str(path), book_margin=3000, seed=3)
    picks = {
        Engine(AM, tt_mb=8, egdb=None, book=str(path), book_margin=3000, seed=s).play(start, Limit(depth=2)).move
        for s in range(12)
    }
    assert len(picks) > 1  # the margin lets others in
    assert wide.play(start, Limit(depth=2)).move == same.play(start, Limit(depth=2)).move
    assert Engine(AM, tt_mb=8, egdb=None).book is None  # off unless asked


def test_a_book_of_other_rules_does_not_answer(small_book):
    path, _ = small_book
    engine = Engine("russian", tt_mb=8, egdb=None, book=str(path))
    r = engine.play(Board(variant="russian"), Limit(depth=2))
    assert not r.info.book
    with pytest.raises(DraughtsError, match="not these american rules"):
        Engine(variant("american", mandatory_capture=False), tt_mb=8, egdb=None, book=str(path))


def test_the_hub_answers_from_the_book(small_book):
    path, _ = small_book
    hub = ServerSession()
    try:
        hub.send("hub")
        hub.until("wait")
        hub.send(
            "set-param name=variant value=american",
            f"set-param name=book value={path}",
            "set-param name=book-margin value=0",
            "init",
        )
        hub.until("ready")
        hub.send("pos start", "level depth=6", "go think")
        lines = hub.until("done")
        first = B.Book(str(path)).probe(Board(variant=AM))[0].move
        assert any("book=yes" in l and "nodes=0" in l for l in lines)
        assert lines[-1].startswith(f"done move={first.hub() if hasattr(first, 'hub') else first}")
        hub.send("set-param name=book value=none", "pos start", "go think")
        lines = hub.until("done")
        assert not any("book=yes" in l for l in lines)
        hub.send(f"set-param name=book value={path}.missing")
        assert "cannot read opening book" in hub.until("error")[-1]
    finally:
        hub.close()


def test_the_runner_turns_books_off_unless_asked(small_book):
    path, _ = small_book
    off = make_player(parse_engine(["proto=builtin", "depth=2", f"option.book={path}"]), AM)
    assert off._engine.book is not None  # an explicit option.book is kept
    default = make_player(parse_engine(["proto=builtin", "depth=2"]), AM)
    assert default._engine.book is None
    kept = make_player(parse_engine(["proto=builtin", "depth=2", "book=on"]), AM)
    assert kept._engine.book is not None and kept._engine.book.path == B.shipped_path(AM)
    assert parse_engine(["proto=builtin", "depth=2", "book=on"]).book is True
    assert parse_engine(["proto=builtin", "depth=2"]).book is False


def test_the_runner_says_books_are_off(tmp_path, capsys):
    assert (
        main(
            [
                "match",
                "-variant",
                "american",
                "-games",
                "2",
                "-engine",
                "proto=builtin",
                "depth=2",
                "-engine",
                "proto=builtin",
                "depth=1",
                "name=b",
                "book=on",
                "-ratinginterval",
                "0",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Opening books off (the openings are the match's; book=on keeps an engine's own): draughts" in out
    assert "draughts, b" not in out


def test_draughts_hub_takes_the_books_start_value(small_book, tmp_path):
    import subprocess
    import sys

    path, _ = small_book
    run = lambda *args: subprocess.run(
        [sys.executable, "-m", "draughts", "hub", *args],
        input="hub\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = run("--book", "none")
    assert out.returncode == 0 and "param name=book value=none type=string" in out.stdout
    assert f"param name=book value={path} type=string" in run("--book", str(path)).stdout
    bad = run("--book", str(tmp_path / "missing.bin"))
    assert bad.returncode == 2 and "cannot read opening book" in bad.stderr


def test_the_command_line(small_book, tmp_path, capsys):
    path, _ = small_book
    assert main(["book", "show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "12 positions" in out and "positions by ply: 1 " in out
    board = Board(variant=AM)
    best = B.Book(str(path)).probe(board)[0].move
    text = board.move_text(best)
    board.push(best)
    replies = [board.move_text(m.move) for m in B.Book(str(path)).probe(board)]
    assert main(["book", "probe", str(path), "--moves", text]) == 0
    out = capsys.readouterr().out
    assert replies and all(r in out for r in replies)
    assert main(["book", "probe", str(path), "--moves", "9-14 22-18 5-9"]) == 0
    assert "not in the book" in capsys.readouterr().out
    assert main(["book", "show", str(tmp_path / "nothing.bin")]) == 2
    assert "no book file" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["international", "american", "russian"])
def test_the_shipped_books_answer_the_start_by_default_in_the_hub(name):
    v = variant(name)
    book = B.Book(B.shipped_path(v))
    assert book.variant.name == name and not book.rules_differ(v) and len(book) >= 500
    assert BB.stats(book)["depth"] >= 10
    engine = Engine(v, tt_mb=8, egdb=None, book="auto")
    r = engine.play(Board(variant=v), Limit(movetime=1.0))
    assert r.info.book and r.move in [m.move for m in book.probe(Board(variant=v))]
    hub = ServerSession()
    try:
        hub.send("hub")
        hub.until("wait")
        hub.send(f"set-param name=variant value={name}", "init")
        hub.until("ready")
        hub.send("pos start", "level move-time=1", "go think")
        assert any("book=yes" in line for line in hub.until("done"))
    finally:
        hub.close()


def test_a_build_on_the_cluster_is_the_local_build(ray_cluster, small_book, tmp_path):
    """`book build --cluster`: the leaves are searched as Ray tasks; the book is the one built here."""
    pytest.importorskip("ray")
    path, cfg = small_book
    remote = tmp_path / "remote.bin"
    BB.build(cfg, str(remote), positions=12, workers=2, cluster=ray_cluster, progress=False)
    assert remote.read_bytes() == path.read_bytes()

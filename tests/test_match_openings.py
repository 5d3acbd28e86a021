"""Opening books, the ACF 3-move deck, the balanced-opening generator, the
schedule and time controls of the match runner."""

import subprocess
import sys

import pytest

import draughts
from draughts import pdn
from draughts.errors import DraughtsError
from draughts.limits import Limit
from draughts.match import openings as op
from draughts.match import schedule as sched
from draughts.match.timecontrol import Clock, TimeControl, parse_tc
from draughts.match.engines import parse_engine


# --- the ACF 3-move deck ---------------------------------------------------------


def test_acf_deck_has_the_156_ballots_and_every_one_is_legal():
    path, variant = op.deck_file("acf-3move")
    assert variant == "american"
    with open(path, encoding="utf-8") as f:
        text = f.read()
    games = list(pdn.read_games(text))  # our parser checks every move
    assert len(games) == 156
    positions = set()
    numbers = []
    for g in games:
        assert g.variant.name == "american"
        assert len(g.moves) == 3
        assert g.headers["Source"] == "American Checker Federation 3-move deck"
        board = g.end()
        assert board.outcome() is None
        assert board.turn == draughts.WHITE  # black, white, black: white to move
        positions.add(board.fen())
        numbers.append(int(g.headers["Round"]))
    assert len(positions) == 156  # no ballot twice
    # ACF numbering runs 1..174; the 18 barred ballots are not in the deck
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] == 174
    barred = set(range(1, 175)) - set(numbers)
    assert len(barred) == 18
    assert {3, 13, 45, 48, 94, 137, 145, 171} <= barred  # e.g. 9-14 22-18 14-17 loses a man
    first = games[0]
    assert [first.board().move_text(m) for m in first.moves[:1]] == ["9-13"]
    assert [str(m) for m in first.moves] == ["9-13", "21-17", "5-9"]


def test_deck_loads_by_name_and_refuses_another_variant():
    book = op.load("acf-3move", "american")
    assert len(book) == 156
    assert book[0].name == "ACF 3-move ballot 1"
    with pytest.raises(DraughtsError, match="american"):
        op.load("acf-3move", "international")


# --- reading books -----------------------------------------------------------------


def test_pdn_openings_with_plies_and_fen(tmp_path):
    board = draughts.Board(variant="russian")
    for t in ("c3-d4", "f6-g5", "g3-f4"):
        board.push(board.parse_move(t))
    g1 = pdn.Game.from_board(board, {"Event": "line one"}, result="*")
    setup = draughts.Board("W:Wa1,c3,e3:Bf6,h8", variant="russian")
    setup.push(setup.parse_move("c3-d4"))
    g2 = pdn.Game.from_board(setup, {"Event": "set-up"}, result="*")
    path = tmp_path / "book.pdn"
    path.write_text(pdn.write_games([g1, g2]))
    full = op.load(str(path), "russian")
    assert [len(o.moves) for o in full] == [3, 1]
    assert full[1].fen is not None and full[0].fen is None
    cut = op.load(str(path), "russian", plies=2)
    assert [len(o.moves) for o in cut] == [2, 1]
    b = cut[0].board(draughts.variant("russian"))
    assert [b.move_text(m) for m in b.move_stack] == ["c3-d4", "f6-g5"]
    with pytest.raises(DraughtsError, match="russian"):
        op.load(str(path), "american")


def test_fen_openings(tmp_path):
    path = tmp_path / "book.fen"
    path.write_text("# comment\nW:W31,32:B1,2\n\nB:W21,22:B10,11\n")
    book = op.load(str(path), "american", fmt="fen")
    assert [o.fen for o in book] == ["W:W31,32:B1,2", "B:W21,22:B10,11"]
    path.write_text("W:W31,32:B1,2\nnot a fen\n")
    with pytest.raises(DraughtsError, match="line 2"):
        op.load(str(path), "american", fmt="fen")
    with pytest.raises(DraughtsError, match="cannot read"):
        op.load(str(tmp_path / "missing.pdn"), "american")


def test_book_orders():
    openings = [op.Opening(name=str(i)) for i in range(5)]
    seq = op.Book(openings, "sequential", start=3)
    assert [seq.get(k).name for k in range(7)] == ["2", "3", "4", "0", "1", "2", "3"]
    r1 = op.Book(openings, "random", seed=11)
    r2 = op.Book(openings, "random", seed=11)
    r3 = op.Book(openings, "random", seed=12)
    first_pass = [r1.index(k) for k in range(5)]
    assert sorted(first_pass) == [0, 1, 2, 3, 4]  # every opening once a pass
    assert [r1.index(k) for k in range(15)] == [r2.index(k) for k in range(15)]
    assert [r1.index(k) for k in range(15)] != [r3.index(k) for k in range(15)]
    with pytest.raises(DraughtsError):
        op.Book(openings, "shuffled")


# --- the generator -------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(draughts.VARIANTS))
def test_generated_openings_are_legal_distinct_and_near_equal(variant):
    items = op.generate(variant, 4, 3, depth=3, max_score=0.3, seed=5)
    assert len(items) == 3
    v = draughts.variant(variant)
    seen = set()
    engine = draughts.Engine(v, tt_mb=4)
    for g in items:
        board = g.opening.board(v)  # replays the moves legally
        assert len(board.move_stack) == 4 and board.outcome() is None
        seen.add(board.fen())
        engine.new_game()
        assert abs(engine.play(board.copy(), draughts.Limit(depth=3)).info.score) <= 0.3
        assert abs(g.score) <= 0.3
    assert len(seen) == 3
    again = op.generate(variant, 4, 3, depth=3, max_score=0.3, seed=5)
    assert [g.opening for g in again] == [g.opening for g in items]


def test_generator_refuses_when_nothing_balanced_is_found():
    with pytest.raises(DraughtsError, match="balanced"):
        op.generate("american", 2, 5, depth=2, max_score=-1.0, seed=1, max_tries=50)


def test_openings_command_writes_pdn_and_fen(tmp_path):
    out = tmp_path / "o.pdn"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "openings",
            "--variant",
            "international",
            "--plies",
            "4",
            "--count",
            "4",
            "--depth",
            "2",
            "--seed",
            "3",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    games = list(pdn.read_games(out.read_text()))
    assert len(games) == 4 and all(g.variant.name == "international" and len(g.moves) == 4 for g in games)
    assert all(g.comments.get(3, "").endswith("/2") for g in games)  # the search's score/depth
    book = op.load(str(out), "international")
    assert len(book) == 4
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "openings",
            "--variant",
            "czech",
            "--plies",
            "3",
            "--count",
            "2",
            "--depth",
            "2",
            "--seed",
            "3",
            "--format",
            "fen",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    fens = run.stdout.split()
    assert len(fens) == 2
    for f in fens:
        draughts.Board(f, variant="czech")


# --- the schedule ---------------------------------------------------------------------


def _book(n=50):
    return op.Book([op.Opening(name=f"o{i}") for i in range(n)], "sequential")


def test_pairs_share_an_opening_with_colours_swapped():
    jobs = sched.build(2, "round-robin", 6, 2, 2, _book())
    assert len(jobs) == 12
    for a, b in sched.game_pairs(jobs):
        ja, jb = jobs[a], jobs[b]
        assert ja.opening == jb.opening and ja.slot == jb.slot
        assert (ja.first, ja.second) == (jb.second, jb.first)
    assert len(sched.game_pairs(jobs)) == 6
    assert len({j.slot for j in jobs}) == 6  # a new opening for every pair
    assert [j.index for j in jobs] == list(range(12))


def test_every_pairing_of_a_round_plays_the_round_openings():
    jobs = sched.build(3, "round-robin", 2, 2, 2, _book())
    assert {j.pairing for j in jobs} == {(0, 1), (0, 2), (1, 2)}
    for r in range(2):
        slots = {j.slot for j in jobs if j.round == r}
        assert len(slots) == 1
    assert jobs[0].slot != jobs[-1].slot
    g = sched.build(4, "gauntlet", 2, 1, 1, _book())
    assert {j.pairing for j in g} == {(0, 1), (0, 2), (0, 3)}
    # without -repeat colours still alternate and every game has its own opening
    single = sched.build(2, "round-robin", 4, 1, 1, _book())
    assert [j.first for j in single] == [0, 1, 0, 1]
    assert [j.slot for j in single] == [0, 1, 2, 3]
    with pytest.raises(DraughtsError):
        sched.build(1, "round-robin", 2, 1, 1)
    with pytest.raises(DraughtsError):
        sched.pairings(3, "swiss")


# --- time controls ------------------------------------------------------------------


def test_time_control_forms():
    assert parse_tc("40/60+0.5") == {"moves": 40, "time": 60.0, "inc": 0.5, "infinite": False}
    assert parse_tc("2:00")["time"] == 120.0
    assert parse_tc("60+1") == {"moves": 0, "time": 60.0, "inc": 1.0, "infinite": False}
    assert parse_tc("inf")["infinite"]
    for bad in ("abc", "40/", "0", "1:2:3:4"):
        with pytest.raises(DraughtsError):
            parse_tc(bad)
    e = parse_engine(["name=x", "cmd=x", "st=300"])
    assert e.tc.movetime == 300 and e.tc.text() == "300/move"  # five minutes a move
    e = parse_engine(["name=x", "cmd=x", "tc=40/1:30+0.5", "timemargin=200", "depth=9"])
    assert e.tc.text() == "40/90+0.5, depth=9" and e.tc.margin == 0.2
    with pytest.raises(DraughtsError, match="limit"):
        parse_engine(["name=x", "cmd=x", "tc=inf"])
    with pytest.raises(DraughtsError, match="not both"):
        parse_engine(["name=x", "cmd=x", "tc=10", "st=1"])
    with pytest.raises(DraughtsError, match="unknown"):
        parse_engine(["name=x", "cmd=x", "st=1", "colour=red"])


def test_each_settings_and_engine_overrides():
    e = parse_engine(
        ["name=a", "cmd=prog", "arg=hub", "depth=3", "option.level=5"], ["depth=8", "option.tt-size=32", "arg=-q"]
    )
    assert e.tc.depth == 3 and e.option_dict() == {"tt-size": "32", "level": "5"}
    assert e.args == ("-q", "hub")
    # an engine's own clock replaces the one -each gives
    e = parse_engine(["name=a", "cmd=prog", "st=0.5"], ["tc=40/60"])
    assert e.tc.movetime == 0.5 and not e.tc.has_clock
    e = parse_engine(["name=a", "cmd=prog", "tc=10+0.1"], ["st=2"])
    assert e.tc.time == 10 and e.tc.movetime == 0


def test_clock_periods_increments_and_flag_fall():
    c = Clock(TimeControl(moves=2, time=10.0, inc=1.0, margin=0.1))
    assert c.limit() == Limit(time=10.0, inc=1.0, moves_to_go=2)
    assert c.available() == 11.0  # the increment comes before the move
    assert c.spend(3.0)  # 10 + 1 - 3 = 8
    assert c.remaining == pytest.approx(8.0)
    assert c.limit().moves_to_go == 1
    assert c.spend(4.0)  # 8 + 1 - 4 = 5, then +10 for the next period
    assert c.remaining == pytest.approx(15.0)
    assert not c.spend(16.2)  # 16 s available, 0.1 s grace
    st = Clock(TimeControl(movetime=0.5, margin=0.05))
    assert st.limit() == Limit(movetime=0.5)
    assert st.spend(0.54) and not st.spend(0.56)
    depth_only = Clock(TimeControl(depth=4))
    assert depth_only.available() is None and depth_only.spend(1e6)

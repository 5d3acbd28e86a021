"""ProbCut: its fitted figures, how an Engine chooses them, and the match option."""

import pytest

import draughts
from draughts.engine import PROBCUT, Engine, ProbCutFit, parse_probcut
from draughts.errors import DraughtsError

FIT = ProbCutFit(min_depth=4, shallow_pct=40, slope=1.05, intercept=-3, sigma=20.0, sigma_per_ply=3.5, t=1.5)


def test_packed_tables_follow_the_fit():
    md, slope, icpt, shallow, margin = FIT.packed()
    assert (md, slope, icpt) == (4, round(1.05 * 1024), -3)
    assert len(shallow) == len(margin) == 64
    for d in range(4, 64):
        assert shallow[d] == max(1, d * 40 // 100) and 1 <= shallow[d] < d
        assert margin[d] == round(1.5 * (20.0 + 3.5 * d))
    # a shallow per cent near 100 still searches at least a ply less
    _, _, _, shallow, _ = ProbCutFit(4, 99, 1.0, 0, 10.0, 0.0, 1.0).packed()
    assert all(shallow[d] == d - 1 for d in range(4, 64))


@pytest.mark.parametrize(
    "bad",
    [
        ProbCutFit(1, 40, 1.0, 0, 20.0, 3.0, 1.5),  # min_depth below 2
        ProbCutFit(64, 40, 1.0, 0, 20.0, 3.0, 1.5),  # past the tables
        ProbCutFit(4, 40, 0.1, 0, 20.0, 3.0, 1.5),  # slope out of range
        ProbCutFit(4, 40, 4.5, 0, 20.0, 3.0, 1.5),  # slope out of range
    ],
)
def test_bad_figures_are_refused_and_the_old_ones_stay(bad):
    engine = Engine("american", tt_mb=1)
    engine.configure({"probcut": FIT})
    with pytest.raises(DraughtsError, match="probcut"):
        engine.configure({"probcut": bad})
    assert engine.probcut == FIT
    with pytest.raises(DraughtsError, match="probcut"):
        engine.configure({"probcut": "sometimes"})
    assert engine.probcut == FIT


def test_auto_follows_the_variant_and_the_evaluation():
    engine = Engine("american", tt_mb=1)
    assert engine.probcut == PROBCUT.get(("american", engine.eval))
    engine.configure({"eval": "classic"})
    assert engine.probcut == PROBCUT.get(("american", "classic"))
    engine.configure({"variant": "international"})
    assert engine.probcut == PROBCUT.get(("international", "classic"))
    engine.configure({"eval": "auto"})
    assert engine.probcut == PROBCUT.get(("international", engine.eval))
    # a choice of figures (or None) is kept whatever the variant
    engine.configure({"probcut": FIT})
    engine.configure({"variant": "russian"})
    assert engine.probcut == FIT
    engine.configure({"probcut": None})
    engine.configure({"variant": "american"})
    assert engine.probcut is None


def test_probcut_cuts_and_off_restores_the_search():
    board = draughts.Board("B:W13,16,28,29,30,31,32:B1,2,3,4,12", variant="american")

    def run(fit):
        engine = Engine("american", tt_mb=16)
        engine.configure({"probcut": fit})
        nodes = engine.play(board, draughts.Limit(depth=12)).info.nodes
        return nodes, engine.probcut_counts()

    off, counts = run(None)
    assert counts == (0, 0)
    assert run(None)[0] == off  # deterministic with one thread
    nodes, (tries, cuts) = run(FIT)
    assert 0 < cuts <= tries and nodes != off
    # margins no evaluation reaches: the shallow search is never tried, the search is the same
    assert run(ProbCutFit(4, 40, 1.0, 0, 5000.0, 0.0, 1.0)) == (off, (0, 0))


def test_the_option_text():
    assert parse_probcut("off") is None
    assert parse_probcut("auto") == "auto"
    assert parse_probcut("4,40,1.05,-3,20,3.5,1.5") == FIT
    for bad in ("4,40,1.05", "on", "4,40,x,-3,20,3.5,1.5"):
        with pytest.raises(DraughtsError, match="probcut is off, auto or MIN"):
            parse_probcut(bad)
    engine = Engine("american", tt_mb=1)
    engine.configure({"probcut": "4,40,1.05,-3,20,3.5,1.5"})
    assert engine.probcut == FIT
    engine.configure({"probcut": "off"})
    assert engine.probcut is None
    engine.configure({"probcut": "auto"})
    assert engine.probcut == PROBCUT.get(("american", engine.eval))


def test_the_eighth_figure_is_captures():
    with_captures = ProbCutFit(4, 40, 1.05, -3, 20.0, 3.5, 1.5, captures=True)
    assert parse_probcut("4,40,1.05,-3,20,3.5,1.5,1") == with_captures
    assert parse_probcut("4,40,1.05,-3,20,3.5,1.5,0") == FIT
    for bad in ("4,40,1.05,-3,20,3.5,1.5,2", "4,40,1.05,-3,20,3.5,1.5,yes", "4,40,1.05,-3,20,3.5,1.5,1,1"):
        with pytest.raises(DraughtsError, match=r"T\[,CAPTURES\]"):
            parse_probcut(bad)


def test_captures_tries_probcut_where_a_capture_is_on_the_board():
    # a middle game with exchanges about: many nodes have a capture pending
    board = draughts.Board(
        "W:W27,28,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48:"
        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,22,23",
        variant="international",
    )

    def run(captures):
        engine = Engine("international", tt_mb=16, egdb=None)
        engine.configure({"probcut": ProbCutFit(3, 40, 1.0, 0, 0.0, 5.0, 1.0, captures=captures)})
        nodes = engine.play(board, draughts.Limit(depth=11)).info.nodes
        return nodes, engine.probcut_counts()

    quiet_only, (_, cuts_quiet) = run(False)
    everywhere, (_, cuts_all) = run(True)
    assert cuts_quiet > 0 and cuts_all > 0
    assert everywhere != quiet_only  # the nodes with a capture pending now cut too
    assert run(False)[0] == quiet_only  # (deterministic: the difference is the flag's)

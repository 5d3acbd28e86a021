"""The referee: misbehaving engines lose with the right termination, every
game is recorded, and adjudication ends games as asked."""

import io
import json
import os
import re
import sys

import pytest

import draughts
from draughts import pdn
from draughts.match import cli
from draughts.engine_api import Info, PlayResult
from draughts.match.engines import EngineConfig
from draughts.match.players import InProcessPlayer
from draughts.match.game import DrawAdjudication, GameJob, ResignAdjudication, Rules, play_game, record_board
from draughts.match.openings import START
from draughts.match.runner import Console, Match
from draughts.match.timecontrol import TimeControl

HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv, tmp_path):
    """A match in this process from command-line words; (result, stdout text)."""
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match.run(), out.getvalue()


def scripted(mode, *extra):
    return ["-engine", "name=bad", f"cmd={sys.executable}", "arg=-m", "arg=draughts.hub.testing", f"arg={mode}", *extra]


GOOD = ["-engine", "name=good", "cmd=draughts", "arg=hub", "depth=2"]

# mode: (PDN Termination, words of the reason, the bad engine's limit)
FAULTS = {
    "illegal": ("illegal move", "makes an illegal move: ", "depth=1"),
    "nonsense": ("illegal move", "makes an illegal move: banana", "depth=1"),
    "crash": ("abandoned", "disconnects", "depth=1"),
    "stall": ("stalled connection", "'s connection stalls", "st=0.2"),
    "late": ("time forfeit", "loses on time", "st=0.2"),
}


@pytest.mark.parametrize("mode", sorted(FAULTS))
def test_a_misbehaving_engine_loses_every_game_with_the_reason(mode, tmp_path):
    termination, words, limit = FAULTS[mode]
    pdn_path = tmp_path / "games.pdn"
    json_path = tmp_path / "match.json"
    result, out = run(
        scripted(mode, limit, "timemargin=100")
        + GOOD
        + [
            "-variant",
            "american",
            "-games",
            "2",
            "-recover",
            "-pdnout",
            str(pdn_path),
            "-jsonout",
            str(json_path),
            "-srand",
            "1",
        ],
        tmp_path,
    )
    assert result.complete and len(result.records) == 2
    finished = [l for l in out.splitlines() if l.startswith("Finished game")]
    assert len(finished) == 2
    for rec, line in zip(result.records, finished):
        assert rec.termination == termination
        assert words in rec.reason
        assert rec.winner == 1  # the good engine
        colour = "Black" if rec.first == 0 else "White"  # american: Black moves first
        assert rec.reason.startswith(colour)
        assert line.endswith(f"{{{rec.reason}}}")
        # the fault comes on the bad engine's third move
        assert len(rec.moves) == (4 if rec.first == 0 else 5)
        if mode in ("crash", "stall"):
            assert rec.failed == [0]
        if mode == "late":  # how late: past the 200 ms and the 100 ms margin
            late = re.search(r"loses on time \((\d+\.\d) ms of 200\.0 ms", rec.reason)
            assert late and float(late.group(1)) > 300.0, rec.reason
    assert "Score of bad vs good: 0 - 2 - 0" in out
    games = list(pdn.read_games(pdn_path.read_text()))  # no game record lost
    assert len(games) == 2
    for g, rec in zip(games, result.records):
        assert g.headers["Termination"] == termination
        assert g.headers["Result"] == ("0-1" if rec.first == 0 else "1-0")
        assert len(g.moves) == len(rec.moves)
    summary = json.loads(json_path.read_text())
    assert summary["terminations"] == {termination: 2}
    assert summary["summary"]["losses"] == 2


def test_garbage_lines_are_ignored_and_the_game_goes_on(tmp_path):
    result, out = run(scripted("garbage", "depth=1") + GOOD + ["-variant", "american", "-games", "2"], tmp_path)
    assert result.complete
    for rec in result.records:
        assert rec.termination == "normal"
        assert "no pieces left" in rec.reason or "no legal move" in rec.reason or rec.reason.startswith("Draw")
        board = record_board(rec, draughts.variant("american"))
        assert board.outcome() is not None  # played to the end by the rules


def test_a_crash_without_recover_stops_the_match_and_resume_goes_on(tmp_path):
    state = tmp_path / "state.json"
    pdn_path = tmp_path / "games.pdn"
    result, out = run(
        scripted("crash", "depth=1")
        + GOOD
        + ["-variant", "american", "-games", "3", "-state", str(state), "-pdnout", str(pdn_path)],
        tmp_path,
    )
    assert not result.complete and len(result.records) == 1
    assert "Terminating match: bad failed" in out
    saved = json.loads(state.read_text())
    assert len(saved["records"]) == 1 and saved["stopped"].startswith("Terminating")
    out2 = io.StringIO()
    code = cli.run_match(["-resume", str(state), "-recover", "-progress", "off"], out=out2, err=io.StringIO())
    assert code == 0
    saved = json.loads(state.read_text())
    assert saved["complete"] and len(saved["records"]) == 3
    assert sorted(r["index"] for r in saved["records"]) == [0, 1, 2]
    assert len(list(pdn.read_games(pdn_path.read_text()))) == 3
    assert "Score of bad vs good: 0 - 3 - 0" in out2.getvalue()


def test_an_engine_that_cannot_start_is_an_error(tmp_path):
    with pytest.raises(draughts.DraughtsError, match="cannot find"):
        run(["-engine", "name=x", "cmd=no-such-engine-program", "depth=1"] + GOOD, tmp_path)


# --- adjudication, with players that report chosen scores ---------------------------


class Scored(InProcessPlayer):
    """Our engine's moves, reporting a fixed score."""

    def __init__(self, name, score):
        super().__init__(
            EngineConfig(name=name, proto="builtin", tc=TimeControl(depth=1)), draughts.variant("american")
        )
        self.score = score

    def play(self, board, limit, grace):
        reply = super().play(board, limit, grace)
        return PlayResult(reply.move, None, Info(depth=1, score=self.score, pv=[reply.move]), reply.elapsed)


def _game(rules, a_score, b_score):
    v = draughts.variant("american")
    players = [Scored("a", a_score), Scored("b", b_score)]
    configs = [p.config for p in players]
    job = GameJob(0, 0, (0, 1), 0, 1, 0, START)
    return play_game(job, players, configs, v, rules)


def test_draw_adjudication():
    rec = _game(Rules(draw=DrawAdjudication(movenumber=6, movecount=3, score=5)), 0.03, -0.02)
    assert rec.termination == "adjudication" and rec.reason == "Draw by adjudication"
    assert rec.result == "1/2-1/2" and len(rec.moves) == 12
    rec = _game(Rules(draw=DrawAdjudication(movenumber=6, movecount=3, score=1)), 0.03, -0.02)
    assert rec.termination != "adjudication"  # scores not within the window


def test_resign_adjudication_one_and_two_sided():
    rec = _game(Rules(resign=ResignAdjudication(movecount=3, score=300)), 0.5, -4.0)
    assert rec.termination == "adjudication" and rec.winner == 0
    assert rec.reason == "Black wins by adjudication"  # a moves first: Black
    assert len(rec.moves) == 6
    # two-sided: the winner must agree; here it does not
    rec = _game(Rules(resign=ResignAdjudication(movecount=3, score=300, twosided=True)), 0.5, -4.0)
    assert rec.termination != "adjudication"
    rec = _game(Rules(resign=ResignAdjudication(movecount=3, score=300, twosided=True)), 3.5, -4.0)
    assert rec.termination == "adjudication" and rec.winner == 0


def test_maxmoves():
    rec = _game(Rules(maxmoves=5), 0.0, 0.0)
    assert rec.termination == "adjudication" and len(rec.moves) == 10
    assert rec.reason == "Draw by adjudication: maximum moves" and rec.winner is None


def test_variant_draw_rules_are_applied_by_the_referee():
    # two kings each on an open board: nothing but king moves, so the
    # move-count rule (or a repetition) must end the game as a draw
    v = draughts.variant("american")
    players = [Scored("a", 0.0), Scored("b", 0.0)]
    from draughts.match.openings import Opening

    job = GameJob(0, 0, (0, 1), 0, 1, 0, Opening("B:WK29,K32:BK1,K4"))
    rec = play_game(job, players, [p.config for p in players], v, Rules())
    assert rec.winner is None and rec.termination == "normal"
    assert rec.reason.startswith("Draw: ")
    assert record_board(rec, v).outcome() is not None


def test_an_engine_that_floods_info_lines_loses_on_time_not_as_stalled(tmp_path):
    pdn_path = tmp_path / "g.pdn"
    result, out = run(
        scripted("flood", "st=0.2") + GOOD + ["-variant", "american", "-games", "2", "-pdnout", str(pdn_path)], tmp_path
    )
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination == "time forfeit", rec.reason
        assert "loses on time (it sent" in rec.reason and "lines but no move" in rec.reason
        assert rec.winner == 1
    assert [g.headers["Termination"] for g in pdn.read_games(pdn_path.read_text())] == ["time forfeit"] * 2


def test_a_done_without_a_move_is_named_so(tmp_path):
    result, out = run(scripted("emptydone", "depth=1") + GOOD + ["-variant", "american", "-games", "2"], tmp_path)
    for rec in result.records:
        assert rec.termination == "illegal move"
        assert rec.reason.endswith("sends no move (a done without a move)"), rec.reason
        assert "illegal move: done" not in rec.reason

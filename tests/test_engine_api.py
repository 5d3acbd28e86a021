"""The engine protocol (draughts.engine_api): play, analyse with multi-PV,
configure and the search tuning, over the engine, the Hub server and client,
and `draughts analyze --multipv`."""

import re
import subprocess
import sys
import time

import pytest

import draughts
from draughts.hub.testing import in_memory_engine
from draughts import Limit
from draughts.dxp.engine import DxpEngine
from draughts.engine import Engine, SearchParams, default_search_params
from draughts.engine_api import EngineProtocol, Info, PlayResult
from draughts.errors import DraughtsError
from draughts.hub import HubEngine
from draughts.hub.hub1 import Hub1Engine
from draughts.hub.protocol import parse_line
from hub_scripts.transcript import ServerSession

# White to move (american): 16-11 gives a man and wins two back (a man up),
# 16-12 is quiet, 15-10 and 15-11 each give a man for nothing
SHOT = "W:W15,16,20:B7,8,24"
WINS, QUIET, LOSERS = "16-11", "16-12", {"15-10", "15-11"}


def shot_board():
    return draughts.Board(SHOT, variant="american")


def test_the_position_is_what_its_comment_says():
    board = shot_board()
    assert sorted(board.move_text(m) for m in board.legal_moves) == sorted([WINS, QUIET, *LOSERS])
    for text in LOSERS:  # the man is taken and nothing is taken back
        after = board.copy()
        after.push(board.parse_move(text))
        assert all(m.is_capture for m in after.legal_moves)
        for reply in after.legal_moves:
            again = after.copy()
            again.push(reply)
            assert not any(m.is_capture for m in again.legal_moves)


# --- the protocol ----------------------------------------------------------------------


def test_every_engine_class_has_the_protocol():
    assert isinstance(Engine("american", tt_mb=1), EngineProtocol)
    for cls in (HubEngine, Hub1Engine, DxpEngine):
        assert issubclass(cls, EngineProtocol), cls
    assert not isinstance(object(), EngineProtocol)


def test_every_player_kind_is_a_player_and_plays_a_move():
    import threading
    from pathlib import Path
    from draughts.dxp import session as dxp_session
    from draughts.engine_api import Player
    from draughts.match.engines import parse_engine
    from draughts.match.players import DxpPlayer, Hub1Player, HubPlayer, InProcessPlayer, make_player

    server = dxp_session.listen("127.0.0.1", 0)

    def serve():
        try:
            dxp_session.serve(server, dxp_session.EngineMover(tt_mb=4, depth=1), log=lambda line: None)
        except OSError:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    hub1_script = str(Path(__file__).parent / "hub_scripts" / "hub1_engine.py")
    kinds = {
        InProcessPlayer: ["proto=builtin"],
        HubPlayer: [f"cmd={sys.executable}", "arg=-m", "arg=draughts.hub.testing", "arg=ok"],
        Hub1Player: ["proto=hub1", f"cmd={sys.executable}", f"arg={hub1_script}"],
        DxpPlayer: ["proto=dxp", "host=127.0.0.1", f"port={server.getsockname()[1]}"],
    }
    variant = draughts.variant("international")
    try:
        for cls, tokens in kinds.items():
            player = make_player(parse_engine(tokens + ["depth=1"]), variant)
            try:
                assert type(player) is cls and isinstance(player, Player), cls
                assert player.alive and player.name
                player.new_game(variant)
                board = draughts.Board()
                assert player.play(board, Limit(depth=1), 10.0).move in board.legal_moves
            finally:
                player.close()
    finally:
        server.close()
        thread.join(5.0)  # the follower closes its connection before the next test

    class NoClose:
        name, alive = "x", True

        def new_game(self, variant): ...

        def play(self, board, limit, grace): ...

    assert not isinstance(NoClose(), Player) and not isinstance(Engine("american", tt_mb=1), Player)


def test_play_gives_the_move_the_reply_and_the_last_iteration():
    board = shot_board()
    result = Engine("american", tt_mb=4).play(board, Limit(depth=6))
    assert isinstance(result, PlayResult) and isinstance(result.info, Info)
    assert board.move_text(result.move) == WINS
    assert result.info.pv[0] == result.move and result.ponder == result.info.pv[1]
    assert result.info.depth == 6 and result.info.multipv == 1 and result.info.score > 1.0
    assert result.elapsed >= result.info.time >= 0 and not result.late
    assert result.latency == pytest.approx(result.elapsed - result.info.time)


def test_play_on_a_finished_game_is_an_error_and_analyse_has_no_line():
    board = draughts.Board("B:W14:B", variant="american")
    engine = Engine("american", tt_mb=1)
    with pytest.raises(DraughtsError, match="no legal move"):
        engine.play(board, Limit(depth=2))
    assert engine.analyse(board, Limit(depth=2), multipv=3) == []


# --- multi-PV -----------------------------------------------------------------------------


def test_multipv_gives_the_best_moves_in_order():
    board = shot_board()
    lines = Engine("american", tt_mb=4).analyse(board, Limit(depth=8), multipv=3)
    moves = [board.move_text(info.pv[0]) for info in lines]
    assert len(lines) == 3 and len(set(moves)) == 3
    assert all(info.pv[0] in board.legal_moves for info in lines)
    assert moves[:2] == [WINS, QUIET] and moves[2] in LOSERS
    scores = [info.score for info in lines]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1] + 1.0 > scores[2] + 2.0
    assert [info.multipv for info in lines] == [1, 2, 3]
    assert all(info.depth == 8 for info in lines)
    best = Engine("american", tt_mb=4).play(board, Limit(depth=8))
    assert lines[0].pv[0] == best.move


def test_multipv_past_the_legal_moves_gives_one_line_a_move():
    board = shot_board()
    lines = Engine("american", tt_mb=4).analyse(board, Limit(depth=6), multipv=10)
    assert len(lines) == 4
    assert {info.pv[0] for info in lines} == set(board.legal_moves)
    assert board.move_text(lines[0].pv[0]) == WINS and board.move_text(lines[1].pv[0]) == QUIET


def test_multipv_one_is_the_search_of_play():
    board = draughts.Board(variant="russian")
    one = Engine("russian", tt_mb=8).analyse(board, Limit(depth=7))
    played = Engine("russian", tt_mb=8).play(board, Limit(depth=7))
    assert len(one) == 1
    assert (one[0].nodes, one[0].pv, one[0].score) == (played.info.nodes, played.info.pv, played.info.score)


def test_multipv_reports_every_line_of_every_iteration():
    seen = []
    Engine("american", tt_mb=4).analyse(shot_board(), Limit(depth=4), multipv=2, on_info=seen.append)
    assert [(i.depth, i.multipv) for i in seen] == [(d, k) for d in range(1, 5) for k in (1, 2)]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_a_bad_multipv_is_an_error_naming_it(bad):
    with pytest.raises(DraughtsError, match="multipv"):
        Engine("american", tt_mb=1).analyse(shot_board(), Limit(depth=2), multipv=bad)


# --- configure and the search tuning ----------------------------------------------------


def test_the_defaults_come_from_one_place():
    for name in ("american", "italian", "international"):
        engine = Engine(name, tt_mb=1)
        assert engine.search_params == default_search_params(draughts.variant(name), engine.eval)
    assert default_search_params(draughts.variant("russian"), "classic") == SearchParams()


def test_a_variant_switch_keeps_the_users_tuning():
    engine = Engine("american", tt_mb=1)
    engine.configure({"lmr-divisor": 180})
    engine.configure({"variant": "international"})
    assert engine.search_params.lmr_divisor == 180
    engine.play(draughts.Board(variant="russian"), Limit(depth=2))  # the board's variant
    assert engine.variant.name == "russian" and engine.search_params.lmr_divisor == 180
    # what the user left alone follows the variant
    assert engine.search_params.probcut == default_search_params(engine.variant, engine.eval).probcut


def test_setting_one_knob_leaves_the_others():
    engine = Engine("american", tt_mb=1)
    futility = engine.search_params.futility
    assert futility > 0
    engine.configure({"lmr_divisor": 200})
    assert engine.search_params.futility == futility and engine.search_params.lmr_divisor == 200
    engine.configure({"futility": 0})
    assert engine.search_params.lmr_divisor == 200 and engine.search_params.futility == 0


def test_the_tuning_reaches_the_search():
    board = draughts.Board(variant="american")
    nodes = {}
    for futility in (0, 120):
        engine = Engine("american", tt_mb=4)
        engine.configure({"futility": futility})
        nodes[futility] = engine.play(board, Limit(depth=9)).info.nodes
    plain = Engine("american", tt_mb=4).play(board, Limit(depth=9)).info.nodes
    assert nodes[120] == plain != nodes[0]


#: a value unlike the default for each whole-number SearchParams field: a field
#: added to draughts.tuning without one here fails the test below
OTHER_VALUES = {
    "lmr_divisor": 120,
    "lmr_base": 250,
    "lmr_min_depth": 63,
    "lmr_min_index": 63,
    "futility": 0,
    "futility_depth": 0,
    "aspiration": 1,
    "aspiration_min_depth": 63,
    "horizon_promotions": 1,
    "horizon_exchanges": 1,
}

#: the position a field is tried on where the start cannot show it (no man
#: comes near the crown in seven plies from the start)
OTHER_BOARDS = {"horizon_promotions": "W:W32,33,34,35,40:B41,42,4,8,9"}


def test_every_search_number_is_an_option_that_reaches_the_search():
    from draughts import options
    from draughts.tuning import tuning_fields

    names = [f.name for f in tuning_fields()]
    assert sorted(names) == sorted(OTHER_VALUES)
    for name in names:
        option = name.replace("_", "-")
        # declared once (the SearchParams field): an engine option, not a Hub one
        assert options.BY_NAME[option].engine and not options.BY_NAME[option].hub
        if name in OTHER_BOARDS:
            board = draughts.Board(OTHER_BOARDS[name], variant="international")
        else:
            board = draughts.Board(variant="international")
        plain = Engine("international", tt_mb=4).play(board, Limit(depth=7)).info.nodes
        engine = Engine("international", tt_mb=4)
        engine.configure({option: str(OTHER_VALUES[name])})
        assert getattr(engine.search_params, name) == OTHER_VALUES[name]
        assert engine.play(board, Limit(depth=7)).info.nodes != plain, name


def test_the_core_takes_its_tuning_and_weights_by_name_only():
    from draughts.tuning import EvalWeights, SearchParams
    from draughts_core.search import Searcher

    rules = draughts.variant("american").core_rules
    s = Searcher(rules, EvalWeights().core(), 1)
    with pytest.raises(TypeError):
        s.set_tuning(225, 120)  # the positional form is gone
    with pytest.raises(TypeError):
        s.set_tuning(lmr_divisor=225)  # every number is given
    s.set_tuning(**SearchParams().core())
    with pytest.raises(TypeError):
        s.set_weights(100, 300, (), 6, 4, 30, 2, 60, True)
    with pytest.raises(ValueError, match="advance"):
        s.set_weights(**{**EvalWeights().core(), "advance": tuple(range(11))})
    state = draughts.Board(variant="american").search_state()
    r = s.run(state.position, state.history, max_depth=3)
    assert r.depth == 3 and r.pv[0] == r.move and r.nodes > 0 and r == tuple(r)


def test_configure_reads_text_as_the_hub_would_send_it():
    engine = Engine("american", tt_mb=1)
    engine.configure({"level": "7", "threads": "2", "move-overhead": "35", "eval": "classic"})
    assert (engine.level, engine.threads, engine.eval) == (7, 2, "classic")
    assert engine.move_overhead == pytest.approx(0.035)


@pytest.mark.parametrize(
    "options, named",
    [
        ({"lmr-divisior": 180}, "lmr-divisior"),
        ({"hash": 16}, "hash"),
        ({"lmr-divisor": 0}, "lmr-divisor"),
        ({"lmr-divisor": "fast"}, "lmr-divisor"),
        ({"futility": -5}, "futility"),
        ({"aspiration": 0}, "aspiration"),
        ({"lmr-min-depth": 64}, "lmr-min-depth"),
        ({"lmr-mode": 1}, "lmr-mode"),  # the fixed reductions of mode 0 are gone
        ({"level": 21}, "level"),
        ({"threads": 0}, "threads"),
        ({"tt-size": True}, "tt-size"),
        ({"eval": "neural"}, "eval"),
        ({"variant": "chess"}, "variant"),
        ({"probcut": "sometimes"}, "probcut"),
        ({"move-overhead": -1}, "move-overhead"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_an_error_naming_it(options, named):
    engine = Engine("american", tt_mb=1)
    before = (engine.search_params, engine.level, engine.threads, engine.eval, engine.variant)
    with pytest.raises(DraughtsError, match=re.escape(named)):
        engine.configure({"level": 5, **options})
    # nothing was set, not even the good value beside the bad one
    assert (engine.search_params, engine.level, engine.threads, engine.eval, engine.variant) == before


# --- the Hub server and client ------------------------------------------------------------


def test_the_hub_server_marks_its_info_lines_with_the_line():
    hub = ServerSession()
    try:
        hub.send("set-param name=variant value=american", "set-param name=multipv value=3", "init")
        hub.until("ready")
        hub.send(f"pos fen={SHOT}", "level infinite", "go analyze")
        infos = []
        deadline = time.monotonic() + 20
        while not any(a.get("depth") == "6" and a.get("multipv") == "3" for a in infos):
            assert time.monotonic() < deadline
            command, args = parse_line(hub.read())
            assert command == "info"
            infos.append(args)
        hub.send("stop")
        done = parse_line(hub.until("done")[-1])[1]
        assert done["move"] == WINS
        depth6 = [a for a in infos if a.get("depth") == "6"]
        assert [a["multipv"] for a in depth6] == ["1", "2", "3"]
        assert [a["pv"].split()[0] for a in depth6][:2] == [WINS, QUIET]
        assert float(depth6[0]["score"]) > float(depth6[1]["score"]) > float(depth6[2]["score"])
        # a search for a move reports one line, unmarked
        hub.send(f"pos fen={SHOT}", "level depth=3", "go think")
        lines = hub.until("done")
        assert all("multipv" not in parse_line(line)[1] for line in lines)
    finally:
        hub.close()


def test_the_hub_server_refuses_a_bad_multipv():
    hub = ServerSession()
    try:
        hub.send("set-param name=multipv value=0")
        assert "multipv" in parse_line(hub.until("error")[-1])[1]["message"]
    finally:
        hub.close()


def test_the_hub_client_reads_the_lines_into_infos():
    board = shot_board()
    with in_memory_engine() as engine:
        assert isinstance(engine, EngineProtocol)
        lines = engine.analyse(board, Limit(depth=6), multipv=3)
        assert [info.multipv for info in lines] == [1, 2, 3]
        assert [board.move_text(info.pv[0]) for info in lines][:2] == [WINS, QUIET]
        assert lines[0].score > lines[1].score > lines[2].score
        assert all(info.depth >= 6 for info in lines)  # (stopped once depth 6 was in)
        one = engine.analyse(board, Limit(depth=4))
        assert len(one) == 1 and board.move_text(one[0].pv[0]) == WINS
        result = engine.play(board, Limit(depth=4))
        assert board.move_text(result.move) == WINS and result.info.depth == 4
        with pytest.raises(ValueError, match="analyse needs a limit"):
            engine.analyse(board, Limit(time=10))


# --- draughts analyze --multipv ----------------------------------------------------------


def test_analyze_with_multipv_prints_the_lines():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "analyze",
            "-v",
            "american",
            "--depth",
            "6",
            "--multipv",
            "2",
            "--fen",
            SHOT,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    iterations = re.findall(r"^line +(\d) +depth +(\d+) ", run.stdout, re.M)
    assert iterations == [(k, str(d)) for d in range(1, 7) for k in "12"]
    assert re.search(rf"^best move {WINS} +score \+", run.stdout, re.M)
    summary = re.findall(r"^line (\d): (\S+) +score ([-+]\d+\.\d\d) +depth 6 +pv ", run.stdout, re.M)
    assert [(k, move) for k, move, _ in summary] == [("1", WINS), ("2", QUIET)]
    assert float(summary[0][2]) > float(summary[1][2])


@pytest.mark.parametrize(
    "variant, fen",
    [
        # Black's man on 41 crowns on 46 or 47 (international)
        ("international", "W:W33,34,35:B41,2,3"),
        # Black's man on 26 crowns on 30 or 31 (american: Black moves down the board)
        ("american", "W:W13,14,15:B26"),
        # Black's man on a2 crowns on a1 (turkish: men move straight)
        ("turkish", "W:Wf4,g4,h4:Ba2"),
    ],
)
def test_horizon_promotions_see_a_crowning_one_ply_on(variant, fen):
    # White to move, one ply: every reply leaves Black a man that crowns next.
    # Scored statically the horizon misses it; searching the crowning moves there
    # finds it, and the score is what a two-ply search says without the option.
    board = draughts.Board(fen, variant=variant)

    def score(promotions, depth):
        engine = Engine(variant, tt_mb=1, egdb=None)
        engine.configure({"horizon-promotions": promotions, "probcut": "off"})
        return engine.play(board, Limit(depth=depth)).info.score

    static = score(0, 1)
    searched = score(1, 1)
    assert searched < static - 1.0  # a king for Black: more than a man worse for White
    assert searched == score(0, 2)

"""`draughts hub`, the engine side, through an in-memory transport: transcripts."""

import re
import subprocess
import sys
import time

import pytest

import draughts
from draughts import bench
from draughts.hub.protocol import format_position, parse_line
from hub_scripts.transcript import ServerSession

START = "W" + "b" * 20 + "e" * 10 + "w" * 20


@pytest.fixture
def hub():
    session = ServerSession()
    yield session
    session.close()


def args_of(line):
    return parse_line(line)[1]


def divide(hub, depth=1):
    """{move: nodes} of `perft depth=N divide` in the engine's position."""
    hub.send(f"perft depth={depth} divide")
    lines = hub.until("perft")
    out = {}
    for line in lines[:-1]:
        command, args = parse_line(line)
        assert command == "divide"
        out[args["move"]] = int(args["nodes"])
    assert int(args_of(lines[-1])["nodes"]) == sum(out.values())
    return out


# --- start-up --------------------------------------------------------------------


def test_handshake(hub):
    hub.transcript(f"""
        > hub
        < id name=draughts version={draughts.__version__} author="the draughts developers"
        < param name=variant value=international type=enum values="international normal american italian spanish russian brazilian czech frisian frysk antidraughts losing breakthrough bt killer pool thai turkish"
        < param name=mandatory-capture value=true type=bool
        < param name=tt-size value=64 type=int min=1 max=65536
        < param name=ponder value=false type=bool
        < param name=level value=20 type=int min=1 max=20
        < param name=move-overhead value=20 type=int min=0 max=5000
        < param name=pydraughts value=false type=bool
        < param name=eval value=auto type=enum values="auto classic learned"
        < param name=egdb-path value=auto type=string
        < param name=threads value=1 type=int min=1 max=256
        < param name=multipv value=1 type=int min=1 max=256
        < param name=book value=auto type=string
        < param name=book-margin value=10 type=int min=0 max=3000
        < wait
        > set-param name=tt-size value=8
        > set-param name=ponder value=true
        > set-param name=level value=12
        > init
        < info egdb="international up to 4 pieces"
        < ready
        > ping
        < pong
    """)
    assert hub.server.engine().tt_mb == 8
    assert hub.server.engine().level == 12


def test_set_param_answers_bad_values_with_an_error(hub):
    hub.transcript("""
        > set-param name=cores value=4
        < error message="unknown parameter 'cores'; known: variant, mandatory-capture, tt-size, ponder, level, move-overhead, pydraughts, eval, egdb-path, threads, multipv, book, book-margin"
        > set-param name=threads value=0
        < error message="threads takes a whole number from 1 to 256, not '0'"
        > set-param name=ponder value=maybe
        < error message="ponder takes true or false, not 'maybe'"
        > set-param name=tt-size value=0
        < error message="tt-size takes a whole number from 1 to 65536, not '0'"
        > set-param name=tt-size value=12.5
        < error message="tt-size takes a whole number from 1 to 65536, not '12.5'"
        > set-param name=level value=21
        < error message="level takes a whole number from 1 to 20, not '21'"
        > set-param name=variant value=chess
        < error message="unknown variant 'chess'; known: *"
        > set-param name=eval value=neural
        < error message="eval takes one of auto, classic, learned, not 'neural'"
        > set-param name=variant
        < error message="set-param needs value="
        > set-param value=1
        < error message="set-param needs name="
        > ping
        < pong
    """)


def test_set_param_eval_switches_the_evaluation(hub):
    hub.transcript("""
        > set-param name=variant value=american
        > set-param name=eval value=classic
        > init
        < info egdb="american up to 4 pieces"
        < ready
    """)
    engine = hub.server.engine()
    assert engine.eval == "classic"
    hub.transcript("""
        > set-param name=eval value=learned
        > ping
        < pong
    """)
    assert engine.eval == "learned"
    hub.transcript("""
        > set-param name=eval value=auto
        > ping
        < pong
    """)
    assert engine.eval == draughts.engine.default_eval(draughts.variant("american"))


@pytest.mark.parametrize(
    "name,canonical",
    [
        ("normal", "international"),
        ("international", "international"),
        ("american", "american"),
        ("english", "american"),
        ("italian", "italian"),
        ("spanish", "spanish"),
        ("russian", "russian"),
        ("brazilian", "brazilian"),
        ("czech", "czech"),
        ("standard", "international"),
    ],
)
def test_every_variant_can_be_chosen(hub, name, canonical):
    hub.transcript(f"""
        > set-param name=variant value={name}
        > hub
        < id *
        < param name=variant value={canonical} *
        <* param *
        < wait
    """)
    want = draughts.Board(variant=canonical)
    assert set(divide(hub)) == {m.hub() for m in want.legal_moves}


def test_the_house_rule_makes_capturing_optional(hub):
    hub.send("set-param name=variant value=american")
    hub.send("pos fen=B:W18:B14,1")
    assert set(divide(hub)) == {"14x23x18"}
    hub.send("set-param name=mandatory-capture value=false")
    hub.send("pos fen=B:W18:B14,1")
    assert set(divide(hub)) == {"14x23x18", "1-5", "1-6", "14-9", "14-10", "14-17"} - {"14-9", "14-10"}


# --- positions ---------------------------------------------------------------------


def test_pos_forms(hub):
    hub.send(f"pos pos={START}")
    assert len(divide(hub)) == 9
    hub.send("pos start")
    assert len(divide(hub)) == 9
    hub.send('pos start moves="32-28 19-23"')
    assert divide(hub) == {"28x19x23": 1}
    hub.send(f'pos pos={START} moves="32-28 19-23 28x19x23"')
    assert set(divide(hub)) == {"13x24x19", "14x23x19"}
    hub.send("pos fen=W:W28:B23,K5")
    assert set(divide(hub)) == {"28x19x23"}
    hub.send("pos fen=B:W28:B23,K5")
    assert set(divide(hub)) == {"23x32x28"}  # black captures backwards


@pytest.mark.parametrize("variant", ["american", "italian", "spanish", "russian", "brazilian", "czech"])
def test_8x8_positions_have_33_characters(hub, variant):
    board = draughts.Board(variant=variant)
    for _ in range(2):
        board.push(next(iter(board.legal_moves)))
    text = format_position(board)
    assert len(text) == 33
    hub.send(f"set-param name=variant value={variant}", f"pos pos={text}")
    assert set(divide(hub)) == {m.hub() for m in board.legal_moves}
    moves = " ".join(m.hub() for m in board.move_stack)
    hub.send(f'pos start moves="{moves}"')
    assert set(divide(hub)) == {m.hub() for m in board.legal_moves}


def test_bad_positions_are_errors_and_keep_the_last_position(hub):
    hub.transcript(f"""
        > pos pos=Wbbb
        < error message="bad position: an international position has 51 characters *"
        > level depth=1
        > go think
        <* info *
        < done move=*
        > pos pos=X{START[1:]}
        < error message="bad position: a position starts with the side to move W or B, not 'X'"
        > pos pos={START[:-1]}q
        < error message="bad position: square 50 holds 'q'; *"
        > pos fen=W:W99
        < error message="bad position: FEN token '99': square 99 is not on the board (1-50)"
        > pos start moves="32-28 32-28"
        < error message="move 2 of moves: 32-28 is not a legal move in *"
        > pos start moves="32-28 banana"
        < error message="move 2 of moves: 'banana' is not a Hub move *"
        > pos fen=W:WK47:B9,21,22,42,43 moves=47x26
        < error message="move 1 of moves: 47x26 is ambiguous: it matches *"
        > pos
        < error message="pos needs exactly one of pos=, fen= or start"
        > pos start fen=W:W1:B2
        < error message="pos takes one of pos=, fen= or start, not fen and start"
        > set-param name=variant value=russian
        > pos pos={START}
        < error message="bad position: a russian position has 33 characters *"
        > ping
        < pong
    """)


def test_a_rejected_pos_leaves_the_position_before_it(hub):
    after = draughts.Board()
    after.push_text("32-28")
    hub.send('pos start moves="32-28"')
    for bad in (
        "pos pos=Wbbb",
        'pos start moves="32-28 19-23 28-22"',
        'pos start moves="32-28 banana"',
        "pos fen=W:W99",
        "pos",
        "pos start fen=W:W1:B2",
    ):
        hub.send(bad)
        assert hub.read().startswith("error message=")
        assert set(divide(hub)) == {m.hub() for m in after.legal_moves}, bad
    assert hub.server.board.move_stack == after.move_stack
    hub.transcript("""
        > level depth=2
        > go think
        <* info *
        < done move=*
    """)


@pytest.mark.parametrize(
    "line", ["go", "go thinkk", "go Think", "go think now", "go ponder think=1", "go analyse", "go depth=3"]
)
def test_a_go_without_exactly_one_known_kind_is_an_error(hub, line):
    hub.send("level depth=1", line)
    reply = hub.read()
    assert reply.startswith('error message="go takes one of think, ponder or analyze'), reply
    hub.send("ping")
    assert hub.read() == "pong"  # no search was started
    assert not hub.server.busy


def test_the_article_before_a_vowel_is_an():
    from draughts._args import a_or_an

    assert [a_or_an(w) for w in ("international", "italian", "antidraughts", "russian", "thai")] == [
        "an international",
        "an italian",
        "an antidraughts",
        "a russian",
        "a thai",
    ]


def test_a_variant_switch_resets_the_board(hub):
    hub.send('pos start moves="32-28"')
    hub.send("set-param name=variant value=czech")
    assert set(divide(hub)) == {m.hub() for m in draughts.Board(variant="czech").legal_moves}


# --- level and go ---------------------------------------------------------------------


def test_level_forms_and_errors(hub):
    hub.transcript("""
        > level depth=3
        > level nodes=1000
        > level move-time=0.25
        > level time=60 inc=0.5
        > level moves=40 time=120.5
        > level infinite
        > level depth=4 move-time=1
        > level
        < error message="level needs depth=, nodes=, move-time=, [moves=] time= [inc=] or infinite"
        > level depth=0
        < error message="level depth= is out of range: '0'"
        > level depth=x
        < error message="level depth= takes a number, not 'x'"
        > level move-time=-1
        < error message="level move-time= is out of range: '-1'"
        > level time=nan
        < error message="level time= takes a number, not 'nan'"
        > level time=inf
        < error message="level time= takes a number, not 'inf'"
        > level inc=1
        < error message="level moves= and inc= need time="
        > ping
        < pong
    """)
    assert hub.server.level == draughts.Limit(depth=4, movetime=1.0)


INFO = re.compile(
    r'info depth=\d+ score=-?\d+\.\d\d nodes=\d+ time=\d+\.\d{3} nps=\d+\.\d\d( pv=("[0-9x\- ]+"|[0-9x\-]+))?'
)


def test_go_think_at_a_fixed_depth(hub):
    hub.send("set-param name=book value=none")  # a search, not the book's answer
    hub.send("init")
    assert hub.until("ready") == ['info egdb="international up to 4 pieces"', "ready"]
    hub.send("pos start", "level depth=4", "go think")
    lines = hub.until("done")
    infos, done = lines[:-1], lines[-1]
    assert [int(args_of(line)["depth"]) for line in infos] == [1, 2, 3, 4]
    for line in infos:
        assert INFO.fullmatch(line), line
    args = args_of(done)
    board = draughts.Board()
    move = board.parse_move(args["move"])
    assert move.hub() == args["move"]
    board.push(move)
    assert board.parse_move(args["ponder"]) in board.legal_moves
    assert args_of(infos[-1])["pv"].split()[:2] == [args["move"], args["ponder"]]
    hub.quiet()


def test_go_think_captures_in_hub_form(hub):
    hub.transcript("""
        > pos start moves="32-28 19-23"
        > level depth=2
        > go think
        <* info *
        < done move=28x19x23 *
    """)


def test_a_won_position_scores_in_scans_convention(hub):
    hub.send("pos fen=W:W28:B23", "level depth=3", "go think")
    lines = hub.until("done")
    assert args_of(lines[-2])["score"] == "99.99"  # the win is one ply away
    assert args_of(lines[-1])["move"] == "28x19x23"


def test_go_in_a_finished_position_is_an_error(hub):
    hub.transcript("""
        > pos fen=W:W:B5
        > go think
        < error message="the game is over: no legal move in W:W:B5"
        > pos fen=W:W46:B41,37
        > go think
        < error message="the game is over: no legal move in *"
        > ping
        < pong
    """)


def test_ping_is_answered_during_a_search_and_stop_ends_it(hub):
    hub.send("pos start", "level infinite", "go think")
    hub.read()  # the first info: it is searching
    for _ in range(3):
        hub.send("ping")
        lines = hub.until("pong", timeout=2)
        assert all(parse_line(line)[0] == "info" for line in lines[:-1])
    hub.send("pos start")
    lines = hub.until("error")
    assert lines[-1] == 'error message="pos: busy with a think (send stop first)"'
    t0 = time.monotonic()
    hub.send("stop")
    done = hub.until("done", timeout=2)[-1]
    assert time.monotonic() - t0 < 1.0
    assert draughts.Board().parse_move(args_of(done)["move"]) is not None
    hub.send("stop")  # a late stop is ignored
    hub.transcript("""
        > ping
        < pong
    """)


def test_stop_right_after_go_is_never_lost(hub):
    hub.send("pos start", "level infinite")
    for _ in range(25):
        hub.send("go think", "stop")
        hub.until("done", timeout=3)
    hub.transcript("""
        > ping
        < pong
    """)


def test_time_controls_answer_in_time(hub):
    for level, limit in [("move-time=0.2", 0.2), ("time=0.5 inc=0.1", 0.6), ("moves=5 time=0.5", 0.5)]:
        hub.send("pos start", f"level {level}")
        t0 = time.monotonic()
        hub.send("go think")
        hub.until("done", timeout=5)
        assert time.monotonic() - t0 < limit + 1.0, level


@pytest.mark.parametrize("level", ["move-time=5", "time=600 inc=5", "moves=40 time=600"])
def test_a_forced_move_is_answered_at_once(hub, level):
    # one legal move (the capture 28x19) in a full board with seconds or
    # minutes on the clock: the answer comes before any search could run
    board = draughts.Board()
    for text in ("32-28", "19-23"):
        board.push(board.parse_move(text))
    assert [m.hub() for m in board.legal_moves] == ["28x19x23"]
    hub.send("init")
    assert hub.until("ready") == ['info egdb="international up to 4 pieces"', "ready"]  # the table is there
    hub.send('pos start moves="32-28 19-23"', f"level {level}", "ping")
    hub.until("pong")
    t0 = time.monotonic()
    hub.send("go think")
    done = hub.until("done", timeout=10)[-1]
    assert time.monotonic() - t0 < 0.25, level
    assert args_of(done)["move"] == "28x19x23"


def test_a_forced_move_still_waits_for_stop_when_infinite(hub):
    hub.send('pos start moves="32-28 19-23"', "level infinite", "go think")
    time.sleep(0.3)
    hub.send("ping")
    assert parse_line(hub.until("pong", timeout=2)[-1])[0] == "pong"  # no done before the stop
    hub.send("stop")
    assert args_of(hub.until("done", timeout=2)[-1])["move"] == "28x19x23"


def test_analyze_waits_for_stop(hub):
    hub.send("pos fen=W:WK46:BK5", "level depth=1", "go analyze")  # ends its search at once
    time.sleep(0.3)
    lines = []
    while not hub.out.empty():
        lines.append(hub.read())
    assert lines and all(parse_line(line)[0] == "info" for line in lines)
    hub.send("stop")
    assert args_of(hub.until("done")[-1])["move"]


def test_ponder_then_ponder_hit_starts_the_clock(hub):
    hub.send('pos start moves="32-28"', "level move-time=0.3", "go ponder")
    time.sleep(0.4)  # longer than the move time: no answer yet
    while not hub.out.empty():
        assert parse_line(hub.read())[0] == "info"
    t0 = time.monotonic()
    hub.send("ponder-hit")
    done = hub.until("done", timeout=3)[-1]
    assert 0.2 < time.monotonic() - t0 < 2.0
    board = draughts.Board()
    board.push_text("32-28")
    assert board.parse_move(args_of(done)["move"]) is not None


def test_ponder_at_a_depth_answers_at_ponder_hit(hub):
    hub.send('pos start moves="32-28"', "level depth=2", "go ponder")
    time.sleep(0.2)
    while not hub.out.empty():
        assert parse_line(hub.read())[0] == "info"
    hub.send("ponder-hit")
    hub.until("done", timeout=2)


def test_stop_ends_a_ponder(hub):
    hub.transcript("""
        > pos start moves="32-28"
        > level time=100
        > go ponder
        > stop
        <* info *
        < done move=*
        > ponder-hit
        < error message="ponder-hit without a go ponder"
    """)


def test_new_game_and_quit(hub):
    hub.send("init", "new-game", "pos start", "level infinite", "go think")
    hub.until("ready")
    assert hub.server.handle_line("quit") is False
    assert hub.server.closed
    assert hub.server.handle_line("ping") is False
    hub.close()
    lines = []
    while not hub.out.empty():
        lines.append(parse_line(hub.out.get())[0])
    assert lines[-1] == "done" and set(lines) <= {"info", "done"}  # the stopped search answers
    hub.server.handle_line("ping")
    assert hub.out.empty()


def test_a_failing_search_still_answers_done(hub, monkeypatch):
    hub.send("init")
    assert hub.until("ready") == ['info egdb="international up to 4 pieces"', "ready"]

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(hub.server.engine(), "analyse", broken)
    hub.transcript("""
        > pos start
        > level depth=2
        > go think
        < error message="think failed: RuntimeError: boom"
        < done move=*
        > ping
        < pong
    """)
    assert "RuntimeError: boom" in "".join(hub.log)  # the traceback goes to the log (stderr)


# --- extensions ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant,depth", [("international", 3), ("russian", 4), ("italian", 4)])
def test_perft_matches_the_board(hub, variant, depth):
    board = draughts.Board(variant=variant)
    hub.send(f"set-param name=variant value={variant}", "pos start", f"perft depth={depth}")
    line = hub.read()
    assert re.fullmatch(rf"perft depth={depth} nodes={board.perft(depth)} time=\d+\.\d{{3}}", line)
    counts = divide(hub, depth)
    assert counts == {m.hub(): n for m, n in board.divide(depth)}


def test_perft_errors(hub):
    hub.transcript("""
        > perft
        < error message="perft depth= takes a whole number from 0 to 64, not ''"
        > perft depth=-1
        < error message="perft depth= takes a whole number from 0 to 64, not '-1'"
        > perft depth=65
        < error message="perft depth= takes a whole number from 0 to 64, not '65'"
        > perft depth=٣
        < error message="perft depth= takes a whole number from 0 to 64, not '٣'"
        > perft depth=1 duplicates=maybe
        < error message="perft duplicates= takes drop or keep, not 'maybe'"
        > perft depth=0
        < perft depth=0 nodes=1 time=*
    """)


def test_bench(hub):
    nodes, _ = bench.run(2)
    hub.send("bench depth=2")
    line = hub.until("bench", timeout=20)[-1]
    assert re.fullmatch(rf"bench nodes={nodes} time=\d+\.\d{{3}} nps=\d+\.\d\d", line)
    hub.transcript("""
        > bench depth=0
        < error message="bench depth= takes a whole number from 1 to 64, not '0'"
    """)


# --- bad input -----------------------------------------------------------------------------


def test_bad_lines_are_errors_and_the_engine_keeps_running(hub):
    hub.transcript("""
        > hello
        < error message="unknown command 'hello'"
        > pos pos="unterminated
        < error message="cannot read the line: the value of pos has no closing quote"
        > =
        < error message="cannot read the line: a value with no name at column 1"
        > go=think
        < error message="cannot read the line: a line starts with a command word, not go=..."
        > go think analyze
        < error message="go takes one of think, ponder or analyze, not 'think' and 'analyze'"
        > ponder-hit
        < error message="ponder-hit without a go ponder"
        > stop
        >
        > ping extra=ignored
        < pong
    """)


def test_a_hub_perft_stops_when_told_and_the_engine_goes_on():
    session = ServerSession()
    try:
        session.send("perft depth=13")
        time.sleep(0.2)
        t0 = time.monotonic()
        session.send("stop")
        line = session.until("perft", timeout=10)[-1]
        assert time.monotonic() - t0 < 5
        assert line.startswith("perft depth=13 interrupted")
        session.transcript("""
            > perft depth=2
            < perft depth=2 nodes=81 time=*
        """)
        session.send("bench depth=30")
        time.sleep(0.2)
        session.send("stop")
        assert session.until("bench", timeout=10)[-1].startswith("bench interrupted")
        session.send("level depth=2", "go think")
        assert session.until("done", timeout=10)[-1].startswith("done move=")
    finally:
        session.close()


def test_quit_ends_a_long_perft_at_once():
    # nothing is read from the hub: its output goes nowhere, and `with` closes its stdin
    with subprocess.Popen(
        [sys.executable, "-m", "draughts", "hub"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as proc:
        try:
            proc.stdin.write("perft depth=14\n")
            proc.stdin.flush()
            time.sleep(0.3)
            t0 = time.monotonic()
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            assert proc.wait(10) == 0
            assert time.monotonic() - t0 < 5
        finally:
            if proc.poll() is None:
                proc.kill()


def test_hub_pos_with_a_man_on_its_far_row_is_an_error():
    session = ServerSession()
    try:
        # american: a white man on square 2 (the top row, where White is crowned)
        session.send("set-param name=variant value=american", "pos pos=Bewe" + "e" * 29)
        line = session.until("error")[-1]
        assert "White man on square 2" in line
        session.transcript("""
            > pos start
            > ping
            < pong
        """)
    finally:
        session.close()


def test_a_hub_error_quotes_a_short_prefix_of_a_long_line():
    session = ServerSession()
    try:
        for line in (
            "x" * 1_000_000,
            "set-param name=variant value=" + "y" * 100_000,
            "level depth=" + "9" * 50_000,
            "pos pos=" + "w" * 100_000,
        ):
            session.send(line)
            reply = session.until("error", timeout=10)[-1]
            assert len(reply) < 300, reply[:400]
        session.transcript("""
            > ping
            < pong
        """)
    finally:
        session.close()


def test_pos_plays_only_the_new_moves_of_the_same_game_and_keeps_its_history():
    import random

    session = ServerSession()
    try:
        session.send("set-param name=variant value=american")
        board = draughts.Board(variant="american")
        rng = random.Random(7)
        texts = []
        for _ in range(40):
            if board.is_game_over():
                break
            move = rng.choice(sorted(board.legal_moves, key=lambda m: m.hub()))
            board.push(move)
            texts.append(move.hub())
            session.send(f'pos start moves="{" ".join(texts)}"')
            # the server's board is the same game, history and all (repetitions count)
            assert session.server.board.fen() == board.fen()
            assert session.server.board.move_stack == board.move_stack
        first = session.server.board
        # another game from the same start: replayed from the start, not on top
        session.send('pos start moves="9-14"')
        assert session.server.board is not first
        assert [m.hub() for m in session.server.board.move_stack] == ["9-14"]
        # a rejected pos keeps the last position, and the next good one is read whole
        kept = session.server.board
        session.send('pos start moves="9-14 1-2"')
        assert session.until("error")[-1].startswith('error message="move 2 of moves')
        assert session.server.board is kept
        assert [m.hub() for m in kept.move_stack] == ["9-14"]
        session.send('pos start moves="9-14 22-18"')
        assert [m.hub() for m in session.server.board.move_stack] == ["9-14", "22-18"]
    finally:
        session.close()

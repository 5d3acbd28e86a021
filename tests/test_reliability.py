"""Matches without time losses, and the faults every tool must survive.

Each test here failed before its fix: the runner waits for an engine's
new-game before its clock starts, the engine keeps its move overhead and
counts from the moment it read `go`, perft and bench stop when told, every
number is checked (finite, in range, ASCII digits), and a misbehaving engine
loses with a label that names what it did.
"""

import io
import json
import math
import os
import subprocess
import sys
import time

import pytest

import draughts
from draughts import pdn
from draughts.engine import DEFAULT_MOVE_OVERHEAD, STALL_FACTOR, Engine
from draughts.errors import DraughtsError
from draughts.hub.protocol import parse_line
from draughts.limits import Limit
from draughts.match import cli, stats
from draughts.match.runner import Console, Match, latency_figures
from hub_scripts.transcript import ServerSession

GOOD = ["-engine", "name=good", "cmd=draughts", "arg=hub", "depth=2"]


def run_match(argv):
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match, match.run(), out.getvalue()


def scripted(mode, *extra):
    return ["-engine", "name=bad", f"cmd={sys.executable}", "arg=-m", "arg=draughts.hub.testing", f"arg={mode}", *extra]


# --- the runner waits for the engine before it starts a clock ------------------------

def test_an_engine_slow_to_clear_its_table_does_not_lose_its_first_move(tmp_path):
    # the scripted engine takes 0.5 s over every new-game; its moves are instant.
    # Without a ping after new-game the runner's clock ran during the clear and
    # st=0.1 (no time margin) lost every first move on time.
    match, result, out = run_match(scripted("slowclear", "st=0.1") + GOOD +
                                   ["-variant", "american", "-games", "2", "-maxmoves", "6"])
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination != "time forfeit", rec.reason
        assert len(rec.moves) > 2


def test_the_client_pings_after_new_game():
    from draughts.hub import HubEngine
    from draughts.hub.client import MemoryTransport

    sent = []

    def handler(line):
        sent.append(line)
        command, _ = parse_line(line)
        if command == "hub":
            transport.emit("id name=t")
            transport.emit("wait")
        elif command == "init":
            transport.emit("ready")
        elif command == "ping":
            transport.emit("pong")

    transport = MemoryTransport(handler)
    with HubEngine.from_transport(transport) as engine:
        engine.new_game()
        assert sent[-2:] == ["new-game", "ping"]


# --- latency ---------------------------------------------------------------------

def test_show_latency_prints_and_the_json_keeps_the_figures(tmp_path):
    json_path = tmp_path / "m.json"
    match, result, out = run_match(["-engine", "name=a", "cmd=draughts", "arg=hub", "depth=2",
                                    "-engine", "name=b", "cmd=draughts", "arg=hub", "depth=2",
                                    "-variant", "russian", "-games", "2", "-maxmoves", "10",
                                    "-show-latency", "-jsonout", str(json_path)])
    assert result.complete
    lines = out.splitlines()
    per_game = [l for l in lines if l.startswith("Latency of ")]
    # two lines after each game, two at the end
    assert len(per_game) == 6
    assert lines.index("Finished match") == len(lines) - 1 and lines[-2].startswith("Latency of b:")
    data = json.loads(json_path.read_text())
    plies = sum(len(r.moves) for r in result.records)
    assert sum(v["moves"] for v in data["latency"].values()) == plies
    for v in data["latency"].values():
        assert 0 <= v["median_ms"] <= v["p99_ms"] <= v["max_ms"] < 5000


def test_latency_figures():
    f = latency_figures([5.0, 1.0, 2.0, 4.0, 3.0])
    assert f == {"moves": 5, "mean_ms": 3.0, "median_ms": 3.0, "p99_ms": 5.0, "max_ms": 5.0}
    assert latency_figures([])["moves"] == 0


# --- the engine's time management ------------------------------------------------------

@pytest.mark.parametrize("time_left,inc,mtg", [(60.0, 0.0, None), (1.0, 0.01, None), (0.05, 0.01, None),
                                               (0.0, 0.01, None), (0.001, 0.0, None), (10.0, 1.0, 1),
                                               (5.0, 0.0, 40), (0.3, 0.1, 2)])
@pytest.mark.parametrize("overhead", [0.0, 0.02, 0.1])
def test_the_budget_never_plans_past_the_clock(time_left, inc, mtg, overhead):
    soft, hard = Engine.time_budget(time_left, inc, mtg, overhead)
    assert 0 < soft <= hard
    available = time_left + inc
    if available - overhead > 0.002:
        assert hard + overhead <= available        # the overhead is kept back
    else:
        assert hard <= 0.001                       # nothing left: depth 1 at once


def test_a_move_time_keeps_the_overhead_back():
    engine = Engine("american", tt_mb=1, move_overhead=0.015)
    assert engine.move_budget(Limit(movetime=0.05)) == pytest.approx((0.035, 0.035))
    assert engine.move_budget(Limit(movetime=0.01))[1] == 0.001      # less than the overhead: at once
    engine.configure({"move-overhead": 0})
    assert engine.move_budget(Limit(movetime=0.02)) == (0.02, 0.02)
    with pytest.raises(DraughtsError, match="move-overhead"):
        engine.configure({"move-overhead": float("nan")})
    assert Engine("american", tt_mb=1).move_overhead == DEFAULT_MOVE_OVERHEAD


def test_a_late_answer_is_kept_back_from_the_next_moves():
    # a search held up past its hard limit (here by its own info callback,
    # as a busy machine would hold up the process) makes the engine keep
    # that much more back from the next timed moves, less and less after
    engine = Engine("international", tt_mb=1, move_overhead=0.01)
    assert engine.lateness == 0.0
    held = []

    def hold_up(info):
        if not held:
            held.append(info)
            time.sleep(0.15)

    engine.play(draughts.Board(), draughts.Limit(movetime=0.1), on_info=hold_up)
    late = engine.lateness
    assert 0.05 <= late <= 0.5
    soft, hard = engine.move_budget(Limit(movetime=1.0))
    assert hard == pytest.approx(1.0 - 0.01 - late - STALL_FACTOR * engine.stall)
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))          # on time: the mark decays
    assert engine.lateness == pytest.approx(late * 0.9, rel=0.2)
    engine.play(draughts.Board(), draughts.Limit(depth=2))                 # untimed searches leave it alone
    assert engine.lateness == pytest.approx(late * 0.9, rel=0.2)


def test_a_stall_inside_the_search_is_kept_back_twice_from_the_next_moves():
    # the search thread held up between two clock readings (its info
    # callback sleeping, as a busy machine would deschedule it): the engine
    # keeps twice that wait back from later timed moves, for the two waits
    # it cannot see (its reader on `go`, the caller's on the answer)
    engine = Engine("international", tt_mb=1, move_overhead=0.01)
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))
    quiet = engine.stall
    assert quiet < 0.1                              # a plain search reads its clock often
    held = []

    def hold_up(info):
        if not held:
            held.append(info)
            time.sleep(0.12)

    engine.play(draughts.Board(), draughts.Limit(movetime=0.3), on_info=hold_up)
    stall = engine.stall
    assert 0.12 <= stall <= 0.5
    soft, hard = engine.move_budget(Limit(movetime=1.0))
    assert hard == pytest.approx(1.0 - 0.01 - engine.lateness - STALL_FACTOR * stall)
    engine.play(draughts.Board(), draughts.Limit(depth=2))                 # untimed: the mark stays
    assert engine.stall == stall
    engine.play(draughts.Board(), draughts.Limit(movetime=0.05))          # timed, no stall: it decays
    assert engine.stall == pytest.approx(stall * 0.9, rel=0.05)


def test_the_search_counts_from_the_moment_its_clock_started():
    engine = Engine("international", tt_mb=1, move_overhead=0)
    board = draughts.Board()
    started = engine.clock() - 0.45               # the clock started 0.45 s ago
    result = engine.play(board, draughts.Limit(movetime=0.5), start=started)
    assert result.move is not None
    # the reported time includes the 0.45 s before the call, and the search
    # stopped near the deadline rather than 0.5 s after the call
    assert result.info.time >= 0.45
    assert engine.clock() - started < 0.5 + 2.0


def test_move_overhead_is_a_hub_parameter():
    session = ServerSession()
    try:
        session.transcript("""
            > set-param name=move-overhead value=35
            > init
            < ready
            > set-param name=move-overhead value=-1
            < error message="move-overhead takes a whole number from 0 to 5000, not '-1'"
            > set-param name=move-overhead value=x
            < error message="move-overhead takes a whole number from 0 to 5000, not 'x'"
        """)
        assert session.server.engine().move_overhead == pytest.approx(0.035)
        session.transcript("""
            > set-param name=move-overhead value=5
            > ping
            < pong
        """)
        assert session.server.engine().move_overhead == pytest.approx(0.005)
    finally:
        session.close()


def test_a_stopped_search_reports_its_whole_time_before_done():
    session = ServerSession()
    try:
        session.send("set-param name=move-overhead value=0", "level move-time=0.2", "go think")
        lines = session.until("done", timeout=10)
        infos = [parse_line(l)[1] for l in lines if l.startswith("info")]
        # the last info carries the time of the whole search, stopped iteration included
        assert float(infos[-1]["time"]) >= 0.15
    finally:
        session.close()


# --- perft and bench stop -------------------------------------------------------------

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
    proc = subprocess.Popen([sys.executable, "-m", "draughts", "hub"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write("perft depth=14\n")
    proc.stdin.flush()
    time.sleep(0.3)
    t0 = time.monotonic()
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    assert proc.wait(10) == 0
    assert time.monotonic() - t0 < 5


def test_board_perft_takes_a_stop_flag():
    from draughts_core.perft import StopFlag
    board = draughts.Board()
    flag = StopFlag()
    assert board.perft(3, stop=flag) == 658         # the published international perft(3)
    flag.set()
    with pytest.raises(draughts.errors.PerftStopped):
        board.perft(12, stop=flag)
    with pytest.raises(draughts.errors.PerftStopped):
        board.divide(12, stop=flag)


# --- numbers: finite, in range, ASCII ---------------------------------------------------

@pytest.mark.parametrize("kwargs", [{"time": math.nan}, {"time": 1.0, "inc": math.nan},
                                    {"movetime": math.inf}, {"movetime": -1.0}, {"nodes": 2 ** 64},
                                    {"depth": 2 ** 31}, {"depth": 0}, {"nodes": True},
                                    {"moves_to_go": 2 ** 40}, {"start": math.nan}])
def test_search_rejects_bad_limits_with_a_draughts_error(kwargs):
    engine = Engine("american", tt_mb=1)
    with pytest.raises(DraughtsError):
        if "start" in kwargs:
            engine.play(draughts.Board(variant="american"), draughts.Limit(depth=1), **kwargs)
        else:
            engine.play(draughts.Board(variant="american"), draughts.Limit(**kwargs))


@pytest.mark.parametrize("depth", [2 ** 31, 2 ** 64, 65, -1, 2.0, True])
def test_perft_depths_out_of_range_are_draughts_errors(depth):
    with pytest.raises(DraughtsError, match="from 0 to 64"):
        draughts.Board().perft(depth)


def test_one_perft_depth_limit_on_the_command_line():
    for extra in ([], ["--threads", "2"], ["--hash-mb", "1"]):
        for depth in ("65", "200"):
            run = subprocess.run([sys.executable, "-m", "draughts", "perft", "--depth", depth, *extra],
                                 capture_output=True, text=True, timeout=60)
            assert run.returncode != 0
            assert f"from 0 to 64, not {depth}" in run.stderr, run.stderr


def test_a_table_that_cannot_be_had_is_a_draughts_error_and_the_old_one_stays():
    # a real allocation failure, under an address-space limit, in a child process
    code = """
import resource, draughts
from draughts.errors import DraughtsError, TableMemoryError
engine = draughts.Engine("american", tt_mb=16)
resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))
try:
    engine.configure({"tt-size": 4000})
except TableMemoryError as e:
    assert isinstance(e, DraughtsError) and isinstance(e, ValueError), type(e)
    assert "4000 MiB" in str(e) and "keeping the 16 MiB" in str(e), str(e)
assert engine.tt_mb == 16
assert engine.play(draughts.Board(variant="american"), draughts.Limit(depth=3)).move is not None
try:
    draughts.Engine("american", tt_mb=4000)
except TableMemoryError as e:
    print("ok", e)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("ok cannot allocate a 4000 MiB")


@pytest.mark.parametrize("text", ["٣٢-٢٨", "３２-２８", "32-٢٨"])
def test_move_text_takes_ascii_digits_only(text):
    board = draughts.Board()
    assert board.parse_move("32-28") in board.legal_moves
    with pytest.raises(draughts.InvalidMoveError):
        board.parse_move(text)


def test_numbers_elsewhere_take_ascii_digits_only():
    from draughts._args import parse_int, parse_real
    from draughts.match.timecontrol import parse_tc
    for bad in ("٣", "1_000", "nan", "inf", "", " "):
        with pytest.raises(ValueError):
            parse_real(bad)
        with pytest.raises(ValueError):
            parse_int(bad)
    with pytest.raises(DraughtsError):
        parse_tc("٤٠/60")
    with pytest.raises(DraughtsError):
        cli.settings_from_options(cli.split_options(GOOD + GOOD + ["-games", "٣"]))
    session = ServerSession()
    try:
        session.transcript("""
            > set-param name=tt-size value=٣٢
            < error message="tt-size takes a whole number from 1 to 65536, not '٣٢'"
            > level move-time=٣
            < error message="level move-time= takes a number, not '٣'"
            > pos start moves="٣٢-٢٨"
            < error message="move 1 of moves: '٣٢-٢٨' is not a Hub move (32-28, or 28x19x23: start x end x captured)"
        """)
    finally:
        session.close()


# --- positions ------------------------------------------------------------------------

@pytest.mark.parametrize("fen,variant,square", [("W:W3:B29", "american", "3"), ("W:W3:B29", "american", "3"),
                                                ("B:W30:B47", "international", "47"),
                                                ("W:Wc3:Bd2,e1", "russian", "e1")])
def test_a_man_on_the_row_where_it_is_crowned_is_no_position(fen, variant, square):
    with pytest.raises(draughts.FenError, match=f"on square {square}, on the row where it is crowned"):
        draughts.Board(fen, variant=variant)


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


# --- bad input is quoted, never echoed whole ---------------------------------------------

def test_a_hub_error_quotes_a_short_prefix_of_a_long_line():
    session = ServerSession()
    try:
        for line in ("x" * 1_000_000, "set-param name=variant value=" + "y" * 100_000,
                     "level depth=" + "9" * 50_000, "pos pos=" + "w" * 100_000):
            session.send(line)
            reply = session.until("error", timeout=10)[-1]
            assert len(reply) < 300, reply[:400]
        session.transcript("""
            > ping
            < pong
        """)
    finally:
        session.close()


# --- engines that misbehave are named for what they did -----------------------------------

def test_an_engine_that_floods_info_lines_loses_on_time_not_as_stalled(tmp_path):
    pdn_path = tmp_path / "g.pdn"
    match, result, out = run_match(scripted("flood", "st=0.2") + GOOD +
                                   ["-variant", "american", "-games", "2", "-pdnout", str(pdn_path)])
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination == "time forfeit", rec.reason
        assert "loses on time (it sent" in rec.reason and "lines but no move" in rec.reason
        assert rec.winner == 1
    assert [g.headers["Termination"] for g in pdn.read_games(pdn_path.read_text())] == ["time forfeit"] * 2


def test_a_done_without_a_move_is_named_so(tmp_path):
    match, result, out = run_match(scripted("emptydone", "depth=1") + GOOD +
                                   ["-variant", "american", "-games", "2"])
    for rec in result.records:
        assert rec.termination == "illegal move"
        assert rec.reason.endswith("sends no move (a done without a move)"), rec.reason
        assert "illegal move: done" not in rec.reason


def test_elo_margin_is_finite_or_left_out():
    points = [1.0] * 8 + [0.0] + [0.5]
    s = stats.summarise(points, [])
    lines = stats.report_lines("a", "b", s)
    assert "nan" not in " ".join(lines)
    assert lines[1].startswith("Elo difference: 301.") and "+/-" not in lines[1]
    s = stats.summarise([1.0, 0.0, 0.5, 1.0, 0.0, 1.0], [])
    assert "+/- " in stats.report_lines("a", "b", s)[1]


# --- Ray: a wrong address and a head that dies ------------------------------------------

@pytest.mark.parametrize("argv", [["perft", "--variant", "american", "--depth", "5", "--cluster", "127.0.0.1:1"],
                                  ["match", "-cluster", "127.0.0.1:1", "-variant", "american", "-games", "2"]
                                  + GOOD + GOOD])
def test_a_cluster_address_where_nothing_listens_is_an_error_at_once(argv):
    t0 = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "draughts", *argv], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode != 0
    assert "cannot connect to the Ray cluster at '127.0.0.1:1'" in run.stderr, run.stderr[-2000:]
    assert time.monotonic() - t0 < 30


def _wait_for(predicate, timeout, what):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.1)


def test_perft_on_a_cluster_whose_head_dies_keeps_its_checkpoint_and_resumes(tmp_path):
    from conftest import ray_head

    cp = tmp_path / "cp.json"
    base = [sys.executable, "-m", "draughts", "perft", "--variant", "international", "--depth", "10",
            "--progress", "off"]

    def done():
        try:
            return len(json.loads(cp.read_text())["done"])
        except (OSError, ValueError, KeyError):
            return 0

    with ray_head(num_cpus=1) as (address, kill):
        run = subprocess.Popen(base + ["--cluster", address, "--checkpoint", str(cp)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: done() >= 1 or run.poll() is not None, 180, "a finished subtree")
        kill()
        out, err = run.communicate(timeout=90)
    assert run.returncode != 0, out
    assert "lost the Ray cluster" in err or "failed on the Ray cluster" in err, err[-3000:]
    assert f"--resume {cp}" in err
    kept = done()
    assert 1 <= kept < 9                                   # 9 subtrees, one per root move
    resumed = subprocess.run(base + ["--resume", str(cp), "--threads", "2", "--hash-mb", "64"],
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    # DCTL's international perft(10), duplicates merged
    assert "perft depth=10 nodes=258895763 " in resumed.stdout


def test_a_match_on_a_cluster_whose_head_dies_keeps_its_games_and_resumes(tmp_path):
    from conftest import ray_head

    state = tmp_path / "state.json"
    # enough games that the head dies while most are still to play (a game at
    # depth 2 takes a few tenths of a second on an idle machine, the head plays
    # one at a time)
    n = 16
    argv = [sys.executable, "-m", "draughts", "match", "-variant", "american", "-games", str(n),
            "-engine", "name=a", "cmd=draughts", "arg=hub", "depth=2",
            "-engine", "name=b", "cmd=draughts", "arg=hub", "depth=2", "-progress", "off"]

    def games():
        try:
            return len(json.loads(state.read_text())["records"])
        except (OSError, ValueError, KeyError):
            return 0

    with ray_head(num_cpus=1) as (address, kill):
        run = subprocess.Popen(argv + ["-cluster", address, "-state", str(state)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        _wait_for(lambda: games() >= 1 or run.poll() is not None, 180, "a finished game")
        kill()
        out, err = run.communicate(timeout=90)
    assert run.returncode != 0
    assert "lost the Ray cluster" in err, err[-3000:]
    assert f"-resume {state}" in err
    kept = games()
    assert 1 <= kept < n
    resumed = subprocess.run([sys.executable, "-m", "draughts", "match", "-resume", str(state),
                              "-cluster", "none", "-progress", "off"],
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    saved = json.loads(state.read_text())
    assert saved["complete"] and sorted(r["index"] for r in saved["records"]) == list(range(n))


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
        # a rejected pos leaves no position, and the next good one is read whole
        session.send('pos start moves="9-14 1-2"')
        assert session.until("error")[-1].startswith('error message="move 2 of moves')
        assert session.server.board is None
        session.send('pos start moves="9-14 22-18"')
        assert [m.hub() for m in session.server.board.move_stack] == ["9-14", "22-18"]
    finally:
        session.close()


# --- affinity: a processor for each game at once -------------------------------------

def _executor(argv):
    from draughts.match.executors import LocalExecutor
    settings = cli.settings_from_options(cli.split_options(GOOD + GOOD + argv))
    return LocalExecutor(settings, draughts.variant("american"))


def test_games_at_once_get_a_processor_each_by_default():
    cpus = sorted(os.sched_getaffinity(0))
    executor = _executor(["-concurrency", "2"])
    try:
        if len(cpus) >= 2:
            slots = [executor._cpu_slots.get() for _ in range(2)]
            assert slots == [{cpus[0]}, {cpus[1]}]
        else:
            assert executor._cpu_slots is None          # not more games than processors
    finally:
        executor.close()
    for argv in (["-concurrency", "2", "-no-affinity"], ["-concurrency", "1"]):
        executor = _executor(argv)
        assert executor._cpu_slots is None
        executor.close()
    executor = _executor(["-concurrency", "1", "-use-affinity"])
    assert executor._cpu_slots.get() == {cpus[0]}
    executor.close()


def test_pin_process_keeps_a_process_and_its_threads_on_the_processors():
    from draughts.match.executors import pin_process
    cpu = sorted(os.sched_getaffinity(0))[-1]
    child = subprocess.Popen([sys.executable, "-c", "import threading, time\n"
                              "t = threading.Thread(target=time.sleep, args=(20,)); t.start(); t.join()"])
    try:
        time.sleep(0.5)
        assert pin_process(child.pid, {cpu})
        for tid in os.listdir(f"/proc/{child.pid}/task"):
            assert os.sched_getaffinity(int(tid)) == {cpu}
    finally:
        child.kill()
        child.wait()


def test_a_match_at_once_pins_each_games_engines(tmp_path):
    # the engines of a finished match are closed, so look while it runs: a
    # player that records its process's affinity at its first move
    from draughts.match import executors
    seen = []
    original = executors.run_job

    def spy(job, pool, rules, cpus=None):
        seen.append(cpus)
        return original(job, pool, rules, cpus)

    executors.run_job = spy
    try:
        match, result, out = run_match(GOOD + GOOD + ["-variant", "american", "-games", "4",
                                                      "-concurrency", "2", "-maxmoves", "4"])
    finally:
        executors.run_job = original
    assert result.complete
    if len(os.sched_getaffinity(0)) >= 2:
        assert len(seen) == 4 and all(c is not None and len(c) == 1 for c in seen)

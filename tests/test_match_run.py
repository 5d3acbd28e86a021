"""Real matches of our engine against a weaker setting of itself: output
lines, PDN that replays legally with the recorded results, JSON, the SPRT
stop, and resuming after the runner is killed."""

import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import draughts
from draughts import pdn
from draughts.match import cli
from draughts.match.console import progress_text
from draughts.match.runner import Console, Match, latency_figures

MATCH = [sys.executable, "-m", "draughts", "match"]
COMMENT = re.compile(r"[+-]\d+\.\d\d/\d+ \d+\.\d\ds\Z")
FINISHED = re.compile(r"Finished game (\d+) \((\S+) vs (\S+)\): (1-0|0-1|1/2-1/2) \{(.+)\}\Z")


def check_pdn_games(text, variant_name, expected):
    games = list(pdn.read_games(text))  # our parser checks every move
    assert len(games) == expected
    v = draughts.variant(variant_name)
    for g in games:
        assert g.variant == v
        assert g.headers["GameType"] == v.pdn_gametype
        for tag in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination", "TimeControl"):
            assert g.headers.get(tag), tag
        end = g.end()  # replays legally
        if g.headers["Termination"] == "normal":
            assert end.outcome() is not None and end.result() == g.result
        else:
            assert g.result in v.result_tokens
        book = 3 if variant_name == "american" else 0
        for ply in range(book, len(g.moves)):
            assert COMMENT.match(g.comments[ply]), g.comments[ply]
    return games


def test_a_short_match_of_our_engine_against_a_weaker_self(tmp_path):
    pdn_path, json_path = tmp_path / "games.pdn", tmp_path / "match.json"
    run = subprocess.run(
        MATCH
        + [
            "-variant",
            "american",
            "-games",
            "4",
            "-repeat",
            "-engine",
            "name=full",
            "cmd=draughts",
            "arg=hub",
            "depth=5",
            "-engine",
            "name=weak",
            "cmd=draughts",
            "arg=hub",
            "depth=5",
            "option.level=6",
            "-openings",
            "file=acf-3move",
            "order=random",
            "-srand",
            "42",
            "-pdnout",
            str(pdn_path),
            "-jsonout",
            str(json_path),
            "-ratinginterval",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    started = [l for l in lines if l.startswith("Started game")]
    finished = [FINISHED.match(l) for l in lines if l.startswith("Finished game")]
    assert started[0] == "Started game 1 of 4 (full vs weak)"
    assert all(finished) and len(finished) == 4
    assert re.match(r"Score of full vs weak: \d+ - \d+ - \d+  \[\d\.\d{3}\] 4\Z", lines[-4])
    # the margin is left out when it has no finite width (a 6-0 score, say)
    assert re.match(r"Elo difference: \S+(?: \+/- \d+\.\d\d)?, LOS: \d+\.\d %, DrawRatio: \d+\.\d %\Z", lines[-3])
    assert lines[-2].startswith("Ptnml(0-2): [")
    assert lines[-1] == "Finished match"
    games = check_pdn_games(pdn_path.read_text(), "american", 4)
    summary = json.loads(json_path.read_text())
    s = summary["summary"]
    # the totals agree with the PDN results (full's side: 1-0 is a Black win)
    wins = sum(
        1
        for g in games
        if (g.result == "1-0" and g.headers["Black"] == "full") or (g.result == "0-1" and g.headers["White"] == "full")
    )
    draws = sum(1 for g in games if g.result == "1/2-1/2")
    assert (s["wins"], s["draws"], s["losses"]) == (wins, draws, 4 - wins - draws)
    assert s["pairs"] == 2 and sum(s["pentanomial"]) == 2
    # the openings: a pair plays one ballot with colours swapped
    for a, b in zip(games[::2], games[1::2]):
        assert a.headers["Opening"] == b.headers["Opening"]
        assert a.moves[:3] == b.moves[:3]
        assert (a.headers["White"], a.headers["Black"]) == (b.headers["Black"], b.headers["White"])
    for m, g in zip(finished, games):
        first = g.headers["Black"]  # american: Black moves first
        assert m.group(2) == first
        assert {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2"}[m.group(4)] == g.result


def test_the_built_in_pairing_needs_no_engine(tmp_path):
    run = subprocess.run(
        MATCH + ["-variant", "american", "-games", "2", "-concurrency", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "Started game 1 of 2 (draughts vs draughts-level10)" in run.stdout
    assert "Score of draughts vs draughts-level10: " in run.stdout
    assert run.stdout.rstrip().endswith("Finished match")


def test_sprt_stops_the_match_with_a_verdict(tmp_path):
    out = io.StringIO()
    settings = cli.settings_from_options(
        cli.split_options(
            [
                "-variant",
                "american",
                "-games",
                "200",
                "-repeat",
                "-engine",
                "name=strong",
                "proto=builtin",
                "depth=6",
                "-engine",
                "name=weak",
                "proto=builtin",
                "depth=1",
                "-sprt",
                "elo0=0",
                "elo1=300",
                "-openings",
                "file=acf-3move",
                "-state",
                str(tmp_path / "s.json"),
            ]
        )
    )
    result = Match(settings, console=Console(out, io.StringIO(), progress=False)).run()
    text = out.getvalue()
    assert len(result.records) < 200 and not result.complete
    assert result.stopped == "SPRT: H1 was accepted"
    sprt_line = [l for l in text.splitlines() if l.startswith("SPRT: llr ")][-1]
    assert sprt_line.endswith("- H1 was accepted")
    assert result.summary.sprt["llr"] >= result.summary.sprt["ubound"]
    # a resumed match that the SPRT has decided plays nothing more
    out2 = io.StringIO()
    cli.run_match(["-resume", str(tmp_path / "s.json"), "-progress", "off"], out=out2, err=io.StringIO())
    assert "Started game" not in out2.getvalue() and "H1 was accepted" in out2.getvalue()


def test_more_engines_print_a_ranking():
    out = io.StringIO()
    settings = cli.settings_from_options(
        cli.split_options(
            [
                "-variant",
                "russian",
                "-games",
                "2",
                "-each",
                "proto=builtin",
                "depth=3",
                "-engine",
                "name=a",
                "-engine",
                "name=b",
                "depth=1",
                "-engine",
                "name=c",
                "depth=2",
                "-tournament",
                "round-robin",
            ]
        )
    )
    result = Match(settings, console=Console(out, io.StringIO(), progress=False)).run()
    assert len(result.records) == 6
    lines = out.getvalue().splitlines()
    head = lines.index(next(l for l in lines if l.startswith("Rank Name")))
    assert [l.split()[1] for l in lines[head + 1 : head + 4]][0] in ("a", "b", "c")
    assert sum(int(l.split()[4]) for l in lines[head + 1 : head + 4]) == 12


def test_a_caller_that_plays_the_games_itself_records_them_with_the_public_methods(tmp_path):
    # as the GUI does: the schedule's games played by play_game, each handed to
    # game_finished, then report() prints what run() prints at the end
    from draughts.match.game import play_game
    from draughts.match.players import make_player

    out = io.StringIO()
    pdn_path = tmp_path / "games.pdn"
    settings = cli.settings_from_options(
        cli.split_options(
            [
                "-variant",
                "american",
                "-games",
                "2",
                "-repeat",
                "-ratinginterval",
                "0",
                "-pdnout",
                str(pdn_path),
                "-engine",
                "name=a",
                "proto=builtin",
                "depth=2",
                "-engine",
                "name=b",
                "proto=builtin",
                "depth=1",
            ]
        )
    )
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    players = [make_player(c, match.variant) for c in settings.engines]
    try:
        for job in match.schedule:
            pair = [players[job.first], players[job.second]]
            configs = [settings.engines[job.first], settings.engines[job.second]]
            record = play_game(job, pair, configs, match.variant, settings.rules)
            assert match.game_finished(job, record) is None  # nothing stops the match
    finally:
        for p in players:
            p.close()
    assert sorted(match.records) == [0, 1] and match.complete
    assert len(list(pdn.read_games(pdn_path.read_text()))) == 2
    lines = out.getvalue().splitlines()
    assert [FINISHED.match(l) is not None for l in lines if l.startswith("Finished game")] == [True, True]
    assert lines[-1].startswith("Score of a vs b: ") and lines[-1].endswith("] 2")
    match.report()
    after = out.getvalue().splitlines()[len(lines) :]
    assert after[0].startswith("Elo difference: ") and after[-1].startswith("Ptnml(0-2): [")


def test_progress_bar_shows_games_score_and_eta():
    text = progress_text(3.5, 5)
    assert text == "score 3.5/5 (70.0%)"
    out, err = io.StringIO(), io.StringIO()
    console = Console(out, err, progress=True)
    console.bar(5, 20, text)
    console.line("Finished game 1 (a vs b): 1-0 {x}")
    console.bar(6, 20, progress_text(4.5, 6))
    console.end_bar()
    assert out.getvalue() == "Finished game 1 (a vs b): 1-0 {x}\n"  # lines stay whole on stdout
    shown = err.getvalue()
    assert "5/20" in shown and "6/20" in shown and "score 4.5/6 (75.0%)" in shown
    assert "<" in shown  # tqdm's remaining-time estimate


def test_command_line_errors():
    with pytest.raises(draughts.DraughtsError, match="unknown option"):
        cli.split_options(["-gmaes", "3"])
    with pytest.raises(draughts.DraughtsError, match="one value"):
        cli.split_options(["-games", "3", "4"])
    with pytest.raises(draughts.DraughtsError, match="two -engine"):
        cli.settings_from_options(cli.split_options(["-engine", "cmd=x", "depth=1"]))
    with pytest.raises(draughts.DraughtsError, match="sprt"):
        cli.settings_from_options(cli.split_options(["-sprt", "elo0=5", "elo1=5"]))
    run = subprocess.run(MATCH + ["-games", "x"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "whole number" in run.stderr
    run = subprocess.run(MATCH + ["-help"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "-engine" in run.stdout and "-sprt" in run.stdout


def _help_default(option):
    """The figures in `draughts match -help`'s line for `option`: (default, with no -engine)."""
    text = " ".join(cli.MATCH_USAGE.split())
    m = re.search(rf"{option} [^(]*\(default (\d+); (\d+) with no -engine\)", text)
    assert m, f"{option} in: {cli.MATCH_USAGE}"
    return int(m.group(1)), int(m.group(2))


def test_the_help_gives_the_defaults_a_match_plays():
    two = ["-engine", "cmd=a", "depth=1", "-engine", "cmd=b", "depth=1"]
    default_match = cli.settings_from_options([])
    named = cli.settings_from_options(cli.split_options(two))
    assert (named.games, default_match.games) == (1, 20)
    assert _help_default("-games N") == (named.games, default_match.games)
    text = " ".join(cli.MATCH_USAGE.split())
    assert f"without -repeat: {named.repeat}, {default_match.repeat} with no -engine" in text
    assert f"-rounds N rounds (default {named.rounds})" in text
    repeat_n = cli.settings_from_options(cli.split_options(two + ["-repeat"])).repeat
    assert f"(N: default {repeat_n};" in text


@pytest.mark.parametrize("proto", ["hub", "hub1", "dxp", "builtin"])
def test_the_help_names_every_engine_protocol(proto):
    proto_list = re.search(r"\[proto=([a-z0-9|]+)\]", cli.MATCH_USAGE).group(1).split("|")
    assert proto in proto_list
    settings = ["cmd=x", f"proto={proto}", "depth=1"]
    assert cli.parse_engine(settings).proto == proto  # and the runner takes it


def test_resume_after_killing_the_runner(tmp_path):
    """The runner is killed mid-match; the resumed match ends with the same
    schedule and totals as an uninterrupted one (deterministic engines: one
    search thread each, not the processors the runner would give them)."""
    args = [
        "-variant",
        "american",
        "-games",
        "6",
        "-repeat",
        "-engine",
        "name=deep",
        "cmd=draughts",
        "arg=hub",
        "depth=4",
        "option.threads=1",
        "-engine",
        "name=shallow",
        "cmd=draughts",
        "arg=hub",
        "depth=2",
        "option.threads=1",
        "-openings",
        "file=acf-3move",
        "order=random",
        "-srand",
        "9",
        "-ratinginterval",
        "0",
    ]
    state, games = tmp_path / "state.json", tmp_path / "games.pdn"
    proc = subprocess.Popen(
        MATCH + args + ["-state", str(state), "-pdnout", str(games)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    done = 0
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        try:
            done = len(json.loads(state.read_text())["records"])
        except (OSError, ValueError, KeyError):
            done = 0
        if done >= 2:
            break
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    saved = json.loads(state.read_text())
    assert 2 <= len(saved["records"]) < 6, "the runner must be killed part-way"
    resumed = subprocess.run(MATCH + ["-resume", str(state)], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    started = [l for l in resumed.stdout.splitlines() if l.startswith("Started game")]
    assert len(started) == 6 - len(saved["records"])

    straight = tmp_path / "straight.json"
    run = subprocess.run(MATCH + args + ["-state", str(straight)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    a, b = json.loads(state.read_text()), json.loads(straight.read_text())
    assert a["complete"] and b["complete"]

    def key(d):
        return sorted((r["index"], r["first"], r["second"], r["opening"]["name"], r["result"]) for r in d["records"])

    assert key(a) == key(b)
    assert resumed.stdout.splitlines()[-4] == run.stdout.splitlines()[-4]  # the Score line
    assert resumed.stdout.splitlines()[-3] == run.stdout.splitlines()[-3]  # Elo difference
    check_pdn_games(games.read_text(), "american", 6)
    rounds = sorted(int(g.headers["Round"]) for g in pdn.read_games(games.read_text()))
    assert rounds == list(range(1, 7))  # every game once, none twice


def test_sigterm_stops_a_match_of_in_process_engines_at_once(tmp_path):
    """SIGTERM in the middle of games played by engines in the runner's own
    process (proto=builtin, searching to depth 40: a move takes minutes) ends
    the runner within seconds, the state kept, instead of waiting for those
    games to be played out.  A depth limit, not a time control: on a loaded
    machine a timed game may be lost on time before the signal comes."""
    state = tmp_path / "state.json"
    # `with`: the pipes are closed at the end
    with subprocess.Popen(
        MATCH
        + [
            "-variant",
            "american",
            "-games",
            "4",
            "-concurrency",
            "2",
            "-engine",
            "name=a",
            "cmd=draughts",
            "proto=builtin",
            "-engine",
            "name=b",
            "cmd=draughts",
            "proto=builtin",
            "-each",
            "depth=40",
            "-state",
            str(state),
            "-progress",
            "off",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            started = 0
            while started < 2:  # both games are under way
                line = proc.stdout.readline()
                assert line, proc.stderr.read()
                started += line.startswith("Started game")
            time.sleep(1.5)
            proc.send_signal(signal.SIGTERM)
            t0 = time.time()
            code = proc.wait(timeout=30)
            waited = time.time() - t0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        said = proc.stderr.read()
    assert code == 130
    assert "match interrupted" in said
    assert waited < 10, f"the runner took {waited:.1f} s to stop"
    assert json.loads(state.read_text())["records"] == []  # no game was finished


def test_resume_refuses_a_changed_opening_book(tmp_path):
    book = tmp_path / "book.fen"
    book.write_text("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15\n")
    state = tmp_path / "s.json"
    argv = [
        "-variant",
        "american",
        "-games",
        "2",
        "-engine",
        "name=a",
        "proto=builtin",
        "depth=2",
        "-engine",
        "name=b",
        "proto=builtin",
        "depth=1",
        "-openings",
        f"file={book}",
        "format=fen",
        "-state",
        str(state),
        "-progress",
        "off",
    ]
    assert cli.run_match(argv, out=io.StringIO(), err=io.StringIO()) == 0
    saved = json.loads(state.read_text())
    assert [r["opening"]["fen"] for r in saved["records"]] == [book.read_text().strip()] * 2
    book.write_text("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16\n")
    with pytest.raises(draughts.DraughtsError, match="openings file has changed"):
        cli.run_match(["-resume", str(state)], out=io.StringIO(), err=io.StringIO())


def test_a_book_shorter_than_the_schedule_is_warned_of(tmp_path):
    """Two openings and three rounds of pairs: the third pair replays the
    first opening, and at a depth limit the very same games; a book long
    enough gives no warning."""
    book = tmp_path / "book.fen"
    book.write_text(
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,15\n"
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,16\n"
    )
    pdn_path = tmp_path / "g.pdn"
    argv = [
        "-variant",
        "american",
        "-games",
        "2",
        "-repeat",
        "-engine",
        "name=a",
        "proto=builtin",
        "depth=2",
        "-engine",
        "name=b",
        "proto=builtin",
        "depth=1",
        "-openings",
        f"file={book}",
        "format=fen",
        "-progress",
        "off",
        "-ratinginterval",
        "0",
        "-pdnout",
        str(pdn_path),
    ]
    out = io.StringIO()
    assert cli.run_match(argv + ["-rounds", "3"], out=out, err=io.StringIO()) == 0
    warnings = [line for line in out.getvalue().splitlines() if line.startswith("Warning:")]
    assert warnings == [
        "Warning: the schedule plays 3 openings and the book holds 2: each is played "
        "about 1.5 times (engines at node or depth limits replay the same games, "
        "which the statistics count again)"
    ]
    games = list(pdn.read_games(pdn_path.read_text()))
    assert len(games) == 6 and games[4].moves == games[0].moves and games[5].moves == games[1].moves
    out = io.StringIO()
    assert cli.run_match(argv + ["-rounds", "2"], out=out, err=io.StringIO()) == 0
    assert "Warning:" not in out.getvalue()


GOOD = ["-engine", "name=good", "cmd=draughts", "arg=hub", "depth=2"]


def run_match(argv):
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match, match.run(), out.getvalue()


def scripted(mode, *extra):
    return ["-engine", "name=bad", f"cmd={sys.executable}", "arg=-m", "arg=draughts.hub.testing", f"arg={mode}", *extra]


def _executor(argv):
    from draughts.match.executors import LocalExecutor

    settings = cli.settings_from_options(cli.split_options(GOOD + GOOD + argv))
    return LocalExecutor(settings, draughts.variant("american"))


def test_an_engine_slow_to_clear_its_table_does_not_lose_its_first_move(tmp_path):
    # the scripted engine takes 0.5 s over every new-game; its moves are instant.
    # Without a ping after new-game the runner's clock ran during the clear and
    # st=0.1 (no time margin) lost every first move on time.
    match, result, out = run_match(
        scripted("slowclear", "st=0.1") + GOOD + ["-variant", "american", "-games", "2", "-maxmoves", "6"]
    )
    assert result.complete and len(result.records) == 2
    for rec in result.records:
        assert rec.termination != "time forfeit", rec.reason
        assert len(rec.moves) > 2


def test_show_latency_prints_and_the_json_keeps_the_figures(tmp_path):
    json_path = tmp_path / "m.json"
    match, result, out = run_match(
        [
            "-engine",
            "name=a",
            "cmd=draughts",
            "arg=hub",
            "depth=2",
            "-engine",
            "name=b",
            "cmd=draughts",
            "arg=hub",
            "depth=2",
            "-variant",
            "russian",
            "-games",
            "2",
            "-maxmoves",
            "10",
            "-show-latency",
            "-jsonout",
            str(json_path),
        ]
    )
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


def test_games_at_once_get_a_processor_each_by_default():
    cpus = sorted(os.sched_getaffinity(0))
    executor = _executor(["-concurrency", "2"])
    try:
        if len(cpus) >= 2:
            slots = [executor._cpu_slots.get() for _ in range(2)]
            assert slots == [{cpus[0]}, {cpus[1]}]
        else:
            assert executor._cpu_slots is None  # not more games than processors
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
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import threading, time\nt = threading.Thread(target=time.sleep, args=(20,)); t.start(); t.join()",
        ]
    )
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

    def spy(job, pool, rules, cpus=None, live=None):
        seen.append(cpus)
        return original(job, pool, rules, cpus, live=live)

    executors.run_job = spy
    try:
        match, result, out = run_match(
            GOOD + GOOD + ["-variant", "american", "-games", "4", "-concurrency", "2", "-maxmoves", "4"]
        )
    finally:
        executors.run_job = original
    assert result.complete
    if len(os.sched_getaffinity(0)) >= 2:
        assert len(seen) == 4 and all(c is not None and len(c) == 1 for c in seen)


def test_the_collector_never_walks_the_records_of_a_running_match(monkeypatch):
    # its full passes over every record so far held the interpreter 20-40 ms
    # once a minute, and the answers that came meanwhile lost on time: what
    # exists is frozen when the match starts and after every game, and thawed
    # when it ends
    import gc
    from draughts.match import runner

    calls = []
    monkeypatch.setattr(runner.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(runner.gc, "unfreeze", lambda: calls.append("unfreeze"))
    match, result, out = run_match(GOOD + GOOD + ["-variant", "american", "-games", "2", "-maxmoves", "4"])
    assert result.complete
    assert calls == ["freeze", "freeze", "freeze", "unfreeze"]
    monkeypatch.undo()
    run_match(GOOD + GOOD + ["-variant", "american", "-games", "1", "-maxmoves", "2"])
    assert gc.get_freeze_count() == 0


def test_the_state_file_encodes_each_game_once(tmp_path, monkeypatch):
    # the state file is rewritten after every game: encoding every game played
    # so far at each save held the interpreter for a second and more late in a
    # long match, while the in-process engines beside it waited to answer (the
    # games lost on time grew with the match), so each game's JSON is made once
    from draughts.match.game import GameRecord

    encoded = []
    to_json = GameRecord.to_json
    monkeypatch.setattr(GameRecord, "to_json", lambda self: encoded.append(self.index) or to_json(self))
    state = tmp_path / "state.json"
    quick = ["proto=builtin", "depth=1", "option.threads=1"]
    argv = ["-engine", "name=a", *quick, "-engine", "name=b", *quick, "-variant", "american", "-maxmoves", "6"]
    match, result, _ = run_match(argv + ["-games", "6", "-ratinginterval", "0", "-state", str(state)])
    assert result.complete
    assert sorted(encoded) == list(range(6))  # once a game, not 1 + 2 + ... + 6 times
    saved = json.loads(state.read_text())
    assert saved == match.state_json() and len(saved["records"]) == 6
    # and a resumed match reads the file back and writes it the same way
    encoded.clear()
    resumed = Match(match.settings, console=Console(io.StringIO(), io.StringIO(), progress=False), resume_state=saved)
    assert json.loads(resumed.state_text()) == saved
    assert sorted(encoded) == list(range(6))  # once each, as they were read back

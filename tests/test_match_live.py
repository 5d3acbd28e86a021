"""`draughts match -live FILE`: the games in progress, their clocks and the
engines' lines as they think, in a file a viewer reads while the match runs."""

import json
import subprocess
import sys
import time

import pytest

import draughts
from draughts.errors import InvalidInputError
from draughts.match import cli
from draughts.match.engines import parse_engine
from draughts.match.game import GameJob, Rules, move_tuple, play_game
from draughts.match.live import LIVE_KIND, read_live
from draughts.match.openings import START
from draughts.match.players import HubPlayer, InProcessPlayer
from draughts.match.runner import Match


class Recorder:
    """A watch that keeps every call, in order."""

    def __init__(self):
        self.calls = []

    def thinking(self, colour, available):
        self.calls.append(("thinking", colour, available))

    def info(self, colour, info):
        self.calls.append(("info", colour, info))

    def moved(self, colour, move, left):
        self.calls.append(("moved", colour, move, left))


@pytest.mark.parametrize("kind", ["builtin", "hub"])
def test_the_referee_tells_its_watch_of_every_move_and_of_the_lines_as_they_come(kind):
    variant = draughts.variant("russian")
    words = ["cmd=draughts", "arg=hub"] if kind == "hub" else ["proto=builtin"]
    configs = [parse_engine([f"name={n}", *words, "depth=3"]) for n in ("a", "b")]
    make = HubPlayer if kind == "hub" else InProcessPlayer
    players = [make(c, variant) for c in configs]
    watch = Recorder()
    try:
        job = GameJob(0, 0, (0, 1), 0, 1, 0, START)
        record = play_game(job, players, configs, variant, Rules(maxmoves=12), watch=watch)
    finally:
        for p in players:
            p.close()
    moved = [c for c in watch.calls if c[0] == "moved"]
    board = draughts.Board(variant=variant)
    for c, m in zip(moved, record.moves):
        assert c[1] == board.turn and c[2] in board.legal_moves
        board.push(c[2])
        assert move_tuple(board.peek()) == m  # the moves the record keeps
        assert c[3] is None  # a depth limit: no clock
    assert len(moved) == len(record.moves) == 24
    # every move: thinking, then lines of that side only, then the move
    i = 0
    for c in moved:
        assert watch.calls[i][0] == "thinking" and watch.calls[i][1] == c[1] and watch.calls[i][2] is None
        i += 1
        infos = []
        while watch.calls[i][0] == "info":
            assert watch.calls[i][1] == c[1]
            infos.append(watch.calls[i][2])
            i += 1
        assert watch.calls[i] is c
        i += 1
        assert infos and infos[-1].depth == 3  # depth=3: the last line is of depth 3
    assert i == len(watch.calls)
    assert all(p.on_info is None for p in players)  # the callback does not outlive the move


def test_a_match_keeps_its_games_in_progress_in_the_live_file(tmp_path):
    live = tmp_path / "live.json"
    state = tmp_path / "state.json"
    argv = [
        sys.executable,
        "-m",
        "draughts",
        "match",
        "-variant",
        "international",
        "-engine",
        "name=hub",
        "cmd=draughts",
        "arg=hub",
        "-engine",
        "name=inproc",
        "proto=builtin",
        "-each",
        "st=0.3",
        "-games",
        "2",
        "-maxmoves",
        "8",
        "-live",
        str(live),
        "-state",
        str(state),
        "-progress",
        "off",
    ]
    run = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    try:
        deadline = time.monotonic() + 120
        while run.poll() is None and time.monotonic() < deadline:
            try:
                data = json.loads(live.read_text())
            except (OSError, ValueError):
                time.sleep(0.05)
                continue
            seen.append(data)
            time.sleep(0.1)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, err
    assert seen and all(d["kind"] == LIVE_KIND and d["version"] == 1 for d in seen)
    assert seen[0]["names"] == ["hub", "inproc"] and seen[0]["total"] == 2
    assert seen[0]["state"] == str(state)
    games = [g for d in seen for g in d["games"]]
    assert games
    for g in games:
        board = draughts.Board(g["fen"], variant="international")
        for text in g["moves"]:
            board.push(board.parse_move(text))  # every move is legal in order
        assert {g["white"], g["black"]} == {"hub", "inproc"}
        if g["running"]:
            assert g["clocks"][g["running"]] == 0.3 and g["since"] <= time.time()
            line = g["lines"][g["running"]]
            if line:  # the line of the move being searched
                b = board.copy()
                for text in line["pv"]:
                    b.push(b.parse_move(text))
    # both engines' lines were seen while they thought, as legal lines
    lined = {}
    for g in games:
        for side in ("white", "black"):
            line = g["lines"][side]
            if line:
                # (depth 0: a forced move, answered without a search)
                assert line["depth"] >= 0 and isinstance(line["score"], float) and line["pv"]
                lined[g[side]] = max(lined.get(g[side], 0), line["depth"])
    assert set(lined) == {"hub", "inproc"} and min(lined.values()) >= 5
    final = read_live(str(live))
    assert final["status"] == "finished" and final["games"] == [] and final["played"] == 2
    assert json.loads(state.read_text())["settings"]["live"] == str(live)


def test_live_is_refused_with_a_cluster_and_a_bad_file_is_named(tmp_path):
    settings = cli.settings_from_options(
        cli.split_options(
            [
                "-engine",
                "name=a",
                "proto=builtin",
                "-engine",
                "name=b",
                "proto=builtin",
                "-each",
                "depth=1",
                "-live",
                "x.json",
                "-cluster",
                "127.0.0.1:1",
            ]
        )
    )
    with pytest.raises(InvalidInputError, match="-live .* -cluster"):
        Match(settings).run()
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"kind": "something else"}))
    with pytest.raises(InvalidInputError, match="not a live match file"):
        read_live(str(other))
    other.write_text("{")
    with pytest.raises(InvalidInputError, match="cannot read the live match file"):
        read_live(str(other))
    with pytest.raises(InvalidInputError, match="cannot read the live match file"):
        read_live(str(tmp_path / "missing.json"))

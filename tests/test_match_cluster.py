"""Matches played as Ray tasks on a real local Ray runtime (loopback)."""

import io
import json
import subprocess
import sys
import time

import pytest

from draughts import pdn
from draughts.match import cli
from draughts.match.runner import Console, Match


ARGS = [
    "-variant",
    "american",
    "-games",
    "6",
    "-repeat",
    "-concurrency",
    "2",
    "-engine",
    "name=deep",
    "cmd=draughts",
    "arg=hub",
    "depth=4",
    "-engine",
    "name=shallow",
    "cmd=draughts",
    "arg=hub",
    "depth=2",
    "-openings",
    "file=acf-3move",
    "order=random",
    "-srand",
    "5",
]


def _run(argv):
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    result = Match(settings, console=Console(out, io.StringIO(), progress=False)).run()
    return result, out.getvalue()


def test_a_match_on_the_cluster_equals_the_same_match_here(ray_cluster, tmp_path):
    pdn_path = tmp_path / "cluster.pdn"
    remote, out = _run(ARGS + ["-cluster", ray_cluster, "-pdnout", str(pdn_path)])
    assert remote.complete and len(remote.records) == 6
    assert out.count("Finished game") == 6 and "Score of deep vs shallow" in out
    games = list(pdn.read_games(pdn_path.read_text()))
    assert len(games) == 6
    for g in games:
        end = g.end()
        if g.headers["Termination"] == "normal":
            assert end.result() == g.result
    # the same referee and deterministic engines: the games are the local ones
    local, _ = _run(ARGS)
    assert [(r.index, r.first, r.result, r.reason, r.moves) for r in remote.records] == [
        (r.index, r.first, r.result, r.reason, r.moves) for r in local.records
    ]
    assert (remote.summary.wins, remote.summary.losses, remote.summary.draws) == (
        local.summary.wins,
        local.summary.losses,
        local.summary.draws,
    )


GOOD = ["-engine", "name=good", "cmd=draughts", "arg=hub", "depth=2"]


def _wait_for(predicate, timeout, what):
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.1)


@pytest.mark.parametrize(
    "argv",
    [
        ["perft", "--variant", "american", "--depth", "5", "--cluster", "127.0.0.1:1"],
        ["match", "-cluster", "127.0.0.1:1", "-variant", "american", "-games", "2"] + GOOD + GOOD,
    ],
)
def test_a_cluster_address_where_nothing_listens_is_an_error_at_once(argv):
    t0 = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "draughts", *argv], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "cannot connect to the Ray cluster at '127.0.0.1:1'" in run.stderr, run.stderr[-2000:]
    assert time.monotonic() - t0 < 30


def test_perft_on_a_cluster_whose_head_dies_keeps_its_checkpoint_and_resumes(tmp_path):
    from conftest import lost_head_driver_env, ray_head

    cp = tmp_path / "cp.json"
    base = [
        sys.executable,
        "-m",
        "draughts",
        "perft",
        "--variant",
        "international",
        "--depth",
        "9",
        "--progress",
        "off",
    ]

    def done():
        try:
            return len(json.loads(cp.read_text())["done"])
        except (OSError, ValueError, KeyError):
            return 0

    with ray_head(num_cpus=1) as (address, kill):
        run = subprocess.Popen(
            base + ["--cluster", address, "--checkpoint", str(cp)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=lost_head_driver_env(),
        )
        _wait_for(lambda: done() >= 1 or run.poll() is not None, 180, "a finished subtree")
        kill()
        out, err = run.communicate(timeout=90)
    assert run.returncode != 0, out
    assert "lost the Ray cluster" in err or "failed on the Ray cluster" in err, err[-3000:]
    assert f"--resume {cp}" in err
    kept = done()
    assert 1 <= kept < 9  # 9 subtrees, one per root move
    resumed = subprocess.run(
        base + ["--resume", str(cp), "--threads", "2", "--hash-mb", "64"], capture_output=True, text=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stderr
    # DCTL's international perft(9), duplicates merged
    assert "perft depth=9 nodes=41022423 " in resumed.stdout


def test_a_match_on_a_cluster_whose_head_dies_keeps_its_games_and_resumes(tmp_path):
    from conftest import lost_head_driver_env, ray_head

    state = tmp_path / "state.json"
    # the head plays one game at a time and dies with its worker once the
    # first game is saved: most of the games are still to play
    n = 4
    argv = [
        sys.executable,
        "-m",
        "draughts",
        "match",
        "-variant",
        "american",
        "-games",
        str(n),
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
        "-progress",
        "off",
    ]

    def games():
        try:
            return len(json.loads(state.read_text())["records"])
        except (OSError, ValueError, KeyError):
            return 0

    with ray_head(num_cpus=1) as (address, kill):
        run = subprocess.Popen(
            argv + ["-cluster", address, "-state", str(state)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=lost_head_driver_env(),
        )
        _wait_for(lambda: games() >= 1 or run.poll() is not None, 180, "a finished game")
        kill()
        out, err = run.communicate(timeout=90)
    assert run.returncode != 0
    assert "lost the Ray cluster" in err, err[-3000:]
    assert f"-resume {state}" in err
    kept = games()
    assert 1 <= kept < n
    resumed = subprocess.run(
        [sys.executable, "-m", "draughts", "match", "-resume", str(state), "-cluster", "none", "-progress", "off"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    saved = json.loads(state.read_text())
    assert saved["complete"] and sorted(r["index"] for r in saved["records"]) == list(range(n))

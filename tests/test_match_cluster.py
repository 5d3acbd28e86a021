"""Matches played as Ray tasks on a real local Ray runtime (loopback)."""

import io
import os
import subprocess
import sys

import pytest

from draughts import pdn
from draughts.match import cli
from draughts.match.runner import Console, Match


ARGS = ["-variant", "american", "-games", "6", "-repeat", "-concurrency", "2",
        "-engine", "name=deep", "cmd=draughts", "arg=hub", "depth=4",
        "-engine", "name=shallow", "cmd=draughts", "arg=hub", "depth=2",
        "-openings", "file=acf-3move", "order=random", "-srand", "5"]


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
    assert [(r.index, r.first, r.result, r.reason, r.moves) for r in remote.records] == \
           [(r.index, r.first, r.result, r.reason, r.moves) for r in local.records]
    assert (remote.summary.wins, remote.summary.losses, remote.summary.draws) == \
           (local.summary.wins, local.summary.losses, local.summary.draws)

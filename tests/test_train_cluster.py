"""Self-play games of `draughts train` played as Ray tasks on a real local Ray
runtime: the same chunk files as a local run, resumable, and the CLI end to end."""

import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

from draughts import learned, selfplay
from draughts.cli import main
from draughts.errors import DraughtsError
from draughts.variants import variant

pytest.importorskip("ray")

NODES = 200


def _chunks(d):
    out = {}
    for path in selfplay.chunk_files(str(d)):
        with np.load(path) as z:
            out[os.path.basename(path)] = {k: z[k] for k in z.files}
    return out


def test_a_bad_address_is_an_error_before_any_game(tmp_path, capsys):
    cfg = selfplay.SelfPlayConfig("american", nodes=NODES)
    for address, why in (
        ("127.0.0.1:1", "cannot connect to the Ray cluster at '127.0.0.1:1'"),
        ("nowhere", "'nowhere' is not HOST:PORT"),
    ):
        with pytest.raises(DraughtsError, match=why):
            selfplay.generate(cfg, 50, str(tmp_path / "games"), cluster=address, progress=False)
        assert not selfplay.chunk_files(str(tmp_path / "games"))
    out = tmp_path / "run"
    assert (
        main(
            [
                "train",
                "-v",
                "american",
                "--out",
                str(out),
                "--games",
                "4",
                "--nodes",
                str(NODES),
                "--cluster",
                "127.0.0.1:1",
                "--progress",
                "off",
            ]
        )
        == 2
    )
    assert "cannot connect to the Ray cluster at '127.0.0.1:1'" in capsys.readouterr().err
    assert not (out / "games-0").exists()


def test_the_help_names_the_option(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "--cluster ADDRESS" in capsys.readouterr().out


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 10 games, not 50: the cluster's tasks are given the chunk
    size, and the local workers (forked) see it as play_chunk's default."""
    assert selfplay.play_chunk.__defaults__ == (selfplay.CHUNK_GAMES,)
    monkeypatch.setattr(selfplay, "CHUNK_GAMES", 10)
    monkeypatch.setattr(selfplay.play_chunk, "__defaults__", (10,))


def test_cluster_chunks_are_the_local_ones(ray_cluster, tmp_path, small_chunks):
    """Two chunks played with learned weights from a file (its contents go to
    the workers): the same arrays as a local run of the same seed."""
    weights = tmp_path / "w.npz"
    shutil.copy(learned.weights_path(variant("american")), weights)
    cfg = selfplay.SelfPlayConfig("american", nodes=NODES, eval="learned", weights=str(weights), seed=4)
    n_remote = selfplay.generate(
        cfg, 2 * selfplay.CHUNK_GAMES, str(tmp_path / "remote"), cluster=ray_cluster, progress=False
    )
    n_local = selfplay.generate(
        cfg, 2 * selfplay.CHUNK_GAMES, str(tmp_path / "local"), workers=1, niceness=0, progress=False
    )
    remote, local = _chunks(tmp_path / "remote"), _chunks(tmp_path / "local")
    assert sorted(remote) == ["games-00000.npz", "games-00001.npz"] == sorted(local)
    assert n_remote == n_local == sum(len(c["white"]) for c in local.values())
    assert not [f for f in os.listdir(tmp_path / "remote") if f.endswith(".tmp.npz")]
    for name in local:
        assert sorted(remote[name]) == sorted(selfplay.FIELDS)
        for field in selfplay.FIELDS:
            assert remote[name][field].dtype == local[name][field].dtype, (name, field)
            assert np.array_equal(remote[name][field], local[name][field]), (name, field)
    first = selfplay.CHUNK_GAMES
    assert set(remote["games-00001.npz"]["game"].tolist()) == set(range(first, 2 * first))


def test_a_partial_run_resumes_on_the_cluster(ray_cluster, tmp_path, small_chunks):
    """Chunk 1 is there already (a stand-in of one position): only chunks 0
    and 2 are played, and the positions counted are all three's."""
    games = tmp_path / "games"
    games.mkdir()
    stand_in = {
        f: np.zeros(1, dtype=d)
        for f, d in zip(
            selfplay.FIELDS, (np.uint64, np.uint64, np.uint64, np.uint8, np.float32, np.int16, np.int32, np.int16)
        )
    }
    np.savez_compressed(games / "games-00001.npz", **stand_in)
    before = (games / "games-00001.npz").read_bytes()
    (games / "games-00002.npz.tmp.npz").write_bytes(b"an interrupted write")
    cfg = selfplay.SelfPlayConfig("american", nodes=NODES, seed=6)
    total = selfplay.generate(cfg, 3 * selfplay.CHUNK_GAMES, str(games), cluster=ray_cluster, progress=False)
    assert (games / "games-00001.npz").read_bytes() == before
    chunks = _chunks(games)
    assert sorted(chunks) == ["games-00000.npz", "games-00001.npz", "games-00002.npz"]
    n = selfplay.CHUNK_GAMES
    assert set(chunks["games-00000.npz"]["game"].tolist()) == set(range(n))
    assert set(chunks["games-00002.npz"]["game"].tolist()) == set(range(2 * n, 3 * n))
    assert total == len(chunks["games-00000.npz"]["white"]) + 1 + len(chunks["games-00002.npz"]["white"])


def test_train_on_the_cluster_end_to_end(ray_cluster, tmp_path, capsys, small_chunks):
    """`draughts train --cluster`: the weights and counts of the same run
    played here, and a manifest that says where the games were played but
    not the address."""
    argv = [
        "train",
        "-v",
        "american",
        "--games",
        "4",
        "--nodes",
        str(NODES),
        "--epochs",
        "1",
        "--seed",
        "2",
        "--progress",
        "off",
    ]
    remote, local = tmp_path / "remote", tmp_path / "local"
    assert main(argv + ["--out", str(remote), "--cluster", ray_cluster]) == 0
    assert main(argv + ["--out", str(local), "--workers", "1", "--nice", "0"]) == 0
    text = (remote / "weights-1.json").read_text()
    assert ray_cluster not in text
    man, lman = json.loads(text), json.loads((local / "weights-1.json").read_text())
    assert man["played_on"] == "cluster" and lman["played_on"] == "local"
    assert man["command"].endswith(" --cluster ADDRESS") and man["command"].startswith("draughts train -v american")
    assert man["games"] == lman["games"] == selfplay.CHUNK_GAMES and man["positions"] == lman["positions"] > 0
    a, b = np.load(remote / "weights-1.npz"), np.load(local / "weights-1.npz")
    assert (a["patterns"] == b["patterns"]).all() and (a["dense"] == b["dense"]).all()
    assert man["heldout_loss"] == lman["heldout_loss"]
    assert "on the Ray cluster" in capsys.readouterr().err


def test_a_lost_head_ends_the_run_and_keeps_its_chunks(tmp_path):
    """A head killed once a chunk is written: the run ends with an error
    naming the address and the chunks saved, which stay for a rerun."""
    from conftest import lost_head_driver_env, ray_head

    out = tmp_path / "run"
    games = out / "games-0"
    argv = [
        sys.executable,
        "-m",
        "draughts",
        "train",
        "-v",
        "american",
        "--out",
        str(out),
        "--games",
        "2000",
        "--nodes",
        str(NODES),
        "--progress",
        "off",
    ]
    with ray_head(num_cpus=1) as (address, kill):
        run = subprocess.Popen(
            argv + ["--cluster", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=lost_head_driver_env(),
        )
        deadline = time.time() + 180
        while not selfplay.chunk_files(str(games)) and run.poll() is None:
            assert time.time() < deadline, "no chunk written"
            time.sleep(0.2)
        kill()
        _, err = run.communicate(timeout=90)
    # (Ray's exit hooks may turn the status 2 of the error into another)
    assert run.returncode != 0 and "draughts: error: lost the Ray cluster" in err, err[-3000:]
    kept = len(selfplay.chunk_files(str(games)))
    assert 1 <= kept < 40
    assert f"Ray cluster at {address!r}" in err, err[-3000:]
    assert f"{kept} of 40 chunks ({kept * selfplay.CHUNK_GAMES} games) are saved in {games}" in err
    assert not (out / "weights-1.npz").exists()


def test_the_manifest_command_hides_the_address_in_every_spelling():
    from draughts.train import _without_address

    assert _without_address(["train", "--out", "r", "--cluster", "10.1.2.3:6379", "--seed", "2"]) == [
        "train",
        "--out",
        "r",
        "--cluster",
        "ADDRESS",
        "--seed",
        "2",
    ]
    assert _without_address(["train", "--cluster=ray://h:10001"]) == ["train", "--cluster=ADDRESS"]
    assert _without_address(["train", "--clus", "auto", "--out", "r"]) == ["train", "--clus", "ADDRESS", "--out", "r"]
    assert _without_address(["train", "--out", "10.1.2.3:6379"]) == ["train", "--out", "10.1.2.3:6379"]

"""Training positions at scale (`draughts positions`): generation, the file
format, resuming, deduplication, the fit, and the Ray cluster."""

import json
import os
from pathlib import Path

import numpy as np
import pytest

from draughts import learned, positions as P, train
from draughts.board import Board
from draughts.cli import main
from draughts.engine import Engine
from draughts.errors import DraughtsError
from draughts.limits import Limit
from draughts.variants import variant
from draughts_core.position import Position

#: small, fast settings: a chunk of two american games at 150 nodes, labels at depth 3
SMALL = P.PositionConfig("american", nodes=150, depth=3, chunk_games=2, seed=3)


def _position(row, v):
    """The core position of a record (its bitboards are the core's square bits)."""
    return Position(
        v.core_rules, *(train._squares(v.size, int(row[f])) for f in ("white", "black", "kings")), int(row["turn"])
    )


def _board(row, v):
    board = Board(variant=v)
    board._set_position(_position(row, v))
    return board


def _chunk_bytes(d):
    return {c: Path(P.chunk_path(str(d), c)).read_bytes() for c in P.chunk_numbers(str(d))}


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    d = tmp_path_factory.mktemp("set") / "american"
    run = P.generate(SMALL, str(d), chunks=3, workers=2, niceness=0, progress=False)
    assert run.chunks == 3 and run.total_chunks == 3
    return d


def test_the_record_is_34_bytes_and_the_chunks_map_from_disk(small_set):
    assert P.RECORD.itemsize == 34
    rows = np.load(P.chunk_path(str(small_set), 0), mmap_mode="r")
    assert isinstance(rows, np.memmap) and rows.dtype == P.RECORD and len(rows) > 20
    manifest = json.loads((small_set / P.MANIFEST).read_text())
    assert manifest["format"] == P.FORMAT and manifest["heldout_every"] == P.HELDOUT_EVERY
    assert np.dtype([tuple(f) for f in manifest["record"]]) == P.RECORD
    assert manifest["settings"]["depth"] == 3 and manifest["settings"]["variant"] == "american"
    assert len(manifest["settings"]["weights"]) == 64  # the labelling weights' sha256
    assert manifest["runs"][-1]["positions"] == P.count(str(small_set))
    assert oct(os.stat(P.chunk_path(str(small_set), 0)).st_mode & 0o077) != "0o0"  # readable like any file


def test_a_chunk_is_its_games_positions_quiet_and_once_each(small_set):
    rows = np.load(P.chunk_path(str(small_set), 1))
    assert set(rows["game"].tolist()) == {2, 3}  # chunk 1 holds games 2 and 3
    v = variant("american")
    assert len(
        set(zip(rows["white"].tolist(), rows["black"].tolist(), rows["kings"].tolist(), rows["turn"].tolist()))
    ) == len(rows)  # once in the chunk
    for game in (2, 3):
        g = rows[rows["game"] == game]
        assert len(set(g["result"].tolist())) == 1  # one result a game
        assert np.all(np.diff(g["ply"].astype(int)) > 0)
    for row in rows:
        pos = _position(row, v)
        assert pos.key()[:4] == (int(row["white"]), int(row["black"]), int(row["kings"]), int(row["turn"]))
        assert not pos.has_capture() and pos.count_moves() > 0


def test_labels_are_whites_view_of_the_labelling_search(small_set):
    """Where a fresh search at the set's depth sees a clear advantage, the
    label agrees in sign, from White's side whoever is to move."""
    rows = np.concatenate([np.load(P.chunk_path(str(small_set), c)) for c in range(3)])
    v = variant("american")
    engine = Engine(v, tt_mb=8, egdb=None)
    checked = {0: 0, 1: 0}
    for row in rows:
        board = _board(row, v)
        engine.new_game()
        info = engine.play(board, Limit(depth=SMALL.depth)).info
        mover = P.label(info)
        if abs(mover) < 150:
            continue
        white = mover if row["turn"] == 0 else -mover
        assert np.sign(white) == np.sign(row["score"]), (row, mover)
        checked[int(row["turn"])] += 1
    assert checked[0] >= 1 and checked[1] >= 1, checked


def test_exploring_moves_part_the_games_sooner():
    """The same openings, with and without random moves early on: the games
    with them hold positions the others do not."""
    from dataclasses import replace

    calm = P.play_chunk(replace(SMALL, explore=0.0), 0)
    wild = P.play_chunk(replace(SMALL, explore=0.5), 0)
    keys = lambda rows: set(P.position_keys(rows).tolist())
    assert keys(wild) - keys(calm)
    assert P.play_chunk(replace(SMALL, explore=0.5), 0).tobytes() == wild.tobytes()  # seeded


def test_label_caps_a_win():
    class Info:
        def __init__(self, score, win_in=None):
            self.score, self.win_in = score, win_in

    assert P.label(Info(0.37)) == 37
    assert P.label(Info(-45.0)) == -P.SCORE_CAP
    assert P.label(Info(99.5, 7)) == P.SCORE_CAP and P.label(Info(-99.5, 8)) == -P.SCORE_CAP


def test_a_rerun_resumes_with_the_same_chunks(small_set, tmp_path):
    d = tmp_path / "resumed"
    P.generate(SMALL, str(d), chunks=1, workers=1, niceness=0, progress=False)
    (d / ".chunk-000002-x.tmp").write_bytes(b"an interrupted write")
    run = P.generate(SMALL, str(d), chunks=3, workers=2, niceness=0, progress=False)
    assert run.chunks == 2  # chunk 0 was there
    assert _chunk_bytes(d) == _chunk_bytes(small_set)
    manifest = json.loads((d / P.MANIFEST).read_text())
    assert [r["chunks"] for r in manifest["runs"]] == [1, 2]


def test_a_target_of_positions_stops_the_run(tmp_path):
    d = tmp_path / "target"
    run = P.generate(SMALL, str(d), positions=10, workers=1, niceness=0, progress=False)
    assert run.chunks == 1 and run.stopped == "target" and run.total_positions >= 10
    again = P.generate(SMALL, str(d), positions=10, workers=1, niceness=0, progress=False)
    assert again.chunks == 0 and again.total_positions == run.total_positions


def test_other_settings_in_the_same_directory_are_refused(small_set):
    from dataclasses import replace

    with pytest.raises(DraughtsError, match=r"other settings: depth 3 \(now 5\)"):
        P.generate(replace(SMALL, depth=5), str(small_set), chunks=4, workers=1, progress=False)
    with pytest.raises(DraughtsError, match="how much"):
        P.generate(SMALL, str(small_set), workers=1, progress=False)


def _write_set(d, chunks):
    """A set of hand-made chunks {number: rows}."""
    os.makedirs(d, exist_ok=True)
    P.open_set(SMALL, str(d))
    for c, rows in chunks.items():
        P._write_chunk(str(d), c, rows)


def _rows(keys, game=0):
    r = np.zeros(len(keys), P.RECORD)
    r["white"] = [k for k in keys]
    r["black"] = 1 << 40
    r["game"] = game
    return r


def test_load_keeps_first_occurrences_and_holds_out_whole_chunks(tmp_path):
    held = P.HELDOUT_EVERY - 1
    _write_set(tmp_path / "s", {0: _rows([1, 2, 3, 2]), 1: _rows([3, 4, 5], game=9), held: _rows([5, 6])})
    got = P.load([str(tmp_path / "s")])
    assert got.train["white"].tolist() == [1, 2, 3, 4]  # 2 and 3 once; 5 is held out
    assert got.train["game"].tolist() == [0, 0, 0, 9]
    assert got.heldout["white"].tolist() == [5, 6]
    assert got.read == 9 and got.duplicates == 3
    assert P.load([str(tmp_path / "s")], limit=2).train["white"].tolist() == [1, 2]
    turned = _rows([1])
    turned["turn"] = 1  # another side to move: another position
    assert P.position_keys(turned)[0] != P.position_keys(_rows([1]))[0]


def _forward(v, patterns, dense, king_sq, data):
    """The learned evaluation (White's view) of the docs' formula, computed
    here from the features: T_R[i] = theta_R[i] - theta_{n-1-R}[FLIP[i]]."""
    n = patterns.shape[0]
    table = patterns - patterns[::-1][:, learned.FLIP]
    pat = sum(table[r][data.idx[:, r].astype(np.int64)] for r in range(n))  # (m, 2)
    kx = data.king_sq.astype(np.float64)
    tot = pat + data.dense.astype(np.float64) @ dense + kx @ king_sq
    return tot[:, 0] * data.phase + tot[:, 1] * (1 - data.phase)


def test_the_fit_recovers_known_weights(small_set, tmp_path):
    """Labels made by known weights (score_weight 1: the label alone), a
    random dense part and no patterns: the fit from material reproduces that
    evaluation on the held-out positions, which it has not seen."""
    v = variant("american")
    loaded = P.load([str(small_set)])
    rows = np.concatenate([loaded.train, loaded.heldout])
    rng = np.random.default_rng(5)
    lay = learned.layout(v)
    data = P.prepare(v, rows, rows[:0])
    true_pat = np.zeros((lay.nreg, learned.NPAT, 2))
    true_dense = rng.normal(0, 20, (len(lay.dense), 2))
    true_dense[lay.dense.index("men")] = (100, 120)
    true_king = np.zeros((lay.squares, 2))
    score = _forward(v, true_pat, true_dense, true_king, data)
    synthetic = rows.copy()
    synthetic["score"] = np.clip(np.round(score), -3000, 3000)
    d = tmp_path / "synthetic"
    cut = len(synthetic) * 3 // 4
    _write_set(d, {0: synthetic[:cut], P.HELDOUT_EVERY - 1: synthetic[cut:]})
    out = tmp_path / "w.npz"
    manifest = P.fit_sets([str(d)], str(out), start="material", score_weight=1.0, epochs=60, batch=128, lr=2.0, l2=50.0)
    assert manifest["heldout_loss_target"] < 0.1 * manifest["heldout_loss_target_start"]
    pat, dense, king = learned.read(str(out), lay)
    held = P.load([str(d)]).heldout
    hdata = P.prepare(v, held, held[:0])
    fitted = _forward(v, pat.astype(np.float64), dense.astype(np.float64), king.astype(np.float64), hdata)
    truth = _forward(v, true_pat, true_dense, true_king, hdata)
    # (the material-only start: a correlation of 0.54 and a median error of 135 centi-men)
    assert np.corrcoef(fitted, truth)[0, 1] > 0.9, np.corrcoef(fitted, truth)[0, 1]
    assert np.median(np.abs(fitted - truth)) < 30, np.median(np.abs(fitted - truth))


def test_the_command_line_end_to_end(tmp_path, capsys):
    d = tmp_path / "cli"
    argv = [
        "positions",
        "generate",
        "-v",
        "american",
        "--out",
        str(d),
        "--chunks",
        "2",
        "--chunk-games",
        "2",
        "--nodes",
        "150",
        "--depth",
        "3",
        "--seed",
        "3",
        "--workers",
        "1",
        "--nice",
        "0",
        "--progress",
        "off",
    ]
    assert main(argv) == 0
    assert "positions in 2 chunks" in capsys.readouterr().out
    assert main(["positions", "info", str(d)]) == 0
    assert "american" in capsys.readouterr().out
    assert main(["positions", "generate", "-v", "american", "--out", str(d), "--workers", "1"]) == 2
    assert "--positions N, --chunks N or --hours H" in capsys.readouterr().err
    assert main(["positions", "fit", "-d", str(d), "--out", str(tmp_path / "w.npz")]) == 2
    assert "no held-out positions" in capsys.readouterr().err
    assert main(["positions", "info", str(tmp_path / "nothing")]) == 2
    assert "not a position set" in capsys.readouterr().err


def test_the_default_directory_is_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert P.default_dir("english") == str(tmp_path / "draughts" / "positions" / "american")


def test_cluster_chunks_are_the_local_ones(ray_cluster, small_set, tmp_path):
    pytest.importorskip("ray")
    d = tmp_path / "remote"
    run = P.generate(SMALL, str(d), chunks=3, cluster=ray_cluster, progress=False)
    assert run.chunks == 3
    assert _chunk_bytes(d) == _chunk_bytes(small_set)
    assert json.loads((d / P.MANIFEST).read_text())["runs"][-1]["where"] == "cluster"

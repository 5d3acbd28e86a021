"""Hashed, threaded, distributed and resumable perft equal plain perft."""

import json
import random
import subprocess
import sys
import time

import pytest

import draughts
from draughts import perft
from draughts.errors import DraughtsError
from draughts_core.perft import PerftTable

VARIANT_CASES = [(v, d) for v in draughts.VARIANTS for d in ("drop", "keep")]


def random_boards(variant, count, seed, plies=(10, 70)):
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        b = draughts.Board(variant=variant)
        for _ in range(rnd.randrange(*plies)):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(rnd.choice(moves))
        if b.legal_moves.count():
            out.append(draughts.Board(b.fen(), variant=variant))
    return out


@pytest.mark.parametrize("variant,duplicates", VARIANT_CASES)
def test_hashed_and_threaded_equal_plain(variant, duplicates):
    keep = duplicates == "keep"
    table = PerftTable(8)
    for i, board in enumerate(random_boards(variant, 12, seed=i_seed(variant, duplicates))):
        depth = 5 if board.variant.size == 8 else 4
        plain = board.perft(depth, duplicates)
        assert board.position.perft_with_table(depth, keep, table) == plain, board.fen()
        # the table is shared and reused across positions: hits must stay exact
        assert board.position.perft_with_table(depth, keep, table) == plain, board.fen()
        run = perft.run(
            board, depth, duplicates=duplicates, threads=2, hash_mb=4 if i % 2 else 0, progress_enabled=False
        )
        assert run.nodes == plain, board.fen()


def i_seed(variant, duplicates):
    return sum(map(ord, variant + duplicates))


def test_tiny_table_with_many_collisions_stays_exact():
    board = draughts.Board(variant="international")
    table = PerftTable(1)
    assert board.position.perft_with_table(8, False, table) == 6483961
    keep_table = PerftTable(1)
    assert board.position.perft_with_table(8, True, keep_table) == 6483971


@pytest.mark.parametrize("split", [1, 2, 3])
def test_split_and_divide_agree(split):
    board = draughts.Board(variant="russian")
    run = perft.run(board, 6, split=split, threads=2, divide=True, progress_enabled=False)
    assert run.nodes == 37986
    assert [(m, n) for m, n in run.divide] == board.divide(6)


def test_checkpoint_resume_in_process(tmp_path):
    board = draughts.Board(variant="american")
    path = str(tmp_path / "cp.json")
    calls = []

    def interrupt(index, count):
        calls.append(index)
        if len(calls) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        perft.run(board, 8, checkpoint=path, split=2, on_unit=interrupt, progress_enabled=False)
    with open(path) as f:
        saved = json.load(f)
    assert len(saved["done"]) == 5
    run = perft.run(board, 8, resume=path, progress_enabled=False)
    assert run.resumed == 5
    assert run.nodes == 845931


def test_resume_rejects_another_run(tmp_path):
    path = str(tmp_path / "cp.json")
    perft.run(draughts.Board(variant="american"), 5, checkpoint=path, split=1, progress_enabled=False)
    with pytest.raises(draughts.DraughtsError, match="another run"):
        perft.run(draughts.Board(variant="american"), 6, resume=path, progress_enabled=False)
    with pytest.raises(draughts.DraughtsError, match="no checkpoint"):
        perft.run(draughts.Board(), 5, resume=str(tmp_path / "missing.json"))


def test_resume_after_killing_the_process(tmp_path):
    """A real interruption: the CLI is killed mid-run, then resumed."""
    path = tmp_path / "cp.json"
    cmd = [
        sys.executable,
        "-m",
        "draughts",
        "perft",
        "--variant",
        "american",
        "--depth",
        "12",
        "--duplicates",
        "keep",
        "--split",
        "2",
        "--checkpoint",
        str(path),
        "--progress",
        "off",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    done = 0
    while time.time() < deadline and proc.poll() is None:
        try:
            done = len(json.loads(path.read_text())["done"])
        except (OSError, ValueError, KeyError):
            done = 0
        if done >= 3:
            break
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    assert 3 <= done < 49, "the run must be killed part-way"
    # the rest with a table and two threads (0.5 s, not 3.5 s with neither)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "perft",
            "--variant",
            "american",
            "--depth",
            "12",
            "--duplicates",
            "keep",
            "--resume",
            str(path),
            "--progress",
            "off",
            "--hash-mb",
            "64",
            "--threads",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    # published (OEIS A133046, every path counted)
    assert out.stdout.strip().splitlines()[-1].startswith("perft depth=12 nodes=388623673 ")


def test_progress_bar_shows_subtrees_and_eta():
    import io

    stream = io.StringIO()
    bar = perft.Progress(10, stream=stream, enabled=True)
    bar.update(0, 0, force=True)
    bar.update(5, 1000, force=True)
    bar.update(10, 2000, force=True)
    text = stream.getvalue()
    assert "5/10" in text and "1000 nodes" in text and "<" in text  # tqdm's estimate of the rest
    assert "10/10" in text and "2000 nodes" in text and text.endswith("\n")


def test_cli_perft_output_format():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "perft",
            "--variant",
            "czech",
            "--depth",
            "3",
            "--divide",
            "--threads",
            "2",
            "--hash-mb",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 8
    assert all(len(l.split()) == 2 for l in lines[:7])
    assert sum(int(l.split()[1]) for l in lines[:7]) == 302
    assert lines[-1].startswith("perft depth=3 nodes=302 time=")
    assert " nps=" in lines[-1]


def test_distributed_perft_equals_plain(ray_cluster):
    for variant, depth, expected, duplicates in (
        ("international", 6, 167140, "drop"),
        ("american", 8, 845931, "keep"),
        ("italian", 7, 177532, "drop"),
    ):
        run = perft.run(
            draughts.Board(variant=variant),
            depth,
            duplicates=duplicates,
            cluster=ray_cluster,
            hash_mb=2,
            progress_enabled=False,
        )
        assert run.nodes == expected
    board = random_boards("russian", 1, seed=5)[0]
    run = perft.run(board, 5, cluster=ray_cluster, divide=True, progress_enabled=False)
    assert run.nodes == board.perft(5)
    assert run.divide == board.divide(5)


def test_a_table_larger_than_memory_is_an_error_not_a_kill():
    from draughts._memory import physical_mib

    too_big = physical_mib() + 1024
    with pytest.raises(draughts.DraughtsError, match="does not fit"):
        perft.run(draughts.Board(), 3, hash_mb=too_big)
    if too_big <= 65536:  # the engine's own cap is 64 GiB
        with pytest.raises(draughts.DraughtsError, match="does not fit"):
            draughts.Engine(tt_mb=too_big)


def test_a_one_thread_run_shows_progress_when_asked(capsys):
    run = perft.run(draughts.Board(variant="american"), 9, progress_enabled=True)
    assert run.nodes == 3963680
    err = capsys.readouterr().err
    assert f"{run.units}/{run.units}" in err and run.units > 7 and "3963680 nodes" in err


def test_board_perft_takes_a_stop_flag():
    from draughts_core.perft import StopFlag

    board = draughts.Board()
    flag = StopFlag()
    assert board.perft(3, stop=flag) == 658  # the published international perft(3)
    flag.set()
    with pytest.raises(draughts.errors.PerftStopped):
        board.perft(12, stop=flag)
    with pytest.raises(draughts.errors.PerftStopped):
        board.divide(12, stop=flag)


@pytest.mark.parametrize("depth", [2**31, 2**64, 65, -1, 2.0, True])
def test_perft_depths_out_of_range_are_draughts_errors(depth):
    with pytest.raises(DraughtsError, match="from 0 to 64"):
        draughts.Board().perft(depth)


def test_one_perft_depth_limit_on_the_command_line():
    for extra in ([], ["--threads", "2"], ["--hash-mb", "1"]):
        for depth in ("65", "200"):
            run = subprocess.run(
                [sys.executable, "-m", "draughts", "perft", "--depth", depth, *extra],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert run.returncode != 0
            assert f"from 0 to 64, not {depth}" in run.stderr, run.stderr

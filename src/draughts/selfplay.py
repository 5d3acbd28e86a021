"""Self-play games for training the learned evaluation.

Every game starts from a balanced random opening (a few random plies from the
start position, kept only when a shallow search scores it near equality),
then both sides play the engine at a fixed node count under the variant's
draw rules.  The quiet positions of the game (no capture for the side to
move) are kept as raw bitboards with the game's result, so any feature
definition can be computed from them later.

Output is a directory of chunk files (``games-NNNNN.npz``, one per block of
games): a run that is interrupted resumes at the first missing chunk, and a
seeded run writes the same games again (each game's seed is the run seed and
its number).  With `cluster` the chunks are Ray tasks on an existing cluster
(`generate_on_cluster`): each task plays its chunk as a local worker would,
and this process writes the files, so a run may be resumed either way.
"""

from __future__ import annotations

import glob
import hashlib
import multiprocessing
import os
import random
import sys
import tempfile
from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional

import numpy as np

from draughts import cluster as ray_cluster
from draughts._progress import Progress
from draughts.board import Board, Color
from draughts.engine import Engine
from draughts.errors import InvalidInputError
from draughts.limits import Limit
from draughts.variants import variant as get_variant

CHUNK_GAMES = 50

#: the arrays of a chunk file (one row per sampled position)
FIELDS = ("white", "black", "kings", "turn", "result", "score", "game", "ply")


@dataclass(frozen=True)
class SelfPlayConfig:
    variant: str
    nodes: int = 2000
    eval: str = "classic"
    weights: Optional[str] = None  # a learned weights file (eval="learned"), None: the shipped one
    opening_plies: tuple = (2, 8)  # random plies, drawn uniformly from this range
    balance_depth: int = 4
    max_score: float = 0.3
    max_plies: int = 300  # a longer game is scored a draw
    seed: int = 1


def _engine(cfg: SelfPlayConfig, seed: int) -> Engine:
    # no endgame database: a seeded run plays the same games on every machine
    return Engine(cfg.variant, tt_mb=8, seed=seed, eval=cfg.eval, weights_file=cfg.weights, egdb=None)


def _opening(board: Board, engine: Engine, rng: random.Random, cfg: Any, bound: Optional[float] = None) -> Board:
    """A random opening of cfg.opening_plies plies from `board`, kept when a
    search of cfg.balance_depth scores it within `bound` men (default
    cfg.max_score); the board itself after 200 tries."""
    bound = cfg.max_score if bound is None else bound
    lo, hi = cfg.opening_plies
    for _ in range(200):
        b = board.copy()
        plies = rng.randint(lo, hi)
        for _ in range(plies):
            moves = list(b.legal_moves)
            if not moves:
                break
            b.push(moves[rng.randrange(len(moves))])
        if b.outcome() is not None:
            continue
        engine.new_game()
        r = engine.play(b, Limit(depth=cfg.balance_depth)).info
        if r.win_in is None and abs(r.score or 0.0) <= bound:
            return b
    return board.copy()


def play_game(cfg: SelfPlayConfig, number: int, engine: Optional[Engine] = None) -> Dict[str, np.ndarray]:
    """Play game `number` of the run; the arrays of its quiet positions."""
    seed = cfg.seed * 1_000_003 + number
    rng = random.Random(seed)
    engine = engine or _engine(cfg, seed)
    board = _opening(Board(variant=get_variant(cfg.variant)), engine, rng, cfg)
    engine.new_game()
    rows = []
    while board.ply < cfg.max_plies and board.outcome() is None:
        pos = board.position
        r = engine.play(board, Limit(nodes=cfg.nodes))
        if not any(m.is_capture for m in board.legal_moves):
            w, b, k, turn = pos.key()[:4]  # (the frisian king-move counts are not a feature)
            score = r.info.score or 0.0
            white_score = score if turn == 0 else -score
            rows.append((w, b, k, turn, max(-300.0, min(300.0, white_score)) * 100, board.ply))
        board.push(r.move)
    outcome = board.outcome()
    if outcome is None or outcome.winner is None:
        result = 0.5
    else:
        result = 1.0 if outcome.winner == Color.WHITE else 0.0
    n = len(rows)
    cols = list(zip(*rows)) if rows else [()] * 6
    return {
        "white": np.array(cols[0], dtype=np.uint64),
        "black": np.array(cols[1], dtype=np.uint64),
        "kings": np.array(cols[2], dtype=np.uint64),
        "turn": np.array(cols[3], dtype=np.uint8),
        "result": np.full(n, result, dtype=np.float32),
        "score": np.array(cols[4], dtype=np.int16),
        "game": np.full(n, number, dtype=np.int32),
        "ply": np.array(cols[5], dtype=np.int16),
    }


_WORKER: Dict[str, Any] = {}


def renice(niceness: int) -> None:
    """This process at a lower priority (niceness added; 0: unchanged), where the system lets it."""
    if niceness:
        try:
            os.nice(niceness)
        except OSError:
            pass


def _init_worker(cfg: SelfPlayConfig, niceness: int) -> None:
    renice(niceness)
    _WORKER["cfg"] = cfg
    _WORKER["engine"] = _engine(cfg, cfg.seed)


def play_chunk(
    cfg: SelfPlayConfig, chunk: int, engine: Engine, chunk_games: int = CHUNK_GAMES
) -> Dict[str, np.ndarray]:
    """The arrays of chunk `chunk`: games chunk * chunk_games onward, one after another with `engine`."""
    games = [play_game(cfg, chunk * chunk_games + i, engine) for i in range(chunk_games)]
    return {f: np.concatenate([g[f] for g in games]) for f in FIELDS}


def _play_chunk(chunk: int) -> tuple:
    return chunk, play_chunk(_WORKER["cfg"], chunk, _WORKER["engine"])


def chunk_path(out_dir: str, chunk: int) -> str:
    return os.path.join(out_dir, f"games-{chunk:05d}.npz")


def _write_chunk(out_dir: str, chunk: int, arrays: Dict[str, np.ndarray]) -> None:
    """The chunk's file, whole or not at all (written aside, then renamed)."""
    tmp = chunk_path(out_dir, chunk) + ".tmp.npz"
    save: Any = np.savez_compressed  # (its stub types the keywords as its own options)
    save(tmp, **arrays)
    os.replace(tmp, chunk_path(out_dir, chunk))


def generate(
    cfg: SelfPlayConfig,
    games: int,
    out_dir: str,
    *,
    workers: int = 0,
    niceness: int = 10,
    progress: Optional[bool] = None,
    label: str = "games",
    cluster: Optional[str] = None,
) -> int:
    """Play `games` games (rounded up to whole chunks) into out_dir, skipping
    chunks already there, with a progress bar (default: on a terminal);
    returns the number of positions in out_dir's first chunks.  With
    `cluster` (a Ray address) the chunks are played on that cluster
    (`generate_on_cluster`; workers and niceness are then not used)."""
    if games < 1:
        raise InvalidInputError(f"games must be at least 1, not {games}")
    os.makedirs(out_dir, exist_ok=True)
    chunks = (games + CHUNK_GAMES - 1) // CHUNK_GAMES
    todo = [c for c in range(chunks) if not os.path.exists(chunk_path(out_dir, c))]
    done = chunks - len(todo)
    workers = workers or os.cpu_count() or 1
    if todo and cluster:
        generate_on_cluster(cfg, chunks, todo, out_dir, cluster, progress=progress, label=label)
    elif todo:
        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        played = 0
        with (
            Progress(chunks * CHUNK_GAMES, "game", enabled=progress, initial=done * CHUNK_GAMES, desc=label) as bar,
            ctx.Pool(min(workers, len(todo)), initializer=_init_worker, initargs=(cfg, niceness)) as pool,
        ):
            for chunk, arrays in pool.imap_unordered(_play_chunk, todo):
                _write_chunk(out_dir, chunk, arrays)
                done += 1
                played += len(arrays["white"])
                bar.update_to(done * CHUNK_GAMES, f"{played} positions")
    total = 0
    for path in chunk_files(out_dir, chunks):
        with np.load(path) as d:
            total += len(d["white"])
    return total


def generate_on_cluster(
    cfg: SelfPlayConfig,
    chunks: int,
    todo: List[int],
    out_dir: str,
    address: str,
    *,
    progress: Optional[bool] = None,
    label: str = "games",
) -> None:
    """Play the chunks `todo` (of `chunks`) as Ray tasks on the cluster at
    `address`, writing each one's file here as it comes back (as `generate`
    does).  A bad address is an error before any game; a cluster lost on the
    way is a ClusterLost naming what is saved (a rerun plays the rest)."""
    ray = ray_cluster.connect(address)
    weights = None
    if cfg.weights:  # the workers' nodes need not share this file system
        try:
            with open(cfg.weights, "rb") as f:
                weights = ray.put(f.read())
        except OSError as e:
            raise InvalidInputError(f"cannot read learned weights {cfg.weights!r}: {e}") from None
    done = chunks - len(todo)
    played = 0

    def saved() -> str:
        kept = len(chunk_files(out_dir, chunks))
        return (
            f"{kept} of {chunks} chunks ({kept * CHUNK_GAMES} games) are saved in {out_dir}: "
            f"the same command again plays only the rest"
        )

    with Progress(chunks * CHUNK_GAMES, "game", enabled=progress, initial=done * CHUNK_GAMES, desc=label) as bar:

        def finished(chunk: int, result: tuple) -> None:
            nonlocal done, played
            got, arrays = result
            assert got == chunk, (got, chunk)
            _write_chunk(out_dir, chunk, arrays)
            done += 1
            played += len(arrays["white"])
            bar.update_to(done * CHUNK_GAMES, f"{played} positions")

        ray_cluster.map_chunks(
            address, _cluster_chunk, lambda chunk: (cfg, weights, chunk, CHUNK_GAMES), todo, finished, saved=saved
        )


def _cluster_chunk(cfg: SelfPlayConfig, weights: Optional[bytes], chunk: int, chunk_games: int) -> tuple:
    """A Ray task: chunk `chunk`, played as a local worker plays it (one
    engine of the run's seed, kept in this worker process for the run's next
    chunks); `weights`: the contents of cfg.weights."""
    if weights is not None:
        cfg = replace(cfg, weights=_weights_here(weights))
    if _WORKER.get("cfg") != cfg:
        _init_worker(cfg, 0)
    return chunk, play_chunk(cfg, chunk, _WORKER["engine"], chunk_games)


def _weights_here(data: bytes) -> str:
    """A weights file with the contents `data` on this node, named by its digest (written once)."""
    path = os.path.join(tempfile.gettempdir(), f"draughts-weights-{hashlib.sha256(data).hexdigest()[:20]}.npz")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(prefix="draughts-weights-", suffix=".tmp", dir=os.path.dirname(path))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    return path


def chunk_files(out_dir: str, chunks: Optional[int] = None) -> List[str]:
    files = sorted(glob.glob(os.path.join(out_dir, "games-*.npz")))
    files = [f for f in files if not f.endswith(".tmp.npz")]
    if chunks is not None:
        files = [f for f in files if int(os.path.basename(f)[6:11]) < chunks]
    return files


def load(paths: List[str], chunks: Optional[int] = None) -> Dict[str, np.ndarray]:
    """The positions of several output directories (their first `chunks`
    chunks, default all) or chunk files, concatenated."""
    files: List[str] = []
    for p in paths:
        files.extend(chunk_files(p, chunks) if os.path.isdir(p) else [p])
    if not files:
        raise InvalidInputError(f"no games found in {', '.join(paths)}")
    parts = []
    for f in files:
        with np.load(f) as d:
            parts.append({k: d[k] for k in FIELDS})
    out = {f: np.concatenate([d[f] for d in parts]) for f in FIELDS}
    # game numbers unique across files, for splitting by game
    out["game"] = np.concatenate([d["game"].astype(np.int64) + (i << 32) for i, d in enumerate(parts)])
    return out

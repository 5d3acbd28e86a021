"""Training positions at scale: self-play, quiet positions, labelled by a deeper search.

`draughts positions generate` fills a *position set*, a directory that grows
chunk by chunk and is resumed by running the same command again:

* each chunk is `chunk_games` self-play games (chunk c plays games
  c * chunk_games onward; every game's seed is the set's seed and its number,
  so a chunk is the same wherever and whenever it is played);
* a game starts from a random opening of `opening_plies` plies, kept when a
  shallow search scores it within `max_score` men (a balanced start) or, for
  a share `unbalanced` of the games, within `unbalanced_score` men (a start one
  side leads, so the fit sees won and lost positions too); both sides then play
  at `nodes` nodes a move, with the variant's draw rules, to the end or to
  `max_plies` (a draw);
* every quiet position of the game (no capture for the side to move), once per
  game, is searched again at `depth` plies by a labelling engine of its own:
  that score (White's view, centi-men, a won position as +-`SCORE_CAP`) and
  the game's result are its labels.

The positions of a chunk are one ``chunk-NNNNNN.npy`` file, a numpy array of
`RECORD` (34 bytes a position, little-endian; `np.load(path, mmap_mode="r")`
maps it without reading it), written aside and renamed, so a stopped run
loses at most the chunks in flight.  ``positions.json`` holds the format
version and the settings; a run with other settings in the same directory is
refused (a set is one kind of data).  Chunks whose number is
`HELDOUT_EVERY - 1` modulo `HELDOUT_EVERY` are the held-out set (games of
their own openings); `load` deduplicates positions over the whole set, the
first occurrence kept, and drops training positions that also occur in the
held-out chunks.

Work is spread over local processes (`workers`) or, with `cluster`, over the
processors of a Ray cluster (`draughts.cluster.map_chunks`): the chunks come
back to this process, which writes the same files either way.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import queue
import random
import sys
import time
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from draughts import cluster as ray_cluster
from draughts._progress import Progress
from draughts.board import Board, Color
from draughts.engine import Engine
from draughts.errors import InvalidInputError
from draughts.limits import Limit
from draughts.selfplay import _opening
from draughts.variants import variant as get_variant

#: how worker processes start: from a clean process of their own (forkserver
#: where there is one), not forked from this one, whose threads (a Ray
#: driver's, a progress bar's) could leave a forked child stuck on a lock
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

FORMAT = 1

#: one position: the bitboards (the core's square bits), the labels, where it came from
RECORD = np.dtype(
    [
        ("white", "<u8"),
        ("black", "<u8"),
        ("kings", "<u8"),
        ("score", "<i2"),  # the labelling search's score, White's view, centi-men
        ("result", "i1"),  # the game's result: 1 White won, 0 draw, -1 Black won
        ("turn", "u1"),  # 0 White to move, 1 Black
        ("ply", "<u2"),  # plies from the start position
        ("game", "<u4"),  # the game's number in the set
    ]
)

#: a won or lost position's label, centi-men (a search's win score is capped here)
SCORE_CAP = 3000
#: every HELDOUT_EVERY-th chunk (the last of each block) is held out
HELDOUT_EVERY = 16
MANIFEST = "positions.json"


@dataclass(frozen=True)
class PositionConfig:
    """What a position set is made of (its manifest's settings)."""

    variant: str
    nodes: int = 2000  # self-play nodes a move
    depth: int = 8  # the labelling search's depth
    eval: str = "learned"  # the evaluation of both engines
    weights: Optional[str] = None  # a learned weights file (None: the shipped one)
    opening_plies: Tuple[int, int] = (2, 10)
    balance_depth: int = 4
    max_score: float = 0.3  # a balanced start: within this many men
    unbalanced: float = 0.15  # share of games from an unbalanced start
    unbalanced_score: float = 2.5  # an unbalanced start: within this many men
    explore: float = 0.05  # chance of a random move at each of the first explore_plies plies
    explore_plies: int = 30
    max_plies: int = 300
    chunk_games: int = 20
    seed: int = 1

    def settings(self) -> Dict[str, Any]:
        """The settings a manifest records; the weights by their digest, not their path."""
        d = asdict(self)
        d["opening_plies"] = list(self.opening_plies)
        d["weights"] = weights_digest(self)
        return d


def weights_digest(cfg: PositionConfig) -> Optional[str]:
    """sha256 of the weights both engines use (None for the classic evaluation)."""
    if cfg.eval != "learned":
        return None
    from draughts import learned

    path = cfg.weights or learned.weights_path(get_variant(cfg.variant))
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        raise InvalidInputError(f"cannot read learned weights {path!r}: {e}") from None


def default_dir(variant: str) -> str:
    """The user's cache directory for a variant's positions
    ($XDG_CACHE_HOME or ~/.cache, then draughts/positions/VARIANT)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "draughts", "positions", get_variant(variant).name)


# ---------------------------------------------------------------------------
# playing and labelling


def _engines(cfg: PositionConfig) -> Tuple[Engine, Engine]:
    # no endgame database: a chunk is the same on every machine
    def engine() -> Engine:
        return Engine(cfg.variant, seed=cfg.seed, tt_mb=8, eval=cfg.eval, weights_file=cfg.weights, egdb=None)

    return engine(), engine()


def label(info) -> int:
    """A search's score as a label: centi-men for the side to move, a win capped at SCORE_CAP."""
    if info.win_in is not None:
        return SCORE_CAP if (info.score or 0.0) > 0 else -SCORE_CAP
    return int(max(-SCORE_CAP, min(SCORE_CAP, round((info.score or 0.0) * 100))))


def play_game(
    cfg: PositionConfig, number: int, engines: Optional[Tuple[Engine, Engine]] = None, seen: Optional[set] = None
) -> np.ndarray:
    """Game `number` of the set: its quiet positions, each labelled, as RECORD
    rows; `seen`: positions already labelled (in this chunk), not labelled again."""
    player, labeller = engines or _engines(cfg)
    rng = random.Random(cfg.seed * 1_000_003 + number)
    bound = cfg.unbalanced_score if rng.random() < cfg.unbalanced else cfg.max_score
    board = _opening(Board(variant=get_variant(cfg.variant)), player, rng, cfg, bound)
    player.new_game()
    labeller.new_game()
    rows: List[tuple] = []
    seen = set() if seen is None else seen
    explore_until = board.ply + cfg.explore_plies
    while board.ply < cfg.max_plies and board.outcome() is None:
        pos = board.position
        key = pos.key()
        if key not in seen and not any(m.is_capture for m in board.legal_moves):
            seen.add(key)
            score = label(labeller.play(board, Limit(depth=cfg.depth)).info)
            turn = key[3]
            rows.append((key[0], key[1], key[2], score if turn == 0 else -score, 0, turn, board.ply, number))
        if cfg.explore and board.ply < explore_until and rng.random() < cfg.explore:
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
        else:
            board.push(player.play(board, Limit(nodes=cfg.nodes)).move)
    outcome = board.outcome()
    result = 0 if outcome is None or outcome.winner is None else 1 if outcome.winner == Color.WHITE else -1
    out = np.array(rows, dtype=RECORD)
    out["result"] = result
    return out


def play_chunk(cfg: PositionConfig, chunk: int, engines: Optional[Tuple[Engine, Engine]] = None) -> np.ndarray:
    """The positions of chunk `chunk`: its games one after another."""
    engines = engines or _engines(cfg)
    first = chunk * cfg.chunk_games
    seen: set = set()  # a position repeated within the chunk is labelled once
    return np.concatenate([play_game(cfg, first + i, engines, seen) for i in range(cfg.chunk_games)])


# ---------------------------------------------------------------------------
# the set on disk


def chunk_path(out_dir: str, chunk: int) -> str:
    return os.path.join(out_dir, f"chunk-{chunk:06d}.npy")


def chunk_numbers(out_dir: str) -> List[int]:
    """The chunks written in out_dir, in order."""
    try:
        names = os.listdir(out_dir)
    except FileNotFoundError:
        return []
    return sorted(
        int(n[6:12])
        for n in names
        if n.startswith("chunk-") and n.endswith(".npy") and len(n) == 16 and n[6:12].isdigit()
    )


def is_heldout(chunk: int) -> bool:
    return chunk % HELDOUT_EVERY == HELDOUT_EVERY - 1


def _write_chunk(out_dir: str, chunk: int, rows: np.ndarray) -> None:
    """The chunk's file, whole or not at all (written aside, then renamed)."""
    tmp = os.path.join(out_dir, f".chunk-{chunk:06d}-{os.getpid()}.tmp")
    with open(tmp, "wb") as f:  # (open, not mkstemp: the file's mode follows the umask)
        np.save(f, np.ascontiguousarray(rows, dtype=RECORD))
    os.replace(tmp, chunk_path(out_dir, chunk))


def read_manifest(out_dir: str) -> Optional[Dict[str, Any]]:
    path = os.path.join(out_dir, MANIFEST)
    if not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise InvalidInputError(f"{path} is not a position set's manifest: {e}") from None


def open_set(cfg: PositionConfig, out_dir: str) -> Dict[str, Any]:
    """Create the set's directory and manifest, or check that an existing
    set was made with the same settings; returns the manifest."""
    os.makedirs(out_dir, exist_ok=True)
    settings = cfg.settings()
    manifest = read_manifest(out_dir)
    if manifest is None:
        manifest = {
            "format": FORMAT,
            "record": RECORD.descr,
            "heldout_every": HELDOUT_EVERY,
            "settings": settings,
            "runs": [],
        }
        _write_manifest(out_dir, manifest)
        return manifest
    if manifest.get("format") != FORMAT:
        raise InvalidInputError(
            f"{out_dir} holds positions of format {manifest.get('format')}, this version reads format {FORMAT}"
        )
    old = manifest.get("settings", {})
    differ = sorted(k for k in settings if old.get(k) != settings[k])
    if differ:
        said = ", ".join(f"{k} {old.get(k)!r} (now {settings[k]!r})" for k in differ)
        raise InvalidInputError(
            f"{out_dir} holds positions made with other settings: {said}; "
            f"give another --out, or the same settings to add to it"
        )
    return manifest


def _write_manifest(out_dir: str, manifest: Dict[str, Any]) -> None:
    path = os.path.join(out_dir, MANIFEST)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def config_of(out_dir: str) -> PositionConfig:
    """The settings of an existing set (the weights as the shipped ones' digest)."""
    manifest = read_manifest(out_dir)
    if manifest is None:
        raise InvalidInputError(f"{out_dir} is not a position set: it has no {MANIFEST}")
    s = dict(manifest["settings"])
    s["opening_plies"] = tuple(s["opening_plies"])
    s["weights"] = None
    names = {f.name for f in fields(PositionConfig)}
    return PositionConfig(**{k: v for k, v in s.items() if k in names})


# ---------------------------------------------------------------------------
# generation

_WORKER: Dict[str, Any] = {}


def _init_worker(cfg: PositionConfig, niceness: int) -> None:
    from draughts.selfplay import renice

    renice(niceness)
    _WORKER["cfg"] = cfg
    _WORKER["engines"] = _engines(cfg)


def _local_chunk(chunk: int) -> Tuple[int, np.ndarray]:
    return chunk, play_chunk(_WORKER["cfg"], chunk, _WORKER["engines"])


def _cluster_chunk(cfg: PositionConfig, weights: Optional[bytes], chunk: int) -> Tuple[int, np.ndarray]:
    """A Ray task: chunk `chunk` as a local worker plays it; `weights`: the contents of cfg.weights."""
    if weights is not None:
        from draughts.selfplay import _weights_here

        cfg = replace(cfg, weights=_weights_here(weights))
    if _WORKER.get("cfg") != cfg:
        _init_worker(cfg, 0)
    return chunk, play_chunk(cfg, chunk, _WORKER["engines"])


@dataclass
class RunReport:
    """What one `generate` call did."""

    chunks: int = 0  # chunks written by this run
    positions: int = 0  # positions written by this run
    seconds: float = 0.0
    total_chunks: int = 0  # chunks in the set afterwards
    total_positions: int = 0
    stopped: str = ""  # why the run stopped: "target", "time"
    per_hour: float = field(default=0.0)


def count(out_dir: str) -> int:
    """Positions in the set (read from the files' headers, not their data)."""
    total = 0
    for c in chunk_numbers(out_dir):
        total += np.load(chunk_path(out_dir, c), mmap_mode="r").shape[0]
    return total


def generate(
    cfg: PositionConfig,
    out_dir: str,
    *,
    positions: Optional[int] = None,
    chunks: Optional[int] = None,
    hours: Optional[float] = None,
    workers: int = 0,
    niceness: int = 10,
    cluster: Optional[str] = None,
    progress: Optional[bool] = None,
    report: Optional[Callable[[str], None]] = None,
) -> RunReport:
    """Add chunks to the set in out_dir until it holds `positions` positions
    (or its first `chunks` chunks exist), or for `hours` hours (the chunks in
    flight then finish); the lowest missing chunk numbers first, so a stopped
    run resumes where it was.  On `workers` local processes (default all) or
    the Ray cluster at `cluster`."""
    if positions is None and chunks is None and hours is None:
        raise InvalidInputError("say how much to make: positions, chunks or hours")
    manifest = open_set(cfg, out_dir)
    have = chunk_numbers(out_dir)
    total = count(out_dir)
    start_total = total
    done_set = set(have)
    deadline = None if hours is None else time.monotonic() + hours * 3600.0
    t0 = time.monotonic()
    run = RunReport()

    def wanted() -> bool:
        if deadline is not None and time.monotonic() >= deadline:
            run.stopped = "time"
            return False
        if positions is not None and total >= positions:
            run.stopped = "target"
            return False
        return True

    limit = chunks if chunks is not None else 1 << 30
    pending_numbers = (c for c in range(limit) if c not in done_set)
    workers = workers or os.cpu_count() or 1
    goal = positions  # the bar's end (none: a count)

    started = time.strftime("%Y-%m-%d %H:%M:%S")
    where = "cluster" if cluster else f"local, {workers} processes"
    slot: List[int] = []  # this run's place in the manifest's runs

    def record_run() -> None:
        """This run's line in the manifest, rewritten after every chunk (a run
        that is stopped keeps its count)."""
        seconds = time.monotonic() - t0
        entry = {
            "date": started,
            "chunks": run.chunks,
            "positions": run.positions,
            "seconds": round(seconds, 1),
            "positions_per_hour": round(run.positions / seconds * 3600) if seconds > 0 else 0,
            "where": where,
        }
        m = read_manifest(out_dir) or manifest
        runs = m.setdefault("runs", [])
        if slot:
            runs[slot[0]] = entry
        else:
            slot.append(len(runs))
            runs.append(entry)
        _write_manifest(out_dir, m)

    with Progress(goal, "pos", enabled=progress, initial=total, desc=f"{cfg.variant} positions") as bar:

        def finished(chunk: int, rows: np.ndarray) -> None:
            nonlocal total
            _write_chunk(out_dir, chunk, rows)
            total += len(rows)
            run.chunks += 1
            run.positions += len(rows)
            elapsed = max(1e-9, time.monotonic() - t0)
            bar.update_to(total, f"{run.positions / elapsed * 3600:,.0f} positions/h, chunk {chunk}")
            record_run()

        def next_chunks(n: int) -> List[int]:
            out: List[int] = []
            while len(out) < n and wanted():
                c = next(pending_numbers, None)
                if c is None:
                    break
                out.append(c)
            return out

        if cluster:
            _generate_on_cluster(cfg, out_dir, cluster, next_chunks, finished)
        else:
            ctx = multiprocessing.get_context(_START_METHOD)
            results: "queue.Queue[Any]" = queue.Queue()
            with ctx.Pool(workers, initializer=_init_worker, initargs=(cfg, niceness)) as pool:

                def submit(c: int) -> None:
                    pool.apply_async(_local_chunk, (c,), callback=results.put, error_callback=results.put)

                inflight = 0
                for c in next_chunks(workers):
                    submit(c)
                    inflight += 1
                while inflight:
                    got = results.get()
                    inflight -= 1
                    if isinstance(got, BaseException):
                        raise got
                    finished(*got)
                    for c in next_chunks(1):
                        submit(c)
                        inflight += 1
    if not run.stopped:
        run.stopped = "chunks"
    run.seconds = time.monotonic() - t0
    run.total_chunks = len(chunk_numbers(out_dir))
    run.total_positions = total
    run.per_hour = run.positions / run.seconds * 3600 if run.seconds > 0 else 0.0
    record_run()
    if report:
        report(
            f"{run.positions} positions in {run.chunks} chunks in {run.seconds:.0f} s "
            f"({run.per_hour:,.0f} an hour); the set holds {total} (was {start_total}) in {out_dir}"
        )
    return run


def _generate_on_cluster(
    cfg: PositionConfig,
    out_dir: str,
    address: str,
    next_chunks: Callable[[int], List[int]],
    finished: Callable[[int, np.ndarray], None],
) -> None:
    ray = ray_cluster.connect(address)
    weights = None
    if cfg.weights:  # the workers' nodes need not share this file system
        try:
            with open(cfg.weights, "rb") as f:
                weights = ray.put(f.read())
        except OSError as e:
            raise InvalidInputError(f"cannot read learned weights {cfg.weights!r}: {e}") from None
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    # in rounds of the cluster's capacity, so that a target or a deadline is
    # checked between them
    while True:
        todo = next_chunks(cpus * ray_cluster.TASKS_PER_CPU)
        if not todo:
            return

        def done(chunk: int, result: Tuple[int, np.ndarray]) -> None:
            got, rows = result
            assert got == chunk, (got, chunk)
            finished(chunk, rows)

        ray_cluster.map_chunks(
            address,
            _cluster_chunk,
            lambda c: (cfg, weights, c),
            todo,
            done,
            saved=lambda: (
                f"{count(out_dir)} positions are saved in {out_dir}: the same command again makes only the rest"
            ),
        )


# ---------------------------------------------------------------------------
# reading


def position_keys(rows: np.ndarray) -> np.ndarray:
    """A 64-bit key of each position (its bitboards and side to move), for deduplication."""
    w, b, kings = (np.asarray(rows[f], dtype=np.uint64) for f in ("white", "black", "kings"))
    turn = np.asarray(rows["turn"], dtype=np.uint64)
    with np.errstate(over="ignore"):
        k = w * np.uint64(0x9E3779B97F4A7C15)
        k = k ^ ((k >> np.uint64(29)) + b * np.uint64(0xC2B2AE3D27D4EB4F))
        k = k ^ ((k >> np.uint64(31)) + kings * np.uint64(0x165667B19E3779F9))
        k = k ^ ((k >> np.uint64(27)) + turn * np.uint64(0x27D4EB2F165667C5))
        k = k ^ (k >> np.uint64(33))
    return k


@dataclass
class Loaded:
    """A set's positions after deduplication: the training and held-out rows."""

    train: np.ndarray
    heldout: np.ndarray
    read: int  # positions read
    duplicates: int  # dropped as repeats (or training copies of held-out ones)


def load(dirs: List[str], *, limit: Optional[int] = None) -> Loaded:
    """The positions of one or more sets, deduplicated in chunk order (the
    first occurrence kept; a training position that is also held out is
    dropped from training), at most `limit` training positions."""
    parts_train: List[np.ndarray] = []
    parts_held: List[np.ndarray] = []
    variant = None
    for d in dirs:
        manifest = read_manifest(d)
        if manifest is None:
            raise InvalidInputError(f"{d} is not a position set: it has no {MANIFEST}")
        v = manifest["settings"]["variant"]
        if variant is not None and v != variant:
            raise InvalidInputError(f"the position sets are of different variants: {variant} and {v}")
        variant = v
        for c in chunk_numbers(d):
            rows = np.load(chunk_path(d, c))
            (parts_held if is_heldout(c) else parts_train).append(rows)
    if not parts_train and not parts_held:
        raise InvalidInputError(f"no positions in {', '.join(dirs)}")
    train = np.concatenate(parts_train) if parts_train else np.zeros(0, RECORD)
    held = np.concatenate(parts_held) if parts_held else np.zeros(0, RECORD)
    read = len(train) + len(held)
    held = _first_occurrences(held)
    train = _first_occurrences(train)
    train = train[~np.isin(position_keys(train), position_keys(held))]
    if limit is not None:
        train = train[:limit]
    return Loaded(train, held, read, read - len(train) - len(held))


def _first_occurrences(rows: np.ndarray) -> np.ndarray:
    _, first = np.unique(position_keys(rows), return_index=True)
    return rows[np.sort(first)]


def iter_batches(rows: np.ndarray, batch: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """The rows in a random order, `batch` at a time."""
    order = rng.permutation(len(rows))
    for k in range(0, len(order), batch):
        yield rows[order[k : k + batch]]


# ---------------------------------------------------------------------------
# fitting


def prepare(variant, train_rows: np.ndarray, held_rows: np.ndarray, block: int = 1 << 20):
    """The feature arrays of the training and held-out rows (one `train.Data`,
    the held-out rows last), computed `block` positions at a time."""
    from draughts import learned, train

    v = get_variant(variant)
    rows = np.concatenate([train_rows, held_rows])
    parts = [
        learned.features(v, r["white"], r["black"], r["kings"], r["turn"])
        for r in (rows[k : k + block] for k in range(0, max(1, len(rows)), block))
    ]
    idx, dense, pieces, king_sq = (np.concatenate([p[i] for p in parts]) for i in range(4))
    full = learned.layout(v).full
    phase = np.minimum(pieces, full).astype(np.float64) / full
    heldout = np.zeros(len(rows), dtype=bool)
    heldout[len(train_rows) :] = True
    result = (rows["result"].astype(np.float64) + 1.0) / 2.0
    return train.Data(idx, dense, king_sq, phase, result, heldout, rows["score"].astype(np.float64))


def fit_sets(
    dirs: List[str],
    out: str,
    *,
    start: str = "shipped",
    score_weight: float = 0.75,
    epochs: int = 6,
    batch: int = 4096,
    lr: float = 2.0,
    l2: float = 2.0,
    seed: int = 1,
    limit: Optional[int] = None,
    command: str = "",
    report: Callable[[str], None] = lambda line: None,
) -> Dict[str, Any]:
    """Fit learned weights to the position sets `dirs` and write them to `out`
    (with its .json manifest); returns the manifest.  `start`: "shipped" (the
    variant's shipped weights), "material" or a weights file; the sigmoid
    scale is the start weights' (the shipped file's for material)."""
    from draughts import learned, train

    loaded = load(dirs, limit=limit)
    manifest0 = read_manifest(dirs[0]) or {}
    v = get_variant(manifest0["settings"]["variant"])
    report(
        f"{len(loaded.train)} training and {len(loaded.heldout)} held-out positions "
        f"({loaded.read} read, {loaded.duplicates} duplicates dropped)"
    )
    if len(loaded.heldout) == 0:
        raise InvalidInputError(f"no held-out positions: a set holds them from its chunk {HELDOUT_EVERY - 1} on")
    lay = learned.layout(v)
    start_path = learned.weights_path(v) if start == "shipped" else None if start == "material" else start
    if start_path is not None:
        model = train.Model(v, *learned.read(start_path, lay))
    else:
        model = train.Model(v)
    try:
        scale = float(learned.manifest(start_path or learned.weights_path(v))["scale"])
    except (OSError, ValueError, KeyError, TypeError):
        raise InvalidInputError(f"the start weights of {v.name} name no sigmoid scale in their manifest") from None
    t0 = time.monotonic()
    data = prepare(v, loaded.train, loaded.heldout)
    report(f"features of {len(data.phase)} positions in {time.monotonic() - t0:.0f} s; scale {scale:.6f}")
    losses = train.fit(
        model,
        data,
        scale,
        epochs=epochs,
        batch=batch,
        lr=lr,
        l2=l2,
        score_weight=score_weight,
        seed=seed,
        report=report,
    )
    sets = []
    for d in dirs:
        m = read_manifest(d) or {}
        sets.append(
            {"dir": os.path.basename(os.path.normpath(d)), "settings": m.get("settings"), "positions": count(d)}
        )
    start_generation = 0
    try:
        start_generation = int(learned.manifest(start_path).get("generation", 0)) if start_path else 0
    except (OSError, ValueError, TypeError):
        pass
    games = sum(len(chunk_numbers(d)) * int((read_manifest(d) or {})["settings"]["chunk_games"]) for d in dirs)
    manifest = dict(
        losses,
        command=command,
        variant=v.name,
        seed=seed,
        scale=scale,
        epochs=epochs,
        generation=start_generation + 1,
        games=int(games),
        batch=batch,
        lr=lr,
        l2=l2,
        score_weight=score_weight,
        start=os.path.basename(start_path) if start_path else "material",
        positions=int(len(loaded.train) + len(loaded.heldout)),
        duplicates=int(loaded.duplicates),
        sets=sets,
    )
    learned.write(out, model.patterns, model.dense, model.king_sq, manifest)
    report(
        f"wrote {out}: held-out log-loss {losses['heldout_loss']:.5f} against the results "
        f"(start {losses['heldout_loss_start']:.5f}), {losses['heldout_loss_target']:.5f} against the "
        f"target (start {losses['heldout_loss_target_start']:.5f})"
    )
    return manifest


# ---------------------------------------------------------------------------
# the command line


def register(sub) -> None:
    from draughts._args import positive_int
    from draughts.variants import VARIANTS

    p = sub.add_parser("positions", help="training positions at scale: generate, inspect, fit")
    cmds = p.add_subparsers(dest="positions_command", metavar="{generate,info,fit}")
    cmds.required = True
    g = cmds.add_parser("generate", help="self-play quiet positions labelled by a deeper search (resumable)")
    g.add_argument("--variant", "-v", default="international", help=f"variant ({', '.join(VARIANTS)})")
    g.add_argument(
        "--out",
        "-o",
        help="the position set's directory (default: the user's cache, draughts/positions/VARIANT); a rerun adds to it",
    )
    size = g.add_argument_group("how much (at least one; the first reached ends the run)")
    size.add_argument("--positions", type=positive_int, help="until the set holds this many positions")
    size.add_argument("--chunks", type=positive_int, help="until the set's first N chunks exist")
    size.add_argument("--hours", type=float, help="for this many hours (the chunks in flight then finish)")
    g.add_argument("--nodes", type=positive_int, default=2000, help="self-play nodes a move (default 2000)")
    g.add_argument("--depth", type=positive_int, default=8, help="depth of the labelling search (default 8)")
    g.add_argument(
        "--eval", choices=("learned", "classic"), default="learned", help="both engines' evaluation (default learned)"
    )
    g.add_argument("--weights", help="a learned weights file for both engines (default: the shipped one)")
    g.add_argument(
        "--unbalanced", type=float, default=0.15, help="share of games from an unbalanced start (default 0.15)"
    )
    g.add_argument(
        "--explore",
        type=float,
        default=0.05,
        help="chance of a random move at each of a game's first 30 plies after the opening "
        "(default 0.05: games part ways sooner)",
    )
    g.add_argument("--chunk-games", type=positive_int, default=20, help="games a chunk (default 20)")
    g.add_argument("--seed", type=int, default=1, help="the set's seed (default 1)")
    g.add_argument(
        "--workers", type=positive_int, default=os.cpu_count() or 1, help="local processes (default: all cores)"
    )
    g.add_argument("--nice", type=int, default=10, help="niceness of the local processes (default 10)")
    g.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the chunks as Ray tasks on the cluster at ADDRESS (needs the [cluster] extra)",
    )
    g.add_argument(
        "--progress",
        choices=("on", "off"),
        default=None,
        help="progress bar on stderr (default: on a terminal, not under CI=true)",
    )
    g.set_defaults(func=cmd_generate)
    i = cmds.add_parser("info", help="what a position set holds")
    i.add_argument("dirs", nargs="*", help="position sets (default: the variant's in the user's cache)")
    i.add_argument("--variant", "-v", default="international", help="variant of the default set")
    i.set_defaults(func=cmd_info)
    f = cmds.add_parser("fit", help="fit learned weights to position sets")
    f.add_argument(
        "--data", "-d", action="append", required=True, metavar="DIR", help="a position set (repeatable: one variant)"
    )
    f.add_argument("--out", "-o", required=True, help="the weights file to write (.npz, and its .json)")
    f.add_argument(
        "--start", default="shipped", help="start from: shipped (the variant's weights), material, or a weights file"
    )
    f.add_argument(
        "--score-weight",
        type=float,
        default=0.75,
        help="share of the search label in the target, the rest the game result (default 0.75)",
    )
    f.add_argument("--epochs", type=positive_int, default=6, help="passes over the positions (default 6)")
    f.add_argument("--batch", type=positive_int, default=4096, help="minibatch size (default 4096)")
    f.add_argument("--lr", type=float, default=2.0, help="Adam step size in centi-men (default 2)")
    f.add_argument("--l2", type=float, default=2.0, help="L2 weight on the pattern weights (default 2)")
    f.add_argument("--limit", type=positive_int, help="at most this many training positions")
    f.add_argument("--seed", type=int, default=1, help="seed of the minibatches (default 1)")
    f.set_defaults(func=cmd_fit)


def _reporter() -> Callable[[str], None]:
    t0 = time.time()

    def report(line: str) -> None:
        print(f"[{time.time() - t0:7.1f}s] {line}", file=sys.stderr, flush=True)

    return report


def cmd_generate(args) -> int:
    from draughts._progress import shown_by_default

    if args.positions is None and args.chunks is None and args.hours is None:
        raise InvalidInputError("say how much to make: --positions N, --chunks N or --hours H")
    for name in ("unbalanced", "explore"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            raise InvalidInputError(f"--{name} is a share from 0 to 1, not {getattr(args, name)}")
    v = get_variant(args.variant)
    cfg = PositionConfig(
        v.name,
        nodes=args.nodes,
        depth=args.depth,
        eval=args.eval,
        weights=args.weights,
        unbalanced=args.unbalanced,
        explore=args.explore,
        chunk_games=args.chunk_games,
        seed=args.seed,
    )
    out = args.out or default_dir(v.name)
    progress = shown_by_default() if args.progress is None else args.progress == "on"
    run = generate(
        cfg,
        out,
        positions=args.positions,
        chunks=args.chunks,
        hours=args.hours,
        workers=args.workers,
        niceness=args.nice,
        cluster=args.cluster,
        progress=progress,
        report=_reporter(),
    )
    print(
        f"{run.total_positions} positions in {run.total_chunks} chunks in {out} "
        f"(this run {run.positions}, {run.per_hour:,.0f} an hour)"
    )
    return 0


def cmd_info(args) -> int:
    dirs = args.dirs or [default_dir(args.variant)]
    for d in dirs:
        manifest = read_manifest(d)
        if manifest is None:
            raise InvalidInputError(f"{d} is not a position set: it has no {MANIFEST}")
        numbers = chunk_numbers(d)
        held = sum(1 for c in numbers if is_heldout(c))
        s = manifest["settings"]
        print(
            f"{d}: {s['variant']}, {count(d)} positions in {len(numbers)} chunks ({held} held out), "
            f"{s['nodes']} nodes a move, labelled at depth {s['depth']}"
        )
        for r in manifest.get("runs", []):
            print(
                f"  {r['date']}: {r['positions']} positions in {r['seconds']:.0f} s "
                f"({r['positions_per_hour']:,} an hour, {r['where']})"
            )
    return 0


def cmd_fit(args) -> int:
    import shlex

    command = "draughts positions fit " + " ".join(
        shlex.quote(a) for a in (getattr(args, "command_line", None) or [])[2:]
    )
    manifest = fit_sets(
        args.data,
        args.out,
        start=args.start,
        score_weight=args.score_weight,
        epochs=args.epochs,
        batch=args.batch,
        lr=args.lr,
        l2=args.l2,
        seed=args.seed,
        limit=args.limit,
        command=command,
        report=_reporter(),
    )
    print(
        f"held-out log-loss {manifest['heldout_loss']:.5f} against the results, "
        f"{manifest['heldout_loss_target']:.5f} against the target; {args.out}"
    )
    return 0

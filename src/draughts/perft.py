"""Perft at scale: hashed, threaded, distributed, resumable.

The tree is split into subtrees at a fixed ply below the root (the *split*),
numbered in the core's move order, so a run can be checkpointed after every
finished subtree and resumed, and the subtrees can run on native threads (the
GIL is released inside the core) or as Ray tasks.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

from draughts import cluster as ray_cluster
from draughts._files import load_json, save_json
from draughts._memory import check_table_size
from draughts._progress import Progress as Bar
from draughts.board import Board, Move, check_perft_depth
from draughts.errors import ClusterLost, InvalidInputError, PerftStopped, TableMemoryError
from draughts.variants import Variant
from draughts_core.perft import PerftTable, StopFlag
from draughts_core.position import Position

CHECKPOINT_VERSION = 1


@dataclass
class Unit:
    index: int
    root: int  # index of the root move this subtree lies below
    position: Position


@dataclass
class PerftRun:
    depth: int
    nodes: int
    seconds: float
    divide: List[Tuple[Move, int]] = field(default_factory=list)
    units: int = 0
    resumed: int = 0


def split_units(board: Board, depth: int, split: int, keep: bool) -> Tuple[List[Tuple[Move, Position]], List[Unit]]:
    """The subtrees `split` plies below the root (1 <= split < depth)."""
    roots = board.successors("keep" if keep else "drop")
    units: List[Unit] = []
    frontier = [(i, child) for i, (_, child) in enumerate(roots)]
    for _ in range(split - 1):
        nxt = []
        for root, pos in frontier:
            for *_, code in pos.moves(keep):
                nxt.append((root, pos.play_code(code)))
        frontier = nxt
    for i, (root, pos) in enumerate(frontier):
        units.append(Unit(i, root, pos))
    return roots, units


def choose_split(board: Board, depth: int, workers: int, keep: bool) -> int:
    """The smallest split giving at least 8 subtrees a worker (and leaving depth)."""
    if depth <= 2:
        return 1
    split, count = 1, len(board.position.moves(keep))
    frontier = [board.position]
    while count < 8 * max(1, workers) and split < min(depth - 2, 4):
        nxt = []
        for pos in frontier:
            for *_, code in pos.moves(keep):
                nxt.append(pos.play_code(code))
        frontier = nxt
        split += 1
        count = sum(len(p.moves(keep)) for p in frontier)
    return split


class Checkpoint:
    """Finished subtrees of a run, written atomically after each one."""

    def __init__(self, path: str, header: Dict):
        self.path = path
        self.header = header
        self.done: Dict[int, int] = {}
        self._lock = threading.RLock()

    @classmethod
    def load(cls, path: str, header: Dict) -> "Checkpoint":
        data = load_json(path, "checkpoint")
        if not isinstance(data, dict):
            raise InvalidInputError(f"{path!r} is not a perft checkpoint")
        saved = {k: data.get(k) for k in header}
        if saved != header:

            def show(key, value):
                if key == "variant" and isinstance(value, dict):
                    return f"{value.get('name')} (rules {hash(json.dumps(value, sort_keys=True)) & 0xFFFF:04x})"
                return repr(value)

            diff = ", ".join(
                f"{k}: saved {show(k, saved[k])}, asked {show(k, header[k])}" for k in header if saved[k] != header[k]
            )
            raise InvalidInputError(f"checkpoint {path!r} belongs to another run ({diff})")
        cp = cls(path, header)
        cp.done = {int(k): int(v) for k, v in data.get("done", {}).items()}
        return cp

    @staticmethod
    def peek_split(path: str) -> Optional[int]:
        """The split a saved run used (None when the file cannot tell)."""
        try:
            with open(path, encoding="utf-8") as fh:
                value = json.load(fh).get("split")
        except (OSError, ValueError, AttributeError):
            return None
        return value if isinstance(value, int) and value >= 1 else None

    def record(self, index: int, count: int) -> None:
        with self._lock:
            self.done[index] = count
            self.save()

    def save(self) -> None:
        with self._lock:
            data = dict(self.header)
            data["done"] = {str(k): v for k, v in sorted(self.done.items())}
            save_json(self.path, data)


class Progress:
    """The bar of a perft run on stderr: subtrees done, nodes so far, ETA."""

    def __init__(self, total: int, stream=None, enabled: Optional[bool] = None):
        self.total = total
        self.stream = stream
        self.enabled = enabled
        self.start_done = 0
        self._bar: Optional[Bar] = None

    def update(self, done: int, nodes: int, force: bool = False) -> None:
        if self._bar is None:
            self._bar = Bar(self.total, "subtree", enabled=self.enabled, stream=self.stream, initial=self.start_done)
        self._bar.update_to(done, f"{nodes} nodes")
        if done >= self.total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def _variant_fields(v: Variant) -> Dict:
    return {f.name: getattr(v, f.name) for f in dataclasses.fields(v)}


def _run_unit_remote(fields: Dict, pieces, turn: int, depth: int, keep: bool, hash_mb: int) -> int:
    """A Ray task: one subtree, with its own table."""
    fields = dict(fields)
    fields["aliases"] = tuple(fields.get("aliases", ()))
    variant = Variant(**fields)
    white, black, kings = pieces
    pos = Position(variant.core_rules, white, black, kings, turn)
    if hash_mb:
        return pos.perft_with_table(depth, keep, new_table(hash_mb))
    return pos.perft(depth, keep)


def new_table(hash_mb: int) -> PerftTable:
    """A perft table, or TableMemoryError when the memory cannot be had."""
    try:
        return PerftTable(hash_mb)
    except MemoryError:
        raise TableMemoryError(f"cannot allocate a {hash_mb} MiB perft table") from None


def run(
    board: Board,
    depth: int,
    *,
    duplicates: str = "drop",
    hash_mb: int = 0,
    threads: int = 1,
    cluster: Optional[str] = None,
    divide: bool = False,
    checkpoint: Optional[str] = None,
    resume: Optional[str] = None,
    split: Optional[int] = None,
    progress: Optional[Progress] = None,
    progress_enabled: Optional[bool] = None,
    on_unit: Optional[Callable[[int, int], None]] = None,
) -> PerftRun:
    """perft(depth) of the board's position with any of: a hash table, threads,
    a Ray cluster, a checkpoint file, a per-root-move breakdown."""
    if duplicates not in ("drop", "keep"):
        raise InvalidInputError(f"duplicates must be 'drop' or 'keep', not {duplicates!r}")
    check_perft_depth(depth)
    if threads < 1:
        raise InvalidInputError(f"threads must be at least 1, not {threads}")
    if hash_mb < 0:
        raise InvalidInputError(f"hash size must be >= 0 MiB, not {hash_mb}")
    if hash_mb:
        check_table_size(hash_mb, "perft table")
    keep = duplicates == "keep"
    t0 = time.perf_counter()
    plain = threads == 1 and not cluster and not checkpoint and not resume and split is None
    # a progress bar needs subtrees to count: then even a one-thread run is split at the root
    shows_progress = progress is not None or (progress_enabled if progress_enabled is not None else sys.stderr.isatty())
    if depth == 0 or (plain and not divide and not (shows_progress and depth >= 3)):
        if hash_mb and depth > 0:
            nodes = board.position.perft_with_table(depth, keep, new_table(hash_mb))
        else:
            nodes = board.position.perft(depth, keep)
        return PerftRun(depth, nodes, time.perf_counter() - t0)

    workers = threads
    if split is None and resume:
        split = Checkpoint.peek_split(resume)
    if split is None:
        # a run split only for its progress bar: enough subtrees for a useful ETA
        split = choose_split(board, depth, 4 if plain else workers, keep)
    if not 1 <= split <= depth:
        raise InvalidInputError(f"split must be between 1 and the depth ({depth}), not {split}")
    roots, units = split_units(board, depth, split, keep)
    remaining_depth = depth - split

    fields = _variant_fields(board.variant)
    fields["aliases"] = list(fields["aliases"])
    fields["first"] = int(fields["first"])
    header: Dict[str, Any] = {
        "version": CHECKPOINT_VERSION,
        "variant": fields,
        "fen": board.fen(numeric=True),
        "depth": depth,
        "duplicates": duplicates,
        "split": split,
        "units": len(units),
    }
    cp: Optional[Checkpoint] = None
    if resume:
        cp = Checkpoint.load(resume, header)
    elif checkpoint:
        cp = Checkpoint(checkpoint, header)
        cp.save()
    counts: Dict[int, int] = dict(cp.done) if cp else {}
    resumed = len(counts)
    todo = [u for u in units if u.index not in counts]
    bar = progress or Progress(len(units), enabled=progress_enabled)
    bar.start_done = resumed
    bar.update(len(counts), sum(counts.values()), force=True)

    def finished(index: int, count: int):
        counts[index] = count
        if cp:
            cp.record(index, count)
        if on_unit:
            on_unit(index, count)
        bar.update(len(counts), sum(counts.values()))

    if cluster:
        ray = ray_cluster.connect(cluster)
        watch = ray_cluster.Watch(cluster)
        remote = ray.remote(_run_unit_remote)
        fields = header["variant"]
        pending = {}
        for u in todo:
            ref = remote.remote(fields, u.position.pieces(), u.position.turn, remaining_depth, keep, hash_mb)
            pending[ref] = u.index
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in ready:
                    try:
                        count = int(ray.get(ref, timeout=30))
                    except Exception as e:  # the task, its node or the head died
                        raise ClusterLost(
                            f"subtree {pending[ref]} failed on the Ray cluster at {cluster!r}: {e}"
                        ) from None
                    finished(pending.pop(ref), count)
                if not ready:
                    watch.check()
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        except ClusterLost as e:
            where = checkpoint or resume
            hint = f"; {len(counts)} subtrees are kept in {where}: resume with --resume {where}" if where else ""
            raise ClusterLost(f"{e}{hint}") from None
    else:
        table = new_table(hash_mb) if hash_mb else None
        stop = StopFlag()  # set on an interrupt: the running subtrees end at once

        def work(u: Unit) -> int:
            if table is not None:
                n = u.position.perft_with_table(remaining_depth, keep, table, stop)
            else:
                n = u.position.perft(remaining_depth, keep, stop)
            if n is None:
                raise PerftStopped(f"subtree {u.index} was stopped")
            return n

        pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="perft")
        futures: Dict[Any, int] = {}
        try:
            queue = list(todo)
            while queue or futures:
                while queue and len(futures) < workers * 2:
                    u = queue.pop(0)
                    futures[pool.submit(work, u)] = u.index
                done, _ = wait(list(futures), timeout=0.5, return_when=FIRST_COMPLETED)
                for f in done:
                    finished(futures.pop(f), f.result())
        except KeyboardInterrupt:
            stop.set()
            for f in futures:
                f.cancel()
            raise
        finally:
            stop.set()
            pool.shutdown(wait=True, cancel_futures=True)
    bar.update(len(counts), sum(counts.values()), force=True)
    per_root = [0] * len(roots)
    for u in units:
        per_root[u.root] += counts[u.index]
    rows = [(m, per_root[i]) for i, (m, _) in enumerate(roots)] if divide else []
    return PerftRun(depth, sum(per_root), time.perf_counter() - t0, rows, len(units), resumed)

"""Building endgame databases: every table pair of up to N pieces, smaller
ones first, solved by retrograde analysis in the native core, on this
machine (with threads) or as Ray tasks one stage after another; finished
tables are reused, so an interrupted build goes on where it stopped."""

from __future__ import annotations

import dataclasses
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple, Union

from draughts._progress import Progress
from draughts.cluster import connect
from draughts.egdb.format import (
    SUFFIX,
    Material,
    TableInfo,
    pairs,
    partner,
    read_table,
    rules_dir,
    stage,
    table_name,
    write_table,
)
from draughts.errors import EgdbError
from draughts.variants import Variant, variant as get_variant
from draughts_core.egdb import EGDB, MAX_PIECES, table_size
from draughts_core.egdb_build import PairBuilder


@dataclass
class BuildReport:
    variant: str
    pieces: int
    directory: str
    seconds: float
    built: List[TableInfo] = field(default_factory=list)
    reused: int = 0
    positions: int = 0
    disk_bytes: int = 0


class _Bar:
    """Positions solved, on the shared progress bar (`draughts._progress`)."""

    def __init__(self, total: int, enabled: Optional[bool]):
        self.done = 0
        self.progress = Progress(max(1, total), "pos", enabled=enabled, desc="egdb")

    def advance(self, positions: int, label: str = "") -> None:
        self.done += positions
        self.progress.update_to(self.done, label)

    def close(self) -> None:
        self.progress.close()


def solve_pair(core: EGDB, m: Material, threads: int = 1, on_progress: Optional[Callable[[int], None]] = None):
    """Build the table pair of m into `core` (its smaller tables loaded);
    returns PairBuilder.finish()'s list."""
    pb = PairBuilder(core, *m)
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
    try:
        for level, groups, positions in pb.levels():
            if pool is None:
                pb.solve(level, 0, 1)
            elif groups >= 16 * threads:
                list(pool.map(lambda part, lv=level: pb.solve(lv, part, threads), range(threads)))
            else:
                # few large blocks: the threads share every iteration, of every
                # unknown position first, then of the flagged ones; done when a
                # look at every one changes nothing
                full = True
                while True:
                    changed = sum(
                        pool.map(lambda part, lv=level, f=full: pb.sweep(lv, part, threads, f), range(threads))
                    )
                    if changed:
                        full = False
                    elif full:
                        break
                    else:
                        full = True
                pb.finish_level(level)
            if on_progress is not None:
                on_progress(positions)
    finally:
        if pool is not None:
            pool.shutdown()
    return pb.finish()


def _variant_fields(v: Variant) -> Dict:
    return {f.name: getattr(v, f.name) for f in dataclasses.fields(v)}


def _solve_remote(fields: Dict, m: Material, deps: List[Material], refs: List, threads: int):
    """A Ray task: build one pair from the tables it is given."""
    import ray  # the optional extra, there on a Ray worker

    fields = dict(fields)
    fields["aliases"] = tuple(fields.get("aliases", ()))
    v = Variant(**fields)
    core = EGDB(v.core_rules)
    for dm, packed in zip(deps, ray.get(list(refs))):
        core.add(*dm, packed)
    core.max_pieces = sum(m)
    return solve_pair(core, m, threads)


def build(
    variant: Union[str, Variant],
    pieces: int,
    directory: Optional[str] = None,
    *,
    threads: int = 1,
    cluster: Optional[str] = None,
    progress: Optional[bool] = None,
    log: Optional[Callable[[str], None]] = None,
) -> BuildReport:
    """Build (or finish building) every table of up to `pieces` pieces."""
    v = get_variant(variant)
    if not isinstance(pieces, int) or not 2 <= pieces <= MAX_PIECES:
        raise EgdbError(f"pieces must be a whole number from 2 to {MAX_PIECES}, not {pieces!r}")
    if threads < 1:
        raise EgdbError(f"threads must be at least 1, not {threads}")
    where = rules_dir(v, directory)
    os.makedirs(where, exist_ok=True)
    say = log or (lambda text: None)
    t0 = time.perf_counter()
    report = BuildReport(v.name, pieces, where, 0.0)
    core = EGDB(v.core_rules)
    todo: List[Material] = []
    loaded: Dict[Material, bytes] = {}
    for m in pairs(v, pieces):
        members = [m] if m == partner(m) else [m, partner(m)]
        try:
            got = [read_table(os.path.join(where, table_name(x)), v, x) for x in members]
        except EgdbError as e:
            if any(os.path.exists(os.path.join(where, table_name(x))) for x in members):
                say(f"rebuilding {table_name(m)}: {e}")
            todo.append(m)
            continue
        for x, (packed, info) in zip(members, got):
            loaded[x] = packed
            report.disk_bytes += info.disk_bytes
            report.positions += info.positions
        report.reused += len(members)
    total = sum(_pair_positions(v, m) for m in todo)
    bar = _Bar(total, progress)

    def store(results) -> None:
        for mat, packed, counts in results:
            info_bytes = write_table(os.path.join(where, table_name(mat)), v, mat, packed, counts)
            wins, draws, losses = counts
            info = TableInfo(mat, table_size(v.size, *mat), wins, draws, losses, info_bytes)
            report.built.append(info)
            report.disk_bytes += info_bytes
            report.positions += info.positions
            loaded[mat] = packed

    try:
        _solve_all(v, core, todo, loaded, cluster, threads, store, bar)
    finally:
        bar.close()
    report.seconds = time.perf_counter() - t0
    return report


def _solve_all(
    v: Variant,
    core: EGDB,
    todo: List[Material],
    loaded: Dict[Material, bytes],
    cluster: Optional[str],
    threads: int,
    store,
    bar: _Bar,
) -> None:
    if cluster is None:
        for mat, packed in loaded.items():
            core.add(*mat, packed)
        for m in todo:
            core.max_pieces = max(core.max_pieces, sum(m))
            label = table_name(m)[: -len(SUFFIX)]
            seen = [0]

            def step(n: int, label=label, seen=seen) -> None:
                seen[0] += n
                bar.advance(n, label=label)

            store(solve_pair(core, m, threads, step))
            bar.advance(_pair_positions(v, m) - seen[0], label=label)  # blocks with no position
    else:
        _build_on_cluster(v, todo, loaded, cluster, threads, store, bar)


def _pair_positions(v: Variant, m: Material) -> int:
    n = table_size(v.size, *m)
    return n if m == partner(m) else n + table_size(v.size, *partner(m))


def _build_on_cluster(
    v: Variant, todo: List[Material], loaded: Dict[Material, bytes], address: str, threads: int, store, bar: _Bar
) -> None:
    """Run the pairs as Ray tasks, one stage (pieces, men) after another: the
    pairs of one stage do not lead into each other."""
    ray = connect(address)
    remote = ray.remote(_solve_remote)
    refs = {m: ray.put(p) for m, p in loaded.items()}
    fields = _variant_fields(v)
    stages: Dict[Tuple[int, int], List[Material]] = {}
    for m in todo:
        stages.setdefault(stage(m), []).append(m)
    for key in sorted(stages):
        deps = sorted(mat for mat in refs if stage(mat) < key)
        pending = {
            remote.options(num_cpus=threads).remote(fields, m, deps, [refs[d] for d in deps], threads): m
            for m in stages[key]
        }
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    m = pending.pop(ref)
                    results = ray.get(ref)
                    store(results)
                    for mat, packed, _ in results:
                        refs[mat] = ray.put(packed)
                    bar.advance(_pair_positions(v, m), label=table_name(m)[: -len(SUFFIX)])
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise

"""Endgame databases: win, draw or loss for every position of a few pieces.

    draughts egdb build --variant american --pieces 5
    draughts egdb probe --variant american --fen "W:WK10,K14:BK23"

A database is built by retrograde analysis in the native core
(`draughts_core.egdb`) for one rule set: the tables of every material split
up to the asked number of pieces, smaller ones first (a capture leads into
fewer pieces, a promotion into one king more).  The values are pure
win/draw/loss with perfect play: the game's move-count and repetition draw
rules are not part of them (a won ending may take longer than such a rule
allows).

On disk, one directory per rule set under the database directory
(`--dir`, else `$DRAUGHTS_EGDB`, else `$XDG_CACHE_HOME/draughts/egdb`), one file
per table: a header (format version, the rule set, the material, counts and
a CRC-32 of header and data) and the 2-bit values compressed with zlib.  A
finished table is one file written atomically, so an interrupted build goes
on from the tables that exist.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import struct
import sys
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple, Union

from draughts._args import add_variant_options, positive_int, variant_from_args
from draughts._progress import Progress
from draughts.board import Board
from draughts.cluster import connect
from draughts.errors import EgdbError
from draughts.variants import VARIANTS, Variant, variant as get_variant
from draughts_core.egdb import DRAW, LOSS, MAX_PIECES, WIN, EGDB, PairBuilder, table_size
from draughts_core.position import MOVE_RULE_FIELDS

FORMAT_VERSION = 1
MAGIC = b"DRWDL\n"
#  magic, version, 11 rule fields, material (4), positions, wins, draws, losses, data length, crc32
_HEADER = struct.Struct("<6sH11B4BQQQQQI")
SUFFIX = ".wdl"
RESULTS = {WIN: "win", DRAW: "draw", LOSS: "loss"}

Material = Tuple[int, int, int, int]


# --- names and places ------------------------------------------------------------

#: the move rules a database is built for (the header's 11 fields); the draw
#: rules do not change a table
N_RULE_FIELDS = 11
#: rule fields that must be off (orthogonal captures, capture value, the
#: king-move limit, the killer halt, another goal, thai's landing rule, the
#: orthogonal board, turkish's no-turning-back: their positions need state,
#: results or an index the tables do not hold)
UNSUPPORTED_FIELDS = ("orthogonal", "value_majority", "king_move_limit", "halt_behind_king", "goal",
                      "land_behind", "geometry", "no_turn_back")


def supported(v: Variant) -> bool:
    """Whether endgame databases can be built for the variant's rules."""
    fields = dict(zip(MOVE_RULE_FIELDS, v.core_rules.move_rules()))
    return not any(fields[name] for name in UNSUPPORTED_FIELDS)


def rule_fields(v: Variant) -> Tuple[int, ...]:
    """The move rules of a variant as the core packs them: the database's key."""
    if not supported(v):
        fields = dict(zip(MOVE_RULE_FIELDS, v.core_rules.move_rules()))
        extra = [name for name in UNSUPPORTED_FIELDS if fields[name]]
        raise EgdbError(f"endgame databases are not available for {v.name} "
                        f"(its rules use {', '.join(extra)}, which the table format does not hold)")
    return v.core_rules.move_rules()[:N_RULE_FIELDS]


def rules_name(v: Variant) -> str:
    """The directory name of a rule set: a variant's name (when the rules are a
    registered variant's) and a short hash of the rules."""
    fields = rule_fields(v)
    digest = hashlib.blake2b(bytes(fields), digest_size=4).hexdigest()
    name = next((n for n, reg in VARIANTS.items() if supported(reg) and rule_fields(reg) == fields), None)
    if name is None:
        base = rule_fields(get_variant(v.name, mandatory_capture=True))
        name = v.name + ("-optional-capture" if base[:-1] == fields[:-1] else "-custom")
    return f"{name}-{digest}"


def default_dir() -> str:
    """$DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb (~/.cache by default)."""
    env = os.environ.get("DRAUGHTS_EGDB")
    if env:
        return env
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "draughts", "egdb")


def rules_dir(v: Variant, directory: Optional[str] = None) -> str:
    return os.path.join(directory or default_dir(), rules_name(v))


def table_name(m: Material) -> str:
    a, b, c, d = m
    return f"{a}m{b}k-{c}m{d}k{SUFFIX}"


def materials(v: Variant, pieces: int) -> List[Material]:
    """Every table of 2..pieces pieces: (own men, own kings, their men, their kings)."""
    men_max = v.squares - v.size // 2
    out = []
    for n in range(2, pieces + 1):
        for a in range(n + 1):
            for b in range(n + 1 - a):
                for c in range(n + 1 - a - b):
                    d = n - a - b - c
                    if a + b and c + d and a <= men_max and c <= men_max:
                        out.append((a, b, c, d))
    return out


def pairs(v: Variant, pieces: int) -> List[Material]:
    """Table pairs {(a,b,c,d), (c,d,a,b)} in build order: by pieces, then by men
    (a promotion leads into one man fewer); each named by its larger member."""
    seen = set()
    out = []
    for m in materials(v, pieces):
        key = max(m, (m[2], m[3], m[0], m[1]))
        if key not in seen:
            seen.add(key)
            out.append(key)
    out.sort(key=lambda m: (sum(m), m[0] + m[2], m))
    return out


def _partner(m: Material) -> Material:
    return (m[2], m[3], m[0], m[1])


def _stage(m: Material) -> Tuple[int, int]:
    return (sum(m), m[0] + m[2])


# --- files -----------------------------------------------------------------------

def write_table(path: str, v: Variant, m: Material, packed: bytes, counts: Tuple[int, int, int]) -> int:
    """Write one table atomically; returns its size on disk."""
    data = zlib.compress(packed, 9)
    positions = table_size(v.size, *m)
    head = _HEADER.pack(MAGIC, FORMAT_VERSION, *rule_fields(v), *m, positions, *counts, len(data), 0)
    crc = zlib.crc32(packed, zlib.crc32(head[:-4]))
    head = head[:-4] + struct.pack("<I", crc)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as fh:
        fh.write(head)
        fh.write(data)
    os.replace(tmp, path)
    return len(head) + len(data)


@dataclass
class TableInfo:
    material: Material
    positions: int
    wins: int
    draws: int
    losses: int
    disk_bytes: int


def read_table(path: str, v: Variant, m: Material) -> Tuple[bytes, TableInfo]:
    """The packed values of one table file, checked against its header and checksum."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as e:
        raise EgdbError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) < _HEADER.size or not raw.startswith(MAGIC):
        raise EgdbError(f"{path} is not a draughts endgame table")
    fields = _HEADER.unpack_from(raw)
    version, rules, mat = fields[1], fields[2:13], fields[13:17]
    positions, wins, draws, losses, length, crc = fields[17:23]
    if version != FORMAT_VERSION:
        raise EgdbError(f"{path} has format version {version}; this program reads {FORMAT_VERSION}")
    if tuple(rules) != rule_fields(v):
        raise EgdbError(f"{path} was built for other rules than {v.name}'s")
    if tuple(mat) != tuple(m) or positions != table_size(v.size, *m):
        raise EgdbError(f"{path} holds table {mat}, not {m}")
    if len(raw) != _HEADER.size + length:
        raise EgdbError(f"{path} is truncated or too long")
    try:
        packed = zlib.decompress(raw[_HEADER.size:])
    except zlib.error as e:
        raise EgdbError(f"{path} is damaged: {e}") from None
    if len(packed) != (positions + 3) // 4 or zlib.crc32(packed, zlib.crc32(raw[:_HEADER.size - 4])) != crc:
        raise EgdbError(f"{path} is damaged: the checksum does not match")
    return packed, TableInfo((m[0], m[1], m[2], m[3]), positions, wins, draws, losses, len(raw))


# --- a loaded database -----------------------------------------------------------

class Database:
    """The tables of one rule set, loaded into memory for probing.

    `Database.open(variant, directory)` loads every table of up to `pieces`
    pieces (default: the most for which every table is there).
    """

    def __init__(self, variant: Union[str, Variant], core: EGDB, directory: Optional[str],
                 tables: Dict[Material, TableInfo]):
        self.variant = get_variant(variant)
        self.core = core
        self.directory = directory
        self.tables = tables

    @property
    def pieces(self) -> int:
        """Positions of up to this many pieces are in the database."""
        return self.core.max_pieces

    @classmethod
    def open(cls, variant: Union[str, Variant], directory: Optional[str] = None,
             pieces: Optional[int] = None) -> "Database":
        v = get_variant(variant)
        where = rules_dir(v, directory)
        complete = complete_pieces(v, directory)
        if pieces is None:
            pieces = complete
            if pieces < 2:
                raise EgdbError(f"no endgame database for {v.name} in {where} "
                                f"(build one: draughts egdb build --variant {v.name} --pieces N)")
        elif not 2 <= pieces <= MAX_PIECES:
            raise EgdbError(f"pieces must be from 2 to {MAX_PIECES}, not {pieces}")
        elif complete < pieces:
            raise EgdbError(f"the {v.name} database in {where} is complete up to {complete} pieces, "
                            f"not {pieces}")
        core = EGDB(v.core_rules)
        tables = {}
        for m in materials(v, pieces):
            packed, info = read_table(os.path.join(where, table_name(m)), v, m)
            core.add(*m, packed)
            tables[m] = info
        core.max_pieces = pieces
        return cls(v, core, directory, tables)

    def probe(self, board: Board) -> Optional[str]:
        """'win', 'draw' or 'loss' for the side to move, or None when the
        position is not in the database."""
        if board.variant.core_rules.move_rules() != self.variant.core_rules.move_rules():
            raise EgdbError(f"the database is for {self.variant.name}'s rules, "
                            f"not {board.variant.name}'s")
        return RESULTS.get(self.core.probe(board.position))

    def disk_bytes(self) -> int:
        return sum(t.disk_bytes for t in self.tables.values())


def complete_pieces(v: Variant, directory: Optional[str] = None) -> int:
    """The most pieces for which every table file of the rule set exists (0: none)."""
    where = rules_dir(v, directory)
    try:
        present = set(os.listdir(where))
    except OSError:
        return 0
    n = 1
    while n < MAX_PIECES and all(table_name(m) in present for m in materials(v, n + 1)
                                 if sum(m) == n + 1):
        n += 1
    return n if n >= 2 else 0


# --- building --------------------------------------------------------------------

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


def solve_pair(core: EGDB, m: Material, threads: int = 1,
               on_progress: Optional[Callable[[int], None]] = None):
    """Build the table pair of m into `core` (its smaller tables loaded);
    returns PairBuilder.finish()'s list."""
    pb = PairBuilder(core, *m)
    pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
    try:
        for level, groups, positions in pb.levels():
            if pool is None:
                pb.solve(level, 0, 1)
            elif groups >= 16 * threads:
                list(pool.map(lambda part: pb.solve(level, part, threads), range(threads)))
            else:
                # few large blocks: the threads share every iteration, of every
                # unknown position first, then of the flagged ones; done when a
                # look at every one changes nothing
                full = True
                while True:
                    changed = sum(pool.map(lambda part: pb.sweep(level, part, threads, full),
                                           range(threads)))
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
    import ray                          # the optional extra, there on a Ray worker
    fields = dict(fields)
    fields["aliases"] = tuple(fields.get("aliases", ()))
    v = Variant(**fields)
    core = EGDB(v.core_rules)
    for dm, packed in zip(deps, ray.get(list(refs))):
        core.add(*dm, packed)
    core.max_pieces = sum(m)
    return solve_pair(core, m, threads)


def build(variant: Union[str, Variant], pieces: int, directory: Optional[str] = None, *,
          threads: int = 1, cluster: Optional[str] = None, progress: Optional[bool] = None,
          log: Optional[Callable[[str], None]] = None) -> BuildReport:
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
        members = [m] if m == _partner(m) else [m, _partner(m)]
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


def _solve_all(v: Variant, core: EGDB, todo: List[Material], loaded: Dict[Material, bytes],
               cluster: Optional[str], threads: int, store, bar: _Bar) -> None:
    if cluster is None:
        for mat, packed in loaded.items():
            core.add(*mat, packed)
        for m in todo:
            core.max_pieces = max(core.max_pieces, sum(m))
            label = table_name(m)[:-len(SUFFIX)]
            seen = [0]

            def step(n: int, label=label, seen=seen) -> None:
                seen[0] += n
                bar.advance(n, label=label)

            store(solve_pair(core, m, threads, step))
            bar.advance(_pair_positions(v, m) - seen[0], label=label)   # blocks with no position
    else:
        _build_on_cluster(v, todo, loaded, cluster, threads, store, bar)


def _pair_positions(v: Variant, m: Material) -> int:
    n = table_size(v.size, *m)
    return n if m == _partner(m) else n + table_size(v.size, *_partner(m))


def _build_on_cluster(v: Variant, todo: List[Material], loaded: Dict[Material, bytes], address: str,
                      threads: int, store, bar: _Bar) -> None:
    """Run the pairs as Ray tasks, one stage (pieces, men) after another: the
    pairs of one stage do not lead into each other."""
    ray = connect(address)
    remote = ray.remote(_solve_remote)
    refs = {m: ray.put(p) for m, p in loaded.items()}
    fields = _variant_fields(v)
    stages: Dict[Tuple[int, int], List[Material]] = {}
    for m in todo:
        stages.setdefault(_stage(m), []).append(m)
    for key in sorted(stages):
        deps = sorted(mat for mat in refs if _stage(mat) < key)
        pending = {remote.options(num_cpus=threads).remote(fields, m, deps, [refs[d] for d in deps],
                                                            threads): m for m in stages[key]}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    m = pending.pop(ref)
                    results = ray.get(ref)
                    store(results)
                    for mat, packed, _ in results:
                        refs[mat] = ray.put(packed)
                    bar.advance(_pair_positions(v, m), label=table_name(m)[:-len(SUFFIX)])
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise


# --- the command line ------------------------------------------------------------

def _format_bytes(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"


def cmd_build(args) -> int:
    v = variant_from_args(args)
    progress = None if not args.progress else args.progress == "on"

    def log(text: str) -> None:
        print(f"draughts: {text}", file=sys.stderr, flush=True)

    try:
        rep = build(v, args.pieces, args.dir, threads=args.threads, cluster=args.cluster,
                    progress=progress, log=log)
    except KeyboardInterrupt:
        print("draughts: egdb build interrupted; run the same command again to go on",
              file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)              # threads still in the core are abandoned
    print(f"egdb variant={v.name} pieces={rep.pieces} tables={len(rep.built) + rep.reused} "
          f"built={len(rep.built)} reused={rep.reused} positions={rep.positions} "
          f"disk={rep.disk_bytes} ({_format_bytes(rep.disk_bytes)}) time={rep.seconds:.1f}s "
          f"dir={rep.directory}")
    return 0


def cmd_probe(args) -> int:
    v = variant_from_args(args)
    board = Board(args.fen, variant=v)
    n = sum(len(x) for x in board.position.pieces()[:2])
    db = Database.open(v, args.dir)
    result = db.probe(board)
    if result is None:
        raise EgdbError(f"the position has {n} pieces; the {v.name} database in "
                        f"{rules_dir(v, args.dir)} holds up to {db.pieces}")
    side = "white" if board.turn == 0 else "black"
    print(f"{result} ({side} to move; {v.name} database of up to {db.pieces} pieces)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser("egdb", help="endgame databases: build and probe",
                              description="Win/draw/loss endgame databases, built by retrograde "
                                          "analysis (the game's move-count draw rules are not part "
                                          "of them).")
    sub = p.add_subparsers(dest="egdb_command", metavar="ACTION")
    b = sub.add_parser("build", help="build every table up to N pieces (smaller ones first; resumes)")
    add_variant_options(b)
    b.add_argument("--pieces", "-n", type=positive_int, required=True, help="most pieces on the board")
    b.add_argument("--dir", metavar="D", default=None,
                   help="database directory (default $DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb)")
    b.add_argument("--threads", "-t", type=positive_int, default=1, help="native threads")
    b.add_argument("--cluster", metavar="ADDRESS",
                   help="run the tables as tasks on the Ray cluster at ADDRESS ('auto' finds one)")
    b.add_argument("--progress", choices=("on", "off"), default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    b.set_defaults(func=cmd_build)
    q = sub.add_parser("probe", help="win, draw or loss for the side to move")
    add_variant_options(q)
    q.add_argument("--fen", required=True, help="the position")
    q.add_argument("--dir", metavar="D", default=None,
                   help="database directory (default $DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb)")
    q.set_defaults(func=cmd_probe)

    def no_action(args) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=no_action)

"""Growing an opening book (`draughts book build`, `draughts book add`).

The book is a tree of positions from its start positions (the variant's
start, or given openings).  A position in the book is *expanded*: every legal
move of it is scored.  A position reached by a move but not expanded is a
*leaf*, scored by a search at the book's depth (for its side to move).  A
position's value is the best of its moves' values, a move's value the
negated value of the position it leads to (negamax), so the scores of the
book are the minimax of its leaves.

Drop-out expansion chooses the leaf to expand next: the cost of a position is
the sum, over the moves from a start position to it, of how much worse each
move is than the best move there (in centi-men, for the side that plays it),
plus `ply_cost` a move; the leaf of least cost is expanded first, and none
costing more than `margin`.  So the book follows the best lines deepest and
the moves near them less deep.  Each round expands the `batch` cheapest
leaves at once, their new positions scored in parallel (local processes, or
Ray tasks with `cluster`), and the book file is written anew every
`save_every` expansions and at the end: a stopped build resumes from its file.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

from draughts import book as B
from draughts.board import Board, Move
from draughts.errors import InvalidInputError
from draughts.variants import Variant, variant as get_variant

#: how worker processes start: from a clean process of their own (forkserver
#: where there is one), not forked from this one, whose threads (a Ray
#: driver's, a progress bar's) could leave a forked child stuck on a lock
_START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

Key = Tuple[int, int]


@dataclass
class Node:
    board: Board
    score: Optional[int] = None  # a leaf's search score (side to move), centi-men
    depth: int = 0  # that search's depth
    children: Optional[Dict[Move, Key]] = None  # set once expanded
    games: Dict[Move, int] = field(default_factory=dict)


@dataclass(frozen=True)
class BuildConfig:
    variant: str
    depth: int = 10  # the leaves' search depth
    margin: int = 60  # the largest cost of a position expanded (centi-men)
    ply_cost: int = 4  # cost a move, besides its drop from the best
    tt_mb: int = 16

    def settings(self) -> Dict[str, Any]:
        return {"depth": self.depth, "margin": self.margin, "ply_cost": self.ply_cost}


def outcome_score(board: Board) -> Optional[int]:
    """A finished game's score for the side to move (None: not finished)."""
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0
    return B.SCORE_CAP if outcome.winner == board.turn else -B.SCORE_CAP


# --- scoring leaves in worker processes ---------------------------------------------

_WORKER: Dict[str, Any] = {}


def _init_worker(cfg: BuildConfig) -> None:
    from draughts.engine import Engine

    _WORKER["cfg"] = cfg
    _WORKER["engine"] = Engine(cfg.variant, tt_mb=cfg.tt_mb, egdb=None, seed=1)


def score_fens(cfg: BuildConfig, fens: List[str]) -> List[int]:
    """Each position's search score at cfg.depth, for its side to move (a fresh table each)."""
    from draughts.limits import Limit
    from draughts.positions import label

    if _WORKER.get("cfg") != cfg:
        _init_worker(cfg)
    engine = _WORKER["engine"]
    out = []
    for fen in fens:
        board = Board(fen, variant=cfg.variant)
        done = outcome_score(board)
        if done is not None:
            out.append(done)
            continue
        engine.new_game()
        out.append(label(engine.play(board, Limit(depth=cfg.depth)).info))
    return out


def _score_batch(args: Tuple[BuildConfig, List[str]]) -> List[int]:
    return score_fens(*args)


class Scorer:
    """Scores positions on local processes or a Ray cluster."""

    def __init__(self, cfg: BuildConfig, workers: int = 1, cluster: Optional[str] = None):
        self.cfg = cfg
        self.cluster = cluster
        self.workers = max(1, workers)
        self._pool = None
        if not cluster and self.workers > 1:
            ctx = multiprocessing.get_context(_START_METHOD)
            self._pool = ctx.Pool(self.workers, initializer=_init_worker, initargs=(cfg,))

    def __call__(self, fens: List[str]) -> List[int]:
        if not fens:
            return []
        parts = max(1, min(len(fens), self.workers * 2))
        batches = [fens[i::parts] for i in range(parts)]
        if self.cluster:
            from draughts import cluster as ray_cluster

            results: Dict[int, List[int]] = {}
            ray_cluster.map_chunks(
                self.cluster,
                score_fens,
                lambda i: (self.cfg, batches[i]),
                list(range(parts)),
                results.__setitem__,
                saved=lambda: "the book file keeps the positions expanded so far",
            )
            got = [results[i] for i in range(parts)]
        elif self._pool is not None:
            got = self._pool.map(_score_batch, [(self.cfg, b) for b in batches])
        else:
            got = [score_fens(self.cfg, b) for b in batches]
        out: List[int] = [0] * len(fens)
        for i, scores in enumerate(got):
            for j, s in enumerate(scores):
                out[i + j * parts] = s
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


# --- the tree ----------------------------------------------------------------------


class Tree:
    def __init__(self, cfg: BuildConfig, roots: List[str]):
        self.cfg = cfg
        self.variant: Variant = get_variant(cfg.variant)
        self.nodes: Dict[Key, Node] = {}
        self.roots: List[Key] = []
        self.root_fens = list(roots)
        for fen in roots:
            board = Board(fen, variant=self.variant)
            key = B.position_hash(board)
            if key not in self.nodes:
                self.nodes[key] = Node(board.copy(stack=False))
                self.roots.append(key)

    # values and costs
    def value(self, key: Key, memo: Dict[Key, int]) -> int:
        if key in memo:
            return memo[key]
        node = self.nodes[key]
        if node.children:
            memo[key] = -B.SCORE_CAP - 1  # a guard against a cycle
            v = max(-self.value(c, memo) for c in node.children.values())
        else:
            v = node.score if node.score is not None else 0
        memo[key] = v
        return v

    def leaves_by_cost(self) -> List[Tuple[float, Key]]:
        """(cost, key) of every unexpanded, unfinished leaf within the margin, cheapest first."""
        memo: Dict[Key, int] = {}
        best: Dict[Key, float] = {}
        stack = [(0.0, k) for k in self.roots]
        while stack:
            cost, key = stack.pop()
            if best.get(key, float("inf")) <= cost:
                continue
            best[key] = cost
            node = self.nodes[key]
            if not node.children:
                continue
            v = self.value(key, memo)
            for child in node.children.values():
                drop = v + self.value(child, memo)  # the move's value is -value(child)
                c = cost + drop + self.cfg.ply_cost
                if c <= self.cfg.margin:
                    stack.append((c, child))
        out = [
            (c, k) for k, c in best.items() if not self.nodes[k].children and outcome_score(self.nodes[k].board) is None
        ]
        out.sort(key=lambda x: (x[0], x[1]))
        return out

    def expanded(self) -> int:
        return sum(1 for n in self.nodes.values() if n.children)

    def expand(self, keys: List[Key], scorer: Callable[[List[str]], List[int]]) -> int:
        """Expand these leaves: their children join the tree, the new ones scored; the count of new positions."""
        new: List[Tuple[Key, Board]] = []
        seen = set()
        for key in keys:
            node = self.nodes[key]
            node.children = {}
            for move in node.board.legal_moves:
                child = node.board.copy(stack=False)
                child.push(move)
                ck = B.position_hash(child)
                node.children[move] = ck
                if ck not in self.nodes and ck not in seen:
                    seen.add(ck)
                    new.append((ck, child))
        scores = scorer([b.fen() for _, b in new])
        for (ck, board), s in zip(new, scores):
            self.nodes[ck] = Node(board, s, self.cfg.depth)
        return len(new)

    # the file
    def entries(self) -> Dict[Key, List[Tuple[Move, int, int, int]]]:
        memo: Dict[Key, int] = {}
        out = {}
        for key, node in self.nodes.items():
            if node.children:
                out[key] = [
                    (m, -self.value(c, memo), self._depth(c), node.games.get(m, 0)) for m, c in node.children.items()
                ]
        return out

    def _depth(self, key: Key) -> int:
        node = self.nodes[key]
        return node.depth if node.score is not None else self.cfg.depth

    def save(self, path: str, extra: Optional[Dict[str, Any]] = None) -> None:
        built = dict(self.cfg.settings(), **(extra or {}))
        B.write(path, self.variant, self.entries(), self.root_fens, built)

    @classmethod
    def load(cls, path: str, cfg: BuildConfig) -> "Tree":
        """The tree of a book file: its start positions, and from each
        position in the book its moves, a move's position a leaf of the
        move's score unless the book expands it."""
        book = B.Book(path)
        if book.variant.name != get_variant(cfg.variant).name:
            raise InvalidInputError(f"{path} is a book of {book.variant.name}, not {cfg.variant}")
        tree = cls(cfg, book.header["roots"])
        todo = list(tree.roots)
        while todo:
            key = todo.pop()
            node = tree.nodes[key]
            moves = book.probe(node.board)
            if not moves or node.children:
                continue
            node.children = {}
            for bm in moves:
                child = node.board.copy(stack=False)
                child.push(bm.move)
                ck = B.position_hash(child)
                node.children[bm.move] = ck
                if bm.games:
                    node.games[bm.move] = bm.games
                if ck not in tree.nodes:
                    tree.nodes[ck] = Node(child, -bm.score, bm.depth)
                    todo.append(ck)
        return tree


@dataclass
class BuildReport:
    expanded: int
    positions: int
    seconds: float
    stopped: str


def build(
    cfg: BuildConfig,
    path: str,
    *,
    positions: int,
    roots: Optional[List[str]] = None,
    workers: int = 1,
    cluster: Optional[str] = None,
    batch: int = 0,
    save_every: int = 50,
    progress: Optional[bool] = None,
    report: Optional[Callable[[str], None]] = None,
) -> BuildReport:
    """Grow the book at `path` (resumed when the file is there) until it
    expands `positions` positions or no leaf is within the margin."""
    from draughts._progress import Progress

    v = get_variant(cfg.variant)
    if os.path.exists(path):
        tree = Tree.load(path, cfg)
        old = B.Book(path).header.get("built", {})
        differ = [k for k, val in cfg.settings().items() if k in old and old[k] != val]
        if differ:
            raise InvalidInputError(
                f"{path} was built with other settings ({', '.join(differ)}): "
                f"give the same ones to grow it, or another file"
            )
        if roots:
            for fen in roots:
                b = Board(fen, variant=v)
                k = B.position_hash(b)
                if k not in tree.nodes:
                    tree.nodes[k] = Node(b.copy(stack=False))
                    tree.roots.append(k)
                    tree.root_fens.append(fen)
    else:
        tree = Tree(cfg, roots or [Board(variant=v).fen()])
    t0 = time.monotonic()
    scorer = Scorer(cfg, workers, cluster)
    batch = batch or max(1, workers) * 2
    stopped = "positions"
    try:
        unscored = [k for k in tree.roots if tree.nodes[k].score is None and not tree.nodes[k].children]
        if unscored:
            for k, s in zip(unscored, scorer([tree.nodes[k].board.fen() for k in unscored])):
                tree.nodes[k].score, tree.nodes[k].depth = s, cfg.depth
        since_save = 0
        with Progress(
            positions, "pos", enabled=progress, initial=min(positions, tree.expanded()), desc=f"{v.name} book"
        ) as bar:
            while tree.expanded() < positions:
                leaves = tree.leaves_by_cost()
                if not leaves:
                    stopped = "margin"
                    break
                take = [k for _, k in leaves[: min(batch, positions - tree.expanded())]]
                tree.expand(take, scorer)
                since_save += len(take)
                bar.update_to(
                    tree.expanded(), f"{len(tree.nodes)} positions in the tree, cheapest leaf {leaves[0][0]:.0f}"
                )
                if since_save >= save_every:
                    tree.save(path)
                    since_save = 0
    finally:
        scorer.close()
        tree.save(path)
    run = BuildReport(tree.expanded(), len(tree.nodes), time.monotonic() - t0, stopped)
    if report:
        report(
            f"{path}: {run.expanded} positions in the book, {run.positions} in its tree, "
            f"{run.seconds:.0f} s ({'the size asked for' if stopped == 'positions' else 'no leaf within the margin'})"
        )
    return run


def add_games(
    cfg: BuildConfig,
    path: str,
    games: Iterable,
    *,
    plies: int = 16,
    workers: int = 1,
    report: Optional[Callable[[str], None]] = None,
) -> Tuple[int, int]:
    """Learn from game records (draughts.pdn.Game): the first `plies` moves of
    each game of the book's variant join the book, each position on the way
    expanded and the move played counted; returns (games used, moves counted)."""
    v = get_variant(cfg.variant)
    tree = Tree.load(path, cfg) if os.path.exists(path) else Tree(cfg, [Board(variant=v).fen()])
    scorer = Scorer(cfg, workers)
    used = counted = 0
    try:
        for game in games:
            if game.variant.name != v.name:
                continue
            start = Board(game.setup_fen, variant=v) if getattr(game, "setup_fen", None) else Board(variant=v)
            key = B.position_hash(start)
            if key not in tree.nodes:
                tree.nodes[key] = Node(start.copy(stack=False))
                tree.roots.append(key)
                tree.root_fens.append(start.fen())
            used += 1
            current = start
            for move in list(game.moves)[:plies]:
                key = B.position_hash(current)
                node = tree.nodes[key]
                if not node.children:
                    tree.expand([key], scorer)
                if node.children is None or move not in node.children:
                    break
                node.games[move] = node.games.get(move, 0) + 1
                counted += 1
                current = current.copy(stack=False)
                current.push(move)
    finally:
        scorer.close()
    tree.save(path)
    if report:
        report(f"{path}: {used} games, {counted} moves counted; {tree.expanded()} positions in the book")
    return used, counted


def stats(book: B.Book) -> Dict[str, Any]:
    """Depth and breadth: positions by plies from the start positions (the
    fewest), the longest line, moves a position."""
    seen: Dict[Key, int] = {}
    frontier: List[Board] = [Board(f, variant=book.variant) for f in book.header.get("roots", [])]
    for b in frontier:
        seen[B.position_hash(b)] = 0
    ply = 0
    by_ply: List[int] = []
    while frontier:
        nxt = []
        count = 0
        for b in frontier:
            moves = book.probe(b)
            if not moves:
                continue
            count += 1
            for bm in moves:
                c = b.copy(stack=False)
                c.push(bm.move)
                k = B.position_hash(c)
                if k not in seen:
                    seen[k] = ply + 1
                    nxt.append(c)
        if count:
            by_ply.append(count)
        frontier = nxt
        ply += 1
    count_moves = len(book.moves)
    return {
        "positions": len(book),
        "moves": count_moves,
        "by_ply": by_ply,
        "depth": len(by_ply),
        "moves_a_position": count_moves / max(1, len(book)),
    }


# --- the command line --------------------------------------------------------------


def register(sub) -> None:
    from draughts._args import positive_int
    from draughts.variants import VARIANTS

    p = sub.add_parser("book", help="opening books: build, learn from games, look inside")
    cmds = p.add_subparsers(dest="book_command", metavar="{build,add,show,probe}")
    cmds.required = True

    def common(q, out_help):
        q.add_argument("--variant", "-v", default="international", help=f"variant ({', '.join(VARIANTS)})")
        q.add_argument("--out", "-o", required=True, help=out_help)
        q.add_argument(
            "--depth", "-d", type=positive_int, default=10, help="search depth of the book's leaves (default 10)"
        )
        q.add_argument(
            "--margin",
            type=int,
            default=60,
            help="most centi-men a line may lose against the best to be expanded (default 60)",
        )
        q.add_argument(
            "--ply-cost",
            type=int,
            default=4,
            help="centi-men of cost a move, besides its drop from the best (default 4)",
        )
        q.add_argument(
            "--workers", type=positive_int, default=os.cpu_count() or 1, help="local processes (default: all cores)"
        )

    b = cmds.add_parser("build", help="grow a book from the start (and given openings) by drop-out expansion")
    common(b, "the book file (grown when it is there)")
    b.add_argument("--positions", type=positive_int, required=True, help="positions to expand in all")
    b.add_argument("--openings", help="a file of openings (PDN or FEN) whose positions are start positions too")
    b.add_argument("--cluster", metavar="ADDRESS", help="score positions as Ray tasks on the cluster at ADDRESS")
    b.add_argument(
        "--progress",
        choices=("on", "off"),
        default=None,
        help="progress bar on stderr (default: on a terminal, not under CI=true)",
    )
    b.set_defaults(func=cmd_build)
    a = cmds.add_parser("add", help="learn the first moves of the games of PDN files")
    common(a, "the book file (made when it is not there)")
    a.add_argument("pdn", nargs="+", help="PDN files")
    a.add_argument("--plies", type=positive_int, default=16, help="moves of each game to learn (default 16)")
    a.set_defaults(func=cmd_add)
    s = cmds.add_parser("show", help="a book's size, depth and breadth, and its start positions' moves")
    s.add_argument("book", help="a book file, or a variant's name for its shipped book")
    s.set_defaults(func=cmd_show)
    q = cmds.add_parser("probe", help="a position's moves in a book")
    q.add_argument("book", help="a book file, or a variant's name for its shipped book")
    q.add_argument("--fen", help="the position (default: the start)")
    q.add_argument("--moves", help='moves played from the start (or --fen) first, e.g. "32-28 19-23"')
    q.set_defaults(func=cmd_probe)


def _config(args) -> BuildConfig:
    v = get_variant(args.variant)
    return BuildConfig(v.name, depth=args.depth, margin=args.margin, ply_cost=args.ply_cost)


def _report(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_build(args) -> int:
    from draughts._progress import shown_by_default

    cfg = _config(args)
    roots = None
    if args.openings:
        from draughts.match import openings

        v = get_variant(cfg.variant)
        roots = [Board(variant=v).fen()] + [o.board(v).fen() for o in openings.load(args.openings, v)]
    progress = shown_by_default() if args.progress is None else args.progress == "on"
    build(
        cfg,
        args.out,
        positions=args.positions,
        roots=roots,
        workers=args.workers,
        cluster=args.cluster,
        progress=progress,
        report=_report,
    )
    _print_stats(B.Book(args.out))
    return 0


def cmd_add(args) -> int:
    from draughts import pdn

    cfg = _config(args)
    games: List[Any] = []
    for path in args.pdn:
        try:
            with open(path, "rb") as f:
                games.extend(pdn.read_games(f, variant=cfg.variant))
        except OSError as e:
            raise InvalidInputError(f"cannot read {path}: {e}") from None
    add_games(cfg, args.out, games, plies=args.plies, workers=args.workers, report=_report)
    _print_stats(B.Book(args.out))
    return 0


def _open(name: str) -> B.Book:
    if not os.path.exists(name):
        try:
            v = get_variant(name)
        except Exception:
            raise InvalidInputError(f"no book file {name!r} (and no variant of that name)") from None
        path = B.shipped_path(v)
        if not os.path.exists(path):
            raise InvalidInputError(f"no book is shipped for {v.name}")
        return B.Book(path)
    return B.Book(name)


def _print_stats(book: B.Book) -> None:
    st = stats(book)
    built = book.header.get("built", {})
    print(
        f"{book.path}: {book.variant.name}, {st['positions']} positions, {st['moves']} moves "
        f"({st['moves_a_position']:.1f} a position), {st['depth']} plies deep; "
        f"leaves searched to depth {built.get('depth', '?')}, margin {built.get('margin', '?')}"
    )
    print("positions by ply: " + " ".join(str(n) for n in st["by_ply"]))


def _print_moves(book: B.Book, board: Board) -> None:
    moves = book.probe(board)
    if not moves:
        print(f"{board.fen()}: not in the book")
        return
    print(board.fen())
    for bm in moves:
        games = f", {bm.games} games" if bm.games else ""
        print(f"  {board.move_text(bm.move):<12} {bm.score / 100:+.2f}  depth {bm.depth}{games}")


def cmd_show(args) -> int:
    book = _open(args.book)
    _print_stats(book)
    for fen in book.header.get("roots", [])[:1]:
        _print_moves(book, Board(fen, variant=book.variant))
    return 0


def cmd_probe(args) -> int:
    book = _open(args.book)
    board = Board(args.fen, variant=book.variant) if args.fen else Board(variant=book.variant)
    for text in (args.moves or "").split():
        board.push(board.parse_move(text))
    _print_moves(book, board)
    return 0

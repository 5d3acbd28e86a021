"""`draughts egdb build` and `draughts egdb probe`."""

from __future__ import annotations

import os
import sys

from draughts._args import add_variant_options, positive_int, variant_from_args
from draughts.board import Board
from draughts.egdb.builder import build
from draughts.egdb.database import Database
from draughts.egdb.format import rules_dir
from draughts.errors import EgdbError


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
        rep = build(v, args.pieces, args.dir, threads=args.threads, cluster=args.cluster, progress=progress, log=log)
    except KeyboardInterrupt:
        print("draughts: egdb build interrupted; run the same command again to go on", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)  # threads still in the core are abandoned
    print(
        f"egdb variant={v.name} pieces={rep.pieces} tables={len(rep.built) + rep.reused} "
        f"built={len(rep.built)} reused={rep.reused} positions={rep.positions} "
        f"disk={rep.disk_bytes} ({_format_bytes(rep.disk_bytes)}) time={rep.seconds:.1f}s "
        f"dir={rep.directory}"
    )
    return 0


def cmd_probe(args) -> int:
    v = variant_from_args(args)
    board = Board(args.fen, variant=v)
    n = sum(len(x) for x in board.position.pieces()[:2])
    db = Database.open(v, args.dir)
    result = db.probe(board)
    if result is None:
        raise EgdbError(
            f"the position has {n} pieces; the {v.name} database in {rules_dir(v, args.dir)} holds up to {db.pieces}"
        )
    side = "white" if board.turn == 0 else "black"
    print(f"{result} ({side} to move; {v.name} database of up to {db.pieces} pieces)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "egdb",
        help="endgame databases: build and probe",
        description="Win/draw/loss endgame databases, built by retrograde "
        "analysis (the game's move-count draw rules are not part "
        "of them).",
    )
    sub = p.add_subparsers(dest="egdb_command", metavar="ACTION")
    b = sub.add_parser("build", help="build every table up to N pieces (smaller ones first; resumes)")
    add_variant_options(b)
    b.add_argument("--pieces", "-n", type=positive_int, required=True, help="most pieces on the board")
    b.add_argument(
        "--dir",
        metavar="D",
        default=None,
        help="database directory (default $DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb)",
    )
    b.add_argument("--threads", "-t", type=positive_int, default=1, help="native threads")
    b.add_argument(
        "--cluster", metavar="ADDRESS", help="run the tables as tasks on the Ray cluster at ADDRESS ('auto' finds one)"
    )
    b.add_argument(
        "--progress",
        choices=("on", "off"),
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    b.set_defaults(func=cmd_build)
    q = sub.add_parser("probe", help="win, draw or loss for the side to move")
    add_variant_options(q)
    q.add_argument("--fen", required=True, help="the position")
    q.add_argument(
        "--dir",
        metavar="D",
        default=None,
        help="database directory (default $DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb)",
    )
    q.set_defaults(func=cmd_probe)

    def no_action(args) -> int:
        p.print_help()
        return 2

    p.set_defaults(func=no_action)

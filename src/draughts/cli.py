"""The `draughts` command line."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Callable, List, Optional, Tuple, Union

import draughts
from draughts._args import add_variant_options, positive_int, variant_from_args, whole_number
from draughts.board import Board
from draughts.errors import DraughtsError


def cmd_perft(args) -> int:
    from draughts import perft

    v = variant_from_args(args)
    board = Board(args.fen, variant=v) if args.fen else Board(variant=v)
    depth = args.depth
    progress = None if not args.progress else (args.progress == "on")
    try:
        run = perft.run(
            board,
            depth,
            duplicates=args.duplicates,
            hash_mb=args.hash_mb,
            threads=args.threads,
            cluster=args.cluster,
            divide=args.divide,
            checkpoint=args.checkpoint,
            resume=args.resume,
            split=args.split,
            progress_enabled=progress,
        )
    except KeyboardInterrupt:
        where = args.resume or args.checkpoint
        hint = f"; resume with --resume {where}" if where else ""
        print(f"draughts: perft interrupted{hint}", file=sys.stderr, flush=True)
        sys.stdout.flush()
        os._exit(130)
    for move, n in run.divide:
        print(f"{board.move_text(move)} {n}")
    nps = run.nodes / run.seconds if run.seconds > 0 else 0.0
    print(f"perft depth={depth} nodes={run.nodes} time={run.seconds:.3f} nps={nps:.0f}")
    return 0


def cmd_bench(args) -> int:
    from draughts import bench

    def report(line):
        print(line, file=sys.stderr, flush=True)

    depth = args.depth or bench.DEFAULT_DEPTH
    tt_mb = args.tt_mb or bench.DEFAULT_TT_MB
    nodes, seconds = bench.run(depth, tt_mb, report=None if args.quiet else report)
    print(f"Nodes searched: {nodes}")
    print(f"Nodes/second: {int(nodes / seconds) if seconds > 0 else 0}")
    return 0


def register_perft(sub) -> None:
    p = sub.add_parser("perft", help="count move paths from a position")
    add_variant_options(p)
    p.add_argument("--depth", "-d", type=whole_number, default=6, help="plies to count (default 6)")
    p.add_argument("--fen", help="start position (default: the variant's start)")
    p.add_argument("--divide", action="store_true", help="one line per root move")
    p.add_argument(
        "--duplicates",
        choices=("drop", "keep"),
        default="drop",
        help="count captures with the same start, end and captured set once (drop) or every path (keep)",
    )
    p.add_argument(
        "--hash-mb",
        type=whole_number,
        default=0,
        metavar="M",
        help="a transposition table of M MiB (exact: full keys are checked)",
    )
    p.add_argument("--threads", "-t", type=positive_int, default=1, help="native threads")
    p.add_argument(
        "--cluster", metavar="ADDRESS", help="run subtrees as tasks on the Ray cluster at ADDRESS ('auto' finds one)"
    )
    p.add_argument("--checkpoint", metavar="FILE", help="write finished subtrees to FILE")
    p.add_argument("--resume", metavar="FILE", help="resume the run saved in FILE (and keep saving there)")
    p.add_argument(
        "--split",
        type=positive_int,
        default=None,
        help="split the tree this many plies below the root (default: chosen for balance)",
    )
    p.add_argument(
        "--progress",
        choices=("on", "off"),
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    p.set_defaults(func=cmd_perft)


def register_bench(sub) -> None:
    p = sub.add_parser("bench", help="search the fixed bench positions; prints the node signature")
    p.add_argument(
        "--depth",
        "-d",
        type=positive_int,
        default=None,
        help="search depth (default %(default)s: the pinned bench depth)",
    )
    p.add_argument("--tt-mb", type=positive_int, default=None, help="table size in MiB")
    p.add_argument("--quiet", "-q", action="store_true", help="no per-position lines on stderr")
    p.set_defaults(func=cmd_bench)


#: every subcommand of `draughts`: the names a function adds to the parser.  A
#: function in another module is named as "module:function" and imported only
#: when its command is run (or all are listed): `draughts --version` and
#: `draughts perft` never load numpy, the engine or the endgame databases.
Register = Union[Callable, str]
COMMANDS: Tuple[Tuple[Tuple[str, ...], Register], ...] = (
    (("perft",), register_perft),
    (("bench",), register_bench),
    (("hub",), "draughts.hub.server:register"),
    (("play", "analyze"), "draughts.play:register"),
    (("svg",), "draughts.svg:register"),
    (("match", "openings"), "draughts.match.cli:register"),
    (("dxp",), "draughts.dxp.cli:register"),
    (("train",), "draughts.train:register"),
    (("positions",), "draughts.positions:register"),
    (("book",), "draughts.book_build:register"),
    (("egdb",), "draughts.egdb.cli:register"),
    (("gui",), "draughts.gui:register"),
)


def _resolve(register: Register) -> Callable:
    if callable(register):
        return register
    module, _, name = register.partition(":")
    return getattr(importlib.import_module(module), name)


def build_parser(only: Optional[Tuple[str, ...]] = None) -> argparse.ArgumentParser:
    """The parser of `draughts`, with every command, or with the commands
    named in `only` alone (their modules are the only ones imported)."""
    parser = argparse.ArgumentParser(prog="draughts", description="A draughts engine toolkit.")
    parser.add_argument("--version", action="version", version=f"draughts {draughts.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for names, register in COMMANDS:
        if only is not None and not set(names) & set(only):
            continue
        before = set(sub.choices)
        function = _resolve(register)
        function(sub)
        added = set(sub.choices) - before
        if added != set(names):
            raise RuntimeError(
                f"{function.__module__}.{function.__name__} added the commands {sorted(added)}, not {sorted(names)}"
            )
    return parser


def _needed(argv: List[str]) -> Optional[Tuple[str, ...]]:
    """The commands a command line needs in its parser: the one it names, none
    for a bare `--version`, or every one (to list them, or to say that a
    name is not one of them)."""
    known = {name for names, _ in COMMANDS for name in names}
    for word in argv:
        if word == "--":
            break
        if not word.startswith("-"):
            return (word,) if word in known else None
        if word in ("-h", "--help"):
            return None
    return () if "--version" in argv else None


def main(argv: Optional[List[str]] = None) -> int:
    words = list(argv) if argv is not None else sys.argv[1:]
    parser = build_parser(_needed(words))
    args = parser.parse_args(argv)
    args.command_line = list(argv) if argv is not None else sys.argv[1:]
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except (DraughtsError, ValueError) as e:  # bad input, or an engine or connection fault
        print(f"draughts: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        print("draughts: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

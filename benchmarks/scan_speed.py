#!/usr/bin/env python
"""Speed and search shape against Scan 2.0 on fixed positions, one thread each.

    python benchmarks/scan_speed.py KIT                       # everything below
    python benchmarks/scan_speed.py KIT --depth 14 --times 0.2 --build-dir /tmp/scan2m
    python benchmarks/scan_speed.py KIT --rounds 5 --times     # the speed only, its median of five rounds

KIT is the folder of the Scan 2.0 sparring kit; the script builds Scan with
its `build.sh` and `MEASURE=1` (its measurement patch: an `iter DEPTH NODES
TIME` line after every finished iteration in Hub mode) into a scratch folder
or `--build-dir` (reused when a build is there).  Nothing of Scan goes into
this project.

For each position of `--positions` (default `benchmarks/data/scan-speed-positions.fen`:
the international start and eight middle-game positions of our games against
Scan 2.0 at 0.2 s a move, after ply 30-44), with the table cleared before each:

* **nodes to complete each depth** from `--min-depth` to `--depth` (summed
  over the positions), and from them the growth per ply;
* **nodes per second in CPU time**, over the same deepest searches: ours from
  `time.process_time()` around the search in this process (this Python's
  `draughts`, one thread), Scan's from its process's user and system time in
  /proc (the two engines' searches of a position follow each other, so any
  load on the machine falls on both alike); with `--rounds N` the searches
  are made N times over, each round's ratio printed and their median (the
  node counts are the first round's; a round whose counts differ says so);
* **the depth reached** at each of `--times` seconds a move: the median over
  the positions of the last finished iteration.

Scan runs with its book off and its bitbases as its kit sets them; ours with
its endgame tables off (`egdb=None`): the tables answer only positions of
four pieces or fewer, which these positions are far from.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent
DEFAULT_POSITIONS = HERE / "data" / "scan-speed-positions.fen"


def build_scan(kit: Path, out: Path) -> Path:
    if (out / "scan").exists() and (out / "data").is_dir():
        print(f"using the Scan build in {out}", flush=True)
        return out
    print(f"building Scan 2.0 (MEASURE=1) from {kit} into {out} ...", flush=True)
    subprocess.run(
        ["bash", str(kit / "build.sh"), str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        env=dict(os.environ, MEASURE="1"),
    )
    return out


def hub_position(fen: str) -> str:
    """Scan's Hub `pos` argument: side to move, then squares 1-50."""
    import draughts

    board = draughts.Board(fen, variant="international")
    cells = []
    for sq in range(1, 51):
        piece = board.piece_at(sq)
        if piece is None:
            cells.append("e")
        else:
            c = "w" if piece.color == draughts.WHITE else "b"
            cells.append(c.upper() if piece.king else c)
    return ("w" if board.turn == draughts.WHITE else "b") + "".join(cells)


class Scan:
    """Scan 2.0 in Hub mode, spoken to line by line."""

    def __init__(self, folder: Path):
        self.proc = subprocess.Popen(
            [str(folder / "scan"), "hub"],
            cwd=str(folder),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("hub")
        self.until("wait")
        for name, value in (("book", "false"), ("threads", "1")):
            self.send(f"set {name} {value}")
        self.send("init")
        self.until("ready")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, word: str) -> List[str]:
        assert self.proc.stdout is not None
        lines = []
        for line in self.proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.split()[:1] == [word]:
                return lines
        raise SystemExit(f"Scan ended before '{word}'")

    def cpu(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def search(self, fen: str, *, depth: int = 0, seconds: float = 0.0) -> Tuple[Dict[int, int], float, int]:
        """(nodes at the end of each iteration, CPU seconds, last depth finished)."""
        self.send("new")
        self.send(f"pos {hub_position(fen)}")
        self.send(f"depth {depth}" if depth else f"time {round(seconds * 1000)}")
        before = self.cpu()
        self.send("go think")
        lines = self.until("move")
        cpu = self.cpu() - before
        iters = {int(w[1]): int(w[2]) for w in (l.split() for l in lines) if w[:1] == ["iter"]}
        return iters, cpu, max(iters) if iters else 0

    def quit(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)


class Ours:
    def __init__(self, options: Dict[str, str]):
        from draughts.engine import Engine

        self.engine = Engine("international", tt_mb=64, threads=1, egdb=None)
        self.engine.configure(options)

    def search(self, fen: str, *, depth: int = 0, seconds: float = 0.0) -> Tuple[Dict[int, int], float, int]:
        import draughts
        from draughts.limits import Limit

        board = draughts.Board(fen, variant="international")
        iters: Dict[int, int] = {}
        self.engine.new_game()
        limit = Limit(depth=depth) if depth else Limit(movetime=seconds)
        before = time.process_time()
        result = self.engine.play(board, limit, on_info=lambda info: iters.__setitem__(info.depth, info.nodes))
        cpu = time.process_time() - before
        iters.setdefault(result.info.depth, result.info.nodes)
        return iters, cpu, max(iters) if iters else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kit", type=Path, help="the Scan 2.0 kit's folder (with build.sh)")
    ap.add_argument("--positions", type=Path, default=DEFAULT_POSITIONS, help="a file of FENs, one a line")
    ap.add_argument("--min-depth", type=int, default=8, help="first depth reported (default 8)")
    ap.add_argument("--depth", type=int, default=16, help="last depth searched (default 16)")
    ap.add_argument(
        "--times",
        type=float,
        nargs="*",
        default=[0.2, 1.0],
        help="seconds a move for the depth reached (default 0.2 1)",
    )
    ap.add_argument("--build-dir", type=Path, help="build Scan here and keep it (default: a scratch folder)")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="times the positions are searched to --depth for the speed: each round's ratio, and their median (default 1)",
    )
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of our engine (Engine.configure's names, e.g. probcut=3,40,1.0,0,0,5,1.0); repeatable",
    )
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds takes a count of 1 or more")
    options: Dict[str, str] = {}
    for text in args.option:
        name, eq, value = text.partition("=")
        if not eq or not name:
            ap.error(f"--option takes NAME=VALUE, not {text!r}")
        options[name] = value
    fens = [l.strip() for l in args.positions.read_text().splitlines() if l.strip() and not l.startswith("#")]
    scratch = Path(tempfile.mkdtemp(prefix="scan-speed-"))
    try:
        folder = build_scan(args.kit.resolve(), args.build_dir.resolve() if args.build_dir else scratch / "scan2")
        engines = {"draughts": Ours(options), "scan2": Scan(folder)}
        rounds = []  # per round: {engine: (nodes of each depth, CPU seconds, nodes of the deepest searches)}
        for rnd in range(args.rounds):
            nodes = {name: {d: 0 for d in range(args.min_depth, args.depth + 1)} for name in engines}
            cpu = {name: 0.0 for name in engines}
            total = {name: 0 for name in engines}
            for k, fen in enumerate(fens):
                for name, engine in engines.items():  # interleaved: the same load on both
                    iters, seconds, _ = engine.search(fen, depth=args.depth)
                    for d in nodes[name]:
                        if d not in iters:
                            raise SystemExit(f"{name} reported no iteration {d} on position {k + 1}")
                        nodes[name][d] += iters[d]
                    cpu[name] += seconds
                    total[name] += iters[max(iters)]
                print(
                    f"round {rnd + 1}/{args.rounds}: position {k + 1}/{len(fens)} searched to depth {args.depth}",
                    file=sys.stderr,
                    flush=True,
                )
            if rounds and nodes != rounds[0][0]:
                print(f"round {rnd + 1}: node counts differ from round 1's", file=sys.stderr)
            rounds.append((nodes, cpu, total))
        nodes, cpu, total = rounds[0]
        print(f"{time.strftime('%Y-%m-%d %H:%M')}, {len(fens)} positions ({args.positions.name}), one thread each")
        if options:
            print("our options: " + " ".join(f"{k}={v}" for k, v in options.items()))
        print()
        print(f"{'depth':>5} " + " ".join(f"{n + ' nodes':>16}" for n in engines) + "   ratio")
        for d in range(args.min_depth, args.depth + 1):
            a, b = (nodes[n][d] for n in engines)
            print(f"{d:>5} " + " ".join(f"{nodes[n][d]:>16,}" for n in engines) + f"   {a / max(1, b):5.2f}")
        span = args.depth - args.min_depth
        if span > 0:
            for n in engines:
                growth = (nodes[n][args.depth] / max(1, nodes[n][args.min_depth])) ** (1.0 / span)
                print(f"growth a ply, depth {args.min_depth} to {args.depth}, {n}: {growth:.2f}")
        print()
        ratios = []
        for rnd, (_, cpu, total) in enumerate(rounds):
            head = f"round {rnd + 1}: " if len(rounds) > 1 else ""
            for n in engines:
                print(
                    f"{head}nodes a second (CPU), {n}: {total[n] / max(1e-9, cpu[n]) / 1e6:.2f} M "
                    f"({total[n]:,} nodes in {cpu[n]:.1f} s)"
                )
            ours, scan = (total[n] / max(1e-9, cpu[n]) for n in engines)
            ratios.append(ours / scan)
            print(f"{head}ratio draughts / scan2: {ours / scan:.2f}")
        if len(rounds) > 1:
            print(
                f"ratio draughts / scan2, median of {len(rounds)} rounds: {statistics.median(ratios):.2f} "
                f"({min(ratios):.2f}-{max(ratios):.2f})"
            )
        for seconds in args.times:
            depths = {n: [] for n in engines}
            for fen in fens:
                for name, engine in engines.items():
                    depths[name].append(engine.search(fen, seconds=seconds)[2])
            print(
                f"median depth at {seconds:g} s a move: "
                + ", ".join(
                    f"{n} {statistics.median(depths[n]):g} ({min(depths[n])}-{max(depths[n])})" for n in engines
                )
            )
        engines["scan2"].quit()
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Sparring against Scan 2.0: our engine against Scan through `draughts match`.

    python benchmarks/scan_sparring.py KIT --games 4 --st 0.2 --generate 2 --concurrency 1
    python benchmarks/scan_sparring.py KIT --games 100 --tc 40/1:00+0.5 --openings intl.pdn --pdnout g.pdn
    python benchmarks/scan_sparring.py KIT --engine-cmd /other/venv/bin/draughts ...   # another build of ours
    python benchmarks/scan_sparring.py KIT --fixed-depth 10 --games 200 --generate 100 --concurrency 2 \
        --eval-file weights.npz --maxmoves 150                          # the evaluation screen

KIT is the folder of the Scan 2.0 sparring kit (its `build.sh`, `src/`,
`data/`, `scan.ini`); nothing of it goes into this project.  The script
builds Scan with the kit's `build.sh` into a scratch folder (`--build-dir
DIR` keeps the build there, and reuses a build already in it), then plays
`--games` games through our runner: Scan as a Hub version 1 engine
(`proto=hub1 cmd=BUILD/scan arg=hub dir=BUILD`, run from inside its folder as it
needs) with its book off (`option.book=false`) and `option.threads=1`
(`--scan-threads`), against our Hub engine (`draughts hub` of this Python, or
`--engine-cmd`) with `option.threads=--threads`, both at `--st` seconds a
move or the game clock `--tc` (cutechess-cli's form).  Each opening is played
twice with colours swapped (`-repeat`): from `--openings FILE` (PDN or FEN), or
from `--generate N` balanced openings made first with `draughts openings
--variant international` (`--plies`, `--depth`, `--seed`).  `--concurrency`
games at once (1 keeps a shared machine free), `--timemargin` milliseconds of
grace before a late move loses (default 100), `--pdnout`, `--jsonout`.

The runner's lines are printed as they come; at the end the result lines
again (score, Elo with its error, pentanomial) with the date, and the games
lost by a fault (time forfeit, illegal move, crash, stall) by engine.
`--print-command` prints the match command and stops (no build, no games).
`--fixed-depth D` is the evaluation screen: both engines search to depth D
every move (no clock), so the score measures the evaluation (and the search
shape) independently of the machine's load; `--maxmoves N` adjudicates a
game a draw after N moves (the runner's `-maxmoves`).  `--eval-file F` plays
our engine with the learned weights file F: then ours is the runner's
built-in engine (`proto=builtin option.eval-file=F`), in the runner's
process, instead of a `draughts hub` process.
`--speed` instead reports each engine's depth, nodes and nodes per second
for one move of `--st` seconds from the international start (and ours from
the american start), through the same clients and settings as the match,
`--repeat` times each, and stops.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Tuple

RESULT_PREFIXES = ("Score of", "Elo difference", "Ptnml", "SPRT")


def build_scan(kit: Path, out: Path) -> Path:
    """Scan built by the kit's build.sh into `out` (a build already there is reused)."""
    scan = out / "scan"
    if scan.exists() and (out / "scan.ini").exists() and (out / "data").is_dir():
        print(f"using the Scan build in {out}", flush=True)
        return out
    script = kit / "build.sh"
    if not script.exists():
        raise SystemExit(f"{kit} is not the Scan 2.0 kit: it has no build.sh")
    print(f"building Scan 2.0 from {kit} into {out} ...", flush=True)
    subprocess.run(["bash", str(script), str(out)], check=True, stdout=subprocess.DEVNULL)
    if not scan.exists():
        raise SystemExit(f"the build left no {scan}")
    return out


def generate_openings(path: Path, count: int, plies: int, depth: int, seed: int) -> None:
    cmd = [
        sys.executable,
        "-m",
        "draughts",
        "openings",
        "--variant",
        "international",
        "--plies",
        str(plies),
        "--count",
        str(count),
        "--depth",
        str(depth),
        "--seed",
        str(seed),
        "--output",
        str(path),
        "--quiet",
    ]
    print("openings: " + " ".join(shlex.quote(c) for c in cmd[2:]), flush=True)
    subprocess.run(cmd, check=True)


def match_command(args, scan_dir: Path, openings: Path) -> List[str]:
    ours = shlex.split(args.engine_cmd) if args.engine_cmd else [sys.executable, "-m", "draughts"]
    if args.fixed_depth:
        limit = f"depth={args.fixed_depth}"
    else:
        limit = f"st={args.st:g}" if args.tc is None else f"tc={args.tc}"
    if args.eval_file:
        our_engine = ["name=draughts", "proto=builtin", f"option.eval-file={args.eval_file.resolve()}"]
    else:
        our_engine = ["name=draughts", f"cmd={ours[0]}", *[f"arg={a}" for a in ours[1:]], "arg=hub"]
    cmd = [
        sys.executable,
        "-m",
        "draughts",
        "match",
        "-variant",
        "international",
        "-engine",
        *our_engine,
        f"option.threads={args.threads}",
        "-engine",
        "name=scan2",
        "proto=hub1",
        f"cmd={scan_dir / 'scan'}",
        "arg=hub",
        f"dir={scan_dir}",
        "option.book=false",
        f"option.threads={args.scan_threads}",
        "-each",
        limit,
        f"timemargin={args.timemargin}",
        "-games",
        str(args.games),
        "-repeat",
        "-concurrency",
        str(args.concurrency),
        "-recover",
        "-openings",
        f"file={openings}",
        "order=sequential",
        "-ratinginterval",
        "0",
        "-progress",
        "off",
    ]
    if args.maxmoves:
        cmd += ["-maxmoves", str(args.maxmoves)]
    if args.pdnout:
        cmd += ["-pdnout", str(args.pdnout)]
    if args.jsonout:
        cmd += ["-jsonout", str(args.jsonout)]
    return cmd


FINISHED = re.compile(r"Finished game \d+ \((\S+) vs (\S+)\): \S+ \{(White|Black)(.*)\}")
FAULTS = (
    ("loses on time", "time forfeit"),
    ("makes an illegal move", "illegal move"),
    ("sends no move", "illegal move"),
    ("disconnects", "crash"),
    ("connection stalls", "stall"),
)


def fault_of(line: str) -> Optional[str]:
    """`ENGINE: FAULT` when a `Finished game` line ends a game by a fault
    (international: the first-named engine has White)."""
    m = FINISHED.match(line)
    if not m:
        return None
    white, black, side, rest = m.groups()
    for words, fault in FAULTS:
        if rest.strip().startswith(words) or rest.startswith("'s " + words):
            return f"{white if side == 'White' else black}: {fault}"
    return None


def run_match(cmd: List[str]) -> Tuple[List[str], List[str]]:
    """Run the match, echoing its lines; (its result lines, the faults)."""
    results: List[str] = []
    faults: List[str] = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, bufsize=1) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line, end="", flush=True)
            fault = fault_of(line)
            if fault:
                faults.append(fault)
            if line.startswith("Score of"):
                results = []  # a running score: only the last one counts
            if line.startswith(RESULT_PREFIXES):
                results.append(line.rstrip("\n"))
    if proc.returncode != 0:
        raise SystemExit(f"the match failed (exit code {proc.returncode})")
    return results, faults


def speed_report(args, scan_dir: Path) -> None:
    """Depth, nodes and nodes per second of one move of --st seconds, ours and Scan's."""
    import draughts
    from draughts.hub import HubEngine
    from draughts.hub.hub1 import Hub1Engine
    from draughts.limits import Limit

    ours_cmd = shlex.split(args.engine_cmd) if args.engine_cmd else [sys.executable, "-m", "draughts"]
    engines = [
        (
            "draughts",
            lambda: HubEngine(ours_cmd + ["hub"], params={"threads": args.threads}),
            ("international", "american"),
        ),
        (
            "scan2",
            lambda: Hub1Engine(
                [str(scan_dir / "scan"), "hub"], cwd=str(scan_dir), params={"book": False, "threads": args.scan_threads}
            ),
            ("international",),
        ),
    ]
    print(
        f"{'engine':<10} {'variant':<14} {'depth':>6} {'nodes':>10} {'M nodes/s':>10}  ({args.st:g} s a move "
        f"from the start, median of {args.repeat})"
    )
    for name, make, variants in engines:
        engine = make()
        try:
            for variant in variants:
                rows = []
                for _ in range(args.repeat):
                    engine.new_game()
                    info = engine.play(draughts.Board(variant=variant), Limit(movetime=args.st)).info
                    rows.append((info.depth or 0, info.nodes or 0, (info.nps or 0.0) / 1e6))
                rows.sort(key=lambda r: r[2])
                depth, nodes, nps = rows[len(rows) // 2]
                print(f"{name:<10} {variant:<14} {depth:>6} {nodes:>10} {nps:>10.2f}", flush=True)
        finally:
            engine.quit()


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("kit", type=Path, help="the Scan 2.0 kit's folder (with build.sh)")
    ap.add_argument("--games", type=int, default=20, help="games in all (pairs of one opening; default 20)")
    clock = ap.add_mutually_exclusive_group()
    clock.add_argument("--st", type=float, default=0.2, help="seconds a move (default 0.2)")
    clock.add_argument("--tc", help="a game clock instead, e.g. 40/1:00+0.5 or 2:00")
    clock.add_argument(
        "--fixed-depth", type=int, metavar="D", help="both engines to depth D every move (the evaluation screen)"
    )
    ap.add_argument("--maxmoves", type=int, help="adjudicate a draw after this many moves")
    ap.add_argument("--eval-file", type=Path, help="our engine with this learned weights file (built-in engine)")
    ap.add_argument("--threads", type=int, default=1, help="our engine's search threads (default 1)")
    ap.add_argument("--scan-threads", type=int, default=1, help="Scan's threads (default 1)")
    books = ap.add_mutually_exclusive_group()
    books.add_argument("--openings", type=Path, help="an openings file (PDN or FEN)")
    books.add_argument(
        "--generate", type=int, metavar="N", help="generate N balanced openings (default: one for each pair of games)"
    )
    ap.add_argument("--plies", type=int, default=8, help="random plies of a generated opening (default 8)")
    ap.add_argument("--depth", type=int, default=8, help="depth of the balance check (default 8)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the generated openings (default 2026)")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    ap.add_argument("--timemargin", type=int, default=100, help="ms of grace before a late move loses (default 100)")
    ap.add_argument("--pdnout", type=Path, help="write the games as PDN")
    ap.add_argument("--jsonout", type=Path, help="write the runner's JSON summary")
    ap.add_argument("--engine-cmd", help="our engine's program (default: this Python's draughts); `hub` is added")
    ap.add_argument("--build-dir", type=Path, help="build Scan here and keep it (default: a scratch folder)")
    ap.add_argument("--print-command", action="store_true", help="print the match command and stop")
    ap.add_argument(
        "--speed", action="store_true", help="report depth and nodes per second for one move of --st seconds, and stop"
    )
    ap.add_argument("--repeat", type=int, default=3, help="moves of each --speed figure (default 3)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.threads < 1 or args.scan_threads < 1 or args.concurrency < 1:
        ap.error("--games, --threads, --scan-threads and --concurrency must be at least 1")
    if args.tc is None and args.st <= 0:
        ap.error("--st must be more than 0")

    kit = args.kit.resolve()
    scratch = Path(tempfile.mkdtemp(prefix="scan-sparring-"))
    try:
        scan_dir = args.build_dir.resolve() if args.build_dir else scratch / "scan2"
        openings = args.openings.resolve() if args.openings else scratch / "openings.pdn"
        cmd = match_command(args, scan_dir, openings)
        if args.print_command:
            print(" ".join(shlex.quote(c) for c in cmd))
            return 0
        build_scan(kit, scan_dir)
        if args.speed:
            speed_report(args, scan_dir)
            return 0
        if not args.openings:
            generate_openings(openings, args.generate or (args.games + 1) // 2, args.plies, args.depth, args.seed)
        started = datetime.datetime.now()
        print("match: " + " ".join(shlex.quote(c) for c in cmd[2:]), flush=True)
        results, faults = run_match(cmd)
        took = datetime.datetime.now() - started
        print()
        control = (
            f"depth {args.fixed_depth}"
            if args.fixed_depth
            else f"st={args.st:g}"
            if args.tc is None
            else f"tc={args.tc}"
        )
        print(f"{started:%Y-%m-%d %H:%M}, {args.games} games at {control}, {took.total_seconds():.0f} s:")
        for line in results:
            print("    " + line)
        counts = collections.Counter(faults)
        print(
            "    games lost by a fault: "
            + (", ".join(f"{k} {n}" for k, n in sorted(counts.items())) if counts else "none")
        )
        return 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""PDN reading speed on real files: games read and replayed per second, one core.

    python benchmarks/pdn_throughput.py [--baseline REF | --baseline-src DIR] [--rounds N]

Reads every game of the corpus in tests/data/pdn-corpus/ (the `succeed/`
files, CheckerBoard's and lidraughts' files: see its README) with
`draughts.pdn.read_games(..., errors="skip")`, each file with its known variant
(so inference is not timed), from bytes already in memory; a game counts once
its every move has been checked legal and played on a Board.  The rate is
games over the process CPU time of the fastest of `--rounds` rounds.

`--baseline REF` also times the package of git revision REF, in the same run
(rounds alternating between the two, same corpus, best round of each): REF's `src/` is unpacked in a
temporary folder and given this tree's compiled core, which is only allowed
when `src/draughts_core` is the same in both; otherwise build REF yourself
and pass its source folder as `--baseline-src DIR`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "pdn-corpus"

# the variants of files without GameType tags (the corpus README, by file name)
AMERICAN = {
    "OCA_2.0",
    "Principles of Strategy",
    "Tricks traps and shots",
    "beginner",
    "borderclassics",
    "bridges",
    "gem",
    "goulds",
    "inferno",
    "lpc",
    "tinsley",
    "11_man_english",
}
ITALIAN = {"Campionato Assoluto 2005", "11_man_italian"}
RUSSIAN = {"ussr1947", "abatsiev", "alphanumeric", "russian_corpus_snippet"}
CZECH = {"mrcd2000kval", "mrcd2006", "mrcd2007", "mrdrcd07", "mrdrcd08"}


def file_variant(path: Path) -> str:
    name = path.stem
    if name in AMERICAN:
        return "american"
    if name in ITALIAN:
        return "italian"
    if name in RUSSIAN:
        return "russian"
    if name in CZECH:
        return "czech"
    return "international"


def corpus() -> List[Tuple[Path, str, bytes]]:
    files = sorted((CORPUS / "wiegerw_pdn" / "games" / "succeed").glob("*.pdn"))
    files += sorted((CORPUS / "checkerboard").glob("*.pdn")) + sorted((CORPUS / "lidraughts").glob("*.pdn"))
    return [(f, file_variant(f), f.read_bytes()) for f in files]


def baseline_source(ref: str) -> Path:
    """REF's src/ in a temporary folder, with this tree's compiled core."""
    same = subprocess.run(["git", "diff", "--quiet", ref, "--", "src/draughts_core"], cwd=ROOT).returncode == 0
    if not same:
        raise SystemExit(f"src/draughts_core differs between {ref} and this tree: build {ref} and pass --baseline-src")
    folder = Path(tempfile.mkdtemp(prefix="pdn-baseline-"))
    archive = subprocess.run(["git", "archive", ref, "src"], cwd=ROOT, check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    import draughts_core

    for built in Path(draughts_core.__file__).parent.iterdir():
        if built.suffix in (".so", ".pyd"):
            shutil.copy2(built, folder / "src" / "draughts_core" / built.name)
    return folder


def one_round(reader, files) -> Tuple[int, int, int, float]:
    games = plies = errors = 0
    t0 = time.process_time()
    for _, variant, data in files:
        games_of = reader.read_games(data, variant=variant, errors="skip")
        for game in games_of:
            games += 1
            plies += len(game.moves)
        errors += len(games_of.errors)
    return games, plies, errors, time.process_time() - t0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--baseline", metavar="REF", help="also time the package of this git revision")
    group.add_argument("--baseline-src", metavar="DIR", help="also time the built source tree in DIR")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--label", default="this tree", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    import draughts
    from draughts import pdn

    files = corpus()
    folder = None
    if args.baseline or args.baseline_src:
        folder = baseline_source(args.baseline) if args.baseline else Path(args.baseline_src)
    best = base_best = None
    base_line = ""
    # the rounds alternate between the two, so that a change in the machine's load hits both
    for _ in range(args.rounds):
        result = one_round(pdn, files)
        if best is None or result[3] < best[3]:
            best = result
        if folder is not None:
            env = dict(os.environ, PYTHONPATH=str(folder / "src"))
            child = subprocess.run(
                [sys.executable, __file__, "--rounds", "1", "--label", args.baseline or args.baseline_src],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            seconds = float(child.stdout.split(" s CPU")[0].split()[-1])
            if base_best is None or seconds < base_best:
                base_best, base_line = seconds, child.stdout
    games, plies, errors, seconds = best
    print(
        f"{args.label:22s} {games:6d} games ({errors} rejected), {plies:6d} plies in {seconds:6.3f} s CPU: "
        f"{games / seconds:6.0f} games/s, {plies / seconds:7.0f} plies/s",
        flush=True,
    )
    if folder is not None:
        print(base_line, end="")
        base_rate = float(base_line.split("games/s")[0].split()[-1])
        print(f"ratio: {games / seconds / base_rate:.2f}x (this tree {draughts.__file__})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

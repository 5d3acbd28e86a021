"""Repeated games in a self-play match, and the result of its distinct part.

    python benchmarks/match_repeats.py MATCH.pdn [MORE.pdn ...] [--engine NAME]
    python benchmarks/match_repeats.py PART1.pdn PART2.pdn ... --combine

At node limits our engine is deterministic: a match that plays more games
than its book has openings (two a round with `-repeat`) replays games already
played, move for move, and an SPRT over them counts the same evidence again.
For each PDN written by `draughts match -pdnout` (one game after another,
`-concurrency 1`) this prints the games, how many repeat an earlier game
exactly (the same engine with White and the same moves), where the first one
is, and the pentanomial summary of the complete pairs before it, for the
engine `--engine` (default: the engine of the first game's White tag).

With `--combine` the files are the parts of one match, in the order played
(a match continued from a second book when the first ran out): a game that
repeats one of an earlier part counts as a repeat too, the distinct pairs of
all parts are read as one sequential test, and the summary is of the pairs up
to the first crossing of an SPRT bound (elo0=0, elo1=10), where the test
stops, or of all of them when none is crossed.
"""

from __future__ import annotations

import argparse
from typing import List, Optional, Tuple

from draughts import pdn
from draughts.variants import WHITE
from draughts.match.stats import Sprt, report_lines, summarise


def distinct_part(
    path: str, engine: Optional[str] = None, seen: Optional[set] = None
) -> Tuple[str, str, int, int, Optional[int], List[float]]:
    """(engine, opponent, games, exact repeats, first repeat's number or None,
    the engine's points in the games before the first repeat).  `seen` holds
    the games of earlier parts (and gets this file's)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        games = list(pdn.read_games(f.read()))
    if not games:
        raise SystemExit(f"{path}: no games")
    names = {games[0].headers.get("White"), games[0].headers.get("Black")}
    me = engine or games[0].headers.get("White")
    if me not in names:
        raise SystemExit(f"{path}: no engine {me!r} (the players are {', '.join(sorted(map(str, names)))})")
    other = next(iter(names - {me}), "?")
    seen = set() if seen is None else seen
    repeats, first = 0, None
    points: List[float] = []
    for i, g in enumerate(games):
        key = (g.headers.get("White"), tuple(str(m) for m in g.moves))
        if key in seen:
            repeats += 1
            if first is None:
                first = i + 1
        seen.add(key)
        # the variant's result tokens give the first mover's points (Black moves
        # first in american and pool, where PDN's 1-0 is Black's win)
        p = dict(zip(g.variant.result_tokens, (1.0, 0.5, 0.0))).get(g.headers.get("Result", ""))
        if p is None:  # an unfinished last game
            break
        opener = g.headers.get("White" if g.variant.first == WHITE else "Black")
        points.append(p if opener == me else 1.0 - p)
    if first is not None:
        points = points[: first - 1]
    return me, other, len(games), repeats, first, points[: len(points) // 2 * 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pdn", nargs="+", help="PDN files of matches (draughts match -pdnout)")
    ap.add_argument("--engine", help="the engine whose score is given (default: game 1's White)")
    ap.add_argument("--combine", action="store_true", help="the files are consecutive parts of one sequential test")
    args = ap.parse_args()
    if args.combine:
        combine(args.pdn, args.engine)
        return
    for path in args.pdn:
        me, other, n, repeats, first, points = distinct_part(path, args.engine)
        pairs = [points[i] + points[i + 1] for i in range(0, len(points), 2)]
        where = f"the first is game {first}" if first else "none"
        print(f"{path}: {n} games, {repeats} repeat an earlier game exactly ({where})")
        s = summarise(points, pairs, Sprt(0, 10, 0.05, 0.05), paired=True)
        for line in report_lines(me, other, s, paired=True):
            print("  " + line)


def combine(paths: List[str], engine: Optional[str] = None) -> None:
    """The parts as one sequential test: distinct pairs in order, stopped at
    the first pair where the log-likelihood ratio leaves its bounds."""
    seen: set = set()
    points: List[float] = []
    me = other = "?"
    for path in paths:
        me, other, n, repeats, first, part = distinct_part(path, engine, seen)
        engine = me  # later parts: the first part's engine
        where = f"the first is game {first}" if first else "none"
        print(
            f"{path}: {n} games, {repeats} repeat a game of this or an earlier part ({where}); "
            f"{len(part) // 2} distinct pairs"
        )
        points += part
    sprt = Sprt(0, 10, 0.05, 0.05)
    stop = len(points)
    for end in range(2, len(points) + 1, 2):
        pairs = [points[i] + points[i + 1] for i in range(0, end, 2)]
        s = summarise(points[:end], pairs, sprt, paired=True)
        if s.sprt["verdict"] is not None:
            stop = end
            break
    pairs = [points[i] + points[i + 1] for i in range(0, stop, 2)]
    s = summarise(points[:stop], pairs, sprt, paired=True)
    print(f"combined: {stop} of {len(points)} distinct games" + (" (the test stops here)" if s.sprt["verdict"] else ""))
    for line in report_lines(me, other, s, paired=True):
        print("  " + line)


if __name__ == "__main__":
    main()

"""What a save of the match state file costs as the match grows.

The runner rewrites its state file (-state) after every game, on the thread
that plays the next moves beside in-process engines.  This times one save at
several match sizes: the runner's own `Match.save_state` against encoding
every record again with `json.dump` (what the runner did before a3d0f70),
CPU seconds of this process.  The records are copies of real games of
international at depth 2 (120 plies each, about the length of a 0.2 s
SPRT game).

    python benchmarks/state_save.py --games 100 500 1000 2000
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import tempfile
import time

from draughts.match import cli
from draughts.match.runner import Console, Match


def played_match(state_path: str) -> Match:
    quick = ["proto=builtin", "depth=2", "option.threads=1"]
    argv = ["-engine", "name=a", *quick, "-engine", "name=b", *quick, "-variant", "international"]
    argv += ["-games", "2", "-maxmoves", "60", "-ratinginterval", "0", "-state", state_path]
    match = Match(
        cli.settings_from_options(cli.split_options(argv)), console=Console(io.StringIO(), io.StringIO(), False)
    )
    match.run()
    return match


def grown(match: Match, games: int, state_path: str) -> Match:
    """A match whose state holds `games` records (copies of the played ones)."""
    state = match.state_json()
    played = state["records"]
    state["records"] = [dict(played[i % len(played)], index=i) for i in range(games)]
    settings = dataclasses.replace(match.settings, state=state_path)
    return Match(settings, console=Console(io.StringIO(), io.StringIO(), False), resume_state=state)


def cpu(f, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        f()
        best = min(best, time.process_time() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[100, 500, 1000, 2000])
    ap.add_argument("--repeat", type=int, default=3, help="saves timed at each size (the least is shown)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "state.json")
        match = played_match(path)
        moves = sum(len(r.moves) for r in match.records.values()) / len(match.records)
        print(f"records: copies of {len(match.records)} games of {moves:.0f} plies on average")
        print(f"{'games':>6} {'state MB':>9} {'save_state s':>13} {'json.dump of every record s':>28} {'ratio':>6}")
        for n in args.games:
            m = grown(match, n, path)

            def every_record_again(m=m):
                with open(path + ".old", "w", encoding="utf-8") as fh:
                    json.dump(m.state_json(), fh)

            new = cpu(m.save_state, args.repeat)
            old = cpu(every_record_again, args.repeat)
            size = os.path.getsize(path) / 1e6
            print(f"{n:>6} {size:>9.1f} {new:>13.3f} {old:>28.3f} {old / new:>6.0f}")


if __name__ == "__main__":
    main()

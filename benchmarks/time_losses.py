"""Time losses and latency of our engine in real matches through our runner.

Every setting is a self-play match `draughts match` (our engine through the
Hub protocol against itself, the runner's default timemargin of 0, so a move
later than its time loses), read back from its `-jsonout` summary: games,
time losses (per 1,000 games), other faults, and the runner's latency figures
(the runner's time for a move less the engine's own reported time).

    python benchmarks/time_losses.py                          # the three settings of the issue
    python benchmarks/time_losses.py --games 40 --settings st0.05-c2
    python benchmarks/time_losses.py --json losses.json

Setting names: `st<S>-c<N>` (S seconds a move), `tc<T>+<I>-c<N>` (a clock),
with `-tt<M>` for M MiB tables; `-o<MS>` sets the engines' move overhead.
It prints the machine's load average before and after each match: the
figures mean little without it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from typing import Dict, List

DEFAULT_SETTINGS = ["st0.05-c2", "tc1+0.01-c2", "st0.1-c1-tt256", "st0.1-c2-tt256"]
_SETTING = re.compile(r"(?:st(?P<st>[0-9.]+)|tc(?P<tc>[0-9.:/+]+))-c(?P<c>\d+)"
                      r"(?:-tt(?P<tt>\d+))?(?:-o(?P<o>\d+))?\Z")


def match_args(setting: str, games: int, variant: str) -> List[str]:
    m = _SETTING.match(setting)
    if not m:
        raise SystemExit(f"bad setting {setting!r} (st0.05-c2, tc1+0.01-c2, st0.1-c1-tt256, ...-o20)")
    limit = f"st={m['st']}" if m["st"] else f"tc={m['tc']}"
    engine = ["cmd=draughts", "arg=hub"]
    if m["tt"]:
        engine.append(f"option.tt-size={m['tt']}")
    if m["o"]:
        engine.append(f"option.move-overhead={m['o']}")
    book = ["-openings", "file=acf-3move", "order=random"] if variant == "american" else []
    return (["-variant", variant, "-engine", "name=A", *engine, "-engine", "name=B", *engine,
             "-each", limit, "-games", str(games), "-repeat", "-concurrency", m["c"],
             "-srand", "1", *book])


def run(setting: str, games: int, variant: str) -> Dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "match.json")
        argv = [sys.executable, "-m", "draughts", "match", *match_args(setting, games, variant),
                "-jsonout", out, "-ratinginterval", "0", "-progress", "off"]
        load0 = os.getloadavg()[0]
        t0 = time.time()
        proc = subprocess.run(argv, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{setting}: the match failed:\n{proc.stderr[-2000:]}")
        with open(out) as fh:
            summary = json.load(fh)
    terms = summary["terminations"]
    played = summary["games_played"]
    losses = terms.get("time forfeit", 0)
    lat = summary.get("latency", {})
    return {"setting": setting, "variant": variant, "games": played, "time_losses": losses,
            "per_1000": 1000.0 * losses / played if played else 0.0,
            "other_faults": {k: v for k, v in terms.items()
                             if k not in ("normal", "adjudication", "time forfeit")},
            "latency": lat, "seconds": time.time() - t0,
            "load_before": load0, "load_after": os.getloadavg()[0]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per setting (default 200)")
    ap.add_argument("--variant", default="american")
    ap.add_argument("--settings", nargs="+", default=DEFAULT_SETTINGS)
    ap.add_argument("--json", help="write every row as JSON here too")
    args = ap.parse_args()
    rows = []
    print(f"{'setting':<22} {'games':>6} {'lost on time':>13} {'per 1000':>9} "
          f"{'latency p50/p99/max ms':>24} {'load':>10} {'s':>6}")
    for setting in args.settings:
        r = run(setting, args.games, args.variant)
        rows.append(r)
        lat = list(r["latency"].values())
        moves = sum(x["moves"] for x in lat)
        p50 = max((x["median_ms"] for x in lat), default=0.0)
        p99 = max((x["p99_ms"] for x in lat), default=0.0)
        mx = max((x["max_ms"] for x in lat), default=0.0)
        faults = f"  faults {r['other_faults']}" if r["other_faults"] else ""
        print(f"{setting:<22} {r['games']:>6} {r['time_losses']:>13} {r['per_1000']:>9.1f} "
              f"{p50:>8.1f}/{p99:.1f}/{mx:.1f} ({moves} moves) "
              f"{r['load_before']:.1f}-{r['load_after']:.1f} {r['seconds']:>6.0f}{faults}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()

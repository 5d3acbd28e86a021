#!/usr/bin/env python
"""Measure this project against its PyPI peers, in one run, on one machine.

    python benchmarks/peers.py                 # everything (about 2 minutes)
    python benchmarks/peers.py --no-api-loop   # only our core perft against the peers
    python benchmarks/peers.py --peers py-draughts --json out.json

The peers install under the import name ``draughts`` like this project, and
like each other, so each gets its own virtual environment under
``benchmarks/.venv-peers/<peer>`` (git-ignored through ``.venv*/``), made with
``python -m venv`` and filled with ``pip install <peer>==<version>`` on first
use.  A small measuring snippet runs inside each environment through a
subprocess and prints its figures as JSON; then the same depths are measured
here, with this project, and the figures are printed side by side.

Peers and what is counted (read from their installed sources):

* py-draughts (``pip install py-draughts``): its public boards' ``legal_moves``
  with ``push``/``pop`` (international ``StandardBoard``, ``AmericanBoard``,
  ``RussianBoard``, ``BrazilianBoard``), and, for international only, the
  internal ``draughts.engines.turbo.perft`` its tests use to check the turbo
  engine.  Its American board makes capturing optional, so its american counts
  are compared with ours under that house rule
  (``draughts.variant("american", mandatory_capture=False)``).
* pydraughts (``pip install pydraughts``): no perft, so the count is a
  legal_moves/push/pop loop on its game object (``Board(...)._game``, faster
  than its public ``Board`` that builds ``Move`` objects and FENs at every
  push).  It is slow: tiny depths only.

Every count is a leaf count with bulk counting at the last ply (the length of
the move list), the way perft is usually written, on both sides.  A rate is
leaves divided by the best (shortest) of several timed runs, timed in the
process's CPU time by default: on a shared machine other work then disturbs the
figures much less (``--wall`` times the wall clock instead; everything here is
single-threaded, so on an idle machine the two agree).

Two comparisons are printed:

1. our core perft (``Board.perft``) against each peer's fastest count;
2. like for like, a Python loop over our public API (``list(board.legal_moves)``,
   ``push``, ``pop``) against the peer's loop over its API.
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENVS = HERE / ".venv-peers"

# The versions measured in benchmarks/results/2026-11-30-perft-movegen-peers.md; pass --unpinned to take PyPI's newest.
PEERS = {
    "py-draughts": "1.10.1",
    "pydraughts": "0.6.7",
}

# (peer, method, variant, depth).  Depths where the peer takes a few seconds at most here.
PLAN = [
    ("py-draughts", "board", "international", 7),
    ("py-draughts", "turbo", "international", 7),
    ("py-draughts", "board", "american", 7),
    ("py-draughts", "board", "russian", 8),
    ("py-draughts", "board", "brazilian", 8),
    ("pydraughts", "game", "international", 3),
    ("pydraughts", "game", "american", 4),
    ("pydraughts", "game", "russian", 4),
    ("pydraughts", "game", "brazilian", 4),
    ("pydraughts", "game", "italian", 4),
]

METHODS = {
    "board": "Board legal_moves/push/pop",
    "turbo": "engines.turbo.perft (internal)",
    "game": "Game legal_moves/push/pop",
}


# Timing, shared by this process and the peers' snippets (its source is sent to them).
def measure(fn, repeat=3, budget=4.0, min_total=0.25, clock="cpu"):
    """(result, best seconds, runs): at least `repeat` runs and `min_total` seconds
    of running, unless the next run would pass `budget` seconds in all.  clock="cpu"
    times the process's CPU time (steadier on a shared machine), "wall" the wall clock."""
    timer = time.process_time if clock == "cpu" else time.perf_counter
    best = float("inf")
    total = 0.0
    runs = 0
    result = None
    while True:
        t0 = timer()
        result = fn()
        dt = timer() - t0
        best = min(best, dt)
        total += dt
        runs += 1
        if runs >= repeat and total >= min_total:
            break
        if total + dt > budget:
            break
    return result, best, runs


MEASURE_SRC = "import time\n\n" + inspect.getsource(measure) + "\n"

PEER_SRC = r"""
import importlib.metadata
import json
import sys

spec = json.loads(sys.argv[1])
peer = spec["peer"]
out = {"peer": peer, "version": importlib.metadata.version(peer), "results": []}

if peer == "py-draughts":
    from draughts import AmericanBoard, BrazilianBoard, RussianBoard, StandardBoard
    from draughts.engines.turbo import perft_from_board
    CLASSES = {"international": StandardBoard, "american": AmericanBoard,
               "russian": RussianBoard, "brazilian": BrazilianBoard}

    def runner(method, variant, depth):
        board = CLASSES[variant]()
        if method == "turbo":
            return lambda: perft_from_board(board, depth)

        def perft(d):
            moves = board.legal_moves
            if d <= 1:
                return len(moves) if d == 1 else 1
            n = 0
            for m in moves:
                board.push(m)
                n += perft(d - 1)
                board.pop()
            return n
        return lambda: perft(depth)

elif peer == "pydraughts":
    from draughts import Board
    NAMES = {"international": "standard", "american": "english", "russian": "russian",
             "brazilian": "brazilian", "italian": "italian"}

    def runner(method, variant, depth):
        game = Board(variant=NAMES[variant])._game

        def perft(d):
            moves, _ = game.legal_moves()
            if d <= 1:
                return len(moves) if d == 1 else 1
            n = 0
            for m in moves:
                game.push(m)
                n += perft(d - 1)
                game.pop()
            return n
        return lambda: perft(depth)

else:
    raise SystemExit(f"unknown peer {peer}")

for method, variant, depth in spec["runs"]:
    nodes, best, runs = measure(runner(method, variant, depth), repeat=spec["repeat"],
                                budget=spec["budget"], clock=spec["clock"])
    out["results"].append({"method": method, "variant": variant, "depth": depth,
                           "nodes": nodes, "seconds": best, "runs": runs})
print("PEER-RESULTS " + json.dumps(out))
"""


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --- the peers' environments --------------------------------------------------
def venv_python(peer: str) -> Path:
    d = VENVS / peer
    return d / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def installed_version(python: Path, dist: str):
    r = subprocess.run(
        [str(python), "-I", "-c", f"import importlib.metadata as m; print(m.version({dist!r}))"],
        capture_output=True,
        text=True,
    )
    return r.stdout.strip() if r.returncode == 0 else None


def ensure_peer(peer: str, unpinned: bool = False) -> Path:
    """The peer's own venv under benchmarks/.venv-peers, created and filled on first use."""
    python = venv_python(peer)
    if not python.exists():
        log(f"creating {VENVS.name}/{peer} (python -m venv)")
        subprocess.run([sys.executable, "-m", "venv", str(VENVS / peer)], check=True)
    want = PEERS[peer]
    if unpinned or installed_version(python, peer) != want:
        req = peer if unpinned else f"{peer}=={want}"
        log(f"pip install {req} into {VENVS.name}/{peer}")
        cmd = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", req]
        if unpinned:
            cmd.insert(4, "--upgrade")
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stdout + r.stderr)
            raise SystemExit(f"could not install {req}")
    return python


def run_peer(peer: str, python: Path, runs, repeat: int, budget: float, clock: str) -> dict:
    spec = {"peer": peer, "runs": runs, "repeat": repeat, "budget": budget, "clock": clock}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    # -I: isolated, so neither the working directory nor PYTHONPATH can put this
    # project's `draughts` in front of the peer's.
    r = subprocess.run(
        [str(python), "-I", "-c", MEASURE_SRC + PEER_SRC, json.dumps(spec)],
        capture_output=True,
        text=True,
        cwd=str(VENVS),
        env=env,
    )
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("PEER-RESULTS ")]
    if r.returncode != 0 or not lines:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"measuring {peer} failed")
    return json.loads(lines[-1][len("PEER-RESULTS ") :])


# --- this project ---------------------------------------------------------------
def our_variant(draughts, peer: str, variant: str):
    """Our variant with the peer's rules: py-draughts plays american with optional captures."""
    if peer == "py-draughts" and variant == "american":
        return draughts.variant("american", mandatory_capture=False), "american (captures optional)"
    return draughts.variant(variant), variant


def api_perft(board, depth: int) -> int:
    """Leaf count through our public API, shaped like the peers' loops."""
    moves = list(board.legal_moves)
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    n = 0
    for m in moves:
        board.push(m)
        n += api_perft(board, depth - 1)
        board.pop()
    return n


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def fmt_rate(x):
    return f"{x:,.0f}" if x is not None else "-"


def fmt_ratio(x):
    if x is None:
        return "-"
    return f"{x:,.0f}x" if x >= 10 else f"{x:.2f}x"


def table(headers, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    right = [i for i, h in enumerate(headers) if h in ("depth", "nodes", "ours leaves/s", "peer leaves/s", "ratio")]

    def line(cells):
        return "  ".join(
            str(c).rjust(w) if i in right else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))
        )

    return "\n".join([line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--peers", default=",".join(PEERS), help=f"comma-separated peers to measure (default: {','.join(PEERS)})"
    )
    ap.add_argument(
        "--unpinned", action="store_true", help="install/upgrade to the newest release instead of the pinned versions"
    )
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per figure (best is kept)")
    ap.add_argument(
        "--budget", type=float, default=4.0, help="seconds per figure after which no further run starts (default 4)"
    )
    ap.add_argument(
        "--no-api-loop",
        action="store_true",
        help="skip the like-for-like Python API loop of this project (the slowest part)",
    )
    ap.add_argument("--wall", action="store_true", help="time with the wall clock instead of the process's CPU time")
    ap.add_argument("--json", metavar="PATH", help="also write every figure as JSON")
    args = ap.parse_args(argv)
    clock = "wall" if args.wall else "cpu"

    import importlib.metadata
    import draughts

    ours_version = importlib.metadata.version("draughts-engine")
    if not hasattr(draughts, "variant") or not hasattr(draughts.Board, "perft"):
        raise SystemExit(f"`import draughts` found {draughts.__file__}, not this project's package")

    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    for p in peers:
        if p not in PEERS:
            raise SystemExit(f"unknown peer {p!r} (known: {', '.join(PEERS)})")
    measured = []
    for peer in peers:
        python = ensure_peer(peer, args.unpinned)
        runs = [(m, v, d) for p, m, v, d in PLAN if p == peer]
        log(f"measuring {peer} ({len(runs)} counts)")
        res = run_peer(peer, python, runs, args.repeat, args.budget, clock)
        for r in res["results"]:
            r["peer"] = f"{peer} {res['version']}"
            r["rate"] = r["nodes"] / r["seconds"] if r["seconds"] > 0 else None
            measured.append(r)

    log("measuring draughts-engine (this project)")
    core_cache, api_cache = {}, {}
    for r in measured:
        peer_name = r["peer"].split()[0]
        var, label = our_variant(draughts, peer_name, r["variant"])
        r["our_variant"] = label
        key = (label, r["depth"])
        if key not in core_cache:
            board = draughts.Board(variant=var)
            n, t, runs = measure(
                lambda b=board, d=r["depth"]: b.perft(d), repeat=max(args.repeat, 5), budget=args.budget, clock=clock
            )
            keep = board.perft(r["depth"], duplicates="keep")
            core_cache[key] = (n, keep, t)
        n, keep, t = core_cache[key]
        r["our_nodes"] = n
        r["our_rate"] = n / t if t > 0 else None
        if r["nodes"] == n:
            r["agree"] = "yes"
        elif r["nodes"] == keep:
            r["agree"] = "yes (dup. kept)"
        else:
            r["agree"] = f"NO: ours {n}"
        if not args.no_api_loop and r["method"] != "turbo":
            if key not in api_cache:
                board = draughts.Board(variant=var)
                log(f"  our API loop, {label} depth {r['depth']}")
                an, at, _ = measure(
                    lambda b=board, d=r["depth"]: api_perft(b, d), repeat=args.repeat, budget=args.budget, clock=clock
                )
                api_cache[key] = (an, at)
            an, at = api_cache[key]
            r["our_api_nodes"] = an
            r["our_api_rate"] = an / at if at > 0 else None

    today = datetime.date.today().isoformat()
    print(
        f"draughts-engine {ours_version} against PyPI peers, {today}, {platform.system()} "
        f"{platform.machine()}, {cpu_name()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )
    print()
    print("1. Our core perft (Board.perft) against each peer's fastest leaf count")
    print()
    headers = [
        "peer",
        "peer method",
        "variant",
        "depth",
        "nodes",
        "nodes agree",
        "ours leaves/s",
        "peer leaves/s",
        "ratio",
    ]
    rows = []
    for r in measured:
        ratio = r["our_rate"] / r["rate"] if r["our_rate"] and r["rate"] else None
        r["ratio"] = ratio
        rows.append(
            [
                r["peer"],
                METHODS[r["method"]],
                r["our_variant"],
                r["depth"],
                f"{r['nodes']:,}",
                r["agree"],
                fmt_rate(r["our_rate"]),
                fmt_rate(r["rate"]),
                fmt_ratio(ratio),
            ]
        )
    print(table(headers, rows))

    if not args.no_api_loop:
        print()
        print("2. Like for like: our public API loop (list(board.legal_moves), push, pop) against the peer's loop")
        print()
        headers = [
            "peer",
            "peer method",
            "variant",
            "depth",
            "nodes",
            "nodes agree",
            "ours leaves/s",
            "peer leaves/s",
            "ratio",
        ]
        rows = []
        for r in measured:
            if "our_api_rate" not in r:
                continue
            ratio = r["our_api_rate"] / r["rate"] if r["our_api_rate"] and r["rate"] else None
            r["api_ratio"] = ratio
            agree = "yes" if r["our_api_nodes"] == r["nodes"] else f"NO: ours {r['our_api_nodes']}"
            rows.append(
                [
                    r["peer"],
                    METHODS[r["method"]],
                    r["our_variant"],
                    r["depth"],
                    f"{r['nodes']:,}",
                    agree,
                    fmt_rate(r["our_api_rate"]),
                    fmt_rate(r["rate"]),
                    fmt_ratio(ratio),
                ]
            )
        print(table(headers, rows))
    print()
    print(
        "ratio = our leaves/s / peer leaves/s (above 1: we are faster). Rates use the best "
        "of the timed runs, timed in "
        + ("wall-clock time." if args.wall else "process CPU time (--wall for the wall clock).")
    )
    if any(not r["agree"].startswith("yes") for r in measured):
        print("WARNING: some node counts do not agree (see 'nodes agree').")

    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "date": today,
                    "clock": clock,
                    "ours": ours_version,
                    "machine": platform.machine(),
                    "cpu": cpu_name(),
                    "cpus": os.cpu_count(),
                    "python": platform.python_version(),
                    "results": measured,
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time losses and latency of our engine in real matches through our runner.

Every setting is a self-play match `draughts match` (our engine through the
Hub protocol against itself, the runner's default timemargin of 0, so a move
later than its time loses), read back from its `-jsonout` summary: games,
time losses (per 1,000 games), other faults, and the runner's latency figures
(the runner's time for a move less the engine's own reported time).

    python benchmarks/time_losses.py                          # the three settings of the issue
    python benchmarks/time_losses.py --games 40 --settings st0.05-c2
    python benchmarks/time_losses.py --json losses.json
    python benchmarks/time_losses.py --games 200 --settings st0.2-c2 --busy 1   # beside a busy process

Setting names: `st<S>-c<N>` (S seconds a move), `tc<T>+<I>-c<N>` (a clock),
with `-tt<M>` for M MiB tables; `-o<MS>` sets the engines' move overhead;
`-aff` / `-noaff` play with `-use-affinity` / `-no-affinity` (the
runner's default pins each concurrent game to a processor of its own).
It prints the machine's load average before and after each match: the
figures mean little without it; on a virtual machine also the share of the
processors the hypervisor took (steal), and how often it took 20 ms or more
of one in a tenth of a second, which no program inside can foresee.  Each
time loss is listed with the referee's reason (the move's time, the time it
had, and the engine's own count of it).  On a machine shared with other work,
`--priority N` (Linux, root) gives the match and its engines the scheduling
weight of nice N: each engine runs in a session of its own, and under the
kernel's automatic session groups (`/proc/sys/kernel/sched_autogroup_enabled`)
only a group's own nice value (`/proc/PID/autogroup`) ranks it against other
sessions' work, so the harness sets that of every process of the match.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from typing import Dict, List, Optional

DEFAULT_SETTINGS = ["st0.05-c2", "tc1+0.01-c2", "st0.1-c1-tt256", "st0.1-c2-tt256"]
_SETTING = re.compile(
    r"(?:st(?P<st>[0-9.]+)|tc(?P<tc>[0-9.:/+]+))-c(?P<c>\d+)"
    r"(?:-tt(?P<tt>\d+))?(?:-o(?P<o>\d+))?(?P<aff>-aff|-noaff)?\Z"
)


def match_args(setting: str, games: int, variant: str, maxmoves: int = 0, srand: int = 1) -> List[str]:
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
    return [
        "-variant",
        variant,
        "-engine",
        "name=A",
        *engine,
        "-engine",
        "name=B",
        *engine,
        "-each",
        limit,
        "-games",
        str(games),
        "-repeat",
        "-concurrency",
        m["c"],
        "-srand",
        str(srand),
        *book,
        *({"-aff": ["-use-affinity"], "-noaff": ["-no-affinity"]}.get(m["aff"] or "", [])),
        *(["-maxmoves", str(maxmoves)] if maxmoves else []),
    ]


def _descendants(pid: int) -> List[int]:
    children: Dict[int, List[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def _prioritise(proc: subprocess.Popen, nice: int, done: threading.Event) -> None:
    """Keep setting the autogroup nice of the match and its engines."""
    while not done.wait(0.2):
        for pid in _descendants(proc.pid):
            try:
                with open(f"/proc/{pid}/autogroup", "w") as fh:
                    fh.write(str(nice))
                os.setpriority(os.PRIO_PROCESS, pid, nice)
            except OSError:
                pass


BUSY_LOOP = "while True: pass"


class StealSampler:
    """The hypervisor's share of a virtual machine's processors (the `steal`
    column of /proc/stat, in 10 ms ticks) while a match runs: the total, and
    the 100 ms windows in which it took 20 ms or more of one processor (a
    pause no program inside the machine sees coming or can avoid)."""

    PERIOD = 0.1

    def __init__(self):
        self.steal = 0  # ticks stolen, all processors
        self.total = 0  # ticks of all kinds, all processors
        self.bursts = 0  # windows with >= 2 ticks stolen from one processor
        self.worst = 0  # the most ticks stolen from one processor in one window
        self.burst_times: List[float] = []  # when each such window ended (time.time())
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _read() -> Dict[str, List[int]]:
        out = {}
        try:
            with open("/proc/stat") as fh:
                for line in fh:
                    if line.startswith("cpu") and line[3:4].isdigit():
                        name, *fields = line.split()
                        out[name] = [int(x) for x in fields]
        except OSError:
            pass
        return out

    def _run(self) -> None:
        last = self._read()
        while not self._done.wait(self.PERIOD):
            now = self._read()
            for cpu, fields in now.items():
                before = last.get(cpu)
                if before is None or len(fields) < 8:
                    continue
                stolen = fields[7] - before[7]
                self.steal += stolen
                self.total += sum(fields[:8]) - sum(before[:8])
                self.worst = max(self.worst, stolen)
                if stolen >= 2:
                    self.bursts += 1
                    self.burst_times.append(time.time())
            last = now

    def start(self) -> "StealSampler":
        self._thread.start()
        return self

    def stop(self) -> Dict:
        self._done.set()
        self._thread.join()
        return {
            "steal_percent": 100.0 * self.steal / self.total if self.total else 0.0,
            "steal_bursts_20ms": self.bursts,
            "steal_worst_ms": 10 * self.worst,
        }


def run(
    setting: str,
    games: int,
    variant: str,
    maxmoves: int = 0,
    priority: Optional[int] = None,
    srand: int = 1,
    busy: int = 0,
) -> Dict:
    # `busy` CPU-bound processes beside the match for its whole length (a
    # machine that is not idle), ended with it
    hogs = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP], start_new_session=True) for _ in range(busy)]
    try:
        return _run(setting, games, variant, maxmoves, priority, srand, busy)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def _run(setting: str, games: int, variant: str, maxmoves: int, priority: Optional[int], srand: int, busy: int) -> Dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "match.json")
        argv = [
            sys.executable,
            "-m",
            "draughts",
            "match",
            *match_args(setting, games, variant, maxmoves, srand),
            "-jsonout",
            out,
            "-ratinginterval",
            "0",
            "-progress",
            "off",
        ]
        load0 = os.getloadavg()[0]
        steal = StealSampler().start()
        t0 = time.time()
        proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=priority is not None
        )
        done = threading.Event()
        if priority is not None:
            threading.Thread(target=_prioritise, args=(proc, priority, done), daemon=True).start()
        # a game lost on time ends at once: its `Finished game` line, read as
        # it comes, dates the loss (to the runner's next write)
        lost_at: List[float] = []
        err_lines: List[str] = []
        reader = threading.Thread(target=lambda: err_lines.extend(proc.stderr), daemon=True)
        reader.start()
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Finished game") and "loses on time" in line:
                lost_at.append(time.time())
        proc.wait()
        reader.join()
        stderr = "".join(err_lines)
        done.set()
        stolen = steal.stop()
        # the losses with a steal of 20 ms or more in the tenth of a second
        # before them (or the one after: the window that holds the move)
        near = sum(1 for t_loss in lost_at if any(-0.35 <= b - t_loss <= 0.15 for b in steal.burst_times))
        stolen["losses_near_steal"] = near
        # the share of the run within that reach of a burst: the share of
        # losses that would be "near" one by chance
        covered, end = 0.0, 0.0
        for b in sorted(steal.burst_times):
            lo, hi = max(b - 0.15, end), b + 0.35
            if hi > lo:
                covered += hi - lo
                end = hi
        stolen["near_steal_by_chance"] = covered / max(1e-9, time.time() - t0)
        if proc.returncode != 0:
            raise SystemExit(f"{setting}: the match failed:\n{stderr[-2000:]}")
        with open(out) as fh:
            summary = json.load(fh)
    terms = summary["terminations"]
    played = summary["games_played"]
    losses = terms.get("time forfeit", 0)
    lat = summary.get("latency", {})
    moves = sum(g["plies"] for g in summary["games"])
    return {
        "setting": setting,
        "variant": variant,
        "games": played,
        "time_losses": losses,
        "per_1000": 1000.0 * losses / played if played else 0.0,
        "plies": moves,
        "other_faults": {k: v for k, v in terms.items() if k not in ("normal", "adjudication", "time forfeit")},
        "latency": lat,
        "seconds": time.time() - t0,
        "busy": busy,
        "load_before": load0,
        "load_after": os.getloadavg()[0],
        **stolen,
        # each loss as the referee tells it: the move's time, the time it
        # had, and the engine's own count (the rest was outside the engine)
        "losses": [g["reason"] for g in summary["games"] if g["termination"] == "time forfeit"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per setting (default 200)")
    ap.add_argument("--variant", default="american")
    ap.add_argument("--settings", nargs="+", default=DEFAULT_SETTINGS)
    ap.add_argument("--maxmoves", type=int, default=0, help="adjudicate a draw after this many moves (0: play out)")
    ap.add_argument("--json", help="write every row as JSON here too")
    ap.add_argument("--srand", type=int, default=1, help="seed of the opening order")
    ap.add_argument(
        "--priority", type=int, default=None, help="run the match and its engines at this nice value (Linux, root)"
    )
    ap.add_argument(
        "--busy", type=int, default=0, help="CPU-bound processes (python -c 'while True: pass') beside each match"
    )
    args = ap.parse_args()
    rows = []
    print(
        f"{'setting':<22} {'games':>6} {'lost on time':>13} {'per 1000':>9} "
        f"{'latency p50/p99/max ms':>24} {'load':>10} {'s':>6}  steal % / 20 ms bursts"
    )
    for setting in args.settings:
        r = run(setting, args.games, args.variant, args.maxmoves, args.priority, args.srand, args.busy)
        rows.append(r)
        lat = list(r["latency"].values())
        moves = sum(x["moves"] for x in lat)
        p50 = max((x["median_ms"] for x in lat), default=0.0)
        p99 = max((x["p99_ms"] for x in lat), default=0.0)
        mx = max((x["max_ms"] for x in lat), default=0.0)
        faults = f"  faults {r['other_faults']}" if r["other_faults"] else ""
        print(
            f"{setting:<22} {r['games']:>6} {r['time_losses']:>13} {r['per_1000']:>9.1f} "
            f"{p50:>8.1f}/{p99:.1f}/{mx:.1f} ({moves} moves) "
            f"{r['load_before']:.1f}-{r['load_after']:.1f} {r['seconds']:>6.0f}  "
            f"{r['steal_percent']:.2f} / {r['steal_bursts_20ms']} ({r['losses_near_steal']} losses "
            f"beside one; {100 * r['near_steal_by_chance']:.1f} % of the time is){faults}",
            flush=True,
        )
        for reason in r["losses"]:
            print(f"    {reason}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()

"""`draughts gui` measured: the page's load time, a move's round trip and the
server's memory after 100 games in one session.

    python benchmarks/gui_measure.py [--loads 10] [--moves 40] [--games 100]

Needs the gui-test extra and the system's Chromium (see draughts.gui.testing).
  * load: a fresh browser context opens the page; the time from the start of
    navigation to the board drawn with the server's first state;
  * round trip: a move clicked (human against human, so no engine time) to
    the new state drawn (the page's own measure, `window.draughtsTimes`:
    from sending the move to the animation frame after the state arrived);
  * memory: a `draughts gui` process, one WebSocket session playing
    `--games` games against the engine (level 1) from the start, each for at
    most 40 plies or to its end; the server's resident memory before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from draughts import Board
from draughts.gui import testing as gt


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise RuntimeError("no VmRSS")


def measure_page(loads: int, moves: int) -> dict:
    out = {}
    with gt.live_server() as url, gt.browser() as b:
        times = []
        for _ in range(loads):
            ctx = b.new_context()
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_selector("#board g.piece")
            t = page.evaluate("performance.now()")  # ms since navigation began
            times.append(t)
            ctx.close()
        out["load_ms"] = times
        ctx = b.new_context(viewport={"width": 1200, "height": 860})
        page = ctx.new_page()
        page.goto(url)
        gt.wait_ready(page)
        gt.new_game(page, "international", "both")
        board = Board()
        played = 0
        while played < moves and not board.is_game_over():
            m = list(board.legal_moves)[played % board.legal_moves.count()]
            gt.click_square(page, m.start)
            for sq in m.path[1:]:
                gt.click_square(page, sq)
            board.push(m)
            played += 1
            gt.wait_moves(page, played)
            page.wait_for_function(f"window.draughtsTimes.length >= {played}")
        out["round_trip_ms"] = page.evaluate("window.draughtsTimes")
        ctx.close()
    return out


def measure_memory(games: int) -> dict:
    from websockets.sync.client import connect

    port = gt.free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "draughts", "gui", "--port", str(port)], stdout=subprocess.PIPE, text=True
    )
    try:
        proc.stdout.readline()
        ws = connect(f"ws://127.0.0.1:{port}/ws", max_size=None, legacy=True)

        def state():
            while True:
                m = json.loads(ws.recv(timeout=60))
                if m["type"] == "state" and not m["thinking"]:
                    return m
                if m["type"] == "error":
                    raise RuntimeError(m["message"])

        state()  # the page's first state
        ws.send(json.dumps({"type": "settings", "level": 1, "movetime": 0.05}))
        state()
        before = None
        marks = []
        plies = 0
        t0 = time.time()
        for g in range(games):
            ws.send(json.dumps({"type": "new", "variant": "international", "side": "white"}))
            s = state()
            if before is None:
                before = rss_mib(proc.pid)
            while s["result"] == "*" and len(s["moves"]) < 40:
                m = s["legal"][len(s["moves"]) % len(s["legal"])]
                ws.send(json.dumps({"type": "move", "start": m["start"], "end": m["end"], "captured": m["captured"]}))
                s = state()  # after the engine's reply (or the game's end)
            plies += len(s["moves"])
            if (g + 1) % 25 == 0:
                marks.append((g + 1, rss_mib(proc.pid)))
        after = rss_mib(proc.pid)
        ws.close()
        return {
            "games": games,
            "plies": plies,
            "seconds": time.time() - t0,
            "rss_before_mib": before,
            "rss_after_mib": after,
            "rss_marks": marks,
        }
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--loads", type=int, default=10)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--games", type=int, default=100)
    args = ap.parse_args()
    page = measure_page(args.loads, args.moves)
    loads, trips = page["load_ms"], page["round_trip_ms"]
    print(f"page load: median {statistics.median(loads):.0f} ms, max {max(loads):.0f} ms ({len(loads)} loads)")
    print(f"move round trip: median {statistics.median(trips):.1f} ms, max {max(trips):.1f} ms ({len(trips)} moves)")
    mem = measure_memory(args.games)
    print(
        f"server memory: {mem['rss_before_mib']:.1f} MiB after the first game's start, "
        f"{mem['rss_after_mib']:.1f} MiB after {mem['games']} games ({mem['plies']} plies, "
        f"{mem['seconds']:.0f} s); by games: " + ", ".join(f"{g}: {m:.1f}" for g, m in mem["rss_marks"])
    )
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()

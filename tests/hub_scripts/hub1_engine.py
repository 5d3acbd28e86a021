"""A scripted Hub version 1 engine (the dialect of Scan 2.0's `scan hub`) for
the tests: `python hub1_engine.py MODE [AFTER [LOG]]`.

It plays the first legal move (squares in order) of the position `pos` and
the `move` lines after it give, and writes every line it reads to LOG (one
`SECONDS LINE` a line, SECONDS from a monotonic clock) when LOG is given.
As Scan does, `pos` clears the limits (`time`, `level`, `depth`); a `go`
with no time limit searches until `stop` (a `depth` alone answers at once);
a search answers `ping` with `pong`, and any other command ends it (echoed
as `input "..."`) and is then carried out.  A search with a `time` thinks
until `stop` or four times that time (Scan overruns short times: the client
must stop it); with a `level`, the clock (time and increment) over the moves
to go (30 when 0).

MODE says how it misbehaves on its AFTER-th move of every game (default 3):
`ok` never; `illegal` answers a move that is not legal; `nonsense` answers
`move banana`; `nomove` answers `move` alone; `crash` exits with code 3;
`stall` stops answering; `late` ignores `stop` and answers 0.6 s after its
time, with info lines meanwhile.
"""

import os
import queue
import sys
import threading
import time

from draughts.board import Board
from draughts.hub.protocol import board_from_position, match_move

MODES = ("ok", "illegal", "nonsense", "nomove", "crash", "stall", "late")

mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
after = int(sys.argv[2]) if len(sys.argv) > 2 else 3
log_path = sys.argv[3] if len(sys.argv) > 3 else None
if mode not in MODES:
    sys.exit(f"unknown mode {mode!r}")

lines: "queue.Queue" = queue.Queue()
pending = []  # a command that ended a search, carried out next


def reader():
    for raw in sys.stdin:
        if log_path:
            with open(log_path, "a", encoding="utf-8") as f:
                f.write(f"{time.monotonic():.6f} {raw.strip()}\n")
        lines.put(raw.strip())
    lines.put(None)


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def next_line():
    return pending.pop(0) if pending else lines.get()


def think(seconds, info, ignore_stop=False):
    """Emit info lines until a command other than ping comes (unless
    `ignore_stop`) or `seconds` pass (None: no end)."""
    t0 = time.monotonic()
    depth = 0
    while seconds is None or time.monotonic() - t0 < seconds:
        try:
            line = lines.get(timeout=0.02)
        except queue.Empty:
            depth += 1
            out(f"info {depth} {depth + 0.5} 12 {1000 * depth} {time.monotonic() - t0:.2f} 1.0 {info}")
            continue
        if line is None:
            sys.exit(0)
        if line == "ping":
            out("pong")
            continue
        out(f'input "{line}"')
        if not ignore_stop:
            pending.append(line)
            return
        if line != "stop":
            pending.append(line)


threading.Thread(target=reader, daemon=True).start()
out("scripted hub1 engine")  # a banner, as Scan writes one
board = Board()
limit = {}
moves_this_game = 0
while True:
    line = next_line()
    if line is None:
        break
    words = line.split()
    command, args = (words[0], words[1:]) if words else ("", [])
    if command == "hub":
        out(f"name scripted {mode}")
        out("author the tests")
        out("wait")
    elif command == "init":
        out("ready")
    elif command == "ping":
        out("pong")
    elif command == "new":
        moves_this_game = 0
    elif command == "pos":
        text = args[0] if args else ""
        try:
            if text[:1] not in ("w", "b"):  # Scan's side letters are lower-case
                raise ValueError(text)
            board = board_from_position(text[:1].upper() + text[1:], "international")
        except Exception:
            out("error bad position")
        limit = {}
    elif command == "move":
        try:
            board.push(match_move(board, args[0]))
        except Exception:
            out("error illegal move")
    elif command in ("time", "depth"):
        limit[command] = int(args[0])
    elif command == "level":
        limit["level"] = [int(a) for a in args]
    elif command == "go":
        moves_this_game += 1
        legal = sorted(board.legal_moves, key=lambda m: (m.start, m.end, sorted(m.captured)))
        move = legal[0]
        seconds = None
        if "time" in limit:
            seconds = limit["time"] / 1000.0
        elif "level" in limit:
            mtg, clock, inc = limit["level"]
            seconds = (clock + inc) / 1000.0 / (mtg or 30)
        fault = mode if moves_this_game == after else "ok"
        if fault == "crash":
            sys.stderr.write("scripted hub1 engine: crashing on purpose\n")
            sys.stderr.flush()
            os._exit(3)
        if fault == "stall":
            while lines.get() is not None:
                pass
            break
        if fault == "late":
            think((seconds or 0.0) + 0.6, move.hub(), ignore_stop=True)
        elif "time" in limit:
            think(4 * seconds, move.hub())
        elif seconds is not None:
            think(seconds, move.hub())
        elif "depth" not in limit:
            think(None, move.hub())  # no limit: until stop
        if fault == "illegal":
            starts = {m.start for m in legal}
            bad = next(s for s in range(1, 51) if s not in starts)
            out(f"move {bad}-{bad + 1}")
        elif fault == "nonsense":
            out("move banana")
        elif fault == "nomove":
            out("move")
        else:
            out(f"move {move.hub()}")
    elif command == "quit":
        break

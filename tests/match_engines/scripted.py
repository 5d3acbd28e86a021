"""A scripted Hub engine for the match runner's tests: it plays the first
legal move (squares in order) and misbehaves on its `after`-th move of every
game, as told by its first argument:

    ok        never misbehaves
    illegal   answers a move that is not legal
    garbage   writes unreadable lines, then a legal move, every move (harmless)
    nonsense  answers `done move=banana` (not a move at all)
    crash     exits with code 3 in the middle of the game
    stall     stops answering (but exits when its input closes)
    late      answers 0.6 s after the time it was given
    slowclear takes 0.5 s over every new-game (as a large table clear does)
    flood     writes info lines without end instead of a move (until stop)
    emptydone answers `done` without a move

    python scripted.py MODE [AFTER]
"""

import os
import sys
import threading
import time

from draughts.board import Board
from draughts.hub.protocol import board_from_position, format_line, match_move, parse_line
from draughts.variants import VARIANTS, variant as get_variant

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
AFTER = int(sys.argv[2]) if len(sys.argv) > 2 else 3


_OUT = threading.Lock()


def say(line):
    with _OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def flood(stopped):
    """Info lines without end, until `stopped` is set (then the move)."""
    n = 0
    while not stopped.is_set():
        n += 1
        say(format_line("info", [("depth", n % 50 + 1), ("score", "0.00"), ("nodes", n)]))


def main():
    variant = get_variant("international")
    flooding = None
    board = None
    level = {}
    moves_this_game = 0
    for raw in sys.stdin:
        command, args = parse_line(raw)
        if command == "hub":
            say(format_line("id", [("name", f"scripted-{MODE}"), ("version", "1"), ("author", "tests")]))
            say(format_line("param", [("name", "variant"), ("value", "international"), ("type", "enum"),
                                      ("values", " ".join(VARIANTS))]))
            say("wait")
        elif command == "set-param":
            if args.get("name") == "variant":
                variant = get_variant(args["value"])
        elif command == "init":
            say("ready")
        elif command == "ping":
            say("pong")
        elif command == "stop":
            if flooding is not None:
                flooding[0].set()
                flooding[1].join()
                say(format_line("done", [("move", flooding[2])]))
                flooding = None
        elif command == "new-game":
            moves_this_game = 0
            if MODE == "slowclear":
                time.sleep(0.5)
        elif command == "pos":
            board = board_from_position(args["pos"], variant) if "pos" in args else Board(variant=variant)
            for text in args.get("moves", "").split():
                board.push(match_move(board, text))
        elif command == "level":
            level = args
        elif command == "go":
            moves_this_game += 1
            legal = sorted(board.legal_moves, key=lambda m: (m.start, m.end, sorted(m.captured)))
            move = legal[0]
            if moves_this_game == AFTER or MODE == "garbage":
                if MODE == "illegal":
                    squares = {m.start for m in legal}
                    bad = next(s for s in range(1, variant.squares + 1) if s not in squares)
                    say(f"done move={bad}-{bad + 1}")
                    continue
                if MODE == "nonsense":
                    say("done move=banana")
                    continue
                if MODE == "emptydone":
                    say("done")
                    continue
                if MODE == "flood":
                    stopped = threading.Event()
                    worker = threading.Thread(target=flood, args=(stopped,), daemon=True)
                    worker.start()
                    flooding = (stopped, worker, move.hub())
                    continue
                if MODE == "crash":
                    sys.stderr.write("scripted engine: crashing on purpose\n")
                    sys.stderr.flush()
                    os._exit(3)
                if MODE == "stall":
                    continue                       # never answers this search
                if MODE == "late":
                    given = float(level.get("move-time", level.get("time", "0")))
                    time.sleep(given + 0.6)
                if MODE == "garbage":
                    say("%%% this is not a protocol line")
                    say('info depth=x score="unterminated')
                    say("\x01\x02 binary junk \x7f")
                    say("info depth=1 score=0.00 pv=\"99-98 nonsense\"")
            say(format_line("info", [("depth", 1), ("score", "0.00")]))
            say(format_line("done", [("move", move.hub())]))
        elif command == "quit":
            break


if __name__ == "__main__":
    main()

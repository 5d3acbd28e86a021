"""Run by the interoperability test in a separate virtual environment with the
third-party `pydraughts` package (whose import name `draughts` clashes with
ours): pydraughts' Hub client drives an engine through an international game.

    python pydraughts_game.py ENGINE_PROGRAM MAX_PLIES

Prints one JSON object: what the engine declared and the moves played.
"""

import json
import sys

from draughts import Board                      # pydraughts, not this project
from draughts.engine import HubEngine, Limit

program, max_plies = sys.argv[1], int(sys.argv[2])
engine = HubEngine([program])
engine.setoption("variant", "normal")           # Scan's name of international
engine.setoption("ponder", False)
engine.init()
engine.ping()

board = Board("standard")
moves, infos, ponders = [], [], []
while not board.is_over() and len(moves) < max_plies:
    if len(moves) < 2:
        limit = Limit(movetime=0.05)
    elif len(moves) < 4:
        limit = Limit(time=2, inc=0.5)          # pydraughts sends time=1.5 inc=0.5
    else:
        limit = Limit(depth=2)
    result = engine.play(board, limit, ponder=False)
    board.push(result.move)
    moves.append(result.move.hub_move)
    ponders.append(result.ponder.hub_move if result.ponder else None)
    infos.append(result.info)
engine.ping()
engine.quit()
code = engine.p.wait(10)

print(json.dumps({
    "id": engine.id, "options": sorted(engine.options), "variants": sorted(engine.variants),
    "moves": moves, "ponders": ponders, "infos": infos, "over": board.is_over(),
    "winner": board.winner(), "exit": code,
}))

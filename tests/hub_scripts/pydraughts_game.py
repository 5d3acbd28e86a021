"""Run by the interoperability tests in a separate virtual environment with the
third-party `pydraughts` package (whose import name `draughts` clashes with
ours): pydraughts' Hub client drives an engine through one game.

    python pydraughts_game.py ENGINE_PROGRAM VARIANT MAX_PLIES [NAME=VALUE ...]

VARIANT is pydraughts' name (`standard`, `english`, `russian`, `brazilian`,
`italian`); the variant is set the way pydraughts' users set it,
`engine.configure({"variant": VARIANT, NAME: VALUE, ...})`, with `normal`
standing for Scan's name of `standard`.  Every engine move goes through
pydraughts' own Board (`Move(board, hub_move=...)` fails on a move it does not
find legal).  Prints one JSON object: what the engine declared, the moves, and
pydraughts' FEN (in the variant's own notation) before and after every move.
"""

import json
import sys

from draughts import Board  # pydraughts, not this project
from draughts.engine import HubEngine, Limit

program, variant, max_plies = sys.argv[1], sys.argv[2], int(sys.argv[3])
options = dict(arg.split("=", 1) for arg in sys.argv[4:])
engine = HubEngine([program])
engine.configure({"variant": variant, **{k: v == "true" if v in ("true", "false") else v for k, v in options.items()}})
engine.setoption("ponder", False)
engine.init()
engine.ping()

board = Board("standard" if variant == "normal" else variant)
moves, infos, ponders, fens = [], [], [], [board.fen]
while not board.is_over() and len(moves) < max_plies:
    if len(moves) < 2:
        limit = Limit(movetime=0.05)
    elif len(moves) < 4:
        limit = Limit(time=2, inc=0.5)  # pydraughts sends time=1.5 inc=0.5
    else:
        limit = Limit(depth=2 + len(moves) % 3)
    result = engine.play(board, limit, ponder=False)
    if result.ponder is not None:  # pydraughts read it on the board after the move
        ponders.append(result.ponder.hub_move)
    else:
        ponders.append(None)
    board.push(result.move)
    moves.append(result.move.hub_move)
    infos.append(result.info)
    fens.append(board.fen)
engine.ping()
engine.quit()
code = engine.p.wait(10)

print(
    json.dumps(
        {
            "id": engine.id,
            "options": sorted(engine.options),
            "variants": sorted(engine.variants),
            "moves": moves,
            "ponders": ponders,
            "infos": infos,
            "fens": fens,
            "over": board.is_over(),
            "winner": board.winner(),
            "exit": code,
        }
    )
)

"""Small turkish endings solved by retrograde analysis, and how the engine
plays the won ones.

    python benchmarks/turkish_endings.py K m KK m Km m KK K Km K K mm
    python benchmarks/turkish_endings.py --play 8 --depth 3 KK m Km K

Each pair of arguments is a material class, White's pieces then Black's (K a
king, m a man).  Every placement (no man on its crowning row), either side to
move, and every position reachable from them are generated with the core's
move generator; a position whose side to move has no move is lost, and wins
and losses are propagated back ply by ply.  What is never decided is a draw
(turkish draws only by repetition).  Printed per class: won, lost and drawn
positions by the side to move, over all positions and over the quiet ones
(no capture pending), and the longest win.  With --play N, N won quiet
positions (White to move, at least 9 plies from the win) are played out with
each evaluation at --depth for both sides, as tests/test_learned_turkish.py
does, and the plies each took are printed.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import random
from typing import Dict, List, Optional, Tuple

import draughts
from draughts.engine import Engine
from draughts_core.position import Position

RULES = draughts.variant("turkish").core_rules


def placements(white: str, black: str) -> List[Position]:
    """Every position of the class, either side to move."""
    spec = [(0, c == "K") for c in white] + [(1, c == "K") for c in black]
    out = []
    for squares in itertools.permutations(range(64), len(spec)):
        if any(not king and s // 8 == (0 if col == 0 else 7) for s, (col, king) in zip(squares, spec)):
            continue
        w = [s for s, (col, _) in zip(squares, spec) if col == 0]
        b = [s for s, (col, _) in zip(squares, spec) if col == 1]
        k = [s for s, (_, king) in zip(squares, spec) if king]
        out.extend(Position(RULES, w, b, k, turn) for turn in (0, 1))
    return out


def solve(start: List[Position]) -> Dict[tuple, int]:
    """Plies to the end with best play by position key: n > 0 the side to move
    wins in n, n <= 0 it loses in -n; drawn positions are missing."""
    succ: Dict[tuple, List[tuple]] = {}
    todo = list(start)
    while todo:
        p = todo.pop()
        if p.key() in succ:
            continue
        kids = []
        for move in p.moves():
            child = p.play_code(move[5])
            kids.append(child.key())
            if child.key() not in succ:
                todo.append(child)
        succ[p.key()] = kids
    parents = collections.defaultdict(list)
    for key, kids in succ.items():
        for child in kids:
            parents[child].append(key)
    left = {key: len(kids) for key, kids in succ.items()}
    value = {key: 0 for key, kids in succ.items() if not kids}
    frontier = list(value)
    while frontier:
        nxt = []
        for key in frontier:
            v = value[key]
            for parent in parents[key]:
                if parent in value:
                    continue
                if v <= 0:  # a move to a lost position wins
                    value[parent] = 1 - v
                    nxt.append(parent)
                else:
                    left[parent] -= 1
                    if left[parent] == 0:  # every move goes to a won position
                        value[parent] = -(v + 1)
                        nxt.append(parent)
        frontier = nxt
    return value


def fen_of(p: Position) -> str:
    w, b, k = p.pieces()

    def name(s: int) -> str:
        return ("K" if s in k else "") + "abcdefgh"[s % 8] + str(8 - s // 8)

    return ("W" if p.turn == 0 else "B") + ":W" + ",".join(map(name, w)) + ":B" + ",".join(map(name, b))


def play_out(fen: str, eval_name: str, depth: int, max_plies: int = 300) -> Optional[int]:
    """Plies until White wins, both sides searching to `depth`; None: no win."""
    board = draughts.Board(fen, variant="turkish")
    engine = Engine("turkish", eval=eval_name, tt_mb=8)
    while board.outcome() is None and board.ply < max_plies:
        board.push(engine.play(board, draughts.Limit(depth=depth)).move)
    outcome = board.outcome()
    return board.ply if outcome is not None and outcome.winner == draughts.WHITE else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("classes", nargs="+", help="pairs: White's pieces, Black's (K king, m man)")
    ap.add_argument("--play", type=int, default=0, help="won positions to play out per class")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    if len(args.classes) % 2:
        ap.error("classes come in pairs")
    for white, black in zip(args.classes[::2], args.classes[1::2]):
        start = placements(white, black)
        value = solve(start)
        counts: Dict[Tuple[str, str, str], int] = collections.Counter()
        for p in start:
            v = value.get(p.key())
            tag = "draw" if v is None else "win" if v > 0 else "loss"
            side = "white" if p.turn == 0 else "black"
            counts[("all", side, tag)] += 1
            if not p.has_capture():
                counts[("quiet", side, tag)] += 1
        print(f"{white} against {black}: longest win {max(value.values())} plies")
        for scope in ("all", "quiet"):
            for side in ("white", "black"):
                row = ", ".join(f"{tag} {counts[(scope, side, tag)]}" for tag in ("win", "loss", "draw"))
                print(f"  {scope:5} {side} to move: {row}")
        if args.play:
            won = [p for p in start if p.turn == 0 and not p.has_capture() and value.get(p.key(), 0) >= 9]
            for p in random.Random(args.seed).sample(won, args.play):
                plies = {e: play_out(fen_of(p), e, args.depth) for e in ("classic", "learned")}
                print(
                    f"  {fen_of(p)}: best {value[p.key()]} plies; depth {args.depth}: "
                    + ", ".join(f"{e} {n if n is not None else 'no win'}" for e, n in plies.items())
                )


if __name__ == "__main__":
    main()

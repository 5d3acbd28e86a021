"""Opening books for matches: reading PDN and FEN files, the shipped decks,
the order openings are drawn in, and a generator of balanced openings.

An opening is a start position (a FEN, or the variant's start) and moves
played from it.  `Book.get(slot)` is the opening of schedule slot `slot`;
the match gives both games of a pair and every pairing of a round the same
slot, so they share the opening.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from draughts import pdn
from draughts.board import Board, Move
from draughts.engine import Engine
from draughts.errors import InvalidInputError, PdnError
from draughts.limits import Limit
from draughts.variants import Variant, variant as get_variant

#: decks shipped in draughts/data, by name: (file, variant)
DECKS: Dict[str, Tuple[str, str]] = {
    "acf-3move": ("acf_3move.pdn", "american"),
}
DECK_ALIASES = {
    "acf": "acf-3move",
    "3move": "acf-3move",
    "3-move": "acf-3move",
    "ballots": "acf-3move",
    "acf-3-move": "acf-3move",
}

MoveTuple = Tuple[int, int, Tuple[int, ...], Tuple[int, ...], bool]  # start, end, path, captured, promotion


def move_tuple(m: Move) -> MoveTuple:
    return (m.start, m.end, tuple(m.path), tuple(m.captured), bool(m.promotion))


def move_from_tuple(t: Sequence) -> Move:
    start, end, path, captured, promotion = t
    return Move(start, end, tuple(path), tuple(captured), bool(promotion))


@dataclass(frozen=True)
class Opening:
    """A start position (None: the variant's own) and the moves played from it."""

    fen: Optional[str] = None
    moves: Tuple[MoveTuple, ...] = ()
    name: str = ""

    def board(self, variant: Variant) -> Board:
        """A board at the opening's end, the opening moves on its move stack."""
        b = Board(variant=variant) if self.fen is None else Board(self.fen, variant=variant)
        for t in self.moves:
            b.push(move_from_tuple(t))
        return b

    def to_json(self) -> Dict:
        return {
            "fen": self.fen,
            "moves": [[s, e, list(p), list(c), pr] for s, e, p, c, pr in self.moves],
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: Dict) -> "Opening":
        moves = tuple((s, e, tuple(p), tuple(c), bool(pr)) for s, e, p, c, pr in data.get("moves", ()))
        return cls(data.get("fen"), moves, data.get("name", ""))


START = Opening()


def data_path(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", name)


def deck_file(name: str) -> Optional[Tuple[str, str]]:
    """(path, variant name) of a shipped deck called `name`, or None."""
    key = name.strip().lower()
    key = DECK_ALIASES.get(key, key)
    if key.endswith(".pdn"):
        key = key[:-4].replace("_", "-")
    if key not in DECKS:
        return None
    file, variant_name = DECKS[key]
    return data_path(file), variant_name


def _games_openings(text: str, variant: Variant, plies: Optional[int], source: str) -> List[Opening]:
    out = []
    reader = pdn.read_games(text, variant=variant)
    number = 0
    while True:
        try:
            game = reader.read()
        except PdnError as e:
            raise InvalidInputError(f"openings file {source}: {e}") from None
        if game is None:
            break
        number += 1
        if game.variant.name != variant.name:
            raise InvalidInputError(
                f"openings file {source}: game {number} is {game.variant.name}, the match plays {variant.name}"
            )
        moves = game.moves if plies is None else game.moves[:plies]
        name = game.headers.get("Opening") or game.headers.get("Event") or f"{os.path.basename(source)} #{number}"
        if name == "?":
            name = f"{os.path.basename(source)} #{number}"
        fen = game.setup_fen
        # the moves must still be legal on the match's variant (house rules included)
        board = Board(variant=variant) if fen is None else Board(fen, variant=variant)
        for m in moves:
            if m not in board.legal_moves:
                raise InvalidInputError(
                    f"openings file {source}: game {number}: {m} is not legal in {board.fen()} under the match's rules"
                )
            board.push(m)
        if board.outcome() is not None:
            raise InvalidInputError(f"openings file {source}: game {number} ends the game")
        out.append(Opening(fen, tuple(move_tuple(m) for m in moves), name))
    return out


def _fen_openings(text: str, variant: Variant, source: str) -> List[Opening]:
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        t = line.strip()
        if not t or t.startswith("#") or t.startswith(";"):
            continue
        try:
            board = Board(t, variant=variant)
        except InvalidInputError as e:
            raise InvalidInputError(f"openings file {source}, line {number}: {e}") from None
        if board.outcome() is not None:
            raise InvalidInputError(f"openings file {source}, line {number}: the game is already over")
        out.append(Opening(board.fen(), (), f"{os.path.basename(source)}:{number}"))
    return out


def load(path: str, variant, fmt: Optional[str] = None, plies: Optional[int] = None) -> List[Opening]:
    """The openings of a PDN or FEN file (or a shipped deck's name, e.g. `acf-3move`)."""
    v = get_variant(variant)
    source = path
    deck = None if os.path.exists(path) else deck_file(path)
    if deck is not None:
        path, deck_variant = deck
        if get_variant(deck_variant).name != v.name:
            raise InvalidInputError(f"the {source} deck is for {deck_variant}, the match plays {v.name}")
        fmt = fmt or "pdn"
    if fmt is None:
        fmt = "fen" if path.lower().endswith((".fen", ".epd", ".txt")) else "pdn"
    if fmt not in ("pdn", "fen"):
        raise InvalidInputError(f"openings format must be pdn or fen, not {fmt!r}")
    try:
        with open(path, encoding="utf-8-sig") as fh:
            text = fh.read()
    except OSError as e:
        raise InvalidInputError(f"cannot read openings file {source!r}: {e.strerror or e}") from None
    openings = _games_openings(text, v, plies, source) if fmt == "pdn" else _fen_openings(text, v, source)
    if not openings:
        raise InvalidInputError(f"openings file {source!r} holds no opening")
    return openings


class Book:
    """Openings drawn in order (`sequential`, from `start`, 1-based) or in a
    seeded random order (each opening once per pass through the book)."""

    def __init__(self, openings: Sequence[Opening], order: str = "sequential", start: int = 1, seed: int = 0):
        if order not in ("sequential", "random"):
            raise InvalidInputError(f"openings order must be sequential or random, not {order!r}")
        if not openings:
            raise InvalidInputError("an opening book needs at least one opening")
        if start < 1:
            raise InvalidInputError(f"openings start= counts from 1, not {start}")
        self.openings = list(openings)
        self.order = order
        self.start = start
        self.seed = seed
        self._passes: Dict[int, List[int]] = {}

    def __len__(self):
        return len(self.openings)

    def index(self, slot: int) -> int:
        """The book index (0-based) of schedule slot `slot`."""
        n = len(self.openings)
        k = slot + self.start - 1
        if self.order == "sequential":
            return k % n
        cycle, pos = divmod(k, n)
        perm = self._passes.get(cycle)
        if perm is None:
            perm = list(range(n))
            random.Random(f"{self.seed}:{cycle}").shuffle(perm)
            self._passes[cycle] = perm
        return perm[pos]

    def get(self, slot: int) -> Opening:
        return self.openings[self.index(slot)]


# --- balanced openings -----------------------------------------------------------


@dataclass
class Generated:
    opening: Opening
    score: float  # men, from the side to move after the opening
    depth: int


def generate(
    variant,
    plies: int,
    count: int,
    *,
    depth: int = 6,
    max_score: float = 0.3,
    seed: Optional[int] = None,
    max_tries: Optional[int] = None,
    progress: Optional[Callable[[int, int], None]] = None,
) -> List[Generated]:
    """`count` distinct openings of `plies` random legal moves from the start
    position, each kept only when a `depth`-ply search scores it within
    `max_score` men of equality.  Deterministic for a given seed."""

    v = get_variant(variant)
    if plies < 1:
        raise InvalidInputError(f"plies must be at least 1, not {plies}")
    if count < 1:
        raise InvalidInputError(f"count must be at least 1, not {count}")
    if depth < 1:
        raise InvalidInputError(f"depth must be at least 1, not {depth}")
    rng = random.Random(seed)
    engine = Engine(v, tt_mb=16)
    seen = set()
    out: List[Generated] = []
    tries = 0
    limit = max_tries if max_tries is not None else max(1000, 200 * count)
    while len(out) < count:
        tries += 1
        if tries > limit:
            raise InvalidInputError(
                f"found only {len(out)} of {count} balanced openings in {limit} tries "
                f"(try a larger --max-score, fewer plies or a smaller count)"
            )
        board = Board(variant=v)
        ok = True
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                ok = False
                break
            board.push(moves[rng.randrange(len(moves))])
        if not ok or board.outcome() is not None:
            continue
        key = board.fen()
        if key in seen:
            continue
        seen.add(key)
        engine.new_game()
        result = engine.play(board.copy(), Limit(depth=depth)).info
        if result.score is None or result.win_in is not None or abs(result.score) > max_score:
            continue
        name = f"random {plies} plies #{len(out) + 1}"
        out.append(Generated(Opening(None, tuple(move_tuple(m) for m in board.move_stack), name), result.score, depth))
        if progress:
            progress(len(out), tries)
    return out


def write_openings(items: Iterable[Generated], variant, fmt: str = "pdn") -> str:
    """Openings as PDN games (the moves, the search score as a comment) or as
    one FEN a line."""

    v = get_variant(variant)
    chunks = []
    for i, g in enumerate(items, start=1):
        board = g.opening.board(v)
        if fmt == "fen":
            chunks.append(board.fen() + "\n")
            continue
        game = pdn.Game.from_board(board, {"Event": g.opening.name or f"opening {i}", "Round": str(i)}, result="*")
        if game.moves:
            game.comments[len(game.moves) - 1] = f"{g.score:+.2f}/{g.depth}"
        chunks.append(pdn.write_game(game))
    if fmt == "fen":
        return "".join(chunks)
    return "\n".join(chunks)

"""Opening books: positions with their moves, scored by our own search.

A book file (format 1, one variant) is

    MAGIC (8 bytes) | header length (uint32, little-endian) | header (JSON, UTF-8)
    | padding to a multiple of 64 | positions (POSITION records) | moves (MOVE records)

The header names the format, the variant, the rule set's fingerprint (the
move rules by name, `CoreRules.move_rules()`; a book is refused by an engine
of other rules; the core's former names of some rules, which books written
before each rule had one name record, are read as today's, and a rule a
book does not name is read as off), the
counts and offsets of the two arrays, the start positions the book grows
from (FENs), and how it was built.  The positions are sorted by `key`, so a
probe is a binary search in the memory-mapped file; `check`, a second hash
of the same position, tells a collision of keys from a hit.  A position's
moves are `count` consecutive MOVE records from `first`, best first.  A move
is its start and end squares and the set of squares it captures (a bit per
square, square n as bit n - 1), which names one legal move; its `score` is
the minimax of the book's tree below it in centi-men for the side to move
(a leaf: a search at the book's depth), `depth` the search depth that scored
the leaf beneath it, and `games` the times it was played in the game files
added with `draughts book add`.

`Book.probe(board)` gives the moves of a position (none when it is not in
the book), `Book.choose(board, margin, rng)` one of those within `margin`
centi-men of the best.  `build` grows a book by drop-out expansion, `add_games`
learns from PDN files; both write the file anew (atomically), so a stopped
build resumes from the file.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from draughts.board import Board, Move
from draughts.errors import InvalidInputError
from draughts.variants import Variant, variant as get_variant
from draughts_core.rule_fields import current_names, differing_rules

FORMAT = 1
MAGIC = b"DRBOOK\r\n"
ALIGN = 64

POSITION = np.dtype(
    [("key", "<u8"), ("check", "<u4"), ("first", "<u4"), ("count", "<u2"), ("score", "<i2")]
)  # 20 bytes
MOVE = np.dtype(
    [
        ("captured", "<u8"),
        ("games", "<u4"),
        ("score", "<i2"),
        ("start", "u1"),
        ("end", "u1"),
        ("depth", "u1"),
        ("flags", "u1"),
    ]
)  # 18 bytes

MASK64 = (1 << 64) - 1
#: a won or lost line's score in centi-men (a search's win score is capped here)
SCORE_CAP = 3000


def _mix(x: int, m: int) -> int:
    x = (x * m) & MASK64
    return x ^ (x >> 31)


def position_hash(board: Board) -> Tuple[int, int]:
    """(key, check): two independent hashes of the board's position (its
    pieces and the side to move)."""
    w, b, k, turn = board.position.key()[:4]
    key = _mix(
        _mix(_mix(w ^ 0x243F6A8885A308D3, 0x9E3779B97F4A7C15) ^ b, 0xC2B2AE3D27D4EB4F) ^ k, 0x165667B19E3779F9
    ) ^ (turn * 0x27D4EB2F165667C5)
    check = _mix(
        _mix(_mix(w ^ 0x13198A2E03707344, 0xD6E8FEB86659FD93) ^ b, 0xA0761D6478BD642F) ^ k, 0xE7037ED1A0B428DB
    ) ^ (turn * 0x8EBC6AF09C88C6E3)
    return _mix(key, 0x94D049BB133111EB), (check >> 32) & 0xFFFFFFFF


def shipped_path(v: Variant) -> str:
    """The book shipped in the package for the variant (there or not)."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", f"book-{v.name}.bin")


def rules_fingerprint(v: Variant) -> Dict[str, int]:
    """The rules that make the moves, by name, as a book records them."""
    return v.core_rules.move_rules()


def captured_mask(move: Move) -> int:
    mask = 0
    for sq in move.captured:
        mask |= 1 << (sq - 1)
    return mask


@dataclass
class BookMove:
    move: Move
    score: int  # centi-men, for the side to move
    depth: int
    games: int


class Book:
    """A book file, memory-mapped."""

    def __init__(self, path: str):
        self.path = os.fspath(path)
        try:
            with open(self.path, "rb") as f:
                magic = f.read(len(MAGIC))
                if magic != MAGIC:
                    raise InvalidInputError(f"{self.path} is not an opening book (no {MAGIC!r} at its start)")
                (length,) = np.frombuffer(f.read(4), "<u4")
                header = json.loads(f.read(int(length)).decode("utf-8"))
        except OSError as e:
            raise InvalidInputError(f"cannot read opening book {self.path!r}: {e}") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise InvalidInputError(f"{self.path} is not an opening book: its header is broken ({e})") from None
        if header.get("format") != FORMAT:
            raise InvalidInputError(
                f"{self.path} is a book of format {header.get('format')}; this version reads format {FORMAT}"
            )
        self.header: Dict[str, Any] = header
        #: the move rules the book was built for, by today's names (a book
        #: records the names of its time; one made before a rule existed
        #: reads as having that rule off)
        self.rules: Dict[str, int] = current_names(header.get("rules", {}))
        self.variant = get_variant(header["variant"])
        n, m = header["positions"], header["moves"]
        size = os.path.getsize(self.path)
        if header["moves_offset"] + m * MOVE.itemsize > size:
            raise InvalidInputError(
                f"{self.path} is cut short: {size} bytes of {header['moves_offset'] + m * MOVE.itemsize}"
            )
        self.positions = (
            np.memmap(self.path, POSITION, "r", header["positions_offset"], (n,)) if n else np.zeros(0, POSITION)
        )
        self.moves = np.memmap(self.path, MOVE, "r", header["moves_offset"], (m,)) if m else np.zeros(0, MOVE)

    def __len__(self) -> int:
        return len(self.positions)

    def rules_differ(self, v: Variant) -> bool:
        """Whether the book is not for the variant's rules."""
        return self.header["variant"] != v.name or bool(differing_rules(self.rules, rules_fingerprint(v)))

    def check_rules(self, v: Variant) -> None:
        differ = differing_rules(self.rules, rules_fingerprint(v))
        if differ:
            raise InvalidInputError(
                f"the opening book {self.path} is for {self.header['variant']}'s rules, "
                f"not these {v.name} rules (they differ in {', '.join(differ)})"
            )

    def _find(self, board: Board) -> int:
        key, check = position_hash(board)
        i = int(np.searchsorted(self.positions["key"], np.uint64(key)))
        while i < len(self.positions) and int(self.positions[i]["key"]) == key:
            if int(self.positions[i]["check"]) == check:
                return i
            i += 1
        return -1

    def probe(self, board: Board) -> List[BookMove]:
        """The book's moves of the board's position, best first (none when it
        is not in the book; a stored move that is not legal there, after a
        collision of both hashes, is left out)."""
        i = self._find(board)
        if i < 0:
            return []
        p = self.positions[i]
        legal = {(m.start, m.end, captured_mask(m)): m for m in board.legal_moves}
        out = []
        for r in self.moves[int(p["first"]) : int(p["first"]) + int(p["count"])]:
            m = legal.get((int(r["start"]), int(r["end"]), int(r["captured"])))
            if m is not None:
                out.append(BookMove(m, int(r["score"]), int(r["depth"]), int(r["games"])))
        return out

    def line(self, board: Board, first: Move, plies: int = 10) -> List[Move]:
        """`first`, then the book's best move at each position after it while the line stays in the book."""
        out = [first]
        b = board.copy(stack=False)
        b.push(first)
        while len(out) < plies:
            moves = self.probe(b)
            if not moves:
                break
            out.append(moves[0].move)
            b.push(moves[0].move)
        return out

    def choose(self, board: Board, margin: int, rng: random.Random) -> Optional[BookMove]:
        """One of the position's moves within `margin` centi-men of the best, drawn by rng."""
        moves = self.probe(board)
        if not moves:
            return None
        best = max(m.score for m in moves)
        near = [m for m in moves if m.score >= best - margin]
        return near[rng.randrange(len(near))]


def write(
    path: str,
    v: Variant,
    entries: Dict[Tuple[int, int], List[Tuple[Move, int, int, int]]],
    roots: List[str],
    built: Dict[str, Any],
) -> None:
    """Write a book: entries maps (key, check) to the position's moves
    (move, score, depth, games); atomically (aside, then renamed)."""
    keys = sorted(entries)
    positions = np.zeros(len(keys), POSITION)
    total = sum(len(entries[k]) for k in keys)
    moves = np.zeros(total, MOVE)
    j = 0
    for i, k in enumerate(keys):
        ms = sorted(entries[k], key=lambda e: (-e[1], e[0].start, e[0].end, captured_mask(e[0])))
        positions[i] = (k[0], k[1], j, len(ms), ms[0][1] if ms else 0)
        for move, score, depth, games in ms:
            moves[j] = (
                captured_mask(move),
                min(games, 2**32 - 1),
                max(-SCORE_CAP, min(SCORE_CAP, score)),
                move.start,
                move.end,
                min(depth, 255),
                0,
            )
            j += 1
    header: Dict[str, Any] = {
        "format": FORMAT,
        "variant": v.name,
        "rules": rules_fingerprint(v),
        "positions": len(keys),
        "moves": total,
        "roots": roots,
        "built": built,
    }
    # the offsets depend on the header's length: fix them in two passes
    header["positions_offset"] = header["moves_offset"] = 0
    for _ in range(3):
        text = json.dumps(header, sort_keys=True).encode("utf-8")
        start = _aligned(len(MAGIC) + 4 + len(text))
        header["positions_offset"] = start
        header["moves_offset"] = _aligned(start + positions.nbytes)
    text = json.dumps(header, sort_keys=True).encode("utf-8")
    assert _aligned(len(MAGIC) + 4 + len(text)) == header["positions_offset"]
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(MAGIC)
        f.write(np.uint32(len(text)).tobytes())
        f.write(text)
        f.write(b"\0" * (header["positions_offset"] - f.tell()))
        f.write(positions.tobytes())
        f.write(b"\0" * (header["moves_offset"] - f.tell()))
        f.write(moves.tobytes())
    os.replace(tmp, path)


def _aligned(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN

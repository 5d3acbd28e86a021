"""The schedule: which engines meet, in which colours, on which opening.

`-games G` games per pairing in every round, `-rounds R` rounds.  Pairings:
round-robin (every two engines) or gauntlet (the first engine against each
of the others).  Within a pairing's games of a round the colours alternate
from game to game; `-repeat N` plays each opening N times (N = 2: a pair of
games with colours swapped), and every pairing of a round uses the same
openings.  The schedule depends on the settings and the seed only, so a
resumed match plays the same games as an uninterrupted one.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from draughts.errors import InvalidInputError
from draughts.match.game import GameJob
from draughts.match.openings import START, Book

TOURNAMENTS = ("round-robin", "gauntlet")


def pairings(n_engines: int, tournament: str) -> List[Tuple[int, int]]:
    if n_engines < 2:
        raise InvalidInputError("a match needs at least two engines")
    if tournament == "round-robin":
        return [(i, j) for i in range(n_engines) for j in range(i + 1, n_engines)]
    if tournament == "gauntlet":
        return [(0, j) for j in range(1, n_engines)]
    raise InvalidInputError(f"-tournament takes {' or '.join(TOURNAMENTS)}, not {tournament!r}")


def build(
    n_engines: int, tournament: str, games: int, rounds: int, repeat: int, book: Optional[Book] = None
) -> List[GameJob]:
    if games < 1 or rounds < 1 or repeat < 1:
        raise InvalidInputError("-games, -rounds and -repeat must be at least 1")
    pairs = pairings(n_engines, tournament)
    slots_per_round = -(-games // repeat)
    jobs: List[GameJob] = []
    for r in range(rounds):
        for a, b in pairs:
            for g in range(games):
                slot = r * slots_per_round + g // repeat
                opening = book.get(slot) if book is not None else START
                k = r * games + g
                first, second = (a, b) if k % 2 == 0 else (b, a)
                jobs.append(GameJob(len(jobs), r, (a, b), first, second, slot, opening))
    return jobs


def game_pairs(jobs: Sequence[GameJob]) -> List[Tuple[int, int]]:
    """Indices of the game pairs (consecutive games of one pairing and round,
    colours swapped) for pentanomial statistics."""
    out = []
    i = 0
    while i + 1 < len(jobs):
        a, b = jobs[i], jobs[i + 1]
        if a.pairing == b.pairing and a.round == b.round and a.first == b.second:
            out.append((a.index, b.index))
            i += 2
        else:
            i += 1
    return out

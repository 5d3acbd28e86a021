"""A loaded endgame database: the tables of one rule set in memory, probed
for win, draw or loss."""

from __future__ import annotations

import os
import threading
from typing import Dict, Optional, Tuple, Union

from draughts.board import Board
from draughts.egdb.format import (
    RESULTS,
    Material,
    TableInfo,
    default_dir,
    materials,
    read_table,
    rules_dir,
    shipped_dir,
    table_name,
)
from draughts.errors import EgdbError
from draughts.variants import Variant, variant as get_variant
from draughts_core.egdb import EGDB, MAX_PIECES


class Database:
    """The tables of one rule set, loaded into memory for probing.

    `Database.open(variant, directory)` loads every table of up to `pieces`
    pieces (default: the most for which every table is there).
    """

    def __init__(
        self, variant: Union[str, Variant], core: EGDB, directory: Optional[str], tables: Dict[Material, TableInfo]
    ):
        self.variant = get_variant(variant)
        self.core = core
        self.directory = directory
        self.tables = tables

    @property
    def pieces(self) -> int:
        """Positions of up to this many pieces are in the database."""
        return self.core.max_pieces

    @classmethod
    def open(
        cls, variant: Union[str, Variant], directory: Optional[str] = None, pieces: Optional[int] = None
    ) -> "Database":
        v = get_variant(variant)
        where = rules_dir(v, directory)
        complete = complete_pieces(v, directory)
        if pieces is None:
            pieces = complete
            if pieces < 2:
                raise EgdbError(
                    f"no endgame database for {v.name} in {where} "
                    f"(build one: draughts egdb build --variant {v.name} --pieces N)"
                )
        elif not 2 <= pieces <= MAX_PIECES:
            raise EgdbError(f"pieces must be from 2 to {MAX_PIECES}, not {pieces}")
        elif complete < pieces:
            raise EgdbError(f"the {v.name} database in {where} is complete up to {complete} pieces, not {pieces}")
        core = EGDB(v.core_rules)
        tables = {}
        for m in materials(v, pieces):
            packed, info = read_table(os.path.join(where, table_name(m)), v, m)
            core.add(*m, packed)
            tables[m] = info
        core.max_pieces = pieces
        return cls(v, core, directory, tables)

    def probe(self, board: Board) -> Optional[str]:
        """'win', 'draw' or 'loss' for the side to move, or None when the
        position is not in the database."""
        if board.variant.core_rules.move_rules() != self.variant.core_rules.move_rules():
            raise EgdbError(f"the database is for {self.variant.name}'s rules, not {board.variant.name}'s")
        return RESULTS.get(self.core.probe(board.position))

    def disk_bytes(self) -> int:
        return sum(t.disk_bytes for t in self.tables.values())


def complete_pieces(v: Variant, directory: Optional[str] = None) -> int:
    """The most pieces for which every table file of the rule set exists (0: none)."""
    where = rules_dir(v, directory)
    try:
        present = set(os.listdir(where))
    except OSError:
        return 0
    n = 1
    while n < MAX_PIECES and all(table_name(m) in present for m in materials(v, n + 1) if sum(m) == n + 1):
        n += 1
    return n if n >= 2 else 0


def auto_dir(variant: Union[str, Variant]) -> Optional[str]:
    """Where an engine finds a rule set's database by default: the database
    directory (`default_dir`) when it holds one, else the tables shipped in
    the package (`shipped_dir`), else None."""
    v = get_variant(variant)
    for directory in (default_dir(), shipped_dir()):
        if complete_pieces(v, directory) >= 2:
            return directory
    return None


_opened: Dict[Tuple[str, int], Database] = {}
_opened_lock = threading.Lock()


def open_shared(variant: Union[str, Variant], directory: str) -> Optional[Database]:
    """`Database.open(variant, directory)` loaded once per process and shared
    (probing only reads the tables): the engines of one process hold one copy.
    None when the directory holds no database of the rule set."""
    v = get_variant(variant)
    pieces = complete_pieces(v, directory)
    if pieces < 2:
        return None
    key = (os.path.realpath(rules_dir(v, directory)), pieces)
    with _opened_lock:
        db = _opened.get(key)
        if db is None:  # (the directory's name holds the rule set)
            db = _opened[key] = Database.open(v, directory, pieces)
        return db

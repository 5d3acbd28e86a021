"""Endgame databases: win, draw or loss for every position of a few pieces.

    draughts egdb build --variant american --pieces 5
    draughts egdb probe --variant american --fen "W:WK10,K14:BK23"

A database is built by retrograde analysis in the native core
(`draughts_core.egdb`) for one rule set: the tables of every material split
up to the asked number of pieces, smaller ones first (a capture leads into
fewer pieces, a promotion into one king more).  The values are pure
win/draw/loss with perfect play: the game's move-count and repetition draw
rules are not part of them (a won ending may take longer than such a rule
allows).

On disk, one directory per rule set under the database directory
(`--dir`, else `$DRAUGHTS_EGDB`, else `$XDG_CACHE_HOME/draughts/egdb`), one file
per table: a header (format version, the rule set, the material, counts and
a CRC-32 of header and data) and the 2-bit values compressed with zlib.  A
finished table is one file written atomically, so an interrupted build goes
on from the tables that exist.

Modules, one concern each: `format` (the rule-set names, the directories and
the table files), `database` (a loaded database, for probing), `builder`
(building the tables, here or as Ray tasks) and `cli` (`draughts egdb build`,
`draughts egdb probe`).  This package names their public values.
"""

from draughts.egdb.builder import BuildReport, build, solve_pair
from draughts.egdb.database import Database, auto_dir, complete_pieces, open_shared
from draughts.egdb.format import (
    RESULTS,
    TableInfo,
    default_dir,
    materials,
    pairs,
    read_table,
    rule_fields,
    rules_dir,
    rules_name,
    shipped_dir,
    supported,
    table_name,
    write_table,
)

__all__ = [
    "BuildReport",
    "build",
    "solve_pair",
    "Database",
    "auto_dir",
    "complete_pieces",
    "open_shared",
    "RESULTS",
    "TableInfo",
    "default_dir",
    "materials",
    "pairs",
    "read_table",
    "rule_fields",
    "rules_dir",
    "rules_name",
    "shipped_dir",
    "supported",
    "table_name",
    "write_table",
]

"""The endgame database on disk: the rule set a database is for and its
directory name, the tables of a number of pieces and their build order, and
the table files (a header with the format version, the rule set, the
material, counts and a CRC-32 of header and data; then the 2-bit values
compressed with zlib, written atomically)."""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from dataclasses import dataclass
from typing import List, Optional, Tuple

from draughts.errors import EgdbError
from draughts.variants import VARIANTS, Variant, variant as get_variant
from draughts_core.egdb import DRAW, LOSS, WIN, table_size
from draughts_core.position import MOVE_RULE_FIELDS

FORMAT_VERSION = 1
MAGIC = b"DRWDL\n"
#  magic, version, 11 rule fields, material (4), positions, wins, draws, losses, data length, crc32
_HEADER = struct.Struct("<6sH11B4BQQQQQI")
SUFFIX = ".wdl"
RESULTS = {WIN: "win", DRAW: "draw", LOSS: "loss"}

Material = Tuple[int, int, int, int]


# --- names and places ------------------------------------------------------------

#: the move rules a database is built for (the header's 11 fields); the draw
#: rules do not change a table
N_RULE_FIELDS = 11
#: rule fields that must be off (orthogonal captures, capture value, the
#: king-move limit, the killer halt, another goal, thai's landing rule, the
#: orthogonal board, turkish's no-turning-back: their positions need state,
#: results or an index the tables do not hold)
UNSUPPORTED_FIELDS = ("orthogonal", "value_majority", "king_move_limit", "halt_behind_king", "goal",
                      "land_behind", "geometry", "no_turn_back")


def supported(v: Variant) -> bool:
    """Whether endgame databases can be built for the variant's rules."""
    fields = dict(zip(MOVE_RULE_FIELDS, v.core_rules.move_rules()))
    return not any(fields[name] for name in UNSUPPORTED_FIELDS)


def rule_fields(v: Variant) -> Tuple[int, ...]:
    """The move rules of a variant as the core packs them: the database's key."""
    if not supported(v):
        fields = dict(zip(MOVE_RULE_FIELDS, v.core_rules.move_rules()))
        extra = [name for name in UNSUPPORTED_FIELDS if fields[name]]
        raise EgdbError(f"endgame databases are not available for {v.name} "
                        f"(its rules use {', '.join(extra)}, which the table format does not hold)")
    return v.core_rules.move_rules()[:N_RULE_FIELDS]


def rules_name(v: Variant) -> str:
    """The directory name of a rule set: a variant's name (when the rules are a
    registered variant's) and a short hash of the rules."""
    fields = rule_fields(v)
    digest = hashlib.blake2b(bytes(fields), digest_size=4).hexdigest()
    name = next((n for n, reg in VARIANTS.items() if supported(reg) and rule_fields(reg) == fields), None)
    if name is None:
        base = rule_fields(get_variant(v.name, mandatory_capture=True))
        name = v.name + ("-optional-capture" if base[:-1] == fields[:-1] else "-custom")
    return f"{name}-{digest}"


def default_dir() -> str:
    """$DRAUGHTS_EGDB, else $XDG_CACHE_HOME/draughts/egdb (~/.cache by default)."""
    env = os.environ.get("DRAUGHTS_EGDB")
    if env:
        return env
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "draughts", "egdb")


def shipped_dir() -> str:
    """The small databases shipped in the package (`draughts/data/egdb`: up to
    four pieces for every supported rule set), used when the database
    directory has none of a rule set."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "egdb")


def rules_dir(v: Variant, directory: Optional[str] = None) -> str:
    return os.path.join(directory or default_dir(), rules_name(v))


def table_name(m: Material) -> str:
    a, b, c, d = m
    return f"{a}m{b}k-{c}m{d}k{SUFFIX}"


def materials(v: Variant, pieces: int) -> List[Material]:
    """Every table of 2..pieces pieces: (own men, own kings, their men, their kings)."""
    men_max = v.squares - v.size // 2
    out = []
    for n in range(2, pieces + 1):
        for a in range(n + 1):
            for b in range(n + 1 - a):
                for c in range(n + 1 - a - b):
                    d = n - a - b - c
                    if a + b and c + d and a <= men_max and c <= men_max:
                        out.append((a, b, c, d))
    return out


def pairs(v: Variant, pieces: int) -> List[Material]:
    """Table pairs {(a,b,c,d), (c,d,a,b)} in build order: by pieces, then by men
    (a promotion leads into one man fewer); each named by its larger member."""
    seen = set()
    out = []
    for m in materials(v, pieces):
        key = max(m, (m[2], m[3], m[0], m[1]))
        if key not in seen:
            seen.add(key)
            out.append(key)
    out.sort(key=lambda m: (sum(m), m[0] + m[2], m))
    return out


def partner(m: Material) -> Material:
    """The other table of m's pair: the same pieces, the other side to move."""
    return (m[2], m[3], m[0], m[1])


def stage(m: Material) -> Tuple[int, int]:
    """(pieces, men): the tables of one stage do not lead into each other."""
    return (sum(m), m[0] + m[2])


# --- files -----------------------------------------------------------------------

def write_table(path: str, v: Variant, m: Material, packed: bytes, counts: Tuple[int, int, int]) -> int:
    """Write one table atomically; returns its size on disk."""
    data = zlib.compress(packed, 9)
    positions = table_size(v.size, *m)
    head = _HEADER.pack(MAGIC, FORMAT_VERSION, *rule_fields(v), *m, positions, *counts, len(data), 0)
    crc = zlib.crc32(packed, zlib.crc32(head[:-4]))
    head = head[:-4] + struct.pack("<I", crc)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as fh:
        fh.write(head)
        fh.write(data)
    os.replace(tmp, path)
    return len(head) + len(data)


@dataclass
class TableInfo:
    material: Material
    positions: int
    wins: int
    draws: int
    losses: int
    disk_bytes: int


def read_table(path: str, v: Variant, m: Material) -> Tuple[bytes, TableInfo]:
    """The packed values of one table file, checked against its header and checksum."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as e:
        raise EgdbError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) < _HEADER.size or not raw.startswith(MAGIC):
        raise EgdbError(f"{path} is not a draughts endgame table")
    fields = _HEADER.unpack_from(raw)
    version, rules, mat = fields[1], fields[2:13], fields[13:17]
    positions, wins, draws, losses, length, crc = fields[17:23]
    if version != FORMAT_VERSION:
        raise EgdbError(f"{path} has format version {version}; this program reads {FORMAT_VERSION}")
    if tuple(rules) != rule_fields(v):
        raise EgdbError(f"{path} was built for other rules than {v.name}'s")
    if tuple(mat) != tuple(m) or positions != table_size(v.size, *m):
        raise EgdbError(f"{path} holds table {mat}, not {m}")
    if len(raw) != _HEADER.size + length:
        raise EgdbError(f"{path} is truncated or too long")
    try:
        packed = zlib.decompress(raw[_HEADER.size:])
    except zlib.error as e:
        raise EgdbError(f"{path} is damaged: {e}") from None
    if len(packed) != (positions + 3) // 4 or zlib.crc32(packed, zlib.crc32(raw[:_HEADER.size - 4])) != crc:
        raise EgdbError(f"{path} is damaged: the checksum does not match")
    return packed, TableInfo((m[0], m[1], m[2], m[3]), positions, wins, draws, losses, len(raw))

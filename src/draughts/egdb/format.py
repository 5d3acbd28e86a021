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
from typing import Dict, List, Optional, Tuple

from draughts.errors import EgdbError
from draughts.variants import VARIANTS, Variant, variant as get_variant
from draughts_core.egdb import DRAW, LOSS, WIN, table_size
from draughts_core.rule_fields import BY_NAME

FORMAT_VERSION = 1
MAGIC = b"DRWDL\n"
#  magic, version, 11 rule fields (KEY_FIELDS), material (4), positions, wins, draws, losses, data length, crc32
_HEADER = struct.Struct("<6sH11B4BQQQQQI")
SUFFIX = ".wdl"
RESULTS = {WIN: "win", DRAW: "draw", LOSS: "loss"}

Material = Tuple[int, int, int, int]


# --- names and places ------------------------------------------------------------

#: the move rules a database is built for, by name, in the order of the table
#: header's rule bytes (the draw rules do not change a table).  The directory
#: name hashes these values in this order: the order is part of the format and
#: does not follow the order of the rules' declaration (RULES).
KEY_FIELDS = (
    "size",
    "men_capture_backwards",
    "flying_kings",
    "men_capture_kings",
    "majority_capture",
    "prefer_king_mover",
    "prefer_more_kings",
    "prefer_early_kings",
    "crown_during_capture",
    "remove_at_once",
    "mandatory_capture",
)
N_RULE_FIELDS = len(KEY_FIELDS)


def unsupported_rules(move_rules: Dict[str, int]) -> List[str]:
    """The move rules (by name, as `CoreRules.move_rules()` gives them) that are
    on and that the tables do not hold: every move rule outside KEY_FIELDS
    (orthogonal captures, capture value, the king-move limit, the killer halt,
    another goal, thai's landing rule, the orthogonal board, turkish's
    no-turning-back, and any rule added later: their positions need state,
    results or an index the tables do not hold)."""
    return [name for name, value in move_rules.items() if name not in KEY_FIELDS and value != BY_NAME[name].default]


def supported(v: Variant) -> bool:
    """Whether endgame databases can be built for the variant's rules."""
    return not unsupported_rules(v.core_rules.move_rules())


def table_key(move_rules: Dict[str, int]) -> Tuple[int, ...]:
    """The values of KEY_FIELDS, in that order, of move rules by name."""
    return tuple(move_rules[name] for name in KEY_FIELDS)


def rule_fields(v: Variant) -> Tuple[int, ...]:
    """The move rules of a variant that key its database (KEY_FIELDS' values)."""
    move_rules = v.core_rules.move_rules()
    extra = unsupported_rules(move_rules)
    if extra:
        raise EgdbError(
            f"endgame databases are not available for {v.name} "
            f"(its rules use {', '.join(extra)}, which the table format does not hold)"
        )
    return table_key(move_rules)


def key_digest(fields: Tuple[int, ...]) -> str:
    """The short hash of a table key in a directory name."""
    return hashlib.blake2b(bytes(fields), digest_size=4).hexdigest()


def rules_name(v: Variant) -> str:
    """The directory name of a rule set: a variant's name (when the rules are a
    registered variant's) and a short hash of the rules."""
    fields = rule_fields(v)
    name = next((n for n, reg in VARIANTS.items() if supported(reg) and rule_fields(reg) == fields), None)
    if name is None:
        base = rule_fields(get_variant(v.name, mandatory_capture=True))
        mandatory = KEY_FIELDS.index("mandatory_capture")
        optional = all(a == b for i, (a, b) in enumerate(zip(base, fields)) if i != mandatory)
        name = v.name + ("-optional-capture" if optional else "-custom")
    return f"{name}-{key_digest(fields)}"


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
        packed = zlib.decompress(raw[_HEADER.size :])
    except zlib.error as e:
        raise EgdbError(f"{path} is damaged: {e}") from None
    if len(packed) != (positions + 3) // 4 or zlib.crc32(packed, zlib.crc32(raw[: _HEADER.size - 4])) != crc:
        raise EgdbError(f"{path} is damaged: the checksum does not match")
    return packed, TableInfo((m[0], m[1], m[2], m[3]), positions, wins, draws, losses, len(raw))

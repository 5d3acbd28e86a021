"""The learned evaluation: its features, weights files and the C tables.

The evaluation (`draughts_core.eval`) scores a position for White as

    sum over regions R of  T_R[index_R]  +  sum over dense features f of  w_f * x_f

once with opening and once with endgame weights, interpolated by the number
of pieces on the board.  The regions are the 4x4 windows of the board at even
rows and columns (9 on 8x8, 16 on 10x10), each holding eight playable
squares; the index is their contents in base 3 (0 empty or a king, 1 white
man, 2 black man; the window's first square is the lowest digit).

Colour symmetry is built in.  Turning the board round (180 degrees) and
swapping the colours maps region R to region `n - 1 - R` and index i to
`FLIP[i]` (digits reversed, 1 and 2 exchanged).  The parameters theta are
fitted with every region counted for White and, turned round, against Black,
which makes the table `T_R[i] = theta_R[i] - theta_{n-1-R}[FLIP[i]]`
antisymmetric: a position and its colour-flipped image score exactly opposite.
The dense features are White's count less Black's (Black's counted on the
turned board), the side to move (+1 White, -1 Black) and the trade term.
Kings, which the patterns do not see, also score by their square: per
square s, a white king on s less a black king on N - 1 - s.

The orthogonal board of turkish (every square of the 8x8 board, bit = row *
8 + column) has regions of its own: the 2x4 blocks (two rows, four columns)
at every row and the columns 0, 2, 4, then the 4x2 blocks at the rows 0, 2, 4
and the columns 0, 2, 4, 6, 33 in all, each block's squares row by row its
digits.  Its rules are also symmetric left to right, so its table is
symmetrised over both: `T_R[i] = theta_R[i] + theta_M(R)[MIR(i)] -
theta_H(R)[FLIP(i)] - theta_HM(R)[FLIP(MIR(i))]` with M the mirror, H the half
turn with the colours swapped; a position, its mirror image, and their
colour-flipped images score alike (and opposite).  Its dense features are
`DENSE_ORTHO` (moves along rows and columns, men on the crowning threshold).
A `Layout` holds all of this per board.

Weights files (`data/learned-<variant>.npz`) hold theta (`patterns`, int16,
shape (regions, 6561, 2)), `dense` (int16, (NDENSE, 2)) and `king_squares`
(int16, (N, 2)) in centi-men; each has a manifest (`.json`) naming the
command that produced it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import numpy as np

from draughts.errors import InvalidInputError
from draughts.variants import Variant, variant as get_variant
from draughts_core.eval import Dense, DenseOrtho
from draughts_core.eval_features import feature_arrays, ortho_blocks, regions
from draughts_core.eval_weights import LearnedEval

NPAT = 3**8

#: the dense features, in the core's order, named by the core's enums
#: (draughts_core/eval.pxd: Dense, DenseOrtho; each member's comment says what it counts)
DENSE = tuple(f.name[2:].lower() for f in sorted(Dense, key=int))
#: the dense features on the orthogonal board (turkish), in the core's order
DENSE_ORTHO = tuple(f.name[2:].lower() for f in sorted(DenseOrtho, key=int))
#: the first SIDE_FEATURES dense features are one side's count less the other's
SIDE_FEATURES = 12


def _flip_table() -> np.ndarray:
    digits = np.zeros((NPAT, 8), dtype=np.int64)
    x = np.arange(NPAT)
    for k in range(8):
        digits[:, k] = x % 3
        x //= 3
    swapped = np.where(digits == 0, 0, 3 - digits)[:, ::-1]
    return (swapped * (3 ** np.arange(8))).sum(axis=1).astype(np.int64)


#: index of a region's pattern seen from the other side (board turned round, colours swapped)
FLIP = _flip_table()


def _mirror_table(width: int) -> np.ndarray:
    """Index of a block's pattern seen in the mirror (columns reversed, row by row)."""
    x = np.arange(NPAT)
    out = np.zeros(NPAT, dtype=np.int64)
    for k in range(8):
        row, col = divmod(k, width)
        out += (x // 3**k % 3) * 3 ** (row * width + width - 1 - col)
    return out


#: one term of a symmetrised table: sign, the region whose parameters it
#: reads (per region), the pattern index it reads them at (per region and index)
Term = Tuple[int, np.ndarray, np.ndarray]


@dataclass(frozen=True, eq=False)
class Layout:
    """The learned evaluation on one board: regions, squares, dense
    features, the phase's full count and the symmetry terms of its table."""

    name: str  # "8x8", "10x10", "the orthogonal 8x8 board"
    size: int
    geometry: int  # Rules.geometry
    nreg: int
    squares: int  # squares a piece can stand on (king square weights)
    full: int  # pieces at the start: the opening end of the phase
    dense: Tuple[str, ...]
    terms: Tuple[Term, ...]
    king_mirror: Optional[np.ndarray] = None  # per square its mirror image, when the board has one

    def king_table(self, king_sq: np.ndarray) -> np.ndarray:
        """The king square weights the core reads (symmetrised over the mirror)."""
        king_sq = np.asarray(king_sq, dtype=np.float64)
        return king_sq if self.king_mirror is None else king_sq + king_sq[self.king_mirror]

    def king_features(self, king_sq: np.ndarray) -> np.ndarray:
        """The king square features (n, squares) as the parameters see them:
        with a mirror, a king on s counts for s and its image."""
        return king_sq if self.king_mirror is None else king_sq + king_sq[:, self.king_mirror]

    def flat(self, idx: np.ndarray) -> List[Tuple[int, np.ndarray]]:
        """Per term: its sign and the flat parameter indices (region * NPAT +
        index, int32, shape of idx) of pattern indices idx (n, regions)."""
        idx = idx.astype(np.int64)
        regs = np.arange(self.nreg)[None, :]
        return [(sign, (rmap[None, :] * NPAT + perm[regs, idx]).astype(np.int32)) for sign, rmap, perm in self.terms]


def _diagonal(size: int) -> Layout:
    n = regions(size)
    ident = np.tile(np.arange(NPAT), (n, 1))
    flip = np.tile(FLIP, (n, 1))
    # the half turn maps window R to window n - 1 - R (no mirror symmetry: the
    # diagonal grid's mirror is not the board)
    terms = ((1, np.arange(n), ident), (-1, np.arange(n)[::-1].copy(), flip))
    return Layout(f"{size}x{size}", size, 0, n, size * size // 2, 24 if size == 8 else 40, DENSE, terms)


def _orthogonal() -> Layout:
    blocks = ortho_blocks()
    n = len(blocks)
    where = {(bit // 8, bit % 8, rows, cols): i for i, (bit, rows, cols) in enumerate(blocks)}
    rot = np.zeros(n, dtype=np.int64)
    mir = np.zeros(n, dtype=np.int64)
    mperm = np.zeros((n, NPAT), dtype=np.int64)
    mirror = {w: _mirror_table(w) for w in (2, 4)}
    for i, (bit, rows, cols) in enumerate(blocks):
        r, c = divmod(bit, 8)
        rot[i] = where[(8 - rows - r, 8 - cols - c, rows, cols)]
        mir[i] = where[(r, 8 - cols - c, rows, cols)]
        mperm[i] = mirror[cols]
    ident = np.tile(np.arange(NPAT), (n, 1))
    flip = np.tile(FLIP, (n, 1))
    terms = ((1, np.arange(n), ident), (1, mir, mperm), (-1, rot, flip), (-1, rot[mir], FLIP[mperm]))
    squares = np.arange(64)
    return Layout("the orthogonal 8x8 board", 8, 1, n, 64, 32, DENSE_ORTHO, terms, 8 * (squares // 8) + 7 - squares % 8)


LAYOUTS = (_diagonal(8), _diagonal(10), _orthogonal())


def layout(variant) -> Layout:
    """The learned evaluation's layout of a variant's board."""
    v = get_variant(variant)
    geometry = 1 if v.geometry == "orthogonal" else 0
    return next(lay for lay in LAYOUTS if lay.size == v.size and lay.geometry == geometry)


def table(patterns: np.ndarray, lay: Optional[Layout] = None) -> np.ndarray:
    """The symmetrised C table of the parameters theta (float or int); the
    layout defaults to the diagonal board of theta's region count."""
    theta = np.asarray(patterns, dtype=np.float64)
    if lay is None:
        lay = next(x for x in LAYOUTS if x.geometry == 0 and x.nreg == theta.shape[0])
    out = np.zeros_like(theta)
    for sign, rmap, perm in lay.terms:
        out += sign * theta[rmap[:, None], perm]
    return out


def weights_path(variant: Variant) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", f"learned-{variant.name}.npz")


def has_weights(variant) -> bool:
    return os.path.exists(weights_path(get_variant(variant)))


def read(path: str, lay: Optional[Layout] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patterns, dense, king_squares) of a weights file, checked against the
    board (the layout lay, when given)."""
    try:
        with np.load(path) as data:
            patterns = np.array(data["patterns"])
            dense = np.array(data["dense"])
            king_sq = np.array(data["king_squares"])
    except (OSError, KeyError, ValueError) as e:
        raise InvalidInputError(f"cannot read learned weights {path!r}: {e}") from None
    nreg = patterns.shape[0] if patterns.ndim == 3 else -1
    found = [x for x in LAYOUTS if x.nreg == nreg]
    if patterns.shape[1:] != (NPAT, 2) or not found:
        raise InvalidInputError(f"learned weights {path!r}: patterns of shape {patterns.shape}")
    if dense.shape != (len(DENSE), 2):
        raise InvalidInputError(f"learned weights {path!r}: dense weights of shape {dense.shape}")
    of_file = found[0]
    if king_sq.shape != (of_file.squares, 2):
        raise InvalidInputError(f"learned weights {path!r}: king squares of shape {king_sq.shape}")
    if lay is not None and of_file is not lay:
        raise InvalidInputError(f"learned weights {path!r} are for {of_file.name}, not {lay.name}")
    for name, a in (("patterns", patterns), ("dense", dense), ("king_squares", king_sq)):
        if not np.issubdtype(a.dtype, np.integer):
            raise InvalidInputError(f"learned weights {path!r}: {name} of type {a.dtype}, integers expected")
    return patterns, dense, king_sq


def _int16(a: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(a), -32767, 32767).astype(np.int16)


def write(path: str, patterns: np.ndarray, dense: np.ndarray, king_sq: np.ndarray, manifest: Dict) -> None:
    """A weights file (int16, rounded) and its manifest next to it (`.json`);
    the manifest records the file's SHA-256."""
    np.savez_compressed(path, patterns=_int16(patterns), dense=_int16(dense), king_squares=_int16(king_sq))
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.splitext(path)[0] + ".json", "w") as f:
        json.dump(dict(manifest, sha256=digest), f, indent=1, sort_keys=True)
        f.write("\n")


def manifest(path: str) -> Dict:
    with open(os.path.splitext(path)[0] + ".json") as f:
        return json.load(f)


def build(patterns: np.ndarray, dense: np.ndarray, king_sq: np.ndarray, lay: Layout) -> LearnedEval:
    t = _int16(table(patterns, lay))
    return LearnedEval(
        lay.size,
        np.ascontiguousarray(t).tobytes(),
        [(int(d[0]), int(d[1])) for d in dense],
        [(int(d[0]), int(d[1])) for d in _int16(lay.king_table(king_sq))],
        lay.geometry,
    )


_CACHE: Dict[str, LearnedEval] = {}


def load(variant, path: Optional[str] = None) -> LearnedEval:
    """The C tables of a weights file (default: the variant's shipped file), cached by path."""
    v = get_variant(variant)
    lay = layout(v)
    path = os.path.abspath(path) if path else weights_path(v)
    key = f"{path}:{lay.name}"
    if key not in _CACHE:
        if not os.path.exists(path):
            raise InvalidInputError(f"no learned weights for {v.name}: {path} is missing")
        _CACHE[key] = build(*read(path, lay), lay)
    return _CACHE[key]


def features(
    variant, white: np.ndarray, black: np.ndarray, kings: np.ndarray, turn: np.ndarray
) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pattern indices (n, regions) uint16, dense features (n, NDENSE) int32,
    pieces on board (n,) int32 and king squares (n, N) int8 of positions given
    as bitboard arrays."""
    v = get_variant(variant)
    lay = layout(v)
    n = len(white)
    idx = np.zeros((n, lay.nreg), dtype=np.uint16)
    dense = np.zeros((n, len(lay.dense)), dtype=np.int32)
    pieces = np.zeros(n, dtype=np.int32)
    king_sq = np.zeros((n, lay.squares), dtype=np.int8)
    feature_arrays(
        v.core_rules,
        np.ascontiguousarray(white, dtype=np.uint64),
        np.ascontiguousarray(black, dtype=np.uint64),
        np.ascontiguousarray(kings, dtype=np.uint64),
        np.ascontiguousarray(turn, dtype=np.uint8),
        idx,
        dense,
        pieces,
        king_sq,
    )
    return idx, dense, pieces, king_sq

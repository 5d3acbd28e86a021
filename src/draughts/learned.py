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

Weights files (`data/learned-<variant>.npz`) hold theta (`patterns`, int16,
shape (regions, 6561, 2)), `dense` (int16, (NDENSE, 2)) and `king_squares`
(int16, (N, 2)) in centi-men; each has a manifest (`.json`) naming the
command that produced it.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Dict, Optional, Tuple

import numpy as np

from draughts.errors import DraughtsError
from draughts.variants import Variant, variant as get_variant
from draughts_core.eval import LearnedEval, feature_arrays, regions

NPAT = 3 ** 8

#: the dense features, in the core's order (draughts_core/eval.pxd NDENSE)
DENSE = (
    "men",              # men on the board
    "king1",            # has at least one king
    "king2",            # has at least two kings
    "kings3",           # kings beyond the second
    "king_mobility",    # empty squares the kings can move to
    "king_long_diagonal",
    "king_stuck",       # kings with no empty square next to them
    "tempo",            # rows advanced, summed over the men
    "balance",          # |men on the left half - men on the right half|
    "back_rank",        # men on their own back row
    "runaway",          # men near the crown with no enemy piece in front
    "locked",           # men with no forward move
    "turn",             # +1 White to move, -1 Black
    "trade",            # 32 * (material difference) / (material on board), men 1 and kings 3
)
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


def full_pieces(size: int) -> int:
    return 24 if size == 8 else 40


def table(patterns: np.ndarray) -> np.ndarray:
    """The antisymmetric C table of the parameters theta (float or int)."""
    theta = np.asarray(patterns, dtype=np.float64)
    return theta - theta[::-1][:, FLIP, :]


#: variants that play another variant's shipped file: frysk is frisian from
#: the 5-against-5 start (the same rules), and frisian's file beat the classic
#: evaluation there too (benchmarks/README.md, session 4)
SHARED_WEIGHTS = {"frysk": "frisian"}


def weights_variant(variant) -> str:
    """The variant whose shipped weights file a variant plays."""
    name = get_variant(variant).name
    return SHARED_WEIGHTS.get(name, name)


def weights_path(variant: Variant) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                        f"learned-{weights_variant(variant)}.npz")


def has_weights(variant) -> bool:
    return os.path.exists(weights_path(get_variant(variant)))


def read(path: str, size: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patterns, dense, king_squares) of a weights file, checked against the board size."""
    try:
        with np.load(path) as data:
            patterns = np.array(data["patterns"])
            dense = np.array(data["dense"])
            king_sq = np.array(data["king_squares"])
    except (OSError, KeyError, ValueError) as e:
        raise DraughtsError(f"cannot read learned weights {path!r}: {e}") from None
    nreg = patterns.shape[0] if patterns.ndim == 3 else -1
    if patterns.shape[1:] != (NPAT, 2) or nreg not in (regions(8), regions(10)):
        raise DraughtsError(f"learned weights {path!r}: patterns of shape {patterns.shape}")
    if dense.shape != (len(DENSE), 2):
        raise DraughtsError(f"learned weights {path!r}: dense weights of shape {dense.shape}")
    file_size = 8 if nreg == regions(8) else 10
    if king_sq.shape != (file_size * file_size // 2, 2):
        raise DraughtsError(f"learned weights {path!r}: king squares of shape {king_sq.shape}")
    if size is not None and file_size != size:
        raise DraughtsError(f"learned weights {path!r} are for {file_size}x{file_size}, not {size}x{size}")
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


def build(patterns: np.ndarray, dense: np.ndarray, king_sq: np.ndarray, size: int) -> LearnedEval:
    t = _int16(table(patterns))
    return LearnedEval(size, np.ascontiguousarray(t).tobytes(), [(int(d[0]), int(d[1])) for d in dense],
                       [(int(d[0]), int(d[1])) for d in king_sq])


_CACHE: Dict[str, LearnedEval] = {}


def load(variant, path: Optional[str] = None) -> LearnedEval:
    """The C tables of a weights file (default: the variant's shipped file), cached by path."""
    v = get_variant(variant)
    check_supported(v)
    path = os.path.abspath(path) if path else weights_path(v)
    key = f"{path}:{v.size}"
    if key not in _CACHE:
        if not os.path.exists(path):
            raise DraughtsError(f"no learned weights for {v.name}: {path} is missing")
        _CACHE[key] = build(*read(path, v.size), v.size)
    return _CACHE[key]


def check_supported(v: Variant) -> None:
    """The learned evaluation's patterns are windows of the diagonal grid: raise
    a DraughtsError for a variant on another board."""
    if v.geometry != "diagonal":
        raise DraughtsError(f"the learned evaluation is not available for {v.name}: its patterns "
                            f"are windows of the diagonal grid, and {v.name} plays on every square "
                            f"(use the classic evaluation)")


def features(variant, white: np.ndarray, black: np.ndarray, kings: np.ndarray,
             turn: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pattern indices (n, regions) uint16, dense features (n, NDENSE) int32,
    pieces on board (n,) int32 and king squares (n, N) int8 of positions given
    as bitboard arrays."""
    v = get_variant(variant)
    check_supported(v)
    n = len(white)
    idx = np.zeros((n, regions(v.size)), dtype=np.uint16)
    dense = np.zeros((n, len(DENSE)), dtype=np.int32)
    pieces = np.zeros(n, dtype=np.int32)
    king_sq = np.zeros((n, v.size * v.size // 2), dtype=np.int8)
    feature_arrays(v.core_rules, np.ascontiguousarray(white, dtype=np.uint64),
                   np.ascontiguousarray(black, dtype=np.uint64), np.ascontiguousarray(kings, dtype=np.uint64),
                   np.ascontiguousarray(turn, dtype=np.uint8), idx, dense, pieces, king_sq)
    return idx, dense, pieces, king_sq


def evaluate_white(patterns: np.ndarray, dense_w: np.ndarray, king_w: np.ndarray, size: int,
                   idx: np.ndarray, dense: np.ndarray, pieces: np.ndarray, king_sq: np.ndarray) -> np.ndarray:
    """The evaluation for White (float, before rounding and the drawn
    endings) of feature arrays."""
    t = table(patterns)
    nreg = idx.shape[1]
    pat = t[np.arange(nreg)[None, :], idx.astype(np.int64), :].sum(axis=1)        # (n, 2)
    tot = (pat + dense.astype(np.float64) @ np.asarray(dense_w, dtype=np.float64)
           + king_sq.astype(np.float64) @ np.asarray(king_w, dtype=np.float64))
    full = full_pieces(size)
    ph = np.minimum(pieces, full) / full
    return tot[:, 0] * ph + tot[:, 1] * (1 - ph)

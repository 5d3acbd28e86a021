"""`draughts train`: fit the learned evaluation to self-play games, with numpy.

One generation: play games (draughts.selfplay) with the previous generation's
weights (the classic evaluation for the first), then fit the weights by
logistic regression of the game result on the evaluation over the quiet
positions of every game played so far:

    P(White wins) = sigmoid(scale * eval_white),   eval in centi-men,

with a draw counted as half a win.  The sigmoid scale is fitted once per run
to the classic evaluation of the training positions, so the learned weights
keep its unit, a man about 100 (a run from --start-weights keeps the scale
their manifest names); the weights by minibatch Adam over sparse
feature indices with L2 regularisation, starting from the previous
generation (material only for the first, or with `--start-classic` the
parameters that reproduce the classic evaluation: `classic_model`).  The L2
term pulls the pattern weights toward zero, or with `--l2-toward start`
toward the run's starting parameters (a fit from the classic evaluation then
moves away from it only where the games say so).  Games are split into training and
held-out games (one in ten by game number); both log-losses are reported and
written to the manifest with the command, seed and counts.

`--data DIR` adds the games of earlier runs (their `games-N` directories) to
every fit; with `--games 0` nothing is played and one fit to those games is
made (trying other labels or regularisation on games already played).

`--cluster ADDRESS` plays the games as Ray tasks on an existing cluster
(`pip install ".[cluster]"`, the package installed on its nodes), a chunk
of games a task, at most two a processor at once: each task plays its chunk
as a local worker would and this process writes the same chunk files, so a
run started here resumes there and the other way round, and the fit is the
same.  A cluster that goes away ends the run, keeping the chunks written.
The manifest records where the games were played (`played_on`), not the
address (the command shows it as ADDRESS).
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from draughts import cluster as ray_cluster, learned, selfplay
from draughts._args import positive_int, whole_number
from draughts._progress import shown_by_default
from draughts.tuning import default_weights
from draughts.errors import InvalidInputError
from draughts.variants import VARIANTS, variant as get_variant
from draughts_core.position import Position
from draughts_core.search import Searcher

NPAT = learned.NPAT


@dataclass
class Data:
    """Training positions as feature arrays, White's view."""

    idx: np.ndarray  # (n, regions) pattern indices
    dense: np.ndarray  # (n, NDENSE)
    king_sq: np.ndarray  # (n, squares) white king on s less black king on N - 1 - s
    phase: np.ndarray  # (n,) opening share of the interpolation, 0..1
    result: np.ndarray  # (n,) 1 White won, 0.5 draw, 0 Black won
    heldout: np.ndarray  # (n,) bool
    score: np.ndarray  # (n,) the self-play search's score for White, centi-men


def prepare(variant, raw: Dict[str, np.ndarray]) -> Data:
    v = get_variant(variant)
    idx, dense, pieces, king_sq = learned.features(v, raw["white"], raw["black"], raw["kings"], raw["turn"])
    full = learned.layout(v).full
    phase = np.minimum(pieces, full).astype(np.float64) / full
    game = raw["game"].astype(np.int64)
    heldout = (game % 10) == 7
    return Data(idx, dense, king_sq, phase, raw["result"].astype(np.float64), heldout, raw["score"].astype(np.float64))


def classic_scores(variant, raw: Dict[str, np.ndarray]) -> np.ndarray:
    """The classic static evaluation of each position, for White, centi-men."""
    v = get_variant(variant)
    s = Searcher(v.core_rules, default_weights(v).core(), 1)
    rules = v.core_rules
    out = np.empty(len(raw["white"]), dtype=np.float64)
    size = 64 if v.geometry == "orthogonal" else v.size  # the bit layout (every square a bit)
    for j, (w, b, k, t) in enumerate(
        zip(raw["white"].tolist(), raw["black"].tolist(), raw["kings"].tolist(), raw["turn"].tolist())
    ):
        p = Position(rules, _squares(size, w), _squares(size, b), _squares(size, k), t)
        e = s.evaluate(p)
        out[j] = e if t == 0 else -e
    return out


def _squares(size: int, mask: int) -> List[int]:
    """The internal squares of a bitboard; size 8 or 10, 64 on the orthogonal board."""
    out = []
    while mask:
        bit = (mask & -mask).bit_length() - 1
        out.append(bit - bit // (size + 1))
        mask &= mask - 1
    return out


def log_loss(logit: np.ndarray, y: np.ndarray) -> float:
    """Mean cross-entropy of results y under P = sigmoid(logit)."""
    return float(np.mean(np.logaddexp(0.0, logit) - y * logit))


def fit_scale(score: np.ndarray, y: np.ndarray, iterations: int = 50) -> float:
    """The s of P = sigmoid(s * score) with the least log-loss (Newton's method)."""
    s = 0.01
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-s * score))
        grad = np.mean((p - y) * score)
        hess = np.mean(p * (1 - p) * score * score) + 1e-12
        step = grad / hess
        s -= step
        s = max(s, 1e-6)
        if abs(step) < 1e-9:
            break
    return float(s)


class Model:
    """The parameters theta of the learned evaluation, in centi-men."""

    def __init__(
        self,
        variant,
        patterns: Optional[np.ndarray] = None,
        dense: Optional[np.ndarray] = None,
        king_sq: Optional[np.ndarray] = None,
    ):
        v = get_variant(variant)
        self.layout = learned.layout(v)
        self.nreg = self.layout.nreg
        self.patterns = (
            np.zeros((self.nreg, NPAT, 2)) if patterns is None else np.asarray(patterns, dtype=np.float64).copy()
        )
        if dense is None:
            names = self.layout.dense
            dense = np.zeros((len(names), 2))
            w = default_weights(v)
            man, king = w.man, w.king
            if v.goal == "losing":
                # antidraughts: one's own pieces are liabilities (as in the
                # classic eval_losing_g), so the fit starts from negative material
                man, king = -man, -king
            dense[names.index("men")] = man
            for name in ("king1", "king2", "kings3"):
                dense[names.index(name)] = king
        self.dense = np.asarray(dense, dtype=np.float64).copy()
        self.king_sq = (
            np.zeros((self.layout.squares, 2)) if king_sq is None else np.asarray(king_sq, dtype=np.float64).copy()
        )


def square_coords(size: int) -> List[Tuple[int, int]]:
    """(row, column) of each internal square of the diagonal board: square i
    is on row i // H, column 2 (i % H) + 1 on even rows and 2 (i % H) on odd
    ones (H = size / 2)."""
    h = size // 2
    return [(i // h, 2 * (i % h) + 1 if (i // h) % 2 == 0 else 2 * (i % h)) for i in range(size * h)]


def region_squares(size: int) -> List[List[int]]:
    """The internal squares of every pattern region of the diagonal board, in
    digit order (the 4x4 windows at even rows and columns, row by row; each
    window's squares row by row, left to right)."""
    coords = square_coords(size)
    return [
        [i for i, (r, c) in enumerate(coords) if r0 <= r < r0 + 4 and c0 <= c < c0 + 4]
        for r0 in range(0, size - 3, 2)
        for c0 in range(0, size - 3, 2)
    ]


def classic_model(variant) -> Model:
    """Parameters of the learned evaluation that reproduce the classic one
    (`eval_g`, draughts.tuning.default_weights) on a diagonal board with the
    normal or the breakthrough goal.

    A man's advancement, back-row guard and centre bonus depend on its square
    only, so the patterns carry them: each square's worth is put in one region
    holding it (the first for the squares of the board's upper half, the
    turned-round image of that for the lower half, so the colour symmetry of
    the table maps each square's worth to its image), as the value of the
    region's patterns with a white man there; the table's antisymmetry
    subtracts the same for Black's men.  Material, king mobility and runaway
    men are dense features of the same definitions.  The two differ only in
    the trade term (the classic one weighs the material difference over the
    material left by the classic piece values, the dense one by men 1 and
    kings 3, in 32nds: its weight is the classic one / 32, rounded) and in
    the drawish flying-king endings (score / 8: the classic evaluation divides
    the material alone).  Antidraughts (`eval_losing_g`: men's mobility) and
    the orthogonal board (its own evaluation) have terms the learned
    features lack."""
    v = get_variant(variant)
    if v.goal == "losing" or v.geometry == "orthogonal":
        raise InvalidInputError(f"the learned features cannot express {v.name}'s classic evaluation")
    w = default_weights(v)
    lay = learned.layout(v)
    size = v.size
    coords = square_coords(size)
    n = len(coords)
    advance = list(w.advance) + [0] * size
    worth = np.zeros(n)
    for i, (r, c) in enumerate(coords):
        worth[i] = advance[size - 1 - r] + (w.back_guard if r == size - 1 else 0)
        if 2 <= c <= size - 3 and size // 2 - 2 <= r <= size // 2 + 1:
            worth[i] += w.centre
    regs = region_squares(size)
    owner = np.full(n, -1)
    for s in range(n // 2):
        owner[s] = next(k for k, sq in enumerate(regs) if s in sq)
        owner[n - 1 - s] = lay.nreg - 1 - owner[s]
    patterns = np.zeros((lay.nreg, NPAT, 2))
    index = np.arange(NPAT)
    for k, sq in enumerate(regs):
        for digit, s in enumerate(sq):
            if owner[s] == k:
                white_man = (index // 3**digit) % 3 == 1
                patterns[k, white_man, :] += worth[s]
    names = lay.dense
    dense = np.zeros((len(names), 2))
    dense[names.index("men")] = w.man
    for name in ("king1", "king2", "kings3"):
        dense[names.index(name)] = w.king
    dense[names.index("king_mobility")] = w.king_mobility
    dense[names.index("runaway")] = w.runaway
    dense[names.index("trade")] = round(w.trade / 32)
    return Model(v, patterns, dense, np.zeros((lay.squares, 2)))


def fit(
    model: Model,
    data: Data,
    scale: float,
    *,
    epochs: int = 10,
    batch: int = 4096,
    lr: float = 2.0,
    l2: float = 2.0,
    score_weight: float = 0.0,
    seed: int = 1,
    prior: Optional[np.ndarray] = None,
    report: Optional[Callable[[str], None]] = None,
) -> Dict[str, float]:
    """Minibatch Adam on the training positions; returns the losses.

    Loss per position: cross-entropy of the result under sigmoid(scale * eval);
    plus l2 * (scale * theta)^2 summed over the pattern weights, divided by
    the number of training positions (a Gaussian prior on the pattern
    weights of sd 1/sqrt(2 l2) in logits), centred on `prior` (pattern
    parameters of the model's shape; default zero).  The step decays linearly from lr
    to lr / 10.  With score_weight a > 0 the target is (1 - a) * result +
    a * sigmoid(scale * search score) (the self-play search's opinion); the
    reported losses are against the results, and `heldout_loss_target*` the
    held-out loss against the target less the target's own entropy."""
    rng = np.random.default_rng(seed)
    train = np.flatnonzero(~data.heldout)
    held = np.flatnonzero(data.heldout)
    if len(train) == 0 or len(held) == 0:
        raise InvalidInputError("too few games to split into training and held-out games")
    nreg = model.nreg
    npat = nreg * NPAT
    nd = len(model.layout.dense)
    # per symmetry term of the table (draughts.learned.Layout): its sign and
    # the parameters each position's regions read
    terms = model.layout.flat(data.idx)
    king_x = model.layout.king_features(data.king_sq.astype(np.int32))
    # theta: the pattern weights, then the dense and king-square weights,
    # whose features are one matrix
    theta = np.concatenate([model.patterns.reshape(npat, 2), model.dense, model.king_sq])
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    b1, b2, eps = 0.9, 0.999, 1e-8
    t = 0
    reg = l2 * scale * scale / len(train)
    centre = 0.0 if prior is None else np.asarray(prior, dtype=np.float64).reshape(npat, 2)
    target = data.result
    if score_weight:
        target = (1 - score_weight) * data.result + score_weight / (1.0 + np.exp(-scale * data.score))

    def dense_x(rows):
        return np.concatenate([data.dense[rows], king_x[rows]], axis=1).astype(np.float64)

    def forward(rows):
        pt = theta[:npat]
        pat = sum(sign * pt[flat[rows]].sum(axis=1) for sign, flat in terms)  # (b, 2)
        tot = pat + dense_x(rows) @ theta[npat:]
        ph = data.phase[rows]
        return tot[:, 0] * ph + tot[:, 1] * (1 - ph)

    def losses():
        return (
            log_loss(
                scale * np.concatenate([forward(c) for c in np.array_split(train, 1 + len(train) // 65536)]),
                data.result[train],
            ),
            log_loss(scale * forward(held), data.result[held]),
        )

    def held_target_loss():
        """The held-out cross-entropy against the blended target, less its own entropy (0 at a perfect fit)."""
        y = target[held]
        floor = log_loss(np.log(np.clip(y, 1e-12, 1.0)) - np.log(np.clip(1.0 - y, 1e-12, 1.0)), y)
        return log_loss(scale * forward(held), y) - floor

    start_train, start_held = losses()
    start_target = held_target_loss()
    if report:
        report(f"start: train {start_train:.5f} held-out {start_held:.5f} ({len(train)} + {len(held)} positions)")
    steps = epochs * ((len(train) + batch - 1) // batch)
    for epoch in range(epochs):
        order = rng.permutation(train)
        for k in range(0, len(order), batch):
            rows = order[k : k + batch]
            e = forward(rows)
            p = 1.0 / (1.0 + np.exp(-scale * e))
            gl = scale * (p - target[rows]) / len(rows)  # d loss / d eval
            ph = data.phase[rows]
            g_op, g_eg = gl * ph, gl * (1 - ph)
            grad = np.zeros_like(theta)
            for c, gc in ((0, g_op), (1, g_eg)):
                w = np.repeat(gc, nreg)
                for sign, flat in terms:
                    grad[:npat, c] += sign * np.bincount(flat[rows].ravel(), w, npat)
            grad[npat:] = dense_x(rows).T @ np.stack([g_op, g_eg], axis=1)
            grad[:npat] += 2 * reg * (theta[:npat] - centre)
            t += 1
            m = b1 * m + (1 - b1) * grad
            v = b2 * v + (1 - b2) * grad * grad
            step = lr * (1.0 - 0.9 * t / steps)  # decays linearly to a tenth
            theta -= step * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + eps)
        if report:
            tr, he = losses()
            report(f"epoch {epoch + 1}/{epochs}: train {tr:.5f} held-out {he:.5f}")
    model.patterns = theta[:npat].reshape(nreg, NPAT, 2).copy()
    model.dense = theta[npat : npat + nd].copy()
    model.king_sq = theta[npat + nd :].copy()
    final_train, final_held = losses()
    return {
        "train_loss_start": start_train,
        "heldout_loss_start": start_held,
        "train_loss": final_train,
        "heldout_loss": final_held,
        "heldout_loss_target_start": start_target,
        "heldout_loss_target": held_target_loss(),
        "train_positions": int(len(train)),
        "heldout_positions": int(len(held)),
    }


def run(args, report: Callable[[str], None]) -> Dict:
    """The generations of one `draughts train` run; returns the last manifest."""
    v = get_variant(args.variant)
    command = "draughts " + " ".join(shlex.quote(a) for a in _without_address(args.command_line))
    cluster = getattr(args, "cluster", None)
    out = args.out
    os.makedirs(out, exist_ok=True)
    weights = args.start_weights
    dirs: List[str] = []
    manifest: Dict = {}
    if weights and args.start_classic:
        raise InvalidInputError("--start-weights and --start-classic both name the start: give one")
    model = classic_model(v) if args.start_classic else Model(v)
    scale = None
    if weights:
        model = Model(v, *learned.read(weights, learned.layout(v)))
        # the start weights' own unit, when their manifest names it
        try:
            scale = float(learned.manifest(weights)["scale"])
        except (OSError, ValueError, KeyError, TypeError):
            scale = None
    start = os.path.basename(weights) if weights else "classic" if args.start_classic else "material"
    prior = model.patterns.copy() if args.l2_toward == "start" else None
    data_files: List[str] = []
    for d in args.data:
        found = selfplay.chunk_files(d) if os.path.isdir(d) else []
        if not found:
            raise InvalidInputError(f"--data {d}: no games-NNNNN.npz chunk files there")
        data_files.extend(found)
    if args.games == 0 and (not data_files or args.generations != 1):
        raise InvalidInputError("--games 0 fits the --data games once: give --data and no --generations")
    if cluster and args.games:
        ray_cluster.connect(cluster)  # a bad address: an error before any game or fit
    for gen in range(args.generations):
        if args.games:
            games_dir = os.path.join(out, f"games-{gen}")
            cfg = selfplay.SelfPlayConfig(
                v.name,
                nodes=args.nodes,
                eval="learned" if weights else "classic",
                weights=weights,
                seed=args.seed + gen,
            )
            npos = selfplay.generate(
                cfg,
                args.games,
                games_dir,
                workers=args.workers,
                niceness=args.nice,
                progress=args.progress,
                label=f"{v.name} generation {gen} games",
                cluster=cluster,
            )
            dirs.append(games_dir)
            where = " on the Ray cluster" if cluster else ""
            report(f"generation {gen}: {npos} positions in {games_dir} (played with {weights or 'classic'}{where})")
        chunks = (args.games + selfplay.CHUNK_GAMES - 1) // selfplay.CHUNK_GAMES
        raw = selfplay.load(data_files + [f for d in dirs for f in selfplay.chunk_files(d, chunks)])
        data = prepare(v, raw)
        classic = classic_scores(v, raw)
        if scale is None:
            train = ~data.heldout
            scale = fit_scale(classic[train], data.result[train])
            report(f"sigmoid scale {scale:.6f} per centi-man (fitted to the classic evaluation)")
        elif gen == 0:
            report(f"sigmoid scale {scale:.6f} per centi-man (of the start weights)")
        classic_loss = log_loss(scale * classic[data.heldout], data.result[data.heldout])
        report(f"held-out log-loss of the classic evaluation {classic_loss:.5f}")
        losses = fit(
            model,
            data,
            scale,
            epochs=args.epochs,
            batch=args.batch,
            lr=args.lr,
            l2=args.l2,
            score_weight=args.score_weight,
            seed=args.seed + gen,
            prior=prior,
            report=report,
        )
        path = os.path.join(out, f"weights-{gen + 1}.npz")
        manifest = dict(
            losses,
            heldout_loss_classic=classic_loss,
            command=command,
            variant=v.name,
            generation=gen + 1,
            seed=args.seed,
            games=int(len(np.unique(raw["game"]))),
            positions=int(len(raw["white"])),
            nodes=args.nodes,
            scale=scale,
            epochs=args.epochs,
            l2=args.l2,
            lr=args.lr,
            score_weight=args.score_weight,
            start=start,
            l2_toward=args.l2_toward,
            batch=args.batch,
            data=list(args.data),
            played_with=(os.path.basename(weights) if weights else "classic") if args.games else "none",
            played_on=("cluster" if cluster else "local") if args.games else "none",
        )
        learned.write(path, model.patterns, model.dense, model.king_sq, manifest)
        report(
            f"wrote {path}: held-out log-loss {losses['heldout_loss']:.5f} (start {losses['heldout_loss_start']:.5f})"
        )
        weights = path
    return manifest


def _without_address(argv: List[str]) -> List[str]:
    """The command line with --cluster's address (this network's) shown as ADDRESS."""
    out = list(argv)
    for i, a in enumerate(out):
        if a.startswith("--cl"):  # --cluster, as argparse takes it abbreviated
            if "=" in a:
                out[i] = a.split("=", 1)[0] + "=ADDRESS"
            elif i + 1 < len(out):
                out[i + 1] = "ADDRESS"
    return out


def register(sub) -> None:
    p = sub.add_parser("train", help="fit the learned evaluation to self-play games (numpy)")
    p.add_argument("--variant", "-v", default="international", help=f"variant ({', '.join(VARIANTS)})")
    p.add_argument("--out", "-o", required=True, help="run directory (games, weights; a rerun resumes)")
    p.add_argument(
        "--games",
        type=whole_number,
        default=2000,
        help="games per generation (default 2000; 0: fit the --data games only)",
    )
    p.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="DIR",
        help="a games directory of an earlier run whose games join every fit (repeatable)",
    )
    p.add_argument("--nodes", type=positive_int, default=3000, help="nodes a move in self-play (default 3000)")
    p.add_argument("--generations", type=positive_int, default=1, help="generations (default 1)")
    p.add_argument(
        "--start-weights",
        help="weights file the first generation's games are played with "
        "(default: the classic evaluation) and the fit starts from",
    )
    p.add_argument(
        "--start-classic",
        action="store_true",
        help="start the fit from the parameters that reproduce the classic evaluation "
        "(diagonal boards, not antidraughts) instead of material only",
    )
    p.add_argument("--epochs", type=positive_int, default=10, help="passes over the positions (default 10)")
    p.add_argument("--batch", type=positive_int, default=4096, help="minibatch size (default 4096)")
    p.add_argument("--lr", type=float, default=2.0, help="Adam step size in centi-men (default 2)")
    p.add_argument("--l2", type=float, default=2.0, help="L2 weight on the pattern weights (default 2)")
    p.add_argument(
        "--l2-toward",
        choices=("zero", "start"),
        default="zero",
        help="what the L2 term pulls the pattern weights toward: zero (default) or the run's starting parameters",
    )
    p.add_argument(
        "--score-weight",
        type=float,
        default=0.0,
        help="share of the self-play search score in the target (default 0: results only)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of games and minibatches (default 1)")
    p.add_argument(
        "--workers", type=positive_int, default=os.cpu_count() or 1, help="self-play processes (default: all cores)"
    )
    p.add_argument("--nice", type=int, default=10, help="niceness of the self-play processes (default 10)")
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        default=None,
        help="play the games as Ray tasks on the cluster at ADDRESS (HOST:PORT, ray://HOST:PORT "
        "or auto; needs the [cluster] extra); --workers and --nice are then unused",
    )
    p.add_argument(
        "--progress",
        choices=("on", "off"),
        default=None,
        help="progress bar on stderr (default: on a terminal, not under CI=true)",
    )
    p.set_defaults(func=cmd_train)


def cmd_train(args) -> int:
    args.progress = shown_by_default() if args.progress is None else args.progress == "on"
    t0 = time.time()

    def report(line: str) -> None:
        print(f"[{time.time() - t0:7.1f}s] {line}", file=sys.stderr, flush=True)

    manifest = run(args, report)
    print(
        f"held-out log-loss {manifest['heldout_loss']:.5f} (start {manifest['heldout_loss_start']:.5f}), "
        f"{manifest['positions']} positions, generation {manifest['generation']}"
    )
    return 0

"""The engine's tuning, each number declared once: the search's
(`SearchParams`: late-move reductions, futility, the aspiration window,
ProbCut's fitted figures per variant) and the classic evaluation's weights
per variant (`EvalWeights`).

The core (`draughts_core.search.Searcher`) holds no tuning of its own: an
Engine hands it these values by name (`set_tuning(**params.core())`,
`set_weights(**weights.core())`).  Every whole-number field of
`SearchParams` is an engine option as well (`draughts.options` makes one from
the field's metadata: its name with dashes, its range and help), so adding a
search number is one field here plus what the core does with it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Dict, List, Optional, Tuple

from draughts.variants import Variant


@dataclass(frozen=True)
class ProbCutFit:
    """ProbCut's figures for one variant and evaluation (fitted by
    benchmarks/probcut_fit.py): from depth `min_depth`, a search of
    `shallow_pct` per cent of the depth predicts the deep score as
    slope * shallow + intercept (centi-men) with a residual spread of
    sigma + sigma_per_ply * depth; a node is cut when the prediction clears
    beta by `t` spreads.  `captures`: tried at nodes with a capture on the
    board as well (else at quiet nodes only)."""

    min_depth: int
    shallow_pct: int
    slope: float
    intercept: int
    sigma: float
    sigma_per_ply: float
    t: float
    captures: bool = False

    def packed(self) -> Tuple[int, int, int, List[int], List[int]]:
        """The core's tables: (min_depth, slope x1024, intercept, shallow depth
        by depth, margin by depth), as `Searcher.set_probcut` takes them
        (`captures` goes by its name)."""
        shallow = [min(max(1, d * self.shallow_pct // 100), max(d - 1, 1)) for d in range(64)]
        margin = [max(0, round(self.t * (self.sigma + self.sigma_per_ply * d))) for d in range(64)]
        return self.min_depth, round(self.slope * 1024), self.intercept, shallow, margin


#: ProbCut per (variant, evaluation), fitted by benchmarks/probcut_fit.py and
#: kept where a node-limited SPRT against the search without it passed
#: (docs/decisions.md#probcut-only-where-it-passed); elsewhere off.
PROBCUT: Dict[Tuple[str, str], ProbCutFit] = {
    # probcut_fit.py --variant american --positions 300 --depth 14 (seed 2026):
    # shallow 50 %, slope 1.04, intercept -1, sigma_d = 23.0 + 1.36 d; t = 1.0
    ("american", "learned"): ProbCutFit(
        min_depth=4, shallow_pct=50, slope=1.04, intercept=-1, sigma=23.0, sigma_per_ply=1.36, t=1.0
    ),
    # probcut_fit.py --variant italian --positions 300 --depth 14 (seed 2026):
    # shallow 50 %, slope 1.044, intercept -1, sigma_d = 47.8 + 0.13 d; t = 1.5
    # (Buro's): at t = 1.0 the search missed the shot of tests/test_shots.py's
    # italian-1 at depths 8-11
    ("italian", "learned"): ProbCutFit(
        min_depth=4, shallow_pct=50, slope=1.044, intercept=-1, sigma=47.8, sigma_per_ply=0.13, t=1.5
    ),
    # Scan 2.0's form (its search.cpp, read to learn: from depth 3, a null-window
    # search of 40 % of the depth against beta + 5 centi-men a ply), not fitted:
    # kept by an SPRT at an equal 0.2 s a move (docs/decisions.md)
    ("international", "learned"): ProbCutFit(
        min_depth=3, shallow_pct=40, slope=1.0, intercept=0, sigma=0.0, sigma_per_ply=5.0, t=1.0
    ),
}


@dataclass(frozen=True)
class EvalWeights:
    """Evaluation weights in centi-men (100 = one man)."""

    man: int = 100
    king: int = 300
    advance: Tuple[int, ...] = ()
    back_guard: int = 6
    centre: int = 4
    runaway: int = 30
    king_mobility: int = 2
    trade: int = 60
    lone_king_draw: bool = True

    def core(self) -> Dict[str, Any]:
        """The keywords of the core's `Searcher.set_weights`."""
        values = asdict(self)
        values["advance"] = tuple(self.advance)
        return values


def default_weights(v: Variant) -> EvalWeights:
    """Weights per variant: a king's worth depends on flying or short kings and board size;
    antidraughts and breakthrough have their own goals."""
    rows = v.size
    if v.goal == "losing":
        # (eval_losing_g) own pieces and own moves are liabilities; men kept
        # back a little better than men advanced (they can still be given away)
        return EvalWeights(
            man=100,
            king=150,
            advance=(0,) * (rows - 3) + (-2, -4, 0),
            back_guard=0,
            centre=0,
            runaway=0,
            king_mobility=4,
            trade=0,
            lone_king_draw=False,
        )
    if v.goal == "breakthrough":
        # the first king wins: advancement and runaway men dominate
        advance = (0, 2, 5, 9, 14, 21, 30, 44, 64, 0) if rows == 10 else (0, 3, 7, 13, 22, 36, 56, 0)
        return EvalWeights(
            man=100,
            king=100,
            advance=advance,
            back_guard=8,
            centre=3,
            runaway=250,
            king_mobility=0,
            trade=30,
            lone_king_draw=False,
        )
    if v.halt_behind_king:
        # killer: two or three kings do win against a lone king
        return EvalWeights(
            king=320,
            advance=(0, 1, 2, 3, 5, 7, 9, 12, 16, 0),
            back_guard=4,
            centre=3,
            runaway=40,
            king_mobility=1,
            lone_king_draw=False,
        )
    if v.size == 10:
        return EvalWeights(
            king=320, advance=(0, 1, 2, 3, 5, 7, 9, 12, 16, 0), back_guard=4, centre=3, runaway=40, king_mobility=1
        )
    if v.geometry == "orthogonal":
        # turkish: kings fly along rows and columns and are worth about three
        # men; men start on the second and third rows and gain as they advance
        return EvalWeights(
            king=300,
            advance=(0, 0, 0, 4, 8, 13, 20, 0),
            back_guard=3,
            centre=3,
            runaway=0,
            king_mobility=2,
            lone_king_draw=False,
        )
    if v.flying_kings:
        # a king that must land right behind the piece it takes (thai) is caught by
        # two kings: a lone king is not drawish there
        return EvalWeights(
            king=250,
            advance=(0, 2, 4, 7, 10, 14, 20, 0),
            back_guard=6,
            centre=4,
            runaway=35,
            king_mobility=2,
            lone_king_draw=not v.king_lands_behind,
        )
    # short kings: worth about one and a half men; men are slow, guard the back rank
    king = 170 if not v.men_capture_kings else 150
    return EvalWeights(
        king=king,
        advance=(0, 2, 4, 6, 9, 12, 16, 0),
        back_guard=10,
        centre=5,
        runaway=30,
        king_mobility=3,
        lone_king_draw=False,
    )


def _knob(default: int, low: int, high: int, help: str) -> Any:
    """A whole-number search setting: its default, range and help (an engine option)."""
    return field(default=default, metadata={"min": low, "max": high, "help": help})


@dataclass(frozen=True)
class SearchParams:
    """The search's tuning.  Late-move reductions: a quiet move (no capture,
    no promotion, below the killers) from the `lmr_min_index`-th on, at
    depth `lmr_min_depth` and deeper, is searched
    lmr_base / 100 + ln(depth) ln(index) / (lmr_divisor / 100) plies
    shallower (a ply less at PV nodes).  Futility: at a non-PV node of depth
    1 to `futility_depth`, quiet moves are skipped when the static score plus
    `futility` centi-men a ply stays at or below alpha (never a move that
    offers a capture).  Aspiration: from depth `aspiration_min_depth`, each
    iteration searches a window of +-`aspiration` centi-men round the last
    score, doubled on each failure.  Horizon promotions (1: on): a quiet
    position at the horizon whose static score is below beta also searches
    its men's crowning moves (Scan 2.0's rule), instead of being only scored.
    ProbCut's figures (None: off).
    `default_search_params` gives a variant's defaults; `Engine.configure`
    changes the fields it names (by the option names `lmr-divisor`, ...)."""

    lmr_divisor: int = _knob(225, 1, 100000, "late-move reductions' divisor")
    lmr_base: int = _knob(75, 0, 1000, "late-move reductions' base, hundredths of a ply")
    lmr_min_depth: int = _knob(3, 1, 63, "late-move reductions from this depth")
    lmr_min_index: int = _knob(3, 1, 63, "late-move reductions from the move of this index (0 first)")
    #: futility pruning that never skips a move offering a capture (a shot):
    #: the margin and its evidence are in docs/decisions.md#futility-margin
    futility: int = _knob(120, 0, 10000, "futility margin in centi-men a ply, 0 off")
    futility_depth: int = _knob(2, 0, 63, "futility pruning at this depth and below")
    aspiration: int = _knob(35, 1, 10000, "the aspiration window's half width, centi-men")
    aspiration_min_depth: int = _knob(4, 1, 63, "aspiration windows from this depth")
    horizon_promotions: int = _knob(
        0, 0, 1, "at the horizon, a quiet position below beta searches its men's crowning moves (1) or not (0)"
    )
    horizon_exchanges: int = _knob(
        0,
        0,
        1,
        "at the horizon, a quiet position below beta without kings searches its men's moves that offer a"
        " one-for-one exchange with a certain recapture (1) or not (0); the diagonal boards' plain rules",
    )
    probcut: Optional[ProbCutFit] = None

    def core(self) -> Dict[str, int]:
        """The keywords of the core's `Searcher.set_tuning` (ProbCut apart:
        `ProbCutFit.packed` is `set_probcut`'s)."""
        return {f.name: getattr(self, f.name) for f in tuning_fields()}


def tuning_fields() -> List[Any]:
    """The whole-number fields of SearchParams (each an engine option)."""
    return [f for f in fields(SearchParams) if "help" in f.metadata]


def default_search_params(v: Variant, eval: str) -> SearchParams:
    """The search tuning an Engine uses for a variant and evaluation unless
    told otherwise: the one place where the defaults live."""
    return SearchParams(probcut=PROBCUT.get((v.name, eval)))

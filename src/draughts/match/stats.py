"""Match statistics: score, Elo with a 95 % interval, LOS, draw ratio,
pentanomial counts of game pairs, normalised Elo and the SPRT.

Elo is the logistic scale: an expected score `s` is `-400 log10(1/s - 1)` Elo.
The interval follows cutechess-cli: the standard error of the mean score per
game, taken 1.96 times either side of the score and turned into Elo.

The SPRT is the generalised SPRT on the logistic Elo scale.  The outcomes
are counted per game (trinomial: 0, 1/2, 1) or, when the games are played in
pairs on one opening with colours swapped, per pair (pentanomial: 0, 1/4,
1/2, 3/4, 1 of the pair's two points).  For each hypothesis the
maximum-likelihood distribution of the outcomes whose mean is the expected
score `s` (at elo0, elo1) is found by a Lagrange multiplier:

    p_i = f_i / (1 + lam (x_i - s)),   sum_i p_i (x_i - s) = 0

and LLR = N sum_i f_i log(p1_i / p0_i), with f the observed frequencies and N
the number of games or pairs.  Empty outcome classes count 1/1000 of an
outcome, so that a small or one-sided sample gives a finite LLR.  The bounds
are Wald's: log(beta / (1 - alpha)) and log((1 - beta) / alpha).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Dict, List, Optional, Sequence, Tuple

#: two-sided 95 % quantile of the normal distribution
Z95 = 1.959963984540054
#: Elo per unit of (score - 1/2) / sigma: normalised Elo (nElo) per standard deviation
NELO_SCALE = 800.0 / math.log(10.0)
#: weight given to an empty outcome class in the SPRT
SPRT_EPSILON = 1e-3


def score_of(wins: int, losses: int, draws: int) -> float:
    n = wins + losses + draws
    return (wins + 0.5 * draws) / n if n else 0.5


def elo_from_score(s: float) -> float:
    """Elo difference of an expected score (±inf at 1 and 0)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(wins: int, losses: int, draws: int) -> Tuple[float, float]:
    """(Elo, half-width of its 95 % interval) in cutechess-cli's way."""
    n = wins + losses + draws
    if n == 0:
        return 0.0, math.nan
    s = score_of(wins, losses, draws)
    elo = elo_from_score(s)
    var = (wins * (1.0 - s) ** 2 + losses * s**2 + draws * (0.5 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - Z95 * se, s + Z95 * se
    if lo <= 0.0 or hi >= 1.0:
        return elo, math.nan
    return elo, (elo_from_score(hi) - elo_from_score(lo)) / 2.0


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(the first player is the stronger), 0..1."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def pentanomial(pair_points: Sequence[float]) -> List[int]:
    """Counts of game pairs scoring 0, 1/2, 1, 3/2 and 2 points."""
    out = [0, 0, 0, 0, 0]
    for p in pair_points:
        k = int(round(2 * p))
        if not 0 <= k <= 4:
            raise ValueError(f"a pair scores 0 to 2 points, not {p}")
        out[k] += 1
    return out


def _moments(counts: Sequence[float], values: Sequence[float]) -> Tuple[float, float, float]:
    n = float(sum(counts))
    mean = sum(c * x for c, x in zip(counts, values)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, values)) / n
    return n, mean, var


TRINOMIAL_VALUES = (0.0, 0.5, 1.0)  # loss, draw, win
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


def nelo_interval(counts: Sequence[int], pentanomial_counts: bool) -> Tuple[float, float]:
    """Normalised Elo and the half-width of its 95 % interval.

    counts: (losses, draws, wins) or the five pentanomial counts."""
    values = PENTANOMIAL_VALUES if pentanomial_counts else TRINOMIAL_VALUES
    n = sum(counts)
    if n == 0:
        return 0.0, math.nan
    _, mean, var = _moments(counts, values)
    games = 2 * n if pentanomial_counts else n
    sigma = math.sqrt(2.0 * var) if pentanomial_counts else math.sqrt(var)
    if sigma == 0.0:
        return (0.0 if mean == 0.5 else math.copysign(math.inf, mean - 0.5)), math.nan
    return (mean - 0.5) / sigma * NELO_SCALE, Z95 * NELO_SCALE / math.sqrt(games)


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _mle(freqs: Sequence[float], values: Sequence[float], s: float) -> List[float]:
    """The distribution closest in likelihood to `freqs` whose mean is `s`."""
    d = [x - s for x in values]
    lo = max((-1.0 / di for di in d if di > 0), default=-1e12)
    hi = min((-1.0 / di for di in d if di < 0), default=1e12)

    def g(lam: float) -> float:  # decreasing in lam on (lo, hi)
        return sum(f * di / (1.0 + lam * di) for f, di in zip(freqs, d))

    a, b = lo, hi
    for _ in range(200):
        mid = (a + b) / 2.0
        if g(mid) > 0:
            a = mid
        else:
            b = mid
    lam = (a + b) / 2.0
    p = [f / (1.0 + lam * di) for f, di in zip(freqs, d)]
    total = sum(p)
    return [x / total for x in p]


def sprt_llr(elo0: float, elo1: float, counts: Sequence[int], pentanomial_counts: bool) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0).

    counts: (losses, draws, wins) or the five pentanomial counts."""
    n = sum(counts)
    if n == 0:
        return 0.0
    values = PENTANOMIAL_VALUES if pentanomial_counts else TRINOMIAL_VALUES
    regular = [c if c > 0 else SPRT_EPSILON for c in counts]
    total = sum(regular)
    freqs = [c / total for c in regular]
    p0 = _mle(freqs, values, score_from_elo(elo0))
    p1 = _mle(freqs, values, score_from_elo(elo1))
    return n * sum(f * math.log(b / a) for f, a, b in zip(freqs, p0, p1))


@dataclass(frozen=True)
class Sprt:
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0 and self.alpha + self.beta < 1.0):
            raise ValueError("SPRT alpha and beta must lie between 0 and 1 and add up to less than 1")
        if self.elo0 == self.elo1:
            raise ValueError("SPRT elo0 and elo1 must differ")

    @property
    def bounds(self) -> Tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def verdict(self, llr: float) -> Optional[str]:
        """ "H0" or "H1" once the LLR leaves the bounds, else None."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def json_number(x):
    """A value for JSON: NaN as null, infinities as "inf"/"-inf" (dicts and lists too)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {k: json_number(v) for k, v in x.items()}
    if isinstance(x, list):
        return [json_number(v) for v in x]
    return x


@dataclass
class Summary:
    """Everything reported about one pairing, from the first engine's side."""

    wins: int
    losses: int
    draws: int
    games: int
    score: float
    elo: float
    elo_error: float
    los: float
    draw_ratio: float
    pentanomial: List[int]
    pairs: int
    nelo: float
    nelo_error: float
    sprt: Optional[Dict] = None

    def to_json(self) -> Dict:
        return {k: json_number(v) for k, v in asdict(self).items()}


def summarise(
    points: Sequence[float], pairs: Sequence[float], sprt: Optional[Sprt] = None, paired: bool = False
) -> Summary:
    """Summary of the first engine's game points (1, 1/2, 0) and its points
    in complete game pairs (0..2).  With `paired` (each opening played twice,
    colours swapped) the normalised Elo and the SPRT use the pentanomial."""
    wins = sum(1 for p in points if p == 1.0)
    losses = sum(1 for p in points if p == 0.0)
    draws = sum(1 for p in points if p == 0.5)
    n = wins + losses + draws
    elo, err = elo_interval(wins, losses, draws)
    ptnml = pentanomial(pairs)
    use_pairs = paired and sum(ptnml) > 0
    tri = (losses, draws, wins)
    nelo, nerr = nelo_interval(ptnml if use_pairs else tri, use_pairs)
    verdict = None
    if sprt is not None:
        llr = sprt_llr(sprt.elo0, sprt.elo1, ptnml if use_pairs else tri, use_pairs)
        lower, upper = sprt.bounds
        verdict = {
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": llr,
            "lbound": lower,
            "ubound": upper,
            "verdict": sprt.verdict(llr),
            "model": "pentanomial" if use_pairs else "trinomial",
        }
    return Summary(
        wins,
        losses,
        draws,
        n,
        score_of(wins, losses, draws),
        elo,
        err,
        los(wins, losses),
        draws / n if n else 0.0,
        ptnml,
        sum(ptnml),
        nelo,
        nerr,
        verdict,
    )


def fmt_number(x: float, digits: int = 2) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def _margin(error: float) -> str:
    """` +/- E`, or nothing when the interval has no finite width (too few
    games, or a score of 0 or 1 within it)."""
    return f" +/- {error:.2f}" if math.isfinite(error) else ""


def report_lines(name1: str, name2: str, s: Summary, *, paired: bool = False) -> List[str]:
    """cutechess-cli's closing lines (and fastchess's pentanomial ones)."""
    lines = [
        f"Score of {name1} vs {name2}: {s.wins} - {s.losses} - {s.draws}  [{s.score:.3f}] {s.games}",
        f"Elo difference: {fmt_number(s.elo)}{_margin(s.elo_error)}, "
        f"LOS: {s.los * 100:.1f} %, DrawRatio: {s.draw_ratio * 100:.1f} %",
    ]
    if paired and s.pairs:
        p = s.pentanomial
        lines.append(
            f"Ptnml(0-2): [{p[0]}, {p[1]}, {p[2]}, {p[3]}, {p[4]}], nElo: {fmt_number(s.nelo)}{_margin(s.nelo_error)}"
        )
    if s.sprt is not None:
        llr, lb, ub = s.sprt["llr"], s.sprt["lbound"], s.sprt["ubound"]
        pct = llr / ub * 100.0 if llr >= 0 else llr / lb * 100.0
        line = f"SPRT: llr {llr:.3g} ({pct:.1f}%), lbound {lb:.3g}, ubound {ub:.3g}"
        if s.sprt["verdict"]:
            line += f" - {s.sprt['verdict']} was accepted"
        lines.append(line)
    return lines

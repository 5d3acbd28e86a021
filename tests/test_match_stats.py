"""Match statistics against values worked out here another way, and by hand."""

import math
import statistics

import pytest

from draughts.match import stats


def outcomes(w, l, d):
    return [1.0] * w + [0.0] * l + [0.5] * d


def elo_of(score):
    # the logistic model solved for the rating difference
    return 400.0 * math.log10(score / (1.0 - score))


@pytest.mark.parametrize("w,l,d", [(30, 20, 50), (12, 3, 5), (5, 9, 86), (1, 1, 0), (140, 60, 300)])
def test_elo_and_its_interval(w, l, d):
    xs = outcomes(w, l, d)
    n = len(xs)
    mean = statistics.fmean(xs)
    se = math.sqrt(statistics.pvariance(xs) / n)
    z = statistics.NormalDist().inv_cdf(0.975)
    elo, margin = stats.elo_interval(w, l, d)
    assert elo == pytest.approx(elo_of(mean), abs=1e-9)
    if not (0 < mean - z * se and mean + z * se < 1):
        assert math.isnan(margin)  # the interval leaves the scale
        return
    want_margin = (elo_of(mean + z * se) - elo_of(mean - z * se)) / 2
    assert margin == pytest.approx(want_margin, rel=1e-9)


def test_elo_by_hand():
    # 30 wins, 20 losses, 50 draws: score 0.55, 400 log10(0.55/0.45) = 34.86 Elo;
    # per-game variance (30*.45^2 + 20*.55^2 + 50*.05^2)/100 = 0.1225, se = 0.035,
    # 95 %: 0.55 +- 0.0686 -> 0.4814 .. 0.6186 -> -12.93 .. 84.01 Elo -> +- 48.47
    elo, margin = stats.elo_interval(30, 20, 50)
    assert elo == pytest.approx(34.86, abs=0.01)
    assert margin == pytest.approx(48.47, abs=0.02)
    assert stats.elo_interval(3, 0, 0)[0] == math.inf
    assert stats.elo_interval(0, 3, 0)[0] == -math.inf
    assert stats.elo_interval(0, 0, 4) == (0.0, 0.0)  # all draws: no spread at all


@pytest.mark.parametrize("w,l", [(30, 20), (3, 9), (0, 0), (7, 7), (100, 1)])
def test_los(w, l):
    if w + l == 0:
        assert stats.los(w, l) == 0.5
        return
    z = (w - l) / math.sqrt(w + l)
    assert stats.los(w, l) == pytest.approx(statistics.NormalDist().cdf(z), abs=1e-12)


def test_los_by_hand():
    # (30 - 20) / sqrt(50) = 1.4142 standard deviations: 92.1 %
    assert stats.los(30, 20) == pytest.approx(0.9214, abs=1e-4)


def test_pentanomial_counts_pairs():
    pairs = [(1, 0), (0.5, 0.5), (1, 1), (0, 0), (0.5, 1), (0, 0.5), (1, 0.5), (1, 1)]
    assert stats.pentanomial([a + b for a, b in pairs]) == [1, 1, 2, 2, 2]
    with pytest.raises(ValueError):
        stats.pentanomial([2.5])


def test_draw_ratio_and_summary_counts():
    points = outcomes(6, 2, 4)
    s = stats.summarise(points, [2.0, 1.0, 1.5, 0.5, 1.0, 2.0], paired=True)
    assert (s.wins, s.losses, s.draws, s.games) == (6, 2, 4, 12)
    assert s.draw_ratio == pytest.approx(4 / 12)
    assert s.score == pytest.approx(8 / 12)
    assert s.pentanomial == [0, 1, 2, 1, 2]
    assert s.pairs == 6


def test_nelo_by_hand():
    # trinomial 30/20/50: mean 0.55, sigma 0.35, nElo = 0.05/0.35 * 800/ln 10 = 49.63,
    # +- 1.96 * 347.44 / 10 = 68.10
    nelo, err = stats.nelo_interval((20, 50, 30), False)
    assert nelo == pytest.approx(0.05 / 0.35 * 800 / math.log(10), rel=1e-9)
    assert nelo == pytest.approx(49.63, abs=0.01)
    assert err == pytest.approx(68.10, abs=0.01)
    # pentanomial: per-pair mean of the pair's points halved; sigma per game sqrt(2 var)
    counts = (2, 10, 20, 12, 6)
    xs = [0.0] * 2 + [0.25] * 10 + [0.5] * 20 + [0.75] * 12 + [1.0] * 6
    mu, var = statistics.fmean(xs), statistics.pvariance(xs)
    nelo, err = stats.nelo_interval(counts, True)
    assert nelo == pytest.approx((mu - 0.5) / math.sqrt(2 * var) * 800 / math.log(10), rel=1e-9)
    assert err == pytest.approx(1.959964 * 800 / math.log(10) / math.sqrt(100), rel=1e-6)


def test_sprt_bounds_by_hand():
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6)  # log(0.05/0.95)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    lower, upper = stats.sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95))
    assert upper == pytest.approx(math.log(0.9 / 0.05))


def _trinomial_max_loglik(w, l, d, s):
    """max over distributions (pl, pd, pw) with pw + pd/2 = s of the log-likelihood,
    by golden-section search on pd (the likelihood is concave in it)."""
    lo, hi = max(0.0, 2 * s - 2 + 1e-15), min(1.0, 2 * s) - 1e-15
    lo = max(lo, 1e-15)

    def ll(pd):
        pw = s - pd / 2
        pl = 1 - pw - pd
        return w * math.log(pw) + l * math.log(pl) + d * math.log(pd)

    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    for _ in range(300):
        c, e = b - g * (b - a), a + g * (b - a)
        if ll(c) < ll(e):
            a = c
        else:
            b = e
    return ll((a + b) / 2)


@pytest.mark.parametrize(
    "w,l,d,elo0,elo1", [(30, 20, 50, 0, 10), (120, 100, 300, 0, 5), (10, 30, 60, -5, 5), (4, 2, 3, 0, 50)]
)
def test_sprt_llr_trinomial_is_the_likelihood_ratio(w, l, d, elo0, elo1):
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    want = _trinomial_max_loglik(w, l, d, s1) - _trinomial_max_loglik(w, l, d, s0)
    assert stats.sprt_llr(elo0, elo1, (l, d, w), False) == pytest.approx(want, abs=1e-6)


def test_sprt_llr_by_hand_and_the_normal_approximation():
    # one win and nothing else: the likeliest distribution of mean s puts s on
    # a win, so LLR = log(s1/s0) = log(0.57146/0.5) = 0.1336 (less a sliver for
    # the 1/1000 given to the empty classes)
    assert stats.sprt_llr(0, 50, (0, 0, 1), False) == pytest.approx(math.log(0.571463 / 0.5), abs=2e-3)
    # large samples: the LLR approaches N (s1-s0)(2m-s0-s1) / (2 var), per game or per pair
    for counts, penta in (((3000, 4000, 3500), False), ((200, 1800, 4000, 2100, 300), True)):
        values = (0, 0.25, 0.5, 0.75, 1) if penta else (0, 0.5, 1)
        n = sum(counts)
        m = sum(c * x for c, x in zip(counts, values)) / n
        var = sum(c * (x - m) ** 2 for c, x in zip(counts, values)) / n
        s0, s1 = 0.5, 1 / (1 + 10 ** (-5 / 400))
        approx = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)
        assert stats.sprt_llr(0, 5, counts, penta) == pytest.approx(approx, rel=0.01)


def test_sprt_verdicts():
    sprt = stats.Sprt(0, 10, 0.05, 0.05)
    assert sprt.verdict(3.0) == "H1"
    assert sprt.verdict(-3.0) == "H0"
    assert sprt.verdict(0.5) is None
    with pytest.raises(ValueError):
        stats.Sprt(5, 5)
    with pytest.raises(ValueError):
        stats.Sprt(0, 5, alpha=0.6, beta=0.5)
    strong = stats.summarise(outcomes(60, 10, 30), [], stats.Sprt(0, 20))
    assert strong.sprt["verdict"] == "H1"
    weak = stats.summarise(outcomes(10, 60, 30), [], stats.Sprt(0, 20))
    assert weak.sprt["verdict"] == "H0"


def test_report_lines_are_cutechess_lines():
    s = stats.summarise(outcomes(12, 5, 3), [2, 1, 1.5], stats.Sprt(0, 50), paired=True)
    lines = stats.report_lines("A", "B", s, paired=True)
    assert lines[0] == "Score of A vs B: 12 - 5 - 3  [0.675] 20"
    assert lines[1].startswith("Elo difference: ") and ", LOS: " in lines[1] and "DrawRatio: 15.0 %" in lines[1]
    assert lines[2].startswith("Ptnml(0-2): [0, 0, 1, 1, 1]")
    assert lines[3].startswith("SPRT: llr ") and "lbound -2.94, ubound 2.94" in lines[3]


def test_elo_margin_is_finite_or_left_out():
    points = [1.0] * 8 + [0.0] + [0.5]
    s = stats.summarise(points, [])
    lines = stats.report_lines("a", "b", s)
    assert "nan" not in " ".join(lines)
    assert lines[1].startswith("Elo difference: 301.") and "+/-" not in lines[1]
    s = stats.summarise([1.0, 0.0, 0.5, 1.0, 0.0, 1.0], [])
    assert "+/- " in stats.report_lines("a", "b", s)[1]

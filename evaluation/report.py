"""Statistics and reports of a tournament: means with 95% intervals, paired differences, metrics, files.

Why intervals are computed per *deal*: in duplicate mode one deal (one seed)
is replayed with the agents permuted over the seats, so the games of a deal
are correlated: the same strong cards go round the table. The independent
unit is therefore the deal; every statistic here first sums an agent's games
within a deal and then treats the deals as the sample. That is also what
makes paired differences tight: two agents' results on the same deal share
the luck of the cards, and the difference cancels it.

* per game: the mean over the agent's seat-games (an agent sits in every seat
  equally often per deal, so the plain per-deal mean is fair); a Student-t
  interval over the deals;
* per unit (hand / round / deal, where the game marks them with events): a
  ratio estimator sum(reward) / sum(units) with a delta-method interval, so
  games with a varying number of rounds are weighted correctly;
* win rate: an agent's share of first places (a tie for the top splits the
  win); the fair share is 1/players. In a one-seat game (Caribbean stud) it
  is the share of games with a positive result;
* paired differences: per deal, agent i's mean minus agent j's mean;
* bidding metrics (games with predictions or bids): exact-bid rate, mean
  |bid − tricks|, the distribution of bids; betting metrics (games whose
  action names say fold / raise / bet): fold rate among decisions where a
  fold was legal, raise rate (bet or raise) where one was legal.

Writers: Markdown (also printed by the CLI), CSV (one row per agent, plus the
raw per-game rows), JSON (everything), and a matplotlib figure.
"""

from __future__ import annotations

import csv
import json
import math
import statistics
import textwrap
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pokerzoo.evaluation.outputs import whole_folder

if TYPE_CHECKING:
    from pokerzoo.evaluation.tournament import TournamentResult

LEVEL = 0.95


# --------------------------------------------------------------------------- Student t quantile
def _t_cdf_central(t: float, df: int) -> float:
    """P(|T| <= t) for integer ``df`` (Abramowitz & Stegun 26.7.3 / 26.7.4, exact finite sums)."""
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2 == 1:
        total, term = 0.0, 1.0
        if df > 1:
            total = term
            for k in range(1, (df - 3) // 2 + 1):
                term *= c2 * (2 * k) / (2 * k + 1)
                total += term
            total *= s * math.cos(theta)
        return 2.0 / math.pi * (theta + total)
    total, term = 1.0, 1.0
    for k in range(1, (df - 2) // 2 + 1):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return s * total


def _t_pdf(t: float, df: int) -> float:
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_c - (df + 1) / 2 * math.log1p(t * t / df))


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (p > 0.5) of Student's t with ``df`` degrees of freedom.

    Cornish–Fisher start, then Newton steps on the exact CDF for df ≤ 1000
    (beyond that the expansion alone is exact to ~1e-12). Written here so
    that the package does not need scipy for one number.
    """
    if not 0.5 < p < 1:
        raise ValueError(f"t_quantile needs 0.5 < p < 1, got {p}")
    if df < 1:
        raise ValueError(f"t_quantile needs df >= 1, got {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = statistics.NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    t = z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    if df <= 1000:
        target = 2 * p - 1
        for _ in range(8):
            step = (_t_cdf_central(t, df) - target) / (2 * _t_pdf(t, df))
            t -= step
            if abs(step) < 1e-13:
                break
    return t


# --------------------------------------------------------------------------- estimates
@dataclass(frozen=True)
class Estimate:
    """A mean with its two-sided interval; ``low``/``high`` are NaN when it cannot be computed (n < 2)."""

    mean: float
    low: float
    high: float
    n: int
    sd: float = math.nan

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def covers(self, value: float) -> bool:
        return self.low <= value <= self.high

    def text(self, digits: int = 3, sign: bool = True) -> str:
        if math.isnan(self.mean):
            return "n/a"
        f = f"{{:+.{digits}f}}" if sign else f"{{:.{digits}f}}"
        if math.isnan(self.low):
            return f.format(self.mean)
        return f"{f.format(self.mean)} ± {self.half_width:.{digits}f}"

    def clipped(self, low: float, high: float) -> Estimate:
        """The interval cut to the range the quantity can take (a rate's interval stays within 0..1)."""
        if math.isnan(self.low):
            return self
        return Estimate(self.mean, max(self.low, low), min(self.high, high), self.n, self.sd)

    def to_dict(self) -> dict:
        return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in asdict(self).items()}


NAN_ESTIMATE = Estimate(math.nan, math.nan, math.nan, 0)


def mean_ci(values: Sequence[float] | np.ndarray, level: float = LEVEL) -> Estimate:
    """Mean and Student-t interval of independent samples."""
    x = np.asarray(values, dtype=np.float64)
    n = int(x.size)
    if n == 0:
        return NAN_ESTIMATE
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    sd = float(x.std(ddof=1))
    half = t_quantile(0.5 + level / 2, n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, sd)


def ratio_ci(
    numerators: Sequence[float] | np.ndarray, denominators: Sequence[float] | np.ndarray, level: float = LEVEL
) -> Estimate:
    """sum(num) / sum(den) over independent clusters, with a delta-method (linearisation) interval.

    Used for per-round means when the number of rounds differs between games:
    averaging per-game ratios would overweight short games.
    """
    y = np.asarray(numerators, dtype=np.float64)
    u = np.asarray(denominators, dtype=np.float64)
    n = int(y.size)
    if n == 0 or u.sum() <= 0:
        return NAN_ESTIMATE
    ratio = float(y.sum() / u.sum())
    if n < 2:
        return Estimate(ratio, math.nan, math.nan, n)
    residual = y - ratio * u
    se = math.sqrt(float((residual**2).sum()) / (n * (n - 1))) / float(u.mean())
    half = t_quantile(0.5 + level / 2, n - 1) * se
    return Estimate(ratio, ratio - half, ratio + half, n, se * math.sqrt(n))


# --------------------------------------------------------------------------- tournament summary
def per_deal_arrays(result: TournamentResult) -> dict[str, np.ndarray]:
    """Per agent and deal: summed reward, seat-games, units and win shares (the statistics' raw input)."""
    a, d = len(result.labels), result.deals
    out = {k: np.zeros((a, d)) for k in ("reward", "games", "units", "wins")}
    for rec in result.records:
        for seat, agent in enumerate(rec.seats):
            out["reward"][agent, rec.deal] += rec.rewards[seat]
            out["games"][agent, rec.deal] += 1
            out["units"][agent, rec.deal] += rec.units if rec.units is not None else 0
            out["wins"][agent, rec.deal] += rec.win_shares[seat]
    return out


def _bidding(records, agent: int, deals: int, level: float) -> dict | None:
    """Bids of one agent; the exact-bid rate's interval is clustered by deal like every other statistic."""
    pairs, exact, count = [], np.zeros(deals), np.zeros(deals)
    for rec in records:
        for seat, bid, tricks in rec.bids:
            if rec.seats[seat] == agent:
                pairs.append((bid, tricks))
                exact[rec.deal] += bid == tricks
                count[rec.deal] += 1
    if not pairs:
        return None
    bids = np.array([p[0] for p in pairs])
    tricks = np.array([p[1] for p in pairs])
    values, counts = np.unique(bids, return_counts=True)
    played = count > 0
    return {
        "bids": len(pairs),
        "exact_rate": ratio_ci(exact[played], count[played], level).clipped(0.0, 1.0).to_dict(),
        "mean_abs_error": float(np.abs(bids - tricks).mean()),
        "mean_bid": float(bids.mean()),
        "mean_tricks": float(tricks.mean()),
        "distribution": {int(v): int(c) for v, c in zip(values, counts)},
    }


def _betting(records, agent: int) -> dict | None:
    c = np.zeros(4, dtype=np.int64)  # fold legal, fold taken, raise legal, raise taken
    for rec in records:
        for seat, a in enumerate(rec.seats):
            if a == agent:
                c += rec.betting[seat]
    if c[0] == 0 and c[2] == 0:
        return None
    return {
        "fold_decisions": int(c[0]),
        "folds": int(c[1]),
        "fold_rate": float(c[1] / c[0]) if c[0] else None,
        "raise_decisions": int(c[2]),
        "raises": int(c[3]),
        "raise_rate": float(c[3] / c[2]) if c[2] else None,
    }


def tablemate_effects(
    result: TournamentResult, arrays: dict[str, np.ndarray], level: float = LEVEL
) -> list[dict] | None:
    """For every agent and every other agent: its reward per seat-game at tables where the other sits, minus at
    tables where the other does not, paired by deal (a deal's difference of the two means; deals with only one
    kind of table are left out). None for one-seat games and where no agent ever sits out (every agent at
    every table).

    Why: a round-robin's mean is taken over mixed tables, so an agent's place in it mixes how it plays with
    how much it takes from each tablemate. An agent that leads because it exploits ``calling_station`` and one
    that leads against the strong agents read alike in the means; this says which is which, deal-paired like
    the other intervals. ``arrays``: the result's ``per_deal_arrays`` (each agent's reward and seat-games per deal).
    """
    a, d = len(result.labels), result.deals
    if result.num_players == 1 or all(len(set(rec.seats)) == a for rec in result.records):
        return None
    with_reward = np.zeros((d, a, a))  # [deal, agent, tablemate]: reward and seat-games where the tablemate sits
    with_count = np.zeros((d, a, a))
    for rec in result.records:
        present = np.zeros(a)
        game_reward = np.zeros(a)
        game_count = np.zeros(a)
        for seat, agent in enumerate(rec.seats):
            present[agent] = 1.0
            game_reward[agent] += rec.rewards[seat]
            game_count[agent] += 1
        with_reward[rec.deal] += np.outer(game_reward, present)
        with_count[rec.deal] += np.outer(game_count, present)
    out = []
    for i in range(a):
        for j in range(a):
            if i == j:
                continue
            w_n, wo_n = with_count[:, i, j], arrays["games"][i] - with_count[:, i, j]
            both = (w_n > 0) & (wo_n > 0)
            with_mean = with_reward[both, i, j] / w_n[both]
            without_mean = (arrays["reward"][i, both] - with_reward[both, i, j]) / wo_n[both]
            out.append(
                {
                    "agent": result.labels[i],
                    "tablemate": result.labels[j],
                    "deals": int(both.sum()),
                    "difference": mean_ci(with_mean - without_mean, level).to_dict(),
                }
            )
    return out


def summarize(result: TournamentResult, level: float = LEVEL) -> dict:
    """Everything the report shows, as one JSON-ready dict."""
    arrays = per_deal_arrays(result)
    games = arrays["games"]
    agents = []
    per_game = np.divide(arrays["reward"], games, out=np.full_like(games, np.nan), where=games > 0)
    win_rate = np.divide(arrays["wins"], games, out=np.full_like(games, np.nan), where=games > 0)
    for i, label in enumerate(result.labels):
        played = games[i] > 0
        decisions = np.zeros(2, dtype=np.int64)
        for rec in result.records:
            for seat, a in enumerate(rec.seats):
                if a == i:
                    decisions += rec.decisions[seat]
        row: dict[str, Any] = {
            "agent": label,
            "spec": result.agents[i],
            "games": int(games[i].sum()),  # seat-games: an agent seated twice in a game counts twice
            "games_in": sum(i in rec.seats for rec in result.records),
            "deals": int(played.sum()),
            "reward_per_game": mean_ci(per_game[i, played], level).to_dict(),
            "win_rate": mean_ci(win_rate[i, played], level).clipped(0.0, 1.0).to_dict(),
            "bidding_decisions": int(decisions[0]),
            "play_decisions": int(decisions[1]),
        }
        if result.unit is not None and arrays["units"][i].sum() > 0:
            row[f"reward_per_{result.unit}"] = ratio_ci(
                arrays["reward"][i, played], arrays["units"][i, played], level
            ).to_dict()
            row[f"{result.unit}s"] = int(arrays["units"][i].sum())
        bidding = _bidding(result.records, i, result.deals, level)
        if bidding is not None:
            row["bidding"] = bidding
        betting = _betting(result.records, i)
        if betting is not None:
            row["betting"] = betting
        agents.append(row)

    pairs = []
    for i in range(len(result.labels)):
        for j in range(i + 1, len(result.labels)):
            both = (games[i] > 0) & (games[j] > 0)
            diff = mean_ci(per_game[i, both] - per_game[j, both], level)
            pairs.append(
                {
                    "a": result.labels[i],
                    "b": result.labels[j],
                    "deals": int(both.sum()),
                    "difference": diff.to_dict(),
                }
            )

    seats = None
    if result.num_players > 1:
        per_seat = np.zeros((result.num_players, result.deals))
        count = np.zeros((result.num_players, result.deals))
        for rec in result.records:
            per_seat[:, rec.deal] += rec.rewards
            count[:, rec.deal] += 1
        seats = [mean_ci(per_seat[s] / count[s], level).to_dict() for s in range(result.num_players)]

    return {
        "game": result.env_name,
        "config": result.config,
        "agents_given": list(result.agents),
        "deals": result.deals,
        "games": len(result.records),
        "seatings": [list(s) for s in result.seatings],
        "seating": result.seating,
        "duplicate": result.duplicate,
        "seed": result.seed,
        "num_players": result.num_players,
        "unit": result.unit,
        "level": level,
        "workers": result.workers,
        "seconds": round(result.seconds, 3),
        "truncated_games": sum(rec.truncated for rec in result.records),
        "agents": agents,
        "paired_differences": pairs,
        "tablemate_effects": tablemate_effects(result, arrays, level),
        "seat_means": seats,
    }


# --------------------------------------------------------------------------- Markdown
def _est(d: dict | None, digits: int = 3, sign: bool = True) -> str:
    if d is None:
        return "n/a"
    return Estimate(*(math.nan if d[k] is None else d[k] for k in ("mean", "low", "high")), d["n"]).text(
        digits, sign
    )


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def show_unit(summary: dict) -> bool:
    """Whether per-unit means say more than per-game ones: some game played more (or fewer) than one unit."""
    unit = summary["unit"]
    if unit is None:
        return False
    with_unit = [a for a in summary["agents"] if f"reward_per_{unit}" in a]
    return bool(with_unit) and any(a[f"{unit}s"] != a["games"] for a in with_unit)


def markdown(summary: dict) -> str:
    """The report as Markdown: the main table first (what the CLI prints), then the details."""
    unit = summary["unit"]
    lvl = f"{round(100 * summary['level'])}%"
    # With fewer agents than seats an agent sits in several seats of one game; its row then counts seats.
    repeated = any(a.get("games_in", a["games"]) != a["games"] for a in summary["agents"])
    header = ["agent", "seat-games" if repeated else "games", f"reward/game ({lvl} CI)"]
    if show_unit(summary):
        header.append(f"reward/{unit} ({lvl} CI)")
    header.append("win rate" if summary["num_players"] > 1 else "winning games")
    rows = []
    for a in summary["agents"]:
        row = [f"`{a['agent']}`", str(a["games"]), _est(a["reward_per_game"])]
        if len(header) == 5:
            row.append(_est(a.get(f"reward_per_{unit}")))
        row.append(_pct_est(a["win_rate"]))
        rows.append(row)
    mode = "duplicate deals" if summary["duplicate"] else "independent deals"
    if summary.get("seating") == "shuffled":
        mode += ", the rotations of each deal's own order of the agents"
    if summary.get("engine") == "batched":
        mode += ", on the batched engine"
    pieces = summary.get("pooled_from")
    if pieces and len(pieces) == 1:
        seeds = f"seed {pieces[0]['seed']}, re-read from {pieces[0]['folder']}"
    elif pieces:
        seeds = f"pooled from {len(pieces)} tournaments, seeds {', '.join(str(p['seed']) for p in pieces)}"
    else:
        seeds = f"seed {summary['seed']}"
    lines = [
        f"## {summary['game']}: {summary['deals']} deals × {len(summary['seatings'])} seatings = "
        f"{summary['games']} games ({mode}, {seeds})",
        "",
    ]
    if summary["config"]:
        lines += ["Options: " + ", ".join(f"`{k}={v!r}`" for k, v in summary["config"].items()), ""]
    lines += _table(header, rows)
    if repeated:
        lines += [
            "",
            f"Seat-games: the agents repeat around the table ({len(summary['agents_given'])} agents, "
            f"{summary['num_players']} seats), so an agent seated k times in a game counts k; rewards are per seat.",
        ]
    if summary["num_players"] > 1:
        lines += [
            "",
            f"Win rate: share of first places per seat played (ties split); "
            f"fair share 1/{summary['num_players']}.",
        ]

    if summary["paired_differences"]:
        lines += ["", f"### Paired differences (same deals, reward/game, {lvl} CI)", ""]
        rows = []
        for p in summary["paired_differences"]:
            d = p["difference"]
            sig = ""
            if d["low"] is not None:
                sig = "yes" if d["low"] > 0 or d["high"] < 0 else "no"
            rows.append([f"`{p['a']}` − `{p['b']}`", str(p["deals"]), _est(d), sig])
        lines += _table(["pair", "deals", "difference", "significant"], rows)

    effects = summary.get("tablemate_effects")
    if effects:
        labels = [a["agent"] for a in summary["agents"]]
        cell = {(e["agent"], e["tablemate"]): _est(e["difference"], 2) for e in effects}
        lines += [
            "",
            f"### Tablemates (reward/game with the column's agent at the table minus without it, same deals, {lvl} CI)",
            "",
        ]
        rows = [[f"`{a}`", *("" if a == b else cell[a, b] for b in labels)] for a in labels]
        lines += _table(["agent \\ tablemate", *(f"`{b}`" for b in labels)], rows)
        lines += ["", "A column reads who gains from that agent's company (a weak agent's column is positive)."]

    bidding = [a for a in summary["agents"] if "bidding" in a]
    if bidding:
        lines += ["", "### Bidding", ""]
        rows = []
        for a in bidding:
            b = a["bidding"]
            total = sum(b["distribution"].values())
            dist = " ".join(f"{k}:{100 * v / total:.0f}%" for k, v in b["distribution"].items())
            rows.append(
                [
                    f"`{a['agent']}`",
                    str(b["bids"]),
                    _pct_est(b["exact_rate"]),
                    f"{b['mean_abs_error']:.2f}",
                    f"{b['mean_bid']:.2f}",
                    f"{b['mean_tricks']:.2f}",
                    dist,
                ]
            )
        lines += _table(
            [
                "agent",
                "bids",
                "exact",
                "mean abs(bid − tricks)",
                "mean bid",
                "mean tricks",
                "bid distribution",
            ],
            rows,
        )

    betting = [a for a in summary["agents"] if "betting" in a]
    if betting:
        lines += ["", "### Betting", ""]
        rows = []
        for a in betting:
            b = a["betting"]
            rows.append(
                [
                    f"`{a['agent']}`",
                    f"{_pct(b['fold_rate'])} of {b['fold_decisions']}",
                    f"{_pct(b['raise_rate'])} of {b['raise_decisions']}",
                ]
            )
        lines += _table(["agent", "fold rate (when legal)", "raise/bet rate (when legal)"], rows)

    if summary["seat_means"]:
        lines += ["", f"### Reward per game by seat (all agents, {lvl} CI)", ""]
        lines += _table(
            ["seat", "reward/game"], [[str(s), _est(m)] for s, m in enumerate(summary["seat_means"])]
        )
    if summary["truncated_games"]:
        lines += ["", f"{summary['truncated_games']} games ended on a safety cap (truncated)."]
    if pieces:
        lines += ["", "Pooled: " + "; ".join(f"{p['folder']} ({p['deals']} deals, seed {p['seed']})" for p in pieces)]
        if not all(p["tallies"] for p in pieces):
            lines += ["Bidding and betting statistics left out: some pieces' games.csv predate their columns."]
    lines += [
        "",
        f"{summary['games']} games in {summary['seconds']:.1f} s on {summary['workers']} worker(s).",
    ]
    return "\n".join(lines) + "\n"


def _pct_est(d: dict) -> str:
    """A rate as a percentage: ``mean ± half-width``, or ``mean [low, high]`` when the interval is clipped."""
    if d["mean"] is None:
        return "n/a"
    if d["low"] is None:
        return f"{100 * d['mean']:.1f}%"
    below, above = d["mean"] - d["low"], d["high"] - d["mean"]
    if abs(below - above) > 1e-9:
        return f"{100 * d['mean']:.1f}% [{100 * d['low']:.1f}, {100 * d['high']:.1f}]"
    return f"{100 * d['mean']:.1f}% ± {100 * above:.1f}"


# --------------------------------------------------------------------------- files
def write_json(summary: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(summary, indent=2, allow_nan=False) + "\n")


def write_csv(summary: dict, path: str | Path) -> None:
    """One row per agent: every estimate as mean/low/high columns, plus the bidding and betting figures."""
    unit = summary["unit"]
    estimates = ["reward_per_game", f"reward_per_{unit}" if unit else None, "win_rate"]
    estimates = [e for e in estimates if e is not None]
    fields = ["agent", "spec", "games", "deals"]
    for e in estimates:
        fields += [f"{e}_mean", f"{e}_low", f"{e}_high"]
    fields += ["exact_bid_rate", "mean_abs_bid_error", "mean_bid", "fold_rate", "raise_rate"]
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for a in summary["agents"]:
            row: dict[str, Any] = {k: a[k] for k in ("agent", "spec", "games", "deals")}
            for e in estimates:
                est = a.get(e) or {}
                for part in ("mean", "low", "high"):
                    row[f"{e}_{part}"] = est.get(part)
            if "bidding" in a:
                row["exact_bid_rate"] = a["bidding"]["exact_rate"]["mean"]
                row["mean_abs_bid_error"] = a["bidding"]["mean_abs_error"]
                row["mean_bid"] = a["bidding"]["mean_bid"]
            if "betting" in a:
                row["fold_rate"] = a["betting"]["fold_rate"]
                row["raise_rate"] = a["betting"]["raise_rate"]
            w.writerow(row)


GAMES_CSV_COLUMNS = ("deal", "seating", "seed", "seat", "agent", "reward", "units", "win_share", "steps", "truncated")
# Per seat, what the bidding and betting statistics count (so pooling games.csv files loses nothing);
# ``bids``: the seat's "bid/tricks" pairs, space-separated, in the order they were made.
GAMES_CSV_TALLIES = ("bidding_decisions", "other_decisions", "fold_legal", "folded", "raise_legal", "raised", "bids")


def write_games_csv(result: TournamentResult, path: str | Path, tallies: bool = True) -> None:
    """The raw data: one row per game and seat (deal, seating, seed, seat, agent, reward, units, wins, and
    the seat's decision, betting and bid tallies): everything ``summarize`` reads, which is what lets
    ``pokerzoo.evaluation.pooling`` pool several tournaments' files into one report. ``tallies=False``
    leaves those last columns out (a pool of files that did not all have them)."""
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(GAMES_CSV_COLUMNS + (GAMES_CSV_TALLIES if tallies else ()))
        for rec in result.records:
            for seat, agent in enumerate(rec.seats):
                bids = " ".join(f"{bid}/{tricks}" for s, bid, tricks in rec.bids if s == seat)
                w.writerow(
                    [
                        rec.deal,
                        rec.lineup,
                        rec.seed,
                        seat,
                        result.labels[agent],
                        rec.rewards[seat],
                        "" if rec.units is None else rec.units,
                        rec.win_shares[seat],
                        rec.steps,
                        int(rec.truncated),
                        *((*rec.decisions[seat], *rec.betting[seat], bids) if tallies else ()),
                    ]
                )


PANEL_INCHES, LABEL_INCHES_PER_CHAR, TITLE_CHARS_PER_INCH = 3.6, 0.075, 13


def figure(summary: dict):
    """The means figure: one row per agent, a panel per statistic, room made for long labels and titles."""
    # Deferred: matplotlib takes ~0.8 s to import; only drawing the figure needs it.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = summary["agents"]
    labels = [a["agent"] for a in agents]
    panels = [("reward_per_game", "reward per game")]
    unit = summary["unit"]
    if show_unit(summary) and all(f"reward_per_{unit}" in a for a in agents):
        panels.append((f"reward_per_{unit}", f"reward per {unit}"))
    panels.append(("win_rate", "win rate" if summary["num_players"] > 1 else "share of winning games"))
    label_inches = 0.4 + LABEL_INCHES_PER_CHAR * max(len(x) for x in labels)
    width = label_inches + PANEL_INCHES * len(panels)
    fig, axes = plt.subplots(
        1,
        len(panels),
        figsize=(width, 0.45 * len(labels) + 2.0),
        squeeze=False,
        layout="constrained",
        sharey=True,
    )
    y = np.arange(len(labels))
    wrap = max(12, int(PANEL_INCHES * TITLE_CHARS_PER_INCH))
    for ax, (key, title) in zip(axes[0], panels):
        means = np.array([np.nan if a[key]["mean"] is None else a[key]["mean"] for a in agents], dtype=float)
        lows = np.array([np.nan if a[key]["low"] is None else a[key]["low"] for a in agents], dtype=float)
        highs = np.array([np.nan if a[key]["high"] is None else a[key]["high"] for a in agents], dtype=float)
        err = np.vstack([np.nan_to_num(means - lows), np.nan_to_num(highs - means)])
        ax.errorbar(means, y, xerr=err, fmt="o", capsize=4)
        if key != "win_rate":
            ax.axvline(0, color="grey", lw=0.8, ls="--")
        elif summary["num_players"] > 1:
            ax.axvline(1 / summary["num_players"], color="grey", lw=0.8, ls="--")  # the fair share
        ax.set_yticks(y, labels, fontsize=9)
        ax.tick_params(axis="y", labelleft=ax is axes[0][0])
        ax.set_title(textwrap.fill(f"{title} ({round(100 * summary['level'])}% CI)", wrap), fontsize=10)
    axes[0][0].invert_yaxis()
    fig.suptitle(textwrap.fill(f"{summary['game']}: {summary['deals']} deals", int(width * 11)), fontsize=11)
    return fig


def plot(summary: dict, path: str | Path) -> None:
    """Means with their intervals per agent: reward per game, and win rate beside it."""
    # Deferred: matplotlib takes ~0.8 s to import; only drawing needs it (figure() has imported it by now).
    import matplotlib.pyplot as plt

    fig = figure(summary)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_all(
    result: TournamentResult,
    out_dir: str | Path,
    summary: dict | None = None,
    figure: bool = True,
    tallies: bool = True,
) -> dict[str, Path]:
    """Write report.md, summary.csv, games.csv, report.json (and means.png) as the folder ``out_dir``.

    Whole or not at all: the files are written into a temporary folder beside it, which then replaces
    ``out_dir`` (``pokerzoo.evaluation.outputs``); a failure leaves no half-written report.
    """
    out = Path(out_dir)
    summary = summary if summary is not None else summarize(result)
    names = {"markdown": "report.md", "csv": "summary.csv", "games_csv": "games.csv", "json": "report.json"}
    if figure:
        names["figure"] = "means.png"
    with whole_folder(out) as tmp:
        (tmp / names["markdown"]).write_text(markdown(summary))
        write_csv(summary, tmp / names["csv"])
        write_games_csv(result, tmp / names["games_csv"], tallies)
        write_json(summary, tmp / names["json"])
        if figure:
            plot(summary, tmp / names["figure"])
    return {key: out / name for key, name in names.items()}

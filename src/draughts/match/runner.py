"""The match runner: schedule, concurrency (threads or Ray tasks), output,
statistics, PDN and JSON files, the state file and resuming.

    settings = MatchSettings(engines=[...], variant="american", games=20)
    result = Match(settings).run()

Games run on local threads, each with its own engine processes (kept for the
next game unless `restart=on`), or with `cluster=ADDRESS` as Ray actors on an
existing cluster, one per concurrent game.  Either way the same referee
(`draughts.match.game.play_game`) plays the game and the driver prints,
counts and writes the records as they arrive.
"""

from __future__ import annotations

import gc
import hashlib
import json
import math
import os
import random
import shutil
import sys
import time
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

from draughts import pdn
from draughts._files import load_json, save_json, save_text
from draughts.errors import ClusterLost, InvalidInputError
from draughts.match import openings as op
from draughts.match import schedule as sched
from draughts.match import stats
from draughts.match.console import Console, progress_text
from draughts.match.engines import unique_names
from draughts.match.executors import LocalExecutor, RayExecutor
from draughts.match.game import GameJob, GameRecord, record_to_game
from draughts.match.live import LiveBoard
from draughts.match.settings import MatchSettings, OpeningSettings

__all__ = ["Match", "MatchResult", "MatchSettings", "OpeningSettings", "Console", "latency_figures", "load_state"]

STATE_VERSION = 1
#: seconds between the interpreter's thread switches while games run (the
#: default 5 ms would add up to that to a move's measured time)
SWITCH_INTERVAL = 0.0005


@dataclass
class MatchResult:
    records: List[GameRecord]
    schedule: List[GameJob]
    summary: Optional[stats.Summary]
    stopped: Optional[str]
    complete: bool


class Match:
    def __init__(
        self,
        settings: MatchSettings,
        *,
        console: Optional[Console] = None,
        resume_state: Optional[Dict] = None,
        argv: Optional[Sequence[str]] = None,
    ):
        if len(settings.engines) < 2:
            raise InvalidInputError("a match needs at least two engines")
        if settings.concurrency is not None and settings.concurrency < 1:
            raise InvalidInputError("-concurrency must be at least 1")
        settings.engines = unique_names(settings.engines)
        if settings.srand is None:
            settings.srand = random.SystemRandom().randrange(1, 1 << 31)
        if settings.sprt is not None and len(settings.engines) != 2:
            raise InvalidInputError("-sprt needs exactly two engines")
        self.settings = settings
        self.variant = settings.variant_value()
        self.console = console or Console()
        self.argv = list(argv or [])
        self.records: Dict[int, GameRecord] = {}
        self.decided: Optional[Dict] = None  # the SPRT's numbers when it decided
        self.order: List[int] = []  # record indices in the order they finished
        # each record's JSON text, made once when it is added: the state file is
        # rewritten after every game, and encoding every game again each time
        # held the interpreter for seconds late in a long match, while the
        # engines beside it waited to answer (games lost on time)
        self._record_texts: Dict[int, str] = {}
        self.stopped: Optional[str] = None
        self._live: Optional[LiveBoard] = None  # the games in progress, with -live
        if resume_state:
            for d in resume_state.get("records", []):
                r = GameRecord.from_json(d)
                self.records[r.index] = r
                self.order.append(r.index)
                self._record_texts[r.index] = json.dumps(r.to_json())
            self.decided = resume_state.get("sprt_decided")
        self._book_digest: Optional[str] = None
        self.book = self._book()
        if resume_state and resume_state.get("book") not in (None, self.book_digest()):
            raise InvalidInputError(
                "the openings file has changed since the match was saved; "
                "a resumed match must draw its openings from the same book"
            )
        self.schedule = sched.build(
            len(settings.engines), settings.tournament, settings.games, settings.rounds, settings.repeat, self.book
        )
        self.pairs = sched.game_pairs(self.schedule)
        self.t0 = time.time()
        self._check_engines()

    # --- set-up ---
    def _book(self) -> Optional[op.Book]:
        o = self.settings.openings
        if o is None or not o.file:
            return None
        openings = op.load(o.file, self.variant, o.format, o.plies)
        return op.Book(openings, o.order, o.start, self.settings.srand or 0)

    def _reuse_warning(self) -> Optional[str]:
        """A warning when the schedule asks for more openings than the book
        holds: the book starts again, and engines at node or depth limits
        (deterministic) then replay games already played."""
        if self.book is None:
            return None
        slots = len({job.slot for job in self.schedule})
        if slots <= len(self.book):
            return None
        return (
            f"Warning: the schedule plays {slots} openings and the book holds {len(self.book)}: "
            f"each is played about {slots / len(self.book):.1f} times (engines at node or depth "
            f"limits replay the same games, which the statistics count again)"
        )

    def book_digest(self) -> Optional[str]:
        """A fingerprint of the opening book (a resumed match must use the same)."""
        if self.book is None:
            return None
        if self._book_digest is None:  # made once: every save of the state file writes it
            data = json.dumps([o.to_json() for o in self.book.openings], sort_keys=True)
            self._book_digest = hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]
        return self._book_digest

    def _check_engines(self) -> None:
        for e in self.settings.engines:
            if e.proto != "hub" or self.settings.cluster:
                continue
            exe = e.command()[0]
            where = e.dir or "."
            if os.sep in exe:
                found = os.path.exists(os.path.join(where, exe))
            else:
                found = shutil.which(exe) is not None
            if not found:
                raise InvalidInputError(f"engine {e.name}: cannot find the program {exe!r}")

    # --- statistics ---
    def _points(self, engine: int) -> Tuple[List[float], List[float]]:
        """Engine's points in its games against engine 1 - engine (two-engine matches),
        and in complete pairs."""
        pts = [self.records[i].points(engine) for i in sorted(self.records)]
        pair_pts = [
            self.records[a].points(engine) + self.records[b].points(engine)
            for a, b in self.pairs
            if a in self.records and b in self.records
        ]
        return pts, pair_pts

    def summary(self) -> Optional[stats.Summary]:
        if len(self.settings.engines) != 2:
            return None
        pts, pair_pts = self._points(0)
        s = stats.summarise(pts, pair_pts, self.settings.sprt, paired=self.settings.repeat == 2)
        if self.decided is not None:
            s.sprt = dict(self.decided)  # the verdict stands; games still running are counted
        return s

    def pair_summary(self) -> stats.Summary:
        """The summary of a two-engine match (the first engine's side)."""
        s = self.summary()
        if s is None:
            raise InvalidInputError("a summary of one pairing needs a match of two engines")
        return s

    def _score_line(self) -> str:
        s = self.pair_summary()
        a, b = self.settings.engines[0].name, self.settings.engines[1].name
        return f"Score of {a} vs {b}: {s.wins} - {s.losses} - {s.draws}  [{s.score:.3f}] {s.games}"

    def standings(self) -> List[Dict]:
        rows: List[Dict[str, Any]] = []
        for i, e in enumerate(self.settings.engines):
            mine = [r for r in self.records.values() if i in (r.first, r.second)]
            w = sum(1 for r in mine if r.winner == i)
            d = sum(1 for r in mine if r.winner is None)
            l = len(mine) - w - d
            elo, err = stats.elo_interval(w, l, d)
            rows.append(
                {
                    "name": e.name,
                    "games": len(mine),
                    "wins": w,
                    "losses": l,
                    "draws": d,
                    "score": stats.score_of(w, l, d),
                    "elo": elo,
                    "elo_error": err,
                    "draw_ratio": d / len(mine) if mine else 0.0,
                }
            )
        rows.sort(key=lambda r: (-r["score"], r["name"]))
        return rows

    def _rank_lines(self) -> List[str]:
        lines = [f"{'Rank':>4} {'Name':<28} {'Elo':>6} {'+/-':>6} {'Games':>7} {'Score':>7} {'Draw':>7}"]
        for n, r in enumerate(self.standings(), start=1):
            lines.append(
                f"{n:>4} {r['name']:<28} {stats.fmt_number(r['elo'], 0):>6} "
                f"{stats.fmt_number(r['elo_error'], 0):>6} {r['games']:>7} "
                f"{r['score'] * 100:>6.1f}% {r['draw_ratio'] * 100:>6.1f}%"
            )
        return lines

    def report(self) -> None:
        """Print the standings: with two engines the Elo, SPRT and draw-ratio
        lines under the score line, with more the ranking table."""
        if len(self.settings.engines) == 2:
            s = self.pair_summary()
            a, b = self.settings.engines[0].name, self.settings.engines[1].name
            for line in stats.report_lines(a, b, s, paired=self.settings.repeat == 2)[1:]:
                self.console.line(line)
        else:
            for line in self._rank_lines():
                self.console.line(line)

    # --- files ---
    def _pdn_text(self, record: GameRecord) -> str:
        game = record_to_game(record, self.variant, self.settings.engines, self.settings.event, self.settings.site)
        return pdn.write_game(game)

    def _append_pdn(self, record: GameRecord) -> None:
        path = self.settings.pdnout
        if not path:
            return
        text = self._pdn_text(record)
        with open(path, "a", encoding="utf-8") as fh:
            if fh.tell() > 0:
                fh.write("\n")
            fh.write(text)

    def _rewrite_pdn(self) -> None:
        path = self.settings.pdnout
        if not path:
            return
        with open(path, "w", encoding="utf-8") as fh:
            for n, i in enumerate(self.order):
                if n:
                    fh.write("\n")
                fh.write(self._pdn_text(self.records[i]))

    def _state_head(self) -> Dict:
        """The state file's fields but its records."""
        return {
            "version": STATE_VERSION,
            "settings": self.settings.to_json(),
            "argv": self.argv,
            "total": len(self.schedule),
            "stopped": self.stopped,
            "complete": self.complete,
            "sprt_decided": self.decided,
            "book": self.book_digest(),
        }

    def state_json(self) -> Dict:
        """What the state file holds (`-resume` reads it back)."""
        return dict(self._state_head(), records=[self.records[i].to_json() for i in self.order])

    def state_text(self) -> str:
        """The state file's text: state_json() as JSON, its records from the
        texts made as each game was added, so that a save costs the writing of
        the file, not the encoding of every game played so far."""
        head = json.dumps(self._state_head())
        records = ", ".join(self._record_texts[i] for i in self.order)
        return f'{head[:-1]}, "records": [{records}]}}'

    def save_state(self) -> None:
        path = self.settings.state
        if not path:
            return
        save_text(path, self.state_text())

    @property
    def complete(self) -> bool:
        return len(self.records) == len(self.schedule)

    def result_json(self) -> Dict:
        s = self.summary()
        terminations: Dict[str, int] = {}
        for r in self.records.values():
            terminations[r.termination] = terminations.get(r.termination, 0) + 1
        engines = [e.to_json() for e in self.settings.engines]
        return {
            "variant": self.variant.name,
            "engines": engines,
            "games_scheduled": len(self.schedule),
            "games_played": len(self.records),
            "complete": self.complete,
            "stopped": self.stopped,
            "srand": self.settings.srand,
            "duration": time.time() - self.t0,
            "summary": s.to_json() if s else None,
            "standings": stats.json_number(self.standings()),
            "terminations": terminations,
            "latency": {
                self.settings.engines[i].name: latency_figures(ms) for i, ms in sorted(self.latencies().items())
            },
            "games": [
                {
                    "game": r.index + 1,
                    "round": r.round + 1,
                    "first": self.settings.engines[r.first].name,
                    "second": self.settings.engines[r.second].name,
                    "result": r.result,
                    "winner": None if r.winner is None else self.settings.engines[r.winner].name,
                    "termination": r.termination,
                    "reason": r.reason,
                    "plies": len(r.moves),
                    "opening": r.opening.get("name", ""),
                    "duration": r.duration,
                }
                for r in (self.records[i] for i in sorted(self.records))
            ],
        }

    def latencies(self, records: Optional[Sequence[GameRecord]] = None) -> Dict[int, List[float]]:
        """Engine index -> the latency (ms) of each of its moves in `records`
        (default: every game), in the order played."""
        out: Dict[int, List[float]] = {}
        for r in records if records is not None else (self.records[i] for i in sorted(self.records)):
            for key, ms in r.latency.items():
                out.setdefault(int(key), []).extend(ms)
        return out

    def _latency_lines(self, records: Optional[Sequence[GameRecord]] = None) -> List[str]:
        lines = []
        for i, ms in sorted(self.latencies(records).items()):
            f = latency_figures(ms)
            lines.append(
                f"Latency of {self.settings.engines[i].name}: {f['moves']} moves, "
                f"mean {f['mean_ms']:.1f} ms, median {f['median_ms']:.1f} ms, "
                f"p99 {f['p99_ms']:.1f} ms, max {f['max_ms']:.1f} ms"
            )
        return lines

    # --- running ---
    def _names(self, job) -> str:
        e = self.settings.engines
        return f"{e[job.first].name} vs {e[job.second].name}"

    def run(self) -> MatchResult:
        s = self.settings
        total = len(self.schedule)
        if s.live and s.cluster:
            raise InvalidInputError("-live follows the games played on this machine; it cannot be used with -cluster")
        if self.records:
            self._rewrite_pdn()
        elif s.pdnout:
            open(s.pdnout, "w").close()
        self.save_state()
        todo = [j for j in self.schedule if j.index not in self.records]
        resumed = len(self.records)
        stop_reason = None
        if self.decided is not None:  # a resumed match the SPRT had already decided
            stop_reason = f"SPRT: {self.decided['verdict']} was accepted"
            todo = []
        live = None
        if s.live:
            live = LiveBoard(
                s.live,
                variant=s.variant,
                mandatory_capture=s.mandatory_capture,
                names=[e.name for e in s.engines],
                total=total,
                played=len(self.records),
                state=s.state,
            )
        self._live = live
        executor = RayExecutor(s, s.cluster) if s.cluster else LocalExecutor(s, self.variant, live=live)
        self.t0 = time.time()
        warning = self._reuse_warning()
        if warning:
            self.console.line(warning)
        books_off = [e.name for e in s.engines if not e.book and e.proto in ("hub", "builtin")]
        if books_off and not resumed:
            self.console.line(
                f"Opening books off (the openings are the match's; book=on keeps an engine's "
                f"own): {', '.join(books_off)}"
            )
        self._progress(resumed)
        abandon = False
        # games run on threads of this process: a short switch interval keeps
        # one game's Python work from delaying the reading of another's move
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        # the collector's full passes walk every record kept so far, holding
        # the interpreter for 20-40 ms once a minute: long enough for a move's
        # answer to wait past its time.  What exists is frozen (never walked
        # again) now and after every game; see docs/decisions.md#move-overhead
        gc.freeze()
        try:
            while (todo and stop_reason is None) or executor.busy():
                while todo and stop_reason is None and executor.free() > 0:
                    job = todo.pop(0)
                    self.console.line(f"Started game {job.index + 1} of {total} ({self._names(job)})")
                    executor.submit(job)
                for job, record in executor.next_done():
                    if record is None:  # lost with its worker: play it again
                        todo.insert(0, job)
                        continue
                    reason = self.game_finished(job, record)
                    if reason and stop_reason is None:
                        stop_reason = reason
                        if not reason.startswith("SPRT"):
                            self.console.line(reason)
                    self._progress(resumed)
        except KeyboardInterrupt:
            abandon = True
            self.stopped = "interrupted"
            self.save_state()
            raise
        except ClusterLost as e:
            abandon = True
            self.stopped = str(e)
            self.save_state()
            hint = f"; {len(self.records)} games are kept: resume with -resume {s.state}" if s.state else ""
            raise ClusterLost(f"{e}{hint}") from None
        finally:
            sys.setswitchinterval(switch)
            gc.unfreeze()
            self.console.end_bar()
            executor.close(abandon=abandon)
            if live is not None:
                stopped = abandon or (stop_reason is not None and not stop_reason.startswith("SPRT"))
                live.close("stopped" if stopped else "finished")
        self.stopped = stop_reason
        self.save_state()
        if len(s.engines) == 2 and len(self.records) == resumed:  # no game ended in this run
            self.console.line(self._score_line())
        self.report()
        if s.show_latency:
            for line in self._latency_lines():
                self.console.line(line)
        self.console.line("Finished match")
        if s.jsonout:
            save_json(s.jsonout, self.result_json(), indent=2)
        return MatchResult(
            [self.records[i] for i in sorted(self.records)], self.schedule, self.summary(), self.stopped, self.complete
        )

    def _progress(self, resumed: int) -> None:
        if not self.console.bar_enabled:
            return
        done = len(self.records)
        if len(self.settings.engines) == 2:
            pts, _ = self._points(0)
            points, played = sum(pts), len(pts)
        else:
            points, played = 0.0, 0
        self.console.bar(done, len(self.schedule), progress_text(points, played), initial=resumed)

    def game_finished(self, job: GameJob, record: GameRecord) -> Optional[str]:
        """Record a game of the schedule that has been played (by `run`, or by
        a caller that plays the games itself, as the GUI does): it is kept,
        written to the PDN and state files, printed with the score, and
        checked against -recover and the SPRT.  Returns why the match must
        stop, if it must."""
        self.records[record.index] = record
        self.order.append(record.index)
        self._record_texts[record.index] = json.dumps(record.to_json())
        if self._live is not None:
            self._live.finished(len(self.records))
        gc.freeze()
        self._append_pdn(record)
        self.save_state()
        self.console.line(f"Finished game {record.index + 1} ({self._names(job)}): {record.result} {{{record.reason}}}")
        if self.settings.show_latency:
            for line in self._latency_lines([record]):
                self.console.line(line)
        if len(self.settings.engines) == 2:
            self.console.line(self._score_line())
        n = len(self.records)
        reason = None
        if record.failed and not self.settings.recover:
            names = ", ".join(self.settings.engines[i].name for i in sorted(set(record.failed)))
            reason = f"Terminating match: {names} failed ({record.reason}); use -recover to restart crashed engines"
        if self.settings.sprt is not None and self.decided is None:
            s = self.pair_summary()
            if s.sprt and s.sprt["verdict"]:
                self.decided = dict(s.sprt)
                self.save_state()
                reason = reason or f"SPRT: {s.sprt['verdict']} was accepted"
        if self.settings.ratinginterval and n % self.settings.ratinginterval == 0 and not self.complete and not reason:
            self.report()
        return reason


def latency_figures(ms: Sequence[float]) -> Dict:
    """moves, mean, median, 99th percentile and largest of latencies in ms."""
    if not ms:
        return {"moves": 0, "mean_ms": 0.0, "median_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(ms)
    n = len(ordered)

    def rank(q: float) -> float:  # nearest rank
        return ordered[min(n - 1, max(0, math.ceil(q * n) - 1))]

    return {
        "moves": n,
        "mean_ms": sum(ordered) / n,
        "median_ms": rank(0.5),
        "p99_ms": rank(0.99),
        "max_ms": ordered[-1],
    }


def load_state(path: str) -> Dict:
    data = load_json(path, "match state")
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION or "settings" not in data:
        raise InvalidInputError(f"{path!r} is not a match state file")
    return data

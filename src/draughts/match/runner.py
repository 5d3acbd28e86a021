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

import dataclasses
import json
import math
import os
import random
import shutil
import socket
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

from draughts.cluster import ClusterLost
from draughts.errors import DraughtsError
from draughts.match import openings as op
from draughts.match import schedule as sched
from draughts.match import stats
from draughts.match.engines import (EngineConfig, EngineCrashed, EngineFailure, make_player,
                                    unique_names)
from draughts.match.game import GameJob, GameRecord, Rules, play_game, record_to_game
from draughts.variants import Variant, variant as get_variant

STATE_VERSION = 1
#: seconds between the interpreter's thread switches while games run (the
#: default 5 ms would add up to that to a move's measured time)
SWITCH_INTERVAL = 0.0005
#: times a game is played again after its Ray worker died
RAY_RETRIES = 3


@dataclass
class OpeningSettings:
    file: Optional[str] = None
    format: Optional[str] = None
    order: str = "sequential"
    plies: Optional[int] = None
    start: int = 1

    def to_json(self) -> Dict:
        return dataclasses.asdict(self)


@dataclass
class MatchSettings:
    engines: List[EngineConfig]
    variant: str = "international"
    games: int = 1
    rounds: int = 1
    repeat: int = 1
    tournament: str = "round-robin"
    #: games at once (None: 1 here, the cluster's CPUs with Ray)
    concurrency: Optional[int] = None
    srand: Optional[int] = None
    openings: Optional[OpeningSettings] = None
    rules: Rules = field(default_factory=Rules)
    recover: bool = False
    sprt: Optional[stats.Sprt] = None
    event: str = "?"
    site: str = "?"
    pdnout: Optional[str] = None
    jsonout: Optional[str] = None
    state: Optional[str] = None
    ratinginterval: int = 10
    cluster: Optional[str] = None
    mandatory_capture: bool = True
    #: print each game's and the match's latency figures
    show_latency: bool = False

    def variant_value(self) -> Variant:
        v = get_variant(self.variant)
        return v if self.mandatory_capture else v.replace(mandatory_capture=False)

    def to_json(self) -> Dict:
        return {
            "engines": [e.to_json() for e in self.engines], "variant": self.variant,
            "mandatory_capture": self.mandatory_capture,
            "games": self.games, "rounds": self.rounds, "repeat": self.repeat,
            "tournament": self.tournament, "concurrency": self.concurrency, "srand": self.srand,
            "openings": self.openings.to_json() if self.openings else None,
            "rules": self.rules.to_json(), "recover": self.recover,
            "sprt": dataclasses.asdict(self.sprt) if self.sprt else None,
            "event": self.event, "site": self.site, "pdnout": self.pdnout, "jsonout": self.jsonout,
            "state": self.state, "ratinginterval": self.ratinginterval, "cluster": self.cluster,
            "show_latency": self.show_latency,
        }

    @classmethod
    def from_json(cls, d: Dict) -> "MatchSettings":
        return cls(
            engines=[EngineConfig.from_json(e) for e in d["engines"]], variant=d["variant"],
            mandatory_capture=d.get("mandatory_capture", True),
            games=d["games"], rounds=d["rounds"], repeat=d["repeat"], tournament=d["tournament"],
            concurrency=d["concurrency"], srand=d["srand"],
            openings=OpeningSettings(**d["openings"]) if d.get("openings") else None,
            rules=Rules.from_json(d["rules"]), recover=d["recover"],
            sprt=stats.Sprt(**d["sprt"]) if d.get("sprt") else None,
            event=d["event"], site=d["site"], pdnout=d["pdnout"], jsonout=d["jsonout"],
            state=d["state"], ratinginterval=d["ratinginterval"], cluster=d.get("cluster"),
            show_latency=bool(d.get("show_latency", False)))


# --- output ----------------------------------------------------------------------

class Console:
    """stdout lines, and a progress bar on stderr that stays below them."""

    def __init__(self, out: Optional[TextIO] = None, err: Optional[TextIO] = None,
                 progress: Optional[bool] = None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        isatty = getattr(self.err, "isatty", lambda: False)
        self.bar_enabled = isatty() if progress is None else progress
        self._bar = ""
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        with self._lock:
            if self._bar:
                self.err.write("\r\x1b[K")
                self.err.flush()
            self.out.write(text + "\n")
            self.out.flush()
            if self._bar:
                self.err.write(self._bar)
                self.err.flush()

    def bar(self, text: str) -> None:
        if not self.bar_enabled:
            return
        with self._lock:
            self._bar = text
            self.err.write("\r\x1b[K" + text)
            self.err.flush()

    def end_bar(self) -> None:
        if not self.bar_enabled or not self._bar:
            return
        with self._lock:
            self.err.write("\n")
            self.err.flush()
            self._bar = ""


def _hms(seconds: float) -> str:
    seconds = max(0, int(seconds + 0.5))
    return f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def progress_text(done: int, total: int, points: float, played: int, elapsed: float, ran: int) -> str:
    width = 24
    filled = int(width * done / total) if total else width
    pct = points / played * 100.0 if played else 50.0
    if ran and done < total:
        eta = _hms(elapsed / ran * (total - done))
    else:
        eta = "--:--:--" if done < total else "done"
    return (f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
            f"score {points:g}/{played} ({pct:.1f}%), ETA {eta}")


# --- players on this machine ------------------------------------------------------

class PlayerPool:
    """Idle engine processes by engine index, reused from game to game."""

    def __init__(self, configs: Sequence[EngineConfig], variant: Variant):
        self.configs = list(configs)
        self.variant = variant
        self._idle: Dict[int, List] = {i: [] for i in range(len(configs))}
        self._all: List = []
        self._lock = threading.Lock()
        self.closed = False

    def acquire(self, i: int):
        dead = []
        with self._lock:
            if self.closed:
                raise EngineCrashed("the match is stopping")
            idle = self._idle[i]
            while idle:
                player = idle.pop()
                running = getattr(player, "running", None)
                if running is None or running():
                    return player
                dead.append(player)                  # died while idle: start a new one
        for p in dead:
            self._close(p)
        player = make_player(self.configs[i], self.variant)
        with self._lock:
            self._all.append(player)
        return player

    def release(self, i: int, player, broken: bool = False) -> None:
        if broken or self.configs[i].restart or self.closed or not getattr(player, "alive", True):
            self._close(player)
            return
        with self._lock:
            self._idle[i].append(player)

    def _close(self, player) -> None:
        try:
            player.close()
        except Exception:
            pass
        with self._lock:
            if player in self._all:
                self._all.remove(player)

    def close_all(self) -> None:
        with self._lock:
            self.closed = True
            players = list(self._all)
            self._all.clear()
            for lst in self._idle.values():
                lst.clear()
        for p in players:
            try:
                p.close()
            except Exception:
                pass


class _NoPlayer:
    """Stands in for an engine that could not be started: its game is lost."""

    def __init__(self, name: str, error: EngineFailure):
        self.name = name
        self.error = error
        self.alive = False

    def new_game(self, variant):
        raise self.error

    def play(self, board, limit, grace):
        raise self.error

    def close(self):
        pass


def run_job(job: GameJob, pool: PlayerPool, rules: Rules) -> GameRecord:
    """One game with players from the pool; broken players are not returned to it."""
    seats = (job.first, job.second)
    players = []
    for i in seats:
        try:
            players.append(pool.acquire(i))
        except EngineFailure as e:
            players.append(_NoPlayer(pool.configs[i].name, e))
        except DraughtsError as e:
            players.append(_NoPlayer(pool.configs[i].name, EngineCrashed(str(e))))
    configs = [pool.configs[i] for i in seats]
    try:
        record = play_game(job, players, configs, pool.variant, rules)
    finally:
        for i, p in zip(seats, players):
            if isinstance(p, _NoPlayer):
                continue
            broken = not getattr(p, "alive", True)
            pool.release(i, p, broken=broken or False)
    for i, p in zip(seats, players):
        if i in record.failed and not isinstance(p, _NoPlayer):
            pool._close(p)           # a stalled engine is not trusted with another game
    return record


class LocalExecutor:
    def __init__(self, settings: MatchSettings, variant: Variant):
        self.pool = PlayerPool(settings.engines, variant)
        self.rules = settings.rules
        self.slots = settings.concurrency or 1
        self._threads = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="game")
        self._futures: Dict = {}

    def free(self) -> int:
        return self.slots - len(self._futures)

    def submit(self, job: GameJob) -> None:
        self._futures[self._threads.submit(run_job, job, self.pool, self.rules)] = job

    def busy(self) -> bool:
        return bool(self._futures)

    def next_done(self) -> List[Tuple[GameJob, GameRecord]]:
        done, _ = wait(list(self._futures), timeout=0.5, return_when=FIRST_COMPLETED)
        out = []
        for f in done:
            job = self._futures.pop(f)
            out.append((job, f.result()))
        return out

    def close(self, abandon: bool = False) -> None:
        self.pool.close_all()
        self._threads.shutdown(wait=not abandon, cancel_futures=True)


# --- players on a Ray cluster -------------------------------------------------------

class GameWorker:
    """A Ray actor: plays games with its own engine processes on its node."""

    def __init__(self, settings_json: Dict):
        settings = MatchSettings.from_json(settings_json)
        self.variant = settings.variant_value()
        self.rules = settings.rules
        self.pool = PlayerPool(settings.engines, self.variant)

    def play(self, job_json: Dict) -> Dict:
        job = GameJob.from_json(job_json)
        return run_job(job, self.pool, self.rules).to_json()

    def host(self) -> str:
        return socket.gethostname()

    def close(self) -> bool:
        self.pool.close_all()
        return True


class RayExecutor:
    def __init__(self, settings: MatchSettings, address: str):
        from draughts.cluster import Watch, connect

        self.ray = connect(address)
        self._watch = Watch(address)
        ray = self.ray
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.slots = max(1, min(settings.concurrency or cpus, cpus))
        remote_cls = ray.remote(num_cpus=1, max_restarts=0)(GameWorker)
        payload = settings.to_json()
        self._make = lambda: remote_cls.remote(payload)
        self.actors = [self._make() for _ in range(self.slots)]
        self._idle = list(self.actors)
        self._pending: Dict = {}
        self._lost: Dict[int, int] = {}

    def free(self) -> int:
        return len(self._idle)

    def submit(self, job: GameJob) -> None:
        actor = self._idle.pop()
        ref = actor.play.remote(job.to_json())
        self._pending[ref] = (actor, job)

    def busy(self) -> bool:
        return bool(self._pending)

    def next_done(self) -> List[Tuple[GameJob, Optional[GameRecord]]]:
        ray = self.ray
        ready, _ = ray.wait(list(self._pending), num_returns=1, timeout=0.5)
        if not ready:
            self._watch.check()              # a head that has gone ends the match (the state is kept)
        out = []
        for ref in ready:
            actor, job = self._pending.pop(ref)
            try:
                record = GameRecord.from_json(ray.get(ref))
            except Exception as e:                 # the actor or its node died: play the game again
                self._lost[job.index] = self._lost.get(job.index, 0) + 1
                if self._lost[job.index] > RAY_RETRIES:
                    raise DraughtsError(f"game {job.index + 1} was lost with its Ray worker "
                                        f"{self._lost[job.index]} times: {e}") from None
                try:
                    ray.kill(actor)
                except Exception:
                    pass
                self.actors.remove(actor)
                actor = self._make()
                self.actors.append(actor)
                record = None
            self._idle.append(actor)
            out.append((job, record))
        return out

    def close(self, abandon: bool = False) -> None:
        ray = self.ray
        if self._watch.lost:
            return                          # nothing to tell a cluster that has gone
        try:
            if not abandon:
                ray.get([a.close.remote() for a in self.actors], timeout=30)
        except Exception:
            pass
        for a in self.actors:
            try:
                ray.kill(a)
            except Exception:
                pass


# --- the match ----------------------------------------------------------------------

@dataclass
class MatchResult:
    records: List[GameRecord]
    schedule: List[GameJob]
    summary: Optional[stats.Summary]
    stopped: Optional[str]
    complete: bool


class Match:
    def __init__(self, settings: MatchSettings, *, console: Optional[Console] = None,
                 resume_state: Optional[Dict] = None, argv: Optional[Sequence[str]] = None):
        if len(settings.engines) < 2:
            raise DraughtsError("a match needs at least two engines")
        if settings.concurrency is not None and settings.concurrency < 1:
            raise DraughtsError("-concurrency must be at least 1")
        settings.engines = unique_names(settings.engines)
        if settings.srand is None:
            settings.srand = random.SystemRandom().randrange(1, 1 << 31)
        if settings.sprt is not None and len(settings.engines) != 2:
            raise DraughtsError("-sprt needs exactly two engines")
        self.settings = settings
        self.variant = settings.variant_value()
        self.console = console or Console()
        self.argv = list(argv or [])
        self.records: Dict[int, GameRecord] = {}
        self.decided: Optional[Dict] = None   # the SPRT's numbers when it decided
        self.order: List[int] = []          # record indices in the order they finished
        self.stopped: Optional[str] = None
        if resume_state:
            for d in resume_state.get("records", []):
                r = GameRecord.from_json(d)
                self.records[r.index] = r
                self.order.append(r.index)
            self.decided = resume_state.get("sprt_decided")
        self.book = self._book()
        if resume_state and resume_state.get("book") not in (None, self.book_digest()):
            raise DraughtsError("the openings file has changed since the match was saved; "
                                "a resumed match must draw its openings from the same book")
        self.schedule = sched.build(len(settings.engines), settings.tournament, settings.games,
                                    settings.rounds, settings.repeat, self.book)
        self.pairs = sched.game_pairs(self.schedule)
        self.t0 = time.time()
        self._check_engines()

    # --- set-up ---
    def _book(self) -> Optional[op.Book]:
        o = self.settings.openings
        if o is None or not o.file:
            return None
        openings = op.load(o.file, self.variant, o.format, o.plies)
        return op.Book(openings, o.order, o.start, self.settings.srand)

    def book_digest(self) -> Optional[str]:
        """A fingerprint of the opening book (a resumed match must use the same)."""
        if self.book is None:
            return None
        import hashlib
        data = json.dumps([o.to_json() for o in self.book.openings], sort_keys=True)
        return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]

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
                raise DraughtsError(f"engine {e.name}: cannot find the program {exe!r}")

    # --- statistics ---
    def _points(self, engine: int) -> Tuple[List[float], List[float]]:
        """Engine's points in its games against engine 1 - engine (two-engine matches),
        and in complete pairs."""
        pts = [self.records[i].points(engine) for i in sorted(self.records)]
        pair_pts = [self.records[a].points(engine) + self.records[b].points(engine)
                    for a, b in self.pairs if a in self.records and b in self.records]
        return pts, pair_pts

    def summary(self) -> Optional[stats.Summary]:
        if len(self.settings.engines) != 2:
            return None
        pts, pair_pts = self._points(0)
        s = stats.summarise(pts, pair_pts, self.settings.sprt, paired=self.settings.repeat == 2)
        if self.decided is not None:
            s.sprt = dict(self.decided)   # the verdict stands; games still running are counted
        return s

    def _score_line(self) -> str:
        s = self.summary()
        a, b = self.settings.engines[0].name, self.settings.engines[1].name
        return f"Score of {a} vs {b}: {s.wins} - {s.losses} - {s.draws}  [{s.score:.3f}] {s.games}"

    def standings(self) -> List[Dict]:
        rows = []
        for i, e in enumerate(self.settings.engines):
            mine = [r for r in self.records.values() if i in (r.first, r.second)]
            w = sum(1 for r in mine if r.winner == i)
            d = sum(1 for r in mine if r.winner is None)
            l = len(mine) - w - d
            elo, err = stats.elo_interval(w, l, d)
            rows.append({"name": e.name, "games": len(mine), "wins": w, "losses": l, "draws": d,
                         "score": stats.score_of(w, l, d), "elo": elo, "elo_error": err,
                         "draw_ratio": d / len(mine) if mine else 0.0})
        rows.sort(key=lambda r: (-r["score"], r["name"]))
        return rows

    def _rank_lines(self) -> List[str]:
        lines = [f"{'Rank':>4} {'Name':<28} {'Elo':>6} {'+/-':>6} {'Games':>7} {'Score':>7} {'Draw':>7}"]
        for n, r in enumerate(self.standings(), start=1):
            lines.append(f"{n:>4} {r['name']:<28} {stats.fmt_number(r['elo'], 0):>6} "
                         f"{stats.fmt_number(r['elo_error'], 0):>6} {r['games']:>7} "
                         f"{r['score'] * 100:>6.1f}% {r['draw_ratio'] * 100:>6.1f}%")
        return lines

    def _report(self) -> None:
        if len(self.settings.engines) == 2:
            s = self.summary()
            a, b = self.settings.engines[0].name, self.settings.engines[1].name
            for line in stats.report_lines(a, b, s, paired=self.settings.repeat == 2)[1:]:
                self.console.line(line)
        else:
            for line in self._rank_lines():
                self.console.line(line)

    # --- files ---
    def _pdn_text(self, record: GameRecord) -> str:
        from draughts import pdn
        game = record_to_game(record, self.variant, self.settings.engines, self.settings.event,
                              self.settings.site)
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

    def state_json(self) -> Dict:
        return {"version": STATE_VERSION, "settings": self.settings.to_json(), "argv": self.argv,
                "total": len(self.schedule),
                "records": [self.records[i].to_json() for i in self.order],
                "stopped": self.stopped, "complete": self.complete, "sprt_decided": self.decided,
                "book": self.book_digest()}

    def save_state(self) -> None:
        path = self.settings.state
        if not path:
            return
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.state_json(), fh)
        os.replace(tmp, path)

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
            "variant": self.variant.name, "engines": engines, "games_scheduled": len(self.schedule),
            "games_played": len(self.records), "complete": self.complete, "stopped": self.stopped,
            "srand": self.settings.srand, "duration": time.time() - self.t0,
            "summary": s.to_json() if s else None,
            "standings": stats.json_number(self.standings()),
            "terminations": terminations,
            "latency": {self.settings.engines[i].name: latency_figures(ms)
                        for i, ms in sorted(self.latencies().items())},
            "games": [{"game": r.index + 1, "round": r.round + 1,
                       "first": self.settings.engines[r.first].name,
                       "second": self.settings.engines[r.second].name,
                       "result": r.result, "winner": None if r.winner is None else self.settings.engines[r.winner].name,
                       "termination": r.termination, "reason": r.reason, "plies": len(r.moves),
                       "opening": r.opening.get("name", ""), "duration": r.duration}
                      for r in (self.records[i] for i in sorted(self.records))],
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
            lines.append(f"Latency of {self.settings.engines[i].name}: {f['moves']} moves, "
                         f"mean {f['mean_ms']:.1f} ms, median {f['median_ms']:.1f} ms, "
                         f"p99 {f['p99_ms']:.1f} ms, max {f['max_ms']:.1f} ms")
        return lines

    # --- running ---
    def _names(self, job) -> str:
        e = self.settings.engines
        return f"{e[job.first].name} vs {e[job.second].name}"

    def run(self) -> MatchResult:
        s = self.settings
        total = len(self.schedule)
        if self.records:
            self._rewrite_pdn()
        elif s.pdnout:
            open(s.pdnout, "w").close()
        self.save_state()
        todo = [j for j in self.schedule if j.index not in self.records]
        resumed = len(self.records)
        stop_reason = None
        if self.decided is not None:            # a resumed match the SPRT had already decided
            stop_reason = f"SPRT: {self.decided['verdict']} was accepted"
            todo = []
        executor = RayExecutor(s, s.cluster) if s.cluster else LocalExecutor(s, self.variant)
        self.t0 = time.time()
        self._progress(resumed)
        abandon = False
        # games run on threads of this process: a short switch interval keeps
        # one game's Python work from delaying the reading of another's move
        switch = sys.getswitchinterval()
        sys.setswitchinterval(min(switch, SWITCH_INTERVAL))
        try:
            while (todo and stop_reason is None) or executor.busy():
                while todo and stop_reason is None and executor.free() > 0:
                    job = todo.pop(0)
                    self.console.line(f"Started game {job.index + 1} of {total} ({self._names(job)})")
                    executor.submit(job)
                for job, record in executor.next_done():
                    if record is None:                   # lost with its worker: play it again
                        todo.insert(0, job)
                        continue
                    reason = self._finished(job, record)
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
            self.console.end_bar()
            executor.close(abandon=abandon)
        self.stopped = stop_reason
        self.save_state()
        if len(s.engines) == 2 and len(self.records) == resumed:   # no game ended in this run
            self.console.line(self._score_line())
        self._report()
        if s.show_latency:
            for line in self._latency_lines():
                self.console.line(line)
        self.console.line("Finished match")
        if s.jsonout:
            tmp = s.jsonout + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(self.result_json(), fh, indent=2)
            os.replace(tmp, s.jsonout)
        return MatchResult([self.records[i] for i in sorted(self.records)], self.schedule,
                           self.summary(), self.stopped, self.complete)

    def _progress(self, resumed: int) -> None:
        if not self.console.bar_enabled:
            return
        done = len(self.records)
        if len(self.settings.engines) == 2:
            pts, _ = self._points(0)
            points, played = sum(pts), len(pts)
        else:
            points, played = 0.0, 0
        self.console.bar(progress_text(done, len(self.schedule), points, played, time.time() - self.t0,
                                       done - resumed))

    def _finished(self, job: GameJob, record: GameRecord) -> Optional[str]:
        """Record a finished game; returns why the match must stop, if it must."""
        self.records[record.index] = record
        self.order.append(record.index)
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
            s = self.summary()
            if s.sprt and s.sprt["verdict"]:
                self.decided = dict(s.sprt)
                self.save_state()
                reason = reason or f"SPRT: {s.sprt['verdict']} was accepted"
        if (self.settings.ratinginterval and n % self.settings.ratinginterval == 0
                and not self.complete and not reason):
            self._report()
        return reason


def latency_figures(ms: Sequence[float]) -> Dict:
    """moves, mean, median, 99th percentile and largest of latencies in ms."""
    if not ms:
        return {"moves": 0, "mean_ms": 0.0, "median_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(ms)
    n = len(ordered)

    def rank(q: float) -> float:                 # nearest rank
        return ordered[min(n - 1, max(0, math.ceil(q * n) - 1))]

    return {"moves": n, "mean_ms": sum(ordered) / n, "median_ms": rank(0.5), "p99_ms": rank(0.99),
            "max_ms": ordered[-1]}


def load_state(path: str) -> Dict:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        raise DraughtsError(f"no match state file {path!r} to resume") from None
    except (OSError, ValueError) as e:
        raise DraughtsError(f"cannot read match state {path!r}: {e}") from None
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION or "settings" not in data:
        raise DraughtsError(f"{path!r} is not a match state file")
    return data

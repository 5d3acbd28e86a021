"""Where a match's games are played: on threads of this process, each with
its own engine processes (`LocalExecutor`), or as Ray actors on an existing
cluster, one per concurrent game (`RayExecutor`).  Both give the match the
same records, made by the same referee (`draughts.match.game.play_game`)."""

from __future__ import annotations

import os
import queue
import socket
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import Dict, List, Optional, Sequence, Set, Tuple

from draughts.cluster import Watch, connect
from draughts.errors import ClusterLost, DraughtsError, EngineError, EngineTerminatedError
from draughts.match.engines import EngineConfig
from draughts.match.players import make_player
from draughts.match.game import GameJob, GameRecord, Rules, play_game
from draughts.match.live import LiveBoard
from draughts.match.settings import MatchSettings
from draughts.variants import Color, Variant

__all__ = ["PlayerPool", "engine_threads", "run_job", "LocalExecutor", "GameWorker", "RayExecutor", "RAY_RETRIES"]

#: times a game lost with its Ray worker is played again before the match stops
RAY_RETRIES = 3


# --- players on this machine ------------------------------------------------------


class PlayerPool:
    """Idle engine processes by engine index, reused from game to game;
    `threads`: the search threads each engine is given (see make_player)."""

    def __init__(self, configs: Sequence[EngineConfig], variant: Variant, threads: Optional[int] = None):
        self.configs = list(configs)
        self.variant = variant
        self.threads = threads
        self._idle: Dict[int, List] = {i: [] for i in range(len(configs))}
        self._all: List = []
        self._lock = threading.Lock()
        self.closed = False

    def acquire(self, i: int):
        dead = []
        with self._lock:
            if self.closed:
                raise EngineTerminatedError("the match is stopping")
            idle = self._idle[i]
            while idle:
                player = idle.pop()
                running = getattr(player, "running", None)
                if running is None or running():
                    return player
                dead.append(player)  # died while idle: start a new one
        for p in dead:
            self._close(p)
        player = make_player(self.configs[i], self.variant, self.threads)
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

    def __init__(self, name: str, error: EngineError):
        self.name = name
        self.error = error
        self.alive = False

    def new_game(self, variant):
        raise self.error

    def play(self, board, limit, grace):
        raise self.error

    def close(self):
        pass


def pin_process(pid: int, cpus: Set[int]) -> bool:
    """Keep a process and all its threads on `cpus` (Linux; threads started
    later inherit it).  False where the platform cannot."""
    if not hasattr(os, "sched_setaffinity"):
        return False
    try:
        tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        tids = [pid]
    for tid in tids:
        try:
            os.sched_setaffinity(tid, cpus)
        except OSError:
            pass
    return True


def run_job(
    job: GameJob, pool: PlayerPool, rules: Rules, cpus: Optional[Set[int]] = None, live: Optional[LiveBoard] = None
) -> GameRecord:
    """One game with players from the pool; broken players are not returned to
    it.  With `cpus`, both engines' processes are kept on those processors;
    with `live`, the game is shown there while it is played."""
    seats = (job.first, job.second)
    players = []
    for i in seats:
        try:
            players.append(pool.acquire(i))
        except EngineError as e:
            players.append(_NoPlayer(pool.configs[i].name, e))
        except DraughtsError as e:
            players.append(_NoPlayer(pool.configs[i].name, EngineTerminatedError(str(e))))
    if cpus:
        for p in players:
            pid = getattr(p, "pid", None)
            if pid:
                pin_process(pid, cpus)
    configs = [pool.configs[i] for i in seats]
    watch = None
    if live is not None:
        board = job.opening.board(pool.variant)
        first = pool.variant.first
        names = {first: configs[0].name, ~first: configs[1].name}
        watch = live.game(job.index, names[Color.WHITE], names[Color.BLACK], board)
    try:
        record = play_game(job, players, configs, pool.variant, rules, watch=watch)
    finally:
        if watch is not None:
            watch.ended()
        for i, p in zip(seats, players):
            if isinstance(p, _NoPlayer):
                continue
            broken = not getattr(p, "alive", True)
            pool.release(i, p, broken=broken or False)
    for i, p in zip(seats, players):
        if i in record.failed and not isinstance(p, _NoPlayer):
            pool._close(p)  # a stalled engine is not trusted with another game
    return record


def engine_threads(cpus: int, concurrency: int, pinned: bool) -> int:
    """Search threads for each engine: the processors shared out among the
    games at once (one engine of a game searches at a time), or one when each
    game is pinned to a processor of its own."""
    return 1 if pinned else max(1, cpus // concurrency)


class LocalExecutor:
    def __init__(self, settings: MatchSettings, variant: Variant, live: Optional[LiveBoard] = None):
        self.rules = settings.rules
        self.live = live
        self.slots = settings.concurrency or 1
        self._threads = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="game")
        self._futures: Dict = {}
        # -use-affinity: a processor of its own for each game at once (fastchess's
        # option): two searching engines never share one, whatever else runs
        self._cpu_slots: Optional["queue.Queue[Set[int]]"] = None
        cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        pin = settings.use_affinity
        if pin is None:  # by default: games at once, a processor each
            pin = 2 <= self.slots <= len(cpus)
        if pin and cpus:
            self._cpu_slots = queue.Queue()
            for k in range(self.slots):
                self._cpu_slots.put({cpus[k % len(cpus)]})
        ncpus = len(cpus) or os.cpu_count() or 1
        self.pool = PlayerPool(
            settings.engines, variant, engine_threads(ncpus, self.slots, self._cpu_slots is not None)
        )

    def free(self) -> int:
        return self.slots - len(self._futures)

    def submit(self, job: GameJob) -> None:
        self._futures[self._threads.submit(self._run, job)] = job

    def _run(self, job: GameJob) -> GameRecord:
        if self._cpu_slots is None:
            return run_job(job, self.pool, self.rules, live=self.live)
        cpus = self._cpu_slots.get()
        try:
            return run_job(job, self.pool, self.rules, cpus, live=self.live)
        finally:
            self._cpu_slots.put(cpus)

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
        # a worker holds one of the cluster's processors
        self.pool = PlayerPool(settings.engines, self.variant, threads=1)

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
            self._watch.check()  # a head that has gone ends the match (the state is kept)
        out = []
        for ref in ready:
            actor, job = self._pending.pop(ref)
            try:
                record = GameRecord.from_json(ray.get(ref))
            except Exception as e:  # the actor or its node died: play the game again
                self._lost[job.index] = self._lost.get(job.index, 0) + 1
                if self._lost[job.index] > RAY_RETRIES:
                    raise ClusterLost(
                        f"game {job.index + 1} was lost with its Ray worker {self._lost[job.index]} times: {e}"
                    ) from None
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
            return  # nothing to tell a cluster that has gone
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

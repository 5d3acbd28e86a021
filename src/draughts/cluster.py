"""Ray, the optional extra (`pip install ".[cluster]"` in the clone): run work
as tasks on an existing Ray cluster.  Used by perft, the match runner, self-play
and the training positions (`map_chunks`)."""

from __future__ import annotations

import logging
import socket
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

from draughts.errors import ClusterLost, InvalidInputError


_connected = None
#: seconds a cluster's head may take to accept a connection
CONNECT_TIMEOUT = 5.0


def _head(address: str) -> Optional[Tuple[str, int]]:
    """(host, port) of a HOST:PORT or ray://HOST:PORT address; None for
    "auto" and "local" (Ray finds those itself)."""
    if address in ("auto", "local"):
        return None
    a = address[len("ray://") :] if address.startswith("ray://") else address
    host, sep, port = a.rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise InvalidInputError(f"cluster address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    return host.strip("[]"), int(port)


def reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> Optional[str]:
    """None when something accepts connections at the address's head, else why not."""
    head = _head(address)
    if head is None:
        return None
    try:
        socket.create_connection(head, timeout=timeout).close()
    except OSError as e:
        return e.strerror or str(e) or type(e).__name__
    return None


def connect(address: str) -> Any:
    """Connect to the Ray cluster at `address` ("auto" finds a running one).

    A connection to another address made earlier in the process is closed
    first.  An address where nothing listens is an error within a few
    seconds (Ray itself would retry for minutes).
    """
    global _connected
    try:
        import ray
    except ImportError:
        from draughts._install import install_command

        raise InvalidInputError(f"--cluster needs Ray: {install_command('cluster')}") from None
    if ray.is_initialized() and _connected != address:
        ray.shutdown()
    if not ray.is_initialized():
        why = reachable(address)
        if why is not None:
            raise ClusterLost(f"cannot connect to the Ray cluster at {address!r}: {why}")
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False, logging_level=logging.ERROR)
        except Exception as e:  # Ray raises ConnectionError, RuntimeError, ...
            raise ClusterLost(f"cannot connect to the Ray cluster at {address!r}: {e}") from None
        _connected = address
    return ray


class Watch:
    """Notices a cluster whose head has gone: `check()` raises ClusterLost
    once the head has refused connections for `grace` seconds (checked at
    most every `every` seconds)."""

    def __init__(self, address: str, grace: float = 5.0, every: float = 1.0):
        self.address = address
        self.grace = grace
        self.every = every
        self._last_check = 0.0
        self._down_since: Optional[float] = None
        self.lost = False

    def check(self) -> None:
        now = time.monotonic()
        if now - self._last_check < self.every:
            return
        self._last_check = now
        why = reachable(self.address, timeout=min(2.0, self.grace))
        if why is None:
            self._down_since = None
            return
        if self._down_since is None:
            self._down_since = now
        if now - self._down_since >= self.grace:
            self.lost = True
            raise ClusterLost(f"lost the Ray cluster at {self.address!r}: {why}")


#: Ray tasks kept in flight per processor of the cluster (the next chunk waits when one ends)
TASKS_PER_CPU = 2
#: times Ray runs a task again whose worker or node died
RAY_RETRIES = 3


def map_chunks(
    address: str,
    task: Callable[..., Any],
    args: Callable[[int], tuple],
    todo: List[int],
    done: Callable[[int, Any], None],
    *,
    saved: Callable[[], str],
) -> None:
    """Run `task(*args(chunk))` as a Ray task for each chunk of `todo` on the
    cluster at `address`, at most TASKS_PER_CPU a processor at once, and hand
    each result to `done(chunk, result)` in this process as it comes back (the
    caller writes its files there, so a run resumes anywhere).  A bad address
    is an error before any task; a cluster lost on the way is a ClusterLost
    that ends with `saved()` (what is kept, and that a rerun does the rest).
    An interrupt or an error here cancels the tasks still running."""
    ray = connect(address)
    watch = Watch(address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES)(task)
    queue = list(todo)
    pending: Dict[Any, int] = {}
    try:
        while queue or pending:
            while queue and len(pending) < cpus * TASKS_PER_CPU:
                chunk = queue.pop(0)
                pending[remote.remote(*args(chunk))] = chunk
            try:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            except Exception as e:
                raise ClusterLost(f"lost the Ray cluster at {address!r}: {e}") from None
            for ref in ready:
                chunk = pending.pop(ref)
                try:
                    result = ray.get(ref, timeout=60)
                except Exception as e:  # the task, its node or the head died
                    raise ClusterLost(f"chunk {chunk} failed on the Ray cluster at {address!r}: {e}") from None
                done(chunk, result)
            if not ready:
                watch.check()  # a head that has gone ends the run
    except ClusterLost as e:
        raise ClusterLost(f"{e}; {saved()}") from None
    except BaseException:
        for ref in pending:  # an interrupt or an error here: stop the cluster's work
            try:
                ray.cancel(ref, force=True)
            except Exception:
                pass
        raise

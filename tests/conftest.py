"""Shared fixtures."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

# The engine looks for endgame databases in the user's database directory
# before the tables shipped in the package (draughts.egdb.auto_dir): the
# tests see an empty directory of their own, never what a user has built.
os.environ["DRAUGHTS_EGDB"] = tempfile.mkdtemp(prefix="draughts-test-egdb-")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _kill_matching(matches):
    """SIGKILL every process (but this one) for which matches(pid) is true,
    read from /proc; a process gone meanwhile, or not ours to read, is passed by."""
    if not os.path.isdir("/proc"):
        return
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            if matches(pid):
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


def _kill_session(sid):
    """SIGKILL every process of the session `sid`: a Ray head started in a
    session of its own, with its workers (each in a process group of its own),
    as when the head's machine goes down."""

    def in_session(pid):
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        # the fields after the command's closing parenthesis: state, ppid, pgrp, session
        return int(stat[stat.rindex(")") + 2 :].split()[3]) == sid

    _kill_matching(in_session)


def _kill_processes_naming(text):
    """SIGKILL every process whose command line names `text`, as `pkill -9 -f`
    would (minimal systems have no pkill)."""

    def naming(pid):
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return text.encode() in f.read()

    _kill_matching(naming)


def _start_head(num_cpus):
    """`ray start --head --block` in a session of its own, once `ray status`
    answers: (the process, its address, its temporary directory)."""
    import ray  # the [cluster] extra; CI installs it

    port = _free_port()
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    ray_bin = os.path.join(os.path.dirname(sys.executable), "ray")
    # Ray's socket paths must stay short: a temp dir under /tmp, not pytest's
    temp_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    log_path = os.path.join(temp_dir, "head.log")
    # Ray turns a loopback address into this machine's own (the address it
    # reaches other nodes from, where there is a route) before it connects, so
    # the head must listen there, not on 127.0.0.1
    ip = ray.util.get_node_ip_address()
    # no log monitor (the drivers take no worker output: log_to_driver=False)
    # and no autoscaler monitor (a fixed single node): two Python processes
    # fewer, about 1 s of CPU a head
    with open(log_path, "w") as log:
        head = subprocess.Popen(
            [
                ray_bin,
                "start",
                "--head",
                "--block",
                f"--port={port}",
                f"--node-ip-address={ip}",
                f"--num-cpus={num_cpus}",
                "--include-dashboard=false",
                "--disable-usage-stats",
                "--include-log-monitor=false",
                "--no-monitor",
                f"--temp-dir={temp_dir}",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    address = f"{ip}:{port}"
    try:
        deadline = time.time() + 120
        while True:
            assert head.poll() is None, open(log_path).read()
            status = subprocess.run(
                [ray_bin, "status", f"--address={address}"], capture_output=True, text=True, env=env, timeout=60
            )
            if status.returncode == 0:
                break
            assert time.time() < deadline, status.stdout + status.stderr
            time.sleep(0.5)
    except BaseException:
        _stop_head(head.pid, temp_dir)
        raise
    return head, address, temp_dir


def _alive(pid):
    """The process is there and not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _stop_head(pid, temp_dir):
    """Stop the head `ray start` with the process id `pid` (asked to end, then
    killed with its session after 60 s), and whatever of its cluster is left."""
    import ray

    if ray.is_initialized():
        ray.shutdown()
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    deadline = time.time() + 60
    while _alive(pid) and time.time() < deadline:
        time.sleep(0.1)
    _kill_session(pid)
    # the head's group may leave workers behind once it is killed
    _kill_processes_naming(temp_dir)


@contextlib.contextmanager
def ray_head(num_cpus=2):
    """A real local Ray runtime on this machine: `ray start --head --block` in a
    child process of its own (stopping it stops only this cluster).  Yields
    (address, stop), where stop() kills the head and its workers at once."""
    head, address, temp_dir = _start_head(num_cpus)

    def stop():
        if head.poll() is None:
            _kill_session(head.pid)
            head.wait(30)

    try:
        yield address, stop
    finally:
        _stop_head(head.pid, temp_dir)
        head.wait(30)


def lost_head_driver_env():
    """The environment of a Ray driver (a command run with --cluster) whose
    head a test kills: at its exit Ray flushes the driver's task events to
    the head for up to task_events_shutdown_flush_timeout_ms (5 s), in vain
    once the head is gone."""
    return dict(os.environ, RAY_task_events_shutdown_flush_timeout_ms="200")


#: the run's shared Ray head under pytest-xdist: its process id, address and temporary
#: directory, in a file of the run's base temporary directory (every worker's sits in it)
SHARED_HEAD = "ray-head.json"
_started_heads = []  # the shared head's process, if this worker started it


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory):
    """One Ray head for the run, shared by the cluster tests wherever they run.

    Under pytest-xdist the first worker to need it starts it (the others wait
    for it under a lock and use it) and the controller stops it when the run
    ends (pytest_unconfigure): the tests spread over the workers and the run
    starts one head, not one a worker.  Without xdist the session has one of
    its own."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        with ray_head() as (address, _):
            yield address
        return
    import fcntl
    import ray

    shared = tmp_path_factory.getbasetemp().parent
    with open(shared / "ray-head.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        info = shared / SHARED_HEAD
        if info.exists():
            address = json.loads(info.read_text())["address"]
        else:
            head, address, temp_dir = _start_head(num_cpus=2)
            _started_heads.append(head)
            info.write_text(json.dumps({"pid": head.pid, "address": address, "temp_dir": temp_dir}))
    yield address
    if ray.is_initialized():  # this worker's driver leaves while the head is there
        ray.shutdown()


def pytest_unconfigure(config):
    """The controller of a pytest-xdist run stops the shared Ray head, once
    every worker has ended."""
    if (
        hasattr(config, "workerinput")
        or not getattr(config.option, "numprocesses", None)
        or getattr(config, "_tmp_path_factory", None) is None
    ):
        return
    try:
        info = config._tmp_path_factory.getbasetemp() / SHARED_HEAD
        head = json.loads(info.read_text())
    except (OSError, ValueError):
        return
    _stop_head(head["pid"], head["temp_dir"])


#: modules with tests of ten seconds and more (Ray heads started and killed,
#: mypy from cold, endgame builds, training runs, killed and resumed runs),
#: collected first: under pytest-xdist the work is handed out in collection
#: order, and a long test handed out last keeps one worker busy while the
#: other has nothing left to do
LONG_FIRST = (
    "test_match_cluster.py",
    "test_train_cluster.py",
    "test_package.py",
    "test_egdb.py",
    "test_learned.py",
    "test_perft_scale.py",
    "test_match_run.py",
    "test_dxp_fuzz.py",
    "test_pdn_corpus.py",
)


def pytest_collection_modifyitems(items):
    """The modules of LONG_FIRST first, each module's tests in their order."""
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONG_FIRST)))

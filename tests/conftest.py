"""Shared fixtures."""

import contextlib
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


def _kill_session(sid):
    """SIGKILL every process of the session `sid`, read from /proc: a Ray head
    started in a session of its own, with its workers (each in a process group
    of its own), as when the head's machine goes down."""
    if not os.path.isdir("/proc"):
        return
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            # the fields after the command's closing parenthesis: state, ppid, pgrp, session
            if int(stat[stat.rindex(")") + 2:].split()[3]) == sid:
                os.kill(int(pid), signal.SIGKILL)
        except (OSError, ValueError, IndexError):   # gone meanwhile, or not ours to read
            pass


def _kill_processes_naming(text):
    """SIGKILL every process whose command line names `text`, as `pkill -9 -f`
    would, read from /proc (minimal systems have no pkill)."""
    if not os.path.isdir("/proc"):
        return
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                named = text.encode() in f.read()
            if named:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:                     # gone meanwhile, or not ours to read
            pass


@contextlib.contextmanager
def ray_head(num_cpus=2):
    """A real local Ray runtime on this machine: `ray start --head --block` in a
    child process of its own (stopping it stops only this cluster).  Yields
    (address, stop), where stop() kills the head and its workers at once."""
    import ray                      # the [cluster] extra; CI installs it
    port = _free_port()
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    ray_bin = os.path.join(os.path.dirname(sys.executable), "ray")
    # Ray's socket paths must stay short: a temp dir under /tmp, not pytest's
    temp_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp" if os.path.isdir("/tmp") else None)
    log = open(os.path.join(temp_dir, "head.log"), "w")
    # Ray turns a loopback address into this machine's own (the address it
    # reaches other nodes from, where there is a route) before it connects, so
    # the head must listen there, not on 127.0.0.1
    ip = ray.util.get_node_ip_address()
    # no log monitor (the drivers take no worker output: log_to_driver=False)
    # and no autoscaler monitor (a fixed single node): two Python processes
    # fewer, about 1 s of CPU a head
    head = subprocess.Popen([ray_bin, "start", "--head", "--block", f"--port={port}",
                             f"--node-ip-address={ip}", f"--num-cpus={num_cpus}",
                             "--include-dashboard=false", "--disable-usage-stats",
                             "--include-log-monitor=false", "--no-monitor",
                             f"--temp-dir={temp_dir}"],
                            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    address = f"{ip}:{port}"

    def stop():
        if head.poll() is None:
            _kill_session(head.pid)
            head.wait(30)

    try:
        deadline = time.time() + 120
        while True:
            assert head.poll() is None, open(log.name).read()
            status = subprocess.run([ray_bin, "status", f"--address={address}"], capture_output=True,
                                    text=True, env=env, timeout=60)
            if status.returncode == 0:
                break
            assert time.time() < deadline, status.stdout + status.stderr
            time.sleep(0.5)
        yield address, stop
    finally:
        if ray.is_initialized():
            ray.shutdown()
        head.terminate()
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            stop()
        # the head's group may leave workers behind once it is killed
        _kill_processes_naming(temp_dir)
        log.close()


def lost_head_driver_env():
    """The environment of a Ray driver (a command run with --cluster) whose
    head a test kills: at its exit Ray flushes the driver's task events to
    the head for up to task_events_shutdown_flush_timeout_ms (5 s), in vain
    once the head is gone."""
    return dict(os.environ, RAY_task_events_shutdown_flush_timeout_ms="200")


@pytest.fixture(scope="session")
def ray_cluster():
    """A Ray head shared by the session's cluster tests."""
    with ray_head() as (address, _):
        yield address


def pytest_collection_modifyitems(items):
    """Under pytest-xdist (`-n auto --dist loadgroup`, the README's command)
    every test of the shared Ray head runs on one worker: one head for the run,
    not one a worker.  Without xdist the mark does nothing."""
    for item in items:
        if "ray_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("ray_cluster"))

"""One family of errors: every exception class of the package derives from
DraughtsError and from exactly one branch (bad input, or an engine or
connection fault), or is one of the two interruptions."""

import importlib
import inspect
import pkgutil
import socket
import threading

import pytest

import draughts
from draughts import errors, pdn
from draughts.dxp import protocol as P
from draughts.errors import DraughtsError, EngineError, InvalidInputError

INTERRUPTIONS = (errors.PerftStopped, errors.EngineClaim)


def package_exceptions():
    """(module name, class) of every exception class defined in the package."""
    out = []
    names = ["draughts"] + [m.name for m in pkgutil.walk_packages(draughts.__path__, "draughts.")]
    for name in names:
        if name == "draughts.__main__":  # running it is the command line
            continue
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__ == name:
                out.append((name, cls))
    return out


def test_the_walk_finds_the_classes_outside_errors_too():
    found = {cls.__name__ for _, cls in package_exceptions()}
    assert {"DraughtsError", "FenError", "EngineTimeoutError", "DxpClosed", "CommandError"} <= found


@pytest.mark.parametrize("where, cls", package_exceptions(), ids=lambda x: getattr(x, "__name__", x))
def test_every_exception_is_in_the_family_on_one_branch(where, cls):
    assert issubclass(cls, DraughtsError), f"{where}.{cls.__name__} is not a DraughtsError"
    if cls is DraughtsError:
        return
    branches = [b for b in (InvalidInputError, EngineError) if issubclass(cls, b)]
    if cls in INTERRUPTIONS:
        assert branches == []
    else:
        assert len(branches) == 1, f"{where}.{cls.__name__} is on branches {branches}"


def test_the_branches_are_a_value_error_and_a_runtime_error():
    assert issubclass(InvalidInputError, ValueError) and not issubclass(InvalidInputError, RuntimeError)
    assert issubclass(EngineError, RuntimeError) and not issubclass(EngineError, ValueError)
    assert not issubclass(DraughtsError, (ValueError, RuntimeError))
    for cls in INTERRUPTIONS:
        assert not issubclass(cls, (ValueError, RuntimeError))


def test_each_class_is_defined_once_and_exported_by_the_package():
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert cls.__name__ == name and cls.__module__ == "draughts.errors"
        assert getattr(draughts, name) is cls
    # the old second names are gone
    from draughts.match import engines

    for old in ("EngineFailure", "EngineCrashed", "EngineStalled", "EngineOvertime", "EngineIllegal", "EngineNoMove"):
        assert not hasattr(engines, old)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("draughts.hub.errors")


def test_a_lost_dxp_connection_is_an_engine_error_not_a_value_error():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def close_at_once():
        sock, _ = server.accept()
        sock.close()

    threading.Thread(target=close_at_once, daemon=True).start()
    conn = P.Connection.connect("127.0.0.1", server.getsockname()[1])
    try:
        with pytest.raises(errors.DxpClosed) as err:
            conn.recv(5.0)
    finally:
        conn.close()
        server.close()
    assert isinstance(err.value, EngineError) and isinstance(err.value, RuntimeError)
    assert not isinstance(err.value, ValueError)


def test_a_dxp_connection_refused_is_an_engine_error():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    with pytest.raises(errors.DxpConnectionError) as err:
        P.Connection.connect("127.0.0.1", port, timeout=2.0)
    assert isinstance(err.value, RuntimeError) and not isinstance(err.value, ValueError)


def test_an_unreadable_dxp_message_is_bad_input():
    with pytest.raises(errors.DxpError) as err:
        P.parse("Q")
    assert isinstance(err.value, ValueError) and not isinstance(err.value, EngineError)


def test_a_lost_cluster_is_an_engine_error_not_a_value_error(monkeypatch):
    from draughts import cluster

    monkeypatch.setattr(cluster, "reachable", lambda address, timeout: "connection refused")
    watch = cluster.Watch("127.0.0.1:6379", grace=0.0, every=0.0)
    with pytest.raises(errors.ClusterLost) as err:
        watch.check()
        watch.check()
    assert isinstance(err.value, EngineError) and isinstance(err.value, RuntimeError)
    assert not isinstance(err.value, ValueError)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: draughts.Board("W:W99:B1"),  # FEN
        lambda: draughts.Board().push_text("99-98"),  # move
        lambda: pdn.read_game('[Event "x"]\n1. 32-28 19-23 2. 28x99 *'),  # PDN
        lambda: draughts.Engine(tt_mb=0),  # option
        lambda: draughts.variant("no such variant"),  # variant
    ],
)
def test_bad_input_is_a_value_error(bad):
    with pytest.raises(ValueError) as err:
        bad()
    assert isinstance(err.value, InvalidInputError)

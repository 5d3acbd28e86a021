"""Ray, the optional extra (`pip install draughts-engine[cluster]`): run work
as tasks on an existing Ray cluster.  Used by perft and by the match runner."""

from __future__ import annotations

from draughts.errors import DraughtsError


_connected = None


def connect(address: str):
    """Connect to the Ray cluster at `address` ("auto" finds a running one).

    A connection to another address made earlier in the process is closed first.
    """
    global _connected
    try:
        import ray
    except ImportError:
        raise DraughtsError("--cluster needs Ray: pip install 'draughts-engine[cluster]'") from None
    if ray.is_initialized() and _connected != address:
        ray.shutdown()
    if not ray.is_initialized():
        try:
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                     logging_level="ERROR")
        except Exception as e:                      # Ray raises ConnectionError, RuntimeError, ...
            raise DraughtsError(f"cannot connect to the Ray cluster at {address!r}: {e}") from None
        _connected = address
    return ray

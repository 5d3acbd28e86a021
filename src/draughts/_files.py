"""JSON files the tools keep (match state, perft checkpoints, summaries):
written whole or not at all, read back with an error that names the file."""

from __future__ import annotations

import json
import os
from typing import Any, Optional

from draughts.errors import InvalidInputError


def save_json(path: str, data: Any, *, indent: Optional[int] = None) -> None:
    """Write `data` to `path` atomically: a reader (or a crash) never sees half a file."""
    # json.dumps, not json.dump: only the one-shot encoder is the C one (json.dump
    # streams through the pure-Python encoder, many times slower)
    save_text(path, json.dumps(data, indent=indent))


def save_text(path: str, text: str) -> None:
    """Write `text` to `path` atomically (a reader or a crash never sees half a file)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)


def load_json(path: str, what: str) -> Any:
    """The JSON in `path`; InvalidInputError naming `what` (e.g. "match state")
    when it is missing or unreadable."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        raise InvalidInputError(f"no {what} file {path!r} to resume") from None
    except (OSError, ValueError) as e:
        raise InvalidInputError(f"cannot read {what} {path!r}: {e}") from None

"""What to type to add an optional extra (`gui`, `cluster`) to this
installation.  The package is installed from its source tree (`pip install .`
in a clone) or from a wheel or sdist file (or from a repository URL), and pip records where in the
distribution's `direct_url.json`; the command names that place.  With no such
record it gives both forms: the clone's and the distribution's name.

    >>> install_command("gui", '{"url": "file:///", "dir_info": {"editable": true}}')
    'pip install -e "/[gui]"'
    >>> install_command("gui", None)
    'pip install ".[gui]" in a clone of the source, or pip install "draughts-engine[gui]" for an installed distribution'
"""

from __future__ import annotations

import json
import os
from typing import Optional
from urllib.parse import unquote, urlparse

DISTRIBUTION = "draughts-engine"


def _direct_url() -> Optional[str]:
    """The distribution's `direct_url.json` text, if pip wrote one."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        try:
            return distribution(DISTRIBUTION).read_text("direct_url.json")
        except PackageNotFoundError:
            return None
    except Exception:  # an odd metadata store: fall back to the general advice
        return None


def _local_path(url: str) -> Optional[str]:
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    return unquote(parsed.path) or None


def install_command(extra: str, direct_url: Optional[str] = "read") -> str:
    """The pip command that adds `extra` to this installation (`direct_url`:
    the text of pip's record of where it was installed from; by default read
    from the installed distribution)."""
    if direct_url == "read":
        direct_url = _direct_url()
    general = (
        f'pip install ".[{extra}]" in a clone of the source, '
        f'or pip install "{DISTRIBUTION}[{extra}]" for an installed distribution'
    )
    if not direct_url:
        return general
    try:
        record = json.loads(direct_url)
    except ValueError:
        return general
    if not isinstance(record, dict) or not isinstance(record.get("url"), str):
        return general
    url = record["url"]
    path = _local_path(url)
    if path is not None and not os.path.exists(path):
        path = None  # moved or deleted since: the general advice
    if isinstance(record.get("dir_info"), dict) and path:
        # a source tree: pip install . (or -e .) from a clone
        editable = "-e " if record["dir_info"].get("editable") else ""
        return f'pip install {editable}"{path}[{extra}]"'
    if isinstance(record.get("archive_info"), dict) and path and os.path.basename(path):
        # a wheel or sdist file
        return f'pip install "{path}[{extra}]"'
    if isinstance(record.get("vcs_info"), dict) and url:
        # a repository URL: pip install git+https://...
        vcs = record["vcs_info"].get("vcs", "git")
        return f'pip install "{DISTRIBUTION}[{extra}] @ {vcs}+{url}"'
    return general

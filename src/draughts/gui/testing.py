"""Driving the GUI from Python: a server on a thread and a headless Chromium
through Playwright (the `gui-test` extra).  The browser tests, the
measurements (benchmarks/gui_measure.py) and the screenshots of docs/gui.md
are made with these.

The browser is the system's Chromium (Debian's `chromium` package), never
a downloaded one: `DRAUGHTS_CHROMIUM` names it, else `chromium` or
`chromium-browser` on the PATH.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import threading
import time
from typing import Iterator, Optional, Sequence

from draughts.gui.engines import EngineSpec  # noqa: F401  (the page's engines, for the tests)
from draughts.match.engines import EngineConfig


def chromium_path() -> Optional[str]:
    """The Chromium to drive, or None when there is none."""
    given = os.environ.get("DRAUGHTS_CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def live_server(
    engines: Sequence[EngineConfig] = (), port: Optional[int] = None, watch: Optional[str] = None
) -> Iterator[str]:
    """The GUI served on 127.0.0.1 from a thread; yields its address."""
    import uvicorn
    from draughts.gui.server import MAX_MESSAGE, create_app

    port = port or free_port()
    app = create_app(engines, watch=watch)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=MAX_MESSAGE, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="gui-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the GUI server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(20)


@contextlib.contextmanager
def browser(headless: bool = True):
    """A headless Chromium (the system's) driven by Playwright."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError("no Chromium found: install Debian's chromium or set DRAUGHTS_CHROMIUM")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=path, headless=headless, args=["--no-sandbox"] if os.geteuid() == 0 else []
        )
        try:
            yield b
        finally:
            b.close()


# --- page helpers ---------------------------------------------------------------


def click_square(page, number: int) -> None:
    """Click a square of the board by its number."""
    page.locator(f'#board rect[data-square="{number}"]').click()


def drag_square(page, start: int, end: int) -> None:
    """Drag the piece on `start` to `end`."""
    a = page.locator(f'#board rect[data-square="{start}"]').bounding_box()
    b = page.locator(f'#board rect[data-square="{end}"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=5)
    page.mouse.up()


def moves(page) -> list:
    """The move list's texts."""
    return page.locator("#moves .mv[data-ply]").all_inner_texts()


def wait_moves(page, count: int, timeout: float = 20000) -> list:
    page.wait_for_function(f"document.querySelectorAll('#moves .mv[data-ply]').length >= {count}", timeout=timeout)
    return moves(page)


def wait_ready(page) -> None:
    """The page has its first state from the server."""
    page.wait_for_selector("#board rect[data-square]")
    page.wait_for_function("document.querySelector('#variant').options.length > 0")


def new_game(
    page, variant: str, side: str = "white", fen: Optional[str] = None, movetime: Optional[float] = None
) -> None:
    """A new game as the page starts one: the side and the seconds a move, then
    the variant (choosing another starts its game) or **New game**, then a FEN.
    Each step waits for the server's answer, so that no older state is taken
    for the new game's."""

    def answered(action, check: str) -> None:
        # every state from now on is looked at (polling could miss one)
        page.evaluate(
            f"window.draughtsMatched = false; "
            f"window.draughtsOnState = s => {{ if ({check}) window.draughtsMatched = true; }}; 0"
        )
        action()
        page.wait_for_function("window.draughtsMatched")
        page.evaluate("window.draughtsOnState = null")

    if movetime is not None and float(page.input_value("#movetime")) != movetime:
        answered(
            lambda: (page.fill("#movetime", str(movetime)), page.dispatch_event("#movetime", "change")),
            f"s.movetime === {movetime}",
        )
    if page.input_value("#side") != side:
        answered(lambda: page.select_option("#side", side), f"s.side === {side!r}")
    fresh = f"s.variant.name === {variant!r} && s.moves.length === 0 && s.side === {side!r}"
    if page.input_value("#variant") != variant:
        answered(lambda: page.select_option("#variant", variant), fresh)
    else:
        answered(lambda: page.click("#new"), fresh)
    if fen is not None:
        page.fill("#fen", fen)
        answered(lambda: page.click("#fen-form button"), f"s.start_fen === {fen!r}")

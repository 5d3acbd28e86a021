"""The GUI's web server: Starlette on uvicorn.  `/` is the page, `/static/`
its files (shipped in the package), `/ws` the WebSocket over which the page
and its `Session` talk.  A WebSocket from another origin than the page's is
refused; so is a message larger than the upload limit."""

from __future__ import annotations

import asyncio
import json
import logging
import os
from contextlib import asynccontextmanager
from typing import List, Optional, Sequence
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from draughts.gui.engines import BUILTIN, EngineSpec
from draughts.gui.session import MAX_PDN, Session

LOG = logging.getLogger("draughts.gui")
STATIC = os.path.join(os.path.dirname(__file__), "static")
#: the largest WebSocket message taken (a PDN upload and its JSON wrapping)
MAX_MESSAGE = MAX_PDN + 64 * 1024


def origin_allowed(origin: Optional[str], host: Optional[str]) -> bool:
    """A page may open the WebSocket only from the server's own address (a
    client without an Origin header is no browser page and is let in)."""
    if origin is None:
        return True
    if not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def create_app(engines: Sequence[EngineSpec] = (), *, max_message: int = MAX_MESSAGE,
               watch: Optional[str] = None) -> Starlette:
    """The application; `engines` are the engines the page may pick besides
    our own (which comes first); `watch` the live or state file of a
    `draughts match` the page may follow."""
    specs: List[EngineSpec] = [BUILTIN] + [e for e in engines if e.name != BUILTIN.name]
    sessions: set = set()

    async def index(request):
        return FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})

    async def engine_list(request):
        return JSONResponse([s.to_json() for s in specs])

    async def ws_endpoint(ws: WebSocket):
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
            await ws.close(code=1008)
            return
        await ws.accept()

        async def send(msg):
            try:
                await ws.send_text(json.dumps(msg))
            except Exception:
                pass

        session = Session(send, specs, watch)
        sessions.add(session)
        try:
            await session.hello()
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    await send({"type": "error", "message": "a message must be JSON text"})
                    continue
                if len(text) > max_message:
                    await send({"type": "error", "message": f"message too large (limit {max_message} bytes)"})
                    continue
                try:
                    msg = json.loads(text)
                except ValueError:
                    await send({"type": "error", "message": "a message must be JSON"})
                    continue
                await session.handle(msg)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            # the page has gone (or the connection was cancelled): its engines end
            # whatever happens to this task
            closing = asyncio.ensure_future(session.close())
            try:
                await asyncio.shield(closing)
            finally:
                closing.add_done_callback(lambda _: sessions.discard(session))

    @asynccontextmanager
    async def lifespan(app):
        yield
        # the server ends: every page's engine ends with it
        await asyncio.gather(*(s.close() for s in list(sessions)), return_exceptions=True)

    app = Starlette(routes=[
        Route("/", index),
        Route("/engines", engine_list),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], lifespan=lifespan)
    app.state.sessions = sessions
    return app

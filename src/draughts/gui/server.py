"""The GUI's web server: Starlette on uvicorn.  `/` is the page, `/static/`
its files (shipped in the package), `/ws` the WebSocket over which the page
and its `Session` talk.  A request whose Host header names another machine
than the server's (what a DNS-rebinding page sends) is refused, a WebSocket
from another origin than the page's too, and so is a message larger than the
upload limit."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import os
from contextlib import asynccontextmanager
from typing import Collection, List, Optional, Sequence, Tuple
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from draughts.gui.engines import BUILTIN, engine_json
from draughts.match.engines import EngineConfig
from draughts.gui.session import MAX_PDN, Session

LOG = logging.getLogger("draughts.gui")
STATIC = os.path.join(os.path.dirname(__file__), "static")
#: the largest WebSocket message taken (a PDN upload and its JSON wrapping)
MAX_MESSAGE = MAX_PDN + 64 * 1024


#: the names of this machine on the loopback interface
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def split_host(host: str) -> Optional[Tuple[str, Optional[int]]]:
    """(name, port) of a Host header (`localhost:8000`, `[::1]:8000`,
    `127.0.0.1`; port None when absent), the name in lower case without the
    brackets; None for a header that is not of that form."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None
        name, rest = host[1:end], host[end + 1 :]
    else:
        name, sep, rest = host.rpartition(":")
        if not sep:
            name, rest = host, ""
        else:
            rest = ":" + rest
        if ":" in name:  # an IPv6 address must be bracketed
            return None
    if not name:
        return None
    if not rest:
        return name, None
    digits = rest[1:]
    if not rest.startswith(":") or not digits.isascii() or not digits.isdigit() or len(digits) > 5:
        return None
    return name, int(digits)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_allowed(
    host: Optional[str], names: Collection[str], port: Optional[int] = None, any_address: bool = False
) -> bool:
    """Whether a request's Host header names this server: one of `names` (or,
    with `any_address`, any IP address: a name that no DNS answer can point
    elsewhere), at `port` where it is known (a Host without a port means 80)."""
    if not host:
        return False
    parsed = split_host(host)
    if parsed is None:
        return False
    name, given = parsed
    if name not in names and not (any_address and _is_ip(name)):
        return False
    return port is None or (given if given is not None else 80) == port


def origin_allowed(origin: Optional[str], host: Optional[str]) -> bool:
    """A page may open the WebSocket only from the server's own address (a
    client without an Origin header is no browser page and is let in)."""
    if origin is None:
        return True
    if not host:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


class HostCheck:
    """ASGI middleware: a request whose Host header is not one of the
    server's names gets 400 (HTTP), or is closed before it is accepted
    (WebSocket: the handshake is answered 403)."""

    def __init__(self, app, names: Collection[str], port: Optional[int], any_address: bool):
        self.app = app
        self.names = frozenset(n.lower().strip("[]") for n in names)
        self.port = port
        self.any_address = any_address

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            host = None
            for key, value in scope.get("headers") or ():
                if key == b"host":
                    host = value.decode("latin-1")
                    break
            if not host_allowed(host, self.names, self.port, self.any_address):
                LOG.warning("refused a request for Host %r", host)
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                else:
                    body = b"this server answers to its own address only (bad Host header)\n"
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 400,
                            "headers": [
                                (b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()),
                            ],
                        }
                    )
                    await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def create_app(
    engines: Sequence[EngineConfig] = (),
    *,
    max_message: int = MAX_MESSAGE,
    watch: Optional[str] = None,
    hosts: Collection[str] = LOOPBACK_NAMES,
    port: Optional[int] = None,
    any_address: bool = False,
) -> Starlette:
    """The application; `engines` are the engines the page may pick besides
    our own (which comes first); `watch` the live or state file of a
    `draughts match` the page may follow.  Requests are answered only when
    their Host header is one of `hosts` (by default the loopback names), at
    `port` where given, or with `any_address` any IP address."""
    specs: List[EngineConfig] = [BUILTIN] + [e for e in engines if e.name != BUILTIN.name]
    sessions: set = set()

    async def index(request):
        return FileResponse(os.path.join(STATIC, "index.html"), headers={"Cache-Control": "no-cache"})

    async def engine_list(request):
        return JSONResponse([engine_json(s) for s in specs])

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

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/engines", engine_list),
            WebSocketRoute("/ws", ws_endpoint),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.add_middleware(HostCheck, names=hosts, port=port, any_address=any_address)
    app.state.sessions = sessions
    return app

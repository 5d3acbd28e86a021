"""`draughts gui`: a board in the browser, served from this machine.

    draughts gui [--host 127.0.0.1] [--port 8000] [--allow-remote] [--engine NAME=CMD ...]
                 [--config FILE] [--watch FILE] [--open]

The server (Starlette on uvicorn, `draughts.gui.server`) needs the `gui`
extra: ``pip install ".[gui]"`` in the clone (``pip install
"draughts-engine[gui]"`` for an installed distribution).  Each page's game lives in a
`draughts.gui.session.Session`; every engine call goes through
`draughts.gui.engines`.  The page only runs programs named by `--engine` or
the config file.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import os
import socket
import sys
from typing import List, Set, Tuple

from draughts._args import is_int, parse_int
from draughts._files import load_json
from draughts.errors import InvalidInputError


def install_hint() -> str:
    """What `draughts gui` says when the gui extra is missing: the command
    that adds it to this installation."""
    from draughts._install import install_command

    return f"draughts gui needs the server's packages (starlette, uvicorn, websockets): {install_command('gui')}"


def engines_from_args(args) -> List:
    from draughts.gui.engines import parse_engine_arg, specs_from_config

    specs = [parse_engine_arg(t) for t in args.engine or []]
    if args.config:
        specs += specs_from_config(load_json(args.config, "gui config"))
    names = [s.name for s in specs]
    dup = sorted({n for n in names if names.count(n) > 1} | ({"draughts"} & set(names)))
    if dup:
        raise InvalidInputError(f"engine names must differ (and not be 'draughts', our own): {', '.join(dup)}")
    return specs


def is_loopback(host: str) -> bool:
    """Whether `host` is an address (or the name localhost) of this machine's
    loopback interface, which no other machine reaches."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def served_names(host: str) -> Tuple[Set[str], bool]:
    """The Host header names the server answers to when bound to `host`, and
    whether any IP address is one (a wildcard bind: 0.0.0.0 or ::)."""
    from draughts.gui.server import LOOPBACK_NAMES

    names = set(LOOPBACK_NAMES) | {host.lower().strip("[]")}
    wildcard = host.strip("[]") in ("0.0.0.0", "::", "")
    if not is_loopback(host):
        # the names this machine goes by, as another machine would write them
        for name in (socket.gethostname(), socket.getfqdn()):
            if name:
                names.add(name.lower())
    return names, wildcard


def bind(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) for the server; a port in use or an
    address that is not this machine's is an InvalidInputError that says
    what to do."""
    bare = host.strip("[]")
    try:
        infos = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise InvalidInputError(f"--host {host}: {e.strerror or e}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and bare == "::":
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise InvalidInputError(
                f"port {port} on {host} is in use (another program, or another draughts gui, "
                f"serves there): pick another with --port N, or --port 0 for any free one"
            ) from None
        if e.errno == errno.EACCES:
            raise InvalidInputError(
                f"port {port} on {host} is not open to this user (ports below 1024 need "
                f"privileges): pick another with --port N, or --port 0 for any free one"
            ) from None
        raise InvalidInputError(f"cannot serve on {host} port {port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def cmd_gui(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError:
        print(f"draughts: error: {install_hint()}", file=sys.stderr)
        return 2
    from draughts.gui.server import MAX_MESSAGE, create_app

    remote = not is_loopback(args.host)
    if remote and not args.allow_remote:
        raise InvalidInputError(
            f"--host {args.host} is reachable from other machines, and the page runs the engines it names "
            f"on this one: add --allow-remote to serve there anyway (default: 127.0.0.1, this machine only)"
        )
    specs = engines_from_args(args)
    sock = bind(args.host, args.port)
    port = sock.getsockname()[1]
    names, wildcard = served_names(args.host)
    if remote:
        print(
            f"draughts gui: warning: serving on {args.host} port {port} (--allow-remote): anyone who can "
            f"reach this machine can use the page, its engines and their processor time; there is no "
            f"password and no encryption",
            file=sys.stderr,
            flush=True,
        )
    app = create_app(
        specs, watch=os.path.abspath(args.watch) if args.watch else None, hosts=names, port=port, any_address=wildcard
    )
    config = uvicorn.Config(app, log_level="warning", ws_max_size=MAX_MESSAGE, lifespan="on")
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if wildcard else args.host.strip("[]")
    host = f"[{shown}]" if ":" in shown else shown
    address = f"http://{host}:{port}/"

    started = server.startup

    async def startup(sockets=None):
        await started(sockets)
        if server.started:
            print(f"draughts gui: serving on {address} (Ctrl-C to stop)", flush=True)
            if args.open:
                import webbrowser

                webbrowser.open(address)

    server.startup = startup  # type: ignore[method-assign]
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return 0


def _port(text: str) -> int:
    if not is_int(text):
        raise argparse.ArgumentTypeError(f"a port is a number, not {text!r}")
    n = parse_int(text)
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is from 0 to 65535, not {n}")
    return n


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "gui",
        help="a board in the browser: play, analyse (needs the gui extra)",
        description="Serve a board in the browser: play against the engine in any variant, analyse "
        "with multi-PV lines, load and save PDN, start or follow engine matches.  "
        "Binds to 127.0.0.1 unless told.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; another needs --allow-remote)",
    )
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="serve on a --host that other machines reach (0.0.0.0, a network address): anyone "
        "who reaches it can use the page and the engines it runs; no password, no encryption",
    )
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free one)")
    p.add_argument(
        "--engine",
        action="append",
        metavar="NAME=CMD",
        help="a Hub engine the page may pick, e.g. scan='./scan hub', or a DXP engine "
        "(international), NAME=dxp://HOST:PORT (repeatable)",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help='a JSON file of engines: {"engines": [{"name": N, "cmd": [...], "dir": D}, '
        '{"name": N, "proto": "dxp", "host": H, "port": P}]}',
    )
    p.add_argument(
        "--watch",
        metavar="FILE",
        help="a match that `draughts match` runs, for the page to follow: its -live FILE "
        "(the games in progress, clocks and lines) or its -state FILE (finished games)",
    )
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.set_defaults(func=cmd_gui)

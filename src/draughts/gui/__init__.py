"""`draughts gui`: a board in the browser, served from this machine.

    draughts gui [--host 127.0.0.1] [--port 8000] [--engine NAME=CMD ...] [--config FILE]
                 [--watch FILE] [--open]

The server (Starlette on uvicorn, `draughts.gui.server`) needs the `gui`
extra: ``pip install ".[gui]"`` in the clone (``pip install
"draughts-engine[gui]"`` for an installed distribution).  Each page's game lives in a
`draughts.gui.session.Session`; every engine call goes through
`draughts.gui.engines`.  The page only runs programs named by `--engine` or
the config file.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import List

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


def cmd_gui(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401
    except ImportError:
        print(f"draughts: error: {install_hint()}", file=sys.stderr)
        return 2
    from draughts.gui.server import MAX_MESSAGE, create_app
    specs = engines_from_args(args)
    app = create_app(specs, watch=os.path.abspath(args.watch) if args.watch else None)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            ws_max_size=MAX_MESSAGE, lifespan="on")
    server = uvicorn.Server(config)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"

    started = server.startup

    async def startup(sockets=None):
        await started(sockets)
        if server.started:
            port = args.port
            if port == 0 and server.servers and server.servers[0].sockets:
                port = server.servers[0].sockets[0].getsockname()[1]
            address = f"http://{host}:{port}/"
            print(f"draughts gui: serving on {address} (Ctrl-C to stop)", flush=True)
            if args.open:
                import webbrowser
                webbrowser.open(address)

    server.startup = startup  # type: ignore[method-assign]
    del url
    server.run()
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
        "gui", help="a board in the browser: play, analyse (needs the gui extra)",
        description="Serve a board in the browser: play against the engine in any variant, analyse "
                    "with multi-PV lines, load and save PDN, start or follow engine matches.  "
                    "Binds to 127.0.0.1 unless told.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free one)")
    p.add_argument("--engine", action="append", metavar="NAME=CMD",
                   help="a Hub engine the page may pick, e.g. scan='./scan hub', or a DXP engine "
                        "(international), NAME=dxp://HOST:PORT (repeatable)")
    p.add_argument("--config", metavar="FILE",
                   help='a JSON file of engines: {"engines": [{"name": N, "cmd": [...], "dir": D}, '
                        '{"name": N, "proto": "dxp", "host": H, "port": P}]}')
    p.add_argument("--watch", metavar="FILE",
                   help="a match that `draughts match` runs, for the page to follow: its -live FILE "
                        "(the games in progress, clocks and lines) or its -state FILE (finished games)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.set_defaults(func=cmd_gui)

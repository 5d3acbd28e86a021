"""`draughts dxp`: our engine over DXP, as the follower or the initiator."""

from __future__ import annotations

import sys

from draughts.errors import DxpConnectionError
from draughts import pdn
from draughts.dxp.protocol import DEFAULT_PORT, FRAME_TIMEOUT, Connection
from draughts.dxp.session import IDLE_TIMEOUT, ENGINE_NAME, EngineMover, initiate, listen, parse_address, serve
from draughts.engine import LEVEL_MAX


def _mover(args) -> EngineMover:
    return EngineMover(tt_mb=args.tt_mb, level=args.level, depth=args.depth, nodes=args.nodes, movetime=args.movetime)


def cmd_dxp(args) -> int:
    log = (lambda text: print(text, file=sys.stderr, flush=True)) if not args.quiet else (lambda text: None)
    if args.listen is not None:
        host, port = parse_address(args.listen, DEFAULT_PORT)
        try:
            server = listen(host, port)
        except OSError as e:
            raise DxpConnectionError(f"cannot listen on {host}:{port}: {e}") from None
        with server:
            bound = server.getsockname()
            print(f"listening {bound[0]}:{bound[1]}", flush=True)
            games = serve(
                server,
                _mover(args),
                name=args.name,
                once=args.once,
                log=log,
                idle_timeout=args.idle_timeout,
                frame_timeout=args.frame_timeout,
            )
        log(f"dxp: {games} games played")
        return 0
    host, port = parse_address(args.connect, DEFAULT_PORT)
    conn = Connection.connect(host, port, timeout=args.connect_timeout)
    try:
        peer, results = initiate(
            conn, _mover(args), games=args.games, minutes=args.time, moves=args.moves, name=args.name, log=log
        )
    finally:
        conn.close()
    wins = sum(1 for r in results if r.points() == 1.0)
    losses = sum(1 for r in results if r.points() == 0.0)
    draws = sum(1 for r in results if r.points() == 0.5)
    unfinished = sum(1 for r in results if r.points() is None)
    for n, r in enumerate(results, start=1):
        colour = "White" if r.our_colour.name == "WHITE" else "Black"
        print(f"Game {n}: {args.name} ({colour}) vs {peer}: {r.result_token()} ({r.reason})")
    print(
        f"Score of {args.name} vs {peer}: {wins} - {losses} - {draws}"
        + (f" ({unfinished} unfinished)" if unfinished else "")
    )
    if args.pdnout:
        chunks = []
        for n, r in enumerate(results, start=1):
            white, black = (args.name, peer) if r.our_colour.name == "WHITE" else (peer, args.name)
            game = pdn.Game.from_board(
                r.board,
                {"Event": "DXP match", "Round": str(n), "White": white, "Black": black},
                result=r.result_token(),
            )
            chunks.append(pdn.write_game(game))
        with open(args.pdnout, "w", encoding="utf-8") as out:
            out.write("\n".join(chunks))
    return 0 if len(results) == args.games and not unfinished else 1


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "dxp",
        help="play 10x10 games over DXP (DamExchange), as follower or initiator",
        description="Our engine over DXP, the TCP protocol of 10x10 engine matches (Scan, KingsRow, "
        "Damage, DCTL). --listen waits for an initiator's GAMEREQs and plays; --connect "
        "starts games against a follower. Our Board referees; each side keeps its own clock.",
    )
    role = p.add_mutually_exclusive_group(required=True)
    role.add_argument(
        "--listen",
        metavar="HOST:PORT",
        help=f"be the follower (default port {DEFAULT_PORT}; "
        "port 0 picks a free one, printed as `listening HOST:PORT`)",
    )
    role.add_argument("--connect", metavar="HOST:PORT", help="be the initiator")
    p.add_argument("--games", type=int, default=1, help="games to start as initiator (default 1)")
    p.add_argument("--time", type=int, default=5, help="minutes per player for the whole game (default 5)")
    p.add_argument(
        "--moves",
        type=int,
        default=0,
        help="the game's length in moves: at that many moves each, "
        "the side to move ends the game, scored a draw (default 0: no limit)",
    )
    p.add_argument("--once", action="store_true", help="follower: exit when the first connection ends")
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=IDLE_TIMEOUT,
        metavar="S",
        help=f"follower: close a connection that sends no GAMEREQ for S seconds, or no move "
        f"in a game without a clock (default {IDLE_TIMEOUT:g})",
    )
    p.add_argument(
        "--frame-timeout",
        type=float,
        default=FRAME_TIMEOUT,
        metavar="S",
        help=f"follower: close a connection that leaves a message half sent for S seconds (default {FRAME_TIMEOUT:g})",
    )
    p.add_argument("--name", default=ENGINE_NAME, help="the name sent in GAMEREQ/GAMEACC")
    p.add_argument("--depth", type=int, default=None, help="search to this depth instead of the clock")
    p.add_argument("--nodes", type=int, default=None, help="search this many nodes instead of the clock")
    p.add_argument("--movetime", type=float, default=None, help="seconds per move instead of the clock")
    p.add_argument("--tt-mb", type=int, default=64, help="transposition table in MiB (default 64)")
    p.add_argument("--level", type=int, default=LEVEL_MAX, help=f"strength 1-{LEVEL_MAX} (default {LEVEL_MAX})")
    p.add_argument("--connect-timeout", type=float, default=10.0, help="seconds to keep trying to connect")
    p.add_argument("--pdnout", metavar="FILE", help="initiator: write the games as PDN")
    p.add_argument("--quiet", "-q", action="store_true", help="no log lines on stderr")
    p.set_defaults(func=cmd_dxp)

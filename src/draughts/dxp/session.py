"""DXP games with our engine on one side: the game loop both roles share, the
follower (`draughts dxp --listen`) and the initiator (`draughts dxp --connect`).

Our Board referees every game and each side keeps its own clock (DXP's move
times are informational).  What goes wrong is answered the same way on both
sides, always with a CHAT saying what happened and then a GAMEEND:

* the peer's move is illegal, or it sends nothing in its time: the game is
  ours (GAMEEND 3, "I win"), and another game is welcome (stop code 0);
* a message that cannot be read, or one that has no place in a game (a
  GAMEREQ or GAMEACC during it): GAMEEND 0 with stop code 1, and the
  connection is closed, since the peer's side of the protocol cannot be
  trusted;
* the peer disconnects: the game ends unfinished;
* a GAMEEND from the peer is answered with our own GAMEEND (our view of the
  result: 3 won, 2 draw, 1 lost, 0 unknown), as DXP asks;
* CHAT is logged; a BACKREQ is accepted (BACKACC 0) when it names a
  position of this game, and declined (BACKACC 2) otherwise.

The move count of a GAMEREQ is the length of the game, as Scan and Moby Dam
read it: once both sides have made that many moves from the GAMEREQ's
position, the side to move sends GAMEEND (with a CHAT saying why) instead of
a move, and the game is scored a draw unless the board says otherwise.  The
minutes are for the whole game; there is no second period.

The follower outlives its peers: nothing a peer sends ends `serve`.  A broken
connection is logged and the next one taken; a peer that sends no GAMEREQ for
`idle_timeout` seconds (or, in a game without a clock, no move), or leaves a
message half sent for the connection's frame timeout, is disconnected.
"""

from __future__ import annotations

import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Tuple

from draughts._args import parse_int
from draughts.board import Board, Move
from draughts.dxp.protocol import (
    FRAME_TIMEOUT,
    BackAcc,
    BackReq,
    Chat,
    Connection,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
    REASONS,
    board_of,
    colour_letter,
    colour_of,
    legal_move,
    format,
    move_message,
    position_of,
)
from draughts.engine import LEVEL_MAX, Engine
from draughts.errors import DxpClosed, DxpConnectionError, DxpError, DxpTimeout, EngineError, EngineProtocolError
from draughts.limits import Limit
from draughts.variants import Color, WHITE

ENGINE_NAME = "draughts"
#: seconds past its clock that a peer may take before it loses on time
TIME_GRACE = 2.0
#: seconds to wait for the peer's answering GAMEEND
GAMEEND_WAIT = 5.0
#: the per-move limit when a GAMEREQ gives no time (minutes 000)
NO_CLOCK_MOVETIME = 1.0
#: seconds a peer may leave the follower waiting for a GAMEREQ, or for a move in a game with no clock
IDLE_TIMEOUT = 900.0
#: take-backs accepted in one game (more are declined: a peer cannot hold a game forever)
MAX_TAKEBACKS = 100

Log = Callable[[str], None]


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class EngineMover:
    """Our engine choosing moves: on the game's clock, or at a fixed `depth`,
    `nodes` or `movetime` when one is given (for quick games and tests)."""

    def __init__(
        self,
        *,
        tt_mb: int = 64,
        level: int = LEVEL_MAX,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime: Optional[float] = None,
    ):
        self.engine = Engine("international", tt_mb=tt_mb, level=level)
        fixed = Limit(depth=depth, nodes=nodes, movetime=movetime)
        self.fixed: Optional[Limit] = None if fixed.empty else fixed

    def new_game(self) -> None:
        self.engine.new_game()

    def choose(self, board: Board, remaining: Optional[float], moves_to_go: Optional[int]) -> Move:
        if self.fixed is not None:
            limit = self.fixed
        elif remaining is None:
            limit = Limit(movetime=NO_CLOCK_MOVETIME)
        else:
            limit = Limit(time=max(0.01, remaining), moves_to_go=moves_to_go or None)
        return self.engine.play(board, limit).move


@dataclass
class GameResult:
    """How a DXP game ended, from our side."""

    board: Board
    our_colour: Color
    winner: Optional[Color] = None  # None: a draw, or unknown when `finished` is False
    finished: bool = False  # the result is known
    reason: str = ""
    stop: bool = False  # either side asked to stop, or the connection is gone
    connection_lost: bool = False
    chat: List[str] = field(default_factory=list)

    def points(self) -> Optional[float]:
        if not self.finished:
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.our_colour else 0.0

    def result_token(self) -> str:
        if not self.finished:
            return "*"
        if self.winner is None:
            return "1-1"
        return "2-0" if self.winner == WHITE else "0-2"


def _our_reason(board: Board, ours: Color) -> int:
    outcome = board.outcome()
    if outcome is None:
        return GameEnd.UNKNOWN
    if outcome.winner is None:
        return GameEnd.DRAW
    return GameEnd.I_WIN if outcome.winner == ours else GameEnd.I_RESIGN


class DxpGame:
    """One game on a connection: our engine plays `our_colour` from `board`."""

    def __init__(
        self,
        conn: Connection,
        board: Board,
        our_colour: Color,
        minutes: int,
        moves: int,
        mover: EngineMover,
        *,
        stop_after: bool = False,
        log: Log = _stderr,
        idle_timeout: float = IDLE_TIMEOUT,
    ):
        self.conn = conn
        self.board = board
        self.start_ply = len(board.move_stack)
        self.start_turn = board.turn
        self.ours = our_colour
        self.length = moves  # moves each of the game (0: no limit)
        clock = minutes * 60.0 if minutes else None
        self.remaining = {Color.WHITE: clock, Color.BLACK: clock}
        self.mover = mover
        self.stop_after = stop_after
        self.log = log
        self.idle_timeout = idle_timeout
        self.takebacks = 0
        self.result = GameResult(board, our_colour)

    def _made(self, colour: Color) -> int:
        """Moves `colour` has made since the GAMEREQ's position."""
        plies = len(self.board.move_stack) - self.start_ply
        return (plies + (1 if colour == self.start_turn else 0)) // 2

    def at_length(self) -> bool:
        """Both sides have made the GAMEREQ's number of moves."""
        return bool(self.length) and len(self.board.move_stack) - self.start_ply >= 2 * self.length

    # --- ending -------------------------------------------------------------------
    def _moves_to_go(self, colour: Color) -> Optional[int]:
        if not self.length:
            return None
        return max(1, self.length - self._made(colour))

    def _end(self, winner: Optional[Color], finished: bool, reason: str, *, stop: bool = False) -> GameResult:
        r = self.result
        r.winner, r.finished, r.reason = winner, finished, reason
        r.stop = r.stop or stop
        return r

    def _send_end(self, reason: int, stop: bool, chat: Optional[str] = None) -> bool:
        """Send (CHAT and) our GAMEEND, then wait for the peer's answer; False if
        the connection is gone."""
        try:
            if chat:
                self.conn.send(Chat(chat))
            self.conn.send(GameEnd(reason, 1 if (stop or self.stop_after) else 0))
        except DxpClosed:
            self.result.connection_lost = True
            return False
        self.result.stop = self.result.stop or stop or self.stop_after
        end = time.monotonic() + GAMEEND_WAIT
        while True:
            try:
                msg = self.conn.recv(max(0.01, end - time.monotonic()))
            except DxpTimeout:
                return True
            except DxpClosed:
                self.result.connection_lost = True
                return False
            except (DxpError, DxpConnectionError):
                self.result.stop = True
                return True
            if isinstance(msg, GameEnd):
                self.result.stop = self.result.stop or msg.stop == 1
                return True
            if isinstance(msg, Chat):
                self._chat(msg)
            # a move that crossed our GAMEEND, or anything else: the game is over

    def _chat(self, msg: Chat) -> None:
        self.result.chat.append(msg.text)
        self.log(f"dxp: peer says: {msg.text}")

    def _over_on_board(self) -> GameResult:
        # DXP has the side to move send the GAMEEND; we send ours whichever side
        # that is, so a peer that does not see the end (a repetition) is told
        outcome = self.board.outcome()
        assert outcome is not None, "called when the game is over on the board"
        self._send_end(_our_reason(self.board, self.ours), False)
        return self._end(outcome.winner, True, outcome.reason)

    def _peer_fault(self, text: str) -> GameResult:
        self._send_end(GameEnd.I_WIN, False, text)
        return self._end(self.ours, True, text)

    def _protocol_fault(self, text: str) -> GameResult:
        self._send_end(GameEnd.UNKNOWN, True, text)
        return self._end(None, False, text, stop=True)

    def _length_words(self) -> str:
        return f"the game length of {self.length} moves is reached"

    def _at_length_ours(self) -> GameResult:
        # DXP's convention (Scan, Moby Dam): the side to move ends the game
        # with a GAMEEND instead of a move, and says why
        words = self._length_words()
        self._send_end(GameEnd.UNKNOWN, False, words)
        return self._end(None, True, f"a draw: {words}")

    # --- the game -----------------------------------------------------------------
    def play(self) -> GameResult:
        while True:
            if self.board.outcome() is not None:
                return self._over_on_board()
            try:
                if self.board.turn == self.ours:
                    if self.at_length():
                        return self._at_length_ours()
                    self._our_move()
                else:
                    done = self._their_turn()
                    if done is not None:
                        return done
            except DxpClosed as e:
                self.result.connection_lost = True
                return self._end(None, False, f"the peer disconnected ({e})", stop=True)

    def _our_move(self) -> None:
        t0 = time.monotonic()
        move = self.mover.choose(self.board, self.remaining[self.ours], self._moves_to_go(self.ours))
        elapsed = time.monotonic() - t0
        self._charge(self.ours, elapsed)
        self.board.push(move)
        self.conn.send(move_message(move, elapsed))

    def _charge(self, colour: Color, elapsed: float) -> None:
        left = self.remaining[colour]
        if left is not None:
            self.remaining[colour] = left - elapsed

    def _their_turn(self) -> Optional[GameResult]:
        theirs = ~self.ours
        t0 = time.monotonic()
        budget = self.remaining[theirs]
        # with no clock, a peer may still not keep the game waiting forever
        deadline = t0 + (self.idle_timeout if budget is None else max(0.0, budget) + TIME_GRACE)
        while True:
            wait = max(0.0, deadline - time.monotonic())
            try:
                msg = self.conn.recv(wait)
            except DxpTimeout:
                if budget is None:
                    return self._protocol_fault(f"no move in {time.monotonic() - t0:.1f} s (no clock)")
                return self._peer_fault(
                    f"{colour_letter(theirs)} lost on time: no move in {time.monotonic() - t0:.1f} s"
                )
            except DxpClosed as e:
                self.result.connection_lost = True
                return self._end(None, False, f"the peer disconnected ({e})", stop=True)
            except (DxpError, DxpConnectionError) as e:
                return self._protocol_fault(f"cannot read the message: {e}")
            if isinstance(msg, MoveMsg):
                move = legal_move(self.board, msg)
                if move is None:
                    return self._peer_fault(
                        f"illegal move {msg.start:02d}-{msg.end:02d} taking {list(msg.captured)} in {self.board.fen()}"
                    )
                self._charge(theirs, time.monotonic() - t0)
                self.board.push(move)
                return None
            if isinstance(msg, GameEnd):
                return self._their_end(msg)
            if isinstance(msg, Chat):
                self._chat(msg)
            elif isinstance(msg, BackReq):
                self._charge(theirs, time.monotonic() - t0)  # its thinking time is its own
                t0 = time.monotonic()
                budget = self.remaining[theirs]
                deadline = t0 + (self.idle_timeout if budget is None else max(0.0, budget) + TIME_GRACE)
                if self._back(msg) and self.board.turn == self.ours:
                    return None
            elif isinstance(msg, BackAcc):
                self.log(f"dxp: ignoring a BACKACC {msg.code} that answers no request")
            else:  # GAMEREQ, GAMEACC: no place in a game
                return self._protocol_fault(f"a {type(msg).__name__} during a game")

    def _their_end(self, msg: GameEnd) -> GameResult:
        theirs = ~self.ours
        outcome = self.board.outcome()
        if msg.reason == GameEnd.I_RESIGN:
            winner, finished, why = self.ours, True, f"{colour_letter(theirs)} resigns"
        elif msg.reason == GameEnd.DRAW:
            winner, finished, why = None, True, "a draw by agreement"
        elif outcome is not None:
            winner, finished, why = outcome.winner, True, outcome.reason
        elif self.at_length():
            winner, finished, why = None, True, f"a draw: {self._length_words()}"
        else:
            winner, finished, why = None, False, f"the peer ended the game ({REASONS[msg.reason]})"
        ours = (
            GameEnd.DRAW
            if (finished and winner is None)
            else (
                GameEnd.I_WIN if finished and winner == self.ours else GameEnd.I_RESIGN if finished else GameEnd.UNKNOWN
            )
        )
        stop = msg.stop == 1 or self.stop_after
        try:
            self.conn.send(GameEnd(ours, 1 if stop else 0))
        except DxpClosed:
            self.result.connection_lost = True
        return self._end(winner, finished, why, stop=stop)

    def _back(self, msg: BackReq) -> bool:
        """Take back as asked (True) or decline (False)."""
        first = self.start_turn
        ply = self.start_ply + 2 * (msg.move_number - 1) + (0 if colour_of(msg.color) == first else 1)
        if (
            msg.move_number < 1
            or not self.start_ply <= ply <= len(self.board.move_stack)
            or self.takebacks >= MAX_TAKEBACKS
        ):
            self.conn.send(BackAcc(BackAcc.DECLINE))
            return False
        self.takebacks += 1
        while len(self.board.move_stack) > ply:
            self.board.pop()
        self.conn.send(BackAcc(BackAcc.ACCEPT))
        return True


# --- the follower ----------------------------------------------------------------------


def follow(
    conn: Connection,
    mover: EngineMover,
    *,
    name: str = ENGINE_NAME,
    log: Log = _stderr,
    on_game: Optional[Callable[[GameResult], None]] = None,
    idle_timeout: Optional[float] = IDLE_TIMEOUT,
) -> int:
    """Answer GAMEREQs on one connection and play the games; returns the games
    played.  The peer has `idle_timeout` seconds (None: no limit) from the
    start and from the end of each game to begin the next; a connection that
    breaks ends the call, never with an error."""
    games = 0
    idle = idle_timeout if idle_timeout is not None else IDLE_TIMEOUT
    deadline = None if idle_timeout is None else time.monotonic() + idle_timeout
    try:
        while True:
            try:
                msg = conn.recv(None if deadline is None else max(0.0, deadline - time.monotonic()))
            except DxpClosed:
                return games
            except DxpTimeout:
                log(f"dxp: no GAMEREQ in {idle_timeout:.1f} s: closing the connection")
                _say_and_close(conn, f"no GAMEREQ in {idle_timeout:.1f} s")
                return games
            except (DxpError, DxpConnectionError) as e:
                log(f"dxp: cannot read the message: {e}")
                _say_and_close(conn, f"cannot read the message: {e}")
                return games
            if isinstance(msg, GameReq):
                if msg.version != 1:
                    conn.send(GameAcc(name, GameAcc.WRONG_VERSION))
                    continue
                try:
                    board = board_of(msg.position)
                    if board.outcome() is not None:
                        raise DxpError(f"no game to play: the game is over in {board.fen()}")
                except DxpError as e:
                    conn.send(Chat(str(e)))
                    conn.send(GameAcc(name, GameAcc.NOT_THIS_GAME))
                    continue
                conn.send(GameAcc(name, GameAcc.ACCEPT))
                mover.new_game()
                result = DxpGame(
                    conn, board, colour_of(msg.follower), msg.minutes, msg.moves, mover, log=log, idle_timeout=idle
                ).play()
                games += 1
                log(f"dxp: game {games}: {result.result_token()} ({result.reason})")
                if on_game is not None:
                    on_game(result)
                if result.stop or result.connection_lost:
                    conn.close()
                    return games
                if deadline is not None:
                    deadline = time.monotonic() + idle
            elif isinstance(msg, Chat):
                log(f"dxp: peer says: {msg.text}")
            elif isinstance(msg, BackReq):
                conn.send(BackAcc(BackAcc.DECLINE))
            elif isinstance(msg, GameEnd):
                conn.send(GameEnd(GameEnd.UNKNOWN, msg.stop))  # no game: answered all the same
                if msg.stop:
                    conn.close()
                    return games
            else:  # MOVE, GAMEACC, BACKACC with no game
                conn.send(Chat(f"no game in progress: {type(msg).__name__} ignored"))
    except DxpClosed as e:
        log(f"dxp: the connection broke: {e}")
        return games


def _say_and_close(conn: Connection, text: str) -> None:
    try:
        conn.send(Chat(text))
        conn.send(GameEnd(GameEnd.UNKNOWN, GameEnd.STOP))
    except DxpConnectionError:
        pass
    conn.close()


def listen(host: str, port: int) -> socket.socket:
    server = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((host, port))
        server.listen(8)
    except BaseException:
        server.close()  # a port in use, say: no socket left open
        raise
    return server


def serve(
    server: socket.socket,
    mover: EngineMover,
    *,
    name: str = ENGINE_NAME,
    once: bool = False,
    log: Log = _stderr,
    idle_timeout: Optional[float] = IDLE_TIMEOUT,
    frame_timeout: float = FRAME_TIMEOUT,
) -> int:
    """Accept connections one after the other and follow on each; with `once`,
    return after the first.  Nothing a peer does ends the loop: a connection
    that breaks, or fails in any way, is logged and closed, and the next one
    taken.  Returns (the games played) when the server socket is closed."""
    total = 0
    while True:
        try:
            sock, address = server.accept()
        except OSError as e:
            if server.fileno() == -1:
                return total  # closed under us: the server is over
            log(f"dxp: cannot accept a connection: {e}")
            time.sleep(0.1)  # (out of file descriptors, say): try again
            continue
        conn = Connection(sock, frame_timeout=frame_timeout)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            log(f"dxp: connection from {address[0]}:{address[1]}")
            total += follow(conn, mover, name=name, log=log, idle_timeout=idle_timeout)
        except (DxpError, DxpConnectionError, OSError) as e:
            log(f"dxp: the connection failed: {e}")
        except Exception as e:  # a fault of ours: log it, keep serving
            log(f"dxp: the connection failed: {type(e).__name__}: {e}")
        finally:
            conn.close()
        if once:
            return total


# --- the initiator ----------------------------------------------------------------------


def initiate(
    conn: Connection,
    mover: EngineMover,
    *,
    games: int = 1,
    minutes: int = 5,
    moves: int = 0,
    name: str = ENGINE_NAME,
    log: Log = _stderr,
    accept_timeout: float = 30.0,
    start: Optional[Board] = None,
) -> Tuple[str, List[GameResult]]:
    """Play `games` games (the follower is Black in the first, colours alternate);
    returns the follower's name and the results."""
    results: List[GameResult] = []
    peer = "?"
    for n in range(games):
        follower = Color.BLACK if n % 2 == 0 else Color.WHITE
        board = start.copy(stack=False) if start is not None else Board()
        conn.send(GameReq(name, colour_letter(follower), minutes, moves, position_of(board)))
        while True:
            try:
                msg = conn.recv(accept_timeout)
            except (DxpError, DxpConnectionError) as e:
                raise type(e)(f"no GAMEACC: {e}") from None
            if isinstance(msg, Chat):
                log(f"dxp: peer says: {msg.text}")
                continue
            break
        if not isinstance(msg, GameAcc):
            _say_and_close(conn, f"expected a GAMEACC, not a {type(msg).__name__}")
            raise EngineProtocolError(f"the follower answered a GAMEREQ with a {type(msg).__name__}", format(msg))
        peer = msg.name or peer
        if msg.code != GameAcc.ACCEPT:
            why = {1: "wrong version", 2: "not this game", 3: "no games"}.get(msg.code, f"code {msg.code}")
            raise EngineError(f"{peer} refused the game ({why})")
        mover.new_game()
        result = DxpGame(conn, board, ~follower, minutes, moves, mover, stop_after=(n == games - 1), log=log).play()
        results.append(result)
        log(f"dxp: game {n + 1}: {result.result_token()} ({result.reason})")
        if (result.stop and n < games - 1) or result.connection_lost:
            break
    return peer, results


def parse_address(text: str, default_port: int) -> Tuple[str, int]:
    """`HOST:PORT`, `HOST` or `:PORT` (IPv6 as `[::1]:PORT`)."""
    t = text.strip()
    if t.startswith("["):
        host, _, rest = t[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif t.count(":") == 1:
        host, port = t.split(":")
    else:
        host, port = t, ""
    number = parse_int(port, f"the port of {text!r}", 0, 65535) if port else default_port
    return host or "127.0.0.1", number

"""DXP (DamExchange) messages: the codec and the framing, shared by both sides.

DXP is the engine-to-engine protocol of 10x10 tournaments (Frank Mesander's
DamExchange definition, as Scan and DCTL implement it).  TCP, port 27531 by
default; each message is 1-127 ASCII characters and one NUL byte; the first
character is the message type and numbers are zero-padded decimal:

    >>> parse("R01Tornado voor Windows 4.0        W060065A")
    GameReq(name='Tornado voor Windows 4.0', follower='W', minutes=60, moves=65, position=None, version=1)
    >>> parse("M001205250422122320")
    MoveMsg(seconds=12, start=5, end=25, captured=(22, 12, 23, 20))
    >>> format(GameEnd(reason=GameEnd.I_RESIGN, stop=0))
    'E10'

Colours are `W` (white) and `Z` (zwart, black).  A position is the colour to
move and 50 letters, square 1 to 50: `e` empty, `w` `z` men, `W` `Z` kings.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from typing import Optional, Tuple, Union

from draughts._args import parse_int
from draughts.board import Board
from draughts.errors import (
    DxpClosed,
    DxpConnectionError,
    DxpError,
    DxpIncomplete,
    DxpTimeout,
    InvalidInputError,
    OptionError,
)
from draughts.notation import format_fen
from draughts.variants import BLACK, WHITE, Color, variant as get_variant

DEFAULT_PORT = 27531
VERSION = 1
NAME_LENGTH = 32
MAX_LENGTH = 127
INTERNATIONAL = get_variant("international")
#: seconds a message, once begun, may take to arrive whole (its NUL)
FRAME_TIMEOUT = 10.0
#: seconds a send may wait for the peer to read
SEND_TIMEOUT = 10.0


@dataclass(frozen=True)
class GameReq:
    """`R`: the initiator proposes a game.  `follower` is the colour the follower
    plays; `minutes` the time for the whole game per player; `moves` the number
    of moves in it (0: no limit); `position` None for the normal start, else
    (colour to move, 50 letters)."""

    name: str
    follower: str  # "W" or "Z"
    minutes: int
    moves: int
    position: Optional[Tuple[str, str]] = None
    version: int = VERSION


@dataclass(frozen=True)
class GameAcc:
    """`A`: the follower's answer."""

    ACCEPT, WRONG_VERSION, NOT_THIS_GAME, NO_GAMES = 0, 1, 2, 3

    name: str
    code: int


@dataclass(frozen=True)
class MoveMsg:
    """`M`: a move, with the seconds its side used on it (informational)."""

    seconds: int
    start: int
    end: int
    captured: Tuple[int, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    """`E`: the end of a game, from the sender's side, and whether it wants to stop."""

    UNKNOWN, I_RESIGN, DRAW, I_WIN = 0, 1, 2, 3
    ANOTHER_GAME, STOP = 0, 1

    reason: int
    stop: int = 0


@dataclass(frozen=True)
class Chat:
    """`C`: free text."""

    text: str


@dataclass(frozen=True)
class BackReq:
    """`B`: take back to the position where `color` makes move `move_number`."""

    move_number: int
    color: str


@dataclass(frozen=True)
class BackAcc:
    """`K`: the answer to a BACKREQ."""

    ACCEPT, NOT_SUPPORTED, DECLINE = 0, 1, 2

    code: int


Message = Union[GameReq, GameAcc, MoveMsg, GameEnd, Chat, BackReq, BackAcc]

REASONS = {
    GameEnd.UNKNOWN: "no reason",
    GameEnd.I_RESIGN: "resigns",
    GameEnd.DRAW: "a draw",
    GameEnd.I_WIN: "claims the win",
}


def _number(text: str, what: str) -> int:
    try:
        return parse_int(text, low=0)
    except OptionError:
        raise DxpError(f"{what} must be digits, not {text!r}") from None


def _colour(text: str, what: str) -> str:
    if text not in ("W", "Z"):
        raise DxpError(f"{what} must be W or Z, not {text!r}")
    return text


def _exact(text: str, length: int, what: str) -> None:
    if len(text) != length:
        raise DxpError(f"a {what} message has {length} characters, not {len(text)}: {text!r}")


def parse(text: str) -> Message:
    """The message in one DXP frame (without its NUL); raises DxpError."""
    if not text:
        raise DxpError("empty message")
    if len(text) > MAX_LENGTH:
        raise DxpError(f"a message has at most {MAX_LENGTH} characters, not {len(text)}")
    if any(not (32 <= ord(c) < 127) for c in text):
        raise DxpError(f"a message is printable ASCII: {text!r}")
    kind, body = text[0], text[1:]
    if kind == "R":
        if len(body) not in (2 + NAME_LENGTH + 8, 2 + NAME_LENGTH + 8 + 51):
            raise DxpError(f"a GAMEREQ has 43 or 94 characters, not {len(text)}: {text!r}")
        version = _number(body[0:2], "the GAMEREQ version")
        name = body[2 : 2 + NAME_LENGTH].rstrip()
        rest = body[2 + NAME_LENGTH :]
        follower = _colour(rest[0], "the follower's colour")
        minutes = _number(rest[1:4], "the GAMEREQ minutes")
        moves = _number(rest[4:7], "the GAMEREQ number of moves")
        setup = rest[7]
        if setup == "A":
            if len(rest) != 8:
                raise DxpError(f"a GAMEREQ with the normal start (A) has 43 characters: {text!r}")
            return GameReq(name, follower, minutes, moves, None, version)
        if setup != "B" or len(rest) != 8 + 51:
            raise DxpError(f"a GAMEREQ starts with A (normal start) or B, a colour and 50 squares: {text!r}")
        turn = _colour(rest[8], "the colour to move")
        squares = rest[9:]
        bad = set(squares) - set("ewzWZ")
        if bad:
            raise DxpError(f"GAMEREQ squares are e, w, z, W or Z, not {''.join(sorted(bad))!r}")
        return GameReq(name, follower, minutes, moves, (turn, squares), version)
    if kind == "A":
        _exact(text, 2 + NAME_LENGTH, "GAMEACC")
        return GameAcc(body[:NAME_LENGTH].rstrip(), _number(body[NAME_LENGTH], "the GAMEACC code"))
    if kind == "M":
        if len(body) < 10:
            raise DxpError(f"a MOVE has at least 11 characters: {text!r}")
        seconds = _number(body[0:4], "the MOVE time")
        start = _number(body[4:6], "the MOVE start")
        end = _number(body[6:8], "the MOVE end")
        count = _number(body[8:10], "the number captured")
        _exact(text, 11 + 2 * count, "MOVE with {} captures".format(count))
        captured = tuple(_number(body[10 + 2 * i : 12 + 2 * i], "a captured square") for i in range(count))
        for square in (start, end) + captured:
            if not 1 <= square <= 50:
                raise DxpError(f"square {square} is not on the board (1-50): {text!r}")
        return MoveMsg(seconds, start, end, captured)
    if kind == "E":
        _exact(text, 3, "GAMEEND")
        reason = _number(body[0], "the GAMEEND reason")
        stop = _number(body[1], "the GAMEEND stop code")
        if reason > 3 or stop > 1:
            raise DxpError(f"GAMEEND reason is 0-3 and stop code 0-1: {text!r}")
        return GameEnd(reason, stop)
    if kind == "C":
        return Chat(body)
    if kind == "B":
        _exact(text, 5, "BACKREQ")
        return BackReq(_number(body[0:3], "the BACKREQ move number"), _colour(body[3], "the BACKREQ colour"))
    if kind == "K":
        _exact(text, 2, "BACKACC")
        return BackAcc(_number(body[0], "the BACKACC code"))
    raise DxpError(f"unknown message type {kind!r}: {text!r}")


def _name(name: str) -> str:
    clean = "".join(c if 32 <= ord(c) < 127 else "?" for c in name)[:NAME_LENGTH]
    return clean.ljust(NAME_LENGTH)


def format(message: Message) -> str:
    """The text of a message (without its NUL)."""
    if isinstance(message, GameReq):
        start = "A" if message.position is None else "B" + message.position[0] + message.position[1]
        return (
            f"R{message.version:02d}{_name(message.name)}{message.follower}"
            f"{message.minutes:03d}{message.moves:03d}{start}"
        )
    if isinstance(message, GameAcc):
        return f"A{_name(message.name)}{message.code}"
    if isinstance(message, MoveMsg):
        seconds = min(9999, max(0, message.seconds))
        return f"M{seconds:04d}{message.start:02d}{message.end:02d}{len(message.captured):02d}" + "".join(
            f"{s:02d}" for s in message.captured
        )
    if isinstance(message, GameEnd):
        return f"E{message.reason}{message.stop}"
    if isinstance(message, Chat):
        text = "".join(c if 32 <= ord(c) < 127 else "?" for c in message.text)
        return "C" + text[: MAX_LENGTH - 1]
    if isinstance(message, BackReq):
        return f"B{message.move_number:03d}{message.color}"
    if isinstance(message, BackAcc):
        return f"K{message.code}"
    raise TypeError(f"not a DXP message: {message!r}")


# --- positions and moves --------------------------------------------------------


def colour_letter(colour: Color) -> str:
    return "W" if colour == WHITE else "Z"


def colour_of(letter: str) -> Color:
    return WHITE if letter == "W" else BLACK


def position_of(board: Board) -> Optional[Tuple[str, str]]:
    """A GAMEREQ position: None for the normal start with White to move."""
    if board.fen() == Board().fen():
        return None
    cells = ["e"] * 50
    for square, piece in board.pieces().items():
        letter = "w" if piece.color == WHITE else "z"
        cells[square - 1] = letter.upper() if piece.king else letter
    return colour_letter(board.turn), "".join(cells)


def board_of(position: Optional[Tuple[str, str]]) -> Board:
    """The Board of a GAMEREQ position; raises DxpError for an impossible one."""
    if position is None:
        return Board()
    turn, cells = position
    white, black, kings = [], [], []
    for i, c in enumerate(cells):
        if c in "wW":
            white.append(i)
        elif c in "zZ":
            black.append(i)
        if c in "WZ":
            kings.append(i)
    fen = format_fen(INTERNATIONAL, white, black, kings, colour_of(turn), numeric=True)
    try:
        return Board(fen)
    except InvalidInputError as e:
        raise DxpError(f"impossible GAMEREQ position: {e}") from None


def move_message(move, seconds: float) -> MoveMsg:
    return MoveMsg(int(round(seconds)), move.start, move.end, tuple(move.captured))


def legal_move(board: Board, message: MoveMsg):
    """The legal move a MOVE names (start, end, captured set), or None."""
    captured = set(message.captured)
    if len(captured) != len(message.captured):
        return None
    for move in board.legal_moves:
        if move.start == message.start and move.end == message.end and set(move.captured) == captured:
            return move
    return None


# --- framing -------------------------------------------------------------------


class Connection:
    """Messages over one TCP connection: `send(message)`, `recv(timeout)`.
    A frame is the message's characters and one NUL; a frame longer than 127
    characters or not ASCII is a DxpError (the connection is not trusted again).

    The buffers are bounded: at most one read (4 KiB) past the longest frame.
    A frame once begun must end within `frame_timeout` seconds (DxpIncomplete:
    a peer cannot hold the other side with half a message), and a send that
    cannot go out within `send_timeout` seconds (the peer reads nothing) is a
    broken connection (DxpClosed)."""

    def __init__(
        self, sock: socket.socket, log=None, *, frame_timeout: float = FRAME_TIMEOUT, send_timeout: float = SEND_TIMEOUT
    ):
        self.sock = sock
        self._buffer = b""
        self._begun: Optional[float] = None  # when the first byte of the pending frame came
        self._log = log
        self.frame_timeout = frame_timeout
        self.send_timeout = send_timeout
        self.closed = False

    @classmethod
    def connect(cls, host: str, port: int, timeout: float = 10.0, log=None) -> "Connection":
        """Connect, trying again until `timeout` (a program being started may not listen yet)."""
        end = time.monotonic() + timeout
        while True:
            try:
                sock = socket.create_connection((host, port), timeout=max(0.1, end - time.monotonic()))
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:
                    sock.close()  # closed before the next try
                    raise
                return cls(sock, log)
            except OSError as e:
                if time.monotonic() >= end:
                    raise DxpConnectionError(f"cannot connect to {host}:{port}: {e}") from None
                time.sleep(0.05)

    def send(self, message: Union[Message, str]) -> None:
        text = message if isinstance(message, str) else format(message)
        if self._log:
            self._log(f"> {text}")
        if self.closed:
            raise DxpClosed("the connection is closed")
        try:
            self.sock.settimeout(self.send_timeout)
            self.sock.sendall(text.encode("ascii", "replace") + b"\0")
        except socket.timeout:
            self.closed = True  # part of a frame may have gone: the stream is lost
            raise DxpClosed(f"the peer reads nothing: a send blocked {self.send_timeout:.1f} s") from None
        except OSError as e:
            self.closed = True
            raise DxpClosed(f"the connection is closed: {e}") from None

    def recv_text(self, timeout: Optional[float]) -> str:
        """The next frame's text; DxpTimeout, DxpClosed, DxpIncomplete or DxpError."""
        end = None if timeout is None else time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if len(self._buffer) > MAX_LENGTH:
                raise DxpError(f"a message longer than {MAX_LENGTH} characters: {self._buffer[:40]!r}...")
            now = time.monotonic()
            until, half = end, False
            if self._buffer:
                if self._begun is None:
                    self._begun = now
                frame_end = self._begun + self.frame_timeout
                if until is None or frame_end < until:
                    until, half = frame_end, True
            if until is not None and until - now <= 0:
                raise self._late(timeout, half)
            if self.closed:
                raise DxpClosed("the connection is closed")
            try:
                self.sock.settimeout(None if until is None else until - now)
                data = self.sock.recv(4096)
            except socket.timeout:
                raise self._late(timeout, half) from None
            except OSError as e:
                self.closed = True
                raise DxpClosed(f"the connection broke: {e}") from None
            if not data:
                self.closed = True
                raise DxpClosed(
                    "the peer closed the connection"
                    + (f" in the middle of a message ({self._buffer[:40]!r})" if self._buffer else "")
                )
            self._buffer += data
        raw, self._buffer = self._buffer.split(b"\0", 1)
        self._begun = None
        if len(raw) > MAX_LENGTH:
            raise DxpError(f"a message longer than {MAX_LENGTH} characters: {raw[:40]!r}...")
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise DxpError(f"a message that is not ASCII: {raw[:40]!r}") from None
        if self._log:
            self._log(f"< {text}")
        return text

    def _late(self, timeout: Optional[float], half: bool) -> DxpConnectionError:
        if half:
            return DxpIncomplete(
                f"half a message ({len(self._buffer)} bytes, no NUL) for "
                f"{self.frame_timeout:.1f} s: {self._buffer[:40]!r}"
            )
        return DxpTimeout(f"no message within {timeout or 0.0:.1f} s")

    def recv(self, timeout: Optional[float]) -> Message:
        return parse(self.recv_text(timeout))

    def close(self) -> None:
        self.closed = True
        try:
            self.sock.close()
        except OSError:
            pass


__all__ = [
    "DEFAULT_PORT",
    "GameReq",
    "GameAcc",
    "MoveMsg",
    "GameEnd",
    "Chat",
    "BackReq",
    "BackAcc",
    "Message",
    "parse",
    "format",
    "Connection",
    "position_of",
    "board_of",
    "legal_move",
    "move_message",
    "colour_letter",
    "colour_of",
    "REASONS",
]

"""Fuzzing the DXP follower: a real `draughts dxp --listen 127.0.0.1:0` process
is sent more than 10,000 mutated messages over a few hundred loopback
connections (bad squares, overlong messages without their NUL, binary bytes,
half messages, GAMEEND and BACKREQ out of turn, abrupt closes and resets,
mischief in the middle of games).  After every batch it plays a clean game
whose every reply is a legal move on our own Board; it never exits, and at
the end it holds no more threads or file descriptors than after its first
game.  One seeded RNG makes every run the same."""

import os
import random
import socket
import struct
import subprocess
import sys
import time

import pytest

import draughts
from draughts import errors
from draughts.dxp import protocol as P

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for threads and fds")

SEED = 20270
CONNECTIONS = 260
CLEAN_EVERY = 13  # a clean game after every this many connections
MIN_MESSAGES = 10_000
BUDGET = 55.0  # seconds the whole run may take
IDLE = 1.0  # the follower's --idle-timeout
FRAME = 0.25  # the follower's --frame-timeout
NAME = "draughts"


def gamereq(follower="W", minutes=5, moves=0, position="A", version=1, name="fuzz"):
    return f"R{version:02d}" + name.ljust(32)[:32] + f"{follower}{minutes:03d}{moves:03d}" + position


class Client:
    """One loopback connection to the follower, raw bytes out, frames in."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = P.Connection(self.sock, frame_timeout=10.0)
        self.sent = 0  # mutated messages handed to the socket

    def raw(self, data: bytes, mutated=True) -> bool:
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        self.sent += mutated
        return True

    def send(self, text: str, mutated=False) -> bool:
        return self.raw(text.encode("ascii") + b"\0", mutated)

    def read(self, timeout=10.0) -> str:
        return self.conn.recv_text(timeout)

    def drain(self, timeout=5.0) -> list:
        """Frames until the follower closes the connection (or `timeout`); a
        GAMEEND is answered with one asking to stop, as DXP wants."""
        seen = []
        end = time.monotonic() + timeout
        while True:
            try:
                seen.append(self.read(max(0.01, end - time.monotonic())))
            except errors.DxpTimeout:
                return seen + ["<timeout>"]
            except (errors.DxpError, errors.DxpConnectionError):
                return seen + ["<closed>"]
            if seen[-1].startswith("E"):
                self.send("E01")

    def reset(self):
        """An abrupt close: RST, not FIN."""
        try:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.sock.close()

    def close(self):
        self.sock.close()


# --- mutations ------------------------------------------------------------------------

PRINTABLE = "".join(chr(c) for c in range(32, 127))


def text(rng, n):
    return "".join(rng.choice(PRINTABLE) for _ in range(n))


def harmless(rng):
    """A well-formed message with no place outside a game, and the kinds of frame it is answered with."""
    k = rng.randrange(9)
    if k == 0:
        return "C" + text(rng, rng.randrange(0, 127)), ""
    if k == 1:
        return f"M{rng.randrange(10000):04d}{rng.randrange(1, 51):02d}{rng.randrange(1, 51):02d}00", "C"
    if k == 2:
        return "E00", "E"
    if k == 3:
        return f"B{rng.randrange(1000):03d}{rng.choice('WZ')}", "K"
    if k == 4:
        return f"K{rng.randrange(10)}", "C"
    if k == 5:
        return "A" + text(rng, 32) + str(rng.randrange(10)), "C"
    if k == 6:
        return gamereq(version=rng.choice([0, 2, 17, 99])), "A"
    if k == 7:  # the game is over at once: refused, said why
        return gamereq(position="B" + rng.choice("WZ") + "e" * 50), "CA"
    cells = ["e"] * 50  # a man on the row where it is crowned
    cells[rng.randrange(0, 5)] = "w"
    cells[rng.randrange(20, 30)] = "z"
    return gamereq(position="BW" + "".join(cells)), "CA"


def bad_squares(rng):
    square = rng.choice([0, 51, 60, 77, 99])
    body = [rng.randrange(1, 51), rng.randrange(1, 51)]
    body[rng.randrange(2)] = square
    n = rng.randrange(0, 3)
    caps = [rng.choice([rng.randrange(1, 51), square]) for _ in range(n)]
    if n:
        caps[rng.randrange(n)] = square
    return f"M{rng.randrange(10000):04d}{body[0]:02d}{body[1]:02d}{n:02d}" + "".join(f"{c:02d}" for c in caps)


def mutate(rng, message: str) -> bytes:
    """A valid message with bytes flipped, dropped, doubled or cut, with or without its NUL."""
    data = bytearray(message.encode("ascii"))
    for _ in range(rng.randrange(1, 4)):
        k = rng.randrange(4)
        if not data:
            break
        i = rng.randrange(len(data))
        if k == 0:
            data[i] = rng.randrange(256)
        elif k == 1:
            del data[i]
        elif k == 2:
            data[i:i] = data[i : i + rng.randrange(1, 8)]
        else:
            del data[i:]
    return bytes(data) + (b"\0" if rng.random() < 0.8 else b"")


def binary(rng) -> bytes:
    data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    return data + b"\0"


# --- games ------------------------------------------------------------------------------


class Game:
    """A game on a client, our Board in step with the follower's."""

    def __init__(self, client, follower, moves):
        self.c = client
        self.board = draughts.Board()
        self.start = 0
        self.first = self.board.turn
        self.theirs = draughts.WHITE if follower == "W" else draughts.BLACK
        self.moves = moves
        self.over = False
        self.replies = 0  # legal moves the follower sent
        self.pending_back = None  # the ply a BACKREQ we sent takes back to

    def start_game(self, minutes=5):
        follower = "W" if self.theirs == draughts.WHITE else "Z"
        assert self.c.send(gamereq(follower, minutes, self.moves))
        answer = self.c.read()
        assert answer == "A" + NAME.ljust(32) + "0", answer

    def ours(self):
        return not self.over and self.board.turn != self.theirs

    def back_ply(self, number, colour):
        return self.start + 2 * (number - 1) + (0 if colour == self.first else 1)

    def handle(self, frame: str):
        """One frame from the follower."""
        msg = P.parse(frame)
        if isinstance(msg, P.MoveMsg):
            assert self.board.turn == self.theirs, (frame, self.board.fen())
            move = P.legal_move(self.board, msg)
            assert move is not None, (frame, self.board.fen())
            self.board.push(move)
            self.replies += 1
        elif isinstance(msg, P.BackAcc):
            ply, self.pending_back = self.pending_back, None
            if msg.code == P.BackAcc.ACCEPT:
                assert ply is not None and ply <= len(self.board.move_stack), frame
                while len(self.board.move_stack) > ply:
                    self.board.pop()
            else:
                assert ply is None, (frame, ply)  # we only send BACKREQs it must accept or decline
        elif isinstance(msg, P.GameEnd):
            self.over = True
        elif isinstance(msg, P.Chat):
            pass
        else:
            raise AssertionError(f"unexpected {frame!r} in a game")

    def until_ours(self, timeout=10.0):
        """Read until it is our turn or the game is over (True), or the connection closes (False)."""
        while not self.over and (not self.ours() or self.board.outcome() is not None):
            try:
                self.handle(self.c.read(timeout))
            except errors.DxpClosed:
                return False
        return True

    def move(self, mutated=False):
        move = random_move(self.board)
        self.board.push(move)
        return self.c.send(P.format(P.move_message(move, 0)), mutated)

    def end_ours(self):
        """Our GAMEEND when we are to move at the game's length, and the follower's answer."""
        assert self.c.send("E00")
        while True:
            msg = P.parse(self.c.read())
            if isinstance(msg, P.GameEnd):
                assert msg.reason == P.GameEnd.DRAW, msg  # the game length: a draw
                self.over = True
                return


_move_rng = random.Random(SEED + 1)


def random_move(board):
    moves = sorted(board.legal_moves, key=str)
    return _move_rng.choice(moves)


def clean_game(port, rng):
    """A whole game with nothing wrong in it: every reply legal, the game ends by
    the board or at the GAMEREQ's length (the side to move sends GAMEEND)."""
    c = Client(port)
    try:
        length = rng.choice([6, 9, 12])
        g = Game(c, rng.choice("WZ"), length)
        g.start_game()
        while True:
            assert g.until_ours(), "the follower closed the connection in a clean game"
            if g.over:
                break
            if len(g.board.move_stack) >= 2 * length:
                g.end_ours()
                break
            assert g.move()
        assert g.replies >= min(length, 3) - 1, g.replies
        if g.board.outcome() is None:
            assert len(g.board.move_stack) == 2 * length, (len(g.board.move_stack), length)
        c.send("E01")  # no more games
        frames = c.drain()
        assert frames[-1] == "<closed>", frames
        return g.replies
    finally:
        c.close()


def mischief_game(c, rng):
    """A game with wrong things in it: chat, BACKREQs (good, bad, out of turn),
    GAMEEND out of turn, an illegal move, bad squares, an abrupt close."""
    g = Game(c, rng.choice("WZ"), rng.choice([0, 0, 5, 8]))
    g.start_game(minutes=rng.randrange(1, 10))
    for _ in range(rng.randrange(4, 30)):
        if not g.until_ours():
            return "closed"
        if g.over:
            return "over"
        if g.moves and len(g.board.move_stack) >= 2 * g.moves:
            g.end_ours()
            return "over"
        k = rng.randrange(12)
        if k <= 3:
            assert g.move()
        elif k == 4:
            assert c.send("C" + text(rng, rng.randrange(60)), True)
        elif k == 5:  # a take-back, accepted or declined
            n = rng.randrange(0, 8)
            colour = rng.choice([draughts.WHITE, draughts.BLACK])
            ply = g.back_ply(n, colour)
            ok = n >= 1 and g.start <= ply <= len(g.board.move_stack)
            g.pending_back = ply if ok else None
            assert c.send(f"B{n:03d}{'W' if colour == draughts.WHITE else 'Z'}", True)
            g.handle(c.read())
        elif k == 6:  # GAMEEND while the follower thinks
            assert g.move()
            c.send("E00", True)
            return "over-out-of-turn"
        elif k == 7:  # BACKREQ while the follower thinks: declined
            assert g.move()
            c.send(f"B{rng.randrange(200, 999):03d}W", True)
            g.until_ours()
            if g.over:
                return "over"
            g.handle(c.read())
        elif k == 8:  # a BACKACC that answers nothing: ignored
            assert c.send(f"K{rng.randrange(3)}", True)
        elif k == 9:  # a well-formed illegal move: we lose, the connection stays
            legal = {(m.start, m.end) for m in g.board.legal_moves}
            a, b = next(
                (a, b)
                for a, b in ((rng.randrange(1, 51), rng.randrange(1, 51)) for _ in range(999))
                if (a, b) not in legal
            )
            assert c.send(f"M0000{a:02d}{b:02d}00", True)
            while not g.over:  # its CHAT saying why, and GAMEEND 3
                g.handle(c.read())
            return "lost"
        elif k == 10:
            c.send(bad_squares(rng), True)
            return "fatal"
        else:  # an abrupt close with a move on its way back
            g.move()
            c.reset()
            return "reset"
    return "left"


# --- the run ------------------------------------------------------------------------------


def proc_counts(pid):
    with open(f"/proc/{pid}/status") as f:
        threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
    return threads, len(os.listdir(f"/proc/{pid}/fd"))


@pytest.fixture
def follower_process(tmp_path):
    err = open(tmp_path / "follower.log", "w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "draughts",
            "dxp",
            "--listen",
            "127.0.0.1:0",
            "--depth",
            "1",
            "--tt-mb",
            "4",
            "--idle-timeout",
            str(IDLE),
            "--frame-timeout",
            str(FRAME),
        ],
        stdout=subprocess.PIPE,
        stderr=err,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening 127.0.0.1:"), line
        yield proc, int(line.split(":")[-1]), tmp_path / "follower.log"
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        err.close()


def test_the_follower_survives_malformed_peers_and_plays_on(follower_process):
    proc, port, log_path = follower_process
    rng = random.Random(SEED)
    t0 = time.monotonic()
    assert clean_game(port, rng) > 0
    baseline = proc_counts(proc.pid)
    sent = 0
    endings = {}
    clean = 1
    for n in range(CONNECTIONS):
        assert proc.poll() is None, f"the follower exited ({proc.returncode}) after {n} connections"
        c = Client(port)
        try:
            # well-formed messages with no place outside a game, each answered as it should be
            expected = ""
            for _ in range(rng.randrange(20, 60)):
                message, answer = harmless(rng)
                assert c.send(message, True)
                expected += answer
            got = ""
            while len(got) < len(expected):
                got += c.read()[0]
            assert got == expected
            ending = rng.choice(
                [
                    "bad-squares",
                    "overlong",
                    "binary",
                    "mutated",
                    "half-wait",
                    "half-close",
                    "reset",
                    "reset-after-request",
                    "stop",
                    "game",
                    "game",
                    "game",
                ]
            )
            if rng.random() < 0.03:
                ending = "idle"  # the follower's idle timeout closes it
            if ending == "bad-squares":
                c.send(bad_squares(rng), True)
            elif ending == "overlong":
                c.raw(text(rng, rng.randrange(128, 3000)).encode("ascii"))
            elif ending == "binary":
                c.raw(binary(rng))
            elif ending == "mutated":
                for _ in range(rng.randrange(1, 20)):
                    message, _ = harmless(rng)
                    c.raw(mutate(rng, rng.choice([message, "M001205250422122320", gamereq("Z", 0, 0)])))
            elif ending == "half-wait":
                c.raw(gamereq().encode("ascii")[: rng.randrange(1, 43)])
            elif ending == "half-close":
                c.raw(rng.choice(["M0012052504", "R01fuzz", "E1", "B00"]).encode("ascii"))
                c.close()
            elif ending == "reset":
                c.reset()
            elif ending == "reset-after-request":  # the follower's answer meets a reset
                c.send(rng.choice(["M0000323800", "B001W", "E00", gamereq()]), True)
                c.reset()
            elif ending == "stop":
                c.send("E01", True)
            elif ending == "game":
                ending = "game-" + mischief_game(c, rng)
            endings[ending] = endings.get(ending, 0) + 1
            if ending in ("game-over", "game-over-out-of-turn", "game-lost", "game-left"):
                c.send("E01")  # the connection is still good: stop
            if ending not in ("reset", "reset-after-request", "half-close", "game-reset"):
                frames = c.drain(timeout=IDLE + 5.0)
                assert frames[-1] == "<closed>" or ending == "mutated", (ending, frames)
        finally:
            sent += c.sent
            c.close()
        if (n + 1) % CLEAN_EVERY == 0:
            assert clean_game(port, rng) > 0
            clean += 1
        assert time.monotonic() - t0 < BUDGET, f"out of time after {n + 1} connections, {sent} messages"
    assert clean_game(port, rng) > 0
    clean += 1
    assert proc.poll() is None
    threads, fds = proc_counts(proc.pid)
    log = log_path.read_text()
    print(
        f"{sent} mutated messages over {CONNECTIONS} connections, {clean} clean games, "
        f"{time.monotonic() - t0:.1f} s; endings {sorted(endings.items())}; threads {baseline[0]} -> {threads}, "
        f"fds {baseline[1]} -> {fds}"
    )
    assert sent >= MIN_MESSAGES
    assert threads <= baseline[0], (baseline, threads)
    assert fds <= baseline[1], (baseline, fds)
    assert "Traceback" not in log and "error:" not in log, log[-2000:]
    assert "half a message" in log and "no GAMEREQ in" in log  # the timeouts did their work

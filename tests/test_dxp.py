"""DXP (DamExchange): the codec against the definition's examples, our follower
and initiator through real loopback sockets (127.0.0.1 only), a scripted peer
for every message type, and DXP engines in the match runner.

The examples are Frank Mesander's DamExchange definition's:
`R01Tornado voor Windows 4.0        W060065A`
(a GAMEREQ: version 01, the initiator's name padded to 32, the follower plays
White, 60 minutes, 65 moves, the normal start) and `M001205250422122320`
(12 seconds, 5x25 taking 22, 12, 23 and 20).
"""

import io
import os
import socket
import threading
import time

import pytest

import draughts
from draughts import errors, pdn
from draughts.dxp import protocol as P
from draughts.dxp import session as S
from draughts.match.players import DxpPlayer
from draughts.match import cli
from draughts.match.engines import parse_engine
from draughts.match.runner import Console, Match

TORNADO = "R01Tornado voor Windows 4.0        W060065A"
MOVE_EXAMPLE = "M001205250422122320"


# --- the codec -----------------------------------------------------------------------


def test_the_definitions_examples_byte_for_byte():
    req = P.parse(TORNADO)
    assert req == P.GameReq("Tornado voor Windows 4.0", "W", 60, 65, None, 1)
    assert P.format(req) == TORNADO
    move = P.parse(MOVE_EXAMPLE)
    assert move == P.MoveMsg(12, 5, 25, (22, 12, 23, 20))
    assert P.format(move) == MOVE_EXAMPLE
    a, b = socket.socketpair()
    with a, b:
        P.Connection(a).send(move)
        assert b.recv(100) == MOVE_EXAMPLE.encode("ascii") + b"\0"


@pytest.mark.parametrize(
    "text",
    [
        "A" + "Kingsrow".ljust(32) + "0",
        "A" + "x" * 32 + "3",
        "E10",
        "E21",
        "E00",
        "E31",
        "Chello there",
        "C",
        "B012W",
        "B001Z",
        "K0",
        "K1",
        "K2",
        "M0000323800",
        "M999950460140",
        "R01" + "me".ljust(32) + "Z005000B" + "Z" + "z" * 20 + "e" * 10 + "w" * 20,
    ],
)
def test_every_message_type_round_trips(text):
    assert P.format(P.parse(text)) == text


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("X123", "unknown message type"),
        ("R01short", "43 or 94"),
        ("R02" + "a" * 32 + "X060065A", "W or Z"),
        ("R01" + "a" * 32 + "W06a065A", "digits"),
        ("R01" + "a" * 32 + "W060065C", r"A \(normal start\) or B"),
        ("R01" + "a" * 32 + "W060065B" + "W" + "q" * 50, "e, w, z, W or Z"),
        ("A" + "a" * 32, "34 characters"),
        ("M00120525042212232", "MOVE with 4 captures"),
        ("M0012055100", "not on the board"),
        ("M001205", "at least 11"),
        ("E4", "3 characters"),
        ("E40", "reason is 0-3"),
        ("B01W", "5 characters"),
        ("B012Q", "W or Z"),
        ("K", "2 characters"),
        ("C" + "x" * 127, "at most 127"),
        ("M0012\t5250422122320", "printable ASCII"),
    ],
)
def test_bad_messages_are_errors_that_say_what_is_wrong(text, words):
    with pytest.raises(errors.DxpError, match=words):
        P.parse(text)


def test_positions_both_ways():
    board = draughts.Board("B:WK1,31,32:B5,K50")
    req = P.GameReq("x", "Z", 5, 0, P.position_of(board))
    text = P.format(req)
    assert text[43:] == "Z" + "W" + "e" * 3 + "z" + "e" * 25 + "ww" + "e" * 17 + "Z"
    assert P.board_of(P.parse(text).position).fen() == board.fen()
    assert P.position_of(draughts.Board()) is None


# --- a scripted peer over a real socket -----------------------------------------------


class Peer:
    """The other end of one loopback connection, sending and reading raw frames."""

    def __init__(self, sock: socket.socket):
        self.conn = P.Connection(sock)

    def send(self, text: str) -> None:
        self.conn.send(text)

    def read(self, timeout: float = 10.0) -> str:
        return self.conn.recv_text(timeout)

    def read_until(self, prefix: str, timeout: float = 10.0):
        seen = []
        while True:
            text = self.read(timeout)
            seen.append(text)
            if text.startswith(prefix):
                return seen

    def closed(self, timeout: float = 10.0) -> bool:
        try:
            self.read(timeout)
        except errors.DxpClosed:
            return True
        return False


@pytest.fixture
def follower():
    """Our follower (depth 2) serving loopback connections in a thread; yields the port."""
    server = S.listen("127.0.0.1", 0)
    log = []
    mover = S.EngineMover(tt_mb=4, depth=2)
    thread = threading.Thread(target=_serve_forever, args=(server, mover, log), daemon=True)
    thread.start()
    yield server.getsockname()[1], log
    server.close()


def _serve_forever(server, mover, log):
    try:
        S.serve(server, mover, log=log.append)
    except OSError:
        pass  # the server socket was closed: the test is over


_peers: "list[Peer]" = []


@pytest.fixture(autouse=True)
def _close_peers():
    """Every connection a test opened with connect() is closed when the test ends."""
    yield
    while _peers:
        _peers.pop().conn.close()


def test_listen_on_a_port_in_use_leaves_no_socket_open():
    def open_fds():
        return set(os.listdir("/proc/self/fd"))

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc/self/fd here")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        before = open_fds()
        with pytest.raises(OSError):
            S.listen("127.0.0.1", taken.getsockname()[1])
        assert open_fds() <= before


def connect(port) -> Peer:
    peer = Peer(socket.create_connection(("127.0.0.1", port), timeout=10))
    _peers.append(peer)
    return peer


def request(name="script", follower="W", minutes=5, moves=0, position="A"):
    return "R01" + name.ljust(32) + f"{follower}{minutes:03d}{moves:03d}" + position


def their_move(peer, board):
    text = peer.read()
    assert text.startswith("M"), text
    move = P.legal_move(board, P.parse(text))
    assert move is not None, (text, board.fen())
    board.push(move)
    return move


def test_scripted_initiator_against_our_follower(follower):
    port, log = follower
    peer = connect(port)
    # a version we do not speak: refused, the connection stays
    peer.send("R02" + "script".ljust(32) + "W005000A")
    assert peer.read() == "A" + "draughts".ljust(32) + "1"
    # a position where the game is over (White to move has no piece): refused, with a CHAT saying why
    peer.send(request(position="BW" + "e" * 50))
    said = peer.read_until("A")
    assert said[0].startswith("C") and "the game is over" in said[0]
    assert said[-1] == "A" + "draughts".ljust(32) + "2"
    # a game: the follower plays White and moves first
    peer.send(request(follower="W"))
    assert peer.read() == "A" + "draughts".ljust(32) + "0"
    board = draughts.Board()
    their_move(peer, board)
    peer.send("Chello from the script")
    mine = next(m for m in board.legal_moves)
    board.push(mine)
    peer.send(P.format(P.move_message(mine, 3)))
    their_move(peer, board)
    # take back to White's second move: accepted, then White moves again
    peer.send("B002W")
    assert peer.read() == "K0"
    board.pop()
    their_move(peer, board)
    # a take-back to a move that was never played is declined
    peer.send("B040Z")
    assert peer.read() == "K2"
    # an illegal move: the game is lost, said so, and another game is welcome
    peer.send("M0001" + "4641" + "00")
    said = peer.read_until("E")
    assert said[0].startswith("C") and "illegal move 46-41" in said[0]
    assert said[-1] == "E30"
    peer.send("E10")
    # same connection: the next game, the follower plays Black; we resign at once
    peer.send(request(follower="Z"))
    assert peer.read().endswith("0")
    board = draughts.Board()
    mine = next(m for m in board.legal_moves)
    peer.send(P.format(P.move_message(mine, 0)))
    board.push(mine)
    their_move(peer, board)
    peer.send("E11")  # I resign, and stop
    assert peer.read() == "E31"
    assert peer.closed()
    assert "dxp: peer says: hello from the script" in log


def test_an_unreadable_message_ends_the_game_and_the_connection(follower):
    port, log = follower
    peer = connect(port)
    peer.send(request(follower="Z"))
    assert peer.read().endswith("0")
    peer.send("M12")  # too short to be a MOVE
    said = peer.read_until("E")
    assert said[0].startswith("C") and "cannot read" in said[0]
    assert said[-1] == "E01"
    peer.send("E01")
    assert peer.closed()
    # the follower is back at its door: a new connection plays
    again = connect(port)
    again.send(request(follower="W"))
    assert again.read().endswith("0")
    their_move(again, draughts.Board())


def test_a_gamereq_during_a_game_is_a_protocol_fault(follower):
    port, _ = follower
    peer = connect(port)
    peer.send(request(follower="Z"))
    assert peer.read().endswith("0")
    peer.send(request(follower="Z"))
    said = peer.read_until("E")
    assert "GameReq during a game" in said[0] and said[-1] == "E01"


def test_a_peer_that_disconnects_mid_game(follower):
    port, log = follower
    peer = connect(port)
    peer.send(request(follower="W"))
    assert peer.read().endswith("0")
    their_move(peer, draughts.Board())
    peer.conn.close()
    again = connect(port)  # served once the first is given up
    again.send(request(follower="W"))
    assert again.read().endswith("0")
    deadline = time.monotonic() + 10
    while not any("disconnected" in line for line in log) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any("the peer disconnected" in line for line in log)


def test_a_peer_out_of_time_loses(follower, monkeypatch):
    # one minute for the game, less 59.7 s of grace: the follower waits 0.3 s
    monkeypatch.setattr(S, "TIME_GRACE", -59.7)
    port, _ = follower
    peer = connect(port)
    peer.send(request(follower="Z", minutes=1))
    assert peer.read().endswith("0")
    said = peer.read_until("E", timeout=10)
    assert "lost on time" in said[0] and said[-1] == "E30"


def test_messages_outside_a_game(follower):
    port, _ = follower
    peer = connect(port)
    peer.send("Chi")
    peer.send("B001W")
    assert peer.read() == "K2"
    peer.send("M0000323800")
    assert peer.read().startswith("Cno game in progress")
    peer.send("E01")
    assert peer.read() == "E01"
    assert peer.closed()


# --- our initiator against our follower --------------------------------------------------


def test_whole_games_between_our_initiator_and_our_follower(follower):
    port, log = follower
    conn = P.Connection.connect("127.0.0.1", port)
    try:
        peer_name, results = S.initiate(
            conn, S.EngineMover(tt_mb=4, depth=2), games=2, minutes=2, log=lambda text: None
        )
    finally:
        conn.close()
    assert peer_name == "draughts" and len(results) == 2
    assert [r.our_colour for r in results] == [draughts.WHITE, draughts.BLACK]
    for result in results:
        assert result.finished and result.board.outcome() is not None
        replay = draughts.Board()
        for move in result.board.move_stack:
            assert move in replay.legal_moves
            replay.push(move)
        assert result.result_token() == replay.result()
        assert result.board.ply > 20


def test_the_initiator_against_a_scripted_follower():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    seen = []

    def script():
        sock, _ = server.accept()
        peer = Peer(sock)
        seen.append(peer.read())  # the GAMEREQ
        peer.send("A" + "Scripted".ljust(32) + "0")
        board = draughts.Board()
        seen.append(peer.read())  # the initiator's first move (it is White)
        board.push(P.legal_move(board, P.parse(seen[-1])))
        peer.send("M0000" + "4641" + "00")  # Black has no piece on 46
        seen.extend(peer.read_until("E"))
        peer.send("E10")
        seen.append(peer.closed())
        sock.close()

    thread = threading.Thread(target=script, daemon=True)
    thread.start()
    conn = P.Connection.connect("127.0.0.1", port)
    name, results = S.initiate(conn, S.EngineMover(tt_mb=4, depth=1), games=1, minutes=1, log=lambda text: None)
    conn.close()
    thread.join(10)
    server.close()
    assert seen[0] == "R01" + "draughts".ljust(32) + "Z001000A"
    assert name == "Scripted" and results[0].winner == draughts.WHITE and results[0].finished
    assert "illegal move 46-41" in seen[2] and seen[3] == "E31"  # stop: it was the last game


def test_a_refused_game_is_an_error():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def script():
        sock, _ = server.accept()
        peer = Peer(sock)
        peer.read()
        peer.send("A" + "Busy".ljust(32) + "3")
        time.sleep(0.2)
        sock.close()

    threading.Thread(target=script, daemon=True).start()
    conn = P.Connection.connect("127.0.0.1", server.getsockname()[1])
    with pytest.raises(errors.EngineError, match="Busy refused the game .no games."):
        S.initiate(conn, S.EngineMover(tt_mb=4, depth=1), log=lambda text: None)
    conn.close()
    server.close()


# --- the match runner ------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_match(argv):
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match.run(), out.getvalue()


def test_a_dxp_engine_started_by_the_runner_plays_a_match(tmp_path):
    port = free_port()
    pdn_path = tmp_path / "games.pdn"
    result, out = run_match(
        [
            "-variant",
            "international",
            "-games",
            "2",
            "-pdnout",
            str(pdn_path),
            "-engine",
            "name=dxp-follower",
            "proto=dxp",
            "host=127.0.0.1",
            f"port={port}",
            "cmd=draughts",
            "arg=dxp",
            f"arg=--listen=127.0.0.1:{port}",
            "arg=--depth=2",
            "arg=--once",
            "arg=-q",
            "tc=60",
            "-engine",
            "name=builtin",
            "proto=builtin",
            "depth=2",
        ]
    )
    assert result.complete and len(result.records) == 2
    assert "Score of dxp-follower vs builtin" in out
    games = list(pdn.read_games(pdn_path.read_text()))
    assert len(games) == 2
    for game in games:
        assert game.headers["Termination"] == "normal"
        assert game.end().outcome() is not None  # played to the end, every move legal


class ScriptedDxpEngine:
    """A DXP follower that accepts a game and then misbehaves as told."""

    def __init__(self, mode: str):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.mode = mode
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            try:
                sock, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._one, args=(sock,), daemon=True).start()

    def _one(self, sock):
        peer = Peer(sock)
        try:
            while True:
                text = peer.read(30)
                if text.startswith("R"):
                    peer.send("A" + f"scripted-{self.mode}".ljust(32) + "0")
                    req = P.parse(text)
                    if req.follower == "W":
                        self._misbehave(peer)
                elif text.startswith("M"):
                    self._misbehave(peer)
                elif text.startswith("E"):
                    peer.send("E00")
                    if text.endswith("1"):
                        return
        except (errors.DxpError, errors.DxpConnectionError):
            return
        finally:
            sock.close()

    def _misbehave(self, peer):
        if self.mode == "illegal":
            peer.send("M0000" + "0101" + "00")
        elif self.mode == "nonsense":
            peer.send("Mbanana")
        elif self.mode == "resign":
            peer.send("E10")
        elif self.mode == "crash":
            peer.conn.close()
            raise errors.DxpClosed("closed")
        elif self.mode == "stall":
            time.sleep(3)

    def close(self):
        self.server.close()


DXP_FAULTS = {
    "illegal": ("illegal move", "makes an illegal move: M0000010100"),
    "nonsense": ("illegal move", "makes an illegal move: Mbanana"),
    "resign": ("normal", "resigns"),
    "crash": ("abandoned", "disconnects"),
    "stall": ("stalled connection", "'s connection stalls"),
}


@pytest.mark.parametrize("mode", sorted(DXP_FAULTS))
def test_a_misbehaving_dxp_engine_loses_with_the_reason(mode, tmp_path):
    termination, words = DXP_FAULTS[mode]
    engine = ScriptedDxpEngine(mode)
    pdn_path = tmp_path / "games.pdn"
    try:
        result, out = run_match(
            [
                "-variant",
                "international",
                "-games",
                "2",
                "-recover",
                "-pdnout",
                str(pdn_path),
                "-engine",
                "name=bad",
                "proto=dxp",
                f"port={engine.port}",
                "st=0.3",
                "timemargin=100",
                "-engine",
                "name=good",
                "proto=builtin",
                "depth=1",
            ]
        )
    finally:
        engine.close()
    assert result.complete and len(result.records) == 2
    for record in result.records:
        assert record.termination == termination
        assert words in record.reason
        assert record.winner == 1  # the good engine
    assert [g.headers["Termination"] for g in pdn.read_games(pdn_path.read_text())] == [termination] * 2


def test_dxp_engines_play_international_only():
    config = parse_engine(["name=x", "proto=dxp", "port=1", "depth=1"])
    assert (config.proto, config.host, config.port) == ("dxp", "", 1)
    with pytest.raises(draughts.DraughtsError, match="DXP plays international draughts only"):
        DxpPlayer(config, draughts.variant("russian"))
    with pytest.raises(draughts.DraughtsError, match="port= is for proto=dxp"):
        parse_engine(["name=x", "cmd=draughts", "arg=hub", "port=5", "depth=1"])


def test_the_clock_a_dxp_game_is_announced_for():
    from draughts.match.engines import dxp_clock
    from draughts.match.timecontrol import TimeControl

    assert dxp_clock(TimeControl(moves=40, time=300.0)) == (5, 40)
    assert dxp_clock(TimeControl(time=90.0, inc=1.0)) == (2, 0)  # DXP has no increment; minutes rounded up
    # a fixed time a move: 75 moves at that time, at least a minute (st=0.2: 15 s)
    assert dxp_clock(TimeControl(movetime=2.0)) == (3, 0)
    assert dxp_clock(TimeControl(movetime=0.2)) == (1, 0)
    assert dxp_clock(TimeControl(depth=6)) == (0, 0)  # depth= or nodes= alone: no clock


def test_a_dxp_engine_closes_its_connection_when_its_goodbye_fails(follower, monkeypatch):
    from draughts.dxp.engine import DxpEngine

    port, _ = follower
    engine = DxpEngine("127.0.0.1", port)
    conn = engine._conn
    assert conn is not None and not conn.closed

    def broken_goodbye(stop):
        raise RuntimeError("the goodbye failed")

    monkeypatch.setattr(engine, "_end_game", broken_goodbye)
    with pytest.raises(RuntimeError, match="the goodbye failed"):
        engine.close()
    assert conn.closed and conn.sock.fileno() == -1 and not engine.alive

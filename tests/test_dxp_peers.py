"""DXP engines as the field runs them: scripted Scan-like and Moby-like
followers over loopback sockets (127.0.0.1 only), driven by the match runner.

Scan 2.0 and Moby Dam read the GAMEREQ's move count as the length of the
game: once both sides have made that many moves, the side to move sends
GAMEEND instead of a move (Scan with a CHAT saying why).  The runner's
referee takes a GAMEEND of the side to move as a claim: a resignation loses;
a draw, a win or no verdict is decided by the endgame database, else the
match's -draw/-resign thresholds, else scored a draw, and the PDN says which.
Moby Dam answers a MOVE for the side it plays, or an illegal one, with
"invalid move received" and plays no more: a game from an opening must send
the opening's position in the GAMEREQ and only the moves after it.
"""

import io
import socket
import threading
import time

import pytest

import draughts
from draughts import egdb, errors, pdn
from draughts.dxp import protocol as P
from draughts.dxp import session as S
from draughts.match import cli
from draughts.match import game as G
from draughts.match.runner import Console, Match


@pytest.fixture(autouse=True)
def no_database(tmp_path, monkeypatch):
    """No endgame database unless a test builds one (and none cached from elsewhere)."""
    monkeypatch.setenv("DRAUGHTS_EGDB", str(tmp_path / "no-egdb"))
    monkeypatch.setattr(G, "_databases", {})


class ScriptedFollower:
    """A DXP follower on a loopback port that plays the first legal move (in
    the order of the moves' names) and, as told:

    * `length_end`: at the GAMEREQ's game length, on its move, sends this CHAT
      (None: none) and GAMEEND `length_reason`, as Scan does;
    * `claim`: (its turn number, GAMEEND reason, CHAT) ends the game there;
    * `chat_at`, `back_at`: its turn numbers to send a CHAT, a BACKREQ on;
    * `strict` (Moby Dam): a MOVE for its own side, or not legal, is answered
      with "invalid move received" and it plays no more in that game.
    """

    def __init__(
        self,
        name,
        *,
        length_end="game length reached",
        length_reason=0,
        claim=None,
        chat_at=(),
        back_at=(),
        strict=False,
    ):
        self.name = name
        self.length_end, self.length_reason = length_end, length_reason
        self.claim, self.chat_at, self.back_at, self.strict = claim, set(chat_at), set(back_at), strict
        self.requests, self.received, self.events = [], [], []
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        self.port = self.server.getsockname()[1]
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def close(self):
        self.server.close()

    def _run(self):
        while True:
            try:
                sock, _ = self.server.accept()
            except OSError:
                return
            try:
                self._connection(P.Connection(sock))
            except (errors.DxpError, errors.DxpConnectionError):
                pass
            finally:
                sock.close()

    def _connection(self, conn):
        board = None
        silent = answered = False
        while True:
            text = conn.recv_text(30)
            self.received.append(text)
            msg = P.parse(text)
            if isinstance(msg, P.GameReq):
                self.requests.append(text)
                board = P.board_of(msg.position)
                self.own = P.colour_of(msg.follower)
                self.length, self.start, self.turns = msg.moves, 0, 0
                silent = answered = False
                conn.send("A" + self.name.ljust(32) + "0")
                if board.turn == self.own:
                    answered = self._act(conn, board)
            elif isinstance(msg, P.MoveMsg):
                if silent or board is None:
                    continue
                move = P.legal_move(board, msg)
                if move is None or board.turn == self.own:
                    self.events.append(("invalid", text, board.fen()))
                    conn.send("Cinvalid move received")
                    silent = True
                    continue
                board.push(move)
                if board.outcome() is None:
                    answered = self._act(conn, board)
            elif isinstance(msg, P.GameEnd):
                if not answered:  # the runner ends the game: answer it
                    conn.send(f"E0{msg.stop}")
                board, answered = None, False
                if msg.stop:
                    return
            elif isinstance(msg, P.BackAcc):
                self.events.append(("backacc", text))

    def _act(self, conn, board):
        """Its move, or its GAMEEND (True: the runner's GAMEEND will be an answer)."""
        self.turns += 1
        plies = len(board.move_stack) - self.start
        if self.length and plies >= 2 * self.length:
            self.events.append(("length", self.turns, plies))
            if self.length_end:
                conn.send("C" + self.length_end)
            conn.send(f"E{self.length_reason}0")
            return True
        if self.claim and self.turns == self.claim[0]:
            _, reason, chat = self.claim
            self.events.append(("claim", self.turns, reason))
            if chat:
                conn.send("C" + chat)
            conn.send(f"E{reason}0")
            return True
        if self.turns in self.chat_at:
            conn.send(f"Cturn {self.turns} here")
        if self.turns in self.back_at:
            conn.send(f"B001{'W' if self.own == draughts.WHITE else 'Z'}")
        move = sorted(board.legal_moves, key=str)[0]
        board.push(move)
        conn.send(P.format(P.move_message(move, 0)))
        return False


def run_match(argv):
    out = io.StringIO()
    settings = cli.settings_from_options(cli.split_options(argv))
    match = Match(settings, console=Console(out, io.StringIO(), progress=False))
    return match.run(), out.getvalue()


def play(peer, tmp_path, *extra, tc="tc=10/60", games=1):
    pdn_path = tmp_path / "games.pdn"
    try:
        result, out = run_match(
            [
                "-variant",
                "international",
                "-games",
                str(games),
                "-pdnout",
                str(pdn_path),
                "-engine",
                f"name={peer.name}",
                "proto=dxp",
                "host=127.0.0.1",
                f"port={peer.port}",
                tc,
                "-engine",
                "name=builtin",
                "proto=builtin",
                "depth=1",
                *extra,
            ]
        )
    finally:
        peer.close()
    assert result.complete, out
    return result.records, list(pdn.read_games(pdn_path.read_text()))


def last_comment(game):
    return game.comments[max(game.comments)] if game.comments else ""


# --- the game length ---------------------------------------------------------------------


def test_scan_like_ends_the_game_at_its_length_and_it_is_scored_a_draw(tmp_path):
    peer = ScriptedFollower("Scan-like", chat_at=[2], back_at=[3])
    records, games = play(peer, tmp_path, games=2)
    # the move count of tc=10/60 and its minute, each colour once
    assert peer.requests == [
        "R01" + "draughts match".ljust(32) + "W001010A",
        "R01" + "draughts match".ljust(32) + "Z001010A",
    ]
    for record, game in zip(records, games):
        assert record.result == "1/2-1/2" and record.winner is None
        assert record.termination == "game length"
        assert len(record.moves) == 20  # ten moves each, then no more
        assert game.headers["Termination"] == "game length"
        assert game.headers["Result"] == "1-1"
        assert "game length of 10 moves" in last_comment(game)
    # game 1: Scan is White and to move at the length: it says why and sends GAMEEND
    assert records[0].reason == (
        "White ends the game at the game length of 10 moves (game length reached): scored a draw"
    )
    # game 2: our engine is to move there: the referee ends the game for it
    assert records[1].reason == "the game length of 10 moves is reached: scored a draw"
    assert [e for e in peer.events if e[0] == "length"] == [("length", 11, 20)]
    # its BACKREQ is answered "not supported", every game
    assert [e for e in peer.events if e[0] == "backacc"] == [("backacc", "K1")] * 2


@pytest.mark.parametrize(
    "reason, winner, termination, words",
    [
        (1, 1, "normal", "White resigns (I lose)"),
        (2, None, "unverified claim", "White claims a draw (I see a draw): scored a draw"),
        (3, None, "unverified claim", "White claims the win (I win): scored a draw"),
        (0, None, "unverified claim", "White ends the game (no idea): scored a draw"),
    ],
)
def test_claims_before_the_length(tmp_path, reason, winner, termination, words):
    chat = {0: "no idea", 1: "I lose", 2: "I see a draw", 3: "I win"}[reason]
    peer = ScriptedFollower("Scan-like", claim=(4, reason, chat))
    (record,), (game,) = play(peer, tmp_path)
    assert record.winner == winner and record.termination == termination
    assert record.reason == words
    assert len(record.moves) == 6  # Scan's fourth turn, White to move
    assert game.headers["Termination"] == termination
    assert game.headers["Result"] == ("0-2" if winner == 1 else "1-1")
    assert last_comment(game).endswith(words)


def test_a_claim_with_the_draw_rule_is_adjudicated(tmp_path):
    peer = ScriptedFollower("Scan-like", claim=(3, 3, "I win"))
    (record,), (game,) = play(peer, tmp_path, "-draw", "movenumber=0", "movecount=500", "score=100000")
    assert (record.winner, record.termination) == (None, "adjudication")
    assert record.reason == "White claims the win (I win); a draw by adjudication"
    assert game.headers["Termination"] == "adjudication"


def test_the_resign_threshold_decides_a_claim():
    board = draughts.Board()
    rules = G.Rules(resign=G.ResignAdjudication(movecount=3, score=500))
    white, black = draughts.WHITE, draughts.BLACK
    # White claims a draw; Black's last score (from its side) is -6 men: Black loses
    assert G._claim_verdict(board, white, rules, {white: None, black: -6.0}, "h", False) == (
        white,
        "adjudication",
        "h; White wins by adjudication",
    )
    # White claims the win while its own engine says it is lost by 5 men: Black wins
    assert G._claim_verdict(board, white, rules, {white: -5.0, black: None}, "h", True)[:2] == (black, "adjudication")
    # within the threshold, and no -draw rule: a draw, the game length's or an unverified claim's
    assert G._claim_verdict(board, white, rules, {white: -4.9, black: 4.9}, "h", True) == (
        None,
        "game length",
        "h: scored a draw",
    )
    assert G._claim_verdict(board, white, G.Rules(), {white: None, black: None}, "h", False)[1] == "unverified claim"


@pytest.mark.parametrize(
    "fen, reason, winner, words",
    [
        ("W:WK1,K2:BK50", 3, None, "White claims the win; the endgame database says a draw"),
        ("W:WK28,K33:BK5", 2, 0, "White claims a draw; the endgame database says a win for White"),
        ("W:WK28,K33:BK5", 1, 1, "White resigns"),
    ],
)
def test_claims_are_checked_by_the_endgame_database(tmp_path, monkeypatch, fen, reason, winner, words):
    where = tmp_path / "egdb"
    egdb.build("international", 3, str(where))
    monkeypatch.setenv("DRAUGHTS_EGDB", str(where))
    openings = tmp_path / "openings.fen"
    openings.write_text(fen + "\n")
    peer = ScriptedFollower("Scan-like", claim=(1, reason, ""))
    (record,), (game,) = play(peer, tmp_path, "-openings", f"file={openings}", "format=fen")
    assert peer.requests[0][35:43] == "W001010B"
    assert P.board_of(P.parse(peer.requests[0]).position).fen() == draughts.Board(fen).fen()
    assert record.moves == [] and record.winner == winner and record.reason == words
    assert record.termination == ("normal" if reason == 1 else "adjudication")
    assert game.headers["FEN"] and game.comments == {-1: words}  # before the first (no) move


# --- openings: the GAMEREQ carries the opening's position ----------------------------------


def four_ply_openings(path, count):
    """`count` PDN games of four plies each, from the start (the first legal moves in turn)."""
    texts = []
    for n in range(count):
        board = draughts.Board()
        for ply in range(4):
            moves = sorted(board.legal_moves, key=str)
            board.push(moves[(n + ply) % len(moves)])
        texts.append(pdn.write_game(pdn.Game.from_board(board, {"Event": f"opening {n + 1}"})))
    path.write_text("\n".join(texts))
    return [b for b in (pdn.read_game(t).end() for t in texts)]


def test_a_game_from_an_opening_sends_its_position_and_only_the_later_moves(tmp_path):
    ends = four_ply_openings(tmp_path / "openings.pdn", 2)
    peer = ScriptedFollower("Moby-like", strict=True, length_end=None)
    records, games = play(
        peer,
        tmp_path,
        "-openings",
        f"file={tmp_path / 'openings.pdn'}",
        "order=sequential",
        "-repeat",
        tc="tc=6/60",
        games=4,
    )
    assert [e for e in peer.events if e[0] == "length"] == [("length", 7, 12)] * 2  # the games it was White in
    assert [e for e in peer.events if e[0] == "invalid"] == []  # every MOVE it saw was the other side's, legal
    assert len(peer.requests) == 4
    for request, end, record, game in zip(peer.requests, [ends[0], ends[0], ends[1], ends[1]], records, games):
        req = P.parse(request)
        assert req.position is not None and (req.minutes, req.moves) == (1, 6)
        assert P.board_of(req.position).fen() == end.fen()  # the opening's end, B and 50 squares
        assert request[43] == "W"  # White to move after four plies
        assert record.termination == "game length" and len(record.moves) == 12
        assert game.headers["Termination"] == "game length" and len(game.moves) == 16
        assert game.headers["Opening"].startswith("opening")
    # where our engine is to move at the opening's end, the first MOVE after the
    # GAMEREQ is its move from that position, never one of the opening's
    checked = 0
    for i, text in enumerate(peer.received):
        if text.startswith("R") and P.parse(text).follower != P.parse(text).position[0]:
            req, move = P.parse(text), P.parse(peer.received[i + 1])
            assert P.legal_move(P.board_of(req.position), move) is not None
            checked += 1
    assert checked == 2


def test_the_old_way_is_what_moby_rejects():
    """The check the Moby-like peer makes: the opening's moves after a GAMEREQ
    for the normal start include one for its own side, which it rejects."""
    board = draughts.Board()
    moves = [sorted(board.legal_moves, key=str)[0]]
    board.push(moves[0])
    moves.append(sorted(board.legal_moves, key=str)[0])
    peer = ScriptedFollower("Moby-like", strict=True)
    try:
        conn = P.Connection.connect("127.0.0.1", peer.port)
        conn.send("R01" + "old runner".ljust(32) + "W001006A")  # it plays White
        assert conn.recv_text(10).startswith("A")
        first = conn.recv_text(10)  # it moves, White
        assert first.startswith("M")
        conn.send(P.format(P.move_message(moves[0], 0)))  # White's opening move again
        assert conn.recv_text(10) == "Cinvalid move received"
        conn.send("E01")
        conn.close()
    finally:
        peer.close()
    assert peer.events and peer.events[0][0] == "invalid"


# --- our follower keeps the field's convention ----------------------------------------------


@pytest.fixture
def follower():
    server = S.listen("127.0.0.1", 0)
    log = []
    thread = threading.Thread(
        target=lambda: S.serve(server, S.EngineMover(tt_mb=4, depth=1), log=log.append), daemon=True
    )
    thread.start()
    yield server.getsockname()[1], log
    server.close()


def request(follower, moves, position="A"):
    return "R01" + "script".ljust(32) + f"{follower}005{moves:03d}" + position


def play_to_length(conn, board, ours, length):
    """Both sides' moves up to the length: ours the first legal, its checked on `board`."""
    while len(board.move_stack) < 2 * length:
        if board.turn == ours:
            move = sorted(board.legal_moves, key=str)[0]
            board.push(move)
            conn.send(P.format(P.move_message(move, 0)))
        else:
            text = conn.recv_text(10)
            move = P.legal_move(board, P.parse(text))
            assert move is not None, text
            board.push(move)


def test_our_follower_to_move_at_the_length_sends_gameend_with_a_chat(follower):
    port, log = follower
    conn = P.Connection.connect("127.0.0.1", port)
    conn.send(request("W", 3))
    assert conn.recv_text(10) == "A" + "draughts".ljust(32) + "0"
    board = draughts.Board()
    play_to_length(conn, board, draughts.BLACK, 3)
    assert conn.recv_text(10) == "Cthe game length of 3 moves is reached"
    assert conn.recv_text(10) == "E00"
    conn.send("E01")
    with pytest.raises(errors.DxpClosed):
        conn.recv_text(10)
    conn.close()
    deadline = time.monotonic() + 5
    while not any("game 1" in line for line in log) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert any("game 1: 1-1 (a draw: the game length of 3 moves is reached)" in line for line in log), log


def test_our_follower_answers_a_gameend_at_the_length_with_a_draw(follower):
    port, _ = follower
    conn = P.Connection.connect("127.0.0.1", port)
    board = draughts.Board("B:W31,32,33:B18,19,20")
    conn.send(request("W", 2, "B" + P.position_of(board)[0] + P.position_of(board)[1]))
    assert conn.recv_text(10).endswith("0")
    play_to_length(conn, board, draughts.BLACK, 2)  # Black, we, moved first: we end it
    conn.send("E00")
    assert conn.recv_text(10) == "E20"
    # before the length, the same GAMEEND leaves the game unknown (E00), and the connection goes on
    conn.send(request("Z", 40))
    assert conn.recv_text(10).endswith("0")
    conn.send("E00")
    assert conn.recv_text(10) == "E00"
    conn.send("E01")
    assert conn.recv_text(10) == "E01"
    conn.close()


def test_our_initiator_keeps_the_length_both_ways(follower):
    # `draughts dxp --connect --moves 3`: game 1 we (White) are to move at the
    # length and end it; game 2 the follower (White) is, and its GAMEEND is a draw
    port, log = follower
    conn = P.Connection.connect("127.0.0.1", port)
    chats = []
    try:
        _, results = S.initiate(conn, S.EngineMover(tt_mb=4, depth=1), games=2, minutes=1, moves=3, log=chats.append)
    finally:
        conn.close()
    assert [r.our_colour for r in results] == [draughts.WHITE, draughts.BLACK]
    for r in results:
        assert r.finished and r.winner is None and r.result_token() == "1-1", r.reason
        assert len(r.board.move_stack) == 6
        assert r.reason == "a draw: the game length of 3 moves is reached"
    assert "dxp: peer says: the game length of 3 moves is reached" in chats, chats

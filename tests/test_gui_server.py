"""The GUI's server without a browser (Starlette's TestClient): every message
type, every kind of bad input (answered with an error, the session goes on),
the origin check, Hub engines named on the command line and their ends."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from urllib.parse import urljoin

import pytest

pytest.importorskip("starlette")
# starlette's test client runs on httpx2 (httpx in starlette before 1.x or on Python 3.10 and older)
try:
    import httpx2  # noqa: F401
except ImportError:
    pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import draughts  # noqa: E402
from draughts import Board  # noqa: E402
from draughts.errors import DraughtsError  # noqa: E402
from draughts.gui import engines as ge  # noqa: E402
from draughts.match.engines import EngineConfig  # noqa: E402
from draughts.gui.server import create_app, host_allowed, origin_allowed, split_host  # noqa: E402
from draughts.gui.session import MAX_PDN  # noqa: E402

#: where the test client says it is: the server answers its own (loopback) names only
LOCAL = "http://127.0.0.1:8000"


class Client(TestClient):
    """Starlette's test client whose WebSockets go to its base URL's host
    (Starlette's own always say `Host: testserver`, which the server refuses)."""

    def websocket_connect(self, url, *args, **kwargs):
        base = str(self.base_url).replace("http", "ws", 1)
        return super().websocket_connect(urljoin(base, url), *args, **kwargs)


def local_client(app):
    return Client(app, base_url=LOCAL)


# its book off: the tests watch it search from the start position
HUB = ge.EngineSpec("hub-ours", "hub", (sys.executable, "-m", "draughts", "hub", "--book", "none"))


def until(ws, kind, pred=lambda m: True, limit=400):
    """The next message of type `kind` that satisfies pred (others are read past)."""
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == kind and pred(m):
            return m
    raise AssertionError(f"no {kind} message")


def settled(ws):
    """The next state in which the engine is not thinking."""
    return until(ws, "state", lambda m: not m["thinking"])


@pytest.fixture
def client():
    with local_client(create_app([HUB])) as c:
        yield c


@pytest.fixture
def ws(client):
    with client.websocket_connect("/ws") as w:
        hello = w.receive_json()
        assert hello["type"] == "engines"
        assert [e["name"] for e in hello["engines"]] == ["draughts", "hub-ours"]
        assert len(hello["variants"]) == 15
        first = w.receive_json()
        assert first["type"] == "state" and first["variant"]["name"] == "international"
        yield w


def error(ws, msg):
    ws.send_json(msg)
    return until(ws, "error")["message"]


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "app.js" in r.text
    for name in ("app.js", "board.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../session.py").status_code == 404
    assert client.get("/engines").json() == [
        {"name": "draughts", "proto": "builtin"},
        {"name": "hub-ours", "proto": "hub"},
    ]


def test_new_game_in_every_variant_and_the_house_rule(ws):
    for name, v in draughts.VARIANTS.items():
        ws.send_json({"type": "new", "variant": name, "side": "both"})
        s = until(ws, "state")
        assert s["variant"]["name"] == name
        assert s["fen"] == Board(variant=name).fen()
        assert len(s["variant"]["squares"]) == v.squares
        assert {m["text"] for m in s["legal"]} == {
            Board(variant=name).move_text(m) for m in Board(variant=name).legal_moves
        }
    ws.send_json({"type": "new", "variant": "american", "house": True, "side": "both", "fen": "B:W18:B14"})
    s = until(ws, "state")
    assert s["variant"]["house"] and {m["text"] for m in s["legal"]} >= {"14x23", "14-17"}
    assert "8x8" in error(ws, {"type": "new", "variant": "international", "house": True})


def test_moves_undo_goto_and_the_engine_reply(ws):
    ws.send_json({"type": "settings", "movetime": 0.05, "level": 5})
    s = until(ws, "state")
    assert s["level"] == 5 and s["movetime"] == 0.05
    ws.send_json({"type": "new", "variant": "international", "side": "white"})
    until(ws, "state")
    ws.send_json({"type": "move", "start": 32, "end": 28, "captured": []})
    thinking = until(ws, "state")
    assert thinking["thinking"] and thinking["legal"] == []
    s = settled(ws)
    assert s["moves"][0] == "32-28" and len(s["moves"]) == 2 and s["cursor"] == 2
    assert s["lastmove"] is not None and s["turn"] == "white"
    ws.send_json({"type": "goto", "ply": 1})
    s = until(ws, "state")
    assert s["cursor"] == 1 and s["legal"] and s["fen"].startswith("B:")
    ws.send_json({"type": "goto", "ply": 2})
    assert until(ws, "state")["cursor"] == 2
    ws.send_json({"type": "undo"})
    s = until(ws, "state")
    assert s["moves"] == [] and s["cursor"] == 0
    # the score graph's points come with the engine's moves
    ws.send_json({"type": "move", "start": 32, "end": 28, "captured": []})
    s = settled(ws)
    assert s["scores"] and all(isinstance(p, int) and isinstance(v, float) for p, v in s["scores"])


def test_a_move_from_an_earlier_position_cuts_the_line(ws):
    ws.send_json({"type": "new", "variant": "american", "side": "both"})
    until(ws, "state")
    for a, b in ((11, 15), (23, 19), (8, 11)):
        ws.send_json({"type": "move", "start": a, "end": b, "captured": []})
        until(ws, "state")
    ws.send_json({"type": "goto", "ply": 1})
    until(ws, "state")
    ws.send_json({"type": "move", "start": 22, "end": 18, "captured": []})
    s = until(ws, "state")
    assert s["moves"] == ["11-15", "22-18"] and s["cursor"] == 2


def test_a_game_ends_with_its_result_and_reason(ws):
    ws.send_json({"type": "new", "variant": "american", "side": "both", "fen": "W:W18:B14"})
    until(ws, "state")
    ws.send_json({"type": "move", "start": 18, "end": 9, "captured": [14]})
    s = until(ws, "state")
    assert s["result"] == "0-1" and s["reason"] == "White wins: no pieces left" and s["legal"] == []
    assert "over" in error(ws, {"type": "move", "start": 9, "end": 5, "captured": []})


def test_bad_messages_are_answered_and_the_session_goes_on(ws):
    ws.send_text("not json")
    assert "JSON" in until(ws, "error")["message"]
    ws.send_bytes(b"\x00\xff")
    assert "JSON text" in until(ws, "error")["message"]
    for bad, words in [
        ([1, 2], "JSON object"),
        ({"no": "type"}, "JSON object"),
        ({"type": "nonsense"}, "unknown message type"),
        ({"type": "__init__"}, "unknown message type"),
        ({"type": "new", "variant": "chess"}, "unknown variant"),
        ({"type": "new", "variant": 7}, "variant"),
        ({"type": "new", "variant": "american", "side": "green"}, "side"),
        ({"type": "new", "variant": "american", "house": "yes"}, "house"),
        ({"type": "new", "variant": "american", "fen": "W:W99:B1"}, "99"),
        ({"type": "settings", "engine": "/bin/sh"}, "no engine named"),
        ({"type": "settings", "level": 0}, "level"),
        ({"type": "settings", "level": True}, "level"),
        ({"type": "settings", "movetime": 1e9}, "movetime"),
        ({"type": "settings", "movetime": "1"}, "movetime"),
        ({"type": "move", "start": 32, "end": 23, "captured": []}, "illegal move"),
        ({"type": "move", "start": "32", "end": 28}, "start"),
        ({"type": "move", "start": 32, "end": 28, "captured": "x"}, "captured"),
        ({"type": "move", "start": 320, "end": 28}, "start"),
        ({"type": "undo"}, "no move"),
        ({"type": "goto", "ply": 5}, "ply"),
        ({"type": "goto", "ply": -1}, "ply"),
        ({"type": "set_fen", "fen": "nonsense"}, "FEN"),
        ({"type": "set_fen", "fen": None}, "fen"),
        ({"type": "set_fen", "fen": "W:W" + "1," * 5000}, "fen"),
        ({"type": "setup", "pieces": "all"}, "pieces"),
        ({"type": "setup", "pieces": {"99": "w"}}, "square"),
        ({"type": "setup", "pieces": {"x": "w"}}, "square"),
        ({"type": "setup", "pieces": {"5": "q"}}, "piece"),
        ({"type": "setup", "pieces": {"1": "w"}}, "crowned"),
        ({"type": "setup", "pieces": {"5": "w"}, "turn": "red"}, "turn"),
        ({"type": "load_pdn", "text": 5}, "text"),
        ({"type": "load_pdn", "text": '[GameType "20"]\n\n1. 32-27 99-98 *'}, "no game"),
        ({"type": "load_pdn", "text": "x" * (MAX_PDN + 1)}, "larger"),
        ({"type": "pick_game", "index": 0}, "no PDN"),
        ({"type": "analyse", "on": "yes"}, "on"),
        ({"type": "analyse", "on": True, "multipv": 0}, "multipv"),
        ({"type": "analyse", "on": True, "multipv": 11}, "multipv"),
    ]:
        assert words in error(ws, bad), bad
    ws.send_json({"type": "move", "start": 32, "end": 28, "captured": []})
    s = until(ws, "state")
    assert s["moves"] == ["32-28"]


def test_a_message_over_the_limit_is_refused(client):
    with local_client(create_app(max_message=1000)) as c, c.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_text(json.dumps({"type": "load_pdn", "text": "x" * 2000}))
        assert "too large" in until(w, "error")["message"]
        w.send_json({"type": "goto", "ply": 0})
        until(w, "state")


def test_fen_and_the_board_editor(ws):
    ws.send_json({"type": "new", "variant": "russian", "side": "both"})
    until(ws, "state")
    ws.send_json({"type": "setup", "pieces": {"29": "W", "10": "b"}, "turn": "black"})
    fen = until(ws, "setup")["fen"]
    assert fen == "B:WKa1:Bd6"
    ws.send_json({"type": "set_fen", "fen": fen})
    s = until(ws, "state")
    assert s["fen"] == fen and s["pieces"] == {"10": "b", "29": "W"} and s["turn"] == "black"


PDN = """[White "A"]\n[Black "B"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n
[White "C"]\n[Black "D"]\n[GameType "21"]\n\n1. 11-15 23-19 *\n
[GameType "20"]\n\n1. 32-27 99-98 *\n"""


def test_pdn_load_pick_and_save(ws):
    ws.send_json({"type": "load_pdn", "text": PDN})
    g = until(ws, "games")
    assert [x["white"] for x in g["games"]] == ["A", "C"] and g["skipped"] == 1
    assert "index" in error(ws, {"type": "pick_game", "index": 2})
    ws.send_json({"type": "pick_game", "index": 1})
    s = until(ws, "state")
    # shown at its last move, said to be a loaded game
    assert s["variant"]["name"] == "american" and s["moves"] == ["11-15", "23-19"] and s["cursor"] == 2
    assert s["side"] == "both" and s["loaded"] and s["lastmove"] == [23, 19]
    ws.send_json({"type": "save_pdn"})
    saved = until(ws, "pdn")
    game = draughts.pdn.read_game(saved["text"])
    assert game.headers["White"] == "C" and [str(m) for m in game.moves] == ["11-15", "23-19"]
    # one game loads at once
    ws.send_json({"type": "load_pdn", "text": '[GameType "20"]\n\n1. 32-28 *\n'})
    s = until(ws, "state")
    assert s["moves"] == ["32-28"] and s["variant"]["name"] == "international"
    ws.send_json({"type": "new", "variant": "international", "side": "both"})
    assert not until(ws, "state")["loaded"]


def test_a_new_game_replays_given_moves(ws):
    """What a reloaded page sends to get its game back."""
    ws.send_json(
        {"type": "new", "variant": "american", "side": "both", "moves": ["11-15", "23-19", "8-11"], "cursor": 2}
    )
    s = until(ws, "state")
    assert s["moves"] == ["11-15", "23-19", "8-11"] and s["cursor"] == 2 and s["lastmove"] == [23, 19]
    assert s["turn"] == "black"
    fen = "W:W12,48:B8,9,18,45"
    ws.send_json({"type": "new", "variant": "international", "side": "white", "fen": fen, "moves": ["12x14"]})
    s = until(ws, "state")
    assert s["start_fen"] == fen and s["moves"] == ["12x14"] and s["cursor"] == 1
    assert "move 2" in error(ws, {"type": "new", "variant": "american", "moves": ["11-15", "11-15"]})
    assert "move 1" in error(ws, {"type": "new", "variant": "american", "moves": ["zz"]})
    assert "moves" in error(ws, {"type": "new", "variant": "american", "moves": "11-15"})
    assert "cursor" in error(ws, {"type": "new", "variant": "american", "moves": ["11-15"], "cursor": 2})
    # a refused replay leaves the game as it was
    ws.send_json({"type": "goto", "ply": 1})
    assert until(ws, "state")["start_fen"] == fen


def test_preview_of_a_line(ws):
    ws.send_json({"type": "new", "variant": "international", "side": "both"})
    until(ws, "state")
    ws.send_json({"type": "preview", "moves": ["32-28", "19-23", "28x19"]})
    p = until(ws, "preview")
    b = Board(variant="international")
    for t in ("32-28", "19-23", "28x19"):
        b.push(b.parse_move(t))
    assert p["fen"] == b.fen() and p["ply"] == 0 and p["lastmove"] == [28, 19]
    assert p["pieces"] == {str(n): q.symbol() for n, q in b.pieces().items()}
    assert "move 2" in error(ws, {"type": "preview", "moves": ["32-28", "32-28"]})
    # the game is as it was
    ws.send_json({"type": "goto", "ply": 0})
    assert until(ws, "state")["moves"] == []


def test_the_elo_line_waits_for_an_interval():
    from draughts.gui.match import summary_json

    class R:  # what summary_json reads of a game record
        def __init__(self, index, points):
            self.index, self._p = index, points

        def points(self, i):
            return self._p

    for points in ([0.5, 0.5], [1.0, 1.0], [1.0, 0.0], [1.0, 0.5], [0.0, 0.0, 0.5]):
        assert summary_json(["a", "b"], [R(i, p) for i, p in enumerate(points)], 1)["elo_line"] == "", points
    pts = [1.0] * 6 + [0.0] * 3 + [0.5] * 3
    line = summary_json(["a", "b"], [R(i, p) for i, p in enumerate(pts)], 1)["elo_line"]
    # the command line's own line, with its interval
    assert re.match(r"Elo difference: \d+\.\d\d \+/- \d+\.\d\d, LOS: ", line), line


def test_a_set_up_position_is_saved_with_its_fen(ws):
    ws.send_json({"type": "new", "variant": "international", "side": "both", "fen": "W:W12,48:B8,9,18,45"})
    until(ws, "state")
    ws.send_json({"type": "move", "start": 12, "end": 14, "captured": [8, 9]})
    until(ws, "state")
    ws.send_json({"type": "save_pdn"})
    game = draughts.pdn.read_game(until(ws, "pdn")["text"])
    assert game.setup_fen == "W:W12,48:B8,9,18,45" and [str(m) for m in game.moves] == ["12x3x14"]


def _numbered(line):
    """An analysis line's moves with their move numbers, as one text."""
    return " ".join(f"{n} {m}" if n else m for n, m in zip(line["numbers"], line["pv"]))


def test_analysis_multipv_and_its_stop(ws):
    ws.send_json({"type": "new", "variant": "american", "side": "both"})
    until(ws, "state")
    ws.send_json({"type": "analyse", "on": True, "multipv": 3})
    a = until(ws, "analysis", lambda m: m["depth"] >= 4)
    assert len(a["lines"]) == 3 and [x["multipv"] for x in a["lines"]] == [1, 2, 3]
    assert len({x["pv"][0] for x in a["lines"]}) == 3
    assert [x["score"] for x in a["lines"]] == sorted((x["score"] for x in a["lines"]), reverse=True)
    assert a["nodes"] > 0 and a["ply"] == 0
    # with each move its move number, as Board.variation_str writes the line
    start = Board(variant="american")
    for x in a["lines"]:
        assert x["numbers"][0] == "1." and len(x["numbers"]) == len(x["pv"])
        assert _numbered(x) == start.variation_str(x["pv"])
    # one line: the engine's own search
    ws.send_json({"type": "analyse", "on": True, "multipv": 1})
    a = until(ws, "analysis", lambda m: len(m["lines"]) == 1 and m["depth"] >= 6)
    assert a["nps"] > 0
    # analysis follows the position
    ws.send_json({"type": "move", "start": 11, "end": 15, "captured": []})
    a = until(ws, "analysis", lambda m: m["ply"] == 1)
    # White to move after Black's first move: the line begins "1... "
    start.push("11-15")
    assert a["lines"][0]["numbers"][0] == "1..."
    assert _numbered(a["lines"][0]) == start.variation_str(a["lines"][0]["pv"])
    ws.send_json({"type": "analyse", "on": False})
    s = until(ws, "state")
    assert not s["analysing"]


def test_multipv_lines_are_the_engines_own():
    board = Board(variant="american")
    engine = ge.GuiEngine(ge.BUILTIN, board.variant)
    reports = []
    engine.analyse(board, 7, reports.append, max_depth=4)
    assert [r.depth for r in reports] == [1, 2, 3, 4]
    last = reports[-1]
    assert [line.multipv for line in last.lines] == list(range(1, 8))
    check = draughts.Engine("american", tt_mb=ge.TT_MB)
    want = check.analyse(board, draughts.Limit(depth=4), multipv=7)
    assert [(line.score, line.pv, line.win_in) for line in last.lines] == [(i.score, i.pv, i.win_in) for i in want]
    assert len({line.pv[0] for line in last.lines}) == 7


def test_a_hub_engines_multipv_lines_are_its_own():
    board = Board(variant="american")
    engine = ge.GuiEngine(HUB, board.variant)
    try:
        reports = []
        engine.analyse(board, 3, reports.append, max_depth=4)
        assert reports and [r.depth for r in reports] == sorted({r.depth for r in reports})
        last = reports[-1]
        assert last.depth == 4 and [line.multipv for line in last.lines] == [1, 2, 3]
        assert len({line.pv[0] for line in last.lines}) == 3
        assert all(line.pv[0] in board.legal_moves for line in last.lines)
        scores = [line.score for line in last.lines]
        assert scores == sorted(scores, reverse=True)
        assert engine._hub.params["multipv"].value in (3, "3")
    finally:
        engine.close()


def test_origin_check():
    assert origin_allowed(None, "127.0.0.1:8000")
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origin_allowed("http://evil.test", "127.0.0.1:8000")
    assert not origin_allowed("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not origin_allowed("file://", "127.0.0.1:8000")
    assert not origin_allowed("null", "127.0.0.1:8000")


def test_a_foreign_origin_websocket_is_refused(client):
    with pytest.raises(WebSocketDisconnect) as e:
        with client.websocket_connect("/ws", headers={"origin": "http://evil.test"}) as w:
            w.receive_json()
    assert e.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": LOCAL}) as w:
        assert w.receive_json()["type"] == "engines"


# --- the Host header (DNS rebinding) ---------------------------------------------------


def test_host_header_parsing_and_check():
    assert split_host("127.0.0.1:8000") == ("127.0.0.1", 8000)
    assert split_host("[::1]:8000") == ("::1", 8000)
    assert split_host("LocalHost") == ("localhost", None)
    for bad in ("", ":8000", "[::1", "::1", "[]:80", "a:b", "a:-1", "a:123456", "a:\uff18\uff10", "x: 80"):
        assert split_host(bad) is None, bad
    names = ("127.0.0.1", "localhost", "::1")
    assert host_allowed("localhost:8000", names, 8000)
    assert host_allowed("[::1]:8000", names, 8000)
    assert not host_allowed("evil.example:8000", names, 8000)
    assert not host_allowed("127.0.0.1:8001", names, 8000)
    assert not host_allowed("127.0.0.1", names, 8000)  # port 80
    assert host_allowed("127.0.0.1", names, 80)
    assert host_allowed("localhost:1234", names)  # port not known: any
    assert not host_allowed(None, names) and not host_allowed("", names)
    # a wildcard bind (--allow-remote) answers any IP address, never a name it does not know
    assert host_allowed("192.0.2.7:8000", names, 8000, any_address=True)
    assert not host_allowed("192.0.2.7:8000", names, 8000)
    assert not host_allowed("evil.example:8000", names, 8000, any_address=True)


def test_a_request_for_another_host_is_refused():
    # a page on evil.example whose name now points at 127.0.0.1 sends these headers
    with Client(create_app(port=8000), base_url="http://evil.example:8000") as c:
        r = c.get("/")
        assert r.status_code == 400 and "Host" in r.text
        assert c.get("/engines").status_code == 400
        assert c.get("/static/app.js").status_code == 400
        with pytest.raises(WebSocketDisconnect) as e:
            with c.websocket_connect("/ws", headers={"origin": "http://evil.example:8000"}) as w:
                w.receive_json()
        assert e.value.code == 1008
    for base in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
        with Client(create_app(port=8000), base_url=base) as c:
            assert c.get("/").status_code == 200, base
            with c.websocket_connect("/ws", headers={"origin": base}) as w:
                assert w.receive_json()["type"] == "engines"
    # another port of this machine is another server
    with Client(create_app(port=8000), base_url="http://127.0.0.1:9000") as c:
        assert c.get("/").status_code == 400


@pytest.mark.parametrize(
    "host", [b"evil.example:8000", b"", b"[::1", b"127.0.0.1:80:80", b"\xe9:8000", b"localhost\xff:8000", b"a" * 5000]
)
def test_a_bad_host_header_is_answered_and_the_server_goes_on(host):
    with local_client(create_app(port=8000)) as c:
        r = c.get("/", headers={"host": host})
        assert r.status_code == 400
        assert c.get("/").status_code == 200


def test_a_remote_bind_answers_its_ip_addresses_and_names():
    app = create_app(hosts=("127.0.0.1", "localhost", "::1", "0.0.0.0", "myhost"), port=8000, any_address=True)
    with Client(app, base_url="http://192.0.2.7:8000") as c:
        assert c.get("/").status_code == 200
    with Client(app, base_url="http://myhost:8000") as c:
        assert c.get("/").status_code == 200
    with Client(app, base_url="http://evil.example:8000") as c:
        assert c.get("/").status_code == 400


def test_engine_arguments_and_config():
    spec = ge.parse_engine_arg("scan=./scan hub --x 'a b'")
    assert spec == ge.EngineSpec("scan", "hub", ("./scan", "hub", "--x", "a b"))
    for bad in ("scan", "=x", "scan=", "scan='"):
        with pytest.raises(DraughtsError):
            ge.parse_engine_arg(bad)
    specs = ge.specs_from_config(
        {"engines": [{"name": "a", "cmd": ["x", "hub"], "dir": "/tmp"}, {"name": "b", "cmd": "y hub"}]}
    )
    assert specs[0].command() == ["x", "hub"] and specs[0].dir == "/tmp" and specs[1].command() == ["y", "hub"]
    # the page's engines are the match runner's engine settings, a Hub engine with its own book
    assert specs[0] == EngineConfig("a", "x", ("hub",), "/tmp", "hub", book=True)
    for bad in ([], {"engines": [{"name": "a"}]}, {"engines": [{"name": "a", "cmd": "x", "proto": "uci"}]}):
        with pytest.raises(DraughtsError):
            ge.specs_from_config(bad)


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_a_hub_engine_plays_and_ends_with_its_page(client):
    app_sessions = client.app.state.sessions
    with client.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_json({"type": "settings", "engine": "hub-ours", "movetime": 0.1})
        assert until(w, "state")["engine"] == "hub-ours"
        w.send_json({"type": "new", "variant": "american", "side": "white"})  # black (the engine) first
        s = settled(w)
        assert len(s["moves"]) == 1
        w.send_json({"type": "analyse", "on": True, "multipv": 1})
        until(w, "analysis", lambda m: m["depth"] >= 3)
        pid = next(iter(app_sessions)).engine.pid
        assert pid and _alive(pid)
    deadline = time.time() + 10
    while _alive(pid) and time.time() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the engine outlived its page"


def test_a_failing_engine_is_an_error_not_a_crash():
    bad = ge.EngineSpec("missing", "hub", ("/nonexistent/engine", "hub"))
    with local_client(create_app([bad])) as c, c.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_json({"type": "settings", "engine": "missing"})
        until(w, "state")
        w.send_json({"type": "new", "variant": "international", "side": "black"})
        assert "missing" in until(w, "error")["message"]
        s = until(w, "state", lambda m: not m["thinking"])
        assert s["moves"] == []
        w.send_json({"type": "settings", "engine": "draughts", "movetime": 0.05})
        s = settled(w)
        assert len(s["moves"]) == 1  # our engine takes over


def _children(pid):
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    if int(fh.read().split(") ")[1].split()[1]) == pid:
                        out.append(int(name))
            except (OSError, IndexError, ValueError):
                pass
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_ends_the_server_and_its_engines(tmp_path):
    websockets = pytest.importorskip("websockets.sync.client")
    from draughts.gui.testing import free_port

    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "draughts",
        "gui",
        "--port",
        str(port),
        "--engine",
        f"hub-ours={sys.executable} -m draughts hub",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "settings", "engine": "hub-ours"}))
            ws.send(json.dumps({"type": "analyse", "on": True, "multipv": 1}))
            deadline = time.time() + 20
            while time.time() < deadline:
                m = json.loads(ws.recv(timeout=20))
                if m["type"] == "analysis":
                    break
            kids = _children(proc.pid)
            assert kids, "no engine process"
            proc.send_signal(signal.SIGINT)  # the page still open
            proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    time.sleep(0.2)
    assert not [k for k in kids if _alive(k)], "engines outlived the server"


def test_gui_without_the_extra_says_what_to_install(tmp_path):
    # a Python where starlette cannot be imported
    blocker = tmp_path / "starlette.py"
    blocker.write_text("raise ImportError('no starlette here')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path)] + sys.path))
    r = subprocess.run(
        [sys.executable, "-m", "draughts", "gui", "--port", "0"], capture_output=True, text=True, env=env, timeout=60
    )
    assert r.returncode == 2
    # the command for this installation: the source tree or file pip installed
    # it from (pip's record), else both the clone's and the distribution's form
    import importlib.metadata
    from urllib.parse import unquote, urlparse

    try:
        direct = json.loads(importlib.metadata.distribution("draughts-engine").read_text("direct_url.json") or "{}")
    except importlib.metadata.PackageNotFoundError:
        direct = {}
    where = unquote(urlparse(direct.get("url", "")).path)
    if where and os.path.exists(where) and ("dir_info" in direct or "archive_info" in direct):
        assert f'"{where}[gui]"' in r.stderr, r.stderr
    else:
        assert 'pip install ".[gui]" in a clone' in r.stderr, r.stderr
        assert 'pip install "draughts-engine[gui]"' in r.stderr, r.stderr


def test_a_match_from_the_page_and_its_bad_options(ws):
    ws.send_json({"type": "new", "variant": "american", "side": "both"})
    until(ws, "state")
    good = {
        "type": "match_start",
        "engines": [{"name": "draughts", "level": 20}, {"name": "draughts", "level": 1}],
        "limit": "depth=2",
        "games": 2,
        "repeat": True,
        "openings": "acf-3move",
    }
    for change, words in [
        ({"engines": [{"name": "draughts"}]}, "two engines"),
        ({"engines": [{"name": "sh"}, {"name": "draughts"}]}, "no engine named"),
        ({"engines": [{"name": "draughts", "level": 99}, {"name": "draughts"}]}, "level"),
        ({"limit": "cmd=/bin/sh"}, "limit"),
        ({"limit": ""}, "limit"),
        ({"limit": "tc=abc"}, "tc"),
        ({"games": 0}, "games"),
        ({"openings": "/etc/passwd"}, "shipped deck"),
    ]:
        assert words in error(ws, {**good, **change}), change
    assert "no match" in error(ws, {"type": "match_stop"})
    ws.send_json(good)
    m = until(ws, "match", lambda m: m["status"] != "running", limit=100000)
    assert m["status"] == "finished" and m["played"] == 2 and len(m["games"]) == 2
    # the weaker engine is named as `draughts match` names its own: by its level
    assert m["score_line"].startswith("Score of draughts vs draughts-level1: ")
    assert m["elo_line"] == ""  # two games: no interval, no Elo figure
    assert m["current"]["plies"] > 0
    ws.send_json({"type": "match_open", "index": 0})
    s = until(ws, "state")
    assert len(s["moves"]) == m["games"][0]["plies"] + 3  # the 3-move ballot's three plies first
    assert "index" in error(ws, {"type": "match_open", "index": -1})
    assert "not finished" in error(ws, {"type": "match_open", "index": 5})


def test_a_page_match_plays_with_the_match_runners_players():
    from draughts.engine_api import Player
    from draughts.gui.match import GuiMatch, match_argv
    from draughts.match.players import HubPlayer, InProcessPlayer

    variant = draughts.variant("international")
    options = {"engines": [{"name": "draughts", "level": 5}, {"name": "hub-ours"}], "limit": "depth=1", "games": 2}
    argv = match_argv([ge.BUILTIN, HUB], options, variant)
    second = argv.index("-engine", 1)
    assert argv[1:second] == ["name=draughts-level5", "proto=builtin", "option.level=5", "depth=1"]
    assert "book=on" in argv[second:]  # a Hub engine of the page keeps its own book
    match = GuiMatch([ge.BUILTIN, HUB], options, variant, emit=lambda message: None)
    try:
        players = [match._player(0), match._player(1)]
        assert [type(p) for p in players] == [InProcessPlayer, HubPlayer]
        assert players[1].config.book and not players[0].config.book
        assert all(isinstance(GuiMatch._Watched(match, p), Player) for p in players)
    finally:
        match.stop()
    assert not any(p.alive for p in players)


def test_a_running_match_stops_and_its_engines_end(ws):
    ws.send_json({"type": "new", "variant": "international", "side": "both"})
    until(ws, "state")
    ws.send_json(
        {
            "type": "match_start",
            "engines": [{"name": "draughts"}, {"name": "hub-ours"}],
            "limit": "tc=60+1",
            "games": 4,
            "repeat": True,
            "openings": "",
        }
    )
    until(ws, "match_lines")
    assert "running" in error(
        ws,
        {
            "type": "match_start",
            "engines": [{"name": "draughts"}, {"name": "draughts"}],
            "limit": "depth=1",
            "games": 1,
        },
    )
    ws.send_json({"type": "match_stop"})
    m = until(ws, "match", lambda m: m["status"] != "running", limit=100000)
    assert m["status"] == "stopped" and m["played"] == 0


def test_a_hub_engines_lines_in_a_match_come_as_it_thinks(ws):
    ws.send_json({"type": "new", "variant": "international", "side": "both"})
    until(ws, "state")
    ws.send_json(
        {
            "type": "match_start",
            "engines": [{"name": "hub-ours"}, {"name": "draughts"}],
            "limit": "st=0.5",
            "games": 2,
            "repeat": True,
            "openings": "",
        }
    )
    side, lines, thinking = None, 0, False
    for _ in range(20000):
        m = ws.receive_json()
        if m["type"] == "match" and m["current"]:
            cur = m["current"]
            side = "white" if cur["white"] == "hub-ours" else "black"
            if cur["running"] == side:
                thinking, lines = True, 0
            elif thinking:
                break  # its move is in
        elif m["type"] == "match_lines" and thinking and m["side"] == side:
            lines += 1
    else:
        raise AssertionError("the Hub engine made no move")
    assert lines >= 3  # one a depth while it thought, not one after the move
    ws.send_json({"type": "match_stop"})
    until(ws, "match", lambda m: m["status"] != "running", limit=100000)


def test_follow_a_match_through_its_state_file(tmp_path):
    state = tmp_path / "match.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "match",
            "-engine",
            "name=a",
            "proto=builtin",
            "depth=3",
            "-engine",
            "name=b",
            "proto=builtin",
            "depth=1",
            "-variant",
            "american",
            "-games",
            "2",
            "-repeat",
            "-state",
            str(state),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    with local_client(create_app(watch=str(state))) as c, c.websocket_connect("/ws") as w:
        hello = w.receive_json()
        assert hello["watch"] == "match.json"
        w.send_json({"type": "match_follow"})
        m = until(w, "match")
        assert m["kind"] == "followed" and m["status"] == "finished" and m["played"] == 2
        assert m["score_line"].startswith("Score of a vs b: ") and m["score_line"].endswith(" 2")
        assert m["current"]["game"] == 2
        w.send_json({"type": "match_open", "index": 1})
        s = until(w, "state")
        assert len(s["moves"]) == m["games"][1]["plies"]
        # the file grows as the match goes on
        data = json.loads(state.read_text())
        data["records"] = data["records"][:1]
        data["complete"] = False
        state.write_text(json.dumps(data))
        m = until(w, "match", lambda m: m["played"] == 1)
        assert m["status"] == "running"
    with local_client(create_app()) as c, c.websocket_connect("/ws") as w:
        assert "--watch" in error(w, {"type": "match_follow"})


def test_follow_a_match_through_its_live_file(tmp_path):
    state = tmp_path / "match.json"
    live = tmp_path / "live.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "draughts",
            "match",
            "-engine",
            "name=a",
            "proto=builtin",
            "depth=2",
            "-engine",
            "name=b",
            "proto=builtin",
            "depth=1",
            "-variant",
            "international",
            "-games",
            "2",
            "-maxmoves",
            "5",
            "-state",
            str(state),
            "-live",
            str(live),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    # the state file names the live file, and the live file the state file
    from draughts.gui.match import FollowedMatch

    for path in (state, live):
        f = FollowedMatch(str(path))
        assert f.refresh()
        assert {f.state_path, f.live_path} == {str(state), str(live)} and len(f.records) == 2
    # a game in progress, written by hand as docs say a live file is
    data = {
        "kind": "draughts-match-live",
        "version": 1,
        "variant": "international",
        "mandatory_capture": True,
        "names": ["a", "b"],
        "state": str(state),
        "played": 2,
        "total": 4,
        "status": "running",
        "updated": time.time(),
        "games": [
            {
                "index": 2,
                "white": "b",
                "black": "a",
                "fen": Board().fen(),
                "moves": ["32-28", "19-23"],
                "clocks": {"white": 5.0, "black": 4.0},
                "running": "white",
                "since": time.time() - 1.0,
                "lines": {
                    "white": {"depth": 7, "score": 0.25, "nps": 1000000, "pv": ["28x19x23", "14x23x19"]},
                    "black": None,
                },
            }
        ],
    }
    live.write_text(json.dumps(data))
    with local_client(create_app(watch=str(live))) as c, c.websocket_connect("/ws") as w:
        assert w.receive_json()["watch"] == "live.json"
        w.send_json({"type": "match_follow"})
        m = until(w, "match")
        assert m["kind"] == "followed" and m["status"] == "running" and m["played"] == 2
        assert m["score_line"].startswith("Score of a vs b: ") and len(m["games"]) == 2
        cur = m["current"]
        assert cur["game"] == 3 and cur["white"] == "b" and cur["plies"] == 2 and cur["turn"] == "white"
        assert cur["running"] == "white" and 3.0 < cur["clocks"]["white"] < 4.01 and cur["clocks"]["black"] == 4.0
        assert cur["lines"]["white"]["pv"] == ["28x19", "14x23"] and cur["lines"]["black"] is None
        board = Board()
        board.push("32-28")
        board.push("19-23")
        assert cur["fen"] == board.fen()
        # a running clock is sent again as it runs
        later = until(w, "match")
        assert later["current"]["clocks"]["white"] < cur["clocks"]["white"]
        # the game ends, the match with it: the last finished game is shown
        data.update(games=[], status="finished", played=2)
        live.write_text(json.dumps(data))
        m = until(w, "match", lambda m: m["status"] == "finished")
        assert m["current"]["game"] == 2 and m["current"]["running"] is None


@pytest.fixture
def dxp_follower():
    """Our own DXP follower (depth 2) on a loopback port, in a thread."""
    import threading
    from draughts.dxp import session as S

    server = S.listen("127.0.0.1", 0)

    def serve():
        try:
            S.serve(server, S.EngineMover(tt_mb=4, depth=2), log=lambda line: None)
        except OSError:
            pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    server.close()
    thread.join(5.0)  # the follower closes its connection before the next test


def test_a_dxp_engine_plays_international_and_follows_take_backs(dxp_follower):
    spec = ge.parse_engine_arg(f"follower=dxp://127.0.0.1:{dxp_follower}")
    assert spec == ge.EngineSpec("follower", "dxp", host="127.0.0.1", port=dxp_follower)
    with local_client(create_app([spec])) as c, c.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_json({"type": "settings", "engine": "follower", "movetime": 0.5})
        until(w, "state")
        w.send_json({"type": "new", "variant": "international", "side": "white"})
        until(w, "state")
        w.send_json({"type": "move", "start": 32, "end": 28, "captured": []})
        s = settled(w)
        assert len(s["moves"]) == 2
        # a take-back: the engine is given a new game from the start
        w.send_json({"type": "undo"})
        assert until(w, "state")["moves"] == []
        w.send_json({"type": "move", "start": 33, "end": 29, "captured": []})
        s = settled(w)
        assert s["moves"][0] == "33-29" and len(s["moves"]) == 2
        assert "no analysis" in error(w, {"type": "analyse", "on": True, "multipv": 1})
        assert not until(w, "state", lambda m: not m["analysing"])["analysing"]
        w.send_json({"type": "new", "variant": "american", "side": "white"})
        assert "international draughts only" in until(w, "error")["message"]
    assert ge.specs_from_config({"engines": [{"name": "d", "proto": "dxp", "port": 1234}]})[0].port == 1234


WEIRD = [None, -1, 0, 2**70, 1.5, float("nan"), True, "", "x" * 300, [], [1, "a"], {}, {"a": []}]
FIELDS = {
    "new": ["variant", "house", "fen", "side", "moves", "cursor"],
    "preview": ["moves"],
    "settings": ["engine", "level", "movetime", "side"],
    "move": ["start", "end", "captured"],
    "goto": ["ply"],
    "set_fen": ["fen"],
    "setup": ["pieces", "turn"],
    "load_pdn": ["text"],
    "pick_game": ["index"],
    "analyse": ["on", "multipv"],
    "match_open": ["index"],
    "match_start": ["engines", "limit", "games", "repeat", "openings"],
}


def test_odd_values_in_every_field_are_errors_not_faults(ws):
    sent = 0
    for kind, fields in FIELDS.items():
        for field in fields:
            for value in WEIRD:
                ws.send_text(json.dumps({"type": kind, field: value}, allow_nan=True))
                sent += 1
    ws.send_json({"type": "goto", "ply": 0})
    seen = []
    while True:
        m = ws.receive_json()
        seen.append(m)
        if (
            m["type"] == "state"
            and len([x for x in seen if x["type"] in ("error", "state", "setup", "preview")]) > sent
        ):
            break
    faults = [m["message"] for m in seen if m["type"] == "error" and "internal error" in m["message"]]
    assert faults == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_one_engine_a_page_whatever_the_messages_in_between(client):
    def cmdline(pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                return fh.read()
        except OSError:
            return b""

    def hubs():
        return [k for k in _children(os.getpid()) if _alive(k) and b"hub" in cmdline(k)]

    with client.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_json({"type": "settings", "engine": "hub-ours", "movetime": 0.1})
        w.send_json({"type": "settings", "engine": "hub-ours", "movetime": 0.1, "side": "black"})
        w.send_json({"type": "settings", "engine": "hub-ours", "movetime": 0.1, "side": "black"})
        w.send_json({"type": "new", "variant": "international", "side": "black"})
        s = until(w, "state", lambda m: not m["thinking"] and len(m["moves"]) == 1)
        assert s["turn"] == "black"
        assert len(hubs()) == 1


def test_a_take_back_stops_a_hub_engine_thinking(client):
    with client.websocket_connect("/ws") as w:
        until(w, "state")
        w.send_json({"type": "settings", "engine": "hub-ours", "movetime": 30})
        until(w, "state")
        w.send_json({"type": "new", "variant": "international", "side": "white"})
        until(w, "state")
        w.send_json({"type": "move", "start": 32, "end": 28, "captured": []})
        assert until(w, "state")["thinking"]
        time.sleep(0.5)
        t0 = time.time()
        w.send_json({"type": "undo"})
        s = until(w, "state", lambda m: not m["thinking"])
        assert s["moves"] == [] and time.time() - t0 < 5
        w.send_json({"type": "settings", "movetime": 0.1})
        until(w, "state")
        w.send_json({"type": "move", "start": 33, "end": 29, "captured": []})
        s = settled(w)
        assert s["moves"][0] == "33-29" and len(s["moves"]) == 2
        # the engine running and thinking: it is told to stop
        w.send_json({"type": "settings", "movetime": 30})
        until(w, "state")
        board = Board(s["fen"])
        # a move after which the engine has a choice (with one legal move it answers at once)
        move = next(m for m in board.legal_moves if (board.push(m), board.legal_moves.count() > 1, board.pop())[1])
        w.send_json({"type": "move", "start": move.start, "end": move.end, "captured": list(move.captured)})
        assert until(w, "state")["thinking"]
        time.sleep(1.0)
        t0 = time.time()
        w.send_json({"type": "undo"})
        s = until(w, "state", lambda m: not m["thinking"])
        assert len(s["moves"]) == 2 and time.time() - t0 < 3


def test_the_page_is_packaged_and_the_extra_declared():
    import pathlib
    import re as _re

    root = pathlib.Path(__file__).resolve().parent.parent
    text = (root / "pyproject.toml").read_text()
    assert _re.search(r'^gui = \["starlette[^\]]*uvicorn[^\]]*websockets', text, _re.M)
    assert '"gui/static/*"' in text
    static = pathlib.Path(ge.__file__).parent / "static"
    assert sorted(p.name for p in static.iterdir()) == ["app.js", "board.js", "index.html", "style.css"]
    # no file fetched from elsewhere at run time
    for p in static.iterdir():
        assert not _re.search(r"https?://(?!www\.w3\.org/2000/svg)", p.read_text()), p.name


# --- where the server listens ------------------------------------------------------------

GUI = [sys.executable, "-m", "draughts", "gui"]


def test_a_host_other_machines_reach_is_refused_without_allow_remote():
    for host in ("0.0.0.0", "::", "192.0.2.7"):
        r = subprocess.run(GUI + ["--host", host, "--port", "0"], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, (host, r.stderr)
        assert f"--host {host} is reachable from other machines" in r.stderr and "--allow-remote" in r.stderr
        assert r.stdout == ""


def test_a_port_in_use_says_which_and_how_to_pick_another():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = subprocess.run(GUI + ["--port", str(port)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert f"port {port} on 127.0.0.1 is in use" in r.stderr
    assert "--port N" in r.stderr and "--port 0" in r.stderr
    assert "Errno" not in r.stderr


def _serve(args):
    """`draughts gui ARGS` started: (the process, its port, its stderr so far)."""
    import re

    proc = subprocess.Popen(GUI + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"serving on http://\S+:(\d+)/", line)
    assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
    return proc, int(m.group(1))


def _stop(proc):
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    return err


def _status(port, host):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", "/", skip_host=True)
        conn.putheader("Host", host)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_the_running_server_checks_the_host_header():
    proc, port = _serve(["--port", "0"])
    try:
        assert _status(port, f"127.0.0.1:{port}") == 200
        assert _status(port, f"localhost:{port}") == 200
        assert _status(port, f"evil.example:{port}") == 400
        assert _status(port, "127.0.0.1:1") == 400
        assert _status(port, f"192.0.2.7:{port}") == 400  # not a wildcard bind
        assert proc.poll() is None
    finally:
        err = _stop(proc)
    assert "warning" not in err


def test_allow_remote_warns_and_answers_the_machines_addresses():
    proc, port = _serve(["--host", "0.0.0.0", "--allow-remote", "--port", "0"])
    try:
        assert _status(port, f"127.0.0.1:{port}") == 200
        assert _status(port, f"192.0.2.7:{port}") == 200  # an address of a network interface
        assert _status(port, f"evil.example:{port}") == 400  # never a name it does not go by
    finally:
        err = _stop(proc)
    assert "warning: serving on 0.0.0.0" in err and "--allow-remote" in err

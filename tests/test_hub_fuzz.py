"""Fuzzing `draughts hub` with random and malformed lines: it never dies, never
writes anything but protocol lines, and still answers ping."""

from hypothesis import HealthCheck, given, settings, strategies as st

from draughts.hub.protocol import parse_line
from hub_scripts.transcript import EngineProcess, ServerSession

START = "W" + "b" * 20 + "e" * 10 + "w" * 20

COMMANDS = [
    "hub",
    "set-param",
    "init",
    "pos",
    "level",
    "go",
    "ping",
    "stop",
    "ponder-hit",
    "new-game",
    "perft",
    "bench",
    "quit-not",
    "",
    "info",
    "done",
    "error",
]
NAMES = [
    "name",
    "value",
    "pos",
    "fen",
    "start",
    "moves",
    "depth",
    "nodes",
    "move-time",
    "time",
    "inc",
    "infinite",
    "think",
    "ponder",
    "analyze",
    "divide",
    "duplicates",
    "message",
    "x",
]
# Numbers are kept small where they are valid: a deep perft or a huge table is
# legitimate work, not a fuzzing target.
VALUES = [
    "",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "x",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "0.01",
    "0.05",
    "1e-9",
    "99999999999999999999",
    "65537",
    "2.5",
    START,
    START[:-1],
    "B" + "e" * 50,
    "W" + "e" * 32,
    "W" + "b" * 12 + "e" * 8 + "w" * 12,
    "W:W31-50:B1-20",
    "W:W28:B23",
    "B:W:B",
    "W:W1-99",
    "32-28",
    "28x19x23",
    "32-28 19-23",
    "32-28 19-23 28x19x23",
    "19-23",
    "1x1x1",
    "x",
    "-",
    "international",
    "normal",
    "russian",
    "american",
    "spanish",
    "italian",
    "czech",
    "brazilian",
    "chess",
    "true",
    "false",
    "yes",
    "variant",
    "tt-size",
    "level",
    "ponder",
    "mandatory-capture",
    "drop",
    "keep",
    "=",
    '"',
    "a b",
    "\x00",
    "\u2028",
    "\U0001f600",
]

# no digits in free text, so that no random number becomes a legitimate deep search
_free = st.text(st.characters(blacklist_categories=("Nd",)), max_size=12)

_pair = st.tuples(
    st.one_of(st.sampled_from(NAMES), _free),
    st.one_of(st.sampled_from(VALUES), _free),
    st.sampled_from(["plain", "quoted", "flag", "unterminated"]),
)


@st.composite
def protocol_like_lines(draw):
    command = draw(st.one_of(st.sampled_from(COMMANDS), _free))
    parts = [command]
    for name, value, form in draw(st.lists(_pair, max_size=5)):
        if form == "plain":
            parts.append(f"{name}={value}")
        elif form == "quoted":
            parts.append(f'{name}="{value}"')
        elif form == "flag":
            parts.append(name)
        else:
            parts.append(f'{name}="{value}')
    return draw(st.sampled_from([" ", "  ", "\t"])).join(parts)


lines = st.lists(st.one_of(protocol_like_lines(), st.text(max_size=60)), min_size=1, max_size=12)


@given(lines)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_in_memory_server_survives_anything(script):
    hub = ServerSession()
    try:
        for line in script:
            assert hub.server.handle_line(line) is True
        hub.send("stop", "ping")
        hub.until("pong", timeout=10)  # every line read is checked as protocol
        assert hub.log == [], hub.log  # no internal error
    finally:
        hub.close()


_raw_line = st.one_of(
    protocol_like_lines().map(lambda s: s.encode("utf-8", "surrogatepass")),
    st.binary(max_size=40),
    st.text(max_size=40).map(lambda s: s.encode("utf-8", "surrogatepass")),
)


def test_the_process_survives_anything():
    engine = EngineProcess()

    @given(st.lists(_raw_line.map(lambda b: b.replace(b"\n", b" ")), min_size=1, max_size=10))
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    def run(script):
        for data in script:
            if parse_line_or_none(data) == "quit":
                continue  # quitting is not dying
            engine.send(data)
        engine.send("stop", "ping")
        engine.until("pong", timeout=10)

    try:
        run()
        engine.send("quit")
        assert engine.wait(10) == 0
        while engine.read() is not None:  # the rest of stdout is protocol too
            pass
        assert not any("Traceback" in line for line in engine.stderr), engine.stderr
    finally:
        engine.kill()


def parse_line_or_none(data: bytes):
    try:
        return parse_line(data.decode("utf-8", "replace"))[0]
    except ValueError:
        return None

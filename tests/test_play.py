"""`draughts play` driven as a person would: the installed command in a
pseudo-terminal, read screen by screen, typed at line by line.  Also
`draughts analyze`, and the text board itself."""

import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

import draughts
from draughts import play

ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b[()][A-Z0-9]|\x1b[=>]")


def draughts_command():
    exe = shutil.which("draughts")
    return [exe] if exe else [sys.executable, "-m", "draughts"]


class Terminal:
    """A program in a pseudo-terminal: `expect` a pattern, `line` to type."""

    def __init__(self, *args, cwd=None, rows=50, cols=100):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm", COLUMNS=str(cols), LINES=str(rows), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            draughts_command() + list(args),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            close_fds=True,
            start_new_session=True,
        )
        os.close(slave)
        self.fd = master
        self.seen = ""  # everything the program wrote, escapes removed
        self.pos = 0  # how far `expect` has read

    def _pump(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # the program has closed the terminal
            return None
        if not data:
            return None
        self.seen += ANSI.sub("", data.decode("utf-8", "replace")).replace("\r", "")
        return True

    def expect(self, pattern, timeout=20):
        """Wait for `pattern` after what was matched last; the text up to its end."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.seen, self.pos)
            if m:
                out = self.seen[self.pos : m.end()]
                self.pos = m.end()
                self.match = m
                return out
            left = deadline - time.monotonic()
            if left <= 0 or self._pump(min(left, 0.5)) is None and not rx.search(self.seen, self.pos):
                raise AssertionError(f"did not see {pattern!r}; the screen ends with:\n{self.seen[-3000:]}")

    def line(self, text):
        os.write(self.fd, text.encode() + b"\r")

    def eof(self):
        os.write(self.fd, b"\x04")

    def wait(self, timeout=20):
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._pump(0.1)
        return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.fd)


@pytest.fixture
def term(tmp_path):
    started = []

    def start(*args):
        t = Terminal(*args, cwd=tmp_path)
        started.append(t)
        return t

    yield start
    for t in started:
        t.close()


PROMPT_BLACK = r"Black to move> "
PROMPT_WHITE = r"White to move> "
FAST = ("--movetime", "0.05", "--ascii")


def board_rows(screen):
    """The rows of the last board on the screen: (row label, cell text)."""
    rows = re.findall(r"^ *([0-9]+-[0-9]+|[0-9]+) \|(.*)\|", screen, re.M)
    return rows


def test_a_game_with_bad_input_undo_fen_hint_save_and_resign(term, tmp_path):
    t = term("play", "--variant", "american", *FAST)
    screen = t.expect(PROMPT_BLACK)
    # american: the human plays the side that moves first, Black, at the bottom
    assert "You play Black" in screen
    rows = board_rows(screen)
    assert rows[0][0] == "29-32" and rows[-1][0] == "1-4"
    assert re.search(r"b 1\b", rows[-1][1]) and re.search(r"w29\b", rows[0][1])
    assert "w white man" in screen and "B black king" in screen

    t.line("hello there")
    screen = t.expect(PROMPT_BLACK)
    assert "neither a move nor a command" in screen and "Legal moves: 9-13" in screen

    t.line("11-17")
    screen = t.expect(PROMPT_BLACK)
    assert "'11-17' is not a legal move: the man on 11 cannot go to 17" in screen
    assert re.search(r"Legal moves: .*11-15", screen)

    t.line("22-18")
    screen = t.expect(PROMPT_BLACK)
    assert "the piece on 22 is White's" in screen

    t.line("40-44")
    screen = t.expect(PROMPT_BLACK)
    assert "not a move: square 40 is not on the board" in screen and "Legal moves:" in screen

    t.line("11-15")
    screen = t.expect(r"The engine plays (\S+)\.")
    reply = t.match.group(1)
    screen = t.expect(PROMPT_BLACK)
    frm, to = re.split(r"[-x]", reply)[0], re.split(r"[-x]", reply)[-1]
    assert re.search(rf"\[w *{to}\]", screen) and re.search(rf"\[ *{frm}\]", screen), screen
    assert f"last move White {reply}" in screen

    t.line("fen")
    screen = t.expect(PROMPT_BLACK)
    fen = re.search(r"FEN: (\S+)", screen).group(1)
    expected = draughts.Board(variant="american")
    expected.push("11-15")
    expected.push(reply)
    assert fen == expected.fen()

    t.line("history")
    assert f"1. 11-15 {reply}" in t.expect(PROMPT_BLACK)

    t.line("undo")
    screen = t.expect(PROMPT_BLACK)
    assert "Took back 2 moves" in screen
    t.line("fen")
    assert f"FEN: {draughts.Board(variant='american').fen()}" in t.expect(PROMPT_BLACK)

    t.line("hint")
    screen = t.expect(PROMPT_BLACK)
    hint = re.search(r"Hint: (\S+) \(your score [-+]\d", screen).group(1)
    assert hint in {m.hub() for m in draughts.Board(variant="american").legal_moves}

    t.line("help")
    screen = t.expect(PROMPT_BLACK)
    assert "+0.20" in screen and "resign" in screen and "save [FILE]" in screen

    t.line("9-13")
    t.expect(r"The engine plays")
    t.expect(PROMPT_BLACK)
    t.line("resign")
    screen = t.expect(r"game over> ")
    assert "Game over: The engine wins (White): Black resigned. Result 0-1." in screen
    t.line("9-14")
    assert "The game is over" in t.expect(r"game over> ")

    t.line("save mygame.pdn")
    screen = t.expect(r"game over> ")
    if "Cannot save" not in screen:
        assert "Saved the game (2 moves, result 0-1) to mygame.pdn" in screen
        text = (tmp_path / "mygame.pdn").read_text()
        assert '[Result "0-1"]' in text and '[GameType "21,B,8,8,N1,0"]' in text
        assert re.search(r"1\. 9-13 \S+ 0-1", text)
        assert '[Black "You"]' in text

    t.eof()
    t.expect(r"goodbye")
    assert t.wait() == 0


def test_ambiguous_capture_needs_the_whole_path(term):
    # a white man on 30 can take 25 and 17, or 26 and 18, both ending on 14
    t = term("play", "-v", "american", "--side", "white", "--fen", "W:W30:B25,26,17,18", *FAST)
    t.expect(PROMPT_WHITE)
    t.line("30x14")
    screen = t.expect(PROMPT_WHITE)
    assert "'30x14' is ambiguous" in screen
    assert "30x21x14 or 30x23x14" in screen
    assert "Legal moves: 30x21x14, 30x23x14" in screen
    t.line("30-21")
    screen = t.expect(PROMPT_WHITE)
    assert "capturing is compulsory" in screen
    t.line("30x23x14")
    screen = t.expect(r"The engine plays (\S+)\.")
    assert "You play 30x23x14." in screen
    t.line("quit")
    t.expect("Goodbye")
    assert t.wait() == 0


def test_a_short_game_to_the_end_and_undo_after_it(term, tmp_path):
    # White (the human) to move; Black's lone man on 5 can only go to 9, then 14x5 wins
    t = term("play", "-v", "american", "--side", "white", "--fen", "W:W14,31:B5", *FAST)
    screen = t.expect(PROMPT_WHITE)
    rows = board_rows(screen)
    assert rows[0][0] == "1-4" and rows[-1][0] == "29-32"  # White at the bottom
    t.line("31-27")
    screen = t.expect(r"The engine plays (\S+)\.")
    assert t.match.group(1) == "5-9"
    t.expect(PROMPT_WHITE)
    t.line("14x5")
    screen = t.expect(r"game over> ")
    white_wins = draughts.variant("american").result_tokens[2]  # Black moves first there
    assert f"You win (White): Black has no pieces left. Result {white_wins}." in screen
    assert re.search(r"\[w *5\]", screen) and re.search(r"x *9", screen)  # marked, and the taken man
    t.line("save end.pdn")
    screen = t.expect(r"game over> ")
    if "Cannot save" not in screen:
        text = (tmp_path / "end.pdn").read_text()
        assert '[FEN "W:W14,31:B5"]' in text and f'[Result "{white_wins}"]' in text
    t.line("undo")
    screen = t.expect(PROMPT_WHITE)
    assert "Took back 1 move." in screen
    t.line("fen")
    assert "FEN: W:W9,14,27:B" not in t.expect(PROMPT_WHITE)
    t.eof()
    assert t.wait() == 0


def test_draw_offers_accepted_and_declined(term):
    t = term("play", "-v", "american", "--ascii", "--depth", "6")
    t.expect(PROMPT_BLACK)
    t.line("draw")
    screen = t.expect(r"game over> ")
    assert "The engine accepts the draw" in screen
    assert "Game over: Draw: draw agreed. Result 1/2-1/2." in screen
    t.line("undo")  # an agreement can be taken back
    t.expect(PROMPT_BLACK)
    t.eof()
    assert t.wait() == 0

    # the engine (White) is a king and three men up: it declines
    t = term("play", "-v", "american", "--ascii", "--depth", "6", "--fen", "B:WK10,21,22,23:B1")
    t.expect(PROMPT_BLACK)
    t.line("draw")
    screen = t.expect(PROMPT_BLACK)
    assert "The engine declines the draw" in screen
    t.eof()
    assert t.wait() == 0


def test_engine_moves_first_and_unicode_board(term):
    # russian: White moves first; the human takes Black, so the engine opens
    t = term("play", "-v", "russian", "--side", "black", "--movetime", "0.05")
    screen = t.expect(PROMPT_BLACK)
    assert "The engine (White) is thinking" in screen
    assert re.search(r"^ +h  g  f  e  d  c  b  a", screen, re.M)  # flipped: Black at the bottom
    rows = board_rows(screen)
    assert rows[0][0] == "1" and rows[-1][0] == "8"
    assert "●" in rows[-1][1] and "○" in rows[0][1]
    assert "[○]" in screen and "[.]" in screen  # the engine's move is marked
    t.line("a1-b2")
    screen = t.expect(PROMPT_BLACK)
    assert "'a1-b2' is not a legal move: the piece on a1 is White's" in screen
    t.line("moves")
    assert re.search(r"Legal moves: [a-h][1-8]-[a-h][1-8]", t.expect(PROMPT_BLACK))
    t.eof()
    assert t.wait() == 0


def test_bad_options_are_refused():
    run = subprocess.run(
        draughts_command() + ["play", "--level", "99"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 2 and "level" in run.stderr
    run = subprocess.run(
        draughts_command() + ["play", "--fen", "X:nonsense"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert run.returncode == 2 and "FEN" in run.stderr


def test_play_reads_a_pipe_too():
    run = subprocess.run(
        draughts_command() + ["play", "-v", "italian", "--ascii", "--depth", "2"],
        input="fen\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "FEN: W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12" in run.stdout
    assert "End of input" in run.stdout


# --- analyze --------------------------------------------------------------------


def test_analyze_streams_iterations_then_the_best_move():
    run = subprocess.run(
        draughts_command() + ["analyze", "-v", "american", "--depth", "6", "--fen", "B:W18,21-32:B1-12"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    infos = [ln for ln in lines if ln.startswith("depth")]
    depths = [int(re.match(r"depth +(\d+)", ln).group(1)) for ln in infos]
    assert depths == list(range(1, 7))
    for ln in infos:
        assert re.search(r"score +[-+]\d+\.\d\d .*nodes +\d+ .*pv \S+", ln), ln
    best = re.search(r"^best move (\S+) +score [-+]", run.stdout, re.M)
    assert best
    board = draughts.Board("B:W18,21-32:B1-12", variant="american")
    assert board.parse_move(best.group(1))
    # the line with move numbers: black moves first in american
    assert re.search(rf"^line 1\. {re.escape(best.group(1))} \S+ 2\. ", run.stdout, re.M)


def test_analyze_a_finished_game_and_by_time():
    run = subprocess.run(
        draughts_command() + ["analyze", "-v", "american", "--fen", "B:W14:B"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and "The game is over: no pieces left" in run.stdout
    run = subprocess.run(
        draughts_command() + ["analyze", "-v", "russian", "--movetime", "0.2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and re.search(r"^best move [a-h][1-8]-[a-h][1-8]", run.stdout, re.M)
    run = subprocess.run(
        draughts_command() + ["analyze", "--depth", "3", "--movetime", "1"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "not allowed with" in run.stderr


def analyze(capsys, *argv):
    """`draughts analyze ARGV` in process: (exit code, stdout, stderr)."""
    from draughts import cli

    code = cli.main(["analyze", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_a_move_list_from_the_start_or_a_fen(capsys):
    code, out, err = analyze(capsys, "--depth", "2", "--moves", "32-28 19-23 28x19")
    assert code == 0, err
    # the position after the moves: black to take back on 19 (14x23 or 13x24)
    assert out.startswith("international: B:W19,31,33,")
    assert "after 1. 32-28 19-23 2. 28x19\n" in out
    best = re.search(r"^best move (\S+) ", out, re.M).group(1)
    assert best in ("14x23", "13x24")
    assert re.search(rf"^line 2\.\.\. {best}( 3\. \S+)?", out, re.M)
    # move numbers pasted from such a line are passed over; --moves after --fen
    code, out, err = analyze(
        capsys, "-v", "american", "--fen", "B:W21,22,23:B9,10,11", "--depth", "1", "--moves", "1. 11-15 23-19"
    )
    assert code == 0, err
    assert "american: B:W19,21,22:B9,10,15," in out and "after 1. 11-15 23-19\n" in out


def test_analyze_a_bad_move_list_says_which_move(capsys):
    code, out, err = analyze(capsys, "--moves", "32-28 32-28", "--depth", "1")
    assert code == 2 and "--moves: move 2, '32-28'" in err


PDN_GAMES = """[Event "one"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 *

[Event "two"]
[GameType "21"]

1. 11-15 23-19 2. 8-11 *
"""


def test_analyze_a_game_of_a_pdn_file(tmp_path, capsys):
    path = tmp_path / "games.pdn"
    path.write_text(PDN_GAMES)
    code, out, err = analyze(capsys, "--pdn", str(path), "--depth", "1")
    assert code == 0, err
    assert out.startswith("international: W:W31,33,") and "after 1. 32-28 19-23 2. 28x19 14x23\n" in out
    # the second game is american (GameType 21): black moved first, so white's reply is 2...
    code, out, err = analyze(capsys, "--pdn", str(path), "--game", "2", "--depth", "1")
    assert code == 0, err
    assert out.startswith("american: W:W19,21,22,24,") and "after 1. 11-15 23-19 2. 8-11\n" in out
    assert re.search(r"^line 2\.\.\. \d+-\d+", out, re.M)
    # --ply: the position within the game; --moves on top of it
    code, out, err = analyze(capsys, "--pdn", str(path), "--ply", "1", "--moves", "19-23", "--depth", "1")
    assert code == 0, err
    assert "after 1. 32-28 19-23\n" in out and re.search(r"^line 2\. ", out, re.M)


def test_analyze_pdn_errors(tmp_path, capsys):
    path = tmp_path / "games.pdn"
    path.write_text(PDN_GAMES)
    code, _, err = analyze(capsys, "--pdn", str(path), "--game", "3")
    assert code == 2 and "--game 3:" in err and "holds 2 games" in err
    code, _, err = analyze(capsys, "--pdn", str(path), "--ply", "9")
    assert code == 2 and "--ply 9:" in err
    code, _, err = analyze(capsys, "--pdn", str(tmp_path / "missing.pdn"))
    assert code == 2 and "--pdn" in err and "No such file" in err
    code, _, err = analyze(capsys, "--game", "2")
    assert code == 2 and "--pdn" in err
    with pytest.raises(SystemExit):
        analyze(capsys, "--pdn", str(path), "--fen", "W:W31:B19")
    assert "not allowed with" in capsys.readouterr().err


# --- the text board, in process -------------------------------------------------


def test_text_board_layouts():
    # italian: square 1 at the top left, 29 at the bottom, the bottom-left corner unplayable
    board = draughts.Board("W:W29:B1", variant="italian")
    text = play.render(board, ascii=True)
    rows = board_rows(text)
    assert rows[0] == ("1-4", " b 1         2         3         4      ")
    assert rows[-1][1].startswith("      w29 ")
    # spanish: square 1 at White's lower right
    text = play.render(draughts.Board("W:W1:B32", variant="spanish"), ascii=True)
    rows = board_rows(text)
    assert rows[-1][1].endswith(" w 1 ") and rows[0][1].startswith(" b32")
    # international, flipped: 50 at the top left
    text = play.render(draughts.Board("W:WK50:B", variant="international"), flipped=True)
    assert board_rows(text)[0] == ("46-50", "      ◎50        49        48        47        46 ")
    # last move, and the piece it took
    board = draughts.Board("W:W30:B26", variant="american")
    board.push("30x23")
    text = play.render(board, ascii=True, lastmove=board.peek())
    assert "[w23]" in text and "[ 30]" in text and " x26 " in text


def test_explanations():
    b = draughts.Board("W:W30:B25,26,17,18", variant="american")
    assert "capturing is compulsory" in play.explain_illegal(b, "30-27")
    b = draughts.Board(variant="international")
    assert play.explain_illegal(b, "20-25") == "the piece on 20 is Black's, and White is to move"
    assert play.explain_illegal(b, "28-23") == "there is no piece on 28"
    assert "you must take the most pieces" in play.explain_illegal(
        draughts.Board("W:W32,33:B28,19,9", variant="international"), "33-29"
    )
    assert "cannot go to 28" in play.explain_illegal(b, "31-28")
    assert play.explain_illegal(b, "46-41") == "the man on 46 has no legal move"


def test_session_in_process_saves_the_game(tmp_path):
    lines = iter(["11-15", "save " + str(tmp_path / "x.pdn")])
    out = []

    def read(prompt):
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    board = draughts.Board(variant="american")
    engine = draughts.Engine("american", tt_mb=4)
    session = play.PlaySession(board, draughts.BLACK, engine, depth=2, ascii=True, write=out.append, read=read)
    assert session.run() == 0
    text = "\n".join(out)
    assert "You play 11-15." in text and "The engine plays" in text and "End of input" in text
    assert len(board.move_stack) == 2
    game = draughts.pdn.read_game((tmp_path / "x.pdn").read_text(), variant="american")
    assert [m for m in game.moves] == board.move_stack


def test_unicode_falls_back_to_letters_on_an_ascii_terminal():
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    run = subprocess.run(
        draughts_command() + ["play", "-v", "american", "--depth", "1"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert "b 1" in run.stdout and "w white man" in run.stdout

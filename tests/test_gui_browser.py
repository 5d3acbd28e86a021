"""`draughts gui` in a real browser: Playwright driving the system's Chromium
headless against a server on a thread.

Skipped where the gui-test extra or Chromium is missing, unless
DRAUGHTS_REQUIRE_GUI=1 (CI sets it), where that is a failure.  With
DRAUGHTS_GUI_SCREENSHOTS=DIR the play, analysis and match views are saved
there as PNG (docs/images/ is made so).
"""

import os
import re
import time
from pathlib import Path

import pytest

import draughts
from draughts import Board, Engine

REQUIRED = os.environ.get("DRAUGHTS_REQUIRE_GUI") == "1"
SHOTS = os.environ.get("DRAUGHTS_GUI_SCREENSHOTS")

try:
    import playwright.sync_api  # noqa: F401
    import uvicorn  # noqa: F401
    from draughts.gui import testing as gt

    _missing = None if gt.chromium_path() else "no Chromium (apt-get install chromium, or DRAUGHTS_CHROMIUM)"
except ImportError as e:  # the gui-test extra is not installed
    gt = None
    _missing = f"the gui-test extra is missing ({e.name})"

if _missing and REQUIRED:
    raise RuntimeError(f"DRAUGHTS_REQUIRE_GUI=1 but {_missing}")
# one worker under pytest-xdist (`--dist loadgroup`): one browser and one
# server for the module, not one a worker
pytestmark = [pytest.mark.skipif(_missing is not None, reason=_missing or ""), pytest.mark.xdist_group("gui_browser")]


@pytest.fixture(scope="module")
def server():
    with gt.live_server() as url:
        yield url


@pytest.fixture(scope="module")
def chromium():
    with gt.browser() as b:
        yield b


@pytest.fixture
def page(server, chromium):
    context = chromium.new_context(viewport={"width": 1200, "height": 860}, accept_downloads=True)
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(server)
    gt.wait_ready(p)
    yield p
    context.close()
    assert not errors, errors


def shot(page, name, full_page=False):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name), full_page=full_page)


def fen_of(page):
    return page.input_value("#fen")


def toast(page):
    page.wait_for_selector("#toast:not([hidden])")
    return page.inner_text("#toast")


def test_quiet_move_and_engine_reply(page):
    gt.new_game(page, "international", "white", movetime=0.1)
    gt.click_square(page, 32)
    # the legal destinations of the piece are marked
    targets = page.eval_on_selector_all("#board circle.target", "els => els.map(e => +e.dataset.target)")
    assert sorted(targets) == [27, 28]
    gt.click_square(page, 28)
    texts = gt.wait_moves(page, 2)
    assert texts[0] == "32-28"
    page.wait_for_function("document.querySelector('#status').textContent.includes('White to move')")
    assert page.locator("#moves .mv.current").inner_text() == texts[1]


def test_drag_a_piece(page):
    gt.new_game(page, "american", "both")
    gt.drag_square(page, 11, 15)
    assert gt.wait_moves(page, 1) == ["11-15"]


def test_multi_capture_by_landing_squares(page):
    gt.new_game(page, "international", "both", fen="W:W12,48:B8,9,18,45")
    gt.click_square(page, 12)
    gt.click_square(page, 3)
    assert gt.moves(page) == []  # the capture goes on: nothing played yet
    targets = page.eval_on_selector_all("#board circle.target", "els => els.map(e => +e.dataset.target)")
    assert targets == [14]
    gt.click_square(page, 14)
    assert gt.wait_moves(page, 1) == ["12x14"]
    assert "8" not in page.eval_on_selector_all("#board g.piece", "els => els.map(e => e.dataset.square)")
    assert fen_of(page) == "B:W14,48:B18,45"


def test_ambiguous_capture_asks_which(page):
    gt.new_game(page, "international", "both", fen="W:WK2,43,49:B7,9,K15,K22,K27,42")
    gt.click_square(page, 2)
    gt.click_square(page, 47)
    page.wait_for_selector("#choose[open]")
    choices = page.locator("#choose-list button").all_inner_texts()
    # both written in full (start and end do not tell them apart), with what each takes
    assert sorted(c.split()[0] for c in choices) == ["2x11x33x47", "2x16x38x47"]
    page.locator("#choose-list button", has_text="27").click()
    assert len(gt.wait_moves(page, 1)) == 1
    board = Board(fen_of(page).replace("B:", "B:", 1), variant="international")
    assert board.piece_at(27) is None and board.piece_at(22) is not None


def test_illegal_click_is_refused(page):
    gt.new_game(page, "international", "both")
    before = fen_of(page)
    gt.click_square(page, 32)
    gt.click_square(page, 23)  # not a destination of 32
    assert "Not a legal move" in toast(page)
    gt.click_square(page, 1)  # a black piece, White to move
    assert fen_of(page) == before and gt.moves(page) == []


def _play_to_the_end(page, variant, fen):
    gt.new_game(page, variant, "white", fen=fen, movetime=0.05)
    helper = Engine(variant, tt_mb=8)
    for _ in range(40):
        page.wait_for_function("!document.querySelector('#status').textContent.includes('thinking')")
        if page.inner_text("#result"):
            break
        board = Board(fen_of(page), variant=variant)
        if board.turn != draughts.WHITE:
            page.wait_for_timeout(50)
            continue
        move = helper.play(board, draughts.Limit(depth=10)).move
        n = len(gt.moves(page))
        gt.click_square(page, move.start)
        for sq in move.path[1:]:
            gt.click_square(page, sq)
        gt.wait_moves(page, n + 1)
    result = page.inner_text("#result")
    assert result, "the game did not end"
    return result


def test_play_an_8x8_game_to_its_end(page):
    result = _play_to_the_end(page, "american", "W:W16,19,29:B4,12")
    assert result.startswith("0-1") and "White wins" in result  # black moves first
    shot(page, "gui-play.png")


def test_play_a_10x10_game_to_its_end(page):
    result = _play_to_the_end(page, "international", "W:W27,30,43:B25,33")
    assert result.startswith("2-0") and "White wins" in result


def test_multipv_lines_arrive(page):
    gt.new_game(page, "international", "both")
    page.fill("#multipv", "3")
    page.dispatch_event("#multipv", "change")
    page.check("#analyse")
    # three lines of a depth of 4 or more, read in one go (the page redraws
    # them at every depth)
    page.wait_for_function("""() => {
        const m = /depth (\\d+)/.exec(document.querySelector('#search-info').textContent);
        return m !== null && Number(m[1]) >= 4 && document.querySelectorAll('#lines li').length === 3;
    }""")
    lines = page.evaluate("Array.from(document.querySelectorAll('#lines li'), li => li.innerText)")
    firsts = [line.split()[2] for line in lines]  # after the score and "1."
    assert len(set(firsts)) == 3  # three different first moves
    legal = {Board(variant="international").move_text(m) for m in Board().legal_moves}
    assert set(firsts) <= legal
    scores = [float(line.split()[0]) for line in lines]
    assert scores == sorted(scores, reverse=True)
    for n, (a, b) in enumerate(((32, 28), (19, 23), (28, 19), (14, 23), (37, 32)), start=1):
        gt.click_square(page, a)
        gt.click_square(page, b)
        gt.wait_moves(page, n)
        page.wait_for_function("/depth ([5-9]|\\d\\d)/.test(document.querySelector('#search-info').textContent)")
    assert page.locator("#graph polyline").count() == 1  # the score graph over the game
    # its axes: moves (five plies: move 3) and White's score in men
    assert page.inner_text("#graph-x0") == "start" and page.inner_text("#graph-xn") == "3"
    assert "move" in page.inner_text("#graph-box .x-title")
    assert "score" in page.inner_text("#graph-box .y-title") and "men" in page.inner_text("#graph-box .y-title")
    assert page.locator("#graph-box .y-ticks span").all_inner_texts() == ["+5", "0", "−5"]
    shot(page, "gui-analysis.png")
    page.uncheck("#analyse")


PDN = """[Event "one"]
[White "A"]
[Black "B"]
[Result "*"]
[GameType "20"]

1. 32-28 19-23 2. 28x19 14x23 *

[Event "two"]
[White "C"]
[Black "D"]
[Result "*"]
[GameType "21"]

1. 11-15 23-19 2. 8-11 22-17 *
"""


def test_load_and_save_pdn(page, tmp_path):
    path = tmp_path / "two.pdn"
    path.write_text(PDN)
    page.set_input_files("#pdn-file", str(path))
    page.wait_for_selector("#choose[open]")
    assert page.locator("#choose-list button").count() == 2
    page.locator("#choose-list button", has_text="C – D").click()
    assert gt.wait_moves(page, 4) == ["11-15", "23-19", "8-11", "22-17"]
    assert page.input_value("#variant") == "american"
    # the game opens at its last move, marked on the board and in the list
    page.wait_for_function("document.querySelector('#moves .mv.current')?.textContent === '22-17'")
    end = Board(variant="american")
    for t in ("11-15", "23-19", "8-11", "22-17"):
        end.push(end.parse_move(t))
    assert fen_of(page) == end.fen()
    marked = page.eval_on_selector_all(
        "#board rect.lastmove", "els => els.map(e => [+e.getAttribute('x'), +e.getAttribute('y')])"
    )
    squares = {n: page.locator(f'#board rect[data-square="{n}"]') for n in (22, 17)}
    assert sorted(marked) == sorted(
        [float(squares[n].get_attribute("x")), float(squares[n].get_attribute("y"))] for n in squares
    )
    # and the page says it is a loaded game now played by hand on both sides
    assert page.is_visible("#note") and "both sides" in page.inner_text("#note")
    assert page.input_value("#side") == "both"
    # the keyboard steps through it
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#moves .mv.current') === null")
    assert fen_of(page) == Board(variant="american").fen()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#moves .mv.current')?.textContent === '11-15'")
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#moves .mv.current')?.textContent === '22-17'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#moves .mv.current')?.textContent === '8-11'")
    page.locator("#moves .mv", has_text="23-19").click()
    page.wait_for_function("document.querySelector('#moves .mv.current')?.textContent === '23-19'")
    with page.expect_download() as d:
        page.click("#save")
    text = Path(d.value.path()).read_text(encoding="utf-8")
    game = draughts.pdn.read_game(text)
    assert [str(m) for m in game.moves] == ["11-15", "23-19", "8-11", "22-17"]
    assert game.headers["White"] == "C" and game.variant.name == "american"


def test_bad_pdn_and_bad_fen_are_shown(page, tmp_path):
    path = tmp_path / "bad.pdn"
    path.write_text('[GameType "20"]\n\n1. 32-27 99-98 *\n')
    page.set_input_files("#pdn-file", str(path))
    assert "no game could be read" in toast(page)
    page.fill("#fen", "W:W99:B1")
    page.click("#fen-form button")
    assert re.search(r"FEN|square", toast(page))
    # the server goes on
    gt.new_game(page, "american", "both")
    gt.click_square(page, 9)
    gt.click_square(page, 13)
    assert gt.wait_moves(page, 1) == ["9-13"]


def test_set_fen_and_the_board_editor(page):
    gt.new_game(page, "russian", "both", fen="W:Wc1,e1:Bd8,h8")
    assert page.locator("#board g.piece").count() == 4
    page.click("#edit")
    page.click("#edit-clear")
    page.check('input[name="piece"][value="W"]')
    gt.click_square(page, 29)  # a1 on the russian board
    page.check('input[name="piece"][value="b"]')
    gt.click_square(page, 10)
    page.wait_for_function("document.querySelector('#edit-fen').textContent.includes('Ka1')")
    page.click("#edit-done")
    page.wait_for_function("document.querySelector('#fen').value.includes('Ka1')")
    board = Board(fen_of(page), variant="russian")
    assert len(board.pieces()) == 2 and board.piece_at("a1").king


def test_take_back_flip_and_new_game(page):
    gt.new_game(page, "american", "black", movetime=0.05)  # black moves first
    gt.click_square(page, 11)
    gt.click_square(page, 15)
    gt.wait_moves(page, 2)
    page.wait_for_function("!document.querySelector('#status').textContent.includes('thinking')")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#moves .mv[data-ply]').length === 0")
    # playing Black, Black's men start at the bottom; Flip turns the board round
    low = page.locator('#board rect[data-square="1"]').bounding_box()["y"]
    page.click("#flip")
    assert page.locator('#board rect[data-square="1"]').bounding_box()["y"] < low
    page.click("#new")
    page.wait_for_function("document.querySelector('#status').textContent.includes('Black to move')")


def test_phone_width_and_dark_theme(server, chromium):
    context = chromium.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    p = context.new_page()
    p.goto(server)
    gt.wait_ready(p)
    box = p.locator("#board").bounding_box()
    assert box["width"] <= 390 and box["width"] > 300
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    bg = p.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(23, 24, 27)"
    p.click("#theme")
    assert p.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(247, 244, 238)"
    context.close()


def test_a_websocket_from_another_origin_is_refused(server, chromium):
    context = chromium.new_context()
    p = context.new_page()
    ws_url = server.replace("http://", "ws://") + "ws"
    p.route(
        "http://elsewhere.test/",
        lambda route: route.fulfill(status=200, content_type="text/html", body="<html><body>elsewhere</body></html>"),
    )
    p.goto("http://elsewhere.test/")
    outcome = p.evaluate(
        """url => new Promise(done => {
        const ws = new WebSocket(url);
        ws.onopen = () => done('open');
        ws.onclose = () => done('closed');
    })""",
        ws_url,
    )
    assert outcome == "closed"
    # from the page's own origin it opens
    p.goto(server)
    assert (
        p.evaluate(
            """url => new Promise(done => {
        const ws = new WebSocket(url);
        ws.onopen = () => { done('open'); ws.close(); };
        ws.onclose = () => done('closed');
    })""",
            ws_url,
        )
        == "open"
    )
    context.close()


def test_watch_a_two_game_match_to_its_score_line(page):
    gt.new_game(page, "american", "both")
    page.click("#match-box summary")
    page.select_option("#m-engine1", "draughts")
    page.fill("#m-level1", "20")
    page.select_option("#m-engine2", "draughts")
    page.fill("#m-level2", "1")
    page.fill("#m-limit", "tc=4+0.05")
    page.fill("#m-games", "2")
    page.check("#m-repeat")
    page.click("#m-start")
    # both clocks and the engines' lines while a game goes on
    page.wait_for_function("document.querySelector('#m-clock-white').textContent.includes('White draughts')")
    page.wait_for_function(
        "/depth \\d+/.test(document.querySelector('#m-line-white').textContent + "
        "document.querySelector('#m-line-black').textContent)"
    )
    assert page.locator("#m-board g.piece").count() > 0
    page.wait_for_function(
        "/depth \\d+/.test(document.querySelector('#m-line-white').textContent) && "
        "/depth \\d+/.test(document.querySelector('#m-line-black').textContent)"
    )
    shot(page, "gui-match.png", full_page=True)
    page.wait_for_function(
        "document.querySelector('#m-score').textContent.includes('2 of 2 games, finished')", timeout=90000
    )
    score = page.inner_text("#m-score")
    # the weaker engine has the command line's name for it (by its level)
    assert re.search(r"Score of draughts vs draughts-level1: \d - \d - \d\s+\[\d\.\d{3}\] 2", score), score
    # two games give no interval: no Elo figure yet
    elo = page.inner_text("#m-elo")
    assert elo.startswith("Elo difference: not yet") and not re.search(r"\d", elo), elo
    assert page.locator("#m-list li").count() == 2
    # a finished game opens in the analysis board
    plies = int(re.search(r"\((\d+) plies\)", page.locator("#m-list li").nth(1).inner_text()).group(1))
    page.locator("#m-list li").nth(1).locator("button").click()
    assert len(gt.wait_moves(page, plies)) == plies


def _hub_children():
    """This process's children running `draughts hub` (the server runs on a thread here)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read().split(b"\0")
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"hub" in cmd and b"draughts" in cmd:
            out.append(int(name))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_crashed_page_leaves_no_engine_behind(chromium):
    import sys

    hub = gt.EngineSpec("hub-ours", "hub", (sys.executable, "-m", "draughts", "hub"))
    with gt.live_server([hub]) as url:
        context = chromium.new_context()
        p = context.new_page()
        p.goto(url)
        gt.wait_ready(p)
        p.select_option("#engine", "hub-ours")
        gt.new_game(p, "international", "black", movetime=0.1)  # the engine moves first
        gt.wait_moves(p, 1)
        assert len(_hub_children()) == 1
        try:
            p.goto("chrome://crash", timeout=5000)  # the page's renderer dies
        except Exception:
            pass
        deadline = time.time() + 15
        while _hub_children() and time.time() < deadline:
            time.sleep(0.1)
        assert _hub_children() == [], "the engine outlived its page"
        context.close()


# --- the board's side, the variant list, a reload -----------------------------------------


def _square_y(page, n):
    # read in one go: the board is redrawn (its squares replaced) at every state
    return page.evaluate(f"document.querySelector('#board rect[data-square=\"{n}\"]').getBoundingClientRect().y")


def test_the_board_is_turned_to_the_players_side(page):
    # American: Black's men start on 1-12, drawn at the top
    gt.new_game(page, "american", "black")
    assert _square_y(page, 1) > _square_y(page, 32)  # Black's men at the bottom
    gt.new_game(page, "american", "white")
    assert _square_y(page, 1) < _square_y(page, 32)
    gt.new_game(page, "american", "both")
    assert _square_y(page, 1) < _square_y(page, 32)
    gt.new_game(page, "international", "black", movetime=0.05)
    assert _square_y(page, 1) > _square_y(page, 50)
    # "You play" changed in a game turns it too
    page.select_option("#side", "both")
    page.wait_for_function("window.draughtsState.side === 'both'")
    assert _square_y(page, 1) < _square_y(page, 50)


def test_choosing_a_variant_starts_its_game(page):
    gt.new_game(page, "international", "both")
    gt.click_square(page, 32)
    gt.click_square(page, 28)
    gt.wait_moves(page, 1)
    page.select_option("#variant", "russian")  # no New game
    page.wait_for_function("window.draughtsState.variant.name === 'russian'")
    assert gt.moves(page) == []
    assert page.locator("#board rect[data-square]").count() == 32
    assert page.locator("#board g.piece").count() == 24
    assert page.inner_text("#status").startswith("russian")


def test_a_reload_keeps_the_game_and_a_new_tab_has_its_own(page):
    gt.new_game(page, "american", "both")
    for n, (a, b) in enumerate(((11, 15), (22, 18), (15, 22)), start=1):
        gt.click_square(page, a)
        gt.click_square(page, b)
        gt.wait_moves(page, n)
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("window.draughtsState.cursor === 2")
    fen = fen_of(page)
    page.reload()
    gt.wait_ready(page)
    page.wait_for_function("window.draughtsState.moves.length === 3")
    assert gt.moves(page) == ["11-15", "22-18", "15x22"]
    assert page.input_value("#variant") == "american" and page.input_value("#side") == "both"
    assert fen_of(page) == fen  # at the move shown before
    # the game goes on after the reload
    page.keyboard.press("End")
    # the server's answer to End comes first: a state at another ply clears a piece picked before it
    page.wait_for_function("window.draughtsState.cursor === 3")
    gt.click_square(page, 25)
    gt.click_square(page, 18)
    assert gt.wait_moves(page, 4)[-1] == "25x18"
    # another tab: a game of its own
    other = page.context.new_page()
    other.goto(page.url)
    gt.wait_ready(other)
    other.wait_for_function("window.draughtsState !== undefined")
    assert other.evaluate("window.draughtsState.variant.name") == "international"
    assert gt.moves(other) == []
    other.close()


# --- analysis ------------------------------------------------------------------------------


def _wait_lines(page, count, depth=4):
    page.wait_for_function(f"""() => {{
        const m = /depth (\\d+)/.exec(document.querySelector('#search-info').textContent);
        return m !== null && Number(m[1]) >= {depth} && document.querySelectorAll('#lines li').length === {count};
    }}""")


def test_analysis_off_clears_its_lines(page):
    gt.new_game(page, "international", "both")
    page.check("#analyse")
    _wait_lines(page, 3)
    page.uncheck("#analyse")
    page.wait_for_function("document.querySelectorAll('#lines li').length === 0")
    assert page.inner_text("#search-info") == "Analysis off"
    page.wait_for_timeout(300)  # no late report brings them back
    assert page.locator("#lines li").count() == 0


def test_five_lines_keep_the_panels_in_place(page):
    gt.new_game(page, "international", "both")
    page.fill("#multipv", "5")
    page.dispatch_event("#multipv", "change")
    before = page.locator("#graph").bounding_box()["y"]
    page.check("#analyse")
    _wait_lines(page, 5)
    assert page.locator("#graph").bounding_box()["y"] == before
    page.uncheck("#analyse")


def test_a_line_has_its_move_numbers(page):
    """The lines are written with move numbers, as Board.variation_str writes
    them: after White's first move, Black is to move and a line begins "1..."."""
    gt.new_game(page, "international", "both")
    gt.click_square(page, 32)
    gt.click_square(page, 28)
    gt.wait_moves(page, 1)
    page.fill("#multipv", "2")
    page.dispatch_event("#multipv", "change")
    page.check("#analyse")
    _wait_lines(page, 2)
    # each line's text and its moves, read in one go (the page redraws them at every depth)
    lines = page.evaluate("""Array.from(document.querySelectorAll('#lines li'), li => [
        li.innerText, Array.from(li.querySelectorAll('.pv'), sp => sp.textContent)])""")
    board = Board(variant="international")
    board.push(board.parse_move("32-28"))
    for text, moves in lines:
        assert len(moves) >= 2, text
        numbered = " ".join(text.split()[1:])  # after the score
        assert numbered.startswith(f"1... {moves[0]} 2. {moves[1]}"), text
        assert numbered == board.variation_str(moves), text
    # a move is still a move to click: its position is shown
    page.locator("#lines li").nth(0).locator(".pv").nth(1).click()
    page.wait_for_selector("#preview-bar:not([hidden])")
    assert re.fullmatch(r"Line 1 after \S+ \S+", page.inner_text("#preview-text"))
    page.click("#preview-back")
    page.uncheck("#analyse")


def test_a_line_is_shown_on_the_board_and_back(page):
    gt.new_game(page, "international", "both")
    page.check("#analyse")
    _wait_lines(page, 3, depth=6)
    game_fen = fen_of(page)
    page.locator("#lines li").nth(1).locator(".pv").nth(2).click()  # the third move of line 2
    page.wait_for_selector("#preview-bar:not([hidden])")
    # the lines are redrawn as the engine deepens: the page says which moves it shows
    m = re.fullmatch(r"Line 2 after (\S+) (\S+) (\S+)", page.inner_text("#preview-text"))
    assert m, page.inner_text("#preview-text")
    pv = m.groups()
    assert page.locator("#lines .pv.shown").count() == 1
    b = Board(variant="international")
    for t in pv:
        b.push(b.parse_move(t))
    shown = sorted(page.eval_on_selector_all("#board g.piece", "els => els.map(e => +e.dataset.square)"))
    assert shown == sorted(b.pieces())
    assert fen_of(page) == game_fen and gt.moves(page) == []  # the game is as it was
    page.click("#preview-back")
    page.wait_for_selector("#preview-bar", state="hidden")
    shown = sorted(page.eval_on_selector_all("#board g.piece", "els => els.map(e => +e.dataset.square)"))
    assert shown == sorted(Board(variant="international").pieces())
    page.uncheck("#analyse")


# --- the match box ------------------------------------------------------------------------


def test_the_match_box_fits_and_says_what_is_off(page):
    page.click("#match-box summary")
    box = page.locator("#match-box").bounding_box()
    sel = page.locator("#m-openings").bounding_box()
    assert sel["x"] + sel["width"] <= box["x"] + box["width"]
    # a disabled Stop looks it
    assert page.is_disabled("#m-stop") and page.is_enabled("#m-start")
    assert float(page.eval_on_selector("#m-stop", "e => getComputedStyle(e).opacity")) < 0.7
    assert float(page.eval_on_selector("#m-start", "e => getComputedStyle(e).opacity")) == 1
    assert page.eval_on_selector("#m-stop", "e => getComputedStyle(e).cursor") == "not-allowed"
    # an error leaves Start and Stop uncovered, with the buttons low on the screen
    page.evaluate("""() => {
        const b = document.querySelector('#m-start').getBoundingClientRect();
        window.scrollBy(0, b.bottom - innerHeight + 12);
    }""")
    page.fill("#m-limit", "tc=abc but a long limit to make a long message")
    page.click("#m-start")
    toast(page)
    for button in ("#m-start", "#m-stop"):
        hit = page.evaluate(
            """sel => {
            const b = document.querySelector(sel).getBoundingClientRect();
            return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2)?.id;
        }""",
            button,
        )
        assert hit == button[1:], (button, hit)


# --- the board editor -----------------------------------------------------------------------


def test_the_editor_looks_like_a_mode_of_its_own(page):
    outline = "e => getComputedStyle(e).outlineStyle"
    assert page.eval_on_selector("#board-wrap", outline) == "none"
    page.click("#edit")
    assert page.is_visible("#mode-label") and "Editing" in page.inner_text("#mode-label")
    assert page.eval_on_selector("#board-wrap", outline) == "solid"
    # the palette right under the board, with a heading
    board = page.locator("#board-wrap").bounding_box()
    title = page.locator("#palette-title").bounding_box()
    assert page.is_visible("#palette-title") and page.inner_text("#palette-title")
    assert 0 <= title["y"] - (board["y"] + board["height"]) < 40
    page.click("#edit-cancel")
    assert not page.is_visible("#mode-label")
    assert page.eval_on_selector("#board-wrap", outline) == "none"

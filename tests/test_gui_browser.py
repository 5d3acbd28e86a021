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
except ImportError as e:                       # the gui-test extra is not installed
    gt = None
    _missing = f"the gui-test extra is missing ({e.name})"

if _missing and REQUIRED:
    raise RuntimeError(f"DRAUGHTS_REQUIRE_GUI=1 but {_missing}")
# one worker under pytest-xdist (`--dist loadgroup`): one browser and one
# server for the module, not one a worker
pytestmark = [pytest.mark.skipif(_missing is not None, reason=_missing or ""),
              pytest.mark.xdist_group("gui_browser")]


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
    assert gt.moves(page) == []                 # the capture goes on: nothing played yet
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
    gt.click_square(page, 23)                  # not a destination of 32
    assert "Not a legal move" in toast(page)
    gt.click_square(page, 1)                   # a black piece, White to move
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
    assert result.startswith("0-1") and "White wins" in result     # black moves first
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
    firsts = [line.split()[1] for line in lines]
    assert len(set(firsts)) == 3                  # three different first moves
    legal = {Board(variant="international").move_text(m) for m in Board().legal_moves}
    assert set(firsts) <= legal
    scores = [float(line.split()[0]) for line in lines]
    assert scores == sorted(scores, reverse=True)
    for n, (a, b) in enumerate(((32, 28), (19, 23), (28, 19), (14, 23), (37, 32)), start=1):
        gt.click_square(page, a)
        gt.click_square(page, b)
        gt.wait_moves(page, n)
        page.wait_for_function("/depth ([5-9]|\\d\\d)/.test(document.querySelector('#search-info').textContent)")
    assert page.locator("#graph polyline").count() == 1     # the score graph over the game
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
    # the game opens at its start; the keyboard steps through it
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
    text = open(d.value.path(), encoding="utf-8").read()
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
    gt.click_square(page, 29)                     # a1 on the russian board
    page.check('input[name="piece"][value="b"]')
    gt.click_square(page, 10)
    page.wait_for_function("document.querySelector('#edit-fen').textContent.includes('Ka1')")
    page.click("#edit-done")
    page.wait_for_function("document.querySelector('#fen').value.includes('Ka1')")
    board = Board(fen_of(page), variant="russian")
    assert len(board.pieces()) == 2 and board.piece_at("a1").king


def test_take_back_flip_and_new_game(page):
    gt.new_game(page, "american", "black", movetime=0.05)     # black moves first
    gt.click_square(page, 11)
    gt.click_square(page, 15)
    gt.wait_moves(page, 2)
    page.wait_for_function("!document.querySelector('#status').textContent.includes('thinking')")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#moves .mv[data-ply]').length === 0")
    top = page.locator('#board rect[data-square="1"]').bounding_box()["y"]
    page.click("#flip")
    assert page.locator('#board rect[data-square="1"]').bounding_box()["y"] > top
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
    p.route("http://elsewhere.test/", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<html><body>elsewhere</body></html>"))
    p.goto("http://elsewhere.test/")
    outcome = p.evaluate("""url => new Promise(done => {
        const ws = new WebSocket(url);
        ws.onopen = () => done('open');
        ws.onclose = () => done('closed');
    })""", ws_url)
    assert outcome == "closed"
    # from the page's own origin it opens
    p.goto(server)
    assert p.evaluate("""url => new Promise(done => {
        const ws = new WebSocket(url);
        ws.onopen = () => { done('open'); ws.close(); };
        ws.onclose = () => done('closed');
    })""", ws_url) == "open"
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
    page.wait_for_function("/depth \\d+/.test(document.querySelector('#m-line-white').textContent + "
                           "document.querySelector('#m-line-black').textContent)")
    assert page.locator("#m-board g.piece").count() > 0
    page.wait_for_function("/depth \\d+/.test(document.querySelector('#m-line-white').textContent) && "
                           "/depth \\d+/.test(document.querySelector('#m-line-black').textContent)")
    shot(page, "gui-match.png", full_page=True)
    page.wait_for_function("document.querySelector('#m-score').textContent.includes('2 of 2 games, finished')",
                           timeout=90000)
    score = page.inner_text("#m-score")
    assert re.search(r"Score of draughts vs draughts-2: \d - \d - \d\s+\[\d\.\d{3}\] 2", score), score
    assert page.inner_text("#m-elo").startswith("Elo difference:")
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
        gt.new_game(p, "international", "black", movetime=0.1)    # the engine moves first
        gt.wait_moves(p, 1)
        assert len(_hub_children()) == 1
        try:
            p.goto("chrome://crash", timeout=5000)                 # the page's renderer dies
        except Exception:
            pass
        deadline = time.time() + 15
        while _hub_children() and time.time() < deadline:
            time.sleep(0.1)
        assert _hub_children() == [], "the engine outlived its page"
        context.close()

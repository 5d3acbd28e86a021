"""Real PDN files written by others (tests/data/pdn-corpus/, sources in its README).

* Every game of the `succeed/` files (the PDN 3.0 author's files that a reader
  must read), of CheckerBoard's and of lidraughts' files reads and replays,
  each file in the variant its README names, and every game round-trips
  through `write_game`.  The one exception is named: a game whose last move is
  a short capture that two legal captures fit (the file's fault).
* A sample of the games, and every game with space-padded squares, is
  replayed on the independent reference move generator.
* The `fail/` files give `PdnError`s, one per bad game, and never another
  exception.
* `variant="auto"` infers the variant of the games without a GameType.
"""

import re
from pathlib import Path

import pytest

import draughts
from draughts import pdn

import reference_movegen as R

CORPUS = Path(__file__).parent / "data" / "pdn-corpus"
SUCCEED = CORPUS / "wiegerw_pdn" / "games" / "succeed"
FAIL = CORPUS / "wiegerw_pdn" / "games" / "fail"

# the corpus README: the variants of the files, by name (most have no GameType)
AMERICAN = {
    "OCA_2.0",
    "Principles of Strategy",
    "Tricks traps and shots",
    "beginner",
    "borderclassics",
    "bridges",
    "gem",
    "goulds",
    "inferno",
    "lpc",
    "tinsley",
    "11_man_english",
}
ITALIAN = {"Campionato Assoluto 2005", "11_man_italian"}
RUSSIAN = {"ussr1947", "abatsiev", "alphanumeric", "russian_corpus_snippet"}
CZECH = {"mrcd2000kval", "mrcd2006", "mrcd2007", "mrdrcd07", "mrdrcd08"}
#: files with single-digit squares padded with a space (`1- 6`, `28x 6`)
PADDED = {"DUTCH96H", "candidate95", "schildpad"}

#: (file, game number) -> why the game cannot be read.  Each was checked by hand.
NOT_READABLE = {
    # 13... 3x26 fits 3x10x19x26 and 3x10x17x26, both legal, and it is the last move
    ("Campionato Assoluto 2005", 46): "ambiguous move 13... 3x26",
    # tinsley.pdn: a move glued to a comment written without braces, twice, and a
    # move for a piece the position does not have
    ("tinsley", 541): "illegal move 62. 32-28",
    ("tinsley", 623): "unreadable token '8-11Redoversteppedthetimecontrolonthismove.'",
    ("tinsley", 693): "unreadable token '26-22Whiteoversteppedthetimecontrolonthismove.'",
    # problem positions (a FEN and a result, no moves) with a man on the row where
    # it is crowned, which RULES.md makes an error ("write K1"); read as kings they
    # would be six more readable positions
    ("beginner", 10): "a White man on square 1",
    ("goulds", 93): "a White man on square 3",
    ("lpc", 36): "a Black man on square 32",
    ("lpc", 63): "a Black man on square 32",
    ("lpc", 65): "a Black man on square 31",
    ("lpc", 73): "a White man on square 4",
}


def variant_of(path: Path) -> str:
    name = path.stem
    for names, variant in ((AMERICAN, "american"), (ITALIAN, "italian"), (RUSSIAN, "russian"), (CZECH, "czech")):
        if name in names:
            return variant
    return "international"


def good_files():
    return (
        sorted(SUCCEED.glob("*.pdn"))
        + sorted((CORPUS / "checkerboard").glob("*.pdn"))
        + sorted((CORPUS / "lidraughts").glob("*.pdn"))
    )


_RESULT_AT_END = re.compile(r"(?:^|\s)(?:2-0|0-2|1-1|1-0|0-1|1/2-1/2|\*)\s*\Z")


def count_games(data: bytes) -> int:
    """Games in a file counted without the reader: a game begins at a tag line
    that does not follow another pure tag line, at tags glued to the end of a
    movetext (`0-1[Event ...`), and at a movetext line with no tags before it
    (at the file's start or after a game's result)."""
    games = 0
    after_tag = False
    open_game = False
    for line in data.decode("latin-1").splitlines():
        text = line.strip()
        if not text or line.startswith("%"):  # blank and escape lines
            continue
        if text.startswith("["):
            if not after_tag:
                games += 1
            after_tag = re.fullmatch(r"(\[[^\]]*\]\s*)+", text) is not None
            open_game = True
        else:
            if not open_game:
                games += 1
            glued = len(re.findall(r'[^\s\[]\[[A-Za-z]+ "', text))
            games += glued
            after_tag = glued > 0 and text.endswith("]")
            open_game = glued > 0 or _RESULT_AT_END.search(text) is None
    return games


def read_all(path: Path, variant: str):
    reader = pdn.read_games(path.read_bytes(), variant=variant, errors="skip")
    games = list(reader)
    return games, reader.errors


@pytest.fixture(scope="module")
def corpus():
    return {path: read_all(path, variant_of(path)) for path in good_files()}


#: the tests of the corpus read once: on one worker under pytest-xdist (`--dist loadgroup`)
on_the_corpus = pytest.mark.xdist_group("pdn_corpus")


def test_the_corpus_is_all_there():
    files = good_files() + sorted(FAIL.glob("*.pdn"))
    assert len(files) == 52
    # the issue counted 7,802: its reader crashed on nested_comment.pdn's one game
    assert sum(count_games(f.read_bytes()) for f in files) == 7803


@on_the_corpus
def test_every_good_game_reads_and_replays(corpus):
    rejected = {}
    total = 0
    for path, (games, errors) in corpus.items():
        for error in errors:
            assert isinstance(error, draughts.PdnError)
            rejected[(path.stem, error.game_number)] = str(error)
        assert len(games) + len(errors) == count_games(path.read_bytes()), path.name
        total += len(games)
        for game in games:
            assert game.variant.name == variant_of(path) or "GameType" in game.headers
            end = game.end()  # every move is legal from the start
            assert end.move_stack == game.moves
    assert set(rejected) == set(NOT_READABLE)
    for key, why in NOT_READABLE.items():
        assert why in rejected[key], rejected[key]
    assert total == 7496


@on_the_corpus
def test_every_good_game_round_trips(corpus):
    for path, (games, _) in corpus.items():
        for game in games:
            back = pdn.read_game(pdn.write_game(game))
            assert back.moves == game.moves, (path.name, game.headers)
            assert [m.path for m in back.moves] == [m.path for m in game.moves]
            assert back.setup_fen == game.setup_fen and back.result == game.result
            assert back.comments == game.comments


def _replay_on_reference(game) -> None:
    variant = game.variant.name
    board = game.board()
    position = R.parse_fen(board.fen(numeric=True), variant)
    for ply, move in enumerate(game.moves):
        key = (
            R.square_to_rc(variant, move.start),
            R.square_to_rc(variant, move.end),
            frozenset(R.square_to_rc(variant, s) for s in move.captured),
            move.promotion,
        )
        found = [m for m in R.legal_moves(position, variant) if m.key() == key]
        assert found, f"ply {ply + 1}: {board.move_text(move)} is not legal for the reference ({board.fen()})"
        position = R.apply_move(position, found[0])
        board.push(move)


@on_the_corpus
def test_games_replay_on_the_reference_generator(corpus):
    checked = 0
    for path, (games, _) in corpus.items():
        step = 1 if path.stem in PADDED else 30
        for game in games[::step]:
            _replay_on_reference(game)
            checked += 1
    assert checked > 300


def test_space_padded_squares():
    games, errors = read_all(SUCCEED / "DUTCH96H.pdn", "international")
    assert not errors and len(games) == 13
    game = pdn.read_game("1. 32-28 19-23 2. 28x 19 14x23 3. 37-32 10-14 4. 41-37  5-10 *")
    assert [str(m) for m in game.moves] == ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14", "41-37", "5-10"]
    game = pdn.read_game('[FEN "W:W7,14:B9,40"]\n\n1. 14x 3 40-45 2.  7- 1 *')
    assert [str(m) for m in game.moves] == ["14x3", "40-45", "7-1"]


def test_fail_files_give_pdn_errors_per_game():
    bad = 0
    for path in sorted(FAIL.glob("*.pdn")):
        data = path.read_bytes()
        games, errors = read_all(path, variant_of(path))
        assert all(isinstance(e, draughts.PdnError) for e in errors)
        assert [e.game_number for e in errors] == sorted({e.game_number for e in errors})
        assert len(games) + len(errors) == count_games(data), path.name
        bad += len(errors)
        # errors="raise": each bad game raises PdnError and the next game still reads
        read = raised = 0
        reader = pdn.read_games(data, variant=variant_of(path))
        while True:
            try:
                next(reader)
                read += 1
            except StopIteration:
                break
            except draughts.PdnError:
                raised += 1
        assert (read, raised) == (len(games), len(errors)), path.name
    assert bad == 7


def test_the_nested_comment_file_is_one_bad_game():
    with pytest.raises(draughts.PdnError, match="'}' without a comment to close") as info:
        pdn.read_game((FAIL / "nested_comment.pdn").read_bytes())
    assert info.value.token == "}" and info.value.line == 1


# --- variant="auto" ---------------------------------------------------------------------


def test_auto_finds_the_variant_of_the_corpus_files():
    wrong = {}
    for path in good_files():
        games = list(pdn.read_games(path.read_bytes(), variant="auto", errors="skip"))
        for game in games:
            if game.variant.name != variant_of(path):
                wrong[path.stem] = wrong.get(path.stem, 0) + 1
            assert game.variant_inferred == ("GameType" not in game.headers)
    # What the moves cannot tell: ballots given as a FEN with no move (italian
    # ballots are american positions too), czech games written in numbers
    # (american is tried first), two russian games in which no move breaks the
    # stricter czech rules (czech is tried first), and two international
    # problems whose squares are all below 33; and five of the american problems
    # above with a man on its crowning row, valid where another numbering puts
    # that square elsewhere (spanish, international).
    assert wrong == {
        "11_man_italian": 2400,
        "mrcd2007": 8,
        "alphanumeric": 1,
        "ussr1947": 1,
        "fen": 2,
        "goulds": 1,
        "lpc": 4,
    }

"""PDN games: reading, writing, round trips, errors (draughts.pdn)."""

import io
import pathlib
import random
import re
from collections import Counter

import pytest

import draughts
from draughts import pdn

DATA = pathlib.Path(__file__).parent / "data"
VARIANT_NAMES = list(draughts.VARIANTS)

# Positions where two legal captures share start and end square (found by a
# random search); the short form `start x end` is ambiguous in each.
AMBIGUOUS = {
    "international": "W:WK5,36,37,38,39,40,41,43,46,47,50:B1,3,6,7,8,12,13,15,18,19,22,25,26,27",
    "american": "W:W21,24,25,27,28,29,31,32:B1,3,4,5,6,7,14,15,23",
    "italian": "W:W18,19,20,22,24,25,28,29,31:B1,2,4,6,7,9,13,14,15",
    "spanish": "B:W1,3,4,6,8,13,14,19:BK2,17,24,25,26,28,29,30,31,32",
    "russian": "W:Wb4,a3,e3,d2,f2,h2,a1,g1:Bd8,h8,a7,c7,e7,g7,f6,c5,e5,g5",
    "brazilian": "W:WKg5:Bh8,a7,c7,Kd6,Kf6,d4,a3,Kc3,b2",
    "czech": "W:Wh4,a3,c3,e3,b2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,e7,g7,b6,d6,h6,b4,d4",
    "pool": "W:WK27:B6,10,15,16,18,21,K30",
    "thai": "W:WK28:B9,10,14,18,19,26,K29",
    "turkish": "W:WKa5:Ba8,d5,e4,g4,b2,d2,Kf1",
    # (found by a search of random placements for two captures 7x45)
    "frisian": "W:WK7:B5,6,8,14,18,19,31,37,40,41,42",
    "frysk": "W:WK7:B5,6,8,14,18,19,31,37,40,41,42",
    "antidraughts": "W:WK5,36,37,38,39,40,41,43,46,47,50:B1,3,6,7,8,12,13,15,18,19,22,25,26,27",
    "killer": "W:WK5,36,37,38,39,40,41,43,46,47,50:B1,3,6,7,8,12,13,15,18,19,22,25,26,27",
    # men only (a king ends a breakthrough game): two captures 8x26
    "breakthrough": "W:W8,16:B9,10,12,13,15,20,22,23,27,31,32,36,43,45",
}


def texts(game):
    """The game's moves in the variant's notation, replayed on its board."""
    board = game.board()
    out = []
    for move in game.moves:
        out.append(board.move_text(move))
        board.push(move)
    return out


def assert_same_game(a, b):
    assert a.headers == b.headers
    assert a.variant == b.variant
    assert a.setup_fen == b.setup_fen
    assert a.moves == b.moves
    assert [m.path for m in a.moves] == [m.path for m in b.moves]
    assert [m.captured for m in a.moves] == [m.captured for m in b.moves]
    assert a.comments == b.comments
    assert a.result == b.result


def ambiguous_pairs(board):
    count = Counter((m.start, m.end) for m in board.legal_moves if m.captured)
    return {key for key, n in count.items() if n > 1}


def random_game(variant, rng, *, setup_plies=0, plies=150, first=None):
    """A random legal game: optionally set up after `setup_plies` random plies,
    optionally starting with the move `first`."""
    board = draughts.Board(variant=variant)
    for _ in range(setup_plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    if setup_plies:
        board = draughts.Board(board.fen(), variant=variant)
    return play_on(board, rng, plies=plies, first=first)


def play_on(board, rng, *, plies, first=None):
    if first is not None:
        board.push(first)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    return board


def add_random_comments(game, rng):
    for ply in range(-1, len(game.moves)):
        if rng.random() < 0.15:
            game.comments[ply] = rng.choice(
                [
                    "good",
                    "a longer remark about ( this ) move; really",
                    "",
                    "2-0 is not a result here",
                    '[Event "x"] inside',
                ]
            )


# --- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_random_games_round_trip(name):
    rng = random.Random(f"pdn-{name}")
    variant = draughts.variant(name)
    stats = Counter()
    for i in range(16):
        setup = 0 if i < 8 else rng.randint(1, 41)  # odd counts: the second player to move
        board = random_game(variant, rng, setup_plies=setup)
        for move in board.move_stack:
            stats["captures"] += move.is_capture
            stats["multi"] += len(move.captured) > 1
        game = pdn.Game.from_board(
            board, headers={"Event": f"random {i}", "Round": str(i), "Annotator": 'quote " and \\ backslash'}
        )
        assert game.moves == board.move_stack
        assert (game.setup_fen is None) == (setup == 0)
        add_random_comments(game, rng)
        width = rng.choice([None, 25, 79])
        text = pdn.write_game(game, width=width)
        if width:
            assert all(len(line) <= width for line in text.splitlines() if not line.startswith("["))
        back = pdn.read_game(text)
        assert_same_game(back, game)
        assert pdn.write_game(back, width=width) == text
        assert back.end().fen() == board.fen()
    assert stats["captures"] > 20 and stats["multi"] > 0, stats


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_ambiguous_captures_round_trip(name):
    fen = AMBIGUOUS[name]
    start = draughts.Board(fen, variant=name)
    pairs = ambiguous_pairs(start)
    assert pairs, "the position must hold two captures with the same start and end"
    rng = random.Random(name)
    for move in start.legal_moves:
        if (move.start, move.end) not in pairs:
            continue
        written = start.move_text(move)
        assert len(move.path) > 2 and written.count(start.variant.capture_separator) == len(move.path) - 1
        board = play_on(start.copy(), rng, plies=30, first=move)
        game = pdn.Game.from_board(board)
        assert game.setup_fen == fen
        text = pdn.write_game(game)
        assert f" {written} " in text
        back = pdn.read_game(text)
        assert_same_game(back, game)
        assert back.moves[0].captured == move.captured

        # The short form names two moves.
        short = written.split(start.variant.capture_separator)
        short = f"{short[0]}{start.variant.capture_separator}{short[-1]}"
        bad = f'[GameType "{start.variant.gametype}"]\n[FEN "{fen}"]\n\n1. {short} *\n'
        if start.turn != start.variant.first:
            bad = bad.replace("1. ", "1... ")
        with pytest.raises(draughts.PdnError, match="ambiguous") as info:
            pdn.read_game(bad)
        assert isinstance(info.value.__cause__, draughts.AmbiguousMoveError)
        assert info.value.token == short


def test_fixture_round_trip():
    games = list(pdn.read_games((DATA / "games.pdn").read_text()))
    assert len(games) == 7
    text = pdn.write_games(games)
    again = list(pdn.read_games(text))
    assert len(again) == 7
    for old, new in zip(games, again):
        assert new.variant == old.variant
        assert new.moves == old.moves
        assert new.comments == old.comments
        assert new.result == old.result
        # the writer adds a Result and a GameType tag where a game had none
        added = {k: v for k, v in new.headers.items() if k not in old.headers}
        assert set(added) <= {"Result", "GameType"}
        assert {k: new.headers[k] for k in old.headers} == old.headers
    assert pdn.write_games(again) == text


def test_round_trip_without_mandatory_capture():
    """A quiet move and a capture between the same squares (capture optional)."""
    variant = draughts.variant("russian", mandatory_capture=False)
    board = draughts.Board("B:Wf6,a5,Kc5,d4,f4,h4,b2,d2,h2,g1:Bb8,d8,h8,c7,b6,h6,Ke1", variant=variant)
    e1, g3 = board.parse_move("e1:c3:e5:g3").start, board.parse_move("e1:c3:e5:g3").end
    twins = [m for m in board.legal_moves if (m.start, m.end) == (e1, g3)]
    assert len(twins) == 3 and sum(not m.captured for m in twins) == 1
    for move in twins:
        b = board.copy()
        b.push(move)
        game = pdn.Game.from_board(b)
        back = pdn.read_game(pdn.write_game(game), variant=variant)
        assert back.variant == variant
        assert back.moves == [move]


# --- the hand-written file -----------------------------------------------------------------


@pytest.fixture(scope="module")
def fixture_games():
    with open(DATA / "games.pdn", encoding="utf-8") as handle:
        return list(pdn.read_games(handle))


def test_fixture_international_with_comments_and_variations(fixture_games):
    game = fixture_games[0]
    assert list(game.headers) == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Annotator"]
    assert game.headers["White"] == "Anna" and game.headers["Annotator"] == "test file"
    assert game.variant.name == "international" and game.setup_fen is None
    assert (
        texts(game)
        == (
            "35-30 17-22 33-29 12-17 31-27 22x31 36x27 18-22 27x18 13x22 30-25 19-23 "
            "29x27 17-22 27x18 20-24 18-12 7x18 32-28 15-20 37-31 24-30 42-37 9-13"
        ).split()
    )
    assert game.moves[12].captured == (23, 22)  # 29x18x27: two pieces
    assert game.intro == "An opening with a comment over two lines."
    assert game.comments == {-1: "An opening with a comment over two lines.", 9: "recapture", 11: "a line comment"}
    assert game.result == "1-1"
    assert game.end().fen() == (
        "W:W25,28,31,34,37,38,39,40,41,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,10,11,13,14,16,18,20,30"
    )


def test_fixture_setup_black_to_move(fixture_games):
    game = fixture_games[1]
    assert game.headers["Event"] == 'Set-up, "Black" to move'
    assert game.headers["White"] == "C:\\draughts"
    assert game.setup_fen == "B:W31-50:B1-20"
    assert game.board().turn == draughts.BLACK
    assert texts(game) == "20-24 31-27 16-21 27x16 19-23 32-27".split()
    assert game.comments == {3: "forced"}
    assert game.result == "*"
    text = pdn.write_game(game)
    assert "\n1... 20-24 2. 31-27 16-21 3. 27x16 {forced} 3... 19-23 4. 32-27 *\n" in text


def test_fixture_full_capture_path(fixture_games):
    game = fixture_games[2]
    assert game.moves[0].path == (5, 28, 11, 2)
    assert texts(game) == ["5x28x11x2", "1-7", "2x32"]
    assert game.result == "0-2"


def test_fixture_american_black_first(fixture_games):
    game = fixture_games[3]
    assert game.variant.name == "american"
    assert game.board().turn == draughts.BLACK
    assert game.moves[0] == game.board().parse_move("11-16")
    assert game.moves[6].path == (9, 18, 25)  # written 9x25
    assert len(game.moves) == 20 and game.result == "0-1"
    text = pdn.write_game(game)
    assert "\n1. 11-16 22-18 2. 9-13 25-22 3. 5-9 18-14 4. 9x25 29x22" in text


def test_fixture_russian_algebraic(fixture_games):
    game = fixture_games[4]
    assert game.variant.name == "russian"
    written = texts(game)
    assert written[:6] == ["g3-f4", "d6-c5", "c3-d4", "c7-d6", "f4-e5", "d6:f4"]
    assert written[15] == "b6:d4" and written[16] == "c3:g3"
    assert len(game.moves[16].captured) == 2
    assert game.result == "1/2-1/2"
    assert "9. c3:g3 f6-g5" in pdn.write_game(game)


def test_fixture_games_without_gametype_or_result_token(fixture_games):
    game = fixture_games[5]
    assert game.headers == {"Event": "No GameType and no result token"}
    assert game.variant.name == "international"
    assert len(game.moves) == 4 and game.result == "*"
    last = fixture_games[6]
    assert last.headers["Event"] == "Last" and last.result == "2-0"
    assert texts(last) == ["32-28"]


def test_missing_gametype_uses_variant_argument():
    text = '[Event "x"]\n\n1. 11-15 23-19 1-0\n'
    game = pdn.read_game(text, variant="american")
    assert game.variant.name == "american" and len(game.moves) == 2
    with pytest.raises(draughts.PdnError, match="illegal move 1. 11-15"):
        pdn.read_game(text)
    # GameType wins over the argument
    game = pdn.read_game('[GameType "20"]\n1. 32-28 *', variant="american")
    assert game.variant.name == "international"


@pytest.mark.parametrize("token", ["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "*"])
@pytest.mark.parametrize("gametype", ["20", "21", "25"])
def test_result_tokens_of_both_families(token, gametype):
    moves = {"20": "32-28", "21": "11-15", "25": "c3-d4"}[gametype]
    game = pdn.read_game(f'[GameType "{gametype}"]\n\n1. {moves} {token}\n[Event "next"]\n1. 1-2 *')
    assert game.result == token and len(game.moves) == 1
    assert pdn.write_game(game).rstrip().endswith(f" {token}")


def test_movetext_details():
    text = (
        '[GameType "20"]\n'
        "{before} 1.32-28 $3 19-23!? 2. 28x19 {a} {b} ((2... 13-19) 2... 23x32 ?) 14x23 ; rest\n"
        "% an escape line: 1. 99-98\n"
        "3. 33-28?? (3. 34-29 {in a variation: 2-0} 23x34) 23x32 4. 37x28 *"
    )
    game = pdn.read_game(text)
    assert texts(game) == "32-28 19-23 28x19 14x23 33-28 23x32 37x28".split()
    assert game.comments == {-1: "before", 2: "a b", 3: "rest"}
    assert game.result == "*"


def test_read_game_from_a_handle_game_after_game():
    handle = io.StringIO(
        '[Event "a"]\n1. 32-28 2-0 [Event "b"] 1. 33-29 0-2\n\n'
        '[Event "c"]\n1. 34-30\n[Event "d"]\n\n*\n\n{trailing words}\n'
    )
    events = []
    while True:
        game = pdn.read_game(handle)
        if game is None:
            break
        events.append((game.headers["Event"], texts(game), game.result))
    assert events == [("a", ["32-28"], "2-0"), ("b", ["33-29"], "0-2"), ("c", ["34-30"], "*"), ("d", [], "*")]
    assert pdn.read_game(handle) is None
    handle.seek(0)  # a moved handle is read afresh
    assert pdn.read_game(handle).headers["Event"] == "a"


def test_read_game_end_of_input_and_text():
    assert pdn.read_game("") is None
    assert pdn.read_game("\n   \n% only an escape\n") is None
    assert pdn.read_game(io.StringIO("")) is None
    text = '[Event "first"]\n1. 32-28 *\n[Event "second"]\n1. 33-29 *\n'
    assert pdn.read_game(text).headers["Event"] == "first"  # a text is read from its start
    assert pdn.read_game(text).headers["Event"] == "first"
    assert [g.headers["Event"] for g in pdn.read_games(text)] == ["first", "second"]
    assert pdn.read_game(text.encode()).headers["Event"] == "first"


# --- writing -------------------------------------------------------------------------------


def test_write_exact_text():
    game = pdn.Game({"Event": "E", "Annotator": "me"})
    for text, comment in [("32-28", None), ("19-23", "c"), ("28x19", None), ("14x23", None)]:
        game.add_move(text, comment)
    game.result = "1-1"
    assert pdn.write_game(game) == (
        '[Event "E"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n'
        '[Result "1-1"]\n[GameType "20,W,10,10,N2,0"]\n[Annotator "me"]\n'
        "\n1. 32-28 19-23 {c} 2. 28x19 14x23 1-1\n"
    )
    game.comments = {0: "after the first move"}
    assert "\n1. 32-28 {after the first move} 1... 19-23 2. 28x19 14x23 1-1\n" in pdn.write_game(game)
    assert str(game) == pdn.write_game(game)


def test_tag_order_fen_and_escapes():
    game = pdn.Game(
        {"Annotator": "x", "White": 'W "quoted" \\', "Event": "e"}, setup_fen="B:W31-50:B1-20", variant="international"
    )
    game.add_move("19-23")
    text = pdn.write_game(game)
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags == ["Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN", "Annotator"]
    assert '[White "W \\"quoted\\" \\\\"]' in text
    assert "\n1... 19-23 *\n" in text
    assert pdn.read_game(text).headers["White"] == 'W "quoted" \\'


def test_american_numbering_and_result_tokens():
    game = pdn.Game(variant="american")
    for text in ["11-15", "23-19", "8-11"]:
        game.add_move(text)
    assert "\n1. 11-15 23-19 2. 8-11 *\n" in pdn.write_game(game)
    assert game.headers["GameType"] == "21,B,8,8,N1,0"
    # White (the second player) to move in a set-up position
    game = pdn.Game(variant="american", setup_fen="W:W21-32:B1-12")
    for text in ["22-18", "11-15", "18x11"]:
        game.add_move(text)
    assert "\n1... 22-18 2. 11-15 18x11 *\n" in pdn.write_game(game)
    # the first number of the result is the score of the first player (Black)
    rng = random.Random(7)
    for _ in range(20):
        board = play_on(draughts.Board(variant="american"), rng, plies=400)
        outcome = board.outcome()
        if outcome is not None and outcome.winner is not None:
            break
    assert outcome.winner is not None
    game = pdn.Game.from_board(board)
    assert game.result == ("1-0" if outcome.winner == draughts.BLACK else "0-1")
    assert pdn.write_game(game).rstrip().endswith(" " + game.result)


def test_wrapping():
    rng = random.Random(3)
    board = play_on(draughts.Board(), rng, plies=80)
    game = pdn.Game.from_board(board)
    game.comments[10] = "a comment with quite a few words in it to wrap over lines"
    for width in (20, 40, 79):
        movetext = pdn.write_game(game, width=width).split("\n\n", 1)[1]
        lines = movetext.splitlines()
        assert len(lines) > 1 and all(len(line) <= width for line in lines)
    one = pdn.write_game(game, width=None).split("\n\n", 1)[1]
    assert len(one.splitlines()) == 1
    for width in (20, None):
        assert pdn.read_game(pdn.write_game(game, width=width)).comments == game.comments


def test_writer_checks():
    game = pdn.Game()
    game.result = "3-0"
    with pytest.raises(ValueError, match="result"):
        pdn.write_game(game)
    game = pdn.Game({"bad name": "x"})
    with pytest.raises(ValueError, match="tag name"):
        pdn.write_game(game)
    game = pdn.Game()
    game.moves.append(draughts.Move(19, 23))  # Black's move with White to move
    with pytest.raises(draughts.IllegalMoveError):
        pdn.write_game(game)
    game = pdn.Game()
    game.comments[-1] = "braces } are dropped"
    assert pdn.read_game(pdn.write_game(game)).intro == "braces are dropped"


# --- Game ----------------------------------------------------------------------------------


def test_game_api():
    game = pdn.Game()
    assert game.headers == {
        "Event": "?",
        "Site": "?",
        "Date": "????.??.??",
        "Round": "?",
        "White": "?",
        "Black": "?",
        "Result": "*",
        "GameType": "20,W,10,10,N2,0",
    }
    assert game.variant.name == "international" and game.setup_fen is None and game.result == "*"
    move = game.add_move("32-28", comment="opening")
    assert move == draughts.Move(32, 28) and game.comments == {0: "opening"}
    game.add_move(draughts.Move(19, 23))
    game.intro = "hello"
    assert game.comments[-1] == "hello"
    with pytest.raises(draughts.IllegalMoveError):
        game.add_move("28-22")
    with pytest.raises(draughts.IllegalMoveError):
        game.add_move(draughts.Move(28, 22))
    assert len(game.moves) == 2
    assert game.board().fen() == draughts.Board().fen()
    end = game.end()
    assert end.move_stack == game.moves and end.turn == draughts.WHITE
    end.push("28x19")  # a copy: the game is unchanged
    assert len(game.moves) == 2 and game.end().ply == 2
    game.moves.pop()  # the list can be edited by hand
    assert game.end().ply == 1
    assert "international" in repr(game)


def test_game_from_board():
    board = draughts.Board(variant="russian")
    for text in ["c3-d4", "f6-g5", "g3-h4"]:
        board.push_text(text)
    game = pdn.Game.from_board(board, headers={"White": "A"}, result="1/2-1/2")
    assert game.setup_fen is None and game.variant.name == "russian"
    assert game.moves == board.move_stack and game.moves is not board.move_stack
    assert game.headers["White"] == "A" and game.headers["Result"] == "1/2-1/2"
    assert game.headers["GameType"] == "25,W,8,8,A0,0"
    assert game.result == "1/2-1/2"

    start = draughts.Board("B:W31-50:B1-20")
    start.push_text("19-23")
    game = pdn.Game.from_board(start)
    assert (
        game.setup_fen == "B:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
        "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    )
    assert game.board().turn == draughts.BLACK and game.result == "*"
    assert game.end().fen() == start.fen()


def test_game_headers_and_variant_agree():
    game = pdn.Game({"GameType": "21"})
    assert game.variant.name == "american" and game.headers["GameType"] == "21"
    game = pdn.Game({"GameType": "21"}, variant="italian")
    assert game.headers["GameType"] == "22,W,8,8,N2,1"
    game.variant = draughts.variant("czech")  # a changed variant writes its own GameType
    assert '[GameType "29,W,8,8,A0,0"]' in pdn.write_game(game)
    with pytest.raises(draughts.VariantError):
        pdn.Game({"GameType": "99"})


# --- errors --------------------------------------------------------------------------------

GOOD = '[Event "good"]\n\n1. 32-28 19-23 2-0\n\n'

ERRORS = {
    # name: (bad game text, expected message part, token, line in the bad game, cause)
    "bad tag": ('[Event "ok"]\n[Site "unterminated]\n\n1. 32-28 *\n', "bad tag", '[Site "unterminated]', 2, None),
    "bad tag value": ("[Event unquoted]\n\n1. 32-28 *\n", "bad tag", "[Event unquoted]", 1, None),
    "illegal move": (
        '[Event "x"]\n\n1. 32-28 19-23 2. 28x19 14x23\n3. 50-45 *\n',
        "illegal move 3. 50-45",
        "50-45",
        4,
        draughts.IllegalMoveError,
    ),
    "wrong side": ('[Event "x"]\n\n1. 19-23 *\n', "illegal move 1. 19-23", "19-23", 3, draughts.IllegalMoveError),
    "not a move": ('[Event "x"]\n\n1. 32-28 hello *\n', "hello", "hello", 3, draughts.InvalidMoveError),
    "ambiguous move": (
        f'[FEN "{AMBIGUOUS["international"]}"]\n\n1. 5x2 *\n',
        "ambiguous move 1. 5x2",
        "5x2",
        3,
        draughts.AmbiguousMoveError,
    ),
    "unknown GameType": (
        '[GameType "33,W,8,8,N1,0"]\n\n1. 32-28 *\n',
        "unknown GameType",
        "33,W,8,8,N1,0",
        1,
        draughts.VariantError,
    ),
    "bad FEN": ('[Event "x"]\n[FEN "W:W51:B1"]\n\n1. 32-28 *\n', "bad FEN", "W:W51:B1", 2, draughts.FenError),
    "unterminated comment": ('[Event "x"]\n\n1. 32-28 {no end\n19-23 2-0\n\n', "unterminated comment", "{", 3, None),
    "unterminated variation": (
        '[Event "x"]\n\n1. 32-28 (1. 33-29 (19-23) 2-0\n2. 28-23 *\n',
        "unterminated variation",
        "(",
        3,
        None,
    ),
    "unmatched paren": ('[Event "x"]\n\n1. 32-28 ) *\n', "')'", ")", 3, None),
    # issue 10: a stray `}` raised AttributeError and, with errors="skip", ended the whole file
    "stray brace": ('[Event "x"]\n\n1. 32-28 } 19-23 *\n', "'}' without a comment to close", "}", 3, None),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_error_raise(name):
    bad, message, token, line, cause = ERRORS[name]
    lines_before = (GOOD + GOOD).count("\n")
    reader = pdn.read_games(GOOD + GOOD + bad + GOOD)
    assert next(reader).headers["Event"] == "good"
    assert next(reader).headers["Event"] == "good"
    with pytest.raises(draughts.PdnError) as info:
        next(reader)
    err = info.value
    assert isinstance(err, ValueError)
    assert message in str(err)
    assert str(err).startswith(f"game 3, line {lines_before + line}:")
    assert err.game_number == 3 and err.line == lines_before + line and err.token == token
    assert err.text == bad.rstrip() + "\n"
    assert isinstance(err.game, pdn.Game)
    if cause is None:
        assert err.__cause__ is None
    else:
        assert isinstance(err.__cause__, cause)
    # the bad game was read to its end: the reader goes on with the next one
    assert next(reader).headers["Event"] == "good"
    assert list(reader) == []
    # read_game on a single text raises too
    with pytest.raises(draughts.PdnError, match="game 1, line"):
        pdn.read_game(bad)


@pytest.mark.parametrize("name", list(ERRORS))
def test_error_skip(name):
    bad = ERRORS[name][0]
    reader = pdn.read_games(GOOD + bad + GOOD.replace("good", "after"), errors="skip")
    games = list(reader)
    assert [g.headers["Event"] for g in games] == ["good", "after"]
    assert [texts(g) for g in games] == [["32-28", "19-23"]] * 2
    assert len(reader.errors) == 1 and ERRORS[name][1] in str(reader.errors[0])
    assert reader.errors[0].game_number == 2
    assert pdn.read_game(bad + GOOD, errors="skip").headers["Event"] == "good"


def test_partial_game_of_an_error():
    bad = ERRORS["illegal move"][0]
    with pytest.raises(draughts.PdnError) as info:
        pdn.read_game(bad)
    game = info.value.game
    assert game.headers == {"Event": "x"}
    assert texts(game) == ["32-28", "19-23", "28x19", "14x23"]


def test_bad_file_raise_and_skip():
    path = DATA / "bad_games.pdn"
    seen = []
    with open(path, encoding="utf-8") as handle:
        reader = pdn.read_games(handle)
        while True:
            try:
                game = next(reader)
            except StopIteration:
                break
            except draughts.PdnError as err:
                seen.append((err.game_number, err.line, err.game.headers.get("Event")))
            else:
                seen.append(game.headers["Event"])
    assert seen == [
        "good 1",
        (2, 7, "bad tag"),
        (3, 13, "illegal move"),
        (4, 18, "ambiguous move"),
        (5, 21, "unknown GameType"),
        (6, 26, "bad FEN"),
        (7, 32, "unterminated variation"),
        "good 2",
        (9, 42, "unterminated comment"),
        "good 3",
    ]
    with open(path, encoding="utf-8") as handle:
        reader = pdn.read_games(handle, errors="skip")
        assert [g.headers["Event"] for g in reader] == ["good 1", "good 2", "good 3"]
    assert [e.game_number for e in reader.errors] == [2, 3, 4, 5, 6, 7, 9]
    assert "illegal move 2. 28x17" in str(reader.errors[1])
    assert reader.errors[1].text.startswith('[Event "illegal move"]\n')


def test_errors_argument_checked():
    with pytest.raises(ValueError, match="errors"):
        pdn.read_games(GOOD, errors="ignore")
    with pytest.raises(TypeError):
        pdn.read_game(42)


def test_a_stray_brace_is_an_error_of_its_game():
    with pytest.raises(draughts.PdnError, match="'}' without a comment"):
        pdn.read_game("1. 32-28 } 19-23 *")


# --- what real files hold ----------------------------------------------------------------


def test_unknown_side_to_move_is_the_first_mover():
    # PDN 3.0 allows `?` for the side to move
    assert draughts.Board("?:W29,13,11:B22,4,2").turn == draughts.WHITE
    assert draughts.Board("?:W29:B4", variant="american").turn == draughts.BLACK
    game = pdn.read_game('[FEN "?:W29,13,11:B22,4,2"]\n\n1. 11-7 2x11 *')
    assert texts(game) == ["11-7", "2x11"]


def test_tags_glued_to_a_result_begin_the_next_game():
    games = list(pdn.read_games('[Event "a"]\n\n1. 32-28 19-23 2-0[Event "b"]\n\n1. 33-29 *\n'))
    assert [(g.headers["Event"], texts(g), g.result) for g in games] == [
        ("a", ["32-28", "19-23"], "2-0"),
        ("b", ["33-29"], "*"),
    ]


def test_algebraic_squares_without_a_separator():
    game = pdn.read_game("1.c3d4 f6g5 *", variant="russian")
    assert texts(game) == ["c3-d4", "f6-g5"]


def test_a_short_capture_is_the_one_the_game_goes_on_after():
    fen = AMBIGUOUS["international"]
    start = draughts.Board(fen)
    rng = random.Random(14)
    resolved = 0
    for a, b in [
        (m, n) for m in start.legal_moves for n in start.legal_moves if m != n and (m.start, m.end) == (n.start, n.end)
    ]:
        for _ in range(20):
            board = play_on(start.copy(), rng, plies=6, first=a)
            other = start.copy()
            other.push(b)
            try:
                for move in board.move_stack[1:]:
                    other.push(move)
                continue  # the rest fits b too: truly ambiguous
            except draughts.IllegalMoveError:
                pass
            rest = pdn.write_game(pdn.Game.from_board(board)).split("\n\n", 1)[1]
            short = f"{a.start}x{a.end}"
            text = re.sub(r"^1\. \S+", f"1. {short}", rest)
            game = pdn.read_game(f'[FEN "{fen}"]\n\n{text}')
            assert game.moves == list(board.move_stack)
            resolved += 1
            break
    assert resolved
    # with nothing after it, the short form stays an error
    with pytest.raises(draughts.PdnError, match="ambiguous"):
        pdn.read_game(f'[FEN "{fen}"]\n\n1. {a.start}x{a.end} *')


AUTO_CASES = [
    # (movetext, FEN or None, variant found)
    ("1. 32-28 19-23 2. 28x19 14x23 *", None, "international"),
    ("1. 11-15 23-19 2. 8-11 22-17 *", None, "american"),  # Black first
    ("1. 22-18 11-14 2. 18x11 7x14 *", None, "italian"),  # White first, italian numbering
    ("1. c3-d4 f6-g5 2. g3-h4 *", None, "czech"),  # no move breaks the czech rules
    ("1. c3-b4 f6-g5 2. b4-c5 d6xb4 3. a3xc5 *", None, "czech"),
]


@pytest.mark.parametrize("movetext, fen, expected", AUTO_CASES)
def test_auto_infers_the_variant(movetext, fen, expected):
    text = (f'[FEN "{fen}"]\n\n' if fen else "") + movetext
    game = pdn.read_game(text, variant="auto")
    assert game.variant.name == expected and game.variant_inferred
    assert len(game.moves) == movetext.count("-") + movetext.count("x")


def test_auto_russian_when_a_man_captures_backwards():
    # czech men capture forwards only; russian men capture backwards too
    game = pdn.read_game('[FEN "B:We5,a1:Bf6"]\n\n1... f6xd4 *', variant="auto")
    assert game.variant.name == "czech"  # forwards for Black
    game = pdn.read_game('[FEN "B:We5,a1:Bd4"]\n\n1... d4xf6 *', variant="auto")
    assert game.variant.name == "russian"  # backwards for Black
    assert texts(game) == ["d4:f6"]


def test_a_gametype_is_never_overridden_by_auto():
    game = pdn.read_game('[GameType "20"]\n\n1. 32-28 *', variant="auto")
    assert game.variant.name == "international" and not game.variant_inferred
    with pytest.raises(draughts.PdnError, match="no GameType: the moves fit none of"):
        pdn.read_game("1. 32-28 hello *", variant="auto")

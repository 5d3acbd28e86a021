"""Reading and writing whole games in PDN (Portable Draughts Notation).

    >>> import draughts.pdn
    >>> game = draughts.pdn.read_game('[GameType "20"]\\n\\n1. 32-28 19-23 2. 28x19 14x23 *')
    >>> [str(m) for m in game.moves]
    ['32-28', '19-23', '28x19', '14x23']
    >>> print(draughts.pdn.write_game(game))      # doctest: +NORMALIZE_WHITESPACE
    [Result "*"]
    [GameType "20"]
    <BLANKLINE>
    1. 32-28 19-23 2. 28x19 14x23 *

A game is its tags (`Game.headers`), its variant, an optional set-up
position (the `FEN` tag), the main line of moves, the comments after the
moves and the result token.  Variations are read past and dropped; NAGs and
`!`/`?` suffixes are dropped.

Reading is lenient about layout (move numbers are not checked, a game may end
without a result token when the next game's tags begin, even on the same
line; squares may be padded with a space, `1- 6`, as PDN 3.0 allows;
algebraic moves may lack a separator, `a3b4`; a FEN may give `?` as the side
to move, read as the variant's first mover; a short capture that several
legal captures fit is the one after which the rest of the game is legal, when
exactly one is) and strict about content: a bad tag, a move that is not legal or not unique, an unknown
GameType, a bad FEN, a `}` or `)` with nothing to close and an unterminated
comment or variation raise
`draughts.PdnError`.  The error names the game number, the line and the bad
token; its attributes are `game_number`, `line`, `token`, `text` (the bad
game's text) and `game` (the game read up to the error), and `__cause__` is
the underlying IllegalMoveError, AmbiguousMoveError, VariantError or
FenError.  The bad game has been read to its end when the error is raised, so
the next call reads the next game; `read_games(..., errors="skip")` leaves
bad games out and collects their errors.

Comments are kept as their words: line breaks and runs of spaces become one
space, so that a written game reads back identical whatever the line width.
"""

from __future__ import annotations

import io
import re
import weakref
from typing import Callable, Dict, Iterable, List, Match, Optional, Tuple, Union

from draughts.board import Board, Move
from draughts.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, PdnError, VariantError
from draughts.variants import Variant, variant as get_variant, variant_for_gametype

__all__ = ["Game", "GameReader", "read_game", "read_games", "write_game", "write_games", "ROSTER", "RESULT_TOKENS"]

#: The seven-tag roster, in the order it is written.
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_ROSTER_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}

#: Result tokens read in every variant: both the 10x10 family (2-0, 1-1, 0-2)
#: and the 8x8 family (1-0, 1/2-1/2, 0-1), a double loss 0-0 and `*`.
RESULT_TOKENS = frozenset({"2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "½-½", "0-0", "*"})

_TAG_NAME = re.compile(r"[A-Za-z0-9_]+\Z")
_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_LINE = re.compile(r'\s*(?:\[\s*[A-Za-z0-9_]+\s*"(?:[^"\\]|\\.)*"\s*\]\s*)+\Z')
_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"[^\s{}();]+")
_MOVE_NUMBER = re.compile(r"(\d+)\s*(\.+)(.*)\Z", re.S)
_NAG = re.compile(r"\$\d+\Z")
_SUFFIX = re.compile(r"[!?]+\Z")
#: one movetext token after spaces: a comment, variation or tag bracket, or a word
_TOKEN = re.compile(r"\s*([{};()\[]|[^\s{}();\[]+)?")
#: a word that is a move and nothing else (the common case, read at once): `32-28`, `28x19`, `c3:e5`
_MOVE_WORD = re.compile(r"((?:\d{1,2}|[a-hA-H]\d)(?:[-x:](?:\d{1,2}|[a-hA-H]\d))+)\Z")
_PADDED = re.compile(r"[ \t]+(\d+)(?=[\s{}();]|[-x:!?]|\Z)")
_NAME = re.compile(r"[a-h][1-8]", re.I)
_GLUED_NAMES = re.compile(r"(?:[a-h][1-8]){2,}", re.I)
_ALGEBRAIC = re.compile(r"[a-hA-H][1-8]")
_DIGITS = re.compile(r"\d+")


# --- the game ------------------------------------------------------------------


class Game:
    """One game: tags, variant, set-up position, main line, comments and result.

    `headers` is a dict in tag order (a new game starts with the seven-tag
    roster and a GameType tag).  `setup_fen` is the `FEN` tag (None when the
    game starts from the variant's start position).  `comments[i]` is the
    comment after ply `i` (0-based index into `moves`); `comments[-1]`, also
    `intro`, is the comment before the first move.  `result` is the result
    token written after the moves.
    """

    def __init__(
        self,
        headers: Optional[Dict[str, str]] = None,
        *,
        variant: Union[str, Variant, None] = None,
        setup_fen: Optional[str] = None,
        result: Optional[str] = None,
    ):
        given = dict(headers or {})
        if variant is None:
            variant = _variant_of_tag(given["GameType"], None) if given.get("GameType") else "international"
        self.variant: Variant = get_variant(variant)
        self.headers: Dict[str, str] = dict(_ROSTER_DEFAULTS)
        self.headers["GameType"] = self.variant.pdn_gametype
        self.headers.update(given)
        if not _names_variant(self.headers["GameType"], self.variant):
            self.headers["GameType"] = self.variant.pdn_gametype
        if _needs_variant_tag(self.variant):
            # killer has no GameType of its own: the Variant tag (lidraughts' tag) names it
            self.headers["Variant"] = self.variant.name
        if setup_fen is not None:
            self.setup_fen = setup_fen
        self.moves: List[Move] = []
        self.comments: Dict[int, str] = {}
        self.result: str = result if result is not None else (self.headers.get("Result") or "*")
        self.headers["Result"] = self.result
        #: the variant was inferred from the moves (read with variant="auto" and no GameType)
        self.variant_inferred = False
        self._end_cache: Optional[Board] = None
        self._end_fen: Optional[str] = None

    @classmethod
    def _empty(cls, variant: Variant) -> "Game":
        """A game with no tags at all (the reader fills them in as read)."""
        game = cls.__new__(cls)
        game.variant = variant
        game.headers = {}
        game.moves = []
        game.comments = {}
        game.result = "*"
        game.variant_inferred = False
        game._end_cache = None
        game._end_fen = None
        return game

    @classmethod
    def from_board(cls, board: Board, headers: Optional[Dict[str, str]] = None, result: Optional[str] = None) -> "Game":
        """The game played on `board`: its start position (a FEN tag unless it is
        the variant's start position), its move stack and `result` (default: the
        board's result, `*` while the game goes on)."""
        start = board.root()
        fen: Optional[str] = start.fen()
        if fen == Board(variant=board.variant).fen():
            fen = None
        if result is None:
            result = board.result()
        game = cls(headers, variant=board.variant, setup_fen=fen, result=result)
        game.moves = list(board.move_stack)
        return game

    # --- derived values ---
    @property
    def setup_fen(self) -> Optional[str]:
        """The FEN tag of a game that starts from a set-up position, else None."""
        fen = self.headers.get("FEN")
        return fen.strip() if fen and fen.strip() else None

    @setup_fen.setter
    def setup_fen(self, fen: Optional[str]) -> None:
        if fen is None:
            self.headers.pop("FEN", None)
        else:
            self.headers["FEN"] = fen
        self._end_cache = None

    @property
    def intro(self) -> Optional[str]:
        """The comment before the first move (`comments[-1]`)."""
        return self.comments.get(-1)

    @intro.setter
    def intro(self, text: Optional[str]) -> None:
        if text is None:
            self.comments.pop(-1, None)
        else:
            self.comments[-1] = text

    def board(self) -> Board:
        """A new board at the game's start position."""
        fen = self.setup_fen
        return Board(variant=self.variant) if fen is None else Board(fen, variant=self.variant)

    def _end_board(self) -> Board:
        b = self._end_cache
        if b is None or b.variant != self.variant or b.move_stack != self.moves or self._end_fen != self.setup_fen:
            b = self.board()
            for move in self.moves:
                b.push(move)
            self._end_cache = b
            self._end_fen = self.setup_fen
        return b

    def end(self) -> Board:
        """A new board after all the moves (with them on its move stack);
        raises IllegalMoveError if `moves` holds a move that is not legal."""
        return self._end_board().copy()

    def add_move(self, move: Union[Move, str], comment: Optional[str] = None) -> Move:
        """Play `move` (a Move or move text) at the end of the game and return
        the legal Move stored; raises IllegalMoveError/AmbiguousMoveError."""
        board = self._end_board()
        if isinstance(move, str):
            move = board.parse_move(move)
        legal = board.push(move)
        self.moves.append(legal)
        if comment is not None:
            self.comments[len(self.moves) - 1] = comment
        return legal

    def __str__(self):
        return write_game(self)

    def __repr__(self):
        white = self.headers.get("White", "?")
        black = self.headers.get("Black", "?")
        return f"<Game {white!r} - {black!r} ({self.variant.name}, {len(self.moves)} plies, {self.result})>"


def _names_variant(gametype, variant: Variant) -> bool:
    """Whether a GameType tag value names `variant`'s game type."""
    try:
        return variant_for_gametype(gametype).gametype == variant.gametype
    except VariantError:
        return False


def _needs_variant_tag(variant: Variant) -> bool:
    """Whether the variant's GameType number reads back as another variant (killer's 20)."""
    try:
        return variant_for_gametype(variant.gametype).name != variant.name
    except VariantError:
        return False


def _variant_of_tag(value: str, default: Optional[Variant], variant_tag: Optional[str] = None) -> Variant:
    """The variant a GameType tag names; `default` when it names the same game type
    (so that a variant with options keeps them); else the variant a Variant tag
    names when it has that game type (killer: GameType 20, Variant "killer")."""
    found = variant_for_gametype(value)
    if variant_tag:
        try:
            named = get_variant(variant_tag)
        except VariantError:
            named = None
        if named is not None and named.gametype == found.gametype:
            return default if default is not None and default.name == named.name else named
    if default is not None and default.gametype == found.gametype:
        return default
    return found


# --- reading -------------------------------------------------------------------


class _Source:
    """Lines of the input with their numbers, and a pushed-back remainder."""

    def __init__(self, obj):
        self.line = 0  # number of the last line handed out
        self.games = 0  # games started so far
        self.pending: List[Tuple[int, str]] = []
        self.position = None  # handle.tell() where the last game ended
        self.handle = None
        if isinstance(obj, (bytes, bytearray)):
            obj = _decode(bytes(obj))
        if isinstance(obj, str):
            self._readline = io.StringIO(obj).readline
        elif hasattr(obj, "readline"):
            self._readline = obj.readline
            self.handle = obj
        else:
            raise TypeError(f"read a PDN game from text or a file handle, not {type(obj).__name__}")

    def next(self) -> Optional[Tuple[int, str]]:
        if self.pending:
            return self.pending.pop()
        text = self._readline()
        if not text:
            return None
        if isinstance(text, (bytes, bytearray)):
            text = _decode(bytes(text))
        self.line += 1
        if self.line == 1:
            text = text.lstrip("\ufeff")
        return self.line, text

    def push_back(self, number: int, text: str) -> None:
        self.pending.append((number, text))


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class _GameParser:
    """Reads one game from a _Source: the tags and the movetext's main-line
    move words first, then (`replay`) the moves on a board of the game's
    variant, inferred from the game itself when the reader's variant is auto."""

    def __init__(self, source: _Source, default_variant: Optional[Variant]):
        self.src = source
        self.default = default_variant  # None: infer it (variant="auto")
        self.headers: Dict[str, str] = {}
        self.tag_lines: Dict[str, int] = {}
        self.raw: List[str] = []
        self.error: Optional[PdnError] = None
        self.game: Optional[Game] = None
        self.board: Optional[Board] = None
        self.variants: List[Variant] = []  # where to replay the moves, in order
        self.words: List[Tuple[int, str]] = []  # (line, move text) of the main line
        self.number = 0
        self.found = False  # a tag, a move or a result token was read
        self.result: Optional[str] = None
        self.comment: Optional[List[str]] = None  # open {comment}: its pieces
        self.comment_line = 0
        self.comment_depth = 0  # variation depth where the comment opened
        self.depth = 0  # variation depth
        self.paren_lines: List[int] = []  # lines of the open '('s

    # --- errors ---
    def fail(self, line: int, message: str, token: Optional[str], cause: Optional[BaseException] = None):
        if self.error is not None:
            return
        err = PdnError(
            f"game {self.number}, line {line}: {message}",
            game_number=self.number,
            line=line,
            token=token,
            text="",
            game=None,
        )
        if cause is not None:
            err.__cause__ = cause
        self.error = err

    # --- the parse ---
    def parse(self) -> Optional[Game]:
        src = self.src
        in_moves = False
        blank = False
        while True:
            item = src.next()
            if item is None:
                break
            number, line = item
            stripped = line.strip()
            blank_before, blank = blank, not stripped
            if self.comment is None and (not stripped or line.startswith("%")):
                if self.raw:  # blank and escape lines
                    self.raw.append(line)
                continue
            if not self.number:
                src.games += 1
                self.number = src.games
            if self.comment is None and stripped.startswith("["):
                if not in_moves:
                    self.found = True
                    self.read_tags(number, line)
                    continue
                if not self.found:
                    # only comments so far: they belong to no game; the tags start one
                    src.push_back(number, line)
                    self.raw = []
                    self.game = self.board = None
                    self.words = []
                    self.depth = 0
                    self.paren_lines = []
                    in_moves = False
                    continue
                # the next game's tags: this game ended without a result token
                src.push_back(number, line)
                break
            if self.comment is not None and blank_before and _TAG_LINE.match(line):
                # a comment still open when, after a blank line, the next game's tags begin
                src.push_back(number, line)
                break
            if not in_moves:
                in_moves = True
                self.begin_moves()
            if self.scan(number, line):
                break
        if self.comment is not None:
            self.fail(self.comment_line, "unterminated comment '{'", "{")
        if self.depth:
            self.fail(self.paren_lines[0], "unterminated variation '('", "(")
        if not self.found:
            return None
        if self.game is None:
            self.begin_moves()
        game = self._game()
        game.headers = self.headers
        game.result = self.result if self.result is not None else (self.headers.get("Result") or "*")
        if self.error is None:
            self.replay()
        if self.board is not None and self.error is None:
            game._end_cache = self.board
            game._end_fen = game.setup_fen
        if self.error is not None:
            self.error.text = "".join(self.raw).rstrip() + "\n"
            self.error.game = game
            raise self.error
        return game

    def read_tags(self, number: int, line: str) -> None:
        """Read the tags on a line; movetext after them is pushed back."""
        pos = len(line) - len(line.lstrip())
        while pos < len(line) and line[pos] == "[":
            m = _TAG.match(line, pos)
            if m is None:
                self.fail(number, f"bad tag {line[pos:].strip()!r}", line[pos:].strip())
                break
            name, value = m.group(1), m.group(2)
            if "\\" in value:
                value = re.sub(r'\\(["\\])', r"\1", value)
            self.headers[name] = value
            self.tag_lines[name] = number
            pos = m.end()
            while pos < len(line) and line[pos].isspace():
                pos += 1
        else:
            if pos < len(line):
                self.raw.append(line[:pos])
                self.src.push_back(number, line[pos:])
                return
        self.raw.append(line)

    def _game(self) -> Game:
        """The game being read (begin_moves has made it)."""
        assert self.game is not None, "begin_moves comes first"
        return self.game

    def begin_moves(self) -> None:
        """Choose the variants to replay the moves in from the tags read."""
        gametype = self.headers.get("GameType")
        variant = self.default
        if gametype is not None and gametype.strip():
            try:
                variant = _variant_of_tag(gametype, self.default, self.headers.get("Variant"))
            except VariantError as e:
                self.fail(self.tag_lines.get("GameType", 0), f"unknown GameType {gametype!r}: {e}", gametype, e)
        self.game = Game._empty(variant if variant is not None else get_variant("international"))
        self.game.headers = self.headers
        self.variants = [variant] if variant is not None else []

    def add_comment(self, text: str) -> None:
        text = _SPACE.sub(" ", text).strip()
        game = self._game()
        ply = len(self.words) - 1
        old = game.comments.get(ply)
        game.comments[ply] = text if old is None else (f"{old} {text}" if text else old)

    def scan(self, number: int, line: str) -> bool:
        """Read the movetext on one line; True when the game's result token was read
        or the next game's tags begin on it (the rest of the line is pushed back)."""
        pos = 0
        n = len(line)
        # _TOKEN matches at every position (its one group is optional)
        token: Callable[[str, int], Match[str]] = _TOKEN.match  # type: ignore[assignment]
        while pos < n:
            if self.comment is not None:
                close = line.find("}", pos)
                if close < 0:
                    self.comment.append(line[pos:])
                    break
                self.comment.append(line[pos:close])
                if self.comment_depth == 0:
                    self.add_comment("".join(self.comment))
                self.comment = None
                pos = close + 1
                continue
            m = token(line, pos)
            word = m.group(1)
            if word is None:  # only spaces are left
                break
            ch = word[0]
            if ch == "{":
                self.comment = []
                self.comment_line = number
                self.comment_depth = self.depth
                pos = m.end()
            elif ch == ";":
                if self.depth == 0:
                    self.add_comment(line[m.end() :])
                break
            elif ch == "(":
                self.depth += 1
                self.paren_lines.append(number)
                pos = m.end()
            elif ch == ")":
                if self.depth == 0:
                    self.fail(number, "')' without a variation to close", ")")
                else:
                    self.depth -= 1
                    self.paren_lines.pop()
                pos = m.end()
            elif ch == "}":
                self.fail(number, "'}' without a comment to close", "}")
                pos = m.end()
            elif ch == "[":
                # tags glued to the movetext (`0-1[Event ...`): the next game begins
                self.raw.append(line[: m.start(1)])
                self.src.push_back(number, line[m.start(1) :])
                return True
            else:
                pos = m.end()
                if word[-1] in "-x:" and word[0].isdigit():
                    # a square padded with a space (`1- 6`, `28x 6`), which PDN 3.0 allows
                    pad = _PADDED.match(line, pos)
                    if pad is not None:
                        word += pad.group(1)
                        pos = pad.end()
                if self.depth:
                    continue
                if word in RESULT_TOKENS:
                    self.result = word
                    self.found = True
                    self.raw.append(line[:pos])
                    rest = line[pos:]
                    if rest.strip():
                        self.src.push_back(number, rest)
                    return True
                self.word(number, word)
        self.raw.append(line)
        return False

    def word(self, number: int, word: str) -> None:
        m = _MOVE_WORD.match(word)
        if m is None:
            if _NAG.match(word) or _SUFFIX.match(word) or set(word) <= {"."}:
                return
            mn = _MOVE_NUMBER.match(word)
            if mn is not None:
                word = mn.group(3)
                if not word or set(word) <= {"."}:
                    return
            text = _SUFFIX.sub("", word)
            if _GLUED_NAMES.fullmatch(text):  # `a3b4`: algebraic squares with no separator
                text = "-".join(_NAME.findall(text))
        else:
            text = m.group(1)
        self.found = True
        self.words.append((number, text))

    # --- the moves ---
    def replay(self) -> None:
        """Play the words on a board of the game's variant (the first variant, in
        `_auto_variants` order, in which every one is legal when it is inferred)."""
        game = self._game()
        fen = game.setup_fen
        inferred = not self.variants
        variants = self.variants or _auto_variants(fen, self.words)
        best: Optional[Tuple[int, PdnError, Optional[Board], Variant]] = None  # the failed replay that went furthest
        for variant in variants:
            self.error = None
            board = self.start_board(variant, fen)
            if board is not None:
                board = self.play(board, 0)
            if self.error is None and board is not None:
                game.variant = variant
                game.variant_inferred = inferred
                self.board = board
                game.moves = list(board.move_stack)
                return
            played = len(board.move_stack) if board is not None else -1
            if self.error is not None and (best is None or played > best[0]):
                best = (played, self.error, board, variant)
        assert best is not None, "a replay that failed in every variant has its error"
        _, err, board, variant = best
        if inferred and len(variants) > 1:
            tried = ", ".join(v.name for v in variants)
            err.args = (f"{err.args[0]} (no GameType: the moves fit none of {tried}; read as {variant.name})",)
        self.error = err
        game.variant = variant
        game.moves = list(board.move_stack) if board is not None else []

    def start_board(self, variant: Variant, fen: Optional[str]) -> Optional[Board]:
        try:
            return Board(variant=variant) if fen is None else Board(fen, variant=variant)
        except ValueError as e:  # FenError, or the core refusing it
            self.fail(self.tag_lines.get("FEN", 0), f"bad FEN {fen!r}: {e}", fen, e)
            return None

    def play(self, board: Board, start: int) -> Board:
        """Play words[start:] on `board`; on an error, `self.error` is set and the
        board holds the moves up to it.  A short capture that names several
        legal moves (the file's fault) is the one after which the rest of the
        game is legal, if exactly one is."""
        words = self.words
        for i in range(start, len(words)):
            number, text = words[i]
            try:
                # PDN writes landing squares: a longer text is a path, never the Hub form
                board.push_text(text, hub=False)
            except AmbiguousMoveError as e:
                fits = []
                for cand in e.candidates:
                    branch = board.copy()
                    branch.push(cand)
                    self.error, saved = None, self.error
                    branch = self.play(branch, i + 1)
                    if self.error is None:
                        fits.append(branch)
                    self.error = saved
                if len(fits) == 1:
                    return fits[0]
                label = _move_label(board, board.variant)
                why = "" if fits else "; the game goes on after none of them"
                self.fail(number, f"ambiguous move {label} {text} ({e}{why})", text, e)
                return board
            except IllegalMoveError as e:
                self.fail(number, f"illegal move {_move_label(board, board.variant)} {text} ({e})", text, e)
                return board
            except InvalidMoveError as e:
                self.fail(
                    number, f"unreadable token {text!r} at move {_move_label(board, board.variant)} ({e})", text, e
                )
                return board
        return board


def _auto_variants(fen: Optional[str], words: List[Tuple[int, str]]) -> List[Variant]:
    """The variants a game without a GameType may be, in the order tried (see
    `read_games`): a square above 32 means 10x10; algebraic squares or `:`
    captures the russian family; else the 8x8 numeric variants, then
    international."""
    text = " ".join(w for _, w in words)
    if fen:  # its squares, without colours and K prefixes
        for field in fen.split(":")[1:]:
            text += " " + field.strip()[1:].replace("K", "").replace(",", " ")
    numbers = [int(n) for n in _DIGITS.findall(_ALGEBRAIC.sub(" ", text))]
    if numbers and max(numbers) > 32:
        names = AUTO_ORDER_10X10
    elif _ALGEBRAIC.search(text) or any(":" in w for _, w in words):
        names = AUTO_ORDER_ALGEBRAIC
    else:
        names = AUTO_ORDER_NUMERIC
    return [get_variant(name) for name in names]


def _move_label(board: Board, variant: Variant) -> str:
    """`3.` or `3...`: the move number of the next move on a game's board."""
    ply = len(board.move_stack)
    start_turn = board.turn if ply % 2 == 0 else ~board.turn
    dots = "." if board.turn == variant.first else "..."
    number = ply // 2 + 1 if start_turn == variant.first else (ply + 1) // 2 + 1
    return f"{number}{dots}"


#: The order in which `variant="auto"` tries variants for a game without a GameType.
AUTO_ORDER_10X10: Tuple[str, ...] = ("international",)
AUTO_ORDER_ALGEBRAIC: Tuple[str, ...] = ("czech", "russian", "brazilian")
AUTO_ORDER_NUMERIC: Tuple[str, ...] = (
    "american",
    "italian",
    "spanish",
    "czech",
    "russian",
    "brazilian",
    "international",
)


class GameReader:
    """Iterator over the games of a PDN text or handle (see `read_games`).

    With errors="raise" a bad game raises PdnError from `next()`, but the
    reader stays usable: the next `next()` reads the following game.  With
    errors="skip" bad games are left out and their errors collected in
    `errors`.
    """

    def __init__(self, source, *, variant: Union[str, Variant, None] = None, errors: str = "raise"):
        if errors not in ("raise", "skip"):
            raise ValueError(f"errors must be 'raise' or 'skip', not {errors!r}")
        self._source = _source_for(source)
        auto = isinstance(variant, str) and variant == "auto"
        self._variant = None if auto else get_variant(variant if variant is not None else "international")
        self._mode = errors
        self.errors: List[PdnError] = []
        self._done = False

    def __iter__(self) -> "GameReader":
        return self

    def __next__(self) -> Game:
        game = self.read()
        if game is None:
            raise StopIteration
        return game

    def read(self) -> Optional[Game]:
        """The next game, or None at the end of the input."""
        source = self._source
        try:
            while not self._done:
                try:
                    game = _GameParser(source, self._variant).parse()
                except PdnError as e:
                    if self._mode == "raise":
                        raise
                    self.errors.append(e)
                    continue
                if game is None:
                    self._done = True
                    return None
                return game
            return None
        finally:
            if source.handle is not None:
                source.position = _tell(source.handle)


_SOURCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _source_for(obj) -> _Source:
    """A text's lines, or the reading state kept between calls on one handle
    (it is started afresh when the handle was moved since the last game)."""
    if isinstance(obj, _Source):
        return obj
    if isinstance(obj, (str, bytes, bytearray)):
        return _Source(obj)
    try:
        source = _SOURCES.get(obj)
    except TypeError:  # a handle without weak references
        return _Source(obj)
    here = _tell(obj)
    if source is None or (here is not None and source.position != here):
        source = _Source(obj)
        _SOURCES[obj] = source
    return source


def _tell(handle):
    try:
        return handle.tell()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return None


def read_game(handle_or_text, *, variant: Union[str, Variant, None] = None, errors: str = "raise") -> Optional[Game]:
    """The next game of a PDN text or file handle, or None at the end of the input.

    A text is read from its start (its first game).  A handle is read from
    where the last call left it, so repeated calls read game after game.
    `variant` is used for games without a GameType tag (default
    international).  A bad game raises PdnError after it has been read to its
    end (errors="skip": it is passed over and the next good game returned).
    """
    return GameReader(handle_or_text, variant=variant, errors=errors).read()


def read_games(handle_or_text, *, variant: Union[str, Variant, None] = None, errors: str = "raise") -> GameReader:
    """An iterator over every game of a PDN text or file handle.

    `variant` is the variant of games without a GameType tag (default
    international).  variant="auto" infers it from the game: a square above
    32 (in the FEN or the moves) means international; algebraic squares or `:`
    captures try czech, russian, brazilian; numbers try american, italian,
    spanish, czech, russian, brazilian, international.  The game is read in
    the first of these in which its FEN is valid and every move legal (czech
    before russian and american first because their rules are the stricter
    ones: a game that breaks them is tried further on), and
    `game.variant_inferred` is True.  A game with a GameType is always read
    as the GameType says.

    errors="raise": a bad game raises PdnError (catch it and go on iterating
    to read the games after it).  errors="skip": bad games are left out; the
    iterator's `errors` list holds their PdnErrors (each with `.text`, the
    game's text, and `.game`, the game read up to the error).
    """
    return GameReader(handle_or_text, variant=variant, errors=errors)


# --- writing -------------------------------------------------------------------


def _tag_value(value) -> str:
    text = re.sub(r"[\r\n\t]", " ", str(value))
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _comment_units(text: str) -> List[str]:
    words = _SPACE.sub(" ", str(text).replace("}", "")).strip().split(" ")
    words = [w for w in words if w]
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def write_game(game: Game, *, width: Optional[int] = 79) -> str:
    """The game as PDN text (ending with a newline): tags, a blank line, the
    movetext wrapped at `width` characters (None: one line).

    Tags: the seven-tag roster (those present), GameType (the tag as given if
    it names the game's variant, else the variant's `pdn_gametype`), FEN,
    then the other tags in their order.  The Result tag and the final token
    are both `game.result`.  Comments lose `}` (PDN cannot escape it).
    """
    result = game.result or "*"
    if result not in RESULT_TOKENS:
        raise ValueError(f"{result!r} is not a PDN result token")
    headers = dict(game.headers)
    headers["Result"] = result
    gametype = headers.get("GameType")
    if gametype is None or not _names_variant(gametype, game.variant):
        gametype = game.variant.pdn_gametype
    headers["GameType"] = gametype
    fen = game.setup_fen
    headers.pop("FEN", None)
    order = [n for n in ROSTER if n in headers] + ["GameType"]
    lines = []
    for name in order:
        lines.append(f'[{name} "{_tag_value(headers[name])}"]')
    if fen is not None:
        lines.append(f'[FEN "{_tag_value(fen)}"]')
    for name, value in headers.items():
        if name in order:
            continue
        if not _TAG_NAME.match(name):
            raise ValueError(f"{name!r} is not a PDN tag name (letters, digits and _)")
        lines.append(f'[{name} "{_tag_value(value)}"]')

    units: List[str] = []
    comments = game.comments
    if comments.get(-1) is not None:
        units.extend(_comment_units(comments[-1]))
    board = game.board()
    first = game.variant.first
    number = 1
    after_comment = comments.get(-1) is not None
    for ply, move in enumerate(game.moves):
        if move not in board.legal_moves:
            raise IllegalMoveError(f"move {ply + 1} of the game, {move}, is not legal in {board.fen()}")
        text = board.move_text(move)
        if board.turn == first:
            units.append(f"{number}. {text}")
        else:
            units.append(f"{number}... {text}" if (ply == 0 or after_comment) else text)
            number += 1
        board.push(move)
        after_comment = comments.get(ply) is not None
        if after_comment:
            units.extend(_comment_units(comments[ply]))
    units.append(result)

    out = "\n".join(lines) + "\n\n" + _wrap(units, width) + "\n"
    return out


def _wrap(units: List[str], width: Optional[int]) -> str:
    if not width or width <= 0:
        return " ".join(units)
    lines: List[str] = []
    current = ""
    for unit in units:
        if not current:
            current = unit
        elif len(current) + 1 + len(unit) <= width:
            current += " " + unit
        else:
            lines.append(current)
            current = unit
    if current:
        lines.append(current)
    return "\n".join(lines)


def write_games(games: Iterable[Game], *, width: Optional[int] = 79) -> str:
    """Several games, a blank line between them."""
    return "\n".join(write_game(g, width=width) for g in games)

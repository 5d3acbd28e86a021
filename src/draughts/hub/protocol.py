"""The Hub protocol's text: lines, positions and moves.

Pure functions, shared by the engine server (`draughts.hub.server`) and the
client (`draughts.hub.client`) so that the two cannot drift apart.

    >>> parse_line('pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves="32-28 19-23"')
    ('pos', {'pos': 'Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww', 'moves': '32-28 19-23'})
    >>> format_line("info", {"depth": 3, "pv": "32-28 19-23"})
    'info depth=3 pv="32-28 19-23"'

A line is a command word, then `name=value` pairs; a value is written in
double quotes when it holds a space or `=` or is empty, and a bare `name` is a
flag with an empty value.  The Hub protocol has no escape for `"`, so
`format_line` writes a `"` inside a value as `'`, and any control character as
a space: every line it writes is one line that `parse_line` reads back.

Positions are the side to move (`W` or `B`) and one letter per playable square
in the variant's square-number order: `w b W B e` (51 characters on 10x10,
Scan's form, and 33 on 8x8).  Moves are `from-to` or `start x end x captured...`
with the captured squares in any order, always numeric (russian, brazilian and
czech use the american grid's numbers).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from draughts.options import HUB_ALIASES
from draughts._args import a_or_an, is_int, parse_bool, parse_int, parse_real
from draughts.limits import NODES_MAX, Limit
from draughts.board import Board, Move
from draughts.engine_api import Info
from draughts.errors import (
    AmbiguousMoveError,
    HubError,
    HubPositionError,
    HubSyntaxError,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    OptionError,
)
from draughts.notation import format_fen, squares_of
from draughts.variants import BLACK, WHITE, Color, Variant, variant as get_variant

__all__ = [
    "HubError",
    "HubSyntaxError",
    "HubPositionError",
    "parse_line",
    "format_line",
    "format_value",
    "parse_position",
    "format_position",
    "board_from_position",
    "root_board",
    "parse_move",
    "match_move",
    "legal_matches",
    "parse_bool",
    "quote",
    "Param",
    "parse_info",
    "HUB_ALIASES",
    "engine_variant_name",
    "parse_level",
]

Args = Dict[str, str]
ArgValue = Union[str, int, float, bool, None]


# --- lines -------------------------------------------------------------------


def quote(text: str, limit: int = 40) -> str:
    """`text` quoted for an error message, cut to its first `limit` characters
    (an error names bad input; it never echoes a long line whole).

    >>> quote("fly")
    "'fly'"
    >>> quote("x" * 100, 5)
    "'xxxxx'... (100 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def parse_line(line: str) -> Tuple[str, Args]:
    """(command, args) of one protocol line; args keep their order.

    A blank line gives ("", {}).  A bare name gives the value "" (a flag).
    When a name is repeated the last value wins.  Raises HubSyntaxError.
    """
    if not isinstance(line, str):
        raise HubSyntaxError(f"a protocol line is text, not {type(line).__name__}")
    text = line.strip()
    n = len(text)
    i = 0
    command = ""
    args: Args = {}
    first = True
    while i < n:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            break
        start = i
        while i < n and not text[i].isspace() and text[i] not in '="':
            i += 1
        name = text[start:i]
        if i < n and text[i] == '"':
            raise HubSyntaxError(f"unexpected quote at column {i + 1}")
        has_value = i < n and text[i] == "="
        if not name:
            raise HubSyntaxError(f"a value with no name at column {i + 1}")
        if first:
            if has_value:
                raise HubSyntaxError(f"a line starts with a command word, not {name}=...")
            command = name
            first = False
            continue
        if not has_value:
            args[name] = ""
            continue
        i += 1  # the '='
        if i < n and text[i] == '"':
            close = text.find('"', i + 1)
            if close < 0:
                raise HubSyntaxError(f"the value of {name} has no closing quote")
            value = text[i + 1 : close]
            i = close + 1
            if i < n and not text[i].isspace():
                raise HubSyntaxError(f"text right after the closing quote of {name}")
        else:
            start = i
            while i < n and not text[i].isspace():
                i += 1
            value = text[start:i]
        args[name] = value
    return command, args


def format_value(value: ArgValue) -> str:
    """The text of a value: booleans as true/false, other values as str()."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _clean(text: str) -> str:
    out = []
    for c in text:
        if c == '"':
            out.append("'")
        elif c.isspace() or ord(c) < 32 or 0x7F <= ord(c) < 0xA0:
            out.append(" ")
        else:
            out.append(c)
    return "".join(out)


def _check_name(name: str) -> None:
    if not name or any(c.isspace() or c in '="' or ord(c) < 32 for c in name):
        raise ValueError(f"{name!r} cannot be a protocol word")


def format_line(command: str, args: Union[Mapping[str, ArgValue], Iterable[Tuple[str, ArgValue]], None] = None) -> str:
    """One protocol line.  A value of None writes a bare flag; a value holding a
    space or `=`, or an empty one, is written in quotes."""
    _check_name(command)
    parts = [command]
    items = args.items() if isinstance(args, Mapping) else (args or ())
    for name, value in items:
        _check_name(name)
        if value is None:
            parts.append(name)
            continue
        text = _clean(format_value(value))
        if not text or "=" in text or any(c.isspace() for c in text):
            parts.append(f'{name}="{text}"')
        else:
            parts.append(f"{name}={text}")
    return " ".join(parts)


# --- variants ------------------------------------------------------------------


def engine_variant_name(variant: Variant, names: Sequence[str]) -> Optional[str]:
    """The value of an engine's `variant` parameter, whose values are `names`
    (empty: any), that selects `variant`; None when the engine does not play it.

    >>> engine_variant_name(get_variant("international"), ["normal", "killer"])
    'normal'
    >>> engine_variant_name(get_variant("russian"), ["normal"]) is None
    True
    """
    if not names or variant.name in names:
        return variant.name
    return next((alias for alias in HUB_ALIASES.get(variant.name, ()) if alias in names), None)


# --- positions ---------------------------------------------------------------


def _variant(v: Union[str, Variant]) -> Variant:
    return get_variant(v)


def parse_position(text: str, v: Union[str, Variant]):
    """(white, black, kings, turn) of a position string, as internal squares."""
    v = _variant(v)
    if not isinstance(text, str):
        raise HubPositionError(f"a position is text, not {type(text).__name__}")
    t = text.strip()
    want = v.squares + 1
    if len(t) != want:
        raise HubPositionError(
            f"{a_or_an(v.name)} position has {want} characters (the side to move, then "
            f"one of w b W B e per square), not {len(t)}"
        )
    side = t[0]
    if side not in "WB":
        raise HubPositionError(f"a position starts with the side to move W or B, not {side!r}")
    sq = squares_of(v)
    white: List[int] = []
    black: List[int] = []
    kings: List[int] = []
    for number, c in enumerate(t[1:], start=1):
        i = sq.internal[number]
        if c == "e":
            continue
        if c in "wW":
            white.append(i)
        elif c in "bB":
            black.append(i)
        else:
            raise HubPositionError(f"square {number} holds {c!r}; a square is one of w b W B e")
        if c in "WB":
            kings.append(i)
    return white, black, kings, WHITE if side == "W" else BLACK


def board_from_position(text: str, v: Union[str, Variant]) -> Board:
    """A Board (no history) set up from a position string."""
    v = _variant(v)
    white, black, kings, turn = parse_position(text, v)
    fen = format_fen(v, white, black, kings, turn, numeric=True)
    try:
        return Board(fen, variant=v)
    except InvalidInputError as e:
        raise HubPositionError(f"impossible {v.name} position: {e}") from None


def format_position(board: Board) -> str:
    """The position string of the board's current position."""
    v = board.variant
    sq = squares_of(v)
    white, black, kings = board.position.pieces()
    cells = ["e"] * v.squares
    ks = set(kings)
    for i in white:
        cells[sq.number[i] - 1] = "W" if i in ks else "w"
    for i in black:
        cells[sq.number[i] - 1] = "B" if i in ks else "b"
    return Color(board.turn).letter + "".join(cells)


def root_board(board: Board) -> Board:
    """A copy of the board taken back to the start of its move stack (`Board.root`)."""
    return board.root()


# --- moves -------------------------------------------------------------------

_QUIET = re.compile(r"([0-9]{1,3})-([0-9]{1,3})")
_CAPTURE = re.compile(r"[0-9]{1,3}(?:[xX][0-9]{1,3})+")


def parse_move(text: str) -> Tuple[int, int, Tuple[int, ...]]:
    """(start, end, captured squares as written) of Hub move text.

    `32-28` is a quiet move; `28x19x23` is start, end, then the captured squares
    in any order.  Raises InvalidMoveError.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is text, not {type(text).__name__}")
    t = text.strip()
    m = _QUIET.fullmatch(t)
    if m:
        return int(m.group(1)), int(m.group(2)), ()
    if _CAPTURE.fullmatch(t):
        squares = [int(s) for s in re.split(r"[xX]", t)]
        return squares[0], squares[1], tuple(squares[2:])
    raise InvalidMoveError(f"{text!r} is not a Hub move (32-28, or 28x19x23: start x end x captured)")


def legal_matches(board: Board, text: str) -> List[Move]:
    """The legal moves that Hub move text names (by start, end and captured set).

    A capture written without its captured squares (`28x19`) names every legal
    capture from its start to its end.
    """
    start, end, captured = parse_move(text)
    is_capture = "x" in text.lower()
    capset = frozenset(captured)
    if len(capset) != len(captured):
        raise InvalidMoveError(f"{text!r} names a captured square twice")
    out = []
    for m in board.legal_moves:
        if m.start != start or m.end != end or bool(m.captured) != is_capture:
            continue
        if captured and (len(m.captured) != len(captured) or frozenset(m.captured) != capset):
            continue
        out.append(m)
    return out


def match_move(board: Board, text: str) -> Move:
    """The one legal move that Hub move text names.

    Raises InvalidMoveError (not move text), IllegalMoveError (no legal move
    matches) or AmbiguousMoveError (several do).
    """
    cands = legal_matches(board, text)
    if not cands:
        raise IllegalMoveError(f"{text.strip()} is not a legal move in {board.fen(numeric=True)}")
    if len(cands) > 1:
        names = ", ".join("x".join(str(s) for s in m.path) for m in cands)
        raise AmbiguousMoveError(f"{text.strip()} is ambiguous: it matches {names}", cands)
    return cands[0]


# --- values the client and the server share ------------------------------------------


def parse_level(args: Mapping[str, str]) -> Limit:
    """The `Limit` of a `level` line's arguments; HubError naming what is wrong.

    >>> parse_level({"moves": "40", "time": "60", "inc": "0.5"})
    Limit(depth=None, nodes=None, movetime=None, time=60.0, inc=0.5, moves_to_go=40, infinite=False)
    """

    def number(name: str, whole: bool) -> Any:
        text = args[name]
        try:
            value = parse_int(text) if whole else parse_real(text)
        except ValueError:
            raise HubError(f"level {name}= takes a number, not {quote(text)}") from None
        if value < (1 if whole else 0) or (whole and value > NODES_MAX):
            raise HubError(f"level {name}= is out of range: {quote(text)}")
        return value

    fields: Dict[str, Any] = {}
    for key, name, whole in (
        ("depth", "depth", True),
        ("nodes", "nodes", True),
        ("move-time", "movetime", False),
        ("time", "time", False),
    ):
        if key in args:
            fields[name] = number(key, whole)
    if "time" in args:
        if "inc" in args:
            fields["inc"] = number("inc", False)
        if "moves" in args:
            fields["moves_to_go"] = number("moves", True)
    elif "inc" in args or "moves" in args:
        raise HubError("level moves= and inc= need time=")
    if "infinite" in args:
        fields["infinite"] = True
    if not fields:
        raise HubError("level needs depth=, nodes=, move-time=, [moves=] time= [inc=] or infinite")
    try:
        return Limit(**fields)
    except InvalidInputError as e:
        raise HubError(f"level: {e}") from None


@dataclass
class Param:
    """A parameter an engine declares with a `param` line: the one description
    both sides use (the server declares and checks its own, the client reads an
    engine's).  `value` is the current value: typed on the server's side, the
    text of the line on the client's."""

    name: str
    type: str  # bool, int, real, enum or string
    value: Any
    min: Optional[float] = None
    max: Optional[float] = None
    values: List[str] = field(default_factory=list)

    @classmethod
    def from_args(cls, args: Mapping[str, str]) -> "Param":
        """The parameter a `param` line declares."""

        def num(key):
            try:
                text = args[key]
                return parse_int(text) if is_int(text) else parse_real(text)
            except (KeyError, ValueError):
                return None

        return cls(
            args.get("name", ""),
            args.get("type", "string"),
            args.get("value", ""),
            num("min"),
            num("max"),
            args.get("values", "").split(),
        )

    def line(self) -> str:
        """The `param` line declaring it."""
        args: List[Tuple[str, ArgValue]] = [("name", self.name), ("value", self.value), ("type", self.type)]
        if self.min is not None:
            args.append(("min", self.min))
        if self.max is not None:
            args.append(("max", self.max))
        if self.values:
            args.append(("values", " ".join(self.values)))
        return format_line("param", args)

    def parse(self, text: str) -> Any:
        """A `set-param` value of this parameter as its type; ValueError naming
        the parameter and what it takes."""
        if self.type == "bool":
            return parse_bool(text, self.name)
        if self.type == "int":
            low = None if self.min is None else math.ceil(self.min)
            high = None if self.max is None else math.floor(self.max)
            return parse_int(text, self.name, low, high)
        if self.type == "real":
            return parse_real(text, self.name, self.min, self.max)
        if self.type == "enum" and text not in self.values:
            raise OptionError(f"{self.name} takes one of {', '.join(self.values)}, not {quote(text)}", self.name, text)
        return text


def parse_info(args: Mapping[str, str], board: Optional[Board] = None) -> Info:
    """An `info` line's values as an `Info`: `pv` as moves of `board` (as far
    as they are legal; none without a board), `multipv` (this project's
    extension: which line, 1 the best), `egdb-hits`; what it does not know
    (or cannot read) goes to `Info.extra` as text.  A score in Scan's range
    for a won position (above 90 men) also gives `win_in` in plies."""
    info = Info()
    for key, value in args.items():
        try:
            if key in ("depth", "nodes", "seldepth", "multipv", "egdb-hits"):
                setattr(info, key.replace("-", "_"), parse_int(value))
            elif key in ("score", "time"):
                setattr(info, key, parse_real(value))
            elif key == "nps":
                info.nps = parse_real(value) * 1e6  # the protocol's are millions
            elif key == "pv":
                info.pv = _pv_moves(board, value) if board is not None else []
            else:
                info.extra[key] = value
        except ValueError:
            info.extra[key] = value
    score = info.score
    if score is not None and 90.0 < abs(score) <= 100.0:
        plies = round((100.0 - abs(score)) * 100)
        info.win_in = plies if score > 0 else -plies
    return info


def _pv_moves(board: Board, text: str) -> List[Move]:
    moves = []
    b = board.copy(stack=False)
    for word in text.split():
        try:
            m = match_move(b, word)
        except InvalidInputError:
            break
        moves.append(m)
        b.push(m)
    return moves

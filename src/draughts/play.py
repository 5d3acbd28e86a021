"""`draughts play` (a game against the engine in the terminal) and
`draughts analyze` (a streamed analysis of one position).

The game is plain text read line by line, so it works in any terminal and
from a pipe.  The board is drawn for the human's side (their men at the
bottom), with the variant's own square labels, and the last move marked.
"""

from __future__ import annotations

import argparse
import datetime
import re
import sys
import textwrap
from typing import Callable, List, Optional, Sequence

from draughts._args import add_variant_options, int_type, positive_int, real_type, variant_from_args
from draughts import pdn
from draughts.board import Board, Move, Outcome, Termination
from draughts.diagram import ASCII_PIECES, UNICODE_PIECES, diagram
from draughts.engine import LEVEL_MAX, Engine
from draughts.engine_api import Info
from draughts.limits import Limit
from draughts.errors import (
    AmbiguousMoveError,
    DraughtsError,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    PdnError,
)
from draughts.notation import MOVE_SEPARATOR, split_move, square_text, squares_of
from draughts.variants import BLACK, WHITE, Color

#: a draw offer is accepted when the engine's own score is at most this (in men)
DRAW_ACCEPT_SCORE = 0.2
DEFAULT_MOVETIME = 1.0
DEFAULT_SAVE_FILE = "draughts-game.pdn"


def colour_name(color: Color) -> str:
    return "White" if color == WHITE else "Black"


# --- the text board -----------------------------------------------------------


def render(board: Board, *, flipped: bool = False, ascii: bool = False, lastmove: Optional[Move] = None) -> str:
    """The board framed as the game shows it (`draughts.diagram.diagram`)."""
    return diagram(board, ascii=ascii, flipped=flipped, framed=True, lastmove=lastmove)


def legend(ascii: bool = False) -> str:
    wm, wk, bm, bk = ASCII_PIECES if ascii else UNICODE_PIECES
    taken = "x" if ascii else "×"
    return f"{wm} white man  {wk} white king  {bm} black man  {bk} black king  [ ] last move  {taken} taken"


# --- move text helpers -----------------------------------------------------------


def full_text(board: Board, move: Move) -> str:
    """The whole path of a move in the variant's notation."""
    v = board.variant
    sq = squares_of(v)
    sep = v.capture_separator if move.captured else "-"
    return sep.join(square_text(v, sq.internal[s]) for s in move.path)


def pv_text(board: Board, pv: Sequence[Move]) -> str:
    """A principal variation in the variant's notation with move numbers,
    from `board`'s position (`Board.variation_str`), as far as it is legal."""
    b = board.copy(stack=False)
    legal = []
    for m in pv:
        if not b.is_legal(m):
            break
        legal.append(m)
        b.push(m)
    return board.variation_str(legal)


def score_text(score: float, win_in: Optional[int] = None) -> str:
    if win_in is not None:
        return f"win in {win_in}" if win_in > 0 else f"loss in {-win_in}"
    return f"{score:+.2f}"


def legal_list(board: Board, width: int = 78) -> str:
    moves = ", ".join(board.move_text(m) for m in board.legal_moves)
    return textwrap.fill(f"Legal moves: {moves}", width=width, subsequent_indent="  ")


def explain_illegal(board: Board, text: str) -> str:
    """Why well-formed move text is not a legal move here, in words."""
    v = board.variant
    sq = squares_of(v)
    try:
        nums = [sq.number[sq.parse(p)] for p in split_move(text) if p]
    except ValueError as e:
        return str(e)
    if len(nums) < 2:
        return f"{text!r} is not a move"
    start, end = nums[0], nums[-1]
    name = lambda num: square_text(v, sq.internal[num])  # noqa: E731
    legal = list(board.legal_moves)
    piece = board.piece_at(start)
    if piece is None:
        return f"there is no piece on {name(start)}"
    if piece.color != board.turn:
        return f"the piece on {name(start)} is {colour_name(piece.color)}'s, and {colour_name(board.turn)} is to move"
    kind = "king" if piece.king else "man"
    from_start = [m for m in legal if m.start == start]
    must_capture = v.mandatory_capture and any(m.is_capture for m in legal)
    if must_capture:
        rule = "capturing is compulsory"
        if v.majority_capture:
            rule += ", and you must take the most pieces"
        if v.prefer_king_mover and not v.prefer_more_kings:
            rule += " (with a king, when a king can capture)"
        elif v.prefer_king_mover or v.prefer_more_kings or v.prefer_early_kings:
            rule += f" (then the {v.name} precedence rules choose among the captures)"
        if not from_start:
            return f"{rule}: the {kind} on {name(start)} has no capture that is allowed"
        if any(m.end == end for m in from_start):
            return f"{rule}, and that capture path is not one of the allowed ones"
        return f"{rule}: the {kind} on {name(start)} cannot end a capture on {name(end)}"
    if not from_start:
        return f"the {kind} on {name(start)} has no legal move"
    if any(m.end == end for m in from_start):
        return "no legal capture takes that path"
    if not piece.king:
        return f"the man on {name(start)} cannot go to {name(end)} (men move one square diagonally forward)"
    return f"the king on {name(start)} cannot go to {name(end)}"


# --- the game -----------------------------------------------------------------

HELP = f"""\
Type a move in the variant's notation (for example {{example}}), or a command:
  moves            list the legal moves
  hint             ask the engine for a move
  undo             take back your last move (and the engine's reply)
  draw             offer a draw: the engine accepts when its own score
                   is +{DRAW_ACCEPT_SCORE:.2f} men or less (it is not ahead)
  resign           give up the game
  fen              show the position as FEN
  save [FILE]      save the game as PDN (default {DEFAULT_SAVE_FILE})
  history          show the moves so far
  board            show the board again
  flip             turn the board round
  help             this text
  quit             leave (end of input does the same)"""


class PlaySession:
    """A game between a person (reading `read`, writing `write`) and the engine."""

    def __init__(
        self,
        board: Board,
        human: Color,
        engine: Engine,
        *,
        movetime: Optional[float] = DEFAULT_MOVETIME,
        depth: Optional[int] = None,
        ascii: bool = False,
        write: Optional[Callable[[str], None]] = None,
        read: Optional[Callable[[str], str]] = None,
        advisor: Optional[Engine] = None,
    ):
        self.board = board
        self.human = human
        self.engine = engine
        self.movetime = movetime
        self.depth = depth
        self.ascii = ascii
        self.flipped = human == BLACK
        self._write = write or (lambda s: (sys.stdout.write(s + "\n"), sys.stdout.flush()))
        self._read = read or input
        self._advisor = advisor
        self.ended: Optional[Outcome] = None  # resignation or agreement
        self._announced = False

    # --- output
    def say(self, text: str = "") -> None:
        self._write(text)

    def show(self) -> None:
        b = self.board
        last = b.move_stack[-1] if b.move_stack else None
        v = b.variant
        self.say("")
        self.say(render(b, flipped=self.flipped, ascii=self.ascii, lastmove=last))
        self.say(legend(self.ascii))
        status = f"{v.name}: you play {colour_name(self.human)}"
        if last is not None:
            mover = ~b.turn
            status += f"; last move {colour_name(mover)} {self._text_before(last)}"
        if self.outcome() is None:
            status += f"; {colour_name(b.turn)} to move"
        self.say(status)

    def _text_before(self, move: Move) -> str:
        """Notation of the board's last move (`move`), as written before it was played."""
        b = self.board.copy()
        b.pop()
        return b.move_text(move)

    # --- state
    def outcome(self) -> Optional[Outcome]:
        return self.ended or self.board.outcome()

    def result(self) -> str:
        o = self.outcome()
        return "*" if o is None else o.result(self.board.variant)

    def advisor(self) -> Engine:
        """A full-strength engine for hints and draw offers."""
        if self._advisor is None:
            if self.engine.level >= LEVEL_MAX:
                self._advisor = self.engine
            else:
                self._advisor = Engine(self.board.variant, tt_mb=16)
        return self._advisor

    def _limit(self) -> Limit:
        if self.depth is not None:
            return Limit(depth=self.depth)
        return Limit(movetime=self.movetime if self.movetime is not None else DEFAULT_MOVETIME)

    # --- the loop
    def run(self) -> int:
        b = self.board
        self.say(
            f"{b.variant.description or b.variant.name}. You play {colour_name(self.human)}; "
            f"type help for the commands."
        )
        self.show()
        while True:
            outcome = self.outcome()
            if outcome is not None:
                if not self._announced:
                    self.announce(outcome)
                    self._announced = True
                prompt = "game over> "
            elif b.turn != self.human:
                self.engine_move()
                continue
            else:
                prompt = f"{colour_name(self.human)} to move> "
            try:
                line = self._read(prompt)
            except EOFError:
                self.say("")
                self.say("End of input: goodbye.")
                return 0
            except KeyboardInterrupt:
                self.say("")
                self.say("Interrupted: goodbye.")
                return 0
            if self.handle(line.strip()) == "quit":
                return 0

    def announce(self, outcome: Outcome) -> None:
        v = self.board.variant
        if outcome.winner is None:
            who = "Draw"
        elif outcome.winner == self.human:
            who = f"You win ({colour_name(outcome.winner)})"
        else:
            who = f"The engine wins ({colour_name(outcome.winner)})"
        reason = outcome.reason or outcome.termination.value
        if outcome.termination in (Termination.NO_PIECES, Termination.NO_MOVES) and outcome.winner is not None:
            reason = f"{colour_name(~outcome.winner)} has {reason}"
        self.say(f"Game over: {who}: {reason}. Result {outcome.result(v)}.")
        self.say("You may still save the game (save FILE), look at it (fen, history), undo, or quit.")

    def engine_move(self) -> None:
        b = self.board
        self.say(f"The engine ({colour_name(b.turn)}) is thinking...")
        move = self.engine.play(b, self._limit()).move
        text = b.move_text(move)
        b.push(move)
        self.say(f"The engine plays {text}.")
        self.show()

    def handle(self, line: str) -> Optional[str]:
        if not line:
            return None
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        rest = rest.strip()
        if cmd in ("help", "?", "h"):
            self.say(HELP.format(example=self._example()))
        elif cmd in ("quit", "exit", "q"):
            self.say("Goodbye.")
            return "quit"
        elif cmd in ("board", "show", "b") and not rest:
            self.show()
        elif cmd == "flip":
            self.flipped = not self.flipped
            self.show()
        elif cmd == "fen":
            self.say(f"FEN: {self.board.fen()}")
        elif cmd in ("moves", "legal"):
            if self.outcome() is not None:
                self.say("The game is over.")
            else:
                self.say(legal_list(self.board))
        elif cmd in ("history", "record"):
            self.say(self.history())
        elif cmd in ("undo", "takeback", "u"):
            self.undo()
        elif cmd == "save":
            self.save(rest or DEFAULT_SAVE_FILE)
        elif cmd == "hint":
            self.hint()
        elif cmd == "resign":
            self.resign()
        elif cmd in ("draw", "offer"):
            self.offer_draw()
        else:
            self.try_move(line)
        return None

    def _example(self) -> str:
        moves = list(self.board.legal_moves)
        if moves:
            return self.board.move_text(moves[0])
        return "11-15"

    # --- commands
    def try_move(self, text: str) -> None:
        b = self.board
        if self.outcome() is not None:
            self.say(f"The game is over ({self.result()}); type undo to take back a move, or quit.")
            return
        try:
            move = b.parse_move(text)
        except AmbiguousMoveError as e:
            paths = " or ".join(full_text(b, m) for m in e.candidates)
            self.say(
                f"{text!r} is ambiguous: more than one capture goes from there to there. Write the whole path: {paths}."
            )
            self.say(legal_list(b))
            return
        except IllegalMoveError:
            self.say(f"{text!r} is not a legal move: {explain_illegal(b, text)}.")
            self.say(legal_list(b))
            return
        except InvalidMoveError as e:
            looks_like_move = bool(re.search(r"\d", text)) and bool(MOVE_SEPARATOR.search(text))
            if looks_like_move:
                self.say(f"{text!r} is not a move: {str(e).split(': ', 1)[-1]}.")
            else:
                self.say(
                    f"{text!r} is neither a move nor a command (type help). Moves are written like {self._example()}."
                )
            self.say(legal_list(b))
            return
        moved_text = b.move_text(move)
        b.push(move)
        self.say(f"You play {moved_text}.")
        if self.outcome() is not None:
            self.show()

    def undo(self) -> None:
        b = self.board
        if self.ended is not None:
            self.ended = None
            self._announced = False
            self.say("The game goes on.")
            self.show()
            return
        if not b.move_stack:
            self.say("There is no move to take back.")
            return
        # take back to the human's last turn
        taken = [b.pop()]
        while b.move_stack and b.turn != self.human:
            taken.append(b.pop())
        # (back at the start with the engine to move, the engine moves again)
        self._announced = False
        self.say(f"Took back {len(taken)} move{'s' if len(taken) != 1 else ''}.")
        self.show()

    def hint(self) -> None:
        if self.outcome() is not None:
            self.say("The game is over.")
            return
        b = self.board
        result = self.advisor().play(b, self._limit())
        info = result.info
        line = pv_text(b, info.pv[:6]) or b.move_text(result.move)
        self.say(
            f"Hint: {b.move_text(result.move)} (your score {score_text(info.score or 0.0, info.win_in)}; "
            f"expected line {line})"
        )

    def resign(self) -> None:
        if self.outcome() is not None:
            self.say("The game is already over.")
            return
        self.ended = Outcome(Termination.RESIGNATION, ~self.human, f"{colour_name(self.human)} resigned")

    def offer_draw(self) -> None:
        if self.outcome() is not None:
            self.say("The game is already over.")
            return
        b = self.board
        result = self.advisor().play(b, self._limit()).info
        engine_score = -(result.score or 0.0)  # the search scored the human's side
        if engine_score <= DRAW_ACCEPT_SCORE and not (result.win_in is not None and result.win_in < 0):
            self.say(f"The engine accepts the draw (its score {engine_score:+.2f} <= +{DRAW_ACCEPT_SCORE:.2f}).")
            self.ended = Outcome(Termination.AGREEMENT, None, "draw agreed")
        else:
            win = -result.win_in if result.win_in is not None else None
            self.say(
                f"The engine declines the draw: its score is {score_text(engine_score, win)} "
                f"(it accepts at +{DRAW_ACCEPT_SCORE:.2f} or less)."
            )

    def history(self) -> str:
        b = self.board
        if not b.move_stack:
            return "No moves yet."
        start = b.root()
        parts: List[str] = []
        number = 1
        for i, move in enumerate(b.move_stack):
            if i == 0 and start.turn != b.variant.first:
                parts.append(f"{number}...")
            if start.turn == b.variant.first:
                parts.append(f"{number}.")
            parts.append(start.move_text(move))
            start.push(move)
            if start.turn == b.variant.first:
                number += 1
        return textwrap.fill(" ".join(parts), width=78)

    def save(self, filename: str) -> None:
        human, machine = "You", f"draughts engine (level {self.engine.level})"
        headers = {
            "Event": "draughts play",
            "Site": "terminal",
            "Date": datetime.date.today().strftime("%Y.%m.%d"),
            "White": human if self.human == WHITE else machine,
            "Black": human if self.human == BLACK else machine,
        }
        try:
            game = pdn.Game.from_board(self.board, headers=headers, result=self.result())
            text = pdn.write_game(game)
        except (AttributeError, TypeError, DraughtsError) as e:
            self.say(f"Cannot save: the PDN writer failed: {e}")
            return
        try:
            with open(filename, "w", encoding="utf-8") as f:
                f.write(text if text.endswith("\n") else text + "\n")
        except OSError as e:
            self.say(f"Cannot save to {filename}: {e.strerror or e}")
            return
        n = len(self.board.move_stack)
        self.say(f"Saved the game ({n} move{'s' if n != 1 else ''}, result {self.result()}) to {filename}.")


# --- analysis -----------------------------------------------------------------


def format_info(board: Board, info: Info, multipv: bool = False) -> str:
    """One iteration's line of `draughts analyze`; with `multipv`, it starts
    with the line's rank (`line 2`)."""
    nps = f"{info.nps / 1e6:.2f}M" if info.nps >= 1e6 else f"{info.nps / 1e3:.0f}k"
    rank = f"line {info.multipv:>2}  " if multipv else ""
    return (
        f"{rank}depth {info.depth:>2}  seldepth {info.seldepth:>2}  "
        f"score {score_text(info.score or 0.0, info.win_in):>9}  nodes {info.nodes:>10}  "
        f"time {info.time or 0.0:7.3f}s  nps {nps:>7}  pv {pv_text(board, info.pv)}"
    )


#: a move number in a pasted line (`1.`, `12...`), passed over by --moves
_MOVE_NUMBER = re.compile(r"[0-9]+\.+\Z")


def analysis_board(args) -> Board:
    """The position `draughts analyze` searches: --fen or a game of --pdn
    (after --ply plies, default all), then the --moves played on top."""
    v = variant_from_args(args)
    if args.pdn is not None:
        board = _pdn_board(args.pdn, args.game, args.ply, v)
    else:
        if args.game is not None or args.ply is not None:
            raise InvalidInputError("--game and --ply read a game of --pdn FILE")
        board = Board(args.fen, variant=v) if args.fen else Board(variant=v)
    words = (args.moves or "").replace(",", " ").split()
    n = 0
    for word in words:
        if _MOVE_NUMBER.match(word):
            continue
        n += 1
        try:
            board.push_text(word, hub=False)
        except InvalidInputError as e:
            raise InvalidInputError(f"--moves: move {n}, {word!r}: {e}") from None
    return board


def _pdn_board(path: str, number: Optional[int], ply: Optional[int], v) -> Board:
    number = number or 1
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InvalidInputError(f"--pdn {path}: {e.strerror or e}") from None
    reader = pdn.read_games(data, variant=v)
    game = None
    for n in range(1, number + 1):
        try:
            game = reader.read()
        except PdnError:
            if n == number:
                raise
            continue  # a bad game before the one asked for is passed over
        if game is None:
            raise InvalidInputError(f"--game {number}: {path} holds {n - 1} game{'s' if n != 2 else ''}")
    assert game is not None
    board = game.board()
    moves = game.moves if ply is None else game.moves[:ply]
    if ply is not None and ply > len(game.moves):
        raise InvalidInputError(f"--ply {ply}: game {number} of {path} has {len(game.moves)} plies")
    for move in moves:
        board.push(move)
    return board


def cmd_analyze(args) -> int:

    board = analysis_board(args)
    v = board.variant
    out = sys.stdout
    print(
        f"{v.name}: {board.fen()}, {colour_name(board.turn)} to move (scores in men for {colour_name(board.turn)})",
        file=out,
        flush=True,
    )
    if board.move_stack:
        print(f"after {board.root().variation_str(board.move_stack)}", file=out, flush=True)
    outcome = board.outcome()
    if outcome is not None:
        print(
            f"The game is over: {outcome.reason or outcome.termination.value} (result {outcome.result(v)}).",
            file=out,
            flush=True,
        )
        return 0
    engine = Engine(v, tt_mb=args.tt_mb)

    multipv = args.multipv > 1

    def on_info(info: Info) -> None:
        print(format_info(board, info, multipv), file=out, flush=True)

    if args.depth is not None:
        limit = Limit(depth=args.depth)
    else:
        limit = Limit(movetime=args.movetime if args.movetime is not None else 2.0)
    lines = engine.analyse(board, limit, args.multipv, on_info=on_info)
    best = lines[0]
    print(
        f"best move {board.move_text(best.pv[0])}  score {score_text(best.score or 0.0, best.win_in)}  "
        f"depth {best.depth}  nodes {best.nodes}  time {best.time or 0.0:.3f}s",
        file=out,
        flush=True,
    )
    if not multipv:
        print(f"line {pv_text(board, best.pv)}", file=out, flush=True)
        return 0
    for info in lines:
        print(
            f"line {info.multipv}: {board.move_text(info.pv[0])}  "
            f"score {score_text(info.score or 0.0, info.win_in)}  depth {info.depth}  "
            f"pv {pv_text(board, info.pv)}",
            file=out,
            flush=True,
        )
    return 0


# --- the play command -------------------------------------------------------------


def _readline_input(prompt: str) -> str:
    sys.stdout.flush()
    return input(prompt)


def cmd_play(args) -> int:

    v = variant_from_args(args)
    board = Board(args.fen, variant=v) if args.fen else Board(variant=v)
    human = v.first if args.side is None else (WHITE if args.side == "white" else BLACK)
    engine = Engine(v, level=args.level, tt_mb=args.tt_mb, seed=args.seed)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    ascii = args.ascii
    if not ascii:  # a terminal that cannot show the Unicode pieces gets letters
        try:
            "".join(UNICODE_PIECES + ("×",)).encode(sys.stdout.encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            ascii = True
    session = PlaySession(
        board, human, engine, movetime=args.movetime, depth=args.depth, ascii=ascii, read=_readline_input
    )
    return session.run()


#: `--level`: 1 to LEVEL_MAX; `--movetime`: seconds, more than 0
_level = int_type(1, LEVEL_MAX)
_seconds = real_type(above=0)


def register(subparsers) -> None:

    p = subparsers.add_parser(
        "play",
        help="play a game against the engine in the terminal",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play a game against the engine.  Type moves in the variant's notation; "
        "type help during the game for the commands.",
        epilog=HELP.format(example="32-28, 28x19 or c3:e5"),
    )
    add_variant_options(p)
    p.add_argument(
        "--side",
        choices=("white", "black"),
        default=None,
        help="the side you play (default: the side that moves first in the variant)",
    )
    p.add_argument(
        "--level",
        type=_level,
        default=LEVEL_MAX,
        help=f"engine strength 1 (weakest) to {LEVEL_MAX} (default {LEVEL_MAX})",
    )
    p.add_argument(
        "--movetime",
        type=_seconds,
        default=DEFAULT_MOVETIME,
        help=f"seconds the engine thinks per move (default {DEFAULT_MOVETIME:g})",
    )
    p.add_argument("--depth", type=positive_int, default=None, help="search this many plies instead of a time per move")
    p.add_argument("--fen", help="start from this position instead of the variant's start")
    p.add_argument("--ascii", action="store_true", help="letters w b (men) and W B (kings) instead of Unicode pieces")
    p.add_argument("--tt-mb", type=positive_int, default=64, help="engine table size in MiB (default 64)")
    p.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed of the engine's randomness at levels below the top (repeatable games)",
    )
    p.set_defaults(func=cmd_play)

    p = subparsers.add_parser(
        "analyze",
        help="analyse a position: depth, score and line per iteration, then the best move",
        description="Search a position and print each finished iteration (depth, score in men "
        "for the side to move, nodes, speed and principal variation), then the best move.",
    )
    add_variant_options(p)
    start = p.add_mutually_exclusive_group()
    start.add_argument("--fen", help="the position (default: the variant's start)")
    start.add_argument(
        "--pdn",
        metavar="FILE",
        help="start from a game of this PDN file (its end, or --ply); --variant is the "
        "variant of a game without a GameType tag",
    )
    p.add_argument(
        "--game", type=positive_int, default=None, metavar="N", help="the game of --pdn to read (default 1, the first)"
    )
    p.add_argument(
        "--ply",
        type=int_type(0),
        default=None,
        metavar="N",
        help="the position after the first N plies of the --pdn game (default: its end)",
    )
    p.add_argument(
        "--moves",
        metavar="MOVES",
        help='moves played from the start, --fen or the --pdn position, e.g. "32-28 19-23 28x19" '
        "(move numbers such as 1. are passed over)",
    )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--depth", "-d", type=positive_int, default=None, help="search this many plies")
    limit.add_argument(
        "--movetime", "-t", type=_seconds, default=None, help="search this many seconds (default 2 when no --depth)"
    )
    p.add_argument(
        "--multipv",
        type=positive_int,
        default=1,
        help="report this many best moves, each with its score and line (default 1)",
    )
    p.add_argument("--tt-mb", type=positive_int, default=64, help="engine table size in MiB (default 64)")
    p.set_defaults(func=cmd_analyze)

"""The referee: one game between two players on our own Board.

Every move is checked on the referee's board.  The game ends by the
variant's rules (no pieces, no move, repetition, move-count and endgame
rules), by adjudication (`-draw`, `-resign`, `-maxmoves`), or by a fault: an
illegal or unreadable move, a crash, a stall or a late move loses.  The record
keeps the moves played up to the end whatever ended it.

A DXP engine may end the game instead of moving (its GAMEEND, an
`EngineClaim`), and by DXP's convention does so once the game has lasted the
move count of its `tc=` (counted from the opening's end; the referee ends
the game there itself when the other side is to move).  A resignation loses;
a draw, a win or no verdict is decided by an endgame database where one
holds the position (`draughts.egdb`'s default directory), else by the
`-resign`/`-draw` score thresholds on the engines' last scores, else scored a
draw (Termination `game length`, or `unverified claim` before the length).
What was claimed is the PDN comment after the last move.
"""

from __future__ import annotations

import datetime
import functools
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from draughts import egdb, pdn
from draughts.board import Board
from draughts.engine_api import PlayResult, Player
from draughts.errors import (
    EngineClaim,
    EngineError,
    EngineNoMoveError,
    EngineOvertimeError,
    EngineTerminatedError,
    EngineTimeoutError,
    InvalidInputError,
)
from draughts.hub.protocol import parse_line
from draughts.match.engines import EngineConfig, stall_grace
from draughts.match.openings import Opening, move_from_tuple, move_tuple
from draughts.match.timecontrol import Clock
from draughts.variants import Color, Variant

# PDN `Termination` values (cutechess-cli's words)
NORMAL = "normal"
ADJUDICATION = "adjudication"
TIME_FORFEIT = "time forfeit"
ILLEGAL_MOVE = "illegal move"
ABANDONED = "abandoned"
STALLED = "stalled connection"
GAME_LENGTH = "game length"  # a DXP engine's move count reached, no verdict: a draw
UNVERIFIED_CLAIM = "unverified claim"  # a GAMEEND nothing could check: a draw

#: result tokens of cutechess-cli's `Finished game` lines: the first-named
#: player (the one who moves first) wins, draws, loses
CUTE_RESULTS = ("1-0", "1/2-1/2", "0-1")


def game_length(configs: Sequence[EngineConfig]) -> int:
    """The game's length in moves each by DXP's convention: the move count of
    a DXP engine's `tc=` (the least of two); 0: no length."""
    return min((c.tc.moves for c in configs if c.proto == "dxp" and c.tc.moves), default=0)


_databases: Dict[str, Optional[egdb.Database]] = {}
_databases_lock = threading.Lock()


def database_verdict(board: Board) -> Optional[str]:
    """'win', 'draw' or 'loss' for the side to move from the endgame database
    of the default directory, or None where none holds the position."""
    v = board.variant
    try:
        if not egdb.supported(v):
            return None
        where = egdb.rules_dir(v)
        with _databases_lock:
            if where not in _databases:
                _databases[where] = egdb.Database.open(v) if egdb.complete_pieces(v) >= 2 else None
            db = _databases[where]
        if db is None or len(board.pieces()) > db.pieces:
            return None
        return db.probe(board)
    except InvalidInputError:
        return None


@dataclass(frozen=True)
class DrawAdjudication:
    """Draw once both engines' scores stay within `score` centi-men of 0 for
    `movecount` consecutive moves each, from full move `movenumber` on."""

    movenumber: int = 0
    movecount: int = 1
    score: int = 0


@dataclass(frozen=True)
class ResignAdjudication:
    """A side loses once its score stays at or below -`score` centi-men for
    `movecount` consecutive moves (with `twosided`, while the opponent's
    stays at or above +`score`)."""

    movecount: int = 1
    score: int = 1000
    twosided: bool = False


@dataclass
class Rules:
    """What the referee applies beyond the variant's own rules."""

    draw: Optional[DrawAdjudication] = None
    resign: Optional[ResignAdjudication] = None
    maxmoves: int = 0  # full moves of the whole game; 0: no limit

    def to_json(self) -> Dict:
        return {
            "draw": asdict(self.draw) if self.draw else None,
            "resign": asdict(self.resign) if self.resign else None,
            "maxmoves": self.maxmoves,
        }

    @classmethod
    def from_json(cls, d: Dict) -> "Rules":
        return cls(
            DrawAdjudication(**d["draw"]) if d.get("draw") else None,
            ResignAdjudication(**d["resign"]) if d.get("resign") else None,
            int(d.get("maxmoves", 0)),
        )


@dataclass(frozen=True)
class GameJob:
    """One scheduled game."""

    index: int  # 0-based number in the schedule
    round: int  # 0-based
    pairing: Tuple[int, int]
    first: int  # engine index that moves first (the variant's first colour)
    second: int
    slot: int  # opening slot (the same for a pair and for a round's pairings)
    opening: Opening

    def to_json(self) -> Dict:
        return {
            "index": self.index,
            "round": self.round,
            "pairing": list(self.pairing),
            "first": self.first,
            "second": self.second,
            "slot": self.slot,
            "opening": self.opening.to_json(),
        }

    @classmethod
    def from_json(cls, d: Dict) -> "GameJob":
        return cls(
            d["index"],
            d["round"],
            tuple(d["pairing"]),
            d["first"],
            d["second"],
            d["slot"],
            Opening.from_json(d["opening"]),
        )


@dataclass
class GameRecord:
    """A finished game, as JSON-friendly values."""

    index: int
    round: int
    first: int
    second: int
    slot: int
    opening: Dict
    moves: List = field(default_factory=list)  # move tuples after the opening
    comments: Dict[int, str] = field(default_factory=dict)  # ply (from the opening's end) -> text
    result: str = "*"  # "1-0", "1/2-1/2", "0-1" (first mover's view)
    winner: Optional[int] = None  # engine index, None for a draw
    termination: str = NORMAL
    reason: str = ""
    failed: List[int] = field(default_factory=list)  # engines that crashed or stalled
    date: str = ""
    duration: float = 0.0
    #: engine index (as text, for JSON) -> each move's latency in ms: the
    #: runner's time for the move less the engine's own reported time
    latency: Dict[str, List[float]] = field(default_factory=dict)

    def to_json(self) -> Dict:
        d = asdict(self)
        d["moves"] = [[s, e, list(p), list(c), pr] for s, e, p, c, pr in self.moves]
        d["comments"] = {str(k): v for k, v in self.comments.items()}
        return d

    @classmethod
    def from_json(cls, d: Dict) -> "GameRecord":
        d = dict(d)
        d["moves"] = [(s, e, tuple(p), tuple(c), bool(pr)) for s, e, p, c, pr in d["moves"]]
        d["comments"] = {int(k): v for k, v in d.get("comments", {}).items()}
        return cls(**d)

    def points(self, engine: int) -> float:
        """Points the engine scored (1, 1/2 or 0)."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == engine else 0.0


def _colour(c: Color) -> str:
    return "White" if c == Color.WHITE else "Black"


def _move_word(exc: EngineError) -> str:
    """The move an engine sent, from its line (or the error's words)."""
    line = (getattr(exc, "line", "") or "").strip()
    if line:
        try:
            command, args = parse_line(line)
            if command == "done" and args.get("move"):
                return args["move"]
        except Exception:
            pass
        return line
    return str(exc) or "no move"


def _comment(reply: PlayResult) -> str:
    t = f"{reply.elapsed:.2f}s"
    score = reply.info.score
    if score is None:
        return t
    depth = f"/{reply.info.depth}" if reply.info.depth else ""
    return f"{score:+.2f}{depth} {t}"


def play_game(
    job: GameJob, players: Sequence[Player], configs: Sequence[EngineConfig], variant: Variant, rules: Rules, watch=None
) -> GameRecord:
    """Play `job` between players[0] (moves first) and players[1].  A `watch`
    (draughts.match.live.LiveGame) is told of every move as it begins and ends,
    and of what a player's engine reports while it thinks (players with an
    `on_info` attribute)."""
    t0 = time.time()
    record = GameRecord(
        job.index,
        job.round,
        job.first,
        job.second,
        job.slot,
        job.opening.to_json(),
        date=datetime.date.today().strftime("%Y.%m.%d"),
    )
    board = job.opening.board(variant)
    first_colour = variant.first
    engine_of = {first_colour: job.first, ~first_colour: job.second}
    seat = {first_colour: 0, ~first_colour: 1}
    clocks = {c: Clock(configs[seat[c]].tc) for c in (Color.WHITE, Color.BLACK)}
    last_score: Dict[Color, Optional[float]] = {Color.WHITE: None, Color.BLACK: None}
    resign_run = {Color.WHITE: 0, Color.BLACK: 0}
    draw_run = 0
    length = game_length(configs)

    def finish(winner_colour: Optional[Color], termination: str, reason: str) -> GameRecord:
        if winner_colour is None:
            record.result, record.winner = CUTE_RESULTS[1], None
        else:
            record.result = CUTE_RESULTS[0] if winner_colour == first_colour else CUTE_RESULTS[2]
            record.winner = engine_of[winner_colour]
        record.termination = termination
        record.reason = reason
        record.duration = time.time() - t0
        return record

    def fault(colour: Color, exc: EngineError) -> GameRecord:
        name = _colour(colour)
        if isinstance(exc, EngineTerminatedError):
            record.failed.append(engine_of[colour])
            return finish(~colour, ABANDONED, f"{name} disconnects")
        if isinstance(exc, EngineOvertimeError):  # (before stalled: a kind of time-out)
            return finish(~colour, TIME_FORFEIT, f"{name} loses on time (it sent {exc.lines} lines but no move)")
        if isinstance(exc, EngineTimeoutError):
            record.failed.append(engine_of[colour])
            return finish(~colour, STALLED, f"{name}'s connection stalls")
        if isinstance(exc, EngineNoMoveError):
            return finish(~colour, ILLEGAL_MOVE, f"{name} sends no move (a done without a move)")
        return finish(~colour, ILLEGAL_MOVE, f"{name} makes an illegal move: {_move_word(exc)}")

    def claim(colour: Color, exc: Optional[EngineClaim]) -> GameRecord:
        """The side to move ends the game (exc None: the referee, at the game's length)."""
        name = _colour(colour)
        at_length = bool(length) and len(record.moves) >= 2 * length
        if exc is None:
            head = f"the game length of {length} moves is reached"
            kind = EngineClaim.NONE
        else:
            kind = exc.kind
            what = {
                EngineClaim.RESIGN: "resigns",
                EngineClaim.DRAW: "claims a draw",
                EngineClaim.WIN: "claims the win",
            }.get(kind, "ends the game")
            head = (
                f"{name} {what}"
                + (f" at the game length of {length} moves" if at_length else "")
                + (f" ({exc.said})" if exc.said else "")
            )
        if kind == EngineClaim.RESIGN:
            verdict: Tuple[Optional[Color], str, str] = (~colour, NORMAL, head)
        else:
            verdict = _claim_verdict(board, colour, rules, last_score, head, at_length)
        ply = len(record.moves) - 1
        record.comments[ply] = " ".join(t for t in (record.comments.get(ply), verdict[2]) if t)
        return finish(*verdict)

    for colour in (first_colour, ~first_colour):
        try:
            players[seat[colour]].new_game(variant)
            start_at = getattr(players[seat[colour]], "start_at", None)
            if start_at is not None:  # a DXP engine: the GAMEREQ's position is the opening's end
                start_at(len(job.opening.moves))
        except EngineError as e:
            return fault(colour, e)

    while True:
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return finish(None, NORMAL, f"Draw: {outcome.reason}")
            side = _colour(
                outcome.winner
                if outcome.termination.name == "KING_CROWNED"
                else outcome.winner
                if board.variant.goal == "losing"
                else ~outcome.winner
            )
            what = {
                "NO_PIECES": "has no pieces left",
                "NO_MOVES": "has no legal move",
                "KING_CROWNED": "crowned a king first",
            }.get(outcome.termination.name, outcome.reason)
            return finish(outcome.winner, NORMAL, f"{_colour(outcome.winner)} wins: {side} {what}")
        if rules.maxmoves and board.ply >= 2 * rules.maxmoves:
            return finish(None, ADJUDICATION, "Draw by adjudication: maximum moves")
        colour = board.turn
        seat_no = seat[colour]
        player, config, clock = players[seat_no], configs[seat_no], clocks[colour]
        if length and len(record.moves) >= 2 * length and (config.proto != "dxp" or len(record.moves) > 2 * length):
            return claim(colour, None)  # a DXP engine to move there has been asked
        limit = clock.limit()
        available = clock.available()
        # on_info is a player's own, beyond the Player protocol
        watched: Any = player if watch is not None and hasattr(player, "on_info") else None
        if watch is not None:
            watch.thinking(colour, available)
            if watched is not None:
                watched.on_info = functools.partial(watch.info, colour)
        try:
            reply = player.play(board.copy(), limit, stall_grace(clock.tc, available, config))
        except EngineClaim as e:
            return claim(colour, e)
        except EngineError as e:
            return fault(colour, e)
        finally:
            if watched is not None:
                watched.on_info = None
        if reply.latency is not None:
            record.latency.setdefault(str(engine_of[colour]), []).append(round(reply.latency * 1000.0, 2))
        if reply.move not in board.legal_moves:
            return finish(~colour, ILLEGAL_MOVE, f"{_colour(colour)} makes an illegal move: {reply.move.hub()}")
        if not clock.spend(reply.elapsed):
            return finish(~colour, TIME_FORFEIT, f"{_colour(colour)} loses on time ({_overtime(reply, available)})")
        board.push(reply.move)
        if watch is not None:
            watch.moved(colour, reply.move, clock.remaining if clock.tc.has_clock else None)
        ply = len(record.moves)
        record.moves.append(move_tuple(board.peek()))
        record.comments[ply] = _comment(reply)
        score = reply.info.score
        last_score[colour] = score

        # adjudication on the engines' own scores (men, from the mover's side)
        if rules.resign is not None and score is not None:
            r = rules.resign
            threshold = r.score / 100.0
            other = last_score[~colour]
            losing = score <= -threshold
            if r.twosided:
                losing = losing and other is not None and other >= threshold
            resign_run[colour] = resign_run[colour] + 1 if losing else 0
            if resign_run[colour] >= r.movecount:
                return finish(~colour, ADJUDICATION, f"{_colour(~colour)} wins by adjudication")
        if rules.draw is not None:
            d = rules.draw
            if score is not None and abs(score) * 100.0 <= d.score:
                draw_run += 1
            else:
                draw_run = 0
            if board.ply >= 2 * d.movenumber and draw_run >= 2 * d.movecount:
                return finish(None, ADJUDICATION, "Draw by adjudication")


def _overtime(reply: PlayResult, available: Optional[float]) -> str:
    """How late a move was: its time, the time it had, and the engine's own
    reported time (the rest was the way there and back: pipes, scheduling)."""
    text = f"{reply.elapsed * 1000:.1f} ms"
    if available is not None:
        text += f" of {available * 1000:.1f} ms"
    if reply.info.time is not None:
        text += f"; the engine counted {reply.info.time * 1000:.1f} ms"
    return text


def _claim_verdict(
    board: Board, colour: Color, rules: Rules, last_score: Dict[Color, Optional[float]], head: str, at_length: bool
) -> Tuple[Optional[Color], str, str]:
    """(winner, termination, reason) of a draw or win claim, or of none, by
    `colour` (to move): the endgame database, else the match's score
    thresholds, else a draw."""
    found = database_verdict(board)
    if found is not None:
        winner = {"win": colour, "loss": ~colour}.get(found)
        words = "a draw" if winner is None else f"a win for {_colour(winner)}"
        return winner, ADJUDICATION, f"{head}; the endgame database says {words}"
    if rules.resign is not None:
        r = rules.resign
        for side in (colour, ~colour):
            score, other = last_score[side], last_score[~side]
            if (
                score is not None
                and score <= -r.score / 100.0
                and (not r.twosided or (other is not None and other >= r.score / 100.0))
            ):
                return ~side, ADJUDICATION, f"{head}; {_colour(~side)} wins by adjudication"
    if rules.draw is not None:
        d = rules.draw
        scores = [s for s in last_score.values() if s is not None]
        if scores and board.ply >= 2 * d.movenumber and all(abs(s) * 100.0 <= d.score for s in scores):
            return None, ADJUDICATION, f"{head}; a draw by adjudication"
    return None, GAME_LENGTH if at_length else UNVERIFIED_CLAIM, f"{head}: scored a draw"


def record_board(record: GameRecord, variant: Variant) -> Board:
    """The record's game replayed on a new board (raises IllegalMoveError if a move is not legal)."""
    board = Opening.from_json(record.opening).board(variant)
    for t in record.moves:
        board.push(move_from_tuple(t))
    return board


def record_to_game(
    record: GameRecord, variant: Variant, configs: Sequence[EngineConfig], event: str = "?", site: str = "?"
):
    """The record as a `draughts.pdn.Game` (tags, moves and `{score/depth time}` comments)."""

    board = record_board(record, variant)
    opening = Opening.from_json(record.opening)
    book = len(opening.moves)
    first_colour = variant.first
    by_colour = {first_colour: record.first, ~first_colour: record.second}
    white, black = configs[by_colour[Color.WHITE]], configs[by_colour[Color.BLACK]]
    first_tok, draw_tok, second_tok = variant.result_tokens
    result = {CUTE_RESULTS[0]: first_tok, CUTE_RESULTS[1]: draw_tok, CUTE_RESULTS[2]: second_tok}.get(
        record.result, "*"
    )
    headers = {
        "Event": event or "?",
        "Site": site or "?",
        "Date": record.date or "????.??.??",
        "Round": str(record.index + 1),
        "White": white.name,
        "Black": black.name,
    }
    game = pdn.Game.from_board(board, headers, result=result)
    wtc, btc = white.tc.text(), black.tc.text()
    game.headers["TimeControl"] = wtc if wtc == btc else f"{wtc} / {btc}"
    if wtc != btc:
        game.headers["WhiteTimeControl"] = wtc
        game.headers["BlackTimeControl"] = btc
    game.headers["Termination"] = record.termination
    if opening.name:
        game.headers["Opening"] = opening.name
    for ply, text in record.comments.items():
        game.comments[book + ply] = text
    return game

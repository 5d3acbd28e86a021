"""One page's game: the board, the players, the engine and the analysis.

A `Session` takes the page's messages (dicts read from JSON) and answers with
messages through its `send` coroutine.  Every message is checked: a bad one
is answered with an `error` message and the session goes on.  The engine
works on a worker thread; its reports come back to the event loop.

Messages from the page (`type` and its fields):
  new       variant, house (bool), fen (optional), side ("white", "black", "both"),
            moves (optional: the game's move texts, replayed; a reloaded page's game),
            cursor (optional, with moves: the position shown)
  settings  engine (a name the server offers), level (1-20), movetime (seconds)
  move      start, end, captured (the squares of one of the state's legal moves)
  undo      take back (against the engine: to the player's previous turn)
  goto      ply (0 .. the number of moves): show that position
  set_fen   fen
  setup     pieces ({square: "w" | "W" | "b" | "B"}), turn ("white"/"black") -> a FEN
  load_pdn  text (a PDN file, at most MAX_PDN bytes); several games: a `games` list
  pick_game index
  save_pdn  -> `pdn` with the game's text
  analyse   on (bool), multipv (1-MAX_MULTIPV)
  preview   moves (move texts from the position shown, e.g. part of an analysis
            line) -> `preview` with the position after them (the game is unchanged)
  match_start  engines ([{name, level}, {name, level}]), limit (the runner's tc=/st=/depth=/nodes=),
               games, repeat (bool), openings (a shipped deck or "")
  match_stop
  match_follow (the live or state file the command line named)
  match_open   index: a finished game of the match into the board
Messages to the page: state, analysis, preview, games, pdn, setup, error, engines, match,
match_lines.  An analysis line has its moves (`pv`) and, move for move, the
move numbers to write before them (`numbers`: "1.", "1..." or "").
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence

from draughts import pdn
from draughts._args import is_int, parse_int
from draughts.board import Board, Move
from draughts.engine import LEVEL_MAX
from draughts.errors import DraughtsError, InvalidInputError
from draughts.gui.boards import colour_name, variant_info
from draughts.gui.engines import BUILTIN, GuiEngine, Report, by_name, engine_json
from draughts.match.engines import EngineConfig
from draughts.limits import Limit
from draughts.notation import format_fen, squares_of
from draughts.variants import BLACK, VARIANTS, WHITE, Color, Variant, variant as get_variant

LOG = logging.getLogger("draughts.gui")

#: the largest PDN text the page may send (bytes)
MAX_PDN = 1 << 20
MAX_MULTIPV = 10
#: games of one PDN file offered to pick from
MAX_GAMES = 2000
MOVETIME_MAX = 600.0
Send = Callable[[Dict[str, Any]], Awaitable[None]]


class BadMessage(InvalidInputError):
    """A message from the page that cannot be taken."""


def _int(msg: Dict, key: str, low: int, high: int) -> int:
    v = msg.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise BadMessage(f"{key} must be a whole number from {low} to {high}, not {v!r}")
    return v


def _str(msg: Dict, key: str, limit: int = 1000) -> str:
    v = msg.get(key)
    if not isinstance(v, str) or len(v) > limit:
        raise BadMessage(f"{key} must be a text of at most {limit} characters")
    return v


def variant_list() -> List[Dict[str, Any]]:
    return [{"name": v.name, "size": v.size, "description": v.description} for v in VARIANTS.values()]


def _pieces(board: Board) -> Dict[str, str]:
    return {str(n): p.symbol() for n, p in board.pieces().items()}


class Session:
    def __init__(self, send: Send, specs: Sequence[EngineConfig] = (BUILTIN,), watch: Optional[str] = None):
        self._send = send
        #: the live or state file of a `draughts match` the page may follow (from the command line)
        self.watch = watch
        self.match: Any = None
        self._follow_task: Optional[asyncio.Task] = None
        self.specs = list(specs) or [BUILTIN]
        self.spec = self.specs[0]
        self.level = LEVEL_MAX
        self.movetime = 1.0
        self.variant: Variant = get_variant("international")
        self.start = Board(variant=self.variant)
        self.moves: List[Move] = []
        self.texts: List[str] = []
        #: white's score per position (index = ply), where an engine gave one
        self.scores: Dict[int, float] = {}
        self.cursor = 0
        self.side: Optional[Color] = WHITE  # None: the human plays both sides
        self.engine: Optional[GuiEngine] = None
        self._engine_variant: Optional[Variant] = None
        self._job: Optional[asyncio.Task] = None
        self._job_kind = ""
        self._generation = 0
        self.analysing = False
        self.multipv = 3
        self.games: List[pdn.Game] = []
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.closed = False
        self.headers: Dict[str, str] = {}
        #: whether the game came from a PDN file or a match (the page says so)
        self.loaded = False

    # --- the board at the cursor ------------------------------------------------
    def board(self, ply: Optional[int] = None) -> Board:
        b = self.start.copy()
        for m in self.moves[: self.cursor if ply is None else ply]:
            b.push(m)
        return b

    def _engine_turn(self, board: Board) -> bool:
        return (
            self.side is not None
            and self.cursor == len(self.moves)
            and board.turn != self.side
            and board.outcome() is None
        )

    def state(self) -> Dict[str, Any]:
        board = self.board()
        outcome = board.outcome()
        thinking = self._job_kind == "play"
        legal = []
        if outcome is None and not thinking and not self._engine_turn(board):
            legal = [
                {
                    "start": m.start,
                    "end": m.end,
                    "path": list(m.path),
                    "captured": list(m.captured),
                    "text": board.move_text(m),
                }
                for m in board.legal_moves
            ]
        end = self.board(len(self.moves))
        end_outcome = end.outcome()
        result = end_outcome.result(self.variant) if end_outcome else "*"
        reason = ""
        if end_outcome is not None:
            if end_outcome.winner is None:
                reason = f"Draw: {end_outcome.reason}"
            else:
                reason = f"{colour_name(end_outcome.winner).capitalize()} wins: {end_outcome.reason}"
        last = self.moves[self.cursor - 1] if self.cursor else None
        return {
            "type": "state",
            "variant": variant_info(self.variant),
            "fen": board.fen(),
            "start_fen": self.start.fen(),
            "pieces": _pieces(board),
            "turn": colour_name(board.turn),
            "legal": legal,
            "moves": self.texts,
            "cursor": self.cursor,
            "lastmove": list(last.path) if last else None,
            "first": colour_name(self.start.turn),
            "result": result,
            "reason": reason,
            "side": colour_name(self.side) if self.side is not None else "both",
            "engine": self.spec.name,
            "level": self.level,
            "movetime": self.movetime,
            "thinking": thinking,
            "analysing": self.analysing,
            "multipv": self.multipv,
            "scores": [[p, s] for p, s in sorted(self.scores.items())],
            "loaded": self.loaded,
        }

    async def send(self, msg: Dict[str, Any]) -> None:
        if not self.closed:
            await self._send(msg)

    async def send_state(self) -> None:
        await self.send(self.state())

    async def hello(self) -> None:
        self.loop = asyncio.get_running_loop()
        from draughts.match.openings import DECKS

        await self.send(
            {
                "type": "engines",
                "engines": [engine_json(s) for s in self.specs],
                "variants": variant_list(),
                "max_multipv": MAX_MULTIPV,
                "max_pdn": MAX_PDN,
                "decks": [{"name": k, "variant": v} for k, (_, v) in DECKS.items()],
                "watch": os.path.basename(self.watch) if self.watch else None,
            }
        )
        await self.send_state()

    # --- messages -----------------------------------------------------------------
    async def handle(self, msg: Any) -> None:
        """Take one message; a bad one is answered with an error."""
        self.loop = asyncio.get_running_loop()
        try:
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                raise BadMessage("a message is a JSON object with a type")
            handler = getattr(self, "on_" + msg["type"], None) if msg["type"].isidentifier() else None
            if handler is None:
                raise BadMessage(f"unknown message type {msg['type'][:40]!r}")
            await handler(msg)
        except (DraughtsError, ValueError) as e:
            await self.send({"type": "error", "message": str(e)})
        except Exception as e:  # a fault of ours: said, logged, and the page goes on
            LOG.exception("gui: message %r", msg if isinstance(msg, dict) else type(msg))
            await self.send({"type": "error", "message": f"internal error: {type(e).__name__}: {e}"})

    async def on_new(self, msg: Dict) -> None:
        name = _str(msg, "variant", 60)
        house = msg.get("house", False)
        if not isinstance(house, bool):
            raise BadMessage("house must be true or false")
        v = get_variant(name)
        if house:
            if v.size != 8:
                raise BadMessage("the house rule (capturing is optional) is for 8x8 variants")
            v = v.replace(mandatory_capture=False)
        fen = msg.get("fen")
        start = Board(_str(msg, "fen"), variant=v) if fen else Board(variant=v)
        side = self._side(msg.get("side", "white"))
        moves = self._replay(start, msg["moves"]) if "moves" in msg else []
        cursor = _int(msg, "cursor", 0, len(moves)) if "cursor" in msg else len(moves)
        await self._stop_job()
        self.variant, self.side = v, side
        self._set_game(start, moves)
        self.cursor = cursor
        self.headers = {}
        self.loaded = False
        if self.engine is not None:
            await asyncio.to_thread(self.engine.new_game)
        await self._after_change()

    @staticmethod
    def _replay(start: Board, texts: Any, limit: int = 2000) -> List[Move]:
        """The moves of `texts` (move texts) played from `start`; each must be legal."""
        if not isinstance(texts, list) or len(texts) > limit or not all(isinstance(t, str) for t in texts):
            raise BadMessage(f"moves must be a list of at most {limit} move texts")
        b = start.copy(stack=False)
        out: List[Move] = []
        for t in texts:
            try:
                m = b.parse_move(t[:200])
            except ValueError as e:
                raise BadMessage(f"move {len(out) + 1} ({t[:40]!r}): {e}") from None
            if m not in b.legal_moves:
                raise BadMessage(f"move {len(out) + 1} ({t[:40]!r}) is not legal")
            b.push(m)
            out.append(m)
        return out

    def _side(self, text) -> Optional[Color]:
        if text not in ("white", "black", "both"):
            raise BadMessage(f"side must be white, black or both, not {text!r}")
        return None if text == "both" else (WHITE if text == "white" else BLACK)

    def _set_game(self, start: Board, moves: List[Move]) -> None:
        self.start = start.copy(stack=False)
        self.moves, self.texts = [], []
        self.scores = {}
        b = self.start.copy()
        for m in moves:
            self.texts.append(b.move_text(m))
            b.push(m)
            self.moves.append(m)
        self.cursor = len(self.moves)

    async def on_settings(self, msg: Dict) -> None:
        if "engine" in msg:
            spec = by_name(self.specs, _str(msg, "engine", 200))
        else:
            spec = self.spec
        level = _int(msg, "level", 1, LEVEL_MAX) if "level" in msg else self.level
        movetime = self.movetime
        if "movetime" in msg:
            t = msg["movetime"]
            if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.05 <= t <= MOVETIME_MAX:
                raise BadMessage(f"movetime must be from 0.05 to {MOVETIME_MAX:g} seconds, not {t!r}")
            movetime = float(t)
        if "side" in msg:
            self.side = self._side(msg["side"])
        if spec != self.spec:
            await self._stop_job()
            await self._close_engine()
        self.spec, self.level, self.movetime = spec, level, movetime
        if self.engine is not None:
            self.engine.set_level(level)
        await self._after_change()

    async def on_move(self, msg: Dict) -> None:
        board = self.board()
        if self._job_kind == "play" or self._engine_turn(board):
            raise BadMessage("it is the engine's turn")
        if board.outcome() is not None:
            raise BadMessage("the game is over")
        start = _int(msg, "start", 1, 64)
        end = _int(msg, "end", 1, 64)
        captured = msg.get("captured", [])
        if (
            not isinstance(captured, list)
            or len(captured) > 64
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in captured)
        ):
            raise BadMessage("captured must be a list of square numbers")
        wanted = (start, end, frozenset(captured))
        found = [m for m in board.legal_moves if (m.start, m.end, frozenset(m.captured)) == wanted]
        if not found:
            raise BadMessage(f"illegal move {start}-{end} in {board.fen()}")
        await self._play_move(board, found[0])

    async def _play_move(self, board: Board, move: Move) -> None:
        await self._stop_job()
        del self.moves[self.cursor :]
        del self.texts[self.cursor :]
        for p in [p for p in self.scores if p > self.cursor]:
            del self.scores[p]
        self.texts.append(board.move_text(move))
        self.moves.append(move)
        self.cursor += 1
        await self._after_change()

    async def on_undo(self, msg: Dict) -> None:
        await self._stop_job()
        if self.cursor == 0:
            raise BadMessage("no move to take back")
        self.cursor -= 1
        if self.side is not None:
            # back to a position where the player is to move
            while self.cursor > 0 and self.board().turn != self.side:
                self.cursor -= 1
        del self.moves[self.cursor :]
        del self.texts[self.cursor :]
        for p in [p for p in self.scores if p > self.cursor]:
            del self.scores[p]
        await self._after_change(engine_moves=False)

    async def on_goto(self, msg: Dict) -> None:
        ply = _int(msg, "ply", 0, len(self.moves))
        await self._stop_job()
        self.cursor = ply
        await self._after_change()

    async def on_set_fen(self, msg: Dict) -> None:
        fen = _str(msg, "fen", 2000).strip()
        start = Board(fen, variant=self.variant)
        await self._stop_job()
        self._set_game(start, [])
        self.headers = {}
        self.loaded = False
        await self._after_change()

    async def on_setup(self, msg: Dict) -> None:
        """A board editor's pieces -> the FEN (checked by setting it up)."""
        pieces = msg.get("pieces")
        if not isinstance(pieces, dict) or len(pieces) > 64:
            raise BadMessage("pieces must map squares to w, W, b or B")
        turn = msg.get("turn", "white")
        if turn not in ("white", "black"):
            raise BadMessage("turn must be white or black")
        sq = squares_of(self.variant)
        white: List[int] = []
        black: List[int] = []
        kings: List[int] = []
        for key, kind in pieces.items():
            if not is_int(key):
                raise BadMessage(f"{key!r} is not a square number")
            number = parse_int(key)
            if number not in sq.internal or kind not in ("w", "W", "b", "B"):
                raise BadMessage(f"bad piece {kind!r} on square {key!r}")
            i = sq.internal[number]
            (white if kind in "wW" else black).append(i)
            if kind.isupper():
                kings.append(i)
        fen = format_fen(self.variant, sorted(white), sorted(black), sorted(kings), WHITE if turn == "white" else BLACK)
        Board(fen, variant=self.variant)  # a position the rules take
        await self.send({"type": "setup", "fen": fen})

    async def on_load_pdn(self, msg: Dict) -> None:
        text = msg.get("text")
        if not isinstance(text, str):
            raise BadMessage("text must be the PDN file's text")
        if len(text.encode("utf-8", "replace")) > MAX_PDN:
            raise BadMessage(f"the PDN file is larger than {MAX_PDN // 1024} KiB")
        reader = pdn.read_games(text, variant=self.variant, errors="skip")
        games = []
        for g in reader:
            games.append(g)
            if len(games) >= MAX_GAMES:
                break
        if not games:
            why = f": {reader.errors[0]}" if reader.errors else ""
            raise BadMessage(f"no game could be read from the PDN file{why}")
        self.games = games
        if len(games) == 1:
            await self._load_game(games[0])
            return
        await self.send(
            {
                "type": "games",
                "skipped": len(reader.errors),
                "games": [
                    {
                        "index": i,
                        "white": g.headers.get("White", "?"),
                        "black": g.headers.get("Black", "?"),
                        "event": g.headers.get("Event", "?"),
                        "date": g.headers.get("Date", "?"),
                        "result": g.result,
                        "plies": len(g.moves),
                        "variant": g.variant.name,
                    }
                    for i, g in enumerate(games)
                ],
            }
        )

    async def on_pick_game(self, msg: Dict) -> None:
        if not self.games:
            raise BadMessage("no PDN file is loaded")
        i = _int(msg, "index", 0, len(self.games) - 1)
        await self._load_game(self.games[i])

    async def _load_game(self, game: pdn.Game) -> None:
        await self._stop_job()
        self.variant = game.variant
        self._set_game(game.board(), list(game.moves))  # shown at its last move
        self.side = None  # a game to look through, both sides by hand
        self.loaded = True
        self.headers = {k: v for k, v in game.headers.items() if k not in ("GameType", "FEN", "Result")}
        await self._after_change(engine_moves=False)

    async def on_save_pdn(self, msg: Dict) -> None:
        board = self.board(len(self.moves))
        headers = dict(self.headers)
        if not headers:
            me, it = "Player", self.spec.name
            if self.side is None:
                headers = {"White": "?", "Black": "?"}
            else:
                headers = {"White": me if self.side == WHITE else it, "Black": me if self.side == BLACK else it}
        game = pdn.Game.from_board(board, headers)
        for ply, score in self.scores.items():
            if 0 < ply <= len(self.moves):
                game.comments[ply - 1] = f"{score:+.2f}"
        await self.send({"type": "pdn", "text": pdn.write_game(game), "filename": f"{self.variant.name}-game.pdn"})

    async def on_analyse(self, msg: Dict) -> None:
        on = msg.get("on", True)
        if not isinstance(on, bool):
            raise BadMessage("on must be true or false")
        multipv = _int(msg, "multipv", 1, MAX_MULTIPV) if "multipv" in msg else self.multipv
        if self._job_kind == "analyse":
            await self._stop_job()
        self.analysing, self.multipv = on, multipv
        await self._after_change(engine_moves=False)

    async def on_preview(self, msg: Dict) -> None:
        board = self.board()
        moves = self._replay(board, msg.get("moves"), 200)
        b = board.copy(stack=False)
        texts = []
        for m in moves:
            texts.append(b.move_text(m))
            b.push(m)
        await self.send(
            {
                "type": "preview",
                "ply": self.cursor,
                "moves": texts,
                "fen": b.fen(),
                "pieces": _pieces(b),
                "turn": colour_name(b.turn),
                "lastmove": list(moves[-1].path) if moves else None,
            }
        )

    # --- matches ------------------------------------------------------------------------
    def _emit(self, msg: Dict[str, Any]) -> None:
        """A message from a match's thread."""
        loop = self.loop
        if loop is None or self.closed:
            return
        try:
            loop.call_soon_threadsafe(lambda: asyncio.ensure_future(self.send(msg)))
        except RuntimeError:  # the loop has closed
            pass

    def _match_running(self) -> bool:
        return self.match is not None and hasattr(self.match, "stop") and self.match.status == "running"

    async def on_match_start(self, msg: Dict) -> None:
        from draughts.gui.match import GuiMatch

        if self._match_running():
            raise BadMessage("a match is running: stop it first")
        await self._stop_follow()
        self.match = await asyncio.to_thread(GuiMatch, self.specs, msg, self.variant, self._emit)
        self.match.start()

    async def on_match_stop(self, msg: Dict) -> None:
        await self._stop_follow()
        if not self._match_running():
            raise BadMessage("no match is running")
        m = self.match
        await asyncio.to_thread(m.stop)
        await asyncio.to_thread(m.thread.join, 15)

    async def on_match_follow(self, msg: Dict) -> None:
        from draughts.gui.match import FollowedMatch

        if not self.watch:
            raise BadMessage("no match file was named on the command line (draughts gui --watch FILE)")
        if self._match_running():
            raise BadMessage("a match is running: stop it first")
        followed = FollowedMatch(self.watch)
        await asyncio.to_thread(followed.refresh)
        await self._stop_follow()
        self.match = followed
        await self.send(followed.message())
        self._follow_task = asyncio.ensure_future(self._follow(followed))

    async def _follow(self, followed) -> None:
        while not self.closed and self.match is followed:
            await asyncio.sleep(0.25)
            try:
                if await asyncio.to_thread(followed.refresh):
                    await self.send(followed.message())
            except DraughtsError as e:
                await self.send({"type": "error", "message": str(e)})
                return

    async def _stop_follow(self) -> None:
        t, self._follow_task = self._follow_task, None
        if t is not None:
            t.cancel()

    async def on_match_open(self, msg: Dict) -> None:
        if self.match is None:
            raise BadMessage("no match")
        index = _int(msg, "index", 0, 100000)
        game = await asyncio.to_thread(self.match.game, index)
        await self._load_game(game)

    # --- the engine's work ------------------------------------------------------------
    async def _ensure_engine(self) -> GuiEngine:
        if self.engine is None:
            self.engine = await asyncio.to_thread(GuiEngine, self.spec, self.variant, level=self.level)
        return self.engine

    async def _close_engine(self) -> None:
        e, self.engine = self.engine, None
        if e is not None:
            await asyncio.to_thread(e.close)

    async def _stop_job(self) -> None:
        job = self._job
        self._generation += 1
        if job is not None and not job.done():
            if self.engine is not None:
                self.engine.stop()
            try:
                await asyncio.wait_for(asyncio.shield(job), 10.0)
            except asyncio.TimeoutError:
                # an engine that does not stop is ended: the next job starts a new one
                LOG.warning("gui: engine %s did not stop; ending it", self.spec.name)
                await self._close_engine()
            except Exception:
                pass
        self._job, self._job_kind = None, ""

    async def _after_change(self, engine_moves: bool = True) -> None:
        """Send the new state, then set the engine to work: its move when it
        is to move, else the analysis when it is on (one job at a time: a
        job still running is stopped first)."""
        await self._stop_job()
        board = self.board()
        if engine_moves and self._engine_turn(board):
            self._start_job("play", self._engine_play(board, self._generation))
        elif self.analysing and board.outcome() is None:
            self._start_job("analyse", self._engine_analyse(board, self._generation))
        await self.send_state()

    def _start_job(self, kind: str, coro) -> None:
        self._job_kind = kind
        self._job = asyncio.ensure_future(coro)

    def _reporter(self, generation: int, board: Board, ply: int):
        loop = self.loop
        assert loop is not None
        white = board.turn == WHITE

        def report(r: Report) -> None:
            msg = {
                "type": "analysis",
                "ply": ply,
                "depth": r.depth,
                "nodes": r.nodes,
                "nps": round(r.nps),
                "time": round(r.time, 3),
                "lines": [
                    {"multipv": line.multipv, "score": line.score, "win_in": line.win_in, **_pv_texts(board, line.pv)}
                    for line in r.lines
                ],
            }

            def deliver():
                if generation == self._generation and not self.closed:
                    if r.lines:
                        best = r.lines[0].score
                        self.scores[ply] = best if white else -best
                    asyncio.ensure_future(self.send(msg))

            loop.call_soon_threadsafe(deliver)

        return report

    async def _engine_play(self, board: Board, generation: int) -> None:
        try:
            engine = await self._ensure_engine()
            if generation != self._generation:  # stopped while the engine started
                return
            limit = Limit(movetime=self.movetime)
            played = await asyncio.to_thread(
                engine.play, board.copy(), limit, self._reporter(generation, board, self.cursor)
            )
        except Exception as e:  # the engine failed: tell the page, go on
            if generation == self._generation:
                self._job_kind = ""
                await self.send({"type": "error", "message": f"engine {self.spec.name}: {e}"})
                await self._close_engine()
                await self.send_state()
            return
        if generation != self._generation or self.closed:
            return
        if played.info.score is not None:
            self.scores[self.cursor] = played.info.score if board.turn == WHITE else -played.info.score
        self._job, self._job_kind = None, ""
        if played.move not in board.legal_moves:
            await self.send({"type": "error", "message": f"engine {self.spec.name} played an illegal move"})
            return
        self.texts.append(board.move_text(played.move))
        self.moves.append(played.move)
        self.cursor += 1
        await self._after_change()

    async def _engine_analyse(self, board: Board, generation: int) -> None:
        try:
            engine = await self._ensure_engine()
            if generation != self._generation:
                return
            await asyncio.to_thread(
                engine.analyse, board.copy(), self.multipv, self._reporter(generation, board, self.cursor)
            )
        except Exception as e:
            if generation == self._generation:
                self._job, self._job_kind = None, ""
                self.analysing = False  # not again at every move
                await self.send({"type": "error", "message": f"analysis: {e}"})
                await self.send_state()
            return
        if generation == self._generation:
            self._job, self._job_kind = None, ""

    async def close(self) -> None:
        """The page has gone: stop the engine's work and end the engine (again
        a no-op once done)."""
        if self.closed and self.engine is None and self.match is None:
            return
        self.closed = True
        try:
            await self._stop_follow()
            if self.match is not None and hasattr(self.match, "stop"):
                await asyncio.to_thread(self.match.stop)
                await asyncio.to_thread(self.match.thread.join, 15)
            await self._stop_job()
        finally:
            await self._close_engine()


def _pv_texts(board: Board, pv: Sequence[Move]) -> Dict[str, List[str]]:
    """The line `pv` from `board` for the page: `pv`, its moves written in
    the variant's notation (up to the first that is not legal), and
    `numbers`, before each move the move number Board.variation_str writes
    there ("12." or, when the line begins with the other side's move,
    "12...") or "" where it writes none."""
    moves: List[str] = []
    numbers: List[str] = []
    number = board.move_number()
    first = board.variant.first
    b = board.copy(stack=False)
    for m in pv:
        if m not in b.legal_moves:
            break
        if b.turn == first:
            numbers.append(f"{number}.")
        else:
            numbers.append("" if moves else f"{number}...")
            number += 1
        moves.append(b.move_text(m))
        b.push(m)
    return {"pv": moves, "numbers": numbers}

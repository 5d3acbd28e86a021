"""Engine-vs-engine matches in the page: one started from it, played by the
match runner's own parts (its options, schedule, opening book, referee and
statistics: `draughts.match`), or one that `draughts match` runs, followed
through its state file (`-state FILE`) and its live file (`-live FILE`).

A started match plays on a worker thread.  Its players are the runner's
(`draughts.match.players.make_player`), each watched (`GuiMatch._Watched`, a
`draughts.engine_api.Player` itself) so that the page sees each engine's
lines as it thinks and both clocks as they run; the finished games are the
match's (`Match.game_finished`, `Match.report`).
"""

from __future__ import annotations

import io
import math
import os
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

from draughts.board import Board
from draughts.engine import LEVEL_MAX
from draughts.engine_api import Info, PlayResult, Player
from draughts.errors import EngineTerminatedError, InvalidInputError
from draughts.gui.engines import by_name
from draughts.gui.boards import variant_info
from draughts.match import stats
from draughts.match.cli import settings_from_options, split_options
from draughts.match.console import Console
from draughts.match.engines import EngineConfig
from draughts.match.game import GameRecord, play_game, record_board, record_to_game
from draughts.match.live import LIVE_KIND, read_live
from draughts.match.openings import DECKS
from draughts.match.players import make_player
from draughts.match.runner import Match, load_state
from draughts.match.settings import MatchSettings
from draughts.variants import WHITE, Variant, variant as get_variant

#: engine settings the page may give (the runner's own keys for the search limit)
LIMIT_KEYS = ("tc", "st", "depth", "nodes")
MAX_GAMES = 1000
Emit = Callable[[Dict[str, Any]], None]


def _is_live(path: str) -> bool:
    """Whether `path` is a live match file (else it is taken for a state file)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    return LIVE_KIND.encode() in head


def _pv_text(board: Board, hub_moves: Sequence[str]) -> List[str]:
    """A line of Hub moves in the variant's notation, as far as it is legal."""
    b = board.copy(stack=False)
    out = []
    for text in hub_moves:
        try:
            m = b.parse_move(text)
        except ValueError:
            break
        out.append(b.move_text(m))
        b.push(m)
    return out


def _colour(c) -> str:
    return "white" if c == WHITE else "black"


def _pieces(board: Board) -> Dict[str, str]:
    return {str(n): p.symbol() for n, p in board.pieces().items()}


def match_argv(specs: Sequence[EngineConfig], options: Dict[str, Any], variant: Variant) -> List[str]:
    """The `draughts match` options of the page's choices (checked by the runner's parser)."""
    engines = options.get("engines")
    if not isinstance(engines, list) or len(engines) != 2:
        raise InvalidInputError("a match needs two engines")
    limit = options.get("limit", "")
    if not isinstance(limit, str) or len(limit) > 200 or not limit.split():
        raise InvalidInputError("the limit is the runner's engine settings, e.g. tc=10+0.1, st=0.2 or depth=6")
    tokens = limit.split()
    for t in tokens:
        if t.split("=", 1)[0] not in LIMIT_KEYS or "=" not in t:
            raise InvalidInputError(f"limit: {t!r} is not one of {', '.join(k + '=' for k in LIMIT_KEYS)}")
    argv: List[str] = []
    for e in engines:
        if not isinstance(e, dict) or not isinstance(e.get("name"), str):
            raise InvalidInputError("an engine of the match is {name, level}")
        spec = by_name(specs, e["name"])
        level = e.get("level", 20)
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 20:
            raise InvalidInputError(f"level must be a whole number from 1 to 20, not {level!r}")
        argv.append("-engine")
        if spec.proto == "builtin" and level != LEVEL_MAX:
            # as `draughts match` names its weaker default engine: draughts-level10
            argv.append(f"name={spec.name}-level{level}")
        else:
            argv.append(f"name={spec.name}")
        if spec.proto == "builtin":
            argv += ["proto=builtin", f"option.level={level}"]
        elif spec.proto == "dxp":
            argv += ["proto=dxp", f"host={spec.host}", f"port={spec.port}"]
        else:
            argv += [f"cmd={spec.cmd}"] + [f"arg={a}" for a in spec.args]
            if spec.dir:
                argv.append(f"dir={spec.dir}")
        if spec.book:
            argv.append("book=on")  # the page's engines keep their own books
        argv += tokens
    games = options.get("games", 2)
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InvalidInputError(f"games must be a whole number from 1 to {MAX_GAMES}")
    argv += ["-variant", variant.name, "-games", str(games)]
    if not variant.mandatory_capture:
        argv.append("-no-mandatory-capture")
    if options.get("repeat", True) is True:
        argv.append("-repeat")
    deck = options.get("openings", "")
    if deck:
        if deck not in DECKS:
            raise InvalidInputError(f"openings: {deck!r} is not a shipped deck ({', '.join(DECKS)})")
        argv += ["-openings", f"file={deck}", "order=sequential"]
    return argv


def summary_json(names: Sequence[str], records: Sequence[GameRecord], repeat: int) -> Dict[str, Any]:
    """The running score of the first engine against the second, with Elo and its error."""
    ordered = sorted(records, key=lambda r: r.index)
    pts = [r.points(0) for r in ordered]
    by_index = {r.index: r for r in ordered}
    pairs = [
        by_index[i].points(0) + by_index[i + 1].points(0)
        for i in range(0, max(by_index, default=-1) + 1, 2)
        if i in by_index and i + 1 in by_index
    ]
    s = stats.summarise(pts, pairs if repeat == 2 else [], paired=repeat == 2)
    lines = stats.report_lines(names[0], names[1], s, paired=repeat == 2)
    line = lines[0]
    # `draughts match`'s Elo line, once its 95 % interval has a finite width
    # above 0 (the command line leaves out the "+/-" where it has none); before
    # that (all draws, no loss or no win yet, too few games) the figure says nothing
    elo = lines[1] if elo_means_something(s) else ""
    return {
        "score_line": line,
        "elo_line": elo,
        **stats.json_number(
            {"wins": s.wins, "losses": s.losses, "draws": s.draws, "elo": s.elo, "elo_error": s.elo_error}
        ),
    }


def elo_means_something(s: stats.Summary) -> bool:
    """Whether an Elo figure is worth showing: finite, with a 95 % interval
    of finite width above 0."""
    return math.isfinite(s.elo) and math.isfinite(s.elo_error) and s.elo_error > 0


def games_json(records: Sequence[GameRecord], engines) -> List[Dict[str, Any]]:
    out = []
    for r in sorted(records, key=lambda r: r.index):
        first, second = engines[r.first].name, engines[r.second].name
        out.append(
            {
                "index": r.index,
                "first": first,
                "second": second,
                "result": r.result,
                "reason": r.reason,
                "plies": len(r.moves),
            }
        )
    return out


class GuiMatch:
    """A match started from the page, run on a thread; `emit` gets its messages."""

    def __init__(self, specs: Sequence[EngineConfig], options: Dict[str, Any], variant: Variant, emit: Emit):
        argv = match_argv(specs, options, variant)
        self.specs = list(specs)
        self.settings: MatchSettings = settings_from_options(split_options(argv))
        self.settings.ratinginterval = 0
        self.out = io.StringIO()
        self.match = Match(self.settings, console=Console(self.out, io.StringIO(), False), argv=argv)
        self.variant = self.match.variant
        self.emit = emit
        self.stopped = False
        self.status = "running"
        self.current: Optional[Dict[str, Any]] = None
        self._players: Dict[int, Player] = {}
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name="gui-match", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _player(self, i: int) -> Player:
        """The runner's player of engine i (its settings are match_argv's),
        started at its first game, telling the page of its lines."""
        with self._lock:
            if self.stopped:
                raise EngineTerminatedError("the match is stopping")
            if i not in self._players:
                config = self.settings.engines[i]
                player: Any = make_player(config, self.variant)  # on_info is beyond the Player protocol
                name = config.name

                def lines(info: Info) -> None:
                    if info.score is not None and info.pv:
                        self._lines(name, info)

                player.on_info = lines
                self._players[i] = player
            return self._players[i]

    def _lines(self, name: str, info: Info) -> None:
        """The best line an engine has reported so far (score and moves)."""
        cur = self.current
        if cur is None:
            return
        side = "white" if cur["white"] == name else "black"
        board = Board(cur["fen"], variant=self.variant)
        pv = []
        for m in info.pv:
            if m not in board.legal_moves:
                break
            pv.append(board.move_text(m))
            board.push(m)
        cur["lines"][side] = {"depth": info.depth, "score": float(info.score or 0.0), "nps": round(info.nps), "pv": pv}
        self.emit({"type": "match_lines", "game": cur["game"], "side": side, **cur["lines"][side]})

    def _run(self) -> None:
        s = self.settings
        try:
            for job in self.match.schedule:
                if self.stopped:
                    break
                configs = [s.engines[job.first], s.engines[job.second]]
                try:
                    players = [
                        self._Watched(self, self._player(job.first)),
                        self._Watched(self, self._player(job.second)),
                    ]
                except Exception as e:
                    if not self.stopped:
                        self.status = f"stopped: {e}"
                    break
                board = job.opening.board(self.variant)
                first = self.variant.first
                names = {first: configs[0].name, ~first: configs[1].name}
                self.current = {
                    "game": job.index + 1,
                    "white": names[WHITE],
                    "black": names[~WHITE],
                    "fen": board.fen(),
                    "pieces": _pieces(board),
                    "lastmove": None,
                    "turn": _colour(board.turn),
                    "clocks": {"white": None, "black": None},
                    "running": None,
                    "lines": {"white": None, "black": None},
                    "plies": 0,
                }
                self.publish()
                record = play_game(job, players, configs, self.variant, s.rules)
                if self.stopped:
                    break
                self.match.game_finished(job, record)
                self.publish()
            if not self.stopped and self.status == "running":
                self.status = "finished"
                self.match.report()
        except Exception as e:  # a match that cannot go on is shown, not raised
            self.status = f"stopped: {e}"
        finally:
            self._close_players()
            if self.stopped and self.status == "running":
                self.status = "stopped"
            self.publish()

    class _Watched:
        """A player that forwards to another and tells the page of each turn
        and move (a DXP player's `start_at` is forwarded too)."""

        def __init__(self, owner: "GuiMatch", player: Player):
            self.owner, self.player, self.name = owner, player, player.name
            start_at = getattr(player, "start_at", None)
            if start_at is not None:
                self.start_at = start_at

        @property
        def alive(self) -> bool:
            return self.player.alive

        def new_game(self, variant: Variant) -> None:
            self.player.new_game(variant)

        def play(self, board: Board, limit, grace: float) -> PlayResult:
            cur = self.owner.current
            side = _colour(board.turn)
            remaining = limit.time if limit.time is not None else limit.movetime
            if cur is not None:
                cur["clocks"][side] = remaining
                cur["running"] = side
                cur["lines"][side] = None
                self.owner.publish()
            reply = self.player.play(board, limit, grace)
            config: Optional[EngineConfig] = getattr(self.player, "config", None)
            if config is not None and config.proto == "hub" and reply.info.score is not None:
                # a Hub engine's last word: its search as the move came (the line, if none, the move)
                if not reply.info.pv:
                    reply.info.pv = [reply.move]
                self.owner._lines(self.name, reply.info)
            if cur is not None and reply.move in board.legal_moves:
                after = board.copy()
                after.push(reply.move)
                if limit.time is not None:
                    cur["clocks"][side] = max(0.0, limit.time + (limit.inc or 0.0) - reply.elapsed)
                cur.update(
                    fen=after.fen(),
                    pieces=_pieces(after),
                    lastmove=list(reply.move.path),
                    turn=_colour(after.turn),
                    running=None,
                    plies=cur["plies"] + 1,
                )
                self.owner.publish()
            return reply

        def close(self) -> None:
            self.player.close()

    def _close_players(self) -> None:
        with self._lock:
            players, self._players = list(self._players.values()), {}
        for p in players:
            try:
                p.close()
            except Exception:
                pass

    def stop(self) -> None:
        self.stopped = True
        self._close_players()

    def message(self) -> Dict[str, Any]:
        s = self.settings
        names = [e.name for e in s.engines]
        records = list(self.match.records.values())
        return {
            "type": "match",
            "kind": "started",
            "status": self.status,
            "names": names,
            "variant": variant_info(self.variant),
            "played": len(records),
            "total": len(self.match.schedule),
            "tc": s.engines[0].tc.text(),
            **summary_json(names, records, s.repeat),
            "games": games_json(records, s.engines),
            "current": self.current,
            "console": self.out.getvalue().splitlines()[-8:],
        }

    def publish(self) -> None:
        self.emit(self.message())

    def game(self, index: int):
        record = self.match.records.get(index)
        if record is None:
            raise InvalidInputError(f"game {index + 1} of the match has not finished")
        return record_to_game(record, self.variant, self.settings.engines)


class FollowedMatch:
    """A match that `draughts match` runs, followed through its files: the
    state file (`-state FILE`: the settings and the finished games) and the
    live file (`-live FILE`: the games in progress, both clocks, the
    engines' lines as they think).  `path` is either; each names the other
    when the match has both."""

    def __init__(self, path: str):
        self.path = path
        self.state_path: Optional[str] = None
        self.live_path: Optional[str] = None
        self._mtimes: Dict[str, Optional[int]] = {}
        self.settings: Optional[MatchSettings] = None
        self.records: Dict[int, GameRecord] = {}
        self.data: Dict[str, Any] = {}
        self.live: Optional[Dict[str, Any]] = None

    @staticmethod
    def _mtime(path: str) -> int:
        try:
            return os.stat(path).st_mtime_ns
        except OSError as e:
            raise InvalidInputError(f"cannot read the match file {path!r}: {e.strerror}") from None

    def _changed(self, path: str) -> bool:
        mtime = self._mtime(path)
        if self._mtimes.get(path) == mtime:
            return False
        self._mtimes[path] = mtime
        return True

    def refresh(self) -> bool:
        """Read the files again where they have changed; True when one had."""
        if self.state_path is None and self.live_path is None:
            if _is_live(self.path):
                self.live_path = self.path
            else:
                self.state_path = self.path
        changed = False
        if self.live_path is not None and self._changed(self.live_path):
            self.live = read_live(self.live_path)
            if self.state_path is None and self.live.get("state") and os.path.exists(self.live["state"]):
                self.state_path = self.live["state"]
            changed = True
        if self.state_path is not None and self._changed(self.state_path):
            data = load_state(self.state_path)
            self.settings = MatchSettings.from_json(data["settings"])
            self.records = {r.index: r for r in (GameRecord.from_json(d) for d in data.get("records", []))}
            self.data = data
            if self.live_path is None and self.settings.live and os.path.exists(self.settings.live):
                self.live_path = self.settings.live
                self._changed(self.live_path)
                self.live = read_live(self.live_path)
            changed = True
        if self.live is not None and self.live.get("status") == "running" and self.live.get("games"):
            changed = True  # a clock is running
        return changed

    def _variant(self) -> Variant:
        if self.settings is not None:
            return self.settings.variant_value()
        assert self.live is not None
        v = get_variant(self.live["variant"])
        return v if self.live.get("mandatory_capture", True) else v.replace(mandatory_capture=False)

    def _live_current(self, variant: Variant) -> Optional[Dict[str, Any]]:
        """The first game in progress, as the page draws it: the clock that
        runs less the time since it started."""
        games = (self.live or {}).get("games") or []
        if not games:
            return None
        g = min(games, key=lambda x: x["index"])
        board = Board(g["fen"], variant=variant)
        for text in g["moves"]:
            board.push(board.parse_move(text))
        clocks = dict(g["clocks"])
        running = g.get("running")
        if running and clocks.get(running) is not None and g.get("since"):
            clocks[running] = max(0.0, clocks[running] - (time.time() - g["since"]))
        lines: Dict[str, Any] = {}
        for side in ("white", "black"):
            line = g["lines"].get(side)
            lines[side] = None if line is None else {**line, "pv": _pv_text(board, line["pv"])}
        return {
            "game": g["index"] + 1,
            "white": g["white"],
            "black": g["black"],
            "fen": board.fen(),
            "pieces": _pieces(board),
            "lastmove": list(board.peek().path) if board.move_stack else None,
            "turn": _colour(board.turn),
            "clocks": clocks,
            "running": running,
            "lines": lines,
            "plies": len(board.move_stack),
        }

    def message(self) -> Dict[str, Any]:
        s = self.settings
        variant = self._variant()
        names = [e.name for e in s.engines] if s is not None else list((self.live or {}).get("names", []))
        records = list(self.records.values())
        if self.live is not None:
            status = self.live.get("status", "running")
        else:
            status = "finished" if self.data.get("complete") else (self.data.get("stopped") or "running")
        current = self._live_current(variant) if self.live is not None else None
        if current is None and records and s is not None:
            last = max(records, key=lambda r: r.index)
            board = record_board(last, variant)
            first = variant.first
            by = {first: names[last.first], ~first: names[last.second]}
            current = {
                "game": last.index + 1,
                "white": by[WHITE],
                "black": by[~WHITE],
                "fen": board.fen(),
                "pieces": _pieces(board),
                "lastmove": list(board.peek().path) if board.move_stack else None,
                "turn": _colour(board.turn),
                "clocks": {"white": None, "black": None},
                "running": None,
                "lines": {"white": None, "black": None},
                "plies": len(last.moves),
            }
        summary = summary_json(names, records, s.repeat) if len(names) == 2 and s is not None else {}
        played = len(records) if s is not None else int((self.live or {}).get("played", 0))
        total = self.data.get("total", len(records)) if self.live is None else self.live.get("total", played)
        return {
            "type": "match",
            "kind": "followed",
            "status": status,
            "names": names,
            "played": played,
            "variant": variant_info(variant),
            "total": total,
            "tc": s.engines[0].tc.text() if s is not None else "",
            **summary,
            "games": games_json(records, s.engines) if s is not None else [],
            "current": current,
            "console": [],
            "file": os.path.basename(self.path),
        }

    def game(self, index: int):
        s = self.settings
        record = self.records.get(index)
        if s is None or record is None:
            raise InvalidInputError(f"game {index + 1} of the match has not finished")
        return record_to_game(record, s.variant_value(), s.engines)

"""Engine-vs-engine matches: `draughts match` and `draughts openings`.

    from draughts.match import Match, MatchSettings, parse_engine
    settings = MatchSettings(engines=[parse_engine(["name=a", "cmd=draughts", "arg=hub", "depth=6"]),
                                      parse_engine(["name=b", "cmd=draughts", "arg=hub", "depth=4"])],
                             variant="american", games=10, repeat=2)
    result = Match(settings).run()
    result.summary.elo, result.summary.los

    engine = open_engine(parse_engine(["cmd=scan", "arg=hub", "depth=6"]), draughts.variant("international"))

Modules: `stats` (Elo, LOS, pentanomial, SPRT), `timecontrol`, `openings`
(books, the ACF 3-move deck, the balanced-opening generator), `engines`
(engine settings, and `open_engine`, which starts the engine they name), `players`
(the referee's players), `game` (the referee), `schedule`, `runner`
(concurrency, Ray, output, state and resume), `cli`.
"""

from draughts.match.engines import EngineConfig, open_engine, parse_engine
from draughts.match.game import DrawAdjudication, GameRecord, ResignAdjudication, Rules
from draughts.match.openings import Book, Opening
from draughts.match.runner import Match, MatchResult, MatchSettings, OpeningSettings
from draughts.match.stats import Sprt, summarise
from draughts.match.timecontrol import TimeControl

__all__ = [
    "EngineConfig",
    "parse_engine",
    "open_engine",
    "DrawAdjudication",
    "ResignAdjudication",
    "Rules",
    "GameRecord",
    "Book",
    "Opening",
    "Match",
    "MatchResult",
    "MatchSettings",
    "OpeningSettings",
    "Sprt",
    "summarise",
    "TimeControl",
]

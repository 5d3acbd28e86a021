"""A match's settings, as the command line gives them and the state file keeps them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from draughts.match import stats
from draughts.match.engines import EngineConfig
from draughts.match.game import Rules
from draughts.variants import Variant, variant as get_variant

__all__ = ["OpeningSettings", "MatchSettings"]


@dataclass
class OpeningSettings:
    file: Optional[str] = None
    format: Optional[str] = None
    order: str = "sequential"
    plies: Optional[int] = None
    start: int = 1

    def to_json(self) -> Dict:
        return dataclasses.asdict(self)


@dataclass
class MatchSettings:
    engines: List[EngineConfig]
    variant: str = "international"
    games: int = 1
    rounds: int = 1
    repeat: int = 1
    tournament: str = "round-robin"
    #: games at once (None: 1 here, the cluster's CPUs with Ray)
    concurrency: Optional[int] = None
    srand: Optional[int] = None
    openings: Optional[OpeningSettings] = None
    rules: Rules = field(default_factory=Rules)
    recover: bool = False
    sprt: Optional[stats.Sprt] = None
    event: str = "?"
    site: str = "?"
    pdnout: Optional[str] = None
    jsonout: Optional[str] = None
    state: Optional[str] = None
    #: the games in progress, for a viewer (`-live FILE`, draughts.match.live)
    live: Optional[str] = None
    ratinginterval: int = 10
    cluster: Optional[str] = None
    mandatory_capture: bool = True
    #: print each game's and the match's latency figures
    show_latency: bool = False
    #: keep each concurrent game's engines on a processor of their own (None:
    #: when 2 or more games run at once and there is a processor for each)
    use_affinity: Optional[bool] = None

    def variant_value(self) -> Variant:
        v = get_variant(self.variant)
        return v if self.mandatory_capture else v.replace(mandatory_capture=False)

    #: how the fields that are not plain JSON values are written and read (the
    #: rest go as they are): every field is kept, so a new one cannot be
    #: forgotten by the state file (and -resume)
    _CODECS = {
        "engines": (lambda v: [e.to_json() for e in v], lambda d: [EngineConfig.from_json(e) for e in d]),
        "openings": (lambda v: v.to_json() if v else None, lambda d: OpeningSettings(**d) if d else None),
        "rules": (lambda v: v.to_json(), Rules.from_json),
        "sprt": (lambda v: dataclasses.asdict(v) if v else None, lambda d: stats.Sprt(**d) if d else None),
    }

    def to_json(self) -> Dict:
        out = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = self._CODECS[f.name][0](value) if f.name in self._CODECS else value
        return out

    @classmethod
    def from_json(cls, d: Dict) -> "MatchSettings":
        """The settings of a state file; a field it does not name (a file of
        an earlier version) keeps its default."""
        kwargs: Dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in d:
                kwargs[f.name] = cls._CODECS[f.name][1](d[f.name]) if f.name in cls._CODECS else d[f.name]
        return cls(**kwargs)

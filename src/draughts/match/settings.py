"""A match's settings, as the command line gives them and the state file keeps them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Dict, List, Optional

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

    def to_json(self) -> Dict:
        return {
            "engines": [e.to_json() for e in self.engines], "variant": self.variant,
            "mandatory_capture": self.mandatory_capture,
            "games": self.games, "rounds": self.rounds, "repeat": self.repeat,
            "tournament": self.tournament, "concurrency": self.concurrency, "srand": self.srand,
            "openings": self.openings.to_json() if self.openings else None,
            "rules": self.rules.to_json(), "recover": self.recover,
            "sprt": dataclasses.asdict(self.sprt) if self.sprt else None,
            "event": self.event, "site": self.site, "pdnout": self.pdnout, "jsonout": self.jsonout,
            "state": self.state, "live": self.live, "ratinginterval": self.ratinginterval, "cluster": self.cluster,
            "show_latency": self.show_latency, "use_affinity": self.use_affinity,
        }

    @classmethod
    def from_json(cls, d: Dict) -> "MatchSettings":
        return cls(
            engines=[EngineConfig.from_json(e) for e in d["engines"]], variant=d["variant"],
            mandatory_capture=d.get("mandatory_capture", True),
            games=d["games"], rounds=d["rounds"], repeat=d["repeat"], tournament=d["tournament"],
            concurrency=d["concurrency"], srand=d["srand"],
            openings=OpeningSettings(**d["openings"]) if d.get("openings") else None,
            rules=Rules.from_json(d["rules"]), recover=d["recover"],
            sprt=stats.Sprt(**d["sprt"]) if d.get("sprt") else None,
            event=d["event"], site=d["site"], pdnout=d["pdnout"], jsonout=d["jsonout"],
            state=d["state"], live=d.get("live"), ratinginterval=d["ratinginterval"], cluster=d.get("cluster"),
            show_latency=bool(d.get("show_latency", False)),
            use_affinity=d.get("use_affinity"))

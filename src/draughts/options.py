"""The engine's options, each declared once: name, type, range, default and help.

`draughts.engine.Engine.configure` takes the options marked `engine` (their
values checked by `draughts.engine.OPTIONS`, which is made from this table),
`draughts hub` declares and checks the options marked `hub` as its `param`
lines, the match runner passes `option.NAME=VALUE` to either, and
docs/hub.md's parameter table lists the `hub` ones (a test holds it to this
table).  Adding an option is one entry here, plus what it does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

from draughts.tuning import tuning_fields
from draughts.variants import VARIANTS
from draughts_core.search import MULTIPV_LINES, THREADS_MAX

#: Scan's and other Hub clients' names of some variants, accepted as values of `variant`
HUB_ALIASES = {"international": ("normal",), "antidraughts": ("losing",), "breakthrough": ("bt",)}
VARIANT_VALUES = [n for name in VARIANTS for n in (name, *HUB_ALIASES.get(name, ()))]

#: the transposition table's size in MiB, by default and at most
DEFAULT_TT_MB = 64
TT_MB_MAX = 65536
#: milliseconds kept back from every timed move, by default and at most
DEFAULT_MOVE_OVERHEAD_MS = 20
MOVE_OVERHEAD_MAX_MS = 5000
#: the strongest level
LEVEL_MAX = 20
#: centi-men below the best within which a book move may be chosen
BOOK_MARGIN = 10


@dataclass(frozen=True)
class Option:
    """One option. `type` is a Hub parameter type (bool, int, real, enum,
    string); `default` the Hub's default (an Engine's default where the
    engine's differs is given in `engine_default`); `hub`: a `draughts hub`
    parameter; `engine`: an `Engine.configure` option."""

    name: str
    type: str
    default: Any
    help: str
    min: Optional[int] = None
    max: Optional[int] = None
    values: Tuple[str, ...] = ()
    hub: bool = True
    engine: bool = True
    engine_default: Any = field(default=None)

    def range_text(self) -> str:
        if self.type == "int":
            return f"int {self.min}-{self.max}"
        if self.type == "enum":
            return f"enum `{' '.join(self.values)}`" if len(self.values) < 6 else "enum"
        return self.type


#: every option, in the order `draughts hub` declares them
OPTIONS: Tuple[Option, ...] = (
    Option(
        "variant",
        "enum",
        "international",
        "the variant played; setting it resets the position",
        values=tuple(VARIANT_VALUES),
    ),
    Option("mandatory-capture", "bool", True, "false plays the house rule (capturing is optional)", engine=False),
    Option("tt-size", "int", DEFAULT_TT_MB, "the transposition table in MiB", 1, TT_MB_MAX),
    Option("ponder", "bool", False, "accepted for GUIs that send it", engine=False),
    Option("level", "int", LEVEL_MAX, "strength; 20 is full strength", 1, LEVEL_MAX),
    Option(
        "move-overhead",
        "int",
        DEFAULT_MOVE_OVERHEAD_MS,
        "milliseconds kept back from every timed move",
        0,
        MOVE_OVERHEAD_MAX_MS,
    ),
    Option("pydraughts", "bool", False, "read and write pydraughts' 8x8 dialect", engine=False),
    Option(
        "eval", "enum", "auto", "the evaluation; auto is the variant's default", values=("auto", "classic", "learned")
    ),
    Option(
        "egdb-path",
        "string",
        "auto",
        "a directory of endgame databases, auto (the database directory's, else the shipped tables) or none",
    ),
    Option("threads", "int", 1, "search threads sharing the table", 1, THREADS_MAX),
    Option("multipv", "int", 1, "lines `go analyze` reports", 1, MULTIPV_LINES, engine=False),
    Option(
        "book",
        "string",
        "auto",
        "an opening book: auto (the variant's shipped book), a book file, or none",
        engine_default="none",
    ),
    Option(
        "book-margin", "int", BOOK_MARGIN, "centi-men below the book's best move within which a move is chosen", 0, 3000
    ),
    Option("eval-file", "string", "", "a learned weights file instead of the shipped one", hub=False),
    # the search's whole-number tuning: one option a SearchParams field (draughts.tuning);
    # None: the variant's default
    *(
        Option(
            f.name.replace("_", "-"),
            "int",
            None,
            f"search tuning: {f.metadata['help']} (SearchParams)",
            f.metadata["min"],
            f.metadata["max"],
            hub=False,
        )
        for f in tuning_fields()
    ),
    Option(
        "probcut",
        "string",
        "auto",
        "search tuning: off, auto, or MIN,PCT,SLOPE,ICPT,SIGMA,SIGMA_PER_PLY,T[,CAPTURES]",
        hub=False,
    ),
)

BY_NAME = {o.name: o for o in OPTIONS}


def hub_options() -> List[Option]:
    return [o for o in OPTIONS if o.hub]


def engine_options() -> List[Option]:
    return [o for o in OPTIONS if o.engine]

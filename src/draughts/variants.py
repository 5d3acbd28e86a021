"""Variants as data.

A `Variant` is an immutable value holding every rule of a variant: board
geometry, who moves first, the capture rules, notation and the draw rules.  The
rules the core reads are declared once, in `draughts_core.rule_fields.RULES`:
each is a Variant field of the same name, and `Variant.core_rules` packs them
by name into the core's C struct.
`variant(name, **options)` looks a variant up by name or alias and derives a new
value from options, e.g. ``variant("american", mandatory_capture=False)``.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from draughts.errors import VariantError
from draughts_core.position import CoreRules

# the rules' one declaration (each a Variant field of the same name) and the
# names of the values of the rules held as names: CROWN_MODES, ENDGAME_RULES,
# GOALS (what wins) and GEOMETRIES (the board)
from draughts_core.rule_fields import CROWN_MODES, ENDGAME_RULES, GEOMETRIES, GOALS, RULES


class Color(enum.IntEnum):
    WHITE = 0
    BLACK = 1

    def __invert__(self):
        return Color(1 - self)

    @property
    def letter(self):
        return "W" if self is Color.WHITE else "B"

    def __repr__(self):
        return f"draughts.{self.name}"

    __str__ = __repr__


WHITE = Color.WHITE
BLACK = Color.BLACK

NUMBERINGS = ("standard", "italian", "spanish")


@dataclass(frozen=True)
class Variant:
    """Every rule of one variant.  Derive new values with `replace(**changes)`.

    The fields named in `draughts_core.rule_fields.RULES` are the rules the
    core reads (`core_rules`); the others are notation, the start position,
    repetition and the names."""

    name: str
    size: int
    first: Color
    men_capture_backwards: bool
    flying_kings: bool
    men_capture_kings: bool
    majority_capture: bool
    #: a man reaching the far row during a capture: "stop" (crowned, move ends),
    #: "continue" (crowned, goes on capturing as a king), "pass" (crowned only if the capture ends there)
    crown_during_capture: str
    remove_at_once: bool
    gametype: int
    pdn_gametype: str
    numbering: str = "standard"
    algebraic: bool = False
    capture_separator: str = "x"
    mandatory_capture: bool = True
    # --- capture precedence after the majority rule (docs/rules.md), as the
    # core applies it: the spanish rule is more kings; the italian, a capture
    # by a king, then more kings, then kings met earlier; the czech, a capture
    # by a king when a king can capture
    #: a capture by a king goes before a capture by a man
    prefer_king_mover: bool = False
    #: of captures taking as many pieces, the one taking more kings
    prefer_more_kings: bool = False
    #: then the one that meets a king earliest
    prefer_early_kings: bool = False
    # --- frisian, killer and the other goals
    #: men and kings also capture along rows and columns (frisian)
    orthogonal_captures: bool = False
    #: the capture of greatest value is compulsory, a king worth more than a man
    #: and less than two (frisian; replaces the piece count of majority_capture)
    capture_value: bool = False
    #: a king may make at most this many quiet moves in a row while its side
    #: still has men (frisian: 3; 0: no limit)
    king_move_limit: int = 0
    #: a king whose capture ends by taking a king lands directly behind it (killer)
    halt_behind_king: bool = False
    #: what wins the game: one of GOALS
    goal: str = "normal"
    #: the start position as a FEN (None: the men on the rows nearest each side)
    start_fen: Optional[str] = None
    # --- draw rules (plies = half-moves) ---
    #: draw on this occurrence of a position with the same side to move (0: off)
    repetitions: int = 3
    #: draw after this many plies with no man move and no capture (0: off)
    quiet_plies: int = 0
    #: draw after this many plies with no capture and no promotion (0: off)
    no_capture_promotion_plies: int = 0
    #: extra endgame counting rules: None, "fmjd" (16/5-move rules), "fmjd64" (russian),
    #: "frisian" (7/2 moves with kings only), "pool" (three kings against one: 13 moves)
    endgame_rules: Optional[str] = None
    aliases: Tuple[str, ...] = ()
    description: str = ""
    #: a flying king that captures lands on the square directly behind each piece it takes (thai)
    king_lands_behind: bool = False
    #: rows of men each side starts with (0: the board's usual, 3 on 8x8 and 4 on 10x10)
    men_rows: int = 0
    #: the board: see GEOMETRIES
    geometry: str = "diagonal"
    #: a capturing piece may not turn back 180 degrees (turkish)
    no_turn_back: bool = False

    def __post_init__(self):
        if self.size not in (8, 10):
            raise VariantError(f"board size must be 8 or 10, not {self.size!r}")
        for field in (
            "prefer_king_mover",
            "prefer_more_kings",
            "prefer_early_kings",
            "orthogonal_captures",
            "capture_value",
            "halt_behind_king",
        ):
            if not isinstance(getattr(self, field), bool):
                raise VariantError(f"{field} must be True or False, not {getattr(self, field)!r}")
        if self.crown_during_capture not in CROWN_MODES:
            raise VariantError(f"crown_during_capture must be one of {CROWN_MODES}, not {self.crown_during_capture!r}")
        if self.numbering not in NUMBERINGS:
            raise VariantError(f"numbering must be one of {NUMBERINGS}, not {self.numbering!r}")
        if self.size == 10 and (self.numbering != "standard" or self.algebraic):
            raise VariantError("10x10 boards use the standard numeric numbering")
        if self.endgame_rules not in ENDGAME_RULES:
            raise VariantError(f"endgame_rules must be one of {ENDGAME_RULES}, not {self.endgame_rules!r}")
        for field in ("repetitions", "quiet_plies", "no_capture_promotion_plies"):
            value = getattr(self, field)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise VariantError(f"{field} must be a whole number >= 0, not {value!r}")
        if self.geometry not in GEOMETRIES:
            raise VariantError(f"geometry must be one of {GEOMETRIES}, not {self.geometry!r}")
        if self.geometry == "orthogonal" and (self.size != 8 or self.numbering != "standard"):
            raise VariantError("the orthogonal board is 8x8 with the standard numbering")
        if not isinstance(self.no_turn_back, bool):
            raise VariantError(f"no_turn_back must be True or False, not {self.no_turn_back!r}")
        if not isinstance(self.king_lands_behind, bool):
            raise VariantError(f"king_lands_behind must be True or False, not {self.king_lands_behind!r}")
        if (
            not isinstance(self.men_rows, int)
            or isinstance(self.men_rows, bool)
            or not 0 <= self.men_rows < self.size // 2
        ):
            raise VariantError(f"men_rows must be a whole number from 0 to {self.size // 2 - 1}, not {self.men_rows!r}")
        if self.repetitions == 1:
            raise VariantError("repetitions must be 0 (off) or at least 2")
        if self.goal not in GOALS:
            raise VariantError(f"goal must be one of {GOALS}, not {self.goal!r}")
        limit = self.king_move_limit
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 3:
            raise VariantError(f"king_move_limit must be a whole number from 0 to 3, not {limit!r}")
        if self.orthogonal_captures and self.remove_at_once:
            raise VariantError("orthogonal captures are implemented with removal at the end of the move only")
        object.__setattr__(self, "first", Color(self.first))

    # --- derived values ---
    @property
    def squares(self) -> int:
        """Number of playable squares (32, 50, or 64 on the orthogonal board)."""
        if self.geometry == "orthogonal":
            return self.size * self.size
        return self.size * self.size // 2

    @property
    def squares_per_row(self) -> int:
        return self.squares // self.size

    @property
    def start_rows(self) -> int:
        """Rows of men each side has at the start."""
        return self.men_rows or (3 if self.size == 8 else 4)

    @property
    def men_per_side(self) -> int:
        return self.start_rows * self.squares_per_row

    @property
    def result_tokens(self) -> Tuple[str, str, str]:
        """(first player wins, draw, second player wins) as written in PDN."""
        if self.size == 10:
            return ("2-0", "1-1", "0-2")
        return ("1-0", "1/2-1/2", "0-1")

    @functools.cached_property
    def core_rules(self) -> CoreRules:
        """The rules packed for the core: each rule of `RULES` by its name."""
        return CoreRules(**{rule.name: rule.core_value(getattr(self, rule.name)) for rule in RULES})

    def replace(self, **changes) -> "Variant":
        """A new variant value with some fields changed (names are checked)."""
        fields = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in fields:
                raise VariantError(f"unknown variant option {key!r}")
        new = dataclasses.replace(self, **changes)
        return new

    @property
    def is_standard(self) -> bool:
        """True when the value is the registered variant with no option changed."""
        return VARIANTS.get(self.name) == self

    def __reduce__(self):
        return (_rebuild, (dataclasses.asdict(self),))

    def __repr__(self):
        base = VARIANTS.get(self.name)
        if base is None:
            return f"Variant({self.name!r}, ...)"
        diff = {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }
        args = "".join(f", {k}={v!r}" for k, v in diff.items())
        return f"draughts.variant({self.name!r}{args})"


def _rebuild(fields):
    fields = dict(fields)
    fields["aliases"] = tuple(fields.get("aliases", ()))
    return Variant(**fields)


# The registry.  Draw-rule sources are named beside each value.
_REGISTRY = [
    Variant(
        name="international",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=20,
        pdn_gametype="20,W,10,10,N2,0",
        # FMJD rules (Annex 1), art. 6.1 repetition, 6.2 25 king moves each,
        # 6.3 sixteen-move and 6.4 five-move endgame rules.
        quiet_plies=50,
        endgame_rules="fmjd",
        aliases=("10x10", "intl", "normal", "fmjd", "polish"),
        description="International draughts on 10x10 (FMJD)",
    ),
    Variant(
        name="american",
        size=8,
        first=BLACK,
        men_capture_backwards=False,
        flying_kings=False,
        men_capture_kings=True,
        majority_capture=False,
        crown_during_capture="stop",
        remove_at_once=True,
        gametype=21,
        pdn_gametype="21,B,8,8,N1,0",
        # WCDF/ACF rules: third repetition; 40 moves each without a man
        # advancing and without a capture.  The simpler counter some sites use
        # (40 moves each without capture or promotion) is
        # variant("american", quiet_plies=0, no_capture_promotion_plies=80).
        quiet_plies=80,
        aliases=("english", "checkers", "straight", "english-draughts", "acf"),
        description="American checkers / English draughts",
    ),
    Variant(
        name="italian",
        size=8,
        first=WHITE,
        men_capture_backwards=False,
        flying_kings=False,
        men_capture_kings=False,
        majority_capture=True,
        prefer_king_mover=True,
        prefer_more_kings=True,
        prefer_early_kings=True,
        crown_during_capture="stop",
        remove_at_once=False,
        gametype=22,
        pdn_gametype="22,W,8,8,N2,1",
        numbering="italian",
        # FID regolamento tecnico art. 10.4: 40 moves each without a capture
        # or a man move; third repetition.
        quiet_plies=80,
        aliases=("dama", "italiana", "fid"),
        description="Italian draughts (FID)",
    ),
    Variant(
        name="spanish",
        size=8,
        first=WHITE,
        men_capture_backwards=False,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        prefer_more_kings=True,
        crown_during_capture="stop",
        remove_at_once=False,
        gametype=24,
        pdn_gametype="24,W,8,8,N1,1",
        numbering="spanish",
        # No federation text was found for the move limit; the FMJD count of
        # 25 moves each without a capture or a man move is used.
        quiet_plies=50,
        aliases=("espanol", "español", "damas", "portuguese"),
        description="Spanish draughts",
    ),
    Variant(
        name="russian",
        size=8,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=False,
        crown_during_capture="continue",
        remove_at_once=False,
        gametype=25,
        pdn_gametype="25,W,8,8,A0,0",
        algebraic=True,
        capture_separator=":",
        # FMJD-64 rules 7.2.3 (repetition) and 7.2.5 (15 moves each with only
        # king moves and no capture).  The further endgame rules (7.2.4,
        # 7.2.6-7.2.8) are variant("russian", endgame_rules="fmjd64").
        quiet_plies=30,
        aliases=("shashki", "russian-draughts", "fmjd64"),
        description="Russian draughts (shashki)",
    ),
    Variant(
        name="brazilian",
        size=8,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=26,
        pdn_gametype="26,W,8,8,A0,0",
        algebraic=True,
        # Regras Oficiais do Jogo de Damas (64 e 100 casas), item 16: 20
        # successive king moves by each side without a capture or man move.
        quiet_plies=40,
        aliases=("brazil", "brasileiro"),
        description="Brazilian draughts",
    ),
    Variant(
        name="czech",
        size=8,
        first=WHITE,
        men_capture_backwards=False,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=False,
        prefer_king_mover=True,
        crown_during_capture="stop",
        remove_at_once=False,
        gametype=29,
        pdn_gametype="29,W,8,8,A0,0",
        algebraic=True,
        # Czech federation rules as summarised by the FMJD: 15 moves (each)
        # without a capture or a man move; third repetition.
        quiet_plies=30,
        aliases=("cesky", "české", "dama-czech"),
        description="Czech draughts",
    ),
    Variant(
        name="frisian",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        capture_value=True,
        prefer_king_mover=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=40,
        pdn_gametype="40,W,10,10,N2,0",
        # Rules of the Frisian draughts federation (friesdammen.nl, article 20,
        # as DCTL's rules/frisian.hpp cites them): captures in eight directions;
        # the capture of greatest value (a king more than a man, less than two),
        # then a capture by a king; at most three quiet moves in a row with one
        # king while the side has men.  Draws: third repetition; two kings
        # against one king 7 moves each, one king against one king 2 moves each
        # (lidraughts' reading of the rule "drawn unless a forced win").
        orthogonal_captures=True,
        king_move_limit=3,
        endgame_rules="frisian",
        aliases=("fries", "frysk-spul", "friesian"),
        description="Frisian draughts (orthogonal captures)",
    ),
    Variant(
        name="frysk",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        capture_value=True,
        prefer_king_mover=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=97,
        pdn_gametype="97,W,10,10,N2,0",
        # Frisian rules from lidraughts' Frysk! start: five men each on the
        # back row (lidraughts' GameType 97).
        orthogonal_captures=True,
        king_move_limit=3,
        endgame_rules="frisian",
        start_fen="W:W46-50:B1-5",
        aliases=("frysk!",),
        description="Frysk!: frisian draughts from five men each",
    ),
    Variant(
        name="antidraughts",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=98,
        pdn_gametype="98,W,10,10,N2,0",
        # International moves (FMJD rules); the side with no move (no pieces
        # or all blocked) wins: lidraughts' Antidraughts (GameType 98), Scan's
        # "losing".  Draws as international.
        goal="losing",
        quiet_plies=50,
        endgame_rules=None,
        aliases=("losing", "anti", "giveaway", "suicide"),
        description="Antidraughts: lose all your pieces (or be blocked) to win",
    ),
    Variant(
        name="breakthrough",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=96,
        pdn_gametype="96,W,10,10,N2,0",
        # International moves (FMJD rules); the first side to crown a king wins
        # (lidraughts' Breakthrough, GameType 96; Scan's "bt").  No king ever
        # moves, so only repetition draws.
        goal="breakthrough",
        aliases=("bt",),
        description="Breakthrough: the first to crown a king wins",
    ),
    Variant(
        name="killer",
        size=10,
        first=WHITE,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=20,
        pdn_gametype="20,W,10,10,N2,0",
        # FMJD rules with the killer rule of its inventor, Christian Freeling
        # (mindsports.nl, "Killer draughts rules"; DCTL's is_halt_behind_king):
        # a king whose capture ends by taking a king must land on the square
        # directly behind it.  PDN has no GameType of its own (20 is read as
        # international unless the reader is given variant="killer").
        halt_behind_king=True,
        quiet_plies=50,
        endgame_rules="fmjd",
        aliases=("killer-draughts",),
        description="Killer draughts: a capturing king halts behind the last king taken",
    ),
    Variant(
        name="pool",
        size=8,
        first=BLACK,
        men_capture_backwards=True,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=False,
        crown_during_capture="pass",
        remove_at_once=False,
        gametype=23,
        pdn_gametype="23,B,8,8,N1,0",
        # APCA Tournament Rules of Play (americanpoolcheckers.us), as DCTL's
        # rules/pool.hpp reads them: black moves first (7), men jump backwards
        # (14), flying kings (15), no crowning in passing (16), pieces removed
        # after the jump (19), free choice of capture (20); third repetition and
        # 15 moves each with only king moves and no capture are a draw (26);
        # three kings against a lone king must win within 13 moves (the APCA
        # playing rules as the association's pages and Wikipedia give them).
        quiet_plies=30,
        endgame_rules="pool",
        aliases=("pool-checkers", "american-pool", "apca", "spanish-pool"),
        description="American pool checkers (APCA)",
    ),
    Variant(
        name="thai",
        size=8,
        first=WHITE,
        men_capture_backwards=False,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=False,
        crown_during_capture="stop",
        remove_at_once=True,
        gametype=31,
        pdn_gametype="31,W,8,8,N1,0",
        king_lands_behind=True,
        men_rows=2,
        # Mak-hos (Thai checkers) as DCTL's rules/thai.hpp and the rule pages of
        # mindsports.nl and the Checkers & Draughts Wiki give it: 8 men each on
        # two rows, White begins, men move and capture forward, a man ending on
        # the far row is crowned and the move ends, kings fly and land directly
        # behind each piece they take, captured pieces leave the board at once
        # (so a king may turn back), free choice of capture.  No federation text
        # of a move-count rule was found: only the third repetition draws.
        aliases=("makhos", "mak-hos", "mak-hot", "thai-checkers"),
        description="Thai checkers (Mak-hos)",
    ),
    Variant(
        name="turkish",
        size=8,
        first=WHITE,
        men_capture_backwards=False,
        flying_kings=True,
        men_capture_kings=True,
        majority_capture=True,
        crown_during_capture="pass",
        remove_at_once=True,
        gametype=30,
        pdn_gametype="30,W,8,8,A0,0",
        algebraic=True,
        geometry="orthogonal",
        no_turn_back=True,
        men_rows=2,
        # Dama as the Turkish federation plays it (the rules of the kish crate
        # and pydraughts): every square, 16 men each on the second and third
        # rows, White begins; men move and capture forward and sideways, kings
        # fly along rows and columns; captured pieces leave the board at once
        # and a capturing piece never turns back 180 degrees; the capture of
        # the most pieces is compulsory; a man reaching the last row in a
        # capture goes on and is crowned at the end of the move.  No
        # federation text of a move-count rule was found: only the third
        # repetition draws.
        aliases=("turkish-draughts", "turkish-dama", "dama-turca"),
        description="Turkish draughts (Dama)",
    ),
]

VARIANTS = {v.name: v for v in _REGISTRY}
_ALIASES = {}
for _v in _REGISTRY:
    _ALIASES[_v.name] = _v.name
    for _a in _v.aliases:
        _ALIASES[_a.lower()] = _v.name
_BY_GAMETYPE: Dict[int, Variant] = {}
for _v in _REGISTRY:
    _BY_GAMETYPE.setdefault(_v.gametype, _v)  # 20 stays international (killer shares it)


def variant(name="international", **options) -> Variant:
    """The variant called `name` (case-insensitive, aliases allowed), with options applied.

    `name` may also be a Variant value, which is returned with the options applied.
    """
    if isinstance(name, Variant):
        base = name
    else:
        if not isinstance(name, str):
            raise VariantError(f"a variant name must be a string, not {type(name).__name__}")
        key = _ALIASES.get(name.strip().lower())
        if key is None:
            raise VariantError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
        base = VARIANTS[key]
    return base.replace(**options) if options else base


def variant_for_gametype(gametype) -> Variant:
    """The variant of a PDN GameType tag value ("20", "21,B,8,8,N1,0", 25, ...)."""
    text = str(gametype).strip()
    head = text.split(",")[0].strip()
    if not head.isascii() or not head.isdigit():  # ASCII digits, as draughts._args reads them
        raise VariantError(f"GameType {gametype!r} does not start with a number")
    number = int(head)
    if number not in _BY_GAMETYPE:
        raise VariantError(
            f"GameType {number} is not a variant this library plays "
            f"(known: {', '.join(str(k) for k in sorted(_BY_GAMETYPE))})"
        )
    return _BY_GAMETYPE[number]

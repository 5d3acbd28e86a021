"""The rules of a variant, declared once.

`RULES` names every rule the core reads.  A rule has one name in every layer:
the `draughts.Variant` field (and option of `draughts.variant(name, **options)`),
the keyword of `CoreRules(...)` and the field of the core's C struct `Rules`
(`rules.pxd`).  `CoreRules` builds that struct from these names (and checks at
import that the struct has exactly these fields, besides the derived
`extended`); its `as_dict()`, `move_rules()`, `repr` and pickling, the opening
books' rule fingerprint and the endgame tables' key are all read from here by
name, so no value's position in a list carries meaning.

Adding a rule is one entry here, the field of that name in `Rules` (which the
move generator then reads) and the `Variant` field that users set.  A rule
that is off (its `default`) must leave every move as it was: books and
endgame tables written before the rule existed are read as having it off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

#: the groups of rules: MOVE rules make the moves (and so perft, the endgame
#: tables and the opening books depend on them); DRAW rules only end games
MOVE = "move"
DRAW = "draw"

# The names of the values of the rules that the Variant holds as names; the
# core holds the index, and rules.pxd's enums follow these orders.
#: a man reaching the far row during a capture: "stop" (crowned, move ends),
#: "continue" (crowned, goes on capturing as a king), "pass" (crowned only if the capture ends there)
CROWN_MODES = ("stop", "continue", "pass")
#: extra endgame counting rules: None, "fmjd" (16/5-move rules), "fmjd64" (russian),
#: "frisian" (7/2 moves with kings only), "pool" (three kings against one: 13 moves)
ENDGAME_RULES = (None, "fmjd", "fmjd64", "frisian", "pool")
#: what wins: "normal" (the side with no move loses), "losing" (antidraughts: the
#: side with no move wins), "breakthrough" (the first side to crown a king wins)
GOALS = ("normal", "losing", "breakthrough")
#: "diagonal": the dark squares, diagonal moves; "orthogonal": every square of
#: an 8x8 board, moves along rows and columns (turkish)
GEOMETRIES = ("diagonal", "orthogonal")


@dataclass(frozen=True)
class RuleField:
    """One rule.  `kind` is bool (the core holds 0 or 1), int (from `low` to
    `high`; None: no upper bound) or "choice" (the Variant holds one of
    `choices`, the core its index).  `default` is the value that turns the
    rule off, as the core holds it (None: the rule has no default and every
    variant names it)."""

    name: str
    group: str
    kind: Any = bool
    low: int = 0
    high: Optional[int] = 1
    choices: Tuple[Any, ...] = ()
    default: Optional[int] = 0

    def core_value(self, value: Any) -> int:
        """The core's value (an int) of a Variant's value of this rule."""
        if self.kind == "choice":
            return self.choices.index(value)
        return int(value)

    def check(self, value: int) -> None:
        """ValueError unless the core's value is one this rule allows."""
        high = len(self.choices) - 1 if self.kind == "choice" else self.high
        if not (self.low <= value and (high is None or value <= high)):
            allowed = f"{self.low} to {high}" if high is not None else f">= {self.low}"
            raise ValueError(f"{self.name} must be {allowed}, not {value}")


def _choice(name: str, group: str, choices: Tuple[Any, ...], default: Optional[int] = 0) -> RuleField:
    return RuleField(name, group, "choice", 0, len(choices) - 1, choices, default)


#: every rule, in the order CoreRules shows them
RULES: Tuple[RuleField, ...] = (
    RuleField("size", MOVE, int, 8, 10, default=None),  # 8 or 10 (checked by CoreRules)
    RuleField("men_capture_backwards", MOVE, default=None),
    RuleField("flying_kings", MOVE, default=None),
    RuleField("men_capture_kings", MOVE, default=None),
    RuleField("majority_capture", MOVE, default=None),
    RuleField("prefer_king_mover", MOVE, default=None),
    RuleField("prefer_more_kings", MOVE, default=None),
    RuleField("prefer_early_kings", MOVE, default=None),
    _choice("crown_during_capture", MOVE, CROWN_MODES, default=None),
    RuleField("remove_at_once", MOVE, default=None),
    RuleField("mandatory_capture", MOVE, default=None),
    RuleField("quiet_plies", DRAW, int, 0, None),
    RuleField("no_capture_promotion_plies", DRAW, int, 0, None),
    _choice("endgame_rules", DRAW, ENDGAME_RULES),
    RuleField("orthogonal_captures", MOVE),
    RuleField("capture_value", MOVE),
    RuleField("king_move_limit", MOVE, int, 0, 3),
    RuleField("halt_behind_king", MOVE),
    _choice("goal", MOVE, GOALS),
    RuleField("king_lands_behind", MOVE),
    _choice("geometry", MOVE, GEOMETRIES),
    RuleField("no_turn_back", MOVE),
)

#: the names of every rule, of the move rules and of the draw rules
RULE_FIELDS = tuple(f.name for f in RULES)
MOVE_RULE_FIELDS = tuple(f.name for f in RULES if f.group == MOVE)
DRAW_RULE_FIELDS = tuple(f.name for f in RULES if f.group == DRAW)
BY_NAME: Dict[str, RuleField] = {f.name: f for f in RULES}

#: the names the core used before each rule had one name, as opening books
#: of format 1 record them (read through `current_names`)
LEGACY_NAMES = {
    "men_back": "men_capture_backwards",
    "flying": "flying_kings",
    "men_take_kings": "men_capture_kings",
    "majority": "majority_capture",
    "crown": "crown_during_capture",
    "at_once": "remove_at_once",
    "mandatory": "mandatory_capture",
    "capture_promo_plies": "no_capture_promotion_plies",
    "endgame": "endgame_rules",
    "orthogonal": "orthogonal_captures",
    "value_majority": "capture_value",
    "land_behind": "king_lands_behind",
}


def current_names(values: Dict[str, int]) -> Dict[str, int]:
    """Rule values by name with the core's former names (LEGACY_NAMES) read as today's."""
    return {LEGACY_NAMES.get(name, name): value for name, value in values.items()}


def differing_rules(a: Dict[str, int], b: Dict[str, int]) -> List[str]:
    """The rules in which two records of rules by name (today's names) differ,
    sorted: a rule one of them does not name counts as off (its default; 0
    for a name this version does not know), so a record made before a rule
    existed reads as having it off."""

    def value(rules: Dict[str, int], name: str) -> Any:
        if name in rules:
            return rules[name]
        field = BY_NAME.get(name)
        return 0 if field is None else field.default

    return sorted(name for name in set(a) | set(b) if value(a, name) != value(b, name))

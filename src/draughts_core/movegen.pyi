"""Type stubs: the move generator's families (its C functions are for the core's modules only)."""

from typing import Dict

#: Rules.family (1 international's capture rules, 2 american's) -> the rules,
#: by name, that the family's code holds constant
FAMILY_RULES: Dict[int, Dict[str, int]]

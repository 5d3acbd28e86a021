"""draughts: a fast draughts (checkers) engine toolkit.

>>> import draughts
>>> board = draughts.Board(variant="russian")
>>> board.legal_moves.count()
7
"""

import importlib
from typing import TYPE_CHECKING, Any, List

from draughts.errors import (
    AmbiguousMoveError,
    ClusterLost,
    DraughtsError,
    DxpClosed,
    DxpConnectionError,
    DxpError,
    DxpIncomplete,
    DxpTimeout,
    EgdbError,
    EngineClaim,
    EngineCommandError,
    EngineError,
    EngineNoMoveError,
    EngineOvertimeError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    FenError,
    HubError,
    HubPositionError,
    HubSyntaxError,
    IllegalMoveError,
    InvalidInputError,
    InvalidMoveError,
    OptionError,
    PdnError,
    PerftStopped,
    TableMemoryError,
    VariantError,
)
from draughts.variants import BLACK, VARIANTS, WHITE, Color, Variant, variant, variant_for_gametype
from draughts.board import Board, LegalMoveView, Move, Outcome, Piece, Termination
from draughts.engine_api import EngineProtocol, Info, PlayResult
from draughts.limits import Limit
from draughts import svg  # noqa: E402,F401  (boards draw themselves in Jupyter)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from draughts.engine import Engine
    from draughts.tuning import EvalWeights, SearchParams

#: names imported on first use: the engine brings the learned evaluation
#: (numpy) and the endgame databases, which `draughts --version`, `perft`
#: and a script that only moves pieces never need
_LAZY = {"Engine": "draughts.engine", "EvalWeights": "draughts.tuning", "SearchParams": "draughts.tuning"}


#: the subpackages and modules that `draughts.NAME` imports on first use
#: (as `import draughts` once did for those the engine pulled in)
_SUBMODULES = frozenset(
    {
        "bench",
        "cluster",
        "diagram",
        "dxp",
        "egdb",
        "engine",
        "gui",
        "hub",
        "learned",
        "match",
        "notation",
        "pdn",
        "perft",
        "play",
        "selfplay",
        "train",
    }
)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"draughts.{name}")
    else:
        raise AttributeError(f"module 'draughts' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_LAZY) | _SUBMODULES)


__all__ = [
    "AmbiguousMoveError",
    "ClusterLost",
    "DraughtsError",
    "DxpClosed",
    "DxpConnectionError",
    "DxpError",
    "DxpIncomplete",
    "DxpTimeout",
    "EgdbError",
    "EngineClaim",
    "EngineCommandError",
    "EngineError",
    "EngineNoMoveError",
    "EngineOvertimeError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "FenError",
    "HubError",
    "HubPositionError",
    "HubSyntaxError",
    "IllegalMoveError",
    "InvalidInputError",
    "InvalidMoveError",
    "OptionError",
    "PdnError",
    "PerftStopped",
    "TableMemoryError",
    "VariantError",
    "BLACK",
    "WHITE",
    "VARIANTS",
    "Color",
    "Variant",
    "variant",
    "variant_for_gametype",
    "Board",
    "LegalMoveView",
    "Move",
    "Outcome",
    "Piece",
    "Termination",
    "Engine",
    "EvalWeights",
    "SearchParams",
    "EngineProtocol",
    "Info",
    "PlayResult",
    "Limit",
]

"""draughts: a fast draughts (checkers) engine toolkit.

    >>> import draughts
    >>> board = draughts.Board(variant="russian")
    >>> board.legal_moves.count()
    7
"""

from draughts.errors import (AmbiguousMoveError, ClusterLost, DraughtsError, DxpClosed, DxpConnectionError,
                             DxpError, DxpIncomplete, DxpTimeout, EgdbError, EngineClaim, EngineCommandError,
                             EngineError, EngineNoMoveError, EngineOvertimeError, EngineProtocolError,
                             EngineTerminatedError, EngineTimeoutError, FenError, HubError, HubPositionError,
                             HubSyntaxError, IllegalMoveError, InvalidInputError, InvalidMoveError,
                             OptionError, PdnError, PerftStopped, TableMemoryError, VariantError)
from draughts.variants import BLACK, VARIANTS, WHITE, Color, Variant, variant, variant_for_gametype
from draughts.board import Board, LegalMoveView, Move, Outcome, Piece, Termination
from draughts.engine import Engine, EvalWeights, SearchParams
from draughts.engine_api import EngineProtocol, Info, PlayResult
from draughts.limits import Limit
from draughts import svg  # noqa: E402,F401  (boards draw themselves in Jupyter)

__version__ = "0.1.0"

__all__ = [
    "AmbiguousMoveError", "ClusterLost", "DraughtsError", "DxpClosed", "DxpConnectionError", "DxpError",
    "DxpIncomplete", "DxpTimeout", "EgdbError", "EngineClaim", "EngineCommandError", "EngineError",
    "EngineNoMoveError", "EngineOvertimeError", "EngineProtocolError", "EngineTerminatedError",
    "EngineTimeoutError", "FenError", "HubError", "HubPositionError", "HubSyntaxError",
    "IllegalMoveError", "InvalidInputError", "InvalidMoveError", "OptionError", "PdnError",
    "PerftStopped", "TableMemoryError", "VariantError",
    "BLACK", "WHITE", "VARIANTS", "Color", "Variant", "variant",
    "variant_for_gametype", "Board", "LegalMoveView", "Move", "Outcome", "Piece", "Termination",
    "Engine", "EvalWeights", "SearchParams", "EngineProtocol", "Info", "PlayResult", "Limit",
]

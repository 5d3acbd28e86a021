"""One family of errors, all ValueError subclasses, so callers can catch
`ValueError` or the precise kind."""


class DraughtsError(ValueError):
    """Base class of every error about bad input raised by draughts."""


class VariantError(DraughtsError):
    """An unknown variant name or a bad variant option."""


class FenError(DraughtsError):
    """A FEN that cannot be read; the message names the token and why."""

    def __init__(self, message, fen=None, token=None):
        super().__init__(message)
        self.fen = fen
        self.token = token


class InvalidMoveError(DraughtsError):
    """Move text that is not a move at all (syntax)."""


class IllegalMoveError(DraughtsError):
    """A well-formed move that is not legal in the position."""


class AmbiguousMoveError(DraughtsError):
    """Move text matching several legal moves; `candidates` lists them."""

    def __init__(self, message, candidates=()):
        super().__init__(message)
        self.candidates = tuple(candidates)


class PdnError(DraughtsError):
    """A PDN game that cannot be read; says which game, line and token."""

    def __init__(self, message, game_number=None, line=None, token=None, text=None, game=None):
        super().__init__(message)
        self.game_number = game_number
        self.line = line
        self.token = token
        self.text = text
        self.game = game


class TableMemoryError(DraughtsError, MemoryError):
    """A table (transposition, perft) that cannot be allocated; the old one,
    if any, stays in use."""


class PerftStopped(DraughtsError):
    """A perft count stopped before it finished (its count is unknown)."""

"""DXP (DamExchange), the engine-to-engine protocol of 10x10 tournaments.

* `draughts.dxp.protocol`: the messages, their codec and the framing;
* `draughts.dxp.session`: games with our engine on one side, as the follower
  (`draughts dxp --listen HOST:PORT`) or the initiator (`draughts dxp --connect
  HOST:PORT`);
* `draughts.dxp.engine`: a DXP engine behind the engine protocol
  (`DxpEngine`; the match runner's `-engine proto=dxp host=H port=P`).
"""

from draughts.dxp.protocol import (
    DEFAULT_PORT,
    BackAcc,
    BackReq,
    Chat,
    Connection,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
    format,
    parse,
)

__all__ = [
    "DEFAULT_PORT",
    "BackAcc",
    "BackReq",
    "Chat",
    "Connection",
    "GameAcc",
    "GameEnd",
    "GameReq",
    "MoveMsg",
    "format",
    "parse",
]

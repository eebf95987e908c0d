"""Connect a Python bot to a cardroom server: it plays people at their tables.

>>> import cardroom.botclient as botclient                        # doctest: +SKIP
>>> botclient.run("https://cards.example.org", token, "my_module:MyBot")  # doctest: +SKIP

The bot is cardroom's bot interface (``act(view, rng)`` for a turn-based game, a real-time bot
for a real-time one), a PettingZoo or Gymnasium policy over the research adapters' observation
and action mask, or a cardroom bot's name (``expert``). The client reads each seat's frames
into the very view the server's own bots decide on (the game's ``wire`` piece, from the
registry), reconnects by itself and plays several tables at once. ``cardroom bot connect
--help`` says the same on the command line.
"""

from __future__ import annotations

from cardroom.botclient.client import (
    Backoff,
    ClientError,
    TableOutcome,
    play_table,
    play_tables,
)
from cardroom.botclient.load import Play, PlayError, load_play
from cardroom.botclient.players import PolicyBot, RealtimePlayer, TurnPlayer
from cardroom.botclient.run import run, serve

__all__ = [
    "Backoff",
    "ClientError",
    "Play",
    "PlayError",
    "PolicyBot",
    "RealtimePlayer",
    "TableOutcome",
    "TurnPlayer",
    "load_play",
    "play_table",
    "play_tables",
    "run",
    "serve",
]

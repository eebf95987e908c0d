"""THE LEAK TEST: many bot-filled games on a real server, a websocket client on every person seat
and a spectator at each table; no frame may name a card its client could not see.

What a client may see is worked out from the log alone (not from the frames): a seat sees the
hands it was dealt and every card played; a spectator sees the cards played; at the end of a
round everyone sees the board cards left in a hand (they double their box in public). Every
string of every frame is checked against the 52 card codes and their printed forms, except the
board's box labels (``rules``, ``round.board``, ``last_result.boxes``), which name no hand.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cardroom.cards import DECK
from cardroom.games.nain_jaune.config import TableConfig
from cardroom.games.nain_jaune.rules import STANDARD_BOARD, Rules
from cardroom.store import LogEntry
from cardroom.tables import SeatSpec
from tests.web.conftest import AutoPlayer, Player, over, service_of, serving, settings_for

CODES = {c.code for c in DECK}
PRETTY = {c.pretty: c.code for c in DECK}
BOARD = {c.code for c in STANDARD_BOARD}
LEVELS = ("easy", "medium", "hard")
AT_ONCE = 32
"""Tables played at the same time (32 at once with bots at delay 0 starve SQLite's writers)."""


def cards_named(value: Any, path: tuple[str, ...] = ()) -> set[str]:
    """Every card a frame names, outside the board's box labels."""
    if path[:1] == ("rules",):
        return set()
    if isinstance(value, dict):
        out: set[str] = set()
        for key, item in value.items():
            if key == "card" and path[-2:-1] in (("board",), ("boxes",)):
                continue
            out |= cards_named(item, (*path, str(key)))
        return out
    if isinstance(value, list):
        parent = path[-1:] if path else ()
        out = set()
        for item in value:
            out |= cards_named(item, (*path, *parent))
        return out
    if isinstance(value, str):
        named = {value} if value in CODES else set()
        named |= {code for pretty, code in PRETTY.items() if pretty in value}
        return named
    return set()


class Visibility:
    """What each seat (and a spectator) may have seen by each seq, from the log alone."""

    def __init__(self, entries: list[LogEntry], n: int) -> None:
        self.dealt: list[tuple[int, list[list[str]]]] = []  # (seq, hands by seat)
        self.played: list[tuple[int, str]] = []
        self.revealed: list[tuple[int, set[str]]] = []
        left: list[set[str]] | None = None
        for entry in entries:
            if entry.kind == "round":
                hands = entry.data["hands"]
                assert len(hands) == n  # every seat plays every round in these games
                self.dealt.append((entry.seq, hands))
                left = [set(h) for h in hands]
            elif entry.kind == "action" and entry.data["action"] in CODES:
                card = entry.data["action"]
                self.played.append((entry.seq, card))
                assert left is not None
                left[entry.data["seat"]].discard(card)
                if not left[entry.data["seat"]]:  # out of cards: the round is settled
                    held = set().union(*left) & BOARD
                    self.revealed.append((entry.seq, held))

    def allowed(self, seat: int | None, seq: int) -> set[str]:
        seen = {card for s, card in self.played if s <= seq}
        for s, held in self.revealed:
            if s <= seq:
                seen |= held
        if seat is not None:
            for s, hands in self.dealt:
                if s <= seq:
                    seen |= set(hands[seat])
        return seen


def table_config(i: int) -> TableConfig:
    n = 2 + i % 7
    persons = 1 + (i * 5) % n
    seats = [SeatSpec("person", name="P0")] + [
        SeatSpec("person") if g < persons else SeatSpec("bot", LEVELS[(i + g) % 3])
        for g in range(1, n)
    ]
    options: dict[str, Any] = {"end": ("rounds:2", "rounds:1", "broke")[i % 3]}
    if i % 3 == 2:
        options["starting_chips"] = 16  # every loser is broke after the first round
    return TableConfig(
        rules=Rules.from_options(None, options),
        seats=tuple(seats),
        seed=1000 + i,
        takeover_after=0.0,
        bot_delay=0.0,
    )


async def test_no_frame_names_a_card_its_client_could_not_see(tmp_path: Path) -> None:
    tables = 32
    # scripted players answer at machine speed: lift the per-connection rate limit
    fast = settings_for(
        tmp_path, rate_per_second=1000.0, rate_burst=1000, sockets_per_address=1000,
        connections_per_address=1000,
    )
    async with serving(fast) as (app, address):
        service = service_of(app)

        async def play(i: int) -> tuple[str, int, list[Player], list[LogEntry]]:
            cfg = table_config(i)
            created = await service.create(cfg)
            table = created.table_id
            tokens = {0: created.creator_token, **created.invites}
            clients: list[Player] = [
                await AutoPlayer(address, table, token, seed=i * 10 + g).connect()
                for g, token in sorted(tokens.items())
            ]
            clients.append(await Player(address, table, None).connect())
            for g, client in zip(sorted(tokens), clients, strict=False):
                if g:
                    await client.send({"type": "join", "name": f"P{g}"})
            for client in clients:
                await client.wait_for(over, timeout=300)
            entries = await app.state.store.entries(table)
            for client in clients:
                await client.close()
            return table, len(cfg.seats), clients, entries

        results: list[tuple[str, int, list[Player], list[LogEntry]]] = []
        for first in range(0, tables, AT_ONCE):
            batch = range(first, min(first + AT_ONCE, tables))
            results += await asyncio.gather(*(play(i) for i in batch))
    frames_checked = cards_checked = 0
    rounds = 0
    for table, n, clients, entries in results:
        vis = Visibility(entries, n)
        rounds += len(vis.dealt)
        for client in clients:
            seat = None
            for frame in client.frames:
                if frame["type"] == "state":
                    seat = frame["you"]
                    seq = frame["seq"]
                named = cards_named(frame)
                leaked = named - vis.allowed(seat, seq)
                assert not leaked, f"table {table} seat {seat} seq {seq} saw {sorted(leaked)}"
                frames_checked += 1
                cards_checked += len(named)
            assert client.frames[-1]["status"] == "over"
    assert frames_checked > 5000 and cards_checked > 50000, (frames_checked, cards_checked)
    assert rounds >= tables * 4 // 3

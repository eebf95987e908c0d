"""Bots that people bring: a bot is a player of its own, owned by a person, with play tokens.

A bot's row in ``players`` gives it an id and a name (its folded name is kept as its
``signin_name``, so a bot's name is unique and never a person's sign-in name; a bot has no
password, so nobody signs in as it). ``bots`` says who owns it and what it accepts. A token is
``crb_`` and 43 random characters, kept only as its sha256 in ``bot_tokens``; revoking deletes
the row, so the next look-up fails. ``bot_invites`` holds the invitations of a seat to a bot.
"""

from __future__ import annotations

import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from cardroom.store.events import EventStore, _guard, metadata, tables_t
from cardroom.store.players import (
    PlayerError,
    _signin_name,
    clean_display_name,
    key_hash,
    players_t,
    seat_claims_t,
)

TOKEN_PREFIX = "crb_"
TOKENS_PER_BOT = 5
BOTS_PER_OWNER = 10
INVITE_TTL = 120.0
"""Seconds an invitation waits for the bot's answer."""
LABEL_MAX = 40

LISTENING = "bot-listening:"
"""The key (then the bot's id) an open event stream keeps in the shared ``bounds`` rows, so
that "any bot" and Play now find the bots listening on every server process sharing the
database."""
LISTEN_FOR = 3.0
"""Seconds a stream's mark lasts unless the stream renews it (each second)."""
BOT_TABLES = 8
"""Tables not over one bot may hold at once."""

bots_t = sa.Table(
    "bots",
    metadata,
    sa.Column("id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    sa.Column("owner_id", sa.String(32), nullable=True, index=True),
    sa.Column("accepts", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
"""``owner_id``: the person who made it (None: made by the server's operator)."""

bot_tokens_t = sa.Table(
    "bot_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("bot_id", sa.String(32), sa.ForeignKey("bots.id"), nullable=False, index=True),
    sa.Column("label", sa.String(LABEL_MAX), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
)

bot_invites_t = sa.Table(
    "bot_invites",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("bot_id", sa.String(32), nullable=False, index=True),
    sa.Column("inviter_id", sa.String(32), nullable=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("state", sa.String(16), nullable=False),
)
"""``state``: ``waiting``, ``accepted``, ``declined`` or ``withdrawn``."""


@dataclass(frozen=True, slots=True)
class Accepts:
    """What a bot's owner lets it play."""

    invitations: bool = True
    play_now: bool = True
    rated: bool = False
    friendly: bool = True
    games: tuple[str, ...] = ()
    """The games it plays (empty: every game)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the API's and the stored one)."""
        return {
            "invitations": self.invitations,
            "play_now": self.play_now,
            "rated": self.rated,
            "friendly": self.friendly,
            "games": list(self.games),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Accepts:
        """Read the stored or sent form (missing keys keep their defaults)."""
        base = cls()
        games = data.get("games", base.games)
        return cls(
            invitations=bool(data.get("invitations", base.invitations)),
            play_now=bool(data.get("play_now", base.play_now)),
            rated=bool(data.get("rated", base.rated)),
            friendly=bool(data.get("friendly", base.friendly)),
            games=tuple(str(g) for g in games),
        )

    def plays(self, game: str, rated: bool) -> bool:
        """Whether the bot accepts a game of this kind."""
        if self.games and game not in self.games:
            return False
        return self.rated if rated else self.friendly


@dataclass(frozen=True, slots=True)
class Bot:
    """A bot: its player id and name, its owner and what it accepts."""

    id: str
    name: str
    owner_id: str | None
    created_at: float
    accepts: Accepts = field(default_factory=Accepts)


@dataclass(frozen=True, slots=True)
class BotToken:
    """One token of a bot (never the token itself)."""

    id: str
    label: str
    created_at: float
    last_used: float | None


@dataclass(frozen=True, slots=True)
class Invite:
    """A seat of a table offered to a bot."""

    table_id: str
    seat: int
    bot_id: str
    inviter_id: str | None
    at: float
    expires_at: float
    state: str


def token_id(digest: str) -> str:
    """The public id of a token: the first 16 hex digits of its hash."""
    return digest[:16]


def _bot(row: Any) -> Bot:
    return Bot(
        row.id,
        row.name,
        row.owner_id,
        float(row.created_at),
        Accepts.from_json(json.loads(row.accepts or "{}")),
    )


def _invite(row: Any) -> Invite:
    return Invite(
        row.table_id, int(row.seat), row.bot_id, row.inviter_id, float(row.at),
        float(row.expires_at), row.state,
    )  # fmt: skip


_BOT_COLUMNS = (
    bots_t.c.id,
    players_t.c.name,
    bots_t.c.owner_id,
    bots_t.c.created_at,
    bots_t.c.accepts,
)


class BotStore:
    """Bots, their tokens and their invitations, in the event store's database."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine

    def _write(self) -> Any:
        return self.store._write_lock

    def _select(self) -> Any:
        return sa.select(*_BOT_COLUMNS).join(players_t, players_t.c.id == bots_t.c.id)

    async def create(
        self, owner_id: str | None, name: str, now: float, accepts: Accepts | None = None
    ) -> Bot:
        """A new bot named ``name`` (unique among sign-in names: ``name-taken`` otherwise);
        ``too-many-bots`` past :data:`BOTS_PER_OWNER` of one owner."""
        clean = clean_display_name(name)
        folded = _signin_name(clean)
        bot_id = secrets.token_urlsafe(12)
        chosen = accepts or Accepts()
        taken = PlayerError("name-taken", "another player signs in with this name")
        try:
            async with _guard(), self._write(), self.engine.begin() as conn:
                if owner_id is not None:
                    count = (
                        await conn.execute(
                            sa.select(sa.func.count()).where(bots_t.c.owner_id == owner_id)
                        )
                    ).scalar_one()
                    if count >= BOTS_PER_OWNER:
                        raise PlayerError("too-many-bots", "you have made the most bots")
                holder = (
                    await conn.execute(
                        sa.select(players_t.c.id).where(players_t.c.signin_name == folded)
                    )
                ).first()
                if holder is not None:
                    raise taken
                await conn.execute(
                    players_t.insert().values(
                        id=bot_id, name=clean, created_at=now, signin_name=folded
                    )
                )
                await conn.execute(
                    bots_t.insert().values(
                        id=bot_id, owner_id=owner_id, created_at=now,
                        accepts=json.dumps(chosen.to_json()),
                    )
                )  # fmt: skip
        except IntegrityError:
            raise taken from None
        return Bot(bot_id, clean, owner_id, now, chosen)

    async def get(self, bot_id: str) -> Bot | None:
        """The bot of an id (None: not a bot)."""
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(self._select().where(bots_t.c.id == bot_id))).first()
        return None if row is None else _bot(row)

    async def by_name(self, name: str) -> Bot | None:
        """The bot of a name (folded as sign-in names are)."""
        try:
            folded = _signin_name(clean_display_name(name))
        except PlayerError:
            return None
        query = self._select().where(players_t.c.signin_name == folded)
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _bot(row)

    async def of_owner(self, owner_id: str) -> list[Bot]:
        """The bots a person made, oldest first."""
        query = self._select().where(bots_t.c.owner_id == owner_id).order_by(bots_t.c.created_at)
        async with _guard(), self.engine.connect() as conn:
            return [_bot(r) for r in (await conn.execute(query)).all()]

    async def all(self) -> list[Bot]:
        """Every bot, oldest first."""
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(self._select().order_by(bots_t.c.created_at))).all()
        return [_bot(r) for r in rows]

    async def are_bots(self, ids: list[str]) -> set[str]:
        """The ids among ``ids`` that are bots."""
        if not ids:
            return set()
        query = sa.select(bots_t.c.id).where(bots_t.c.id.in_(ids))
        async with _guard(), self.engine.connect() as conn:
            return {r.id for r in (await conn.execute(query)).all()}

    async def set_accepts(self, bot_id: str, accepts: Accepts) -> None:
        """Change what the bot accepts."""
        async with _guard(), self._write(), self.engine.begin() as conn:
            await conn.execute(
                bots_t.update()
                .where(bots_t.c.id == bot_id)
                .values(accepts=json.dumps(accepts.to_json()))
            )

    async def busy(self, bot_id: str) -> int:
        """The tables not over the bot holds a seat at."""
        query = (
            sa.select(sa.func.count(sa.distinct(seat_claims_t.c.table_id)))
            .select_from(seat_claims_t.join(tables_t, tables_t.c.id == seat_claims_t.c.table_id))
            .where(seat_claims_t.c.player_id == bot_id, tables_t.c.status != "over")
        )
        async with _guard(), self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def listening(self, keys: list[str]) -> list[Bot]:
        """The bots of these listening marks (:data:`LISTENING` keys), in their order."""
        ids = list(dict.fromkeys(k[len(LISTENING) :] for k in keys if k.startswith(LISTENING)))
        if not ids:
            return []
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(self._select().where(bots_t.c.id.in_(ids)))).all()
        found = {r.id: _bot(r) for r in rows}
        return [found[i] for i in ids if i in found]

    # -- tokens ------------------------------------------------------------------------------

    async def new_token(self, bot_id: str, label: str, now: float) -> tuple[str, str]:
        """A new token of the bot: (its public id, the token itself: shown this once).
        ``too-many-tokens`` past :data:`TOKENS_PER_BOT`."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        digest = key_hash(token)
        async with _guard(), self._write(), self.engine.begin() as conn:
            count = (
                await conn.execute(
                    sa.select(sa.func.count()).where(bot_tokens_t.c.bot_id == bot_id)
                )
            ).scalar_one()
            if count >= TOKENS_PER_BOT:
                raise PlayerError("too-many-tokens", "this bot has the most tokens")
            await conn.execute(
                bot_tokens_t.insert().values(
                    token_hash=digest, bot_id=bot_id, label=label[:LABEL_MAX], created_at=now
                )
            )
        return token_id(digest), token

    async def by_token(self, token: str | None) -> Bot | None:
        """The bot a token plays for (None: no token, unknown or revoked)."""
        if not token or not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        digest = key_hash(token)
        query = (
            self._select()
            .join(bot_tokens_t, bot_tokens_t.c.bot_id == bots_t.c.id)
            .where(bot_tokens_t.c.token_hash == digest)
        )
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _bot(row)

    async def tokens_of(self, bot_id: str) -> list[BotToken]:
        """A bot's tokens, oldest first."""
        query = (
            sa.select(bot_tokens_t)
            .where(bot_tokens_t.c.bot_id == bot_id)
            .order_by(bot_tokens_t.c.created_at)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            BotToken(token_id(r.token_hash), r.label, float(r.created_at), r.last_used)
            for r in rows
        ]

    async def revoke(self, public_id: str, bot_id: str | None = None) -> list[str]:
        """Forget a token by its public id (of ``bot_id`` if given): it is refused from now
        on. Returns the hash of the token forgotten ([] if there is no such token)."""
        query = sa.select(bot_tokens_t.c.token_hash, bot_tokens_t.c.bot_id)
        if bot_id is not None:
            query = query.where(bot_tokens_t.c.bot_id == bot_id)
        async with _guard(), self._write(), self.engine.begin() as conn:
            rows = (await conn.execute(query)).all()
            chosen = [
                r.token_hash for r in rows if hmac.compare_digest(token_id(r.token_hash), public_id)
            ]
            if len(chosen) != 1:
                return []
            await conn.execute(bot_tokens_t.delete().where(bot_tokens_t.c.token_hash == chosen[0]))
        return chosen

    async def token_alive(self, token: str) -> bool:
        """Whether a token still opens its bot (checked by open connections)."""
        query = sa.select(bot_tokens_t.c.bot_id).where(bot_tokens_t.c.token_hash == key_hash(token))
        async with _guard(), self.engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    # -- invitations -------------------------------------------------------------------------

    async def invite(
        self, table_id: str, seat: int, bot_id: str, inviter_id: str | None, now: float
    ) -> Invite:
        """Offer a seat to a bot (replacing an earlier offer of that seat not accepted)."""
        invite = Invite(table_id, seat, bot_id, inviter_id, now, now + INVITE_TTL, "waiting")
        async with _guard(), self._write(), self.engine.begin() as conn:
            old = (
                await conn.execute(
                    sa.select(bot_invites_t.c.state).where(
                        bot_invites_t.c.table_id == table_id, bot_invites_t.c.seat == seat
                    )
                )
            ).first()
            if old is not None and old.state == "accepted":
                raise PlayerError("invite-gone", "a bot already holds this seat")
            await conn.execute(
                bot_invites_t.delete().where(
                    bot_invites_t.c.table_id == table_id, bot_invites_t.c.seat == seat
                )
            )
            await conn.execute(
                bot_invites_t.insert().values(
                    table_id=table_id, seat=seat, bot_id=bot_id, inviter_id=inviter_id,
                    at=now, expires_at=invite.expires_at, state="waiting",
                )
            )  # fmt: skip
        return invite

    async def invites_of(self, bot_id: str) -> list[Invite]:
        """Every invitation of a bot, oldest first (any state)."""
        query = (
            sa.select(bot_invites_t)
            .where(bot_invites_t.c.bot_id == bot_id)
            .order_by(bot_invites_t.c.at)
        )
        async with _guard(), self.engine.connect() as conn:
            return [_invite(r) for r in (await conn.execute(query)).all()]

    async def invite_of(self, table_id: str, bot_id: str) -> Invite | None:
        """The bot's invitation to a table (None: none)."""
        query = sa.select(bot_invites_t).where(
            bot_invites_t.c.table_id == table_id, bot_invites_t.c.bot_id == bot_id
        )
        async with _guard(), self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _invite(row)

    async def invites_at(self, table_id: str) -> list[tuple[Invite, str]]:
        """A table's invitations with their bots' names, by seat."""
        query = (
            sa.select(bot_invites_t, players_t.c.name)
            .join(players_t, players_t.c.id == bot_invites_t.c.bot_id)
            .where(bot_invites_t.c.table_id == table_id)
            .order_by(bot_invites_t.c.seat)
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(_invite(r), str(r.name)) for r in rows]

    async def answer(self, table_id: str, seat: int, bot_id: str, state: str, now: float) -> bool:
        """Mark a waiting, unexpired invitation ``state`` (one conditional update: two
        answers never both win). False if it was not waiting any more."""
        async with _guard(), self._write(), self.engine.begin() as conn:
            done = await conn.execute(
                bot_invites_t.update()
                .where(
                    bot_invites_t.c.table_id == table_id,
                    bot_invites_t.c.seat == seat,
                    bot_invites_t.c.bot_id == bot_id,
                    bot_invites_t.c.state == "waiting",
                    bot_invites_t.c.expires_at > now,
                )
                .values(state=state)
            )
        return bool(done.rowcount == 1)

    async def claim_seat(self, table_id: str, seat: int, bot_id: str, now: float) -> str | None:
        """Take a seat for a bot: a seat never claimed, or one whose re-issued link nobody
        opened yet. Returns who holds the seat afterwards (the bot, or whoever won it first)."""
        where = (seat_claims_t.c.table_id == table_id, seat_claims_t.c.seat == seat)
        async with _guard(), self._write(), self.engine.begin() as conn:
            row = (await conn.execute(sa.select(seat_claims_t).where(*where))).first()
            if row is None:
                await conn.execute(
                    seat_claims_t.insert().values(
                        table_id=table_id, seat=seat, player_id=bot_id, at=now
                    )
                )
                return bot_id
            if row.player_id is not None:
                return str(row.player_id)
            done = await conn.execute(
                seat_claims_t.update()
                .where(*where, seat_claims_t.c.player_id.is_(None))
                .values(player_id=bot_id, invite_hash=None, at=now)
            )
            return bot_id if done.rowcount == 1 else None

    async def seats_at_tables(self, table_ids: list[str]) -> dict[str, dict[int, str]]:
        """The seats bots hold at each of these tables, with the bots' names (tables with
        none are left out)."""
        if not table_ids:
            return {}
        query = (
            sa.select(seat_claims_t.c.table_id, seat_claims_t.c.seat, players_t.c.name)
            .join(bots_t, bots_t.c.id == seat_claims_t.c.player_id)
            .join(players_t, players_t.c.id == bots_t.c.id)
            .where(seat_claims_t.c.table_id.in_(sorted(set(table_ids))))
        )
        async with _guard(), self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        held: dict[str, dict[int, str]] = {}
        for r in rows:
            held.setdefault(str(r.table_id), {})[int(r.seat)] = str(r.name)
        return held

    async def seats_at(self, table_id: str) -> frozenset[int]:
        """The seats of a table that bots hold."""
        query = (
            sa.select(seat_claims_t.c.seat)
            .join(bots_t, bots_t.c.id == seat_claims_t.c.player_id)
            .where(seat_claims_t.c.table_id == table_id)
        )
        async with _guard(), self.engine.connect() as conn:
            return frozenset(int(r.seat) for r in (await conn.execute(query)).all())

"""Ratings for people: OpenSkill (Weng-Lin Plackett-Luce) per game type, counted once per game.

A rated table is marked in ``rated_tables`` when it is made. Once it is over, the server's
:class:`RatingKeeper` counts it: in one transaction it takes the table (a conditional update of
``counted``, so of two processes only one counts it), reads the people who held its seats
(``seat_claims``), ranks the seats (Nain Jaune: by final chips, ties share a rank; Spit and
Speed: the winner first) and updates each person's rating; the bots of the table take part at
their fixed ratings (:data:`BOT_RATINGS`) and are never updated. A person for whom a bot made
more than :data:`TAKEOVER_SHARE` of the decisions (away, taken over) is neither rated nor
counted as an opponent's result: the game is not rated for them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cardroom.store import EventStore, StoreError
from cardroom.store.events import _guard, events_t, seats_t, tables_t
from cardroom.store.players import players_t, seat_claims_t
from cardroom.store.ratings import rated_tables_t, rating_changes_t, ratings_t

logger = logging.getLogger(__name__)

MU = 25.0
SIGMA = 25.0 / 3.0
TAKEOVER_SHARE = 0.2
"""A person whose decisions a bot made for more than this share is not rated for that game
(the default of ``Settings.rated_takeover_share``)."""
MIN_GAMES = 3
"""Games a person needs to appear on a leaderboard."""

BOT_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    # (mu, sigma) per level, measured by tournament (docs/web.md "Ratings"): Nain Jaune by
    # `cardroom tournament nain-jaune --bots easy,medium,hard,expert --games 100 --players 4
    # --seed 21`; Spit and Speed by `tools/bot_ratings.py --games 200` (every pair of levels).
    "nain-jaune": {
        "easy": (19.01, 3.08),
        "medium": (20.56, 2.97),
        "hard": (23.66, 2.94),
        "expert": (35.73, 3.22),
    },
    "speed": {
        "easy": (6.87, 2.41),
        "medium": (20.45, 2.01),
        "hard": (29.00, 2.06),
        "expert": (45.23, 2.60),
    },
    "spit": {
        "easy": (-10.53, 3.24),
        "medium": (14.28, 2.65),
        "hard": (35.84, 2.72),
        "expert": (63.79, 3.43),
    },
}


def model() -> Any:
    """The rating model: OpenSkill's Plackett-Luce with its published defaults
    (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The number shown: mu - 3 sigma (a rating the player is very likely above)."""
    return mu - 3.0 * sigma


def bot_rating(game: str, level: str) -> float:
    """The rating a bot level is shown with everywhere (the lobby's levels, the leaderboard):
    the ordinal of its fixed :data:`BOT_RATINGS`, rounded as the leaderboard sends it."""
    return round(ordinal(*BOT_RATINGS[game][level]), 2)


def ranks_by_chips(chips: Sequence[int]) -> list[int]:
    """Rank 1 for the most chips; equal chips share a rank (1 + how many have more)."""
    return [1 + sum(other > mine for other in chips) for mine in chips]


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each one-player team after a game with these ranks (1 = first)."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    out = m.rate(teams, ranks=list(ranks))
    return [(float(team[0].mu), float(team[0].sigma)) for team in out]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game: who (player id or bot level), rank, whether it counts."""

    seat: int
    player_id: str | None
    bot: str | None
    rank: int
    counts: bool


def bot_shares(entries: Sequence[tuple[str, dict[str, Any]]]) -> dict[int, float]:
    """Per seat, the share of its actions a bot made (``by == "bot"``) in the log."""
    made: dict[int, int] = {}
    by_bot: dict[int, int] = {}
    for kind, data in entries:
        if kind != "action" or not isinstance(data.get("seat"), int):
            continue
        seat = data["seat"]
        made[seat] = made.get(seat, 0) + 1
        by_bot[seat] = by_bot.get(seat, 0) + (data.get("by") == "bot")
    return {s: by_bot[s] / n for s, n in made.items() if n}


def seat_ranks(game: str, summary: dict[str, Any], seats: int) -> list[int] | None:
    """The rank of each seat of a finished game from its summary (None: no result)."""
    if game == "nain-jaune":
        chips = summary.get("chips")
        if not isinstance(chips, list) or len(chips) != seats:
            return None
        return ranks_by_chips([int(c) for c in chips])
    winner = summary.get("winner")
    if not isinstance(winner, int) or not 0 <= winner < seats:
        return None
    return [1 if s == winner else 2 for s in range(seats)]


class RatingKeeper:
    """Counts finished rated tables into the ratings (a task of the web server)."""

    def __init__(
        self, store: EventStore, interval: float = 2.0, takeover_share: float = TAKEOVER_SHARE
    ) -> None:
        self.store = store
        self.interval = interval
        self.takeover_share = takeover_share

    async def run(self) -> None:
        """Count what is due every ``interval`` seconds until cancelled."""
        while True:
            try:
                await self.count_due()
            except StoreError as exc:
                logger.info("ratings: %s", exc)
            except Exception:
                logger.exception("ratings")
            await asyncio.sleep(self.interval)

    async def count_due(self) -> int:
        """Count every finished rated table not counted yet; returns how many were counted."""
        query = (
            sa.select(rated_tables_t.c.table_id)
            .join(tables_t, tables_t.c.id == rated_tables_t.c.table_id)
            .where(rated_tables_t.c.counted.is_(False), tables_t.c.status == "over")
            .limit(50)
        )
        async with _guard(), self.store.engine.connect() as conn:
            due = [r.table_id for r in (await conn.execute(query)).all()]
        counted = 0
        for table_id in due:
            counted += await self.count(table_id)
        return counted

    async def count(self, table_id: str, now: float | None = None) -> bool:
        """Count one finished rated table (False if it was counted already or has no result)."""
        now = time.time() if now is None else now
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            taken = await conn.execute(
                rated_tables_t.update()
                .where(rated_tables_t.c.table_id == table_id, rated_tables_t.c.counted.is_(False))
                .values(counted=True)
            )
            if taken.rowcount != 1:
                return False
            row = (
                await conn.execute(
                    sa.select(tables_t.c.game, tables_t.c.summary, tables_t.c.status).where(
                        tables_t.c.id == table_id
                    )
                )
            ).first()
            if row is None or row.status != "over":
                return False
            seat_rows = (
                await conn.execute(
                    sa.select(seats_t.c.seat, seats_t.c.kind, seats_t.c.level)
                    .where(seats_t.c.table_id == table_id)
                    .order_by(seats_t.c.seat)
                )
            ).all()
            ranks = seat_ranks(row.game, dict(row.summary or {}), len(seat_rows))
            if ranks is None:
                return False
            claims = {
                r.seat: r.player_id
                for r in (
                    await conn.execute(
                        sa.select(seat_claims_t.c.seat, seat_claims_t.c.player_id).where(
                            seat_claims_t.c.table_id == table_id
                        )
                    )
                ).all()
            }
            entries = (
                await conn.execute(
                    sa.select(events_t.c.kind, events_t.c.data).where(
                        events_t.c.table_id == table_id, events_t.c.kind == "action"
                    )
                )
            ).all()
            shares = bot_shares([(e.kind, dict(e.data)) for e in entries])
            results = [
                SeatResult(
                    s.seat,
                    claims.get(s.seat) if s.kind == "person" else None,
                    s.level if s.kind == "bot" else None,
                    ranks[s.seat],
                    s.kind == "bot" or shares.get(s.seat, 0.0) <= self.takeover_share,
                )
                for s in seat_rows
            ]
            await self._apply(conn, row.game, table_id, results, now)
        return True

    async def _apply(
        self, conn: Any, game: str, table_id: str, results: list[SeatResult], now: float
    ) -> None:
        people = [r for r in results if r.player_id is not None and r.counts]
        if not people:
            return
        current = {
            r.player_id: (r.mu, r.sigma, r.games)
            for r in (
                await conn.execute(
                    sa.select(ratings_t).where(
                        ratings_t.c.game == game,
                        ratings_t.c.player_id.in_([p.player_id for p in people]),
                    )
                )
            ).all()
        }
        levels = BOT_RATINGS.get(game, {})
        playing = [
            r
            for r in results
            if (r.player_id is not None and r.counts) or (r.bot is not None and r.bot in levels)
        ]
        if len(playing) < 2:
            return
        before = [
            current.get(r.player_id, (MU, SIGMA, 0))[:2] if r.player_id else levels[r.bot or ""]
            for r in playing
        ]
        ranks = [r.rank for r in playing]
        after = rate(before, ranks)
        for r, old, new in zip(playing, before, after, strict=True):
            if r.player_id is None:
                continue
            games = current.get(r.player_id, (MU, SIGMA, 0))[2] + 1
            values = {"mu": new[0], "sigma": new[1], "games": games}
            if r.player_id in current:
                await conn.execute(
                    ratings_t.update()
                    .where(ratings_t.c.player_id == r.player_id, ratings_t.c.game == game)
                    .values(**values)
                )
            else:
                await conn.execute(
                    ratings_t.insert().values(player_id=r.player_id, game=game, **values)
                )
            await conn.execute(
                rating_changes_t.insert().values(
                    table_id=table_id,
                    player_id=r.player_id,
                    game=game,
                    before=ordinal(*old),
                    after=ordinal(*new),
                    at=now,
                )
            )


async def mark_rated(store: EventStore, table_id: str, game: str) -> None:
    """Mark a new table as rated."""
    async with _guard(), store._write_lock, store.engine.begin() as conn:
        await conn.execute(
            rated_tables_t.insert().values(table_id=table_id, game=game, counted=False)
        )


async def is_rated(store: EventStore, table_id: str) -> bool:
    """True for a table made rated."""
    async with _guard(), store.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(rated_tables_t.c.table_id).where(rated_tables_t.c.table_id == table_id)
            )
        ).first()
    return row is not None


async def player_ratings(store: EventStore, player_id: str) -> dict[str, dict[str, Any]]:
    """Per game: the player's rating (ordinal), games rated, and the changes by table."""
    async with _guard(), store.engine.connect() as conn:
        rows = (
            await conn.execute(sa.select(ratings_t).where(ratings_t.c.player_id == player_id))
        ).all()
        changes = (
            await conn.execute(
                sa.select(rating_changes_t).where(rating_changes_t.c.player_id == player_id)
            )
        ).all()
    out: dict[str, dict[str, Any]] = {
        r.game: {"rating": round(ordinal(r.mu, r.sigma), 2), "games": r.games, "changes": {}}
        for r in rows
    }
    for c in changes:
        out.setdefault(c.game, {"rating": None, "games": 0, "changes": {}})["changes"][
            c.table_id
        ] = [round(c.before, 2), round(c.after, 2)]
    return out


async def leaderboard(
    store: EventStore, game: str, min_games: int = MIN_GAMES, limit: int = 50
) -> list[dict[str, Any]]:
    """The people with at least ``min_games`` rated games and the bots, best first."""
    query = (
        sa.select(
            players_t.c.id, players_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games
        )
        .join(players_t, players_t.c.id == ratings_t.c.player_id)
        .where(ratings_t.c.game == game, ratings_t.c.games >= min_games)
        .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc())
        .limit(limit)
    )
    async with _guard(), store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    board = [
        {"name": r.name, "tag": player_tag(r.id), "bot": None,
         "rating": round(ordinal(r.mu, r.sigma), 2), "games": r.games}
        for r in rows
    ]  # fmt: skip
    for level in BOT_RATINGS.get(game, {}):
        board.append({"name": None, "bot": level, "rating": bot_rating(game, level), "games": None})
    board.sort(key=lambda e: -float(e["rating"]))
    return board


def player_tag(player_id: str) -> str:
    """A short mark shown after a person's name where names are compared (the leaderboards):
    two people whose names look alike ("Victoria", "Vіctoria" with a Cyrillic i) differ
    here. The first 4 characters of the player id (not a secret: the key is)."""
    return player_id[:4]


def plays_like(game: str, rating: float) -> str | None:
    """The bot level whose fixed rating is nearest ``rating``."""
    levels = BOT_RATINGS.get(game, {})
    if not levels:
        return None
    return min(levels, key=lambda lv: abs(ordinal(*levels[lv]) - rating))

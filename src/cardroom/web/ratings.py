"""Ratings for people: OpenSkill (Weng-Lin Plackett-Luce) per game type, counted once per game.

A rated table is marked in ``rated_tables`` when it is made. Once it is over, the server's
:class:`RatingKeeper` counts it: in one transaction it takes the table (a conditional update of
``counted``, so of two processes only one counts it), reads the people who held its seats
(``seat_claims``) and the log's actions, and judges it (:func:`judge`):

- it is rated only between distinct players who each played: two different people, or people
  and bots (the bots at their fixed ratings, :data:`BOT_RATINGS`, never updated). One player
  holding two seats, a person seat nobody claimed, or a person seat whose person never made a
  move (a puppet: lichess aborts such games) make it *void*: nobody's rating moves, and the
  reason is kept (``rated_tables.outcome``) and shown in words on My games;
- a person who left (``left``), lost by being away past the limit (``forfeit``), or for whom a
  bot made more than :data:`TAKEOVER_SHARE` of the decisions lost: ranked below everyone who
  stayed. The others' result stands (a turn-based game: by final chips, ties share a rank; a
  real-time game: the winner first).

A table whose counting fails is logged once, marked ``failed`` and skipped: the others are
counted on. The rating a person reads is :func:`display`: 1500 for a newcomer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from cardroom.games import registry
from cardroom.games.messages import Message
from cardroom.i18n import N_
from cardroom.store import EventStore, StoreError
from cardroom.store.bots import bots_t
from cardroom.store.events import _guard, events_t, seats_t, tables_t
from cardroom.store.players import players_t, seat_claims_t
from cardroom.store.ratings import rated_tables_t, rating_changes_t, ratings_t

logger = logging.getLogger(__name__)

MU = 25.0
SIGMA = 25.0 / 3.0
TAKEOVER_SHARE = 0.2
"""A person whose decisions a bot made for more than this share is not rated for that game
(the default of ``Settings.rated_takeover_share``)."""
PROVISIONAL_GAMES = 10
"""Until this many rated games a rating is *provisional* (shown with a "?", no "plays like",
not on the leaderboard): OpenSkill's sigma falls slowly, so the count of games decides."""
MIN_GAMES = PROVISIONAL_GAMES
"""Games a person needs to appear on a leaderboard (no provisional rating is listed)."""
SHOWN_BASE = 1500
SHOWN_PER_MU = 48.0
"""Points shown per unit of mu: 200 / beta, so a gap of one beta (a 76 % chance to win between
settled ratings) reads as 200 points, as it does in Elo and lichess's Glicko."""
SHOWN_FLOOR = 100
"""No rating is shown below this (the weakest bots' mu may map under it)."""

class _BotRatings(Mapping[str, Mapping[str, tuple[float, float]]]):
    """Each game's bots' fixed ratings, by game name: the registry's ``bot_ratings`` piece of
    every game that has one (a live view: a game registered later is in it)."""

    def __getitem__(self, game: str) -> Mapping[str, tuple[float, float]]:
        entry = registry.GAMES.get(game)
        if entry is None or entry.bot_ratings is None:
            raise KeyError(game)
        ratings: Mapping[str, tuple[float, float]] = entry.load("bot_ratings")
        return ratings

    def __iter__(self) -> Iterator[str]:
        return (g.name for g in registry.games() if g.bot_ratings is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


BOT_RATINGS: Mapping[str, Mapping[str, tuple[float, float]]] = _BotRatings()
"""Game -> level -> the bot's fixed ``(mu, sigma)``, measured by tournament (each game's
``bot_ratings`` module; docs/web.md "Ratings")."""


def model() -> Any:
    """The rating model: OpenSkill's Plackett-Luce with its published defaults
    (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau 25/300)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """mu - 3 sigma (a rating the player is very likely above; kept in ``rating_changes``)."""
    return mu - 3.0 * sigma


def display(mu: float) -> int:
    """The rating a person reads: ``1500 + 48 (mu - 25)``, whole, never under 100. A newcomer
    (mu 25) reads 1500; bots and people are shown on this one scale."""
    return max(SHOWN_FLOOR, round(SHOWN_BASE + SHOWN_PER_MU * (mu - MU)))


def provisional(games: int) -> bool:
    """True while a rating rests on fewer than :data:`PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


def bot_rating(game: str, level: str) -> int:
    """The rating a bot level is shown with everywhere (the lobby's levels, the leaderboard,
    "plays like"): :func:`display` of its fixed :data:`BOT_RATINGS` mu."""
    return display(BOT_RATINGS[game][level][0])


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


VOID_REASONS: dict[str, str] = {
    "same-player": N_("not rated: one player held two seats"),
    "no-player": N_("not rated: a seat had no player"),
    "never-acted": N_("not rated: a person never played their seat"),
    "no-opponent": N_("not rated: nobody to be rated against"),
    "no-result": N_("not rated: the game has no result"),
    "failed": N_("not rated: counting this game failed"),
}
"""Why a rated table was not counted (``rated_tables.outcome``), in words for My games."""


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
    """The rank of each seat of a finished game from its summary (None: no result): by final
    chips at a turn-based table, the winner first at a real-time one."""
    entry = registry.GAMES.get(game)
    if entry is not None and not entry.realtime:
        chips = summary.get("chips")
        if not isinstance(chips, list) or len(chips) != seats:
            return None
        return ranks_by_chips([int(c) for c in chips])
    winner = summary.get("winner")
    if not isinstance(winner, int) or not 0 <= winner < seats:
        return None
    return [1 if s == winner else 2 for s in range(seats)]


@dataclass(frozen=True, slots=True)
class Seat:
    """What the keeper knows of one seat of a finished rated table."""

    kind: str
    """``person`` or ``bot``."""
    level: str | None = None
    player_id: str | None = None
    acted: bool = False
    """The seat's person made at least one move themselves."""
    gone: bool = False
    """The seat's person left, forfeited, or let a bot make too many of their decisions."""


def judge(seats: Sequence[Seat], ranks: Sequence[int] | None) -> list[SeatResult] | str:
    """The rated result of a finished game, or the reason (a :data:`VOID_REASONS` key) it is
    void. A person seat nobody took (no player, no move: a bot filled it at the start) takes no
    part. A person who is ``gone`` ranks below everyone who stayed (the others keep their order
    among themselves, gone people share the last rank)."""
    if ranks is None:
        return "no-result"
    untaken = {
        g for g, s in enumerate(seats) if s.kind == "person" and s.player_id is None and not s.acted
    }
    taking_part = [g for g in range(len(seats)) if g not in untaken]
    people = [seats[g] for g in taking_part if seats[g].kind == "person"]
    if any(s.player_id is None for s in people):
        return "no-player"
    ids = [s.player_id for s in people]
    if len(set(ids)) != len(ids):
        return "same-player"
    if any(not s.acted for s in people):
        return "never-acted"
    if not people or len(taking_part) < 2:
        return "no-opponent"
    stayed = [g for g in taking_part if not seats[g].gone]
    order = ranks_by_chips([-ranks[g] for g in stayed])  # the stayers ranked among themselves
    rank = dict(zip(stayed, order, strict=True))
    last = len(stayed) + 1
    return [
        SeatResult(g, s.player_id, s.level if s.kind == "bot" else None, rank.get(g, last), True)
        for g, s in enumerate(seats)
        if g in taking_part
    ]


class RatingKeeper:
    """Counts finished rated tables into the ratings (a task of the web server)."""

    def __init__(
        self,
        store: EventStore,
        interval: float = 2.0,
        takeover_share: float = TAKEOVER_SHARE,
        bots_rate_people: bool = False,
    ) -> None:
        self.store = store
        self.interval = interval
        self.takeover_share = takeover_share
        self.bots_rate_people = bots_rate_people
        """Off: a game with a bot people brought moves only the bots' ratings (their own
        pool); the people's stay as they were."""

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
        """Count every finished rated table not counted yet; returns how many were counted.
        A table whose counting fails is logged once, marked ``failed`` and skipped."""
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
            try:
                counted += await self.count(table_id)
            except StoreError:
                raise  # the store itself is down: every table would fail alike
            except Exception:
                logger.exception("ratings: table %s could not be counted; marked failed", table_id)
                await self._mark(table_id, "failed")
        return counted

    async def _mark(self, table_id: str, outcome: str) -> None:
        async with _guard(), self.store._write_lock, self.store.engine.begin() as conn:
            await conn.execute(
                rated_tables_t.update()
                .where(rated_tables_t.c.table_id == table_id)
                .values(counted=True, outcome=outcome)
            )

    async def count(self, table_id: str, now: float | None = None) -> bool:
        """Count one finished rated table (False if it was counted already, or is void: then
        ``rated_tables.outcome`` says why)."""
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
            summary = dict(row.summary or {})
            ranks = seat_ranks(row.game, summary, len(seat_rows))
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
            entries = [
                (e.kind, dict(e.data))
                for e in (
                    await conn.execute(
                        sa.select(events_t.c.kind, events_t.c.data).where(
                            events_t.c.table_id == table_id,
                            events_t.c.kind.in_(("action", "left", "over")),
                        )
                    )
                ).all()
            ]
            shares = bot_shares(entries)
            acted = {d.get("seat") for k, d in entries if k == "action" and d.get("by") != "bot"}
            gone = {d.get("seat") for k, d in entries if k == "left"}
            gone |= {
                d.get("seat") for k, d in entries if k == "over" and d.get("reason") == "forfeit"
            }
            gone |= {g for g, share in shares.items() if share > self.takeover_share}
            seats = [
                Seat(s.kind, s.level, claims.get(s.seat), s.seat in acted, s.seat in gone)
                if s.kind == "person"
                else Seat(s.kind, s.level)
                for s in seat_rows
            ]
            judged = judge(seats, ranks)
            if isinstance(judged, str):
                outcome = judged
            else:
                outcome = await self._apply(conn, row.game, table_id, judged, now)
            await conn.execute(
                rated_tables_t.update()
                .where(rated_tables_t.c.table_id == table_id)
                .values(outcome=outcome)
            )
        return outcome == "rated"

    async def _apply(
        self, conn: Any, game: str, table_id: str, results: list[SeatResult], now: float
    ) -> str:
        people = [r for r in results if r.player_id is not None and r.counts]
        if not people:
            return "no-opponent"
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
            return "no-opponent"
        before = [
            current.get(r.player_id, (MU, SIGMA, 0))[:2] if r.player_id else levels[r.bot or ""]
            for r in playing
        ]
        ranks = [r.rank for r in playing]
        after = rate(before, ranks)
        programs = await brought_bots(conn, [r.player_id for r in playing if r.player_id])
        keep_people = bool(programs) and not self.bots_rate_people
        for r, old, new in zip(playing, before, after, strict=True):
            if r.player_id is None:
                continue
            if keep_people and r.player_id not in programs:
                continue  # the people's pool is not moved by games against brought bots
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
                    mu_before=old[0],
                    mu_after=new[0],
                    at=now,
                )
            )
        return "rated"


async def brought_bots(conn: Any, ids: Sequence[str]) -> set[str]:
    """The ids among ``ids`` of bots people brought (the bot API's, rated in their own pool)."""
    if not ids:
        return set()
    query = sa.select(bots_t.c.id).where(bots_t.c.id.in_(list(ids)))
    return {r.id for r in (await conn.execute(query)).all()}


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


async def outcomes(store: EventStore, table_ids: Sequence[str]) -> dict[str, str | None]:
    """Each of these tables that is rated, with its counted outcome (``rated``, ``failed`` or
    a reason it was void; None: not counted yet, or counted before outcomes were kept)."""
    if not table_ids:
        return {}
    async with _guard(), store.engine.connect() as conn:
        rows = (
            await conn.execute(
                sa.select(rated_tables_t.c.table_id, rated_tables_t.c.outcome).where(
                    rated_tables_t.c.table_id.in_(list(table_ids))
                )
            )
        ).all()
    return {r.table_id: r.outcome for r in rows}


async def player_ratings(store: EventStore, player_id: str) -> dict[str, dict[str, Any]]:
    """Per game: the player's rating as shown (:func:`display`), whether it is provisional,
    games rated, and the shown change by table (games counted before this scale have none)."""
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
        r.game: {
            "rating": display(r.mu),
            "provisional": provisional(r.games),
            "games": r.games,
            "mu": r.mu,
            "changes": {},
        }
        for r in rows
    }
    for c in changes:
        entry = out.setdefault(
            c.game, {"rating": None, "provisional": True, "games": 0, "mu": None, "changes": {}}
        )
        if c.mu_before is not None and c.mu_after is not None:
            entry["changes"][c.table_id] = [display(c.mu_before), display(c.mu_after)]
    return out


async def leaderboard(
    store: EventStore, game: str, min_games: int = MIN_GAMES, limit: int = 50
) -> list[dict[str, Any]]:
    """The people with at least ``min_games`` rated games and the bots, best first, on the
    shown scale."""
    query = (
        sa.select(
            players_t.c.id,
            players_t.c.name,
            ratings_t.c.mu,
            ratings_t.c.games,
            bots_t.c.id.label("program"),
        )
        .join(players_t, players_t.c.id == ratings_t.c.player_id)
        .outerjoin(bots_t, bots_t.c.id == ratings_t.c.player_id)
        .where(ratings_t.c.game == game, ratings_t.c.games >= min_games)
        .order_by(ratings_t.c.mu.desc())
        .limit(limit)
    )
    async with _guard(), store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    board = [
        {
            "name": r.name,
            "tag": player_tag(r.id),
            "bot": None,
            "program": r.program is not None,
            "rating": display(r.mu),
            "provisional": provisional(r.games),
            "games": r.games,
        }
        for r in rows
    ]
    for level in BOT_RATINGS.get(game, {}):
        board.append(
            {
                "name": None,
                "bot": level,
                "rating": bot_rating(game, level),
                "provisional": False,
                "games": None,
            }
        )
    board.sort(key=lambda e: -int(e["rating"]))
    return board


def player_tag(player_id: str) -> str:
    """A short mark shown after a person's name where names are compared (the leaderboards):
    two people whose names look alike ("Victoria", "Vіctoria" with a Cyrillic i) differ
    here. The first 4 characters of the player id (not a secret: the key is)."""
    return player_id[:4]


def plays_like(game: str, mu: float, games: int) -> str | None:
    """The bot level whose fixed rating is nearest the player's, on the scale both are shown
    on; None while the rating is provisional."""
    levels = BOT_RATINGS.get(game, {})
    if not levels or provisional(games):
        return None
    return min(levels, key=lambda lv: abs(bot_rating(game, lv) - display(mu)))


SAME_PLAYER = Message(
    "table.rated-same-player",
    "you already hold another seat at this rated table: a rated game is played by different "
    "people, so one player cannot take two of its seats",
)
NO_BOT_HANDOVER = Message(
    "table.rated-no-bot",
    "a rated game in progress cannot be handed to a bot: its players play it to the end "
    "(leaving counts as a loss)",
)


async def second_seat(store: EventStore, table_id: str, seat: int, player_id: str) -> bool:
    """True when ``player_id`` already holds another seat of this rated table (a claim of
    ``seat`` is then refused with :data:`SAME_PLAYER`)."""
    if not await is_rated(store, table_id):
        return False
    async with _guard(), store.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(seat_claims_t.c.seat).where(
                    seat_claims_t.c.table_id == table_id,
                    seat_claims_t.c.player_id == player_id,
                    seat_claims_t.c.seat != seat,
                )
            )
        ).first()
    return row is not None

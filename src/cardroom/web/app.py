"""``create_app(settings)``: the FastAPI application of ``cardroom serve``.

No module-level state: the store and the table service are opened in the app's lifespan and
kept on ``app.state`` (``settings``, ``store``, ``service``, ``chat``, ``players``), so several
apps (tests, a restart on the same database) never share anything.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp

from cardroom.i18n import translator
from cardroom.i18n.words import forget_memo
from cardroom.store import EventStore, PlayerStore, StoreUnavailable
from cardroom.store.bounds import BoundStore
from cardroom.tables import TableService
from cardroom.tables.chat import TableChat
from cardroom.web.connections import PerAddress
from cardroom.web.gcpause import GcKeeper
from cardroom.web.guard import Guard
from cardroom.web.headers import SecurityHeaders
from cardroom.web.identity import TooManyPlayers
from cardroom.web.limits import Limits
from cardroom.web.play_now import PlayNow
from cardroom.web.ratings import RatingKeeper
from cardroom.web.routes import (
    analysis,
    bot_docs,
    bot_owners,
    bots,
    lobby,
    my_games,
    play,
    players,
    replay,
    rules,
    tables,
    ws,
)
from cardroom.web.routes.common import connection_lang
from cardroom.web.routes.replay import Replays
from cardroom.web.settings import Settings


class _App(FastAPI):
    """FastAPI with the security headers outside everything else too: the refusals of the
    host and cross-site checks, of the per-address bound and Starlette's own 500 carry them."""

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        return SecurityHeaders(inner, hsts=self.state.settings.secure_cookies)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web app for ``settings``; its lifespan opens the store and starts the tables."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await EventStore.open(settings.db_url)
        store.commit_interval = settings.commit_window / 1000
        service = TableService(
            store,
            hint_threads=settings.hint_threads,
            slot=settings.worker_slot,
            slots=settings.worker_slots,
        )
        chat = TableChat(store, service)
        keeper: asyncio.Task[None] | None = None
        gc_keeper: GcKeeper | None = None
        ratings: asyncio.Task[None] | None = None
        play: asyncio.Task[None] | None = None
        try:
            await service.start()
            await chat.start()
            gc_keeper = GcKeeper(
                freeze_every=settings.gc_step_every,
                automatic=settings.gc_automatic,
                before_step=(forget_memo,),
            )
            gc_keeper.start()  # the only full collection, before the first request
            keeper = asyncio.get_running_loop().create_task(gc_keeper.run())
            ratings = asyncio.get_running_loop().create_task(
                RatingKeeper(
                    store,
                    takeover_share=settings.rated_takeover_share,
                    bots_rate_people=settings.bots_rate_people,
                ).run()
            )
            app.state.store = store
            app.state.limits.shared = BoundStore(store)
            app.state.service = service
            app.state.chat = chat
            app.state.players = PlayerStore(store)
            app.state.play = PlayNow(store, service, app.state.players, settings.bot_delay)
            app.state.play.on_table = app.state.limits.note_table
            play = asyncio.get_running_loop().create_task(app.state.play.run())
            yield
        finally:
            if getattr(app.state, "analyses", None) is not None:
                await app.state.analyses.close()
            await chat.stop()
            for task in (ratings, play):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if keeper is not None:
                keeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await keeper
            if gc_keeper is not None:
                gc_keeper.close()
            await service.stop()
            await store.close()
            replays.close()

    app = _App(
        title="cardroom",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.settings = settings
    app.state.limits = Limits(settings)
    replays = Replays(settings.replay_cache)
    app.state.replays = replays
    @app.exception_handler(TooManyPlayers)
    async def too_many_players(request: Request, _exc: TooManyPlayers) -> Response:
        message = translator(connection_lang(request))._(
            "too many new players from your address: try again in a few seconds"
        )
        return JSONResponse(
            {"error": "rate-limited", "message": message},
            status_code=429,
            headers={"Retry-After": str(TooManyPlayers.retry_after)},
        )

    @app.exception_handler(StoreUnavailable)
    async def database_down(_request: Request, exc: StoreUnavailable) -> Response:
        return JSONResponse(
            {"error": "unavailable", "message": f"{exc}: try again in a moment"},
            status_code=503,
            headers={"Retry-After": "2"},
        )

    routers = (bots, bot_owners, bot_docs, lobby, tables, replay, rules, analysis, ws, players)
    for module in (*routers, my_games, play):
        app.include_router(module.router)
    static = StaticFiles(directory=settings.static_dir, check_dir=False)
    app.mount("/static", static, name="static")
    app.add_middleware(SecurityHeaders, hsts=settings.secure_cookies)
    app.add_middleware(Guard, allowed_hosts=settings.allowed_hosts)
    app.add_middleware(PerAddress, most=settings.connections_per_address)
    return app

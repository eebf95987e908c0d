"""The bot API's OpenAPI document and its page, made from the bot API's own routes.

The server shows no general API page (``docs_url=None``): this one covers the bot API only
(``web/routes/bots.py``, a bot's calls, and ``web/routes/bot_owners.py``, a person's), and its
page is rendered here, on the server, from the document, so that it loads nothing from outside
its origin (no renderer from a CDN).
"""

from __future__ import annotations

from html import escape
from http import HTTPStatus
from typing import Any

import msgspec
from fastapi import APIRouter, Request
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.routing import APIRoute

from cardroom.i18n import translator
from cardroom.web.routes import bot_owners, bots
from cardroom.web.routes.common import connection_lang, page

router = APIRouter()

ROUTERS = (bots.router, bot_owners.router)
"""The bot API's routes: a bot's calls, then a person's."""

BODIES: dict[tuple[str, str], type[msgspec.Struct]] = {
    ("POST", "/api/me/bots"): bot_owners.BotIn,
    ("POST", "/api/me/bots/{bot_id}/accepts"): bot_owners.AcceptsIn,
    ("POST", "/api/me/bots/{bot_id}/tokens"): bot_owners.TokenIn,
    ("POST", "/api/me/bots/{bot_id}/tokens/revoke"): bot_owners.RevokeIn,
    ("POST", "/api/tables/{table_id}/seats/{seat}/invite"): bot_owners.InviteIn,
}
"""The JSON bodies the calls read (their schemas come from the structs that read them)."""

ANSWERS: dict[tuple[str, str], tuple[int, ...]] = {
    ("GET", "/api/bot/account"): (200, 401, 429),
    ("GET", "/api/bot/events"): (200, 401, 429),
    ("POST", "/api/bot/tables/{table_id}/{answer}"): (200, 401, 403, 404, 409, 429),
    ("GET", "/api/me/bots"): (200, 401, 403),
    ("POST", "/api/me/bots"): (201, 400, 401, 403, 409, 415),
    ("POST", "/api/me/bots/{bot_id}/accepts"): (200, 400, 401, 403, 404, 415),
    ("POST", "/api/me/bots/{bot_id}/tokens"): (201, 401, 403, 404, 409, 415),
    ("POST", "/api/me/bots/{bot_id}/tokens/revoke"): (200, 401, 403, 404, 415),
    ("GET", "/api/tables/{table_id}/invites"): (200, 403, 404),
    ("POST", "/api/tables/{table_id}/seats/{seat}/invite"): (200, 400, 403, 404, 409, 415),
}
"""The statuses each call answers (an error is ``{"error", "message", "id"}``)."""

REFUSAL = {
    "type": "object",
    "properties": {
        "error": {"type": "string"},
        "message": {"type": "string", "description": "in the request's language"},
        "id": {"type": "string", "description": "the message's id, e.g. bot.bad-token"},
    },
}

WEBSOCKET = {
    "get": {
        "summary": "The table's websocket (a bot's seat)",
        "description": (
            "A websocket upgrade with `Authorization: Bearer crb_…`: the seat the bot holds "
            "at the table, the very frames and messages a browser's page has (docs/web.md). "
            "`error` frames: bot.bad-token (close 4401), bot.no-seat (close 4403), "
            "bot.token-revoked (close 4401), bot.silent (10 s without a message: close 1001, "
            "the bot is away), bot.slow (a turn not played in 30 s: close 1001, away)."
        ),
        "security": [{"bot": []}],
        "parameters": [
            {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"}}
        ],
        "responses": {"101": {"description": "Switching Protocols: the websocket is open"}},
    }
}


def bot_openapi() -> dict[str, Any]:
    """The OpenAPI document of the bot API."""
    routes = [r for each in ROUTERS for r in each.routes if isinstance(r, APIRoute)]
    doc = get_openapi(
        title="cardroom bot API",
        version="1",
        openapi_version="3.1.0",
        description=(
            "Programs that play people: a bot's token (`Authorization: Bearer crb_…`) reads "
            "its events, answers invitations and plays its seats over the table's websocket; "
            "a person's calls (their `cr_player` cookie, from this site's pages) make bots and "
            "tokens and invite bots. See docs/bots-api.md."
        ),
        routes=routes,
    )
    kinds = sorted(set(BODIES.values()), key=lambda t: t.__name__)
    schemas, components = msgspec.json.schema_components(
        kinds, ref_template="#/components/schemas/{name}"
    )
    doc.setdefault("components", {})["schemas"] = components  # (no FastAPI-read bodies)
    doc["components"]["securitySchemes"] = {
        "bot": {"type": "http", "scheme": "bearer", "description": "a bot's token: crb_…"},
        "person": {"type": "apiKey", "in": "cookie", "name": "cr_player"},
    }
    by_kind = dict(zip(kinds, schemas, strict=True))
    for path, methods in doc.get("paths", {}).items():
        for method, operation in methods.items():
            bot_call = path.startswith("/api/bot/")
            operation["security"] = [{"bot": []}] if bot_call else [{"person": []}]
            statuses = ANSWERS.get((method.upper(), path), (200,))
            operation["responses"] = {
                str(code): (
                    {"description": HTTPStatus(code).phrase}
                    if code < 400
                    else {
                        "description": HTTPStatus(code).phrase,
                        "content": {"application/json": {"schema": REFUSAL}},
                    }
                )
                for code in statuses
            }
            kind = BODIES.get((method.upper(), path))
            if kind is not None:
                operation["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": by_kind[kind]}},
                }
    doc["paths"]["/ws/{table_id}"] = WEBSOCKET
    return doc


def _document(request: Request) -> dict[str, Any]:
    state = request.app.state
    doc: dict[str, Any] | None = getattr(state, "bot_openapi", None)
    if doc is None:
        doc = state.bot_openapi = bot_openapi()
    return doc


@router.get("/api/bot/openapi.json")
async def openapi_json(request: Request) -> Response:
    """The bot API's OpenAPI document."""
    return JSONResponse(_document(request), headers={"Cache-Control": "no-cache"})


@router.get("/bots/api", response_class=HTMLResponse)
async def openapi_page(request: Request) -> Response:
    """The bot API's calls, one by one, rendered here from the OpenAPI document."""
    tr = translator(connection_lang(request))
    doc = _document(request)
    words = {
        "bot": tr._("with the bot's token"),
        "person": tr._("from the person's pages (their cookie)"),
        "body": tr._("Body (JSON):"),
        "answers": tr._("Answers:"),
    }
    parts = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            who = words["bot"] if op.get("security") == [{"bot": []}] else words["person"]
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            fields = _fields(doc, body.get("schema"))
            answers = ", ".join(sorted(op.get("responses", {})))
            lines = [
                f'<li class="api-call" data-method="{escape(method.upper())}" '
                f'data-path="{escape(path)}">',
                f"<h2><code>{escape(method.upper())} {escape(path)}</code></h2>",
                f'<p class="muted">{escape(who)}</p>',
                f"<p>{escape(op.get('description') or op.get('summary') or '')}</p>",
            ]
            if fields:
                lines.append(f"<p>{escape(words['body'])} <code>{escape(fields)}</code></p>")
            lines.append(f'<p class="muted">{escape(words["answers"])} {escape(answers)}</p>')
            parts.append("".join(lines) + "</li>")
    shown = page(request, "bot_api.html")
    html = bytes(shown.body).decode().replace("<!--calls-->", "\n".join(parts), 1)
    return HTMLResponse(html, headers={"Cache-Control": "no-store"})


def _fields(doc: dict[str, Any], schema: dict[str, Any] | None) -> str:
    """A body's fields as ``{"name": type, …}``."""
    if not schema:
        return ""
    ref = schema.get("$ref", "")
    found = doc["components"]["schemas"].get(ref.rsplit("/", 1)[-1], schema)
    props = found.get("properties", {})
    return "{" + ", ".join(f'"{k}": {v.get("type", "…")}' for k, v in props.items()) + "}"

"""The bot API's OpenAPI document and its page: every call of the bot API is in it, with who
may make it (the bot's token or the person's cookie) and the body it reads; the page lists
them in the request's language and loads nothing from outside its origin."""

from __future__ import annotations

import re

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from cardroom.web.routes.bot_docs import ROUTERS


def test_the_document_has_every_call_of_the_bot_api(client: TestClient) -> None:
    answer = client.get("/api/bot/openapi.json")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    doc = answer.json()
    assert doc["openapi"] == "3.1.0" and doc["info"]["title"] == "cardroom bot API"
    calls = {
        (method.upper(), route.path)
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods or ()
    }
    listed = {(m.upper(), p) for p, ops in doc["paths"].items() for m in ops}
    assert len(calls) == 10 and calls <= listed and ("GET", "/ws/{table_id}") in listed
    assert doc["components"]["securitySchemes"]["bot"] == {
        "type": "http", "scheme": "bearer", "description": "a bot's token: crb_…",
    }  # fmt: skip
    events = doc["paths"]["/api/bot/events"]["get"]
    assert events["security"] == [{"bot": []}] and "401" in events["responses"]
    make = doc["paths"]["/api/me/bots"]["post"]
    assert make["security"] == [{"person": []}]
    ref = make["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = doc["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert schema["properties"]["name"]["type"] == "string" and schema["required"] == ["name"]
    refused = make["responses"]["409"]["content"]["application/json"]["schema"]
    assert set(refused["properties"]) == {"error", "message", "id"}


def test_the_page_lists_the_calls_in_the_readers_language_and_nothing_from_elsewhere(
    client: TestClient,
) -> None:
    page = client.get("/bots/api?lang=fr")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert '<html lang="fr">' in html
    calls = re.findall(r'<li class="api-call" data-method="(\w+)" data-path="([^"]+)"', html)
    assert ("GET", "/api/bot/events") in calls and ("POST", "/api/me/bots") in calls
    paths = client.get("/api/bot/openapi.json").json()["paths"]
    assert len(calls) == sum(len(ops) for ops in paths.values())
    assert "avec le jeton du robot" in html and "Corps (JSON) :" in html
    assert "<code>{&quot;name&quot;: string}</code>" in html
    assert not re.search(r"""(?:src|href)=["'](?:https?:)?//""", html)  # nothing from elsewhere
    assert 'href="/api/bot/openapi.json"' in html
    # My bots links to it
    assert 'href="/bots/api"' in client.get("/me").text

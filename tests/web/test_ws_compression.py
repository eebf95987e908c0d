"""Websocket compression (permessage-deflate) is off unless the settings turn it on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import websockets

from cardroom.games.nain_jaune.rules import Rules
from cardroom.tables import SeatSpec, TableConfig
from tests.web.conftest import service_of, serving, settings_for


@pytest.mark.parametrize("compress", [False, True])
async def test_frames_are_compressed_only_when_asked(tmp_path: Path, compress: bool) -> None:
    settings = settings_for(tmp_path, ws_compression=compress)
    async with serving(settings) as (app, address):
        config = TableConfig(
            rules=Rules.from_options(None, {"end": "rounds:1"}),
            seats=(SeatSpec("person", name="Ann"), SeatSpec("person")),
            seed=3,
        )
        created = await service_of(app).create(config)
        url = f"ws://{address}/ws/{created.table_id}?token={created.creator_token}"
        # the client offers permessage-deflate (websockets does by default, as browsers do)
        async with websockets.connect(url) as ws:
            assert ws.response is not None  # the handshake is done
            agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            assert ("permessage-deflate" in agreed) is compress
            frame = json.loads(await ws.recv())  # the frames are the same either way
            assert frame["type"] == "state" and frame["you"] == 0
            assert frame["seats"][0]["name"] == "Ann"

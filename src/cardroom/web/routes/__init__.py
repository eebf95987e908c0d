"""One router per resource: the lobby, the tables, the replays, the websocket."""

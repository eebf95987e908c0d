"""The web tables: a FastAPI app serving the lobby, the table and replay pages and a websocket
per table; every rule and every table lives in :mod:`cardroom.tables`."""

from cardroom.web.app import create_app
from cardroom.web.settings import Settings

__all__ = ["Settings", "create_app"]

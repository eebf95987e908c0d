"""The settings of one web server: where it listens, its database, its limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardroom.store import default_url

WEB_DIR = Path(__file__).parent


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or an in-memory one)."""
    prefix, sep, rest = url.partition(":///")
    if not sep or not prefix.startswith("sqlite") or not rest or rest.startswith(":memory:"):
        return None
    return Path(rest.split("?", 1)[0])


@dataclass(frozen=True)
class Settings:
    """Everything ``create_app`` needs; nothing is read from the environment behind its back."""

    host: str = "127.0.0.1"
    port: int = 8000
    db_url: str = field(default_factory=default_url)
    """A SQLAlchemy async URL (``cardroom.store.resolve_url`` reads a ``--db`` value)."""
    bot_delay: float = 0.8
    """Seconds a bot waits before it acts (0 in tests)."""
    max_message_bytes: int = 4096
    """The largest client websocket message accepted (bigger ones get a ``too-large`` error)."""
    rate_per_second: float = 20.0
    """Messages a connection may send per second, on average."""
    rate_burst: int = 40
    """Messages a connection may send at once before the rate limit applies."""
    abuse_limit: int = 20
    """Binary, oversized or rate-limited messages after which a connection is closed."""
    max_replay_bytes: int = 2 * 1024 * 1024
    """The largest record ``POST /api/replay`` reads."""
    static_dir: Path = WEB_DIR / "static"
    templates_dir: Path = WEB_DIR / "templates"
    secure_cookies: bool = False
    """Mark seat cookies ``Secure`` (set it when the server is behind HTTPS)."""
    identity: str = "optional"
    """``optional``: a browser gets a player (a name and a key) when it first needs one, and
    nobody is asked anything before playing; ``required``: a player must have chosen a name
    before they create a table or open an invitation."""
    rated_takeover_share: float = 0.2
    """A person for whom a bot made more than this share of the decisions at a rated table (away,
    taken over) is not rated for that game."""

"""The settings of one web server: where it listens, its database, its limits."""

from __future__ import annotations

import importlib.util
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


def _uvloop() -> bool:
    return importlib.util.find_spec("uvloop") is not None


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
    allowed_hosts: tuple[str, ...] | None = None
    """The names this server answers to (``Host`` of every request and websocket; ``*.x``
    allows x's subdomains). None: no check (tests); ``cardroom serve`` always gives a list
    (:func:`default_hosts` plus ``--allowed-host``)."""
    max_replay_rounds: int = 2500
    """The most rounds a replayed record may hold (past it: 422, nothing computed); a 2 MB
    record holds about 2,300."""
    max_replay_steps: int = 20_000
    """The most steps one page of a replay's frames may hold (past it: 422)."""
    replays_per_minute: int = 20
    """Records one client address may upload for a replay per minute (past it: 429)."""
    replay_page_rounds: int = 20
    """Rounds of a replay sent at once (the viewer asks for the next page as it gets there)."""
    replay_pages_per_minute: int = 120
    """Further pages of uploaded records one client address may ask for per minute."""
    analyses_per_hour: int = 6
    """Analyses of uploaded records one client address may start per hour (past it: 429)."""
    exports_per_hour: int = 10
    """Exports of all one's records (``/api/me/export``) one player may ask for per hour."""
    max_analysis_rounds: int = 30
    """The most rounds of an uploaded turn-based record the analysis takes (past it: 422)."""
    connections_per_address: int = 256
    """Requests in progress and websockets open at once of one client address, in one process
    (past it: 429 with Retry-After, or a websocket closed 1013, in words)."""
    replay_cache: int = 32
    """Finished tables whose replay frames are kept, computed once (per process)."""
    sign_ins_per_minute: int = 10
    """Password sign-ins one client address may try per minute (past it: 429)."""
    wrong_passwords_per_name: int = 20
    """Wrong passwords given for one name per hour, from any address (past it: 429)."""
    passkey_tries_per_minute: int = 20
    """Passkey sign-in options and sign-ins one client address may ask for per minute."""
    plays_per_minute: int = 20
    """Play now presses per minute, of one client address and of one player (past it: 429)."""
    tables_per_minute: int = 10
    """Tables one client address may create per minute (past it: 429 with Retry-After)."""
    open_tables_per_client: int = 20
    """Tables not over that one client address may have created (per process)."""
    min_takeover_after: float = 5.0
    """The shortest wait, in seconds, before a bot takes over an absent person's seat (0, never,
    is allowed too)."""
    max_table_rounds: int = 1000
    """The most rounds a table's end condition may ask for (``rounds:N``)."""
    hints_per_minute: int = 10
    """Hints one seat may ask for per minute (past it: an error frame)."""
    bots_rate_people: bool = False
    """Whether a rated game against a bot people brought (the bot API) moves the people's
    ratings; off: only the bots' own ratings move (docs/bots-api.md)."""
    hint_threads: int = 1
    """Threads of the hints' own pool (bots and replays never wait for a hint)."""
    seat_rate_per_second: float = 20.0
    """Messages one seat may send per second over all its connections (per process)."""
    seat_rate_burst: int = 40
    """Messages one seat may send at once over all its connections."""
    sockets_per_address: int = 128
    """Websockets one client address may hold open (per process)."""
    header_timeout: float = 10.0
    """Seconds a client has to send a whole request's headers before it is disconnected."""
    idle_connections_per_address: int = 64
    """Connections of one client address with no request running (opened and headers not yet
    whole, or kept alive between requests), per process; past it the oldest is closed before
    its headers are read, so that idle sockets of one address never fill ``max_connections``."""
    keep_alive: float = 5.0
    """Seconds a kept-alive HTTP connection may wait idle for its next request before it is
    closed. Whatever keeps idle connections to the server (a proxy, a load balancer, a pool)
    must drop them sooner (docs/deploy.md, "Kept-alive connections")."""
    commit_window: float = 8.0
    """Milliseconds the log may wait, while several tables are appending, so that their
    entries share one commit (one fsync). More saves CPU under load and adds at most that
    much to an action's way to the players; 0 commits at once. A table playing alone is never
    held back (store/events.py, ``EventStore.commit_interval``)."""
    ws_compression: bool = False
    """Compress websocket frames (permessage-deflate) for clients that offer it. Off: a state
    frame is a few kilobytes of JSON, and deflating every frame for every connection was a
    tenth of the server's CPU under load (docs/performance.md)."""
    gc_automatic: bool = False
    """Let gc collect by itself between the GC keeper's steps (``web/gcpause.py``). Off (the
    default): the keeper's step, every ``gc_step_every`` seconds, is the only collection,
    about half the GC's CPU of gc's own young collections at 1000 tables. On: gc's own
    collections run as well (the default until 2026-11-27; docs/deploy.md, "Where a server's
    CPU goes")."""
    gc_step_every: float = 0.25
    """Seconds between two steps of the GC keeper (collect the young generations, freeze the
    survivors). 0.25 with ``gc_automatic`` off: each step walks a quarter second's survivors
    (about 11 ms at 1000 tables, where one step a second took 40 ms), and a 20-minute soak
    (``benchmarks/soak.py``) showed the resident memory levelling off as with gc's own
    collections (docs/deploy.md, 2026-11-27)."""
    event_loop: str = field(default_factory=lambda: "uvloop" if _uvloop() else "asyncio")
    """The event loop ``cardroom serve`` runs on: ``uvloop`` where it is installed (not on
    Windows), else ``asyncio`` (``web/server.py``)."""
    http_impl: str = "httptools"
    """uvicorn's HTTP protocol: ``httptools`` (a C parser) or ``h11`` (pure Python); both get
    the request-header deadline."""
    ws_impl: str = "websockets-sansio"
    """uvicorn's websocket protocol: ``websockets-sansio``, ``websockets`` or ``wsproto``."""
    max_connections: int = 8192
    """Connections (and requests in progress) per process; past it uvicorn answers 503."""
    identity: str = "optional"
    """``optional``: a browser gets a player (a name and a key) when it first needs one, and
    nobody is asked anything before playing; ``required``: a player must have chosen a name
    before they create a table or open an invitation."""
    worker_slot: int = 0
    """This process's slot among ``cardroom serve --workers`` (``web/router.py``): the tables it
    makes get ids routed to it (``tables/slots.py``). 0 of 1: a lone process."""
    worker_slots: int = 1
    """The number of worker processes behind the router (1: no router)."""
    rated_takeover_share: float = 0.2
    """A person for whom a bot made more than this share of the decisions at a rated table (away,
    taken over) is not rated for that game."""


LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def default_hosts(host: str) -> tuple[str, ...]:
    """The names a server bound to ``host`` answers to by default: ``host`` itself and the
    local names; any IP address as well when it listens on every address (0.0.0.0 or ::).

    An address typed as digits cannot be rebound by DNS, so only names need listing."""
    names = list(LOCAL_HOSTS)
    if host in ("0.0.0.0", "::"):
        names.append("<ip>")
    elif host not in names:
        names.append(host)
    return tuple(names)

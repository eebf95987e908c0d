"""``cardroom serve``: the web tables (every registered game in the browser, with friends and
bots)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
from dataclasses import replace

import click

from cardroom.cli.groups import CONTEXT, cli, lang_option, titles

LAN_ADDRESSES = ("0.0.0.0", "::")


def open_socket(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; a ``ClickException`` that says what to do if not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise click.ClickException(
            f"--host {host!r} is not an address of this computer: use 127.0.0.1 (only you) "
            "or 0.0.0.0 (everyone on your network)"
        ) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} is already in use (another cardroom or another program): "
                f"choose another one, e.g. --port {port + 1 if port < 65535 else 8001}"
            ) from None
        if exc.errno == errno.EACCES:
            raise click.ClickException(
                f"this user may not listen on port {port}: choose a port above 1023"
            ) from None
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


def lan_address() -> str | None:
    """This computer's address on the local network, if it has one (nothing is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


async def check_database(url: str) -> None:
    """Open and close the store once, so a bad ``--db`` is reported before serving (and an
    older database is upgraded, once, before the workers start: said on the terminal)."""
    from cardroom.store import EventStore

    store = await EventStore.open(url)
    await store.close()
    if store.upgraded is not None and store.upgraded.before is not None:
        click.echo(store.upgraded.describe())


@cli.command(context_settings=CONTEXT, help_fields=lambda tr: {"games": titles(tr)})
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: 0.0.0.0 lets friends on your network join.",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@click.option(
    "--db",
    "db",
    default=None,
    metavar="PATH|URL",
    help="Where the tables are kept: a SQLite file or a SQLAlchemy URL "
    "(default: cardroom.db in your user data folder).",
)
@click.option(
    "--bot-delay",
    default=0.8,
    show_default=True,
    type=click.FloatRange(0, 30),
    help="Seconds a bot waits before it plays (so people can follow).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes; each table's connections go to one (above 1 needs a PostgreSQL --db).",
)
@click.option(
    "--identity",
    default="optional",
    show_default=True,
    type=click.Choice(["optional", "required"]),
    help="optional: anyone plays at once and names themself when it is needed; required: "
    "a name is chosen before making a table or taking a seat.",
)
@click.option(
    "--secure-cookies",
    is_flag=True,
    help="Behind HTTPS: seat cookies only travel over HTTPS, and browsers are told to "
    "keep to HTTPS (HSTS).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="A name this server answers to, e.g. cards.example.org (repeat for more; "
    "*.example.org for its subdomains). Always allowed: the --host address and localhost.",
)
@click.option(
    "--proxy",
    default=None,
    metavar="ADDRESS",
    help="Trust the client address and scheme that the reverse proxy at this address "
    "forwards (X-Forwarded-For, X-Forwarded-Proto), e.g. 127.0.0.1.",
)
@click.option(
    "--tables-per-minute",
    default=10,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Tables one client address may create per minute.",
)
@click.option(
    "--open-tables",
    default=20,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Tables not over yet that one client address may have created.",
)
@click.option(
    "--sockets-per-address",
    default=128,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Open table connections one client address may hold.",
)
@click.option(
    "--connections-per-address",
    default=256,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Requests and table connections one client address may have open at once.",
)
@click.option(
    "--idle-connections-per-address",
    default=64,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Connections of one client address waiting for a request; past it the oldest is closed.",
)
@click.option(
    "--max-connections",
    default=8192,  # Settings' default (a test checks it)
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Connections one server process accepts at once (past it: busy, try again).",
)
@click.option(
    "--keep-alive",
    default=5.0,  # Settings' default (a test checks it)
    show_default=True,
    type=click.FloatRange(0.5, 3600),
    help="Seconds an idle kept-alive connection stays open. Behind a proxy or load balancer "
    "that keeps idle connections longer, raise it above theirs.",
)
@click.option(
    "--commit-window",
    default=8.0,  # Settings' default (a test checks it)
    show_default=True,
    type=click.FloatRange(0, 100),
    metavar="MS",
    help="Milliseconds the tables' log may wait, when many tables play at once, so that "
    "their moves share one write to disk: less CPU, a little later on screen. 0 writes "
    "each at once.",
)
@click.option(
    "--bots-rate-people",
    is_flag=True,
    help="Rated games against bots people bring move the people's ratings too (by default "
    "only the bots' own ratings move).",
)
@lang_option
def serve(
    host: str,
    port: int,
    db: str | None,
    bot_delay: float,
    workers: int,
    secure_cookies: bool,
    allowed_hosts: tuple[str, ...],
    proxy: str | None,
    tables_per_minute: int,
    open_tables: int,
    sockets_per_address: int,
    connections_per_address: int,
    idle_connections_per_address: int,
    max_connections: int,
    keep_alive: float,
    identity: str,
    commit_window: float,
    bots_rate_people: bool,
) -> None:
    """Serve tables of {games} in the browser: play with friends and bots.

    Open the address it prints, create a table, and send each friend their invitation link.
    Every table is kept in a SQLite file, so a restart loses nothing: games go on where they
    were. Stop the server with Ctrl-C.

    \b
    Examples:
      cardroom serve                              only this computer: http://127.0.0.1:8000/
      cardroom serve --host 0.0.0.0               friends on your network can join
      cardroom serve --port 8080 --db ./club.db   another port, the tables in ./club.db
      cardroom serve --bot-delay 0                bots play at once
      cardroom serve --db postgresql://cardroom@127.0.0.1/cardroom --workers 2
                                                  a club: two processes on PostgreSQL
      cardroom serve --allowed-host cards.example.org --secure-cookies --proxy 127.0.0.1
                                                  behind an HTTPS proxy (docs/deploy.md)
    """
    import uvicorn

    from cardroom.store import StoreError, resolve_url
    from cardroom.web import Settings, create_app
    from cardroom.web.router import HandedServer, Router
    from cardroom.web.server import uvicorn_config
    from cardroom.web.settings import default_hosts, sqlite_path

    try:
        url = resolve_url(db)
        asyncio.run(check_database(url))
    except (StoreError, OSError, ValueError) as exc:
        raise click.ClickException(
            f"cannot open the database {db or url!r}: {exc}. Give a file in a folder you may "
            "write to, e.g. --db ./cardroom.db"
        ) from None
    if workers > 1 and not url.startswith("postgresql"):
        raise click.ClickException(
            "--workers above 1 needs a PostgreSQL database (--db postgresql://user@host/db): "
            "a SQLite file belongs to one process"
        )
    sock = open_socket(host, port)
    shown = "127.0.0.1" if host in LAN_ADDRESSES else host
    if ":" in shown:
        shown = f"[{shown}]"
    click.echo(f"cardroom is serving at http://{shown}:{port}/ — open it in your browser")
    if host in LAN_ADDRESSES:
        lan = lan_address()
        if lan:
            click.echo(f"friends on your network open http://{lan}:{port}/")
    path = sqlite_path(url)
    click.echo(f"tables are kept in {path if path else url} (copy that file to back them up)")
    if workers > 1:
        click.echo(
            f"{workers} server processes behind this one, each table's connections in one "
            "(a dead one is replaced)"
        )
    click.echo("stop with Ctrl-C")
    settings = Settings(
        host=host,
        port=port,
        db_url=url,
        bot_delay=bot_delay,
        secure_cookies=secure_cookies,
        allowed_hosts=(*default_hosts(host), *allowed_hosts),
        tables_per_minute=tables_per_minute,
        open_tables_per_client=open_tables,
        sockets_per_address=sockets_per_address,
        connections_per_address=connections_per_address,
        idle_connections_per_address=idle_connections_per_address,
        max_connections=max_connections,
        keep_alive=keep_alive,
        identity=identity,
        commit_window=commit_window,
        bots_rate_people=bots_rate_people,
    )
    proxied = {"proxy_headers": True, "forwarded_allow_ips": proxy} if proxy else {}

    def run(server: uvicorn.Server, sockets: list[socket.socket]) -> None:
        with (
            contextlib.suppress(KeyboardInterrupt),
            asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner,
        ):
            runner.run(server.serve(sockets=sockets))

    def work(slot: int, channel: socket.socket) -> None:
        """A worker of ``--workers``: slot ``slot``, serving the sockets the router hands it."""
        mine = replace(settings, worker_slot=slot, worker_slots=workers)
        run(HandedServer(uvicorn_config(create_app(mine), mine, **proxied), channel), [])

    try:
        if workers == 1:
            config = uvicorn_config(create_app(settings), settings, **proxied)
            run(uvicorn.Server(config), [sock])
        else:
            Router(sock, workers, work, say=lambda text: click.echo(text, err=True)).run()
    finally:
        sock.close()

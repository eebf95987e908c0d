"""``cardroom serve``: the web tables (Nain Jaune in the browser with friends and bots)."""

from __future__ import annotations

import asyncio
import errno
import socket

import click

from cardroom.cli.groups import CONTEXT, cli

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
    """Open and close the store once, so a bad ``--db`` is reported before serving."""
    from cardroom.store import EventStore

    store = await EventStore.open(url)
    await store.close()


@cli.command(context_settings=CONTEXT)
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
def serve(host: str, port: int, db: str | None, bot_delay: float) -> None:
    """Serve Nain Jaune tables in the browser: play with friends and bots.

    Open the address it prints, create a table, and send each friend their invitation link.
    Every table is kept in a SQLite file, so a restart loses nothing: games go on where they
    were. Stop the server with Ctrl-C.

    \b
    Examples:
      cardroom serve                              only this computer: http://127.0.0.1:8000/
      cardroom serve --host 0.0.0.0               friends on your network can join
      cardroom serve --port 8080 --db ./club.db   another port, the tables in ./club.db
      cardroom serve --bot-delay 0                bots play at once
    """
    import uvicorn

    from cardroom.store import StoreError, resolve_url
    from cardroom.web import Settings, create_app
    from cardroom.web.settings import sqlite_path

    try:
        url = resolve_url(db)
        asyncio.run(check_database(url))
    except (StoreError, OSError, ValueError) as exc:
        raise click.ClickException(
            f"cannot open the database {db or url!r}: {exc}. Give a file in a folder you may "
            "write to, e.g. --db ./cardroom.db"
        ) from None
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
    click.echo("stop with Ctrl-C")
    settings = Settings(host=host, port=port, db_url=url, bot_delay=bot_delay)
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        ws_max_size=64 * 1024,
        proxy_headers=False,
        server_header=False,
    )
    server = uvicorn.Server(config)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()

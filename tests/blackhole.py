"""A TCP relay that can go silent: on :meth:`Blackhole.cut` it stops passing bytes both ways
without closing anything (as a pulled cable or a paused VM: no reset, no FIN), until
:meth:`Blackhole.heal`. Put between a process and PostgreSQL, it shows what the process does
when the database stops answering without a word."""

from __future__ import annotations

import asyncio
import contextlib


class Blackhole:
    """Listens on 127.0.0.1 (``port``) and relays every connection to ``target``."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self.silent = False
        self._server: asyncio.Server | None = None
        self._healed = asyncio.Event()
        self._healed.set()
        self._writers: list[asyncio.StreamWriter] = []
        self.upstream_ports: list[int] = []
        """The local ports of the relay's connections to the target (to find their server
        processes in ``pg_stat_activity.client_port``)."""

    async def start(self) -> Blackhole:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    def cut(self) -> None:
        """From now on nothing passes (what is read is dropped, as a lost packet would be)."""
        self.silent = True
        self._healed.clear()

    def heal(self) -> None:
        self.silent = False
        self._healed.set()

    async def close(self) -> None:
        for writer in self._writers:
            writer.close()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.silent:  # a new connection meets silence too: its bytes go nowhere
            self._writers.append(writer)
            with contextlib.suppress(Exception):
                while await reader.read(65536):
                    pass
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers += [writer, up_writer]
        self.upstream_ports.append(up_writer.get_extra_info("sockname")[1])
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if self.silent:
                    continue  # dropped
                writer.write(data)
                await writer.drain()
        finally:
            if not self.silent:
                writer.close()

"""A TCP relay that can make a link slow: while slow, every chunk read is passed on ``delay``
seconds later, each way, in order (a link with that one-way latency, without ``tc netem``).

Run as a process (in a network namespace, say) it listens on HOST:PORT and relays to
TARGET_HOST:TARGET_PORT; SIGUSR1 makes it slow, SIGUSR2 fast again:

    python -m tests.slowrelay HOST PORT TARGET_HOST TARGET_PORT DELAY_MS
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import time


class SlowRelay:
    """Relays every connection on ``listen`` to ``target``; :attr:`delay` (seconds, 0 while
    fast) is added to every chunk each way, order kept."""

    def __init__(self, listen: tuple[str, int], target: tuple[str, int], delay: float) -> None:
        self.listen = listen
        self.target = target
        self.slow_delay = delay
        self.delay = 0.0
        self._server: asyncio.Server | None = None

    async def start(self) -> SlowRelay:
        self._server = await asyncio.start_server(self._relay, *self.listen)
        return self

    def slow(self, on: bool) -> None:
        self.delay = self.slow_delay if on else 0.0

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(send())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic() + self.delay, data))
        finally:
            queue.put_nowait((0.0, b""))
            with contextlib.suppress(Exception):
                await sender
            writer.close()


async def _main(argv: list[str]) -> None:
    host, port, target_host, target_port, delay_ms = argv
    relay = await SlowRelay(
        (host, int(port)), (target_host, int(target_port)), int(delay_ms) / 1000
    ).start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGUSR1, relay.slow, True)
    loop.add_signal_handler(signal.SIGUSR2, relay.slow, False)
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    await relay.close()


if __name__ == "__main__":
    asyncio.run(_main(sys.argv[1:]))

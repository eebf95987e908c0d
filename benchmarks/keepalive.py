"""Kept-alive connections reused just as the server closes them (issue 19: the soak's
``httpx.ReadError`` on ``POST /api/tables`` with nothing in the server's log).

uvicorn closes a kept-alive connection idle for ``timeout_keep_alive`` (5 s in
``web/server.py``); httpx keeps an idle connection for ``keepalive_expiry`` (5 s by default).
A request sent on a connection idle for about 5 s can reach the server after its keep-alive
timer has fired: the server closes the socket with the request unread, the kernel answers with
a reset, and the client gets ``ReadError`` (or ``RemoteProtocolError``) although the server
never saw a request, so it logs nothing.

``--clients`` clients, each with its own connection pool, make one table, wait an idle time
drawn in ``[--idle-from, --idle-to]`` seconds, and make another, ``--rounds`` times, against
one ``cardroom serve`` (SQLite), all at once so that the server's loop is busy when the timers
fire. Two set-ups in the same run, one after the other on the same server: httpx's default
pool (the peer, ``keepalive_expiry`` 5 s, what the soak used) and a pool whose idle
connections expire before the server's (``--expiry``, 2 s). A table lists the requests and the
failed ones by kind.

    PYTHONPATH=src:. python benchmarks/keepalive.py [--clients 40] [--rounds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.scale.clients import ServerProcess, create_table


async def one_client(address: str, expiry: float | None, args: argparse.Namespace,
                     seen: Counter[str]) -> None:  # fmt: skip
    limits = httpx.Limits() if expiry is None else httpx.Limits(keepalive_expiry=expiry)
    async with httpx.AsyncClient(
        base_url=f"http://{address}", timeout=60, limits=limits
    ) as http:
        for _ in range(args.rounds + 1):
            try:
                await create_table(http, rounds=1)
                seen["ok"] += 1
            except httpx.HTTPError as exc:
                seen[type(exc).__name__] += 1
            await asyncio.sleep(random.uniform(args.idle_from, args.idle_to))


async def run(address: str, expiry: float | None, args: argparse.Namespace) -> Counter[str]:
    seen: Counter[str] = Counter()
    await asyncio.gather(*(one_client(address, expiry, args, seen) for _ in range(args.clients)))
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--idle-from", type=float, default=4.9)
    parser.add_argument("--idle-to", type=float, default=5.1)
    parser.add_argument("--expiry", type=float, default=2.0)
    args = parser.parse_args()
    random.seed(1)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(f"sqlite+aiosqlite:///{tmp}/k.db")
        server.start()
        try:
            rows = []
            for name, expiry in (("httpx default (5 s, the peer)", None),
                                 (f"keepalive_expiry {args.expiry:g} s", args.expiry)):  # fmt: skip
                start = time.monotonic()
                seen = asyncio.run(run(server.address, expiry, args))
                rows.append((name, seen, time.monotonic() - start))
            log = server.errors()
        finally:
            server.stop()
    print(f"{args.clients} clients x {args.rounds + 1} tables, idle {args.idle_from:g} to "
          f"{args.idle_to:g} s between two; the server closes a connection idle 5 s")  # fmt: skip
    print("| client pool | requests | answered | failed (kind) | seconds |")
    print("|---|---|---|---|---|")
    for name, seen, seconds in rows:
        failed = ", ".join(f"{k} {n}" for k, n in sorted(seen.items()) if k != "ok") or "0"
        print(f"| {name} | {sum(seen.values())} | {seen['ok']} | {failed} | {seconds:.0f} |")
    print(f"server log: {len(log.splitlines())} lines")


if __name__ == "__main__":
    main()

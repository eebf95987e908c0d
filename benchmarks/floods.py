"""One client's floods against a single server process, and a bystander on another address.

    flock /work/bench.lock python benchmarks/floods.py [--peer-ref main] [--short]

Each flood runs against a server of this tree, then against a server of ``--peer-ref`` (a git
revision unpacked with ``git archive``; ``none`` leaves it out), one after the other on the same
host, so the table shows both in the same run. The flood comes from 127.0.0.1; the bystander
from 127.0.0.2 (Linux routes all of 127.0.0.0/8 to loopback), so the server tells them apart
by address as it would two hosts.

* ``idle burst``: 8,400 TCP connections that send nothing, opened at once and held 12 s;
* ``idle stream``: 1,000 new such connections a second for 20 s, each held until the server
  closes it;
  the bystander asks ``GET /healthz`` every 50 ms (a new connection each, 3 s timeout): the
  share answered 200 and their p99.
* ``password``: one player sets their password 8 at a time for 10 s; the bystander signs in
  every 2 s: server CPU seconds and the bystander's sign-in latency;
* ``passkey``: one player asks for passkey register options 8 at a time for 10 s; the
  bystander asks ``/healthz`` every 50 ms: CPU, latency and the challenge rows left;
* ``export``: one player with finished games asks for the export 16 at once, three times; the
  bystander asks ``/healthz``: CPU and latency.
Bounded: about 2 minutes per tree (``--short``: the floods a quarter as long).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

BYSTANDER = "127.0.0.2"
ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    code: str
    flood: str
    asked: int = 0
    answered: int = 0
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    note: str = ""

    def p(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def server(src: Path, tmp: Path) -> AsyncIterator[tuple[str, int, Path]]:
    """``cardroom serve`` of the tree ``src`` on a fresh SQLite file (a single process)."""
    port = free_port()
    db = tmp / f"floods-{port}.db"
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardroom", "serve", "--port", str(port), "--db", str(db)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{url}/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
        yield url, proc.pid, db
    finally:
        proc.terminate()
        proc.wait(30)


async def bystander_healthz(url: str, row: Row, until: float, every: float = 0.05) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=BYSTANDER)
    async with httpx.AsyncClient(transport=transport, timeout=3.0) as client:
        while time.monotonic() < until:
            row.asked += 1
            start = time.monotonic()
            with contextlib.suppress(httpx.HTTPError):
                answer = await client.get(f"{url}/healthz", headers={"Connection": "close"})
                if answer.status_code == 200:
                    row.answered += 1
                    row.latencies.append(time.monotonic() - start)
            await asyncio.sleep(every)


async def hold(host: str, port: int, held: list[asyncio.StreamWriter], until: float) -> None:
    """One connection that sends nothing, kept until the server closes it or ``until``."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        return
    held.append(writer)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(reader.read(), max(0.0, until - time.monotonic()))
    writer.close()


async def idle_burst(url: str, pid: int, row: Row, n: int, seconds: float) -> None:
    host, port = url.removeprefix("http://").split(":")
    until = time.monotonic() + seconds
    held: list[asyncio.StreamWriter] = []
    cpu = cpu_of(pid)
    tasks = [asyncio.create_task(hold(host, int(port), held, until)) for _ in range(n)]
    await asyncio.sleep(0.5)
    await bystander_healthz(url, row, until)
    await asyncio.gather(*tasks)
    row.cpu = cpu_of(pid) - cpu
    row.note = f"{len(held)} opened"


async def idle_stream(url: str, pid: int, row: Row, per_second: int, seconds: float) -> None:
    host, port = url.removeprefix("http://").split(":")
    end = time.monotonic() + seconds
    held: list[asyncio.StreamWriter] = []
    tasks: list[asyncio.Task[None]] = []
    cpu = cpu_of(pid)

    async def open_them() -> None:
        tick = 0.01
        while time.monotonic() < end:
            for _ in range(int(per_second * tick)):
                tasks.append(asyncio.create_task(hold(host, int(port), held, end + 1)))
            await asyncio.sleep(tick)

    opener = asyncio.create_task(open_them())
    await asyncio.sleep(1.0)
    await bystander_healthz(url, row, end)
    await opener
    await asyncio.gather(*tasks)
    row.cpu = cpu_of(pid) - cpu
    row.note = f"{len(held)} opened"


async def player(url: str, name: str, local: str | None = None) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=local) if local else None
    client = httpx.AsyncClient(
        base_url=url, headers={"origin": url}, timeout=60.0, transport=transport
    )
    answer = await client.post("/api/me", json={"name": name})
    assert answer.status_code == 200, answer.text
    return client


async def hammer(client: httpx.AsyncClient, path: str, body: object, until: float) -> list[int]:
    codes: list[int] = []
    while time.monotonic() < until:
        with contextlib.suppress(httpx.HTTPError):
            codes.append((await client.post(path, json=body)).status_code)
    return codes


async def password_flood(url: str, pid: int, row: Row, seconds: float) -> None:
    ann = await player(url, "Ann")
    bob = await player(url, "Bob", BYSTANDER)
    await bob.post("/api/me/password", json={"password": "bob's long secret"})
    until = time.monotonic() + seconds
    cpu = cpu_of(pid)
    flood = [
        asyncio.create_task(hammer(ann, "/api/me/password", {"password": f"secret {n:04}"}, until))
        for n in range(8)
    ]
    transport = httpx.AsyncHTTPTransport(local_address=BYSTANDER)
    async with httpx.AsyncClient(transport=transport, headers={"origin": url}, timeout=30) as c:
        while time.monotonic() < until:
            row.asked += 1
            start = time.monotonic()
            answer = await c.post(
                f"{url}/api/signin", json={"name": "Bob", "password": "bob's long secret"}
            )
            if answer.status_code == 200:
                row.answered += 1
                row.latencies.append(time.monotonic() - start)
            await asyncio.sleep(2.0)
    codes = [c for codes in await asyncio.gather(*flood) for c in codes]
    row.cpu = cpu_of(pid) - cpu
    row.note = f"flood: {codes.count(200)} hashed, {codes.count(429)} refused"
    await ann.aclose()
    await bob.aclose()


async def passkey_flood(url: str, pid: int, row: Row, db: Path, seconds: float) -> None:
    ann = await player(url, "Ann")
    until = time.monotonic() + seconds
    cpu = cpu_of(pid)
    body = {"confirm": True}
    flood = [
        asyncio.create_task(hammer(ann, "/api/passkey/register-options", body, until))
        for _ in range(8)
    ]
    await bystander_healthz(url, row, until)
    codes = [c for codes in await asyncio.gather(*flood) for c in codes]
    row.cpu = cpu_of(pid) - cpu
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT count(*) FROM passkey_challenges").fetchone()[0]
    row.note = f"flood: {codes.count(200)} answered, {codes.count(429)} refused; {rows} rows"
    await ann.aclose()


async def export_flood(url: str, pid: int, row: Row, games: int) -> None:
    zelda = await player(url, "Zelda")
    tables = []
    for _ in range(games):  # a person seat left, taken over by a bot after 5 s: soon over
        made = await zelda.post("/api/tables", json={
            "name": "Zelda", "players": 2, "end": "rounds:1", "takeover_after": 5,
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        })  # fmt: skip
        if made.status_code == 201:
            tables.append(made.json()["table"])
        else:
            break
    for table in tables:  # the creator's seat is claimed once its socket opens
        ws_url = url.replace("http", "ws") + f"/ws/{table}"
        import websockets

        cookie = "; ".join(f"{k}={v}" for k, v in zelda.cookies.items())
        with contextlib.suppress(Exception):
            async with websockets.connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
                await asyncio.wait_for(ws.recv(), 5)
    for _ in range(600):
        listed = (await zelda.get("/api/me/games")).json()["games"]
        if sum(g["status"] == "over" for g in listed) >= len(tables):
            break
        await asyncio.sleep(0.2)
    over = sum(g["status"] == "over" for g in listed)
    cpu = cpu_of(pid)
    until = time.monotonic() + 3600
    done = asyncio.Event()

    async def flood() -> list[int]:
        codes: list[int] = []
        for _ in range(3):
            answers = await asyncio.gather(*(zelda.get("/api/me/export") for _ in range(16)))
            codes += [a.status_code for a in answers]
        done.set()
        return codes

    task = asyncio.create_task(flood())
    watcher = asyncio.create_task(bystander_healthz(url, row, until))
    await done.wait()
    watcher.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watcher
    codes = await task
    row.cpu = cpu_of(pid) - cpu
    row.note = f"{over} games; exports: {codes.count(200)} sent, {codes.count(429)} refused"
    await zelda.aclose()


def peer_src(ref: str, tmp: Path) -> tuple[str, Path] | None:
    if ref in ("", "none"):
        return None
    git = ["git", "-C", str(ROOT)]
    rev = subprocess.run([*git, "rev-parse", "--short", ref], capture_output=True, text=True,
                         check=True).stdout.strip()  # fmt: skip
    archive = subprocess.run([*git, "archive", rev, "src"], capture_output=True, check=True)
    (tmp / "peer").mkdir()
    subprocess.run(["tar", "-x", "-C", str(tmp / "peer")], input=archive.stdout, check=True)
    return f"peer {ref} ({rev})", tmp / "peer" / "src"


async def run(args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    scale = 0.25 if args.short else 1.0
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        described = subprocess.run(["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
                                   capture_output=True, text=True).stdout.strip()  # fmt: skip
        codes = [(f"this tree ({described})", ROOT / "src")]
        peer = peer_src(args.peer_ref, tmp)
        if peer is not None:
            codes.append(peer)
        for code, src in codes:
            for flood in args.floods.split(","):
                row = Row(code, flood)
                print(f"… {code}: {flood}", file=sys.stderr, flush=True)
                async with server(src, tmp) as (url, pid, db):
                    if flood == "idle-burst":
                        await idle_burst(url, pid, row, 8400, 12 * scale)
                    elif flood == "idle-stream":
                        await idle_stream(url, pid, row, 1000, 20 * scale)
                    elif flood == "password":
                        await password_flood(url, pid, row, 10 * scale)
                    elif flood == "passkey":
                        await passkey_flood(url, pid, row, db, 10 * scale)
                    elif flood == "export":
                        await export_flood(url, pid, row, args.games)
                rows.append(row)
                await asyncio.sleep(1.0)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer-ref", default="main")
    parser.add_argument("--short", action="store_true")
    parser.add_argument("--games", type=int, default=10)  # tables_per_minute
    parser.add_argument("--floods", default="idle-burst,idle-stream,password,passkey,export")
    args = parser.parse_args()
    rows = asyncio.run(run(args))
    print(f"host: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print("| flood | code | bystander asked | answered | share | p50 ms | p99 ms | max ms | "
          "server CPU s | notes |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        share = r.answered / r.asked if r.asked else float("nan")
        latency = f"{r.p(0.5):.0f} | {r.p(0.99):.0f} | {r.p(1.0):.0f}"
        print(f"| {r.flood} | {r.code} | {r.asked} | {r.answered} | {share:.0%} | {latency} | "
              f"{r.cpu:.1f} | {r.note} |")  # fmt: skip


if __name__ == "__main__":
    main()

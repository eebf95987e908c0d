"""A multi-host test bed: PostgreSQL and two ``cardroom serve`` hosts, each in its own Linux
network namespace, people of each table split across the hosts, faults on the links.

    sudo PYTHONPATH=src:. python benchmarks/testbed.py [--scenarios kill,cut-db] [--tables 6]

(the script runs this module's ``main``; ``tests/scale/test_testbed.py`` runs one scenario).

Namespaces ``crtb-db``, ``crtb-h1``, ``crtb-h2`` (made here, removed at the end), linked by veth
pairs: each host to the database (10.77.1.0/24, 10.77.2.0/24) and to this namespace, where the
scripted people run (10.77.11.0/24, 10.77.12.0/24; host 2 runs ``--workers 2``). The hosts
meet only through the database (its notices): there is no link between them to cut, so a
partition between hosts that both reach the database changes nothing by construction. A cut
is silent: a ``pfifo limit 0`` queue on both ends of a link drops every packet, no reset
The slow link adds 50 ms each way to host 1's link to the database: ``tc netem`` where the
kernel has it, else a relay in the database's namespace (``tests/slowrelay.py``) that host 1
always reaches the database through and that holds every chunk 50 ms each way while slow. The
slow-link scenario also plays REALTIME Spit/Speed tables (a new game whenever one ends), each
table's two people on different hosts, and prints their act→all latency (from a person's
``act`` until both people have its frame) while the link is slow and otherwise (the peer in the
same run), and the duplicate-key refusals PostgreSQL logged.

Each scenario: fresh database and hosts, TABLES Nain Jaune tables (2 people, 2 bots; each
table's people on different hosts, half of the tables made on each host), 4 s of play, the
fault at t0 for its duration, healed, then play to the end. With ``--src`` (a peer: another tree's
hosts) the database keeps PostgreSQL's default settings, as before issue 33. It prints per
scenario: seconds from t0 until every table's authority acted again (a bot's move or a deal:
tables run again), the longest any person went without a frame or an error while their game
was in play, and the frames that disagree with the log (goal 0).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from cardroom.games.nain_jaune.table import NainJauneTable
from cardroom.store import LogEntry
from cardroom.store.events import asyncpg_dsn
from tests.pgcluster import PgCluster, why_not
from tests.scale.clients import (
    PER_ADDRESS_BOUNDS,
    RealtimeClient,
    SeatClient,
    check_realtime_frames,
    create_realtime_table,
    create_table,
)

ROOT = Path(__file__).resolve().parents[1]  # (the checkout)
NS = {"db": "crtb-db", "h1": "crtb-h1", "h2": "crtb-h2"}
DB_SIDE = {"h1": ("crtbd1", "10.77.1.1"), "h2": ("crtbd2", "10.77.2.1")}
HOST_SIDE = {"h1": ("crtbh1d", "10.77.1.2"), "h2": ("crtbh2d", "10.77.2.2")}
CLIENT_SIDE = {"h1": ("crtbc1", "10.77.11.1", "crtbh1c", "10.77.11.2"),
               "h2": ("crtbc2", "10.77.12.1", "crtbh2c", "10.77.12.2")}  # fmt: skip
CHECK = ("crtbck", "10.77.21.1", "crtbdbc", "10.77.21.2")
PORT = 8000
SCENARIOS = ("kill", "cut-db", "db-stop", "slow", "hosts-apart")
RELAY_PORT = 15432
"""Where the slow-link relay listens in the database's namespace (on host 1's link)."""
SRC = ROOT / "src"
"""The tree the hosts run (``--src``: another tree's, a peer)."""


def why_not_here() -> str | None:
    """None if the bed can be built here, else why not (the tests skip with it)."""
    if os.geteuid() != 0:
        return "the test bed needs root (network namespaces)"
    if shutil.which("ip") is None or shutil.which("tc") is None:
        return "the test bed needs iproute2 (ip, tc)"
    pg = why_not()
    if pg is not None:
        return pg
    probe = "crtb-probe"
    done = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if done.returncode != 0:
        return f"cannot make a network namespace: {done.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


def sh(*args: str, ns: str | None = None, check: bool = True) -> subprocess.CompletedProcess[str]:
    command = (["ip", "netns", "exec", ns] if ns else []) + list(args)
    return subprocess.run(command, capture_output=True, text=True, check=check)


def netem() -> bool:
    """True if the kernel has ``tc netem`` (delay)."""
    sh("ip", "link", "add", "crtbprobe", "type", "dummy", check=False)
    ok = sh("tc", "qdisc", "add", "dev", "crtbprobe", "root", "netem", "delay", "1ms",
            check=False).returncode == 0  # fmt: skip
    sh("ip", "link", "del", "crtbprobe", check=False)
    return ok


@contextlib.contextmanager
def network() -> Iterator[None]:
    """The namespaces and links; removed on exit."""
    teardown()
    try:
        for ns in NS.values():
            sh("ip", "netns", "add", ns)
            sh("ip", "link", "set", "lo", "up", ns=ns)
        for host in ("h1", "h2"):
            (dev_db, ip_db), (dev_h, ip_h) = DB_SIDE[host], HOST_SIDE[host]
            _pair(dev_db, NS["db"], ip_db, dev_h, NS[host], ip_h)
            dev_c, ip_c, dev_hc, ip_hc = CLIENT_SIDE[host]
            _pair(dev_c, None, ip_c, dev_hc, NS[host], ip_hc)
        _pair(CHECK[0], None, CHECK[1], CHECK[2], NS["db"], CHECK[3])
        yield
    finally:
        teardown()


def _pair(a: str, ns_a: str | None, ip_a: str, b: str, ns_b: str | None, ip_b: str) -> None:
    sh("ip", "link", "add", a, "type", "veth", "peer", "name", b)
    for dev, ns, ip in ((a, ns_a, ip_a), (b, ns_b, ip_b)):
        if ns is not None:
            sh("ip", "link", "set", dev, "netns", ns)
        sh("ip", "addr", "add", f"{ip}/24", "dev", dev, ns=ns)
        sh("ip", "link", "set", dev, "up", ns=ns)


def teardown() -> None:
    for ns in NS.values():
        sh("ip", "netns", "del", ns, check=False)
    for dev in ("crtbc1", "crtbc2", CHECK[0]):
        sh("ip", "link", "del", dev, check=False)


def cut(host: str, on: bool) -> None:
    """Drop every packet between ``host`` and the database, both ways (or stop dropping)."""
    for dev, ns in ((DB_SIDE[host][0], NS["db"]), (HOST_SIDE[host][0], NS[host])):
        if on:
            sh("tc", "qdisc", "replace", "dev", dev, "root", "pfifo", "limit", "0", ns=ns)
        else:
            sh("tc", "qdisc", "del", "dev", dev, "root", ns=ns, check=False)


def slow(host: str, on: bool, ms: int = 50) -> None:
    for dev, ns in ((DB_SIDE[host][0], NS["db"]), (HOST_SIDE[host][0], NS[host])):
        if on:
            sh("tc", "qdisc", "replace", "dev", dev, "root", "netem", "delay", f"{ms}ms", ns=ns)
        else:
            sh("tc", "qdisc", "del", "dev", dev, "root", ns=ns, check=False)


class Relay:
    """``tests/slowrelay.py`` in the database's namespace: host 1's way to the database when
    the kernel has no ``tc netem``."""

    def __init__(self, pg_port: int, ms: int = 50) -> None:
        ip = DB_SIDE["h1"][1]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", NS["db"], sys.executable, "-m", "tests.slowrelay",
             ip, str(RELAY_PORT), ip, str(pg_port), str(ms)],
            env=env, stdout=subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != b"ready":
            raise RuntimeError("the slow-link relay did not start")

    def slow(self, on: bool) -> None:
        self.proc.send_signal(signal.SIGUSR1 if on else signal.SIGUSR2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class NsCluster(PgCluster):
    """The test clusters' PostgreSQL, run inside the database's namespace, listening on its
    links, with the server settings docs/deploy.md asks the operator for."""

    def __init__(self, tuned: bool = True) -> None:
        keepalives = (
            " -c client_connection_check_interval=2000 -c tcp_keepalives_idle=4"
            " -c tcp_keepalives_interval=1 -c tcp_keepalives_count=2 -c tcp_user_timeout=6000"
        )
        super().__init__(options="-c listen_addresses='*'" + (keepalives if tuned else ""))
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write("host all all 10.77.0.0/16 trust\n")

    def _run(self, tool: str, *args: str) -> None:
        from tests import pgcluster

        command = ["ip", "netns", "exec", NS["db"], *pgcluster._as_owner(),
                   str(self.bindir / tool), *args]  # fmt: skip
        done = subprocess.run(command, capture_output=True, text=True, cwd="/", check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {done.stderr.strip() or done.stdout.strip()}")

    def url_from(self, ip: str, port: int | None = None) -> str:
        return f"postgresql+asyncpg://cardroom@{ip}:{port or self.port}/postgres"


class Host:
    """``cardroom serve`` in a host's namespace, on 0.0.0.0:8000."""

    def __init__(self, name: str, db_url: str, workers: int = 1) -> None:
        self.name = name
        self.db_url = db_url
        self.workers = workers
        self.proc: subprocess.Popen[bytes] | None = None
        self.err = Path(f"/tmp/crtb-{name}.err")

    @property
    def address(self) -> str:
        return f"{CLIENT_SIDE[self.name][3]}:{PORT}"

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT)])}
        command = ["ip", "netns", "exec", NS[self.name], sys.executable, "-m", "cardroom",
                   "serve", "--host", "0.0.0.0", "--port", str(PORT), "--db", self.db_url,
                   "--bot-delay", "0.3", "--workers", str(self.workers)]  # fmt: skip
        for bound in PER_ADDRESS_BOUNDS:
            command += [bound, "1000000"]
        with self.err.open("ab") as err:
            self.proc = subprocess.Popen(
                command, env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} ended: {self.err.read_text()[-800:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{self.address}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer within 60 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


class LogReader:
    """The log as the hosts wrote it, read without opening a store (which would upgrade the
    schema under a peer's older hosts)."""

    def __init__(self, url: str) -> None:
        self.dsn = asyncpg_dsn(url)

    async def entries(self, table_id: str) -> list[LogEntry]:
        import asyncpg

        conn = await asyncpg.connect(self.dsn, timeout=10)
        try:
            rows = await conn.fetch(
                "SELECT seq, kind, data, at FROM events WHERE table_id = $1 ORDER BY seq",
                table_id,
            )
        finally:
            await conn.close()
        return [LogEntry(r["seq"], r["kind"], json.loads(r["data"]), r["at"]) for r in rows]

    async def close(self) -> None:
        """Nothing held between reads."""


class Timed(list[Any]):
    """A client's error list that notes when each error came."""

    def __init__(self, times: list[float], playing: list[bool]) -> None:
        super().__init__()
        self.times = times
        self.playing = playing

    def append(self, item: Any) -> None:
        self.times.append(time.monotonic())
        self.playing.append(True)
        super().append(item)


def _heard(times: list[float], playing: list[bool], frame: dict[str, Any]) -> None:
    """A state frame came: when, and whether its game is in play (a person or bot to act)."""
    times.append(time.monotonic())
    playing.append(frame.get("status") == "playing")


async def disagreeing(store: LogReader, clients: list[SeatClient]) -> tuple[int, int]:
    """(frames checked, frames that disagree with the final log at their seq)."""
    checked = bad = 0
    logs: dict[str, Any] = {}
    for client in clients:
        if client.table_id not in logs:
            logs[client.table_id] = await store.entries(client.table_id)
        entries = logs[client.table_id]
        if [e.seq for e in entries] != list(range(1, len(entries) + 1)):
            bad += 1  # a gap or a duplicate in the log
        for frame in client.frames:
            table = NainJauneTable.replay(client.table_id, entries[: frame["seq"]])
            expected = table.frame(frame["you"], None, set(), None)
            checked += 1
            if frame["status"] != expected["status"] or frame["round"] != expected["round"]:
                bad += 1
    return checked, bad


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Realtime:
    """Spit/Speed tables played one game after another until ``until``, each table's two
    people on different hosts; every act's act→all latency, and every game's clients."""

    def __init__(self, addresses: list[str], until: float) -> None:
        self.addresses = addresses
        self.until = until
        self.latencies: list[tuple[float, float]] = []
        """(when the act was sent, seconds until both people had its frame)."""
        self.games: list[list[RealtimeClient]] = []

    async def play(self, k: int) -> None:
        game = 0
        while time.monotonic() < self.until - 3:
            kind = "speed" if (k + game) % 2 == 0 else "spit"
            via = self.addresses[(k + game) % 2]
            async with httpx.AsyncClient(base_url=f"http://{via}", timeout=30) as http:
                invite = await create_realtime_table(http, game=kind)
            arrivals: list[list[tuple[int, float]]] = [[], []]
            acts: list[tuple[int, float]] = []
            clients = []
            for seat, token in sorted(invite.tokens.items()):
                order = self.addresses if (seat + k) % 2 == 0 else self.addresses[::-1]

                def heard(
                    c: RealtimeClient,
                    f: dict[str, Any],
                    seat: int = seat,
                    arrivals: list[list[tuple[int, float]]] = arrivals,
                    acts: list[tuple[int, float]] = acts,
                ) -> None:
                    arrivals[seat].append((f["seq"], time.monotonic()))
                    ref = f.get("ref")
                    if ref is not None and ref in c.sent_at:
                        acts.append((f["seq"], c.sent_at[ref]))

                clients.append(RealtimeClient(
                    list(order), invite.table_id, token, seed=k * 1000 + game * 2 + seat,
                    think=0.1, name=f"P{seat}", on_state=heard,
                ))  # fmt: skip
            self.games.append(clients)
            left = max(10.0, self.until - time.monotonic())
            with contextlib.suppress(TimeoutError):  # a game not over by then is left
                await asyncio.wait_for(
                    asyncio.gather(*(c.run(deadline=left) for c in clients)), left + 5
                )
            for seq, sent in acts:
                got = [next((t for s, t in arr if s >= seq), None) for arr in arrivals]
                if all(t is not None for t in got):
                    self.latencies.append((sent, max(t for t in got if t is not None) - sent))
            game += 1


async def realtime_disagreeing(
    store: LogReader, games: list[list[RealtimeClient]]
) -> tuple[int, int]:
    """(frames checked, games whose frames or acknowledged actions disagree with the log)."""
    checked = bad = 0
    for clients in games:
        try:
            checked += await check_realtime_frames(store, clients)  # type: ignore[arg-type]
        except AssertionError:
            bad += 1
    return checked, bad


async def scenario(name: str, tables: int, hold: float, realtime: int = 0) -> dict[str, Any]:
    """One scenario on a fresh database and fresh hosts (``realtime``: Spit/Speed tables too,
    in the slow-link scenario)."""
    cluster = NsCluster(tuned=SRC == ROOT / "src")  # a peer: the database as it was before
    cluster.start()
    relay = Relay(cluster.port) if name == "slow" and not netem() else None
    h1_url = cluster.url_from(DB_SIDE["h1"][1], RELAY_PORT if relay else None)
    hosts = {
        "h1": Host("h1", h1_url),
        "h2": Host("h2", cluster.url_from(DB_SIDE["h2"][1]), workers=2),
    }
    check = LogReader(cluster.url_from(CHECK[3]))
    result: dict[str, Any] = {"scenario": name}
    try:
        for host in hosts.values():
            host.start()
        made = []
        for k in range(tables):
            via = hosts["h1" if k % 2 == 0 else "h2"].address
            async with httpx.AsyncClient(base_url=f"http://{via}", timeout=30) as http:
                made.append(await create_table(http, rounds=3, takeover_after=10.0))
        addresses = [hosts["h1"].address, hosts["h2"].address]
        clients: list[SeatClient] = []
        heard: dict[int, list[float]] = {}
        busy: dict[int, list[bool]] = {}
        for k, invite in enumerate(made):
            for seat, token in sorted(invite.tokens.items()):
                order = addresses if (seat + k) % 2 == 0 else addresses[::-1]
                times: list[float] = []
                playing: list[bool] = []
                client = SeatClient(list(order), invite.table_id, token, think=0.3)
                client.errors = Timed(times, playing)
                client.on_state = lambda c, f, times=times, playing=playing: _heard(
                    times, playing, f
                )
                heard[id(client)] = times
                busy[id(client)] = playing
                clients.append(client)
        runs = [asyncio.create_task(c.run(deadline=240)) for c in clients]
        live = Realtime(addresses, time.monotonic() + 4 + hold + 15)
        if name == "slow":
            runs += [asyncio.create_task(live.play(k)) for k in range(realtime)]
        await asyncio.sleep(4)
        fault, heal = _fault(name, hosts, cluster, relay)
        t0, wall0 = time.monotonic(), time.time()
        fault()
        await asyncio.sleep(hold)
        heal()
        await asyncio.wait_for(asyncio.gather(*runs), 300)
        again = []
        for invite in made:
            after = [  # what only the table's authority writes: its bots' moves, deals
                e.at
                for e in await check.entries(invite.table_id)
                if e.at > wall0 and (e.kind == "round" or e.data.get("by") == "bot")
            ]
            again.append(min(after) - wall0 if after else float("inf"))
        waits = []
        for client in clients:  # a gap counts after a frame of a game in play (not between
            times, playing = heard[id(client)], busy[id(client)]  # rounds, not once over)
            waits += [
                b - a
                for a, b, live in zip(times, times[1:], playing, strict=False)
                if live and b >= t0
            ]
        checked, bad = await disagreeing(check, clients)
        over = 0
        for invite in made:
            log = await check.entries(invite.table_id)
            over += NainJauneTable.replay(invite.table_id, log).status == "over"
        result |= {
            "run again (s)": max(again),
            "longest wait (s)": max(waits) if waits else float("nan"),
            "frames": checked,
            "disagreeing": bad,
            "tables over": f"{over}/{len(made)}",
        }
        if live.games:
            during = [lat for at, lat in live.latencies if t0 <= at <= t0 + hold]
            other = [lat for at, lat in live.latencies if not t0 - 0.5 <= at <= t0 + hold + 2]
            rt_checked, rt_bad = await realtime_disagreeing(check, live.games)
            pg_log = (cluster.root / "log").read_text(errors="replace")
            result |= {
                "spit/speed games": len(live.games),
                "act→all slow p50/p99/max (s)": "{:.3f}/{:.3f}/{:.3f} ({} acts)".format(
                    pct(during, 0.5),
                    pct(during, 0.99),
                    max(during, default=float("nan")),
                    len(during),
                ),
                "act→all fast p50/p99/max (s)": "{:.3f}/{:.3f}/{:.3f} ({} acts)".format(
                    pct(other, 0.5),
                    pct(other, 0.99),
                    max(other, default=float("nan")),
                    len(other),
                ),
                "spit/speed frames": rt_checked,
                "spit/speed games disagreeing": rt_bad,
                "duplicate-key refusals": pg_log.count("duplicate key value"),
            }
    finally:
        await check.close()
        for host in hosts.values():
            host.stop()
        if relay is not None:
            relay.stop()
        cluster.destroy()
    return result


def _fault(
    name: str, hosts: dict[str, Host], cluster: NsCluster, relay: Relay | None = None
) -> tuple[Callable[[], None], Callable[[], None]]:
    if name == "kill":
        return hosts["h1"].kill, hosts["h1"].start
    if name == "cut-db":
        return (lambda: cut("h1", True)), (lambda: cut("h1", False))
    if name == "db-stop":
        return (lambda: cluster.stop("fast")), cluster.start
    if name == "slow" and relay is not None:
        return (lambda: relay.slow(True)), (lambda: relay.slow(False))
    if name == "slow":
        return (lambda: slow("h1", True)), (lambda: slow("h1", False))
    return (lambda: None), (lambda: None)  # hosts-apart: no link between them to cut


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenarios", default="kill,cut-db,db-stop,slow,hosts-apart")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--hold", type=float, default=20.0, help="seconds each fault lasts")
    parser.add_argument("--src", type=Path, default=None, help="the hosts run this src tree")
    parser.add_argument("--realtime", type=int, default=2,
                        help="Spit/Speed tables in the slow-link scenario")  # fmt: skip
    args = parser.parse_args(argv)
    global SRC
    if args.src is not None:
        SRC = args.src.resolve()
    reason = why_not_here()
    if reason is not None:
        print(f"test bed not run: {reason}")
        return 2
    rows = []
    with network():
        for name in args.scenarios.split(","):
            print(f"-- {name}", file=sys.stderr, flush=True)
            rows.append(await scenario(name, args.tables, args.hold, args.realtime))
    for row in rows:
        print(" | ".join(f"{k}: {v:.2f}" if isinstance(v, float) else f"{k}: {v}"
                         for k, v in row.items()))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""What plays one seat of one table for a program: frames in, ``act`` messages out.

A :class:`TurnPlayer` plays a turn-based game with a cardroom bot (``act(view,
rng)``) or a research policy (``policy(observation, action_mask) -> action id``, the encoding of
the game's research adapters); a :class:`RealtimePlayer` plays a real-time game with a real-time
bot (``observe``/``due``/``act``/``rejected``, as :class:`~cardroom.bots.reaction.
ReactionBot`). Both read the seat's frame through the game's ``wire`` piece (the registry's),
so they decide on exactly the view the server's own bots get.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from cardroom.games.registry import Game

__all__ = ["PolicyBot", "RealtimePlayer", "SeatPlayer", "Send", "TurnPlayer"]

log = logging.getLogger("cardroom.botclient")

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""Sends one message on the table's websocket."""


class SeatPlayer(Protocol):
    """Plays one seat: told every frame, woken when it said it would act."""

    def reset(self) -> None:
        """A new connection begins (its first frame is whole)."""
        ...

    async def frame(self, frame: dict[str, Any], send: Send) -> None:
        """A frame arrived (a ``state`` frame, an ``error`` …)."""
        ...

    def due(self) -> float | None:
        """When (the event loop's clock) :meth:`wake` should be called, None: not before the
        next frame."""
        ...

    async def wake(self, send: Send) -> None:
        """The time :meth:`due` gave has come."""
        ...


class PolicyBot:
    """A cardroom bot for a turn-based game made of a research policy: ``policy(observation,
    mask)`` returns an action id (its number in the game's research encoding, which its
    ``wire`` piece names: ``encoding()``).

    ``policy`` may also be an object with ``predict(observation, action_masks=mask)`` (as
    sb3-contrib's ``MaskablePPO``: its first result is the action) or ``act(observation,
    mask)``. An id the mask forbids is not sent: the first legal action is played instead,
    and a warning logged.
    """

    name = "policy"

    def __init__(self, policy: Any, encoding: Any) -> None:
        self.policy = policy
        self.encoding = encoding

    def choose(self, observation: Any, mask: Any) -> int:
        """The policy's action id for one observation."""
        policy = self.policy
        if hasattr(policy, "predict"):
            out = policy.predict(observation, action_masks=mask)
            chosen = out[0] if isinstance(out, tuple) else out
        elif callable(policy):
            chosen = policy(observation, mask)
        else:
            chosen = policy.act(observation, mask)
        return int(getattr(chosen, "item", lambda: chosen)())

    def act(self, view: Any, rng: random.Random) -> Any:
        """The view encoded, the policy asked, its id read back as an action."""
        code = self.encoding
        mask = code.action_mask(view)
        try:
            chosen = self.choose(code.encode_view(view), mask)
            legal = 0 <= chosen < len(mask) and bool(mask[chosen])
        except (TypeError, ValueError, OverflowError) as exc:
            log.warning("the policy failed (%s): playing the first legal action", exc)
            legal = False
            chosen = -1
        if not legal:
            log.warning(
                "the policy chose action %s, which is not legal now: playing the first legal "
                "action instead (use the action mask)",
                chosen,
            )
            return view.legal_actions[0]
        return code.action_from_id(chosen)


class TurnPlayer:
    """Plays a turn-based seat with ``bot`` (``act(view, rng)``): acts once per state it is
    asked to act in, says it is ready for the next round, takes its seat if it must.

    The bot thinks in a worker thread, so one slow decision does not hold up other tables.
    """

    def __init__(self, game: Game, bot: Any, rng: random.Random, name: str = "Bot") -> None:
        self.wire = game.load("wire")
        self.reader = self.wire.Reader()
        self.bot = bot
        self.rng = rng
        self.name = name
        self.acted: set[int] = set()
        self.readied: set[int] = set()
        self.joined = False
        self.last: dict[str, Any] | None = None
        self.view: Any = None
        self.retry_at: float | None = None

    def reset(self) -> None:
        """A new connection."""
        self.reader.reset()

    async def frame(self, frame: dict[str, Any], send: Send) -> None:
        """Act on a state frame; after a refusal that may pass, look again shortly."""
        if frame.get("type") == "error":
            if frame.get("code") in ("rate-limited", "busy") and self.last is not None:
                self.acted.discard(self.last["seq"])
                self.retry_at = asyncio.get_running_loop().time() + 0.5
            elif frame.get("code") != "stale":
                log.warning("the table refused: %s", frame.get("message"))
            return
        if frame.get("type") != "state" or frame.get("you") is None:
            return
        self.last = frame
        self.view = self.reader.view(frame)
        await self._state(frame, send)

    async def _state(self, frame: dict[str, Any], send: Send) -> None:
        seq = frame["seq"]
        you = frame["you"]
        status = frame.get("status")
        row: dict[str, Any] = next((r for r in frame.get("seats", ()) if r.get("seat") == you), {})
        if status == "waiting" and not row.get("joined", True) and not self.joined:
            self.joined = True
            await send({"type": "join", "name": self.name})
            return
        if status == "round-over" and you not in frame.get("ready", ()) and seq not in self.readied:
            self.readied.add(seq)
            await send({"type": "ready"})
            return
        if status != "playing" or seq in self.acted:
            return
        view = self.view
        if view is None or not view.my_turn or not view.legal_actions:
            return
        self.acted.add(seq)
        action = await asyncio.to_thread(self.bot.act, view, self.rng)
        await send(self.wire.act_message(action, frame))

    def due(self) -> float | None:
        """After a refusal for rate: when to try again."""
        return self.retry_at

    async def wake(self, send: Send) -> None:
        """Try the last state again."""
        self.retry_at = None
        if self.last is not None:
            await self._state(self.last, send)


class RealtimePlayer:
    """Plays a real-time game's seat with a real-time bot (``observe(view, now)``, ``due``,
    ``act(now)``, ``rejected(stale, view, now)``), on the event loop's clock: the bot plans an
    action at a time, the player sends it then; a refused one is told to the bot."""

    def __init__(self, game: Game, make: Callable[[int], Any], name: str = "Bot") -> None:
        self.name = name
        self.joined = False
        self.wire = game.load("wire")
        self.reader = self.wire.Reader()
        self.make = make
        self.bot: Any = None
        self.seat: int | None = None
        self.view: Any = None
        self.frame_in: dict[str, Any] | None = None
        self.log_seen: int | None = None
        self.sent = False
        """An action was sent and neither refused nor followed by a new view yet."""

    def reset(self) -> None:
        """A new connection: its log lines are counted afresh."""
        self.reader.reset()
        self.log_seen = None

    async def frame(self, frame: dict[str, Any], send: Send) -> None:
        """Show the bot the new view; tell it about its refused actions."""
        if frame.get("type") == "error":
            stale = frame.get("code") == "stale"
            if frame.get("code") in ("illegal", "bad-request"):  # (a card moved meanwhile)
                log.info("the table refused: %s", frame.get("message"))
            elif not stale:
                log.warning("the table refused: %s", frame.get("message"))
            self._refused(stale)
            return
        if frame.get("type") != "state":
            return
        you = frame.get("you")
        row: dict[str, Any] = next((r for r in frame.get("seats", ()) if r.get("seat") == you), {})
        if frame.get("status") == "waiting" and you is not None and not self.joined:
            if row.get("name") is None:
                self.joined = True
                await send({"type": "join", "name": self.name})
            return
        view = self.reader.view(frame)
        if view is None:
            return
        if self.bot is None or self.seat != view.seat:
            self.seat = view.seat
            self.bot = self.make(view.seat)
        now = asyncio.get_running_loop().time()
        self.view = view
        self.frame_in = frame
        refused = self._refusals(frame)
        self.bot.observe(view, now)
        if refused is not None:
            self._refused(refused)

    def _refused(self, stale: bool) -> None:
        """The action sent last was refused: the bot looks again (once per action)."""
        if not self.sent or self.bot is None or self.view is None:
            return
        self.sent = False
        self.bot.rejected(stale, self.view, asyncio.get_running_loop().time())

    def _refusals(self, frame: dict[str, Any]) -> bool | None:
        """Whether the new log lines hold a refusal of this seat's action (True: as stale)."""
        lines = frame.get("log") or []
        start = int(frame.get("log_from", 0))
        end = start + len(lines)
        seen = self.log_seen
        self.log_seen = end
        if seen is None:
            return None
        found: bool | None = None
        for line in lines[max(0, seen - start) :]:
            if line.get("seat") == self.seat and not line.get("accepted", True):
                reason = str(line.get("engine_reason") or line.get("reason") or "")
                found = reason.startswith("stale")
        return found

    def due(self) -> float | None:
        """When the bot's planned action is due."""
        if self.bot is None or self.view is None or self.view.phase == "over":
            return None
        due = self.bot.due
        return None if due is None else float(due)

    async def wake(self, send: Send) -> None:
        """Send the planned action."""
        if self.bot is None or self.frame_in is None:
            return
        action = self.bot.act(asyncio.get_running_loop().time())
        self.sent = True
        await send(self.wire.act_message(action, self.frame_in))


def takes_two(fn: Any) -> bool:
    """True for a callable of (at least) two positional parameters."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in kinds for p in params) >= 2 or any(
        p.kind is inspect.Parameter.VAR_POSITIONAL for p in params
    )

"""A local fake of Discord for the bot's tests: an aiohttp server answering the REST routes the
bot uses and a gateway websocket, driven by the real discord.py client through the settings'
`api_base` and `gateway_url`.

It keeps what a test asserts on: every request the bot made (method, path, JSON body, query),
and the messages of each channel as Discord would store them. `wait_for(predicate)` waits on a
condition with a timeout (never a sleep). Traps of discord.py 2.7 it respects: responses carry
`Content-Type: application/json` exactly; a 429 carries `Via` and `retry_after`; interactions
carry `attachment_size_limit`; an interaction callback is answered with a body; attachments
carry `proxy_url`. What a bot pays for on Discord, the gateway sends as Discord does: every new
message of a channel as MESSAGE_CREATE, the bot's own too; a reply, in the answer and in the
event, with the message it answers (`referenced_message`); a guild message's event with its
author's membership (`member`).

It enforces Discord's limits (`form_body.py`): a message, edit, interaction answer, modal,
autocomplete answer or command tree over one is refused as Discord refuses it (400, code 50035
"Invalid Form Body" with its `errors` object; 50006 for an empty message; 413 for files over
the size limit), and noted in `rejected`; a new message that could ping someone the bot did not
mean to is noted in `mention_problems`. The `fake` fixture fails a test that leaves either
non-empty, unless the test expects it (`expect_rejections`). An interaction the bot does not
answer within Discord's 3 s is noted in `failed_interactions` ("This interaction failed"), and
one it never answers fails the test too (`unanswered`; unless `expect_unanswered`). Anyone may
send any custom_id (a crafted client can): who may answer a component or a modal is the bot's
to check.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.bot import form_body

TOKEN = "fake-token"
EPOCH = 1_420_070_400_000  # Discord's epoch (ms)
#: the largest file an interaction's answer or a message may carry (the fake's server is unboosted)
ATTACHMENT_SIZE_LIMIT = 8 * 1024 * 1024
#: the most messages a channel keeps pinned
MAX_PINS = 50
#: seconds Discord waits for an interaction's first answer before the user sees "This
#: interaction failed"
ACK_LIMIT = 3.0
#: the multipart field of an uploaded file, as Discord names them (`files[0]`, `files[1]`...)
FILE_FIELD = re.compile(r"files\[(\d+)\]")


def snowflake_at(ms: int, n: int) -> int:
    return ((ms - EPOCH) << 22) | (n & 0x3FFFFF)


def user_json(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {"id": str(user_id), "username": name, "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot}


#: the gateway events whose guild messages carry their author's membership, as Discord sends
MEMBER_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE"})


def member_json(user: dict[str, Any]) -> dict[str, Any]:
    """The partial guild member of a message's event (no `user`: it is the message's author)."""
    return {"nick": user.get("nick"), "roles": [], "joined_at": _now(), "deaf": False,
            "mute": False, "flags": 0, "avatar": None, "premium_since": None, "pending": False}


class Pace:
    """Discord's global rate limit as a token bucket: `rate` requests a second, at most `burst`
    at once; a request waits for its token. The clock and the sleep are injected (a test gives
    its own: no real waiting)."""

    def __init__(self, rate: float = 50.0, burst: int = 50, *,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.rate, self.burst = rate, burst
        self.clock, self.sleep = clock, sleep
        self.tokens = float(burst)
        self.at = clock()
        self.waited = 0.0

    async def take(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        self.tokens -= 1  # taken now, paid for by waiting until the bucket is back at zero
        if self.tokens < 0:
            wait = -self.tokens / self.rate
            self.waited += wait
            await self.sleep(wait)


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str]
    #: which bot process made it, when each has its own `api_base_for(name)` (shards)
    via: str = ""


@dataclass
class Failure:
    """A scripted failure of the next request(s) matching `method` and a path part."""

    method: str
    path_part: str
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1


class FakeDiscord:
    """The fake: one guild with text channels, some users, a bot user, REST and gateway."""

    def __init__(self, *, token: str = TOKEN, message_content_intent: bool = True,
                 shard_count: int = 1, pace: Pace | None = None) -> None:
        self.token = token
        #: what every REST request waits on before it is answered (None: answered at once); a
        #: benchmark passes `Pace()`, Discord's global 50 requests a second
        self.pace = pace
        #: the REST requests being answered now (a test asserts how many run at once)
        self.in_flight: list[Request] = []
        #: Discord's clock (a test may set its own, shared with the bot's): message ids are
        #: snowflakes of its time, and edits are stamped with it
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        self.message_content_intent = message_content_intent
        self._ids = itertools.count(1)
        self.bot_user = user_json(self.snowflake(), "FAPPO Bot", bot=True)
        self.app_id = self.bot_user["id"]
        #: the shards GET /gateway/bot recommends; guilds are spread over them by id
        self.shard_count = shard_count
        #: every guild (id -> name); `guild_id` is the first, on shard 0
        self.guilds: dict[int, str] = {}
        self.guild_id = self.add_guild("Fake Guild", shard=0)
        #: guilds in an outage: listed unavailable in READY, no GUILD_CREATE until `guild_back`
        self.unavailable_guilds: set[int] = set()
        #: each gateway session's shard [id, count], by socket and by session id (for RESUME)
        self._socket_shards: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._session_shards: dict[str, tuple[int, int]] = {}
        self._init_discord_rules()
        self.users: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self.messages: dict[str, dict[str, dict[str, Any]]] = {}
        self.requests: list[Request] = []
        self.failures: list[Failure] = []
        #: requests answered only once `release` is set (a crash between Discord storing a
        #: message and the bot hearing of it): (method, path part, text in the content)
        self.holds: list[tuple[str, str, str]] = []
        self.held: list[Request] = []
        self.release = asyncio.Event()
        #: users who do not take DMs from the bot (Discord's 50007)
        self.closed_dms: set[str] = set()
        #: channel id -> the ids of its pinned messages, oldest first (Discord keeps 50)
        self.pins: dict[str, list[str]] = {}
        #: channels where the bot may not pin (no MANAGE_MESSAGES: 403, 50013)
        self.no_pins: set[str] = set()
        self.commands: list[dict[str, Any]] = []
        #: the most bytes of files a message may carry (told to the bot with each interaction)
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        #: requests refused for breaking one of Discord's limits, with Discord's answer
        self.rejected: list[tuple[Request, dict[str, Any]]] = []
        #: a test that means to make the bot overstep sets this (the fixture checks `rejected`)
        self.expect_rejections = False
        #: new messages that could ping someone unintended (`form_body.mention_problem`)
        self.mention_problems: list[tuple[Request, str]] = []
        self.interaction_responses: dict[str, list[dict[str, Any]]] = {}
        self._interactions: dict[str, dict[str, Any]] = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._changed = asyncio.Condition()
        self.identified = 0
        self.resumed = 0
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # ---- set-up -------------------------------------------------------------------------------
    def snowflake(self) -> int:
        now = int(self.clock().timestamp() * 1000)
        return snowflake_at(now, next(self._ids))

    def stamp(self) -> str:
        return self.clock().isoformat()

    def add_user(self, name: str, user_id: int | None = None) -> dict[str, Any]:
        user = user_json(user_id or self.snowflake(), name)
        self.users[user["id"]] = user
        return user

    def add_channel(self, name: str, *, kind: int = 0, parent: str | None = None,
                    guild: int | None = None, channel_id: int | None = None) -> dict[str, Any]:
        channel: dict[str, Any] = {
            "id": str(channel_id or self.snowflake()), "type": kind, "name": name,
            "guild_id": str(guild or self.guild_id), "position": len(self.channels),
            "permission_overwrites": [], "nsfw": False, "parent_id": parent,
            "last_message_id": None, "topic": None, "rate_limit_per_user": 0}
        if kind in (11, 12):  # a thread (a forum post is a public thread in a forum)
            channel.update(owner_id=self.bot_user["id"], message_count=0, member_count=1,
                           thread_metadata={"archived": False, "auto_archive_duration": 1440,
                                            "archive_timestamp": _now(), "locked": False})
        self.channels[channel["id"]] = channel
        self.messages[channel["id"]] = {}
        return channel

    def fail(self, method: str, path_part: str, status: int, body: dict[str, Any],
             headers: dict[str, str] | None = None, times: int = 1) -> None:
        self.failures.append(Failure(method, path_part, status, body, headers or {}, times))

    def server_error(self, method: str, path_part: str, status: int = 503, *,
                     times: int = 1) -> None:
        """Discord down: a 5xx for the next `times` matching requests (503: discord.py retries
        500, 502, 504 and 524 itself, sleeping seconds, before it gives the error up)."""
        self.fail(method, path_part, status, {"message": "Service Unavailable", "code": 0},
                  times=times)

    #: Discord's permanent refusals: code -> (status, message)
    REFUSALS = {10003: (404, "Unknown Channel"), 10013: (404, "Unknown User"),
                50001: (403, "Missing Access"), 50013: (403, "Missing Permissions"),
                50007: (403, "Cannot send messages to this user")}

    def refuse(self, method: str, path_part: str, code: int, *, times: int = 1) -> None:
        """One of Discord's permanent refusals (`REFUSALS`), with its JSON error code."""
        status, message = self.REFUSALS[code]
        self.fail(method, path_part, status, {"message": message, "code": code}, times=times)

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/cdn/{name}", self._cdn)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_route("*", "/via/{via}/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self.attachments: dict[str, bytes] = {}

    async def stop(self) -> None:
        for timer in self._ack_timers:
            timer.cancel()
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    def api_base_for(self, process: str) -> str:
        """The REST base of one bot process among several: its requests carry `via=process`."""
        return f"{self.base_url}/via/{process}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.base_url.replace("http", "ws", 1) + "/gateway"

    # ---- waiting ------------------------------------------------------------------------------
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until `predicate()` is truthy (re-checked at each request or gateway event);
        returns its value. TimeoutError names nothing: the test's assert says what was wanted."""
        async with self._changed:
            return await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    def sent(self, method: str = "POST", path_part: str = "/messages") -> list[Request]:
        return [r for r in self.requests if r.method == method and path_part in r.path]

    def bot_messages(self, channel_id: str) -> list[dict[str, Any]]:
        return [m for m in self.messages.get(channel_id, {}).values()
                if m["author"]["id"] == self.bot_user["id"]]

    # ---- the gateway --------------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the gateway sessions of its shard: its guild's, or shard 0 for a
        DM (as Discord does)."""
        self._seq += 1
        guild = data.get("guild_id")
        if event in MEMBER_EVENTS and guild and "webhook_id" not in data:
            # a guild message's event carries its author's membership (a user's nickname
            # there: `user["nick"]`); REST's message objects do not
            data = {**data, "member": member_json(data["author"])}
        payload = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        self._remember_event(self._seq, int(guild) if guild else None, payload, event, data)
        for socket in list(self._sockets):
            if not socket.closed and self._receives(socket, int(guild) if guild else None):
                await socket.send_str(payload)

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every gateway session as Discord does when it restarts a node (the client
        reconnects and resumes)."""
        for socket in list(self._sockets):
            await socket.close(code=code)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45_000}}))
        try:
            async for msg in socket:
                if msg.type is not WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    await socket.send_str(json.dumps({"op": 11}))
                elif op == 2:
                    await self._identify(socket, data["d"])
                elif op == 6:
                    await self._resume(socket, data["d"])
        finally:
            self._sockets.remove(socket)
            self._socket_shards.pop(socket, None)
        return socket

    async def _identify(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await socket.close(code=4004)
            return
        if data.get("intents", 0) & (1 << 15) and not self.message_content_intent:
            await socket.close(code=4014)
            return
        await self._pass_gate()
        shard = self._shard_of_identify(data)
        if shard is None:
            await socket.close(code=4010)  # Invalid shard
            return
        self.identified += 1
        session = f"session-{self.identified}"
        self._socket_shards[socket] = shard
        self._session_shards[session] = shard
        guilds = self.guilds_of_shard(*shard)
        self._seq += 1
        await socket.send_str(json.dumps({"op": 0, "t": "READY", "s": self._seq, "d": {
            "v": 10, "user": self.bot_user,
            "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
            "session_id": session, "resume_gateway_url": self.gateway_url,
            "application": {"id": self.app_id, "flags": 0}, "shard": list(shard),
            "private_channels": [], "relationships": []}}))
        for guild in guilds:
            if guild in self.unavailable_guilds:
                continue  # in an outage: its GUILD_CREATE comes when it is back
            self._seq += 1
            await socket.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self._seq,
                                              "d": self.guild_json(guild)}))
        await self._notify()

    async def guild_back(self, guild_id: int) -> None:
        """A guild unavailable at READY is back: Discord sends its GUILD_CREATE then, to the
        sessions of its shard, however long after READY."""
        self.unavailable_guilds.discard(guild_id)
        self._seq += 1
        payload = json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self._seq,
                              "d": self.guild_json(guild_id)})
        for socket in list(self._sockets):
            if not socket.closed and self._receives(socket, guild_id):
                await socket.send_str(payload)
        await self._notify()

    def guild_json(self, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id
        everyone = {"id": str(guild_id), "name": "@everyone", "permissions": "3072",
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False}
        mine = [c for c in self.channels.values() if c.get("guild_id") == str(guild_id)]
        channels = [c for c in mine if c["type"] not in (11, 12)]
        threads = [c for c in mine if c["type"] in (11, 12)]
        return {
            "id": str(guild_id), "name": self.guilds[guild_id], "icon": None,
            "owner_id": next(iter(self.users), self.bot_user["id"]), "unavailable": False,
            "roles": [everyone], "emojis": [], "stickers": [], "features": [],
            "channels": channels, "threads": threads, "large": False, "member_count": 1,
            "members": [{"user": self.bot_user, "roles": [], "joined_at": _now(),
                         "deaf": False, "mute": False, "flags": 0}],
            "voice_states": [], "presences": [], "verification_level": 0,
            "default_message_notifications": 0, "explicit_content_filter": 0, "mfa_level": 0,
            "premium_tier": 0, "preferred_locale": "en-US", "system_channel_flags": 0,
            "nsfw_level": 0, "afk_timeout": 300}

    # ---- shards -------------------------------------------------------------------------------
    # Discord spreads a bot's guilds over its shards by `(guild_id >> 22) % shard_count`; each
    # gateway session (IDENTIFY carries `shard: [id, count]`) hears only its guilds' events, and
    # DMs go to shard 0.
    def add_guild(self, name: str, *, shard: int = 0) -> int:
        """A new guild whose id falls on `shard` of `shard_count`; returns its id."""
        assert 0 <= shard < self.shard_count
        guild_id = self.snowflake()
        while (guild_id >> 22) % self.shard_count != shard:
            guild_id += 1 << 22  # one millisecond later
        self.guilds[guild_id] = name
        return guild_id

    @staticmethod
    def shard_of(guild_id: int | None, shard_count: int) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % shard_count

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[int]:
        return [g for g in self.guilds if self.shard_of(g, shard_count) == shard_id]

    def _shard_of_identify(self, data: dict[str, Any]) -> tuple[int, int] | None:
        """The [id, count] an IDENTIFY asks for (none: [0, 1]), or None when Discord would
        refuse it (4010 Invalid Shard: an id outside the count)."""
        shard_id, count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < count:
            return None
        return int(shard_id), int(count)

    def _receives(self, socket: web.WebSocketResponse, guild_id: int | None) -> bool:
        """Whether a gateway session hears an event of `guild_id` (None: a DM)."""
        shard = self._socket_shards.get(socket)
        if shard is None:
            return False  # not identified (or resumed) yet
        return self.shard_of(guild_id, shard[1]) == shard[0]

    def identified_shards(self) -> list[tuple[int, int]]:
        """The [id, count] of every live gateway session."""
        return [s for socket, s in self._socket_shards.items() if not socket.closed]

    # ---- Discord's rules ----------------------------------------------------------------------
    # What real Discord refuses, so the bot is held to it rather than to what this fake happens
    # to allow: interactions acknowledged once (and within `ack_seconds`, when a test sets it),
    # followups only after the acknowledgement, a modal only as the first answer and never to a
    # modal, custom_ids of at most 100 characters, a reply to a deleted message refused unless
    # `fail_if_not_exists` is false, rooms the bot may not write in or see (403), and on the
    # gateway: RECONNECT (op 7), INVALID SESSION (op 9) and RESUME replaying missed events.
    def _init_discord_rules(self) -> None:
        #: seconds an interaction may wait for its first answer (Discord: 3); None: unchecked
        self.ack_seconds: float | None = None
        #: token -> seconds from INTERACTION_CREATE to the first answer
        self.acked: dict[str, float] = {}
        self._born: dict[str, float] = {}
        #: interactions the bot left unanswered past Discord's 3 s: the user saw "This
        #: interaction failed" (the `fake` fixture fails a test that leaves one, or one never
        #: answered at all, unless `expect_unanswered`)
        self.failed_interactions: list[dict[str, Any]] = []
        self.expect_unanswered = False
        self._ack_timers: list[asyncio.TimerHandle] = []
        #: channel id -> 50013 (Missing Permissions) or 50001 (Missing Access)
        self.denied: dict[str, int] = {}
        #: every refusal made under these rules: (method, path, status, code)
        self.refusals: list[tuple[str, str, int, int]] = []
        #: events sent, for RESUME: (seq, guild or None, payload)
        self._events: list[tuple[int, int | None, str]] = []
        #: when set by a test, IDENTIFY and RESUME wait for it to be set (events dispatched
        #: meanwhile are missed by the session); `at_gate` counts who waits
        self.gateway_gate: asyncio.Event | None = None
        self.at_gate = 0
        #: when set by a test, reads of a channel's history wait for it to be set
        self.history_gate: asyncio.Event | None = None

    def _remember_event(self, seq: int, guild: int | None, payload: str, event: str,
                        data: dict[str, Any]) -> None:
        self._events.append((seq, guild, payload))
        del self._events[:-2000]
        if event == "INTERACTION_CREATE":
            loop = asyncio.get_running_loop()
            self._born[data["token"]] = loop.time()
            self._ack_timers.append(loop.call_later(ACK_LIMIT, self._failed, data["token"]))

    def _failed(self, token: str) -> None:
        """Discord's 3 s are up: unanswered, the user is told "This interaction failed"."""
        if token not in self.acked and self._interactions[token] not in self.failed_interactions:
            self.failed_interactions.append(self._interactions[token])

    def unanswered(self) -> list[dict[str, Any]]:
        """Every interaction that failed, or is not answered yet (at the end of a test: never
        will be)."""
        return [*self.failed_interactions,
                *(i for token, i in self._interactions.items()
                  if token not in self.acked and i not in self.failed_interactions)]

    def _refuse(self, method: str, path: str, status: int, code: int, message: str
                ) -> web.Response:
        self.refusals.append((method, path, status, code))
        return _json({"message": message, "code": code}, status)

    def _discord_rules(self, method: str, path: str, body: Any) -> web.Response | None:
        parts = path.strip("/").split("/")
        if isinstance(body, dict):
            too_long = _long_custom_id(body)
            if too_long:
                return self._refuse(method, path, 400, 50035, "Invalid Form Body (custom_id: "
                                    f"Must be 100 or fewer in length: {too_long[:120]})")
        match (method, parts):
            case ("POST", ["interactions", _, token, "callback"]):
                return self._acknowledge(method, path, token, body or {})
            case (_, ["webhooks", _, token, *_]) if token in self._born:
                if token not in self.acked:
                    return self._refuse(method, path, 404, 10015, "Unknown Webhook")
            case (_, ["channels", channel_id, *rest]):
                code = self.denied.get(channel_id)
                if code is not None:
                    text = "Missing Access" if code == 50001 else "Missing Permissions"
                    return self._refuse(method, path, 403, code, text)
                if method == "POST" and rest == ["messages"] and isinstance(body, dict):
                    return self._check_reference(method, path, channel_id, body)
        return None

    def _acknowledge(self, method: str, path: str, token: str, body: dict[str, Any]
                     ) -> web.Response | None:
        born = self._born.get(token)
        if born is None:
            return self._refuse(method, path, 404, 10062, "Unknown interaction")
        if token in self.acked:
            return self._refuse(method, path, 400, 40060,
                                "Interaction has already been acknowledged.")
        waited = asyncio.get_running_loop().time() - born
        if self.ack_seconds is not None and waited > self.ack_seconds:
            return self._refuse(method, path, 404, 10062, "Unknown interaction")
        if body.get("type") == 9 and self._interactions[token]["type"] == 5:
            return self._refuse(method, path, 400, 50035,
                                "Invalid Form Body (type: a modal cannot answer a modal)")
        self.acked[token] = waited
        return None

    def _check_reference(self, method: str, path: str, channel_id: str, body: dict[str, Any]
                         ) -> web.Response | None:
        reference = body.get("message_reference")
        if not reference or str(reference.get("message_id")) in self.messages.get(channel_id,
                                                                                   {}):
            return None
        if reference.get("fail_if_not_exists", True):
            return self._refuse(method, path, 400, 50035, "Invalid Form Body "
                                "(message_reference: Unknown message)")
        self.requests[-1].body = copy.deepcopy(body)  # what the bot sent, kept as it was
        del body["message_reference"]  # sent as a plain message, as Discord does
        return None

    def _edit_original(self, token: str, body: dict[str, Any]) -> dict[str, Any]:
        """PATCH .../@original: the interaction's first answer, edited; the same message (its
        id) as Discord answers, so discord.py keeps routing its components."""
        first = next((r["message"] for r in self.interaction_responses.get(token, [])
                      if "callback" in r), None)
        if first is None:
            return self.message_json("0", self.bot_user, body.get("content") or "")
        for key in ("content", "embeds", "components"):
            if key in body:
                first[key] = body[key]
        return first

    async def _pass_gate(self) -> None:
        if self.gateway_gate is not None and not self.gateway_gate.is_set():
            self.at_gate += 1
            await self._notify()
            await self.gateway_gate.wait()

    def rate_limit(self, method: str, path_part: str, retry_after: float, *,
                   is_global: bool = False, times: int = 1) -> None:
        """The next matching request(s) get a 429 as Discord sends it: `retry_after` (seconds,
        a float) and `global` in the body, `Via`, `Retry-After` (whole seconds, rounded up),
        and for a bucket's limit the X-RateLimit headers (for a global one
        `X-RateLimit-Global`)."""
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Scope": "global" if is_global else "user"}
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            reset = datetime.now(UTC).timestamp() + retry_after
            headers.update({"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0",
                            "X-RateLimit-Reset": f"{reset:.3f}",
                            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                            "X-RateLimit-Bucket": "fake-bucket"})
        self.fail(method, path_part, 429, {"message": "You are being rate limited.",
                                           "retry_after": retry_after, "global": is_global},
                  headers, times)

    async def reconnect(self, shard: int | None = None) -> None:
        """op 7 RECONNECT to the sessions (of one shard): the client should resume."""
        await self._send_op(shard, {"op": 7, "d": None})

    async def invalidate(self, *, resumable: bool, shard: int | None = None) -> None:
        """op 9 INVALID SESSION: resumable or not (then the session is forgotten and the
        client must IDENTIFY again)."""
        if not resumable:
            for _socket, found in list(self._socket_shards.items()):
                if shard is None or found[0] == shard:
                    for session, of in list(self._session_shards.items()):
                        if of == found:
                            del self._session_shards[session]
        await self._send_op(shard, {"op": 9, "d": resumable})

    async def _send_op(self, shard: int | None, payload: dict[str, Any]) -> None:
        for socket, found in list(self._socket_shards.items()):
            if not socket.closed and (shard is None or found[0] == shard):
                await socket.send_str(json.dumps(payload))

    async def _resume(self, socket: web.WebSocketResponse, data: dict[str, Any]) -> None:
        """RESUME: the events the session missed since its `seq`, then RESUMED; an unknown
        session is told INVALID SESSION (not resumable)."""
        await self._pass_gate()
        shard = self._session_shards.get(data.get("session_id") or "")
        if data.get("token") != self.token or shard is None:
            await socket.send_str(json.dumps({"op": 9, "d": False}))
            return
        self._socket_shards[socket] = shard
        after = int(data.get("seq") or 0)
        for seq, guild, payload in list(self._events):
            if seq > after and self.shard_of(guild, shard[1]) == shard[0]:
                await socket.send_str(payload)
        self.resumed += 1
        self._seq += 1
        await socket.send_str(json.dumps({"op": 0, "t": "RESUMED", "s": self._seq, "d": {}}))
        await self._notify()

    # ---- what players do ----------------------------------------------------------------------
    def message_json(self, channel_id: str, author: dict[str, Any], content: str,
                     **extra: Any) -> dict[str, Any]:
        message: dict[str, Any] = {
            "id": str(self.snowflake()), "channel_id": channel_id, "author": author,
            "content": content, "timestamp": self.stamp(), "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": [], "pinned": False, "type": 0, "flags": 0, "components": []}
        channel = self.channels.get(channel_id)
        if channel is not None and channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        message.update(extra)
        return message

    def store(self, channel_id: str, message: dict[str, Any]) -> None:
        """A new message, kept as Discord keeps it: its channel's `last_message_id` moves to it
        (and stays when it is deleted, as on Discord)."""
        self.messages[channel_id][message["id"]] = message
        self.channels[channel_id]["last_message_id"] = message["id"]

    async def post(self, channel_id: str, author: dict[str, Any], content: str, *,
                   live: bool = True) -> dict[str, Any]:
        """A user posts; `live=False` stores it without a gateway event (posted while the bot
        was away)."""
        message = self.message_json(channel_id, author, content)
        self.store(channel_id, message)
        if live:
            await self.dispatch("MESSAGE_CREATE", message)
        return message

    async def webhook_post(self, channel_id: str, name: str, content: str, *,
                           application_id: int | None, live: bool = True) -> dict[str, Any]:
        """A webhook posts under the display name `name` (a proxy app's when `application_id`
        is PluralKit's or Tupperbox's: Discord names the app that owns the webhook)."""
        webhook = str(self.snowflake())
        author = {"id": webhook, "username": name, "discriminator": "0000", "avatar": None,
                  "bot": True}
        extra: dict[str, Any] = {"webhook_id": webhook}
        if application_id is not None:
            extra["application_id"] = str(application_id)
        message = self.message_json(channel_id, author, content, **extra)
        self.store(channel_id, message)
        if live:
            await self.dispatch("MESSAGE_CREATE", message)
        return message

    async def edit(self, channel_id: str, message_id: str, content: str, *,
                   live: bool = True) -> dict[str, Any]:
        message = self.messages[channel_id][message_id]
        message.update(content=content, edited_timestamp=self.stamp())
        if live:
            await self.dispatch("MESSAGE_UPDATE", message)
        return message

    async def delete(self, channel_id: str, message_id: str, *, live: bool = True) -> None:
        message = self.messages[channel_id].pop(message_id)
        if live:
            await self.dispatch("MESSAGE_DELETE", {"id": message_id, "channel_id": channel_id,
                                                   **({"guild_id": message["guild_id"]}
                                                      if "guild_id" in message else {})})

    def dm_channel(self, user: dict[str, Any]) -> dict[str, Any]:
        for channel in self.channels.values():
            if channel["type"] == 1 and channel["recipients"][0]["id"] == user["id"]:
                return channel
        channel = {"id": str(self.snowflake()), "type": 1, "recipients": [user],
                   "last_message_id": None}
        self.channels[channel["id"]] = channel
        self.messages[channel["id"]] = {}
        return channel

    async def dm(self, user: dict[str, Any], content: str) -> dict[str, Any]:
        """A user writes to the bot in a DM."""
        channel = self.dm_channel(user)
        return await self.post(channel["id"], user, content)

    def attachment(self, name: str, data: bytes) -> dict[str, Any]:
        self.attachments[name] = data
        url = f"{self.base_url}/cdn/{name}"
        return {"id": str(self.snowflake()), "filename": name, "size": len(data), "url": url,
                "proxy_url": url, "content_type": "text/yaml"}

    async def command(self, user: dict[str, Any], channel_id: str, name: str,
                      options: list[dict[str, Any]] | None = None,
                      resolved: dict[str, Any] | None = None) -> dict[str, Any]:
        """A user runs a slash command (`name` may be "group sub" or "group subgroup sub");
        returns the interaction."""
        words = name.split()
        data: dict[str, Any] = {"id": str(self.snowflake()), "name": words[0], "type": 1}
        if len(words) == 3:  # a subcommand group's command: "game trait add"
            data["options"] = [{"type": 2, "name": words[1], "options": [
                {"type": 1, "name": words[2], "options": options or []}]}]
        elif len(words) == 2:
            data["options"] = [{"type": 1, "name": words[1], "options": options or []}]
        else:
            data["options"] = options or []
        if resolved:
            data["resolved"] = resolved
        return await self.interact(user, channel_id, 2, data)

    async def interact(self, user: dict[str, Any], channel_id: str, kind: int,
                       data: dict[str, Any], message: dict[str, Any] | None = None
                       ) -> dict[str, Any]:
        channel = self.channels[channel_id]
        interaction: dict[str, Any] = {
            "id": str(self.snowflake()), "application_id": self.app_id, "type": kind,
            "data": data, "token": f"itoken-{self.snowflake()}", "version": 1,
            "channel_id": channel_id, "channel": channel, "locale": "en-US",
            "app_permissions": "0", "attachment_size_limit": self.attachment_size_limit,
            "entitlements": [], "authorizing_integration_owners": {}, "context": 0}
        if channel.get("guild_id"):
            interaction["guild_id"] = channel["guild_id"]
            # a test may give a user a guild nickname with `user["nick"] = ...`
            interaction["member"] = {"user": user, "nick": user.get("nick"), "roles": [],
                                     "joined_at": _now(),
                                     "deaf": False, "mute": False, "flags": 0, "permissions": "2147483647"}
        else:
            interaction["user"] = user
            interaction["context"] = 1
        if message is not None:
            interaction["message"] = message
        self.interaction_responses[interaction["token"]] = []
        self._interactions[interaction["token"]] = interaction
        await self.dispatch("INTERACTION_CREATE", interaction)
        return interaction

    def responses(self, interaction: dict[str, Any]) -> list[dict[str, Any]]:
        """What the bot answered to an interaction: the callback, then the followups."""
        return self.interaction_responses[interaction["token"]]

    async def answered(self, interaction: dict[str, Any], count: int = 1, timeout: float = 10.0
                       ) -> list[dict[str, Any]]:
        await self.wait_for(lambda: len(self.responses(interaction)) >= count, timeout)
        return self.responses(interaction)

    # ---- REST ---------------------------------------------------------------------------------
    async def _cdn(self, request: web.Request) -> web.Response:
        return web.Response(body=self.attachments[request.match_info["name"]])

    async def _rest(self, request: web.Request) -> web.Response:
        body: Any = None
        if request.can_read_body:
            if request.content_type == "application/json":
                body = await request.json()
            elif request.content_type.startswith("multipart/"):
                body = await _multipart_json(request)
        path = "/" + request.match_info["path"]
        self.requests.append(Request(request.method, path, dict(request.query), body,
                                     dict(request.headers), request.match_info.get("via", "")))
        made = self.requests[-1]
        self.in_flight.append(made)
        try:
            if self.pace is not None:
                await self.pace.take()
            if request.headers.get("Authorization") not in (f"Bot {self.token}", None):
                return _json({"message": "401: Unauthorized", "code": 0}, 401)
            for failure in self.failures:
                if (failure.times > 0 and failure.method == request.method
                        and failure.path_part in path):
                    failure.times -= 1
                    return _json(failure.body, failure.status, failure.headers)
            refused = self._limits(request.method, path, body)
            if refused is not None:
                self.rejected.append((self.requests[-1], refused[1]))
                return _json(refused[1], refused[0])
            refused = self._discord_rules(request.method, path, body)
            if refused is not None:
                return refused
            response = await self._route(request.method, path, request.query, body)
            if any(method == request.method and part in path
                   and text in ((body or {}).get("content") or "")
                   for method, part, text in self.holds if isinstance(body, dict)):
                self.held.append(self.requests[-1])
                await self._notify()
                await self.release.wait()
            return response
        finally:
            self.in_flight.remove(made)
            await self._notify()

    def _limits(self, method: str, path: str, body: Any) -> tuple[int, dict[str, Any]] | None:
        """Discord's answer when `body` breaks one of its limits (None: within them); notes a
        new message that could ping someone the bot did not mean to."""
        parts = path.strip("/").split("/")
        if not isinstance(body, dict | list):
            return None
        files: dict[str, bytes] = body.get("_files", {}) if isinstance(body, dict) else {}
        if sum(map(len, files.values())) > self.attachment_size_limit:
            return 413, {"message": "Request entity too large", "code": 40005}
        if isinstance(body, dict) and (bad := file_field_errors(body)):
            return 400, {"message": "Invalid Form Body", "code": 50035,
                         "errors": {"files": {"_errors": [{"code": "BASE_TYPE_INVALID",
                                                           "message": m} for m in bad]}}}
        errors: dict[str, Any]
        message: dict[str, Any] | None = None  # the body of a new message
        match (method, parts):
            case ("PUT", ["applications", *_, "commands"]):
                errors = form_body.check_commands(body)  # type: ignore[arg-type]
            case ("POST", ["channels", _, "messages"]) | ("POST", ["webhooks", _, _]):
                message = body  # type: ignore[assignment]
                errors = form_body.check_message(body, create=True,  # type: ignore[arg-type]
                                                 files=len(files))
            case ("PATCH", ["channels", _, "messages", _]) | (
                    "PATCH", ["webhooks", _, _, "messages", _]):
                errors = form_body.check_message(body, create=False,  # type: ignore[arg-type]
                                                 files=len(files))
            case ("POST", ["interactions", _, _, "callback"]):
                errors = form_body.check_callback(body, len(files))  # type: ignore[arg-type]
                if body.get("type") == 4:  # type: ignore[union-attr]
                    message = body.get("data") or {}  # type: ignore[union-attr]
            case _:
                return None
        if errors:
            return 400, form_body.invalid_form_body(errors)
        if message is not None:
            if form_body.is_empty(message, len(files)):
                return 400, {"message": "Cannot send an empty message", "code": 50006}
            problem = form_body.mention_problem(message)
            if problem is not None:
                self.mention_problems.append((self.requests[-1], problem))
        return None

    async def _route(self, method: str, path: str, query: Any, body: Any) -> web.Response:
        parts = path.strip("/").split("/")
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return _json(self.bot_user)
            case ("GET", ["oauth2", "applications", "@me"]):
                owner = next(iter(self.users.values()), self.bot_user)
                return _json({"id": self.app_id, "name": "FAPPO Bot", "description": "",
                              "icon": None, "bot_public": False, "flags": 0,
                              "bot_require_code_grant": False, "owner": owner,
                              "verify_key": "0" * 64})
            case ("GET", ["gateway", "bot"]):
                return _json({"url": self.gateway_url, "shards": self.shard_count,
                              "session_start_limit": {
                    "total": 1000, "remaining": 1000, "reset_after": 0,
                    "max_concurrency": 1}})
            case ("GET", ["gateway"]):
                return _json({"url": self.gateway_url})
            case ("GET", ["users", user_id]):
                return _json(self.users.get(user_id) or user_json(int(user_id), "someone"))
            case ("POST", ["users", "@me", "channels"]):
                user = self.users[str(body["recipient_id"])]
                return _json(self.dm_channel(user))
            case ("GET", ["channels", channel_id]):
                return _json(self.channels[channel_id])
            case ("POST", ["channels", channel_id, "messages"]):
                response, created = self._create_message(channel_id, body or {})
                if created is not None:  # Discord sends every new message of a channel on
                    # the gateway, the bot's own too, before it answers the request
                    await self.dispatch("MESSAGE_CREATE", created)
                return response
            case ("GET", ["channels", channel_id, "messages"]):
                if self.history_gate is not None:
                    await self._notify()
                    await self.history_gate.wait()
                limit = int(query.get("limit", 50))
                if not 1 <= limit <= 100:
                    return _json(form_body.invalid_form_body({"limit": {"_errors": [{
                        "code": "NUMBER_TYPE_MAX",
                        "message": "int value should be less than or equal to 100."}]}}),
                        400)
                return _json(self._history(channel_id, query))
            case ("PATCH", ["channels", channel_id, "messages", message_id]):
                message = self.messages[channel_id].get(message_id)
                if message is None:
                    return _json({"message": "Unknown Message", "code": 10008}, 404)
                for key in ("content", "embeds"):
                    if key in body:
                        message[key] = body[key]
                message["edited_timestamp"] = self.stamp()
                return _json(message)
            case ("DELETE", ["channels", channel_id, "messages", message_id]):
                if self.messages[channel_id].pop(message_id, None) is None:
                    return _json({"message": "Unknown Message", "code": 10008}, 404)
                if message_id in self.pins.get(channel_id, []):  # a deleted message is unpinned
                    self.pins[channel_id].remove(message_id)
                return web.Response(status=204)
            case ("PUT", ["channels", channel_id, "pins", message_id]) | (
                    "PUT", ["channels", channel_id, "messages", "pins", message_id]):
                return self._pin(channel_id, message_id)
            case ("PUT", ["applications", _, "commands"]) | (
                    "PUT", ["applications", _, "guilds", _, "commands"]):
                self.commands = [{**c, "id": str(self.snowflake()), "application_id":
                                  self.app_id, "version": "1"} for c in body]
                return _json(self.commands)
            case ("POST", ["interactions", _, token, "callback"]):
                return self._callback(token, body)
            case ("POST", ["webhooks", _, token]):
                message = self.message_json("0", self.bot_user, body.get("content") or "",
                                            embeds=body.get("embeds") or [],
                                            flags=body.get("flags", 0),
                                            components=body.get("components") or [])
                self.interaction_responses[token].append({"followup": body,
                                                          "message": message})
                return _json(message)
            case ("PATCH", ["webhooks", _, token, "messages", "@original"]):
                self.interaction_responses[token].append({"edit": body})
                return _json(self._edit_original(token, body))
            case ("GET", ["webhooks", _, token, "messages", "@original"]):
                return _json(self.message_json("0", self.bot_user, ""))
        return _json({"message": f"404: Not Found ({method} {path})", "code": 0}, 404)

    def _pin(self, channel_id: str, message_id: str) -> web.Response:
        """Discord's pin (the old route and discord.py's): 204; 10008 for no such message,
        403 50013 without the permission to pin, 400 30003 when the channel has 50 pins."""
        if message_id not in self.messages.get(channel_id, {}):
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        if channel_id in self.no_pins:
            return _json({"message": "Missing Permissions", "code": 50013}, 403)
        pinned = self.pins.setdefault(channel_id, [])
        if message_id not in pinned:
            if len(pinned) >= MAX_PINS:
                return _json({"message": "Maximum number of pins reached (50)",
                              "code": 30003}, 400)
            pinned.append(message_id)
        return web.Response(status=204)

    def _create_message(self, channel_id: str, body: dict[str, Any]
                        ) -> tuple[web.Response, dict[str, Any] | None]:
        """The answer to the bot's new message, and the message when one was made (none when
        refused, or a duplicate Discord dropped)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            return _json({"message": "Unknown Channel", "code": 10003}, 404), None
        if channel["type"] == 1 and channel["recipients"][0]["id"] in self.closed_dms:
            return _json({"message": "Cannot send messages to this user", "code": 50007},
                         403), None
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            for existing in self.messages[channel_id].values():
                if existing.get("nonce") == nonce:
                    return _json(existing), None  # Discord drops the duplicate
        extra: dict[str, Any] = {"embeds": body.get("embeds") or []}
        if nonce is not None:
            extra["nonce"] = nonce
        if body.get("message_reference"):
            reference = {k: str(v) if k.endswith("_id") else v
                         for k, v in body["message_reference"].items()}
            extra.update(type=19, message_reference=reference)
        if body.get("components"):
            extra["components"] = body["components"]
        message = self.message_json(channel_id, self.bot_user, body.get("content") or "",
                                    **extra)
        message["allowed_mentions"] = body.get("allowed_mentions")
        self.store(channel_id, message)
        if "message_reference" in message:  # a reply comes with the message it answers, as
            # Discord sends it in the answer and the event (that one's own reply not nested)
            replied = self.messages[channel_id].get(message["message_reference"]["message_id"])
            message = {**message, "referenced_message": None if replied is None else {
                k: v for k, v in replied.items() if k != "referenced_message"}}
        return _json(message), message

    def _history(self, channel_id: str, query: Any) -> list[dict[str, Any]]:
        """Discord's order: newest first, whether read `before` or `after` a message."""
        found = sorted(self.messages.get(channel_id, {}).values(), key=lambda m: int(m["id"]))
        limit = int(query.get("limit", 50))
        if "after" in query:
            after = int(query["after"])
            return list(reversed([m for m in found if int(m["id"]) > after][:limit]))
        if "before" in query:
            before = int(query["before"])
            found = [m for m in found if int(m["id"]) < before]
        return list(reversed(found[-limit:]))

    def _callback(self, token: str, body: dict[str, Any]) -> web.Response:
        data = body.get("data") or {}
        message = self.message_json("0", self.bot_user, data.get("content") or "",
                                    embeds=data.get("embeds") or [], flags=data.get("flags", 0),
                                    components=data.get("components") or [])
        source = self._interactions[token].get("message")
        if body.get("type") in (6, 7) and source is not None:
            message["id"] = source["id"]  # an update edits the message of the component
        self.interaction_responses[token].append({"callback": body, "message": message})
        return _json({"interaction": {"id": str(self.snowflake()), "type": 2,
                                      "response_message_id": message["id"],
                                      "response_message_loading": body.get("type") == 5,
                                      "response_message_ephemeral": bool(
                                          data.get("flags", 0) & 64)},
                      "resource": {"type": body.get("type", 4), "message": message}})


def _long_custom_id(body: Any) -> str:
    """The first custom_id over Discord's 100 characters anywhere in a request body."""
    if isinstance(body, dict):
        found = body.get("custom_id")
        if isinstance(found, str) and len(found) > 100:
            return found
        return next((f for v in body.values() if (f := _long_custom_id(v))), "")
    if isinstance(body, list):
        return next((f for v in body if (f := _long_custom_id(v))), "")
    return ""


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # exactly `application/json`: discord.py reads any other content type as text
    response = web.Response(body=json.dumps(data).encode(), status=status,
                            headers=headers or {})
    response.headers["Content-Type"] = "application/json"
    return response


async def _multipart_json(request: web.Request) -> Any:
    reader = await request.multipart()
    payload: Any = None
    files: dict[str, bytes] = {}
    fields: list[str] = []
    async for part in reader:
        if part.name == "payload_json":  # type: ignore[union-attr]
            payload = json.loads(await part.text())  # type: ignore[union-attr]
        elif part.filename:  # type: ignore[union-attr]
            fields.append(part.name or "")  # type: ignore[union-attr]
            files[part.filename] = await part.read()  # type: ignore[union-attr]
    if files and isinstance(payload, dict):
        payload["_files"] = files  # the uploaded attachments, by file name, for the tests
        payload["_file_fields"] = fields
    return payload


def file_field_errors(body: dict[str, Any]) -> list[str]:
    """Discord's rule for an upload: each file is a multipart field `files[N]`, and when the
    JSON lists `attachments`, each N is the `id` of one of them (the real API refuses a file
    under another name, or one the attachments do not describe)."""
    fields = body.get("_file_fields") or []
    listed = {str(a.get("id")) for a in body.get("attachments") or [] if isinstance(a, dict)}
    errors = []
    for name in fields:
        found = FILE_FIELD.fullmatch(name)
        if found is None:
            errors.append(f"{name!r} is no files[N] field")
        elif listed and found.group(1) not in listed:
            errors.append(f"{name} is in no attachment of the JSON")
    return errors

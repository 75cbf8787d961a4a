"""Proxy posts: Tupperbox and PluralKit (docs/discord.md, "Proxy posts"; docs/rulings.md).

Where a game has `proxy_posts` on, a message those apps post through a webhook in the game's
room, under a display name that is one of the game's characters' names, is a post of that
character's player (the user who gives its orders now) speaking as that character: its edits and
deletion follow as a member's do. Webhooks of other apps, and names that are no character's, are
table talk. Which apps count is a setting (`discord.proxy_apps`, their application ids; Discord
puts the id on every message an app's webhook posts).

Such an app deletes the member's own message and posts it again through its webhook, within a
second or so. So that the original does not also count (and no reply flashes under it), a
member's message in a proxy game is held for a short grace (`discord.proxy_grace_seconds`)
before it is handled: deleted in the meantime, or reposted (a proxy post of the character of
its author whose text it holds), it is dropped; edited, it is handled as it reads last. The
grace's timer is injected (`Later`), so tests run it by hand.

Discord does not say who had a proxy app post a message. The held original tells it, when the
bot saw it: a proxy post whose original was someone else's does not count (one sentence says
so). When no original is known (caught up after downtime, or posted before the bot started),
the proxy post counts for the player of the character it names.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import discord

from fappo_bot.discord.errors import AdapterError
from fappo_bot.posting.safety import safe
from fappo_bot.service.clock import Clock, SystemClock
from fappo_bot.service.errors import NotFound

if TYPE_CHECKING:
    from fappo_bot.service.facade import Services
    from fappo_bot.service.views import CharacterView
    from fappo_bot.settings import DiscordSettings

log = logging.getLogger(__name__)

class Timer(Protocol):
    def cancel(self) -> None: ...


class Later(Protocol):
    """Runs `work` after `delay` seconds, unless the returned timer is cancelled first."""

    def __call__(self, delay: float, work: Callable[[], Coroutine[Any, Any, None]]) -> Timer: ...


def loop_later(delay: float, work: Callable[[], Coroutine[Any, Any, None]]) -> Timer:
    """`Later` on the running event loop."""
    loop = asyncio.get_running_loop()
    return loop.call_later(delay, lambda: _keep(loop.create_task(work())))


_running: set[asyncio.Task[None]] = set()


def _keep(task: asyncio.Task[None]) -> None:
    """Hold a reference until the task is done (the loop keeps only weak ones)."""
    _running.add(task)
    task.add_done_callback(_running.discard)


@dataclass(frozen=True)
class Original:
    """A member's post deleted while held: perhaps the original of a proxy post to come."""

    channel_id: int
    author: str
    text: str
    at: datetime


@dataclass(frozen=True)
class Poster:
    """Who a proxy post counts for: the player, and the character it speaks as."""

    user: str
    character: str


def speaker(name: str, characters: list[CharacterView]) -> CharacterView | None:
    """The character a proxy's display name names: the name itself (case and inner spaces
    aside), or the name followed by a space and a tag the app adds (PluralKit's system tag,
    pronouns: "Kael [Ash]", "Kael (he/him)"); the longest such name wins."""
    shown = " ".join(name.split()).casefold()
    best: tuple[int, CharacterView] | None = None
    for character in characters:
        own = " ".join(character.name.split()).casefold()
        if (shown == own or shown.startswith(own + " ")) and (best is None
                                                            or len(own) > best[0]):
            best = (len(own), character)
    return best[1] if best else None


#: the most characters a proxy app's tags add around the text it reposts
TAGS_MAX = 64


def reposts(text: str, original: str) -> bool:
    """Whether `text` (a proxy post's) is `original` with the app's tags taken off: all of its
    text but a few characters before and after."""
    original = original.strip()
    return text in original and len(original) - len(text) <= TAGS_MAX


class ProxyPosts:
    """The proxy posts of this process's game rooms: who a webhook post counts for, and the
    members' posts held for the grace."""

    def __init__(self, services: Services, settings: DiscordSettings,
                 later: Later | None = None, clock: Clock | None = None) -> None:
        self.services = services
        self.later = later or loop_later
        self.clock = clock or SystemClock()
        self.apps = frozenset(settings.proxy_apps)
        self.grace = settings.proxy_grace_seconds
        #: game id -> whether it takes proxy posts (a setting changed here forgets it)
        self._enabled: dict[str, bool] = {}
        #: (channel id, message id) -> (the held message, its timer)
        self._held: dict[tuple[int, int], tuple[discord.Message, Timer]] = {}
        #: the held posts deleted lately (their text and author, to know a proxy post's writer)
        self._dropped: deque[Original] = deque(maxlen=200)
        #: set at each change of the held posts (tests wait on it)
        self.changed = asyncio.Event()

    # ---- the game's setting -------------------------------------------------------------------
    async def enabled(self, game_id: str) -> bool:
        if game_id not in self._enabled:
            try:
                game = await self.services.games.show(game_id)
            except NotFound:
                return False
            self._enabled[game_id] = game.proxy_posts
        return self._enabled[game_id]

    def forget(self, game_id: str) -> None:
        """The game's settings changed: read them again at the next message."""
        self._enabled.pop(game_id, None)

    # ---- webhook posts ------------------------------------------------------------------------
    def is_proxy(self, message: discord.Message) -> bool:
        """A message a proxy app posted through a webhook."""
        return message.webhook_id is not None and message.application_id in self.apps

    async def poster(self, game_id: str, message: discord.Message, *, new: bool = True
                     ) -> Poster | None:
        """Who a webhook message counts for, or None (not a proxy app's, the game takes no
        proxy posts, or its name is no character's that a player runs: table talk).
        `AdapterError` when a `new` post's original is known to be someone else's
        (`reposted`)."""
        if not self.is_proxy(message) or not await self.enabled(game_id):
            return None
        characters = await self.services.characters.list(game_id)
        found = speaker(message.author.name, characters)
        if found is None or found.runner is None:
            return None
        if new and self.reposted(message, found.runner) is False:
            raise AdapterError(f"This proxy post does not count: {safe(found.name)} is not "
                               "the character of the one who wrote it.")
        return Poster(user=found.runner, character=found.name)

    def reposted(self, proxied: discord.Message, user: str) -> bool | None:
        """Find the original of a proxy post among the posts held, or dropped a moment ago, in
        its room: one whose text holds the proxy post's (the app takes its tags off, or posts
        it as it was). The originals found are dropped at once, without waiting for the app to
        delete them. True when one is `user`'s, False when they are all someone else's (a
        proxy post as another player's character), None when none is known (a proxy post
        caught up after downtime, say: it counts)."""
        text = proxied.content.strip()
        if not text:
            return None
        since = self.clock.now() - timedelta(seconds=max(10.0, 5 * self.grace))
        authors = {o.author for o in self._dropped
                   if o.channel_id == proxied.channel.id and o.at >= since
                   and reposts(text, o.text)}
        for key, (message, timer) in list(self._held.items()):
            if key[0] == proxied.channel.id and reposts(text, message.content):
                authors.add(str(message.author.id))
                del self._held[key]
                timer.cancel()
                self.changed.set()
        if not authors:
            return None
        return user in authors

    # ---- members' posts held for the grace ----------------------------------------------------
    async def hold(self, game_id: str, message: discord.Message,
                   handle: Callable[[discord.Message], Awaitable[None]]) -> bool:
        """In a proxy game, hold a member's post for the grace, then `handle` it as it reads
        then; False (not held) in any other game."""
        if not await self.enabled(game_id):
            return False
        key = (message.channel.id, message.id)

        async def release() -> None:
            held = self._held.pop(key, None)
            if held is not None:
                self.changed.set()
                await handle(held[0])

        self._held[key] = (message, self.later(self.grace, release))
        self.changed.set()
        return True

    def edited(self, message: discord.Message) -> bool:
        """A held post was edited: it is handled as it reads now, when the grace ends."""
        key = (message.channel.id, message.id)
        held = self._held.get(key)
        if held is None:
            return False
        self._held[key] = (message, held[1])
        self.changed.set()
        return True

    def deleted(self, channel_id: int, message_id: int) -> bool:
        """A held post was deleted (a proxy app reposted it): it is dropped, never handled."""
        held = self._held.pop((channel_id, message_id), None)
        if held is None:
            return False
        held[1].cancel()
        self._dropped.append(Original(channel_id, str(held[0].author.id), held[0].content,
                                      self.clock.now()))
        self.changed.set()
        return True

    def is_held(self, channel_id: int, message_id: int) -> bool:
        """Whether this post is held now (catching up leaves it to its grace)."""
        return (channel_id, message_id) in self._held

    def held(self) -> list[discord.Message]:
        """The posts held now, as they read."""
        return [message for message, _ in self._held.values()]

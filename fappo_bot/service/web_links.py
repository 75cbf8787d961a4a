"""The links to a game's campaign page (`fappo_bot/web/`): who may read it, by a secret token.

- The GM's link of a game (`link`): the page as the room sees it, for the GM to hand to anyone
  (a new player, a spectator). `rotate=True` replaces it: the old link is refused from then on.
- A player's own link (`player_link`): the same page, plus that player's own private results
  (F29 secret PvP, R2 `hide_all_allocations`). It works while the player is a member.

A token is `<link id>.<secret>`: the link is found by its id, and its secret compared in
constant time (`hmac.compare_digest`). The secret is kept as it was made, not hashed, so that the
GM can ask for the same link again: the database that keeps it keeps the secrets a link would
give away anyway (the sealed NPC orders, the secret orders), so a hash would protect nothing more.
Neither the token nor its secret is ever written into an audit entry, an error or a log line.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting.safety import safe
from fappo_bot.service.base import Deps, UseCases, require_gm, roles_of
from fappo_bot.service.errors import Forbidden, NotFound
from fappo_bot.service.records import Game, Role
from fappo_bot.service.transfer import find_game

SecretFactory = Callable[[], str]
"""Makes a link's secret (URL-safe text)."""


def token_secret() -> str:
    """24 random bytes from the operating system's CSPRNG, URL-safe (no dot)."""
    return secrets.token_urlsafe(24)


class WebLink(BaseModel):
    """One link: the GM's of a game (`user_id` None) or a player's own."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    game_id: str
    user_id: str | None
    secret: str
    created_at: datetime
    revoked_at: datetime | None = None

    @property
    def token(self) -> str:
        return f"{self.id}.{self.secret}"


class LinkStore(Protocol):
    """Where the links are kept (`storage/web_links.py`); each call its own transaction."""

    async def add(self, link: WebLink) -> None: ...
    async def get(self, link_id: str) -> WebLink | None: ...
    async def current(self, game_id: str, user_id: str | None) -> WebLink | None:
        """The link in use (not revoked) of the game's GMs (`user_id` None) or of a player."""
        ...
    async def revoke(self, game_id: str, user_id: str | None, at: datetime) -> None:
        """Revoke every link in use of the GMs (`user_id` None) or of that player."""
        ...


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a page: any holder of the game's link (`user_id` None), or one player."""

    game_id: str
    user_id: str | None


REFUSED = "This link does not open any campaign page: it was replaced, or it was never one."


class LinkService(UseCases):
    """The GM's link of a game, the players' own links, and reading a token back."""

    def __init__(self, deps: Deps, store: LinkStore, secret: SecretFactory = token_secret) -> None:
        super().__init__(deps)
        self.store = store
        self._secret = secret

    async def link(self, key: str, actor: str, *, rotate: bool = False) -> tuple[Game, str]:
        """The game's link token for its GMs to hand out (a GM's command); `rotate`: a new one,
        and the old one stops working."""
        async with self.uow() as uow:
            game = await find_game(uow, key)
            await require_gm(uow, game, actor)
        return game, await self._issue(game, None, rotate)

    async def player_link(self, key: str, actor: str) -> tuple[Game, str]:
        """A player's own link token to a game they play in (the same link each time)."""
        async with self.uow() as uow:
            game = await find_game(uow, key)
            if Role.PLAYER not in await roles_of(uow, game, actor):
                raise Forbidden(f'You do not play in "{safe(game.name)}": only its players get a '
                                "link of their own (its GMs hand out the game's link).")
        return game, await self._issue(game, actor, False)

    async def reader(self, token: str) -> Reader:
        """Who a token lets read, or `NotFound` (one sentence, the same for every refusal)."""
        link_id, dot, secret = token.rpartition(".")
        link = await self.store.get(link_id) if dot and link_id else None
        expected = link.secret if link is not None else "x" * len(secret or "x")
        if not hmac.compare_digest(expected.encode(), secret.encode()) or link is None \
                or link.revoked_at is not None:
            raise NotFound(REFUSED)
        if link.user_id is not None:
            async with self.uow() as uow:
                game = await uow.games.get(link.game_id)
                if game is None or Role.PLAYER not in await roles_of(uow, game, link.user_id):
                    raise NotFound(REFUSED)
        return Reader(link.game_id, link.user_id)

    async def _issue(self, game: Game, user_id: str | None, rotate: bool) -> str:
        if not rotate:
            current = await self.store.current(game.id, user_id)
            if current is not None:
                return current.token
        now = self.now()
        await self.store.revoke(game.id, user_id, now)
        link = WebLink(id=self.deps.ids(), game_id=game.id, user_id=user_id,
                       secret=self._secret(), created_at=now)
        await self.store.add(link)
        return link.token

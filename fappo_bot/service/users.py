"""Display names: how the service's sentences and views name a user.

Users are opaque ids (a Discord snowflake, a seat of the local table); a sentence that names one
by id says nothing to people and, written as a mention, would ping. So each adapter passes the
display name it last saw (a member's nick, a seat's label) and the service keeps one per user id;
views carry the names of the people they list (`names`) and sentences use them. A name is stored
as written (one line, at most `MAX_DISPLAY_NAME` characters): a view hands it on as data, and a
sentence writes it through `posting.safety.safe`, as every rendering writes a user's value.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import UserName
from fappo_bot.service.retry import retried

MAX_DISPLAY_NAME = 100
"""The longest display name kept (Discord's own stop at 32; a longer one is cut)."""


def clean_display_name(name: str) -> str:
    """One line, inner whitespace collapsed, cut at `MAX_DISPLAY_NAME`; refused when empty."""
    cleaned = " ".join(name.split())[:MAX_DISPLAY_NAME]
    if not cleaned:
        raise InvalidInput("A display name cannot be empty.")
    return cleaned


async def names_of(uow: UnitOfWork, user_ids: Collection[str]) -> dict[str, str]:
    """The display names known of these users (the others are left out)."""
    return dict(await uow.users.names(list(dict.fromkeys(user_ids)))) if user_ids else {}


async def name_of(uow: UnitOfWork, user_id: str, unknown: str = "That user") -> str:
    """How a sentence names one user: the display name, or `unknown` when none is known (never
    the bare id, which says nothing and could be written as a mention)."""
    return (await names_of(uow, [user_id])).get(user_id, unknown)


class UserService(UseCases):
    """The adapters keep the users' display names up to date."""

    @retried
    async def set_display_name(self, user_id: str, display_name: str) -> None:
        """The display name an adapter saw for a user (a nick change, a member joining)."""
        name = clean_display_name(display_name)
        async with self.uow() as uow:
            if (await names_of(uow, [user_id])).get(user_id) == name:
                return  # unchanged: no write
            await uow.users.set_name(UserName(user_id=user_id, display_name=name,
                                              updated_at=self.now()))
            await uow.commit()

    async def display_names(self, user_ids: Collection[str]) -> Mapping[str, str]:
        """The display names known of these users."""
        async with self.uow() as uow:
            return await names_of(uow, user_ids)

"""The campaign page's links (`service/web_links.py`) on every backend of the service tests:
the GM's link of a game (the same when asked again, a new one on `rotate`, the old one refused),
a player's own (refused to a GM who does not play, and once the player leaves), and every wrong
token refused with the same sentence."""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest

from fappo_bot.service.errors import Forbidden, NotFound
from fappo_bot.service.records import Role
from fappo_bot.service.web_links import REFUSED, LinkService, WebLink


class MemoryLinks:
    """A `LinkStore` in a dict."""

    def __init__(self) -> None:
        self.links: dict[str, WebLink] = {}

    async def add(self, link: WebLink) -> None:
        self.links[link.id] = link

    async def get(self, link_id: str) -> WebLink | None:
        return self.links.get(link_id)

    async def current(self, game_id: str, user_id: str | None) -> WebLink | None:
        found = [link for link in self.links.values() if link.game_id == game_id
                 and link.user_id == user_id and link.revoked_at is None]
        return found[-1] if found else None

    async def revoke(self, game_id: str, user_id: str | None, at: datetime) -> None:
        for key, link in list(self.links.items()):
            if link.game_id == game_id and link.user_id == user_id and link.revoked_at is None:
                self.links[key] = link.model_copy(update={"revoked_at": at})


@pytest.fixture
def links(services) -> LinkService:
    secrets = (f"secret{n}" for n in itertools.count(1))
    return LinkService(services.deps, MemoryLinks(), secret=lambda: next(secrets))


async def make_game(services) -> str:
    game = await services.games.create(channel_key="room", name="Goblin Road", creator="gm")
    await services.games.add_member(game.id, "gm", "alice", Role.PLAYER)
    return game.id


async def test_the_games_link_is_the_same_until_rotated(services, links) -> None:
    game_id = await make_game(services)
    _, first = await links.link(game_id, "gm")
    assert (await links.link(game_id, "gm"))[1] == first
    reader = await links.reader(first)
    assert (reader.game_id, reader.user_id) == (game_id, None)
    _, second = await links.link(game_id, "gm", rotate=True)
    assert second != first
    with pytest.raises(NotFound, match="does not open any campaign page"):
        await links.reader(first)
    assert (await links.reader(second)).game_id == game_id


async def test_only_a_gm_gets_the_games_link_and_only_a_player_their_own(services, links):
    game_id = await make_game(services)
    with pytest.raises(Forbidden, match="Only a GM"):
        await links.link(game_id, "alice")
    with pytest.raises(Forbidden, match="only its players get a link of their own"):
        await links.player_link(game_id, "gm")
    _, token = await links.player_link(game_id, "alice")
    assert (await links.reader(token)).user_id == "alice"
    assert (await links.player_link(game_id, "alice"))[1] == token


async def test_a_players_link_stops_when_they_leave_the_game(services, links) -> None:
    game_id = await make_game(services)
    _, token = await links.player_link(game_id, "alice")
    await services.games.remove_member(game_id, "gm", "alice", Role.PLAYER)
    with pytest.raises(NotFound):
        await links.reader(token)


@pytest.mark.parametrize("token", ["", ".", "nothing", "x.y", ".secret1", "1.", "1.secret2"])
async def test_a_wrong_token_is_refused_in_one_sentence(services, links, token) -> None:
    game_id = await make_game(services)
    await links.link(game_id, "gm")
    with pytest.raises(NotFound) as refused:
        await links.reader(token)
    assert str(refused.value) == REFUSED

"""`/game link` and `/me link` through the fake Discord: the GM's link privately (a new one with
`rotate`, the old one refused from then on), a player's own by DM, a link never in the room, and
one sentence where the campaign page is off, where the caller may not, or where DMs are closed."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.bot.table import run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e

LINK = re.compile(r"<http://pages\.test/c/([^/>]+)/>")


@dataclass(frozen=True)
class Site:
    links: object

    def url(self, token: str) -> str:
        return f"http://pages.test/c/{token}/"


def with_pages(running) -> object:
    from fappo_bot.service.web_links import LinkService

    links = LinkService(running.services.deps, running._storage_links)
    running.bot.web = Site(links)
    return links


@pytest.fixture
async def paged(running):
    """The running bot with the campaign page's links on (its own database's store)."""
    from fappo_bot.storage.engine import create_engine
    from fappo_bot.storage.web_links import SqlWebLinks

    engine = create_engine(running.settings)
    running._storage_links = SqlWebLinks(engine)
    links = with_pages(running)
    yield links
    await engine.dispose()


async def test_the_gm_gets_the_games_link_privately_and_rotates_it(running, fake, paged):
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.gm, "game link")
    assert answer["callback"]["data"]["flags"] & 64  # only the GM sees it
    first = LINK.search(text_of([answer])).group(1)
    assert (await paged.reader(first)).user_id is None
    [again] = await run_command(fake, fake.gm, "game link")
    assert LINK.search(text_of([again])).group(1) == first  # asked again: the same link
    [rotated] = await run_command(fake, fake.gm, "game link",
                                  [{"type": 5, "name": "rotate", "value": True}])
    assert "the old one no longer opens anything" in text_of([rotated])
    second = LINK.search(text_of([rotated])).group(1)
    assert second != first
    from fappo_bot.service.errors import NotFound

    with pytest.raises(NotFound):
        await paged.reader(first)
    assert (await paged.reader(second)).game_id
    room = fake.room["id"]
    assert not any("pages.test" in m["content"] for m in fake.bot_messages(room))


async def test_a_player_gets_their_own_link_by_dm(running, fake, paged):
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.alice, "me link")
    assert answer["callback"]["data"]["flags"] & 64
    assert "in your DMs" in text_of([answer])
    dm = fake.dm_channel(fake.alice)["id"]
    await fake.wait_for(lambda: fake.bot_messages(dm))
    token = LINK.search(fake.bot_messages(dm)[-1]["content"]).group(1)
    assert (await paged.reader(token)).user_id == fake.alice["id"]


async def test_a_player_cannot_have_the_games_link_nor_a_gm_a_players(running, fake, paged):
    await set_up_game(fake)
    refused = text_of(await run_command(fake, fake.alice, "game link"))
    assert "Only a GM" in refused and "pages.test" not in refused
    refused = text_of(await run_command(fake, fake.gm, "me link"))
    assert "only its players get a link of their own" in refused


async def test_closed_dms_are_one_sentence_and_no_link_leaks(running, fake, paged):
    await set_up_game(fake)
    fake.closed_dms.add(fake.alice["id"])
    answer = text_of(await run_command(fake, fake.alice, "me link"))
    assert "cannot DM you" in answer and "pages.test" not in answer


async def test_without_the_campaign_page_the_commands_say_how_to_turn_it_on(running, fake):
    await set_up_game(fake)
    assert "[web]" in text_of(await run_command(fake, fake.gm, "game link"))
    assert "[web]" in text_of(await run_command(fake, fake.alice, "me link"))

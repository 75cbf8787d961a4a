"""`/gm export` through the fake Discord: the GM gets the campaign as a Markdown and a JSON
file, privately, holding the posts but no secret of the open turn; a player is refused with the
service's own sentence."""

from __future__ import annotations

import json

import pytest

from tests.bot.table import KAEL_ORDERS, run_command, set_up_game, text_of
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def test_the_gm_exports_the_campaign_as_markdown_and_json(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))

    [answer] = await run_command(fake, fake.gm, "gm export")
    data = answer["callback"]["data"]
    assert data["flags"] & 64  # only the GM sees it
    files = answer["callback"]["_files"]  # the uploads, beside the payload
    assert sorted(files) == ["Goblin-Road.json", "Goblin-Road.md"]
    document = json.loads(files["Goblin-Road.json"])
    assert document["format"] == "fappo-bot/game"
    assert document["game"]["name"] == "Goblin Road"
    assert [p["post"]["author"] for p in document["posts"]] == [fake.alice["id"]]
    markdown = files["Goblin-Road.md"].decode()
    assert markdown.startswith("# Goblin Road\n")
    assert "## Turn 1 (open)" in markdown
    assert "> " + KAEL_ORDERS.splitlines()[0] in markdown
    assert "- Kael (pc" in markdown and "- Skarg (enemy" in markdown
    # the JSON is the service's own export: it imports back as a copy
    from fappo_bot.service.transfer import copied, loads

    copy = copied(loads(files["Goblin-Road.json"].decode()), lambda: str(fake.snowflake()),
                  "copy-room")
    game = await running.services.transfer.import_game(copy, fake.gm["id"])
    assert game.name == "Goblin Road" and game.channel_key == "copy-room"


async def test_a_player_cannot_export(running, fake) -> None:
    await set_up_game(fake)
    answer = await run_command(fake, fake.alice, "gm export")
    assert answer[0]["callback"]["data"]["flags"] & 64
    assert "_files" not in answer[0]["callback"]
    assert "GM" in text_of(answer)


async def test_an_export_over_discords_file_limit_is_one_sentence(running, fake) -> None:
    await set_up_game(fake)
    fake.attachment_size_limit = 2_000  # a server where the bot may attach little
    [answer] = await run_command(fake, fake.gm, "gm export")
    assert "_files" not in answer["callback"]
    assert "more than the 2 KB Discord lets the bot attach here" in text_of([answer])
    assert "fappo-bot export" in text_of([answer])

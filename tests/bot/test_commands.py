"""Slash commands through the fake Discord: a GM command asked by a player is refused with the
service's own sentence, privately; an unexpected failure is an apology with an id that is in the
log; autocomplete offers the room's characters; a sheet embed stays within Discord's limits."""

from __future__ import annotations

import logging
import re

import pytest

from tests.bot.table import run_command, set_up_game, text_of

pytestmark = pytest.mark.e2e


async def test_a_gm_command_asked_by_a_player_is_refused_by_the_service(running, fake) -> None:
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.alice, "gm undo")
    data = answer["callback"]["data"]
    assert data["flags"] & 64
    assert "GM" in data["content"]
    assert data["allowed_mentions"] == {"parse": []}


async def test_a_players_calltime_is_refused_before_its_deadline_is_read(running, fake) -> None:
    """A deadline in the past is the GM's mistake to hear about; a player hears only that
    GMs call time."""
    await set_up_game(fake)
    past = [{"type": 3, "name": "at", "value": "2020-01-01 00:00"}]
    player = text_of(await run_command(fake, fake.alice, "turn calltime", past))
    assert "Only a GM" in player and "deadline" not in player
    assert "must be in the future" in text_of(await run_command(fake, fake.gm, "turn calltime",
                                                                past))


async def test_help_in_a_fappo_room_has_no_xp_post_forms(running, fake) -> None:
    alone = text_of(await run_command(fake, fake.alice, "help"))  # no game here yet
    await set_up_game(fake)
    helped = text_of(await run_command(fake, fake.alice, "help"))
    assert helped == alone and "/turn open" in helped and "/reveal turn:N" in helped
    assert "Xp posts" not in helped


async def test_an_unexpected_failure_is_an_apology_with_an_id(running, fake, caplog) -> None:
    await set_up_game(fake)

    async def broken(game_id, viewer):
        raise RuntimeError("the database caught fire")

    running.services.turns.status_board = broken
    with caplog.at_level(logging.ERROR, logger="fappo_bot.discord.errors"):
        [answer] = await run_command(fake, fake.alice, "turn status")
    text = answer["callback"]["data"]["content"]
    ref = re.search(r"error ([0-9a-f]{8})", text)
    assert ref and "fire" not in text
    assert any(ref.group(1) in r.getMessage() and r.exc_info for r in caplog.records)


async def test_autocomplete_offers_the_rooms_characters(running, fake) -> None:
    await set_up_game(fake)
    data = {"id": "1", "name": "char", "type": 1, "options": [
        {"type": 1, "name": "sheet", "options": [
            {"type": 3, "name": "name", "value": "ka", "focused": True}]}]}
    interaction = await fake.interact(fake.gm, fake.room["id"], 4, data)
    [answer] = await fake.answered(interaction)
    assert answer["callback"]["type"] == 8
    # names starting with what was typed first, then names containing it
    assert [c["value"] for c in answer["callback"]["data"]["choices"]] == ["Kael", "Skarg"]
    # an enemy's sheet is the GMs' secret: a player is offered the player characters
    interaction = await fake.interact(fake.alice, fake.room["id"], 4, data)
    [answer] = await fake.answered(interaction)
    assert [c["value"] for c in answer["callback"]["data"]["choices"]] == ["Kael"]


async def test_a_sheet_embed(running, fake) -> None:
    await set_up_game(fake)
    [answer] = await run_command(fake, fake.alice, "char sheet",
                                 [{"type": 3, "name": "name", "value": "Kael"}])
    [embed] = answer["callback"]["data"]["embeds"]
    assert embed["title"] == "Kael"
    names = [f["name"] for f in embed["fields"]]
    assert names[:4] == ["Health", "SP", "AP", "Statuses"]
    size = len(embed["title"]) + len(embed.get("description", "")) + sum(
        len(f["name"]) + len(f["value"]) for f in embed["fields"])
    assert size <= 6000 and len(embed["fields"]) <= 25
    # an enemy's sheet is for the GMs only
    [refused] = await run_command(fake, fake.alice, "char sheet",
                                  [{"type": 3, "name": "name", "value": "Skarg"}])
    assert "GMs only" in refused["callback"]["data"]["content"]


async def test_a_character_from_a_sheet_typed_in_a_modal(running, fake) -> None:
    from tests.bot.table import EXAMPLES, submit_modal, text_of

    await set_up_game(fake)
    bob = fake.bob
    text_of(await run_command(fake, fake.gm, "game player",
                              [{"type": 6, "name": "user", "value": bob["id"]}],
                              {"users": {bob["id"]: bob}}))
    [opened] = await run_command(fake, bob, "char new")
    modal = opened["callback"]["data"]
    bad = text_of(await submit_modal(fake, bob, modal, "name: [unclosed"))
    assert "not valid YAML" in bad
    [made] = await submit_modal(fake, bob, modal, (EXAMPLES / "mira.yaml").read_text())
    assert "Mira" in made["callback"]["data"]["content"]
    assert "joins the game" in made["callback"]["data"]["content"]

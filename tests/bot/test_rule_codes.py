"""A refusal's rule codes on Discord: a GM of the room's game reads them ("(F1, F3)"), a player
reads the same sentence without them, as at the table (the words say the rule)."""

from __future__ import annotations

import pytest

from fappo_bot.service.errors import Conflict
from tests.bot.table import KAEL_ORDERS, run_command, set_up_game, text_of
from tests.bot.test_advance import advance, end_adventure
from tests.bot.test_posts import replies_to

pytestmark = pytest.mark.e2e


async def test_a_refusal_keeps_its_rule_codes_for_a_gm_and_drops_them_for_a_player(
        running, fake) -> None:
    await set_up_game(fake)
    await end_adventure(fake, 1)
    [gm] = await advance(fake, fake.gm, "Kael", "Swordfighting +1")
    [player] = await advance(fake, fake.alice, "Kael", "Swordfighting +1")
    for answer in (gm, player):
        assert answer["callback"]["data"]["flags"] & 64
    assert text_of([gm]) == "Kael: Swordfighting would be 6; the cap is 5 (F1, F3)."
    assert text_of([player]) == "Kael: Swordfighting would be 6; the cap is 5."


async def test_a_gm_of_another_game_reads_what_a_player_reads_in_this_ones_room(
        running, fake) -> None:
    await set_up_game(fake)
    await end_adventure(fake, 1)
    other = fake.add_channel("alices-table")["id"]
    created = await run_command(fake, fake.alice, "game create",
                                [{"type": 3, "name": "name", "value": "Alice's Road"}],
                                channel=other)
    assert "Alice's Road" in text_of(created)
    [player] = await advance(fake, fake.alice, "Kael", "Swordfighting +1")
    assert text_of([player]) == "Kael: Swordfighting would be 6; the cap is 5."


async def test_a_refused_turn_post_keeps_its_rule_codes_for_a_gm_only(
        running, fake, monkeypatch) -> None:
    """The reply to a turn post the service refuses follows the rule of every other refusal:
    the GM who posted reads the codes, a player the words alone."""
    await set_up_game(fake)

    async def refused(*_: object, **__: object) -> None:
        raise Conflict("The NPC orders of turn 1 are sealed (F29); these orders wait (F30, F3).")

    monkeypatch.setattr(running.services.turns, "post", refused)
    room = fake.room["id"]
    gm_post = await fake.post(room, fake.gm, KAEL_ORDERS)
    [gm] = await fake.wait_for(lambda: replies_to(fake, gm_post))
    player_post = await fake.post(room, fake.alice, KAEL_ORDERS)
    [player] = await fake.wait_for(lambda: replies_to(fake, player_post))
    assert gm["content"] == ("The NPC orders of turn 1 are sealed (F29); these orders wait "
                             "(F30, F3).")
    assert player["content"] == "The NPC orders of turn 1 are sealed; these orders wait."

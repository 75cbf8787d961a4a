"""Display names: adapters keep one per user id; views and sentences name people by it, never
by a bare id, and never with a live mention."""

from __future__ import annotations

import pytest

from fappo_bot.service import Conflict, InvalidInput
from fappo_bot.service.records import Role
from fappo_bot.service.users import MAX_DISPLAY_NAME
from tests.service.conftest import ALICE, BOB, EVE, GM


async def test_views_carry_the_display_names_adapters_gave(services, table):
    game = table["game"]
    await services.users.set_display_name(ALICE, "  Alice   the\nBold ")
    await services.users.set_display_name(GM, "Game Master")
    view = await services.games.show(game)
    assert view.names == {ALICE: "Alice the Bold", GM: "Game Master"}
    status = await services.turns.status(game)
    assert status.names == {ALICE: "Alice the Bold"}
    await services.users.set_display_name(ALICE, "Alice")  # a nick change replaces it
    assert await services.users.display_names([ALICE, BOB]) == {ALICE: "Alice"}


async def test_a_sentence_names_a_user_by_display_name_or_not_at_all(services, table):
    game = table["game"]
    with pytest.raises(Conflict, match="^That user is not in this game"):
        await services.characters.transfer(game, GM, "Kael", EVE)
    await services.users.set_display_name(EVE, "Eve <@&123> @everyone")
    with pytest.raises(Conflict) as refused:
        await services.characters.transfer(game, GM, "Kael", EVE)
    text = str(refused.value)
    assert text.startswith("Eve") and "@everyone" not in text and "<@&123>" not in text
    await services.games.add_member(game, GM, EVE, Role.PLAYER)
    assert (await services.characters.transfer(game, GM, "Kael", EVE)).owner == EVE
    # a view carries the name as data, as written: each adapter renders it through `safe`
    assert (await services.games.show(game)).names[EVE] == "Eve <@&123> @everyone"


async def test_a_display_name_is_one_bounded_line(services, uow_factory):
    with pytest.raises(InvalidInput, match="cannot be empty"):
        await services.users.set_display_name(ALICE, " \n ")
    await services.users.set_display_name(ALICE, "x" * 500)
    assert (await services.users.display_names([ALICE]))[ALICE] == "x" * MAX_DISPLAY_NAME

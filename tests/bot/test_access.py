"""Who may act on the bot's buttons, selects and forms, and what autocomplete offers: through
the real discord.py client against the fake Discord, where (as on Discord) anyone can send an
interaction with any custom_id. A refusal is one private sentence within Discord's 3 s (the
fixture fails a test that leaves an interaction unanswered: "This interaction failed"), and
changes nothing."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import discord
import pytest

import fappo_bot.discord
from fappo_bot.discord.access import GuardedModal, GuardedView
from tests.bot.table import (
    components,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
    use_component,
)
from tests.bot.test_autocomplete import complete
from tests.bot.test_settings import user_option

pytestmark = pytest.mark.e2e

STEALTH = "Kael creeps around.\n2 AP Stealth: slip behind Skarg unseen\n1 AP defend"


def game_id(running, fake) -> str:
    return running.bot.rooms._known[fake.room["id"]]


async def npc_orders(fake, gm, text: str = "**Skarg**\n3 AP defend") -> None:
    [opened] = await run_command(fake, gm, "gm npc")
    assert "Skarg" in text_of(await submit_modal(fake, gm, opened["callback"]["data"], text))


async def review_panel(fake, gm) -> dict[str, Any]:
    """The GM's review panel (deferred, then followed up): its message."""
    [_, panel] = await run_command(fake, gm, "gm resolve", responses=2)
    assert "Review of turn" in panel["followup"]["content"], panel
    return panel["message"]


def button(message: dict[str, Any], label: str) -> dict[str, Any]:
    found = {c.get("label"): c for c in components(message)}
    assert label in found, list(found)
    return found[label]


def private(responses: list[dict[str, Any]]) -> str:
    """The text of an answer that must be ephemeral (flag 64)."""
    [answer] = responses
    assert answer["callback"]["type"] == 4
    assert answer["callback"]["data"]["flags"] & 64
    return answer["callback"]["data"]["content"]


async def ruling_form(running, fake) -> tuple[dict[str, Any], dict[str, Any]]:
    """A turn whose review asks a free answer; the GM opened its form: (panel, form)."""
    await set_up_game(fake)
    await npc_orders(fake, fake.gm)
    await fake.post(fake.room["id"], fake.alice, STEALTH)
    await fake.wait_for(lambda: any("Kael" in m["content"]
                                    for m in fake.bot_messages(fake.room["id"])))
    message = await review_panel(fake, fake.gm)
    [opened] = await use_component(fake, fake.gm, message, button(message, "Answer"))
    assert opened["callback"]["type"] == 9
    form = opened["callback"]["data"]
    assert form["custom_id"].startswith("fappo:review:") and form["custom_id"].endswith(":ruling")
    return message, form


# ---- components and forms ------------------------------------------------------------------
async def test_a_player_submitting_the_gms_ruling_form_is_refused_and_nothing_recorded(
        running, fake) -> None:
    fake.ack_seconds = 3.0
    message, form = await ruling_form(running, fake)
    before = await running.services.review.review(game_id(running, fake), fake.gm["id"])
    refused = private(await submit_modal(fake, fake.alice, form, "1", message=message))
    assert refused.startswith("This review was opened for someone else")
    assert "Review of turn" not in refused  # no next question, no one's orders
    after = await running.services.review.review(game_id(running, fake), fake.gm["id"])
    assert after.items == before.items and after.missing == before.missing
    # the GM's own form still works afterwards
    answered = await submit_modal(fake, fake.gm, form, "1", message=message, responses=2)
    assert answered[0]["callback"]["type"] == 6
    now = await running.services.review.review(game_id(running, fake), fake.gm["id"])
    assert len(now.missing) < len(before.missing) or sum(i.answered for i in now.items) > sum(
        i.answered for i in before.items)
    assert fake.refusals == []


async def test_a_player_pressing_the_gms_button_gets_a_private_refusal(running, fake) -> None:
    fake.ack_seconds = 3.0
    await set_up_game(fake)
    await npc_orders(fake, fake.gm)
    message = await review_panel(fake, fake.gm)
    for component in components(message):
        if component["type"] == 2:
            values = None
        elif component["type"] == 3:
            values = [component["options"][0]["value"]]
        else:
            continue
        refused = private(await use_component(fake, fake.alice, message, component, values))
        assert "opened for someone else" in refused
    assert fake.acked and max(fake.acked.values()) < 3.0
    status = await running.services.turns.status(game_id(running, fake))
    assert status.turn.status.value == "open"  # the Resolve button resolved nothing


async def test_a_gm_removed_since_the_panel_opened_is_refused(running, fake) -> None:
    await set_up_game(fake)
    await npc_orders(fake, fake.gm)
    options, resolved = user_option(fake.bob)
    text_of(await run_command(fake, fake.gm, "game gm", options, resolved))
    message = await review_panel(fake, fake.bob)
    text_of(await run_command(fake, fake.gm, "game remove",
                              [*options, {"type": 3, "name": "role", "value": "gm"}], resolved))
    refused = private(await use_component(fake, fake.bob, message,
                                          button(message, "Resolve the turn")))
    assert refused == 'Only a GM of "Goblin Road" can do that.'
    status = await running.services.turns.status(game_id(running, fake))
    assert status.turn.status.value == "open"


async def test_a_player_submitting_the_gms_npc_form_is_refused(running, fake) -> None:
    await set_up_game(fake)
    [opened] = await run_command(fake, fake.gm, "gm npc")
    form = opened["callback"]["data"]
    refused = private(await submit_modal(fake, fake.alice, form, "**Skarg**\n3 AP defend"))
    assert "opened for someone else" in refused
    status = await running.services.turns.status(game_id(running, fake))
    assert not status.npc_sealed and status.npcs_without_orders == ("Skarg",)


@pytest.mark.parametrize("command", ["turn orders", "char new"])
async def test_a_players_own_form_is_theirs_alone(running, fake, command) -> None:
    await set_up_game(fake)
    [opened] = await run_command(fake, fake.alice, command)
    refused = private(await submit_modal(fake, fake.bob, opened["callback"]["data"],
                                         "3 AP defend"))
    assert "opened for someone else" in refused


def test_every_view_and_modal_of_the_bot_is_guarded() -> None:
    """One check for all: no view or modal of the adapter answers without `access.py`'s."""
    for found in pkgutil.walk_packages(fappo_bot.discord.__path__, "fappo_bot.discord."):
        importlib.import_module(found.name)
    seen = []
    for module in [m for name, m in list(__import__("sys").modules.items())
                   if name.startswith("fappo_bot.discord")]:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or cls in (GuardedView, GuardedModal):
                continue
            if issubclass(cls, discord.ui.Modal):
                assert issubclass(cls, GuardedModal), cls
                seen.append(cls.__name__)
            elif issubclass(cls, discord.ui.View):
                assert issubclass(cls, GuardedView), cls
                seen.append(cls.__name__)
    assert {"ReviewPanel", "AnswerModal", "OrdersModal", "SheetModal", "GamePicker",
            "SealQuestion"} <= set(seen)


# ---- autocomplete ----------------------------------------------------------------------------
async def test_autocomplete_offers_a_player_nothing_of_gm_only_commands(running, fake) -> None:
    await set_up_game(fake)
    game = [{"type": 3, "name": "game", "value": "", "focused": True}]
    assert [c["name"] for c in await complete(fake, fake.gm, "gm", "export", game)] == [
        "Goblin Road"]
    assert await complete(fake, fake.alice, "gm", "export", game) == []
    name = [{"type": 3, "name": "name", "value": "", "focused": True},
            {"type": 3, "name": "action", "value": "retire"}]
    assert await complete(fake, fake.alice, "char", "manage", name) == []
    assert [c["value"] for c in await complete(fake, fake.gm, "char", "manage", name)] == [
        "Kael", "Skarg"]
    setting = [{"type": 3, "name": "name", "value": "", "focused": True},
               {"type": 3, "name": "value", "value": ""}]
    assert await complete(fake, fake.alice, "game", "set", setting) == []
    assert await complete(fake, fake.gm, "game", "set", setting) != []
    value = [{"type": 3, "name": "name", "value": "auto_open_next"},
             {"type": 3, "name": "value", "value": "", "focused": True}]
    assert await complete(fake, fake.alice, "game", "set", value) == []
    # an enemy's sheet is the GMs' secret; a player passes only for their own characters
    sheet = [{"type": 3, "name": "name", "value": "", "focused": True}]
    assert [c["value"] for c in await complete(fake, fake.alice, "char", "sheet", sheet)] == [
        "Kael"]
    passing = [{"type": 3, "name": "character", "value": "", "focused": True}]
    assert [c["value"] for c in await complete(fake, fake.alice, "turn", "pass", passing)] == [
        "Kael"]
    assert [c["value"] for c in await complete(fake, fake.gm, "turn", "pass", passing)] == [
        "Skarg"]

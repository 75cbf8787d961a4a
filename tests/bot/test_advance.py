"""F28 on Discord: `/char advance` spends banked CC, a player's change waits for a GM's button
(which outlives a restart, and which only a GM may answer: anyone in the room can press a
button of a room message, as on Discord); `/game ledger` shows the tournament points."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.table import components, run_command, set_up_game, text_of, use_component

pytestmark = pytest.mark.e2e


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"type": kind, "name": name, "value": value}


async def advance(fake, user, character: str, change: str) -> list[dict[str, Any]]:
    return await run_command(fake, user, "char advance",
                             [opt("character", character), opt("change", change)])


async def banked(running, fake) -> int:
    game_id = await running.bot.rooms.game_id(fake.room["id"])
    view = await running.services.characters.show(game_id, "Kael", fake.gm["id"])
    return view.shown.unspent_cc


def button(message: dict[str, Any], label: str) -> dict[str, Any]:
    found = {c.get("label"): c for c in components(message)}
    assert label in found, list(found)
    return found[label]


async def end_adventure(fake, award: int) -> None:
    ended = text_of(await run_command(fake, fake.gm, "gm endadventure", [opt("award", award, 4)]))
    assert f"earns {award} CC" in ended


async def test_f28_a_players_change_is_approved_by_the_gms_button_even_after_a_restart(
        running, fake) -> None:
    await set_up_game(fake)
    await end_adventure(fake, 2)
    [asked] = await advance(fake, fake.alice, "Kael", "Stealth +1")
    data = asked["callback"]["data"]
    assert not data.get("flags", 0) & 64  # in the room, for the GMs to see
    assert "asks to spend CC for **Kael**: Stealth +1 (1 CC of 2 banked)" in data["content"]
    assert data["allowed_mentions"]["parse"] == []  # the player is named, not pinged
    message = asked["message"]
    assert [c["custom_id"].rsplit(":", 1)[1] for c in components(message)] == [
        "approve", "refuse"]
    # a player's press: refused privately, nothing spent
    [refused] = await use_component(fake, fake.alice, message, button(message, "Approve"))
    assert refused["callback"]["data"]["flags"] & 64
    assert "GM" in refused["callback"]["data"]["content"]
    assert await banked(running, fake) == 2
    # the button outlives a restart of the bot
    await running.stop()
    await running.start()
    [approved] = await use_component(fake, fake.gm, message, button(message, "Approve"))
    assert approved["callback"]["type"] == 7  # the request's message, edited
    edited = approved["callback"]["data"]
    assert "**Kael**: Stealth +1 for 1 CC (approved by" in edited["content"]
    assert "1 CC banked" in edited["content"] and edited["components"] == []
    assert await banked(running, fake) == 1
    # pressed again (a stale copy of the message): said privately, nothing spent twice
    [again] = await use_component(fake, fake.gm, message, button(message, "Approve"))
    assert "approved or refused already" in again["callback"]["data"]["content"]
    assert await banked(running, fake) == 1


async def test_f28_a_gms_change_is_made_at_once_and_a_refusal_spends_nothing(
        running, fake) -> None:
    await set_up_game(fake)
    await end_adventure(fake, 3)
    made = text_of(await advance(fake, fake.gm, "Kael", "Searching +2"))
    assert "**Kael**: Searching +2 for 2 CC; 1 CC banked." in made
    [asked] = await advance(fake, fake.alice, "Kael", "Stealth +1")
    [refused] = await use_component(fake, fake.gm, asked["message"],
                                    button(asked["message"], "Refuse"))
    assert "was refused by" in refused["callback"]["data"]["content"]
    assert await banked(running, fake) == 1


@pytest.mark.parametrize(("change", "said"), [
    ("package Elf", "at the time of character creation"),
    ("trait Brawny", "costs 5 CC but Kael has 1 banked"),
    ("more swords", "is no change; write `Swordfighting +1`"),
    ("Swordfighting +1", "the cap is 5"),
])
async def test_a_change_the_rules_refuse_is_said_privately(running, fake, change, said) -> None:
    await set_up_game(fake)
    await end_adventure(fake, 1)
    [answer] = await advance(fake, fake.alice, "Kael", change)
    assert answer["callback"]["data"]["flags"] & 64
    assert said in answer["callback"]["data"]["content"]
    assert await banked(running, fake) == 1


async def test_f28_the_ledger_shows_a_players_tournament_points(running, fake) -> None:
    await set_up_game(fake)
    await run_command(fake, fake.gm, "game set", [opt("name", "tournament"), opt("value", "on")])
    before = text_of(await run_command(fake, fake.alice, "game ledger"))
    assert "no tournament CC yet" in before
    await end_adventure(fake, 0)
    [shown] = await run_command(fake, fake.gm, "game ledger", [opt("player", fake.alice["id"], 6)],
                                {"users": {fake.alice["id"]: fake.alice}})
    assert shown["callback"]["data"]["flags"] & 64
    assert "**1** tournament CC" in shown["callback"]["data"]["content"]
    assert "+1 CC: adventure 1 completed" in shown["callback"]["data"]["content"]


async def test_f28_a_games_own_trait_is_bought_with_cc_under_an_alternate_name(
        running, fake) -> None:
    """F2: a game's own Trait follows "the same general pattern" [F:L40]: 5 CC for 3 SP."""
    await set_up_game(fake)
    await run_command(fake, fake.gm, "game trait add",
                      [opt("name", "Keen-eyed"), opt("aliases", "Sharp")])
    await end_adventure(fake, 3)
    await end_adventure(fake, 3)
    [typo] = await advance(fake, fake.alice, "Kael", "trait Keen-eyd")
    assert typo["callback"]["data"]["flags"] & 64
    assert "Did you mean Keen-eyed?" in typo["callback"]["data"]["content"]
    [asked] = await advance(fake, fake.alice, "Kael", "trait Sharp")
    assert "asks to spend CC for **Kael**: trait Sharp (5 CC of 6 banked)" in (
        asked["callback"]["data"]["content"])
    [approved] = await use_component(fake, fake.gm, asked["message"],
                                     button(asked["message"], "Approve"))
    assert "1 CC banked" in approved["callback"]["data"]["content"]
    game_id = await running.bot.rooms.game_id(fake.room["id"])
    view = await running.services.characters.show(game_id, "Kael", fake.gm["id"])
    assert {p.name: p.maximum for p in view.shown.pools}["Keen-eyed"] == 3

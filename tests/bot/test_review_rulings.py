"""The GM's rulings on Discord: `/gm endcombat` (F18.2) and the review's turn-wide and per-action
questions (the end of combat when someone bleeds, a mind spell's mood difficulty, the
Dismemberment part, a player's good case for concentration, F8), through the fake Discord and
the real client; the assertions are on the JSON the bot sent."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fappo_bot.rules.character import Status, StatusKind
from tests.bot.table import (
    add_sheet,
    call_time,
    components,
    review_panel,
    run_command,
    set_up_game,
    submit_modal,
    text_of,
    use_component,
)
from tests.bot.test_posts import replies_to
from tests.service.helpers import stored_game

pytestmark = pytest.mark.e2e


async def bleed(running: Any, game_name: str, name: str, *, bleeding: bool = True) -> None:
    """Kael is Battered and bleeds (or only Battered), as after a blow of an earlier fight."""
    async with running.services.review.uow() as uow:
        game = next(g for g in await uow.games.list() if g.name == game_name)
        record = await uow.characters.by_name(game.id, name)
        await uow.characters.update(record.model_copy(update={
            "state": replace(record.state, health=2, statuses=(
                Status(kind=StatusKind.BLEEDING, source="Skarg"),) if bleeding else ()),
            "version": record.version + 1}))
        await uow.commit()


def panel_text(message: dict[str, Any]) -> str:
    return str(message.get("content") or "")


async def answer_all(fake: Any, message: dict[str, Any], typed: dict[str, str]) -> list[str]:
    """Go through the review panel: a question whose words contain a key of `typed` is answered
    with its value (typed in the modal, or picked in the select), every other one keeps its
    default; then resolve. The questions shown, in order."""
    gm = fake.gm
    seen: list[str] = []
    for _ in range(20):
        seen.append(panel_text(message))
        found = {c.get("label") or c.get("placeholder"): c for c in components(message)}
        wanted = next((v for k, v in typed.items() if k in panel_text(message)), None)
        if wanted is None and "Keep the default" not in found and "Resolve the turn" in found:
            await use_component(fake, gm, message, found["Resolve the turn"])
            return seen
        if wanted is not None and "Answer" in found:
            [asked] = await use_component(fake, gm, message, found["Answer"])
            answered = await submit_modal(fake, gm, asked["callback"]["data"], wanted,
                                          message=message, responses=2)
        elif wanted is not None:
            select = next(c for c in components(message) if c["type"] == 3)
            value = next(o["value"] for o in select["options"] if o["label"] == wanted)
            answered = await use_component(fake, gm, message, select, [value], responses=2)
        else:
            answered = await use_component(fake, gm, message, found["Keep the default"])
        last = answered[-1]
        message = {**message, **(last.get("edit") or last["callback"]["data"])}
    raise AssertionError("the review never offered to resolve")


async def test_gm_endcombat_ends_the_combat_and_the_review_asks_it_when_someone_bleeds(
    running, fake
) -> None:
    """F18.2: a bleeding victim "will drop to Incapacitated at the end of combat"."""
    room = fake.room["id"]
    await set_up_game(fake)
    await bleed(running, "Goblin Road", "Kael")
    refused = text_of(await run_command(fake, fake.alice, "gm endcombat"))
    assert "GM" in refused and "combat ends" not in refused
    said = text_of(await run_command(fake, fake.gm, "gm endcombat"))
    assert "The combat ends with this turn's resolution" in said
    await fake.post(room, fake.alice, "3 AP defend")
    await call_time(fake)
    panel = await review_panel(fake)
    seen = await answer_all(fake, panel["message"], {})
    assert any("does the combat end with this turn (Kael bleeding" in s
               and "default: yes: the GM ended it" in s for s in seen), seen
    await fake.wait_for(lambda: any("Kael: Incapacitated" in m["content"]
                                    for m in fake.bot_messages(room)), timeout=15)
    # the game is out of combat now: the GM is told, and the next turn asks no more
    assert any("The combat is over: the game is out of combat until a GM sets `in_combat` on "
               "again with /game set." in str((r.body or {}).get("content"))
               for r in fake.requests if r.method == "PATCH")
    game_id = await running.bot.rooms.game_id(room)
    game = await running.services.games.show(game_id)
    assert (await stored_game(running.services, game.id)).settings.in_combat is False
    await bleed(running, "Goblin Road", "Kael")  # a new wound, out of combat
    review = await running.services.review.review(game_id, str(fake.gm["id"]))
    assert not [i for i in review.items if i.field == "end_combat"]
    set_on = [{"type": 3, "name": "name", "value": "in_combat"},
              {"type": 3, "name": "value", "value": "on"}]
    assert text_of(await run_command(fake, fake.gm, "game set", set_on)) == \
        "`in_combat` is now on."
    review = await running.services.review.review(game_id, str(fake.gm["id"]))
    assert [i.field for i in review.items if i.field == "end_combat"] == ["end_combat"]


DUELIST = """name: Duelist
tier: veteran
traits: {Uncanny: 5, Nimble: 5}
skills: {Swordfighting: 5, Spellcasting: 5}
weapons: [Lightsword]
spells: [{name: Flee, effects: {mind_insert: true}}]
position: 0
"""


async def test_the_review_panel_asks_a_mind_spells_mood_and_a_dismemberments_part(
    running, fake, tmp_path
) -> None:
    """F25: the attack stage of mind magic is against the GM's mood difficulty; F18.8: the GM
    names the part, and an item named is destroyed."""
    room = fake.room["id"]
    await set_up_game(fake)
    (tmp_path / "duelist.yaml").write_text(DUELIST, encoding="utf-8")
    assert "Duelist" in await add_sheet(fake, fake.gm, "char enemy", "duelist.yaml",
                                        folder=tmp_path)
    [opened] = await run_command(fake, fake.gm, "gm npc")
    await submit_modal(fake, fake.gm, opened["callback"]["data"],
                       "**Duelist**\n2 AP cast Flee at Kael\n"
                       "2 AP attack Kael with Lightsword going for Dismemberment\n"
                       "**Skarg**\n3 AP defend")
    await fake.post(room, fake.alice, "3 AP defend")
    await call_time(fake)
    panel = await review_panel(fake)
    seen = await answer_all(fake, panel["message"], {"mood difficulty": "10",
                                                     "flat-footed": "yes",
                                                     "Dismemberment takes": "Broadsword"})
    assert any("mood difficulty for the attack stage (for Kael" in s for s in seen), seen
    assert any("default: none named" in s for s in seen), "\n".join(seen)
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if "Turn 1 results" in m["content"]], timeout=15)
    assert "Kael: 7 vs 10" in results["content"]
    assert "Kael destroyed: Broadsword" in results["content"]


async def test_a_good_case_posted_in_the_room_is_ruled_on_in_the_review_panel(
    running, fake
) -> None:
    """F8: a concentration action mixed with an attack "unless the player can make a good
    case": the reply marks it pending, the panel asks the GM, accepted both actions resolve."""
    room = fake.room["id"]
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "mira.yaml", fake.bob)
    post = await fake.post(room, fake.bob, "2 AP Pickpocket on Skarg: lift his purse\n"
                                           "1 AP attack Skarg with Dagger\n"
                                           "Good case: the purse hangs from his sword belt")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "Good case (for the GM to rule on): the purse hangs" in reply["content"]
    await fake.post(room, fake.alice, "3 AP defend")
    await call_time(fake)
    panel = await review_panel(fake)
    seen = await answer_all(fake, panel["message"], {"accept the good case": "accept"})
    assert any("Mira: accept the good case" in s for s in seen), "\n".join(seen)
    [results] = await fake.wait_for(lambda: [m for m in fake.bot_messages(room)
                                             if "Turn 1 results" in m["content"]], timeout=15)
    assert "Mira tries Pickpocket on Skarg" in results["content"]
    assert "Mira attacks Skarg" in results["content"]


def every_bot_message(fake: Any) -> list[str]:
    return [m["content"] for channel in list(fake.messages) for m in fake.bot_messages(channel)]


async def test_a_healing_check_sent_by_dm_halves_the_patients_time(running, fake) -> None:
    """F14: a Healing check made in a turn, with its SP, halves the time of the patient's level
    on a Solid Success or better [F:L201]."""
    room = fake.room["id"]
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "bran.yaml", fake.bob)
    await bleed(running, "Goblin Road", "Kael", bleeding=False)
    dm = await fake.dm(fake.bob, "3 AP Healing on Kael: stitch the cut, 1 SP floating")
    await fake.wait_for(lambda: fake.bot_messages(dm["channel_id"]))
    await fake.post(room, fake.alice, "3 AP defend")
    await call_time(fake)
    panel = await review_panel(fake)
    await answer_all(fake, panel["message"], {})
    await fake.wait_for(lambda: any("Kael: Bran's Healing check" in text
                                    and "halves the time to heal Battered" in text
                                    for text in every_bot_message(fake)), timeout=15)


async def test_the_review_panel_seals_next_turns_npc_orders_before_the_results(
    running, fake
) -> None:
    """F30: the GM decides NPC allocations "before even posting the effects of the previous
    turn": at the end of the review, before Resolve; with `npc_seal_first` a resolve waits."""
    room = fake.room["id"]
    await set_up_game(fake)
    [game] = await running.services.games.listing()
    await running.services.games.set_setting(game.id, str(fake.gm["id"]), "npc_seal_first", "on")
    await fake.post(room, fake.alice, "3 AP defend")
    await call_time(fake)
    panel = await review_panel(fake)
    message = panel["message"]
    found = {c.get("label"): c for c in components(message)}
    refused = await use_component(fake, fake.gm, message, found["Resolve the turn"], responses=2)
    assert "npc_seal_first" in text_of(refused)
    [opened] = await use_component(fake, fake.gm, message, found["Seal next turn's NPC orders"])
    modal = opened["callback"]["data"]
    assert opened["callback"]["type"] == 9 and "Next turn" in modal["title"]
    said = text_of(await submit_modal(fake, fake.gm, modal,
                                      "**Skarg**\n2 AP attack Kael with Broadsword",
                                      message=message))
    assert "Turn 2's NPC orders are sealed before the results of turn 1" in said
    await fake.wait_for(lambda: any("NPC orders for turn 2 are sealed" in m["content"]
                                    for m in fake.bot_messages(room)), timeout=15)
    await use_component(fake, fake.gm, message, found["Resolve the turn"])
    await fake.wait_for(lambda: any("Turn 1 results" in m["content"]
                                    for m in fake.bot_messages(room)), timeout=15)
    status = text_of(await run_command(fake, fake.gm, "turn status"))
    assert "turn 2**" in status and "NPC orders: sealed." in status


async def test_gm_advance_takes_a_healing_check_with_its_sp(running, fake) -> None:
    """F14 between turns: the GM's `/gm advance` with a Healing check's total, its healer and
    the SP spent on it."""
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, fake.gm, "char add", "bran.yaml", fake.bob)
    await bleed(running, "Goblin Road", "Kael", bleeding=False)
    [game] = await running.services.games.listing()
    await running.services.turns.pass_turn(game.id, str(fake.alice["id"]))
    await running.services.turns.pass_turn(game.id, str(fake.bob["id"]))
    await running.services.turns.npc_orders(game.id, str(fake.gm["id"]), channel_key="dm:gm",
                                            message_key="n1", text="**Skarg**\n3 AP defend")
    await running.services.resolution.resolve(game.id, str(fake.gm["id"]), 1)
    options = [{"type": 3, "name": "by", "value": "1"},
               {"type": 3, "name": "patient", "value": "Kael"},
               {"type": 4, "name": "total", "value": 2},
               {"type": 3, "name": "healer", "value": "Bran"}]
    bad = text_of(await run_command(fake, fake.gm, "gm advance",
                                    [*options, {"type": 3, "name": "sp", "value": "floating"}]))
    assert "is no SP of a Healing check" in bad
    said = text_of(await run_command(fake, fake.gm, "gm advance",
                                     [*options, {"type": 3, "name": "sp",
                                                 "value": "floating=2"}]))
    assert "Kael: Battered -> Battered (Healing check: Solid Success)" in said

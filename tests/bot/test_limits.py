"""Every message the bot sends within Discord's real limits, checked by the fake
Discord as Discord checks them (`form_body.py`): the fake refuses what oversteps, and the `fake`
fixture fails any test whose bot was refused or could have pinged by accident.

Here: the fake's refusals themselves; a 60-combatant turn with names at their bound and a
600-combatant scene through the outbox (split in order, each part with its own stable nonce and
stored id, a redelivery dropped by Discord); a maximal character's sheet; the review of a
question with 60 choices; autocomplete with many games and characters; long names in every
label; an error longer than a message."""

from __future__ import annotations

import time
from typing import Any

import discord
import pytest

from fappo_bot.discord.delivery import nonce
from fappo_bot.discord.limits import embed_messages, embeds_of, list_fields
from fappo_bot.discord.rendering import rendered
from fappo_bot.service.records import DestinationKind, OutboxMessage, Role
from tests.bot import form_body
from tests.bot.scenes import MAX_NAME, long_name, scene
from tests.bot.table import components, review_panel, run_command, submit_modal, use_component

pytestmark = pytest.mark.e2e


# ---- the fake refuses what Discord refuses ---------------------------------------------------
def test_the_checks_find_each_limit_broken() -> None:
    assert form_body.check_message({"content": "x" * 2000}, create=True) == {}
    assert form_body.check_message({"content": "x" * 2001}, create=True) == {"content": {
        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                     "message": "Must be 2000 or fewer in length."}]}}
    fields = [{"name": "n", "value": "v" * 1024}] * 5
    # each embed within its own limits, but 6,000 characters across the message's embeds
    errors = form_body.check_message({"embeds": [{"fields": fields}, {"fields": fields}]},
                                     create=True)
    assert errors["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
    errors = form_body.check_message(
        {"embeds": [{"title": "t" * 257, "fields": [{"name": "", "value": "v" * 1025}] * 26}]},
        create=True)
    assert set(errors["embeds"]["0"]) == {"title", "fields"}
    assert set(errors["embeds"]["0"]["fields"]["0"]) == {"name", "value"}
    select = {"type": 3, "custom_id": "s", "placeholder": "p" * 151,
              "options": [{"label": "l" * 101, "value": "same"}] * 26}
    errors = form_body.check_message({"components": [{"type": 1, "components": [select]}]},
                                     create=True)
    assert set(errors["components"]["0"]["components"]["0"]) == {"placeholder", "options"}
    modal = {"title": "t" * 46, "custom_id": "m", "components": [{"type": 1, "components": [
        {"type": 4, "custom_id": "i", "label": "l" * 46, "max_length": 4001}]}]}
    assert set(form_body.check_callback({"type": 9, "data": modal})["data"]) == {
        "title", "components"}
    choices = {"choices": [{"name": "n" * 101, "value": "v"}] + [{"name": "n", "value": "v"}] * 25}
    assert set(form_body.check_callback({"type": 8, "data": choices})["data"]["choices"]) == {
        "_errors", "0"}
    assert form_body.is_empty({"content": "  "}) and not form_body.is_empty({"content": "a"})


def test_the_mention_check_allows_only_pings_the_content_names() -> None:
    assert form_body.mention_problem({"content": "hi", "allowed_mentions": {"parse": []}}) \
        is None
    assert form_body.mention_problem({"content": "hi"}) == "no allowed_mentions"
    assert "parses" in form_body.mention_problem(
        {"content": "@everyone", "allowed_mentions": {"parse": ["everyone"]}})
    assert form_body.mention_problem(
        {"content": "<@12>", "allowed_mentions": {"parse": [], "users": [12]}}) is None
    assert "does not mention" in form_body.mention_problem(
        {"content": "<@12>", "allowed_mentions": {"parse": [], "users": [12, 13]}})


async def test_the_fake_refuses_a_message_over_a_limit(running, fake) -> None:
    fake.expect_rejections = True
    channel = running.bot.get_channel(int(fake.room["id"]))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "In content: Must be 2000 or fewer in length." in str(refused.value)
    embeds = [discord.Embed(description="d" * 4000), discord.Embed(description="d" * 4000)]
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embeds=embeds)
    assert "Embed size exceeds maximum size of 6000" in str(refused.value)
    assert len(fake.rejected) == 2 and fake.bot_messages(fake.room["id"]) == []


# ---- the outbox ------------------------------------------------------------------------------
async def _resolved(running, fake, game_id: str) -> list[OutboxMessage]:
    """Resolve the turn as the GM and wait until the room has every message of the outbox;
    the room's outbox messages, in outbox order."""
    room = fake.room["id"]
    await running.services.resolution.resolve(game_id, fake.gm["id"], 1)
    running.bot.delivery.wake()
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 2 is open")
                                    for m in fake.bot_messages(room)), timeout=120)
    await running.bot.delivery.deliver()  # waits for the round under way to mark its messages
    sent = [m for m in await running.services.outbox.for_game(game_id)
            if m.dest_kind is DestinationKind.CHANNEL]
    assert [(m.kind, m.last_error) for m in sent if m.sent_at is None] == []
    return sent


async def _delivered_once_in_order(running, fake, sent: list[OutboxMessage]) -> None:
    room = fake.room["id"]
    posted = fake.bot_messages(room)
    # nothing lost, nothing twice, in outbox order: the room's messages are the stored ids
    assert [m["id"] for m in posted] == [k for m in sent for k in m.delivered_keys]
    # as stored, but for the bot's command added to the NPC reveal (how to check it)
    assert [m["content"] for m in posted] == [rendered(m) for m in sent]
    assert any(m.kind == "revealed" and rendered(m) != m.content for m in sent)
    # each message carries its own nonce, the one a redelivery would carry
    assert [m["nonce"] for m in posted] == [nonce(m.id, 0) for m in sent]
    assert len({m["nonce"] for m in posted}) == len(posted)
    assert all(len(m["content"]) <= 2000 and m["allowed_mentions"] == {"parse": []}
               for m in posted)
    # a redelivery (a crash before `mark_sent`) sends the same nonces: Discord drops them all
    results = [m for m in sent if m.kind == "results"]
    for message in results:
        assert [str(i) for i in await running.bot.delivery.send(message)] == list(
            message.delivered_keys)
    assert len(fake.bot_messages(room)) == len(posted)


def test_a_part_s_nonce_is_its_own_and_the_same_on_every_delivery() -> None:
    nonces = [nonce(f"m{m}", part) for m in range(200) for part in range(5)]
    assert len(set(nonces)) == len(nonces) and all(len(n) <= 25 for n in nonces)
    assert nonces == [nonce(f"m{m}", part) for m in range(200) for part in range(5)]


async def test_a_60_combatant_turn_with_names_at_their_bound_goes_out_in_order(
        running, fake) -> None:
    room = fake.room["id"]
    game_id = await scene(running.services, room, fake.gm["id"], 30, 30, name=long_name)
    assert len(long_name("Kael", 59)) == MAX_NAME
    sent = await _resolved(running, fake, game_id)
    results = [m for m in sent if m.kind == "results"]
    assert len(results) > 3  # far over one message: split, each part its own outbox message
    await _delivered_once_in_order(running, fake, sent)
    # split on line boundaries: every line of the results is whole in one message
    assert all(line.startswith(("**", "- ", "    - ")) for m in results
               for line in m.content.split("\n"))


@pytest.mark.slow
async def test_a_600_combatant_scene_goes_out_in_order(running, fake) -> None:
    room = fake.room["id"]
    started = time.perf_counter()
    game_id = await scene(running.services, room, fake.gm["id"], 300, 300)
    sent = await _resolved(running, fake, game_id)
    assert len([m for m in sent if m.kind == "results"]) > 30
    await _delivered_once_in_order(running, fake, sent)
    assert time.perf_counter() - started < 600


# ---- embeds ----------------------------------------------------------------------------------
def test_embeds_are_split_at_field_boundaries() -> None:
    items = [f"Skill number {i:03d} 3" for i in range(1200)]
    fields = list_fields("Skills", items)
    assert all(len(f.value) <= 1024 for f in fields)
    assert ", ".join(f.value for f in fields) == ", ".join(items)  # no item cut in two
    assert [f.name for f in fields[:3]] == ["Skills", "Skills (2)", "Skills (3)"]
    embeds = embeds_of("T" * 300, "d" * 5000, fields)
    assert all(len(e) <= 6000 and len(e.fields) <= 25 for e in embeds)
    assert all(len(e.title or "") <= 256 for e in embeds)
    assert [f.value for e in embeds for f in e.fields] == [f.value for f in fields]
    for group in embed_messages(embeds):
        assert len(group) <= 10 and sum(len(e) for e in group) <= 6000


async def test_the_sheet_of_a_maximal_character(running, fake) -> None:
    from fappo_bot.rules import data
    from fappo_bot.service.characters import NewCharacter
    from tests.bot.scenes import ENEMY_SHEET

    room = fake.room["id"]
    game_id = await scene(running.services, room, fake.gm["id"], 1, 1, orders=False)
    running.bot.rooms.forget(room)
    skills = {skill.name: 1 for skill in data.SKILLS}  # every skill of the game
    big = NewCharacter.from_dict({**ENEMY_SHEET, "name": long_name("Skarg", 7),
                                  "skills": skills, "traits": {t.value: 3 for t in data.Trait},
                                  "weapons": [w.name for w in data.WEAPONS]})
    check = await running.services.characters.add_enemy(game_id, fake.gm["id"], big)
    assert check.ok, check
    interaction = await fake.command(fake.gm, room, "char sheet", [
        {"type": 3, "name": "name", "value": long_name("Skarg", 7)}])

    def every_skill() -> list[dict[str, Any]] | None:
        bodies = [r.get("callback", {}).get("data") or r.get("followup")
                  for r in fake.responses(interaction)]
        shown = " ".join(f["value"] for b in bodies for e in b.get("embeds") or []
                         for f in e["fields"])
        return bodies if all(f"{name} 1" in shown for name in skills) else None

    bodies = await fake.wait_for(every_skill)  # every skill shown, none cut
    embeds = [e for body in bodies for e in body.get("embeds") or []]
    assert embeds[0]["title"] == long_name("Skarg", 7)
    gear = " ".join(f["value"] for e in embeds for f in e["fields"] if f["name"] == "Gear")
    assert all(w.name in gear for w in data.WEAPONS)
    assert all(b["flags"] & 64 for b in bodies)  # every part as private as the first


# ---- the review ------------------------------------------------------------------------------
async def _conditional_target(running, fake, pcs: int, enemies: int) -> tuple[str, dict]:
    """A scene whose first player's conditional attack came true: the review asks its target
    among every character. The panel's message."""
    room, gm = fake.room["id"], fake.gm["id"]
    game_id = await scene(running.services, room, gm, pcs, enemies, name=long_name,
                          orders=False)
    running.bot.rooms.forget(room)
    reply = await running.services.turns.post(
        game_id, "player-0", channel_key=room, message_key="cond",
        text="If a goblin charges: 2 AP attack it with Broadsword\n1 AP defend")
    assert reply.ok, reply.reply
    await running.services.review.answer(game_id, gm, {
        i.key: "yes" for i in (await running.services.review.review(game_id, gm)).items
        if i.field == "triggered"})
    panel = await review_panel(fake)  # deferred (the NPCs sealed as written when asked)
    return game_id, panel["message"]


async def test_a_review_question_with_60_choices_shows_them_all(running, fake) -> None:
    game_id, message = await _conditional_target(running, fake, 30, 30)
    selects = [c for c in components(message) if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 10]  # one page of three selects
    assert "51-60 of 60" in selects[2]["placeholder"]
    assert all(len(o["label"]) <= 100 for s in selects for o in s["options"])
    pick = selects[2]["options"][-1]
    await use_component(fake, fake.gm, message, selects[2], [pick["value"]], responses=2)
    review = await running.services.review.review(game_id, fake.gm["id"])
    [target] = [i for i in review.items if i.field == "target"]
    assert target.answer == target.choices[int(pick["value"])]
    assert len(target.answer) == MAX_NAME  # the whole name, whatever its label shows


async def test_a_question_quoting_a_long_condition_is_clipped_inside_its_bold(running, fake
                                                                            ) -> None:
    room, gm = fake.room["id"], fake.gm["id"]
    game_id = await scene(running.services, room, gm, 1, 1, orders=False)
    running.bot.rooms.forget(room)
    condition = " ".join(["the goblins **charge** across the bridge"] * 80)
    reply = await running.services.turns.post(
        game_id, "player-0", channel_key=room, message_key="cond",
        text=f"If {condition}: 2 AP attack Skargaa with Broadsword\n1 AP defend")
    assert reply.ok, reply.reply
    panel = await review_panel(fake)  # deferred (the NPCs sealed as written when asked)
    content = panel["message"]["content"]
    assert len(content) <= 2000 and content.endswith("…**")


async def test_the_creatures_in_an_area_are_picked_across_pages(running, fake) -> None:
    """A grenade in a 121-combatant scene: the review asks which creatures are inside; the
    choices take two pages of four selects; picks on both pages are sent together."""
    from fappo_bot.service.characters import NewCharacter
    from tests.bot.scenes import PC_SHEET

    room, gm = fake.room["id"], fake.gm["id"]
    game_id = await scene(running.services, room, gm, 60, 60, orders=False)
    running.bot.rooms.forget(room)
    await running.services.games.add_member(game_id, gm, "bomber", Role.PLAYER)
    check = await running.services.characters.create(game_id, "bomber", NewCharacter.from_dict(
        {**PC_SHEET, "name": "Bomber", "weapons": ["Grenade"], "skills": {"Throwing": 3}}))
    assert check.ok, check
    reply = await running.services.turns.post(game_id, "bomber", channel_key=room,
                                              message_key="boom",
                                              text="2 AP attack Skargaa with Grenade")
    assert reply.ok, reply.reply
    panel = await review_panel(fake)  # deferred (the NPCs sealed as written when asked)
    message = panel["message"]
    selects = [c for c in components(message) if c["type"] == 3]
    buttons = {c["label"]: c for c in components(message) if c["type"] == 2}
    assert [len(s["options"]) for s in selects] == [25, 25, 25, 25]
    assert selects[0]["max_values"] == 25 and selects[0]["min_values"] == 0
    assert buttons["◀ Previous"]["disabled"] and not buttons["Next ▶"]["disabled"]
    first = [o["value"] for o in selects[0]["options"][:2]]
    [picked] = await use_component(fake, fake.gm, message, selects[0], first)
    message = {**message, **picked["callback"]["data"]}
    assert "Picked (2)" in message["content"]
    buttons = {c["label"]: c for c in components(message) if c["type"] == 2}
    [turned] = await use_component(fake, fake.gm, message, buttons["Next ▶"])
    message = {**message, **turned["callback"]["data"]}
    [last] = [c for c in components(message) if c["type"] == 3]
    assert "101-121 of 121" in last["placeholder"]
    [picked] = await use_component(fake, fake.gm, message, last, [last["options"][-1]["value"]])
    message = {**message, **picked["callback"]["data"]}
    done = next(c for c in components(message) if c.get("label", "").startswith("Done"))
    assert done["label"] == "Done (3 picked)"
    await use_component(fake, fake.gm, message, done, responses=2)  # deferred, then edited
    review = await running.services.review.review(game_id, gm)
    [targets] = [i for i in review.items if i.field == "targets"]
    chosen = [targets.choices[int(v)] for v in [*first, last["options"][-1]["value"]]]
    assert list(targets.answer) == chosen


async def test_a_review_question_may_be_typed_in_a_modal_within_its_limits(running, fake
                                                                           ) -> None:
    room = fake.room["id"]
    gm = fake.gm["id"]
    game_id = await scene(running.services, room, gm, 30, 30, name=long_name, orders=False)
    running.bot.rooms.forget(room)
    reply = await running.services.turns.post(
        game_id, "player-1", channel_key=room, message_key="cond",
        text="If a goblin charges: 2 AP attack it with Broadsword\n1 AP defend")
    assert reply.ok, reply.reply
    await running.services.review.answer(game_id, gm, {
        i.key: "yes" for i in (await running.services.review.review(game_id, gm)).items
        if i.field == "triggered"})
    panel = await review_panel(fake)  # deferred (the NPCs sealed as written when asked)
    message = panel["message"]
    typed = next(c for c in components(message) if c.get("label") == "Type the answer")
    [asked] = await use_component(fake, fake.gm, message, typed)
    modal = asked["callback"]["data"]
    [field] = [c for c in components(modal) if c["type"] == 4]
    assert len(field["label"]) <= 45 and field["label"].endswith("…")
    name = long_name("Skarg", 3)
    await submit_modal(fake, fake.gm, modal, name, message=message, responses=2)
    review = await running.services.review.review(game_id, gm)
    assert [i.answer for i in review.items if i.field == "target"] == [name]


async def test_orders_by_dm_for_one_of_30_games(running, fake) -> None:
    """A player in 30 games with an open turn: the DM's game picker shows them all, 25 a
    select, and a pick in the second select posts the orders to that game."""
    from fappo_bot.service.characters import NewCharacter
    from tests.bot.scenes import PC_SHEET

    services, gm, alice = running.services, fake.gm["id"], fake.alice["id"]
    games = []
    for i in range(30):
        game = await services.games.create(channel_key=f"elsewhere-{i}",
                                           name=long_name("Game", i), creator=gm)
        await services.games.add_member(game.id, gm, alice, Role.PLAYER)
        check = await services.characters.create(game.id, alice, NewCharacter.from_dict(
            {**PC_SHEET, "name": "Kael"}))
        assert check.ok, check
        await services.turns.open(game.id, gm)
        games.append(game.id)
    dm = await fake.dm(fake.alice, "3 AP defend")
    channel = dm["channel_id"]
    [picker] = await fake.wait_for(lambda: [m for m in fake.bot_messages(channel)
                                            if m["components"]])
    selects = [c for c in components(picker) if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 5]
    assert {o["value"] for s in selects for o in s["options"]} == set(games)
    chosen = selects[1]["options"][-1]["value"]
    interaction = await fake.interact(fake.alice, channel, 3, {
        "custom_id": selects[1]["custom_id"], "component_type": 3, "values": [chosen]},
        message=picker)
    await fake.answered(interaction)
    await fake.wait_for(lambda: len(fake.bot_messages(channel)) >= 2)
    status = await services.turns.status(chosen)
    assert status.posted == ("Kael",)


# ---- autocomplete and labels -----------------------------------------------------------------
async def _autocomplete(fake, command: str, option: str, typed: str) -> list[dict[str, Any]]:
    group, sub = command.split()
    data = {"id": str(fake.snowflake()), "name": group, "type": 1, "options": [
        {"type": 1, "name": sub, "options": [
            {"type": 3, "name": option, "value": typed, "focused": True}]}]}
    interaction = await fake.interact(fake.gm, fake.room["id"], 4, data)
    [found] = await fake.answered(interaction)
    return found["callback"]["data"]["choices"]


def test_a_choice_is_clipped_by_its_label_never_by_its_value() -> None:
    from fappo_bot.discord.commands.characters import ranked

    choices = ranked([("L" * 150, "v"), ("M", "w" * 101), *[(f"N{i}", f"n{i}")
                                                           for i in range(40)]], "")
    assert len(choices) == 25 and choices[0].name == "L" * 99 + "…"
    assert all(c.value != "w" * 101 and len(c.value) <= 100 for c in choices)


async def test_autocomplete_offers_25_of_many_games_and_characters(running, fake) -> None:
    room = fake.room["id"]
    await scene(running.services, room, fake.gm["id"], 30, 30, name=long_name, orders=False)
    running.bot.rooms.forget(room)
    for i in range(40):
        other = fake.add_channel(f"room-{i}")
        await running.services.games.create(channel_key=other["id"], name=long_name("Game", i),
                                            creator=fake.gm["id"],
                                            guild_key=str(fake.guild_id))
    choices = await _autocomplete(fake, "char sheet", "name", "")
    assert len(choices) == 25
    assert all(len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in choices)
    games = await _autocomplete(fake, "gm export", "game", "game")
    assert len(games) == 25 and all(len(c["name"]) == MAX_NAME for c in games)


async def test_long_names_in_every_answer(running, fake) -> None:
    """A game and characters named at the bound: the commands that name them stay within
    Discord's limits (the fake refuses any that does not)."""
    room = fake.room["id"]
    await scene(running.services, room, fake.gm["id"], 30, 30, name=long_name)
    running.bot.rooms.forget(room)
    for command in ("game show", "turn status", "gm resolve", "help"):
        await run_command(fake, fake.gm, command)


async def test_names_at_their_bound_full_of_markdown_and_mentions(running, fake) -> None:
    """Every character of a 100-character name escaped (twice as long once made inert): the
    game's and a character's answers, the sheet's title, autocomplete and the review."""
    from fappo_bot.service.characters import NewCharacter
    from tests.bot.scenes import ENEMY_SHEET

    hostile = ("@everyone *_~|`\\" * 10)[:MAX_NAME]
    [created] = await run_command(fake, fake.gm, "game create",
                                  [{"type": 3, "name": "name", "value": hostile}])
    assert "everyone" in created["callback"]["data"]["content"]
    game_id = running.bot.rooms._known.get(fake.room["id"]) or (
        await running.services.games.find(fake.room["id"])).id
    enemy = ("Skarg *_~|`\\" * 10)[:MAX_NAME]
    check = await running.services.characters.add_enemy(
        game_id, fake.gm["id"], NewCharacter.from_dict({**ENEMY_SHEET, "name": enemy}))
    assert check.ok, check
    [shown] = await run_command(fake, fake.gm, "game show")
    [sheet] = await run_command(fake, fake.gm, "char sheet",
                                [{"type": 3, "name": "name", "value": enemy}])
    [title] = [e["title"] for e in sheet["callback"]["data"]["embeds"]]
    assert len(title) <= 256 and title.startswith("Skarg")
    choices = await _autocomplete(fake, "char sheet", "name", "skarg")
    assert [c["value"] for c in choices] == [enemy]
    assert shown


async def test_pinging_60_missing_players_splits_the_pings(running, fake) -> None:
    """`/turn status ping_missing` with 60 players whose characters have names at the bound:
    several messages, each within the limit and allowing exactly the pings it names."""
    room = fake.room["id"]
    players = [fake.add_user(f"p{i}")["id"] for i in range(60)]
    await scene(running.services, room, fake.gm["id"], 60, 1, name=long_name, orders=False,
                players=players)
    running.bot.rooms.forget(room)
    interaction = await fake.command(fake.gm, room, "turn status",
                                     [{"type": 5, "name": "ping_missing", "value": True}])
    responses = await fake.answered(interaction, 3)
    await fake.wait_for(lambda: all(f"<@{p}>" in str(fake.responses(interaction))
                                    for p in players))
    bodies = [r.get("callback", {}).get("data") or r.get("followup")
              for r in fake.responses(interaction)]
    assert len(bodies) >= 3 and all(len(b["content"]) <= 2000 for b in bodies)
    for body in bodies:
        named = {p for p in players if f"<@{p}>" in body["content"]}
        assert set(map(str, body["allowed_mentions"].get("users", []))) == named
        assert body["allowed_mentions"]["parse"] == []
    assert responses


async def test_a_long_answer_to_a_modal_is_split(running, fake) -> None:
    """NPC orders for lieutenants named at the bound: the private reply is longer than a
    message, so it comes in several, each within the limit."""
    room = fake.room["id"]
    await scene(running.services, room, fake.gm["id"], 10, 50, name=long_name, orders=False)
    running.bot.rooms.forget(room)
    [opened] = await run_command(fake, fake.gm, "gm npc")
    blocks = [f"**{long_name('Skarg', i)}**\n2 AP attack {long_name('Kael', i % 10)} "
              "with Broadsword\n1 AP defend" for i in range(50)]
    text = ""
    for block in blocks:
        if len(text) + len(block) + 1 > 4000:
            break
        text = f"{text}\n{block}" if text else block
    interaction_answers = await submit_modal(fake, fake.gm, opened["callback"]["data"], text)
    await fake.wait_for(lambda: len(interaction_answers) >= 2)
    bodies = [r.get("callback", {}).get("data") or r.get("followup")
              for r in interaction_answers]
    assert all(len(b["content"]) <= 2000 and b["flags"] & 64 for b in bodies)

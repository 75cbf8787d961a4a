"""A turn's results laid out as the reader chose (`discord/results_embeds.py`): embeds in the
room under the game's `results_layout: embeds`, plain text under `text` (the default); a
player's DMs by their own `/me layout`, else as the room; every message within Discord's limits
(the fake refuses the rest, `form_body.py`), a 1,000-entry turn split into several; hostile
names inert in every embed."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from fappo_bot.discord.results_embeds import content_line, results_embeds, results_messages
from fappo_bot.posting.safety import has_live_mention, inert, safe
from fappo_bot.render import notices as words
from fappo_bot.service import notices
from fappo_bot.service import results_report as report
from fappo_bot.service.characters import NewCharacter
from fappo_bot.service.records import DestinationKind
from fappo_bot.service.rulesets.names import XP
from tests.bot import form_body
from tests.bot.scenes import ENEMY_SHEET, long_name, scene
from tests.bot.table import add_sheet, call_time, run_command, set_up_game, text_of
from tests.bot.test_results import resolve_through_the_panel

HOSTILE = "Skarg @everyone <@123> **bold** [x](http://e)"


def _texts(embed: dict[str, Any]) -> list[str]:
    return [embed.get("title") or "", embed.get("description") or "",
            *(f[k] for f in embed.get("fields") or [] for k in ("name", "value")),
            (embed.get("author") or {}).get("name") or ""]


def _big_turn(entries: int) -> notices.Results:
    """A turn of `entries` actions and as many standings, names long and hostile."""
    name = (HOSTILE + " of the Seven Gates and the Northern Marches ") * 3
    actions = [report.ActionLine(
        actor=f"{name[:90]} {i}", kind="attack", target=f"{name[:90]} {i + 1}",
        weapon="Broadsword", total=7, difficulty=6, base="bare", level="solid",
        sp={"Brawny": 1}, damage=2, defences=(report.Defence(name=f"{name[:90]} {i + 1}"),))
        for i in range(entries)]
    standing = [report.Standing(name=f"{name[:90]} {i}", health="Wounded", hits=(
        report.HitLine(id=f"t1-{i}", attacker=f"{name[:90]} {i - 1}", weapon="Broadsword",
                       levels=2),), statuses=("prone",)) for i in range(entries)]
    return notices.results(1, "r1", (*actions, *standing))


@pytest.mark.unit
def test_a_1000_entry_turn_goes_out_in_embeds_within_every_limit() -> None:
    notice = _big_turn(500)
    pieces = [piece for piece, _ in words.results_parts(notice)]
    assert len(pieces) > 20 and all(p is not None for p in pieces)
    messages = [group for piece in pieces if piece is not None
                for group in results_messages(piece)]
    for group in messages:
        body = {"embeds": [e.to_dict() for e in group]}
        assert form_body.check_message(body, create=True) == {}, body
        assert not form_body.is_empty(body)
        assert not any(has_live_mention(t) for e in body["embeds"] for t in _texts(e))
    fields = [f for group in messages for e in group for f in e.fields]
    described = "\n".join(e.description or "" for group in messages for e in group)
    # every block whole, in order: each action a line, each standing its own field
    assert described.count("attacks ") == 500
    standing = [b for b in notice.blocks if isinstance(b, report.Standing)]
    assert [f.name for f in fields] == [inert(safe(b.name)) for b in standing]
    assert all("Wounded" in f.value and "Broadsword hit" in f.value for f in fields)
    titles = [e.title for group in messages for e in group]
    assert titles[0] == "Turn 1 results"
    assert "Turn 1 results (continued): Where things stand" in titles


@pytest.mark.unit
def test_each_section_is_an_embed_with_a_field_per_character() -> None:
    notice = notices.results(3, "r1", (
        report.ActionLine(actor="Kael", kind="attack", target="Skarg", weapon="Broadsword",
                          total=7, difficulty=6, base="bare", level="bare"),
        report.Refusal(actor="Mira", message="no such skill"),
        report.Standing(name="Kael", health="Unhurt"),
        report.Standing(name="Skarg", health="Wounded", withheld=True),
        report.EventLine(character="Skarg", kind="woke")))
    embeds = results_embeds(notice)
    assert [e.title for e in embeds] == ["Turn 3 results", "Refused orders",
                                         "Where things stand", "Also"]
    assert embeds[0].description == "- Kael attacks Skarg with Broadsword: 7 vs 6, Bare Success"
    assert [(f.name, f.value) for f in embeds[2].fields] == [
        ("Kael", "Unhurt"), ("Skarg", "This turn's results went to the parties only")]
    assert embeds[3].description == "- Skarg wakes up"
    assert len({e.colour for e in embeds}) == 4


@pytest.mark.unit
def test_an_xp_turn_and_a_part_that_starts_after_the_actions() -> None:
    xp = notices.results(2, "r1", report.xp_blocks(["Kael: 6d superior, 3 successes"]),
                         ruleset=XP)
    [embed] = results_embeds(xp)
    assert (embed.title, embed.description) == ("Turn 2 results (Xp)",
                                                "Kael: 6d superior, 3 successes")
    [nothing] = results_embeds(notices.results(2, "r1", (), ruleset=XP))
    assert nothing.description == "Nothing to roll this turn."
    later = notices.results(2, "r1", (report.Standing(name=HOSTILE, health="Unhurt"),))
    later = later.model_copy(update={"continued": True})
    [embed] = results_embeds(later)
    assert embed.title == "Turn 2 results (continued): Where things stand"
    [field] = embed.fields
    assert not has_live_mention(field.name) and field.value == "Unhurt" and field.inline


async def _play_a_turn(running, fake, layout: str | None) -> list[dict[str, Any]]:
    """Goblin Road with `results_layout` set to `layout`, turn 1 resolved: the room's
    messages of its results."""
    await set_up_game(fake)
    if layout is not None:
        [done] = await run_command(fake, fake.gm, "game set", [
            {"type": 3, "name": "name", "value": "results_layout"},
            {"type": 3, "name": "value", "value": layout}])
        assert text_of([done]) == f"`results_layout` is now {layout}."
    room = fake.room["id"]
    post = await fake.post(room, fake.alice, "2 AP attack Skarg with Broadsword\n1 AP defend")
    await fake.wait_for(lambda: len(fake.bot_messages(room)) > 1)
    assert post
    await call_time(fake)
    await resolve_through_the_panel(fake)
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 2 is open")
                                    for m in fake.bot_messages(room)), timeout=15)
    return [m for m in fake.bot_messages(room) if "Turn 1 results" in m["content"] or any(
        "Turn 1 results" in (e.get("title") or "") for e in m["embeds"])]


@pytest.mark.e2e
async def test_the_room_reads_embeds_when_the_game_chose_them(running, fake) -> None:
    [message] = await _play_a_turn(running, fake, "embeds")
    # a phone's notification shows the content, not the embeds
    assert message["content"] == 'Turn 1 results in "Goblin Road"'
    assert message["allowed_mentions"] == {"parse": []}
    titles = [e["title"] for e in message["embeds"]]
    assert titles == ["Turn 1 results", "Where things stand"]
    assert message["embeds"][0]["description"].startswith("- Kael attacks Skarg with "
                                                          "Broadsword: ")
    names = [f["name"] for f in message["embeds"][1]["fields"]]
    assert names == ["Kael", "Skarg"]
    [shown] = await run_command(fake, fake.gm, "game settings")
    assert "`results_layout` = embeds" in text_of([shown])


@pytest.mark.e2e
async def test_the_room_reads_text_by_default(running, fake) -> None:
    [message] = await _play_a_turn(running, fake, None)
    assert message["embeds"] == []
    assert message["content"].startswith("**Turn 1 results**\n- Kael attacks Skarg")
    assert "**Where things stand**\n- Kael: " in message["content"]


@pytest.mark.e2e
async def test_each_players_dm_follows_their_own_layout(running, fake) -> None:
    """A duel by DM: Bob chose text (a screen reader), Alice chose nothing, so her DM is as the
    room's (embeds), under the line naming the game; the room in embeds too."""
    room, gm, alice, bob = fake.room["id"], fake.gm, fake.alice, fake.bob
    await set_up_game(fake)
    assert "joins the game" in await add_sheet(fake, gm, "char add", "mira.yaml", bob)
    text_of(await run_command(fake, gm, "game set", [
        {"type": 3, "name": "name", "value": "results_layout"},
        {"type": 3, "name": "value", "value": "embeds"}]))
    [chosen] = await run_command(fake, bob, "me layout",
                                 [{"type": 3, "name": "how", "value": "text"}])
    assert chosen["callback"]["data"]["flags"] & 64
    assert "plain text" in text_of([chosen])
    kael = await fake.dm(alice, "2 AP attack Mira with Broadsword\n1 AP defend")
    mira = await fake.dm(bob, "2 AP defend against Kael\nGuard: 1 SP Clever against Kael")
    for dm in (kael, mira):
        await fake.wait_for(lambda dm=dm: fake.bot_messages(dm["channel_id"]))
    await call_time(fake)
    await resolve_through_the_panel(fake)

    def results_in(channel: str) -> list[dict[str, Any]]:
        return [m for m in fake.bot_messages(channel) if "Turn 1 results" in m["content"]
                or any("Turn 1 results" in (e.get("title") or "") for e in m["embeds"])]

    [to_bob] = await fake.wait_for(lambda: results_in(mira["channel_id"]), timeout=15)
    [to_alice] = await fake.wait_for(lambda: results_in(kael["channel_id"]), timeout=15)
    [public] = await fake.wait_for(lambda: results_in(room), timeout=15)
    assert to_bob["embeds"] == [] and "- Kael attacks Mira with Broadsword" in to_bob["content"]
    assert to_bob["content"].startswith('From "Goblin Road" (https://discord.com/channels/')
    assert to_alice["content"].startswith('From "Goblin Road" (https://discord.com/channels/')
    assert to_alice["content"].endswith("): Turn 1 results") and "\n" not in to_alice["content"]
    assert to_alice["embeds"][0]["description"].startswith("- Kael attacks Mira")
    assert public["embeds"] and public["content"] == 'Turn 1 results in "Goblin Road"'
    # back to the room's layout: `game`
    [again] = await run_command(fake, bob, "me layout",
                                [{"type": 3, "name": "how", "value": "game"}])
    assert "as each game's room" in text_of([again])
    assert (await running.services.pace.pace_of(bob["id"])).layout is None


@pytest.mark.e2e
async def test_a_60_combatant_turn_with_hostile_names_goes_out_in_embeds(running, fake
                                                                         ) -> None:
    room, gm = fake.room["id"], fake.gm["id"]
    game_id = await scene(running.services, room, gm, 30, 30, name=long_name)
    await running.services.games.set_setting(game_id, gm, "results_layout", "embeds")
    check = await running.services.characters.add_enemy(
        game_id, gm, NewCharacter.from_dict({**ENEMY_SHEET, "name": HOSTILE}))
    assert check.ok, check
    await running.services.resolution.resolve(game_id, gm, 1)
    running.bot.delivery.wake()
    await fake.wait_for(lambda: any(m["content"].startswith("Turn 2 is open")
                                    for m in fake.bot_messages(room)), timeout=120)
    await running.bot.delivery.deliver()
    sent = [m for m in await running.services.outbox.for_game(game_id)
            if m.dest_kind is DestinationKind.CHANNEL and m.kind == "results"]
    assert len(sent) > 3 and all(m.sent_at is not None for m in sent)
    posted = {m["id"]: m for m in fake.bot_messages(room)}
    results = [posted[k] for m in sent for k in m.delivered_keys]
    assert all(m["embeds"] and m["content"].startswith("Turn 1 results") for m in results)
    game_line = f' in "{long_name("Game", 0)}"'
    assert results[0]["content"] == f"Turn 1 results{game_line}"
    assert all(m["content"].endswith(f"(continued){game_line}") for m in results[1:])
    assert not any(has_live_mention(m["content"]) for m in results)
    assert all(m["allowed_mentions"] == {"parse": []} for m in results)
    texts = [t for m in results for e in m["embeds"] for t in _texts(e)]
    assert not any(has_live_mention(t) for t in texts)
    fields = [f["name"] for m in results for e in m["embeds"] for f in e.get("fields") or []]
    expected = {long_name("Kael", i) for i in range(30)} | {long_name("Skarg", i)
                                                             for i in range(30)}
    assert expected <= set(fields)
    # the hostile name shown, broken: no ping, no markdown, no link
    assert any(name.startswith("Skarg @\u200b") and "\\*\\*bold" in name for name in fields)
    # a redelivery sends the same nonces: Discord drops them all
    for message in sent:
        assert [str(i) for i in await running.bot.delivery.send(message)] == list(
            message.delivered_keys)
    assert len(fake.bot_messages(room)) == len(posted)


@pytest.mark.unit
def test_the_fake_refuses_the_embeds_discord_refuses() -> None:
    def errors(embed: dict[str, Any]) -> dict[str, Any]:
        return form_body.check_message({"embeds": [embed]}, create=True)

    assert errors({"title": "t", "color": discord.Colour.green().value}) == {}
    assert "color" in errors({"title": "t", "color": 0x1000000})["embeds"]["0"]
    assert "author" in errors({"title": "t", "author": {}})["embeds"]["0"]
    assert "footer" in errors({"title": "t", "footer": {"text": ""}})["embeds"]["0"]
    assert "fields" in errors({"fields": [{"name": "n", "value": "v", "inline": "yes"}]})[
        "embeds"]["0"]
    assert form_body.is_empty({"embeds": [{}]})
    assert not form_body.is_empty({"embeds": [{"title": "t"}]})


@pytest.mark.unit
def test_the_content_line_names_the_turn_and_the_game_inertly() -> None:
    notice = notices.results(4, "r1", (report.Standing(name="Kael", health="Unhurt"),))
    line = content_line(notice, HOSTILE)
    assert line.startswith("Turn 4 results in \"Skarg @") and not has_live_mention(line)
    assert "**" not in line and "](" not in line
    assert content_line(notice, "Road", index=1) == 'Turn 4 results (continued) in "Road"'
    later = notice.model_copy(update={"continued": True})
    assert content_line(later, "Road", index=1) == 'Turn 4 results (continued) in "Road"'
    assert content_line(notice, "Road", 'From "Road":') == 'From "Road": Turn 4 results'
    assert len(content_line(notice, "x" * 3000)) <= 2000

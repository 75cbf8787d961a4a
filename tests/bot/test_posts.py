"""Turn posts in a game's room through the fake Discord: the bot's reply, kept in step with the
post's edits and deletion; table talk ignored; one short explanation for a post that cannot
count; nothing pings anyone."""

from __future__ import annotations

import pytest

from tests.bot.table import KAEL_ORDERS, call_time, set_up_game

pytestmark = pytest.mark.e2e


def replies_to(fake, message) -> list[dict]:
    room = message["channel_id"]
    return [m for m in fake.bot_messages(room)
            if (m.get("message_reference") or {}).get("message_id") == message["id"]]


async def test_a_post_is_answered_edited_with_it_and_deleted_with_it(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "Kael" in reply["content"] and "AP" in reply["content"]
    assert reply["allowed_mentions"] == {"parse": []}

    # an edit with a problem: the same reply now lists it (no second reply)
    await fake.edit(room, post["id"], "2 AP attack Nobody with Broadsword\n1 AP defend")
    await fake.wait_for(lambda: fake.sent("PATCH", f"/messages/{reply['id']}"))
    assert "Nobody" in fake.messages[room][reply["id"]]["content"]
    assert len(replies_to(fake, post)) == 1

    # fixed again: the same reply shows the orders
    await fake.edit(room, post["id"], KAEL_ORDERS)
    await fake.wait_for(lambda: len(fake.sent("PATCH", f"/messages/{reply['id']}")) == 2)
    assert "Nobody" not in fake.messages[room][reply["id"]]["content"]
    status = await running.services.turns.status(running.bot.rooms._known[room])
    assert status.posted == ("Kael",)

    await fake.delete(room, post["id"])
    await fake.wait_for(lambda: fake.sent("DELETE", f"/messages/{reply['id']}"))
    status = await running.services.turns.status(running.bot.rooms._known[room])
    assert status.missing == ("Kael",)


async def test_table_talk_gets_no_reply_and_unchanged_edits_change_nothing(running, fake
                                                                           ) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    chat = await fake.post(room, fake.alice, "Does anyone have a torch?")
    post = await fake.post(room, fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))
    assert replies_to(fake, chat) == []
    before = len(fake.requests)
    # Discord sends MESSAGE_UPDATE when a link preview unfurls: the text is the same
    await fake.dispatch("MESSAGE_UPDATE", {**fake.messages[room][post["id"]],
                                           "embeds": [{"type": "link", "url": "https://x"}]})
    # a marker the bot answers: events are handled in order, so the update was handled first
    marker = await fake.post(room, fake.bob, "1 AP defend")
    await fake.wait_for(lambda: replies_to(fake, marker))
    changes = [r for r in fake.requests[before:] if r.method in ("PATCH", "POST")]
    assert len(changes) == 1 and "not in the game" in changes[0].body["content"]


async def test_a_post_by_someone_without_a_character_gets_one_sentence(running, fake) -> None:
    await set_up_game(fake)
    post = await fake.post(fake.room["id"], fake.bob, "2 AP attack Skarg with Broadsword")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "You are not in the game" in reply["content"]
    assert "\n" not in reply["content"]


async def test_a_long_reply_is_several_messages_edited_in_place(running, fake) -> None:
    await set_up_game(fake)
    room = fake.room["id"]
    long_post = "\n".join(f"1 AP attack Goblin{n} with Broadsword" for n in range(120))
    post = await fake.post(room, fake.alice, long_post)
    [first] = await fake.wait_for(lambda: replies_to(fake, post))

    def reply_parts() -> list[dict]:
        return [m for m in fake.bot_messages(room) if int(m["id"]) >= int(first["id"])]

    await fake.wait_for(lambda: "Goblin119" in reply_parts()[-1]["content"])
    parts = reply_parts()
    assert len(parts) >= 2 and all(len(m["content"]) <= 2000 for m in parts)
    # fixed: one message now, the first edited, the rest deleted
    await fake.edit(room, post["id"], KAEL_ORDERS)
    await fake.wait_for(lambda: len(reply_parts()) == 1 and "Kael" in reply_parts()[0]["content"])
    assert reply_parts()[0]["id"] == first["id"]


async def test_a_post_while_time_is_called_is_explained(running, fake) -> None:
    await set_up_game(fake)
    await call_time(fake)
    post = await fake.post(fake.room["id"], fake.alice, KAEL_ORDERS)
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert "Time has been called" in reply["content"]


async def test_nothing_a_player_writes_pings_anyone(running, fake) -> None:
    await set_up_game(fake)
    post = await fake.post(fake.room["id"], fake.alice,
                           "@everyone look out!\n2 AP attack @everyone with Broadsword\n"
                           "1 AP attack <@123> with Broadsword")
    [reply] = await fake.wait_for(lambda: replies_to(fake, post))
    assert reply["allowed_mentions"] == {"parse": []}
    assert "@everyone" not in reply["content"] and "<@123>" not in reply["content"]


async def test_a_post_is_not_read_for_a_prefix_command(running, fake, monkeypatch) -> None:
    """The bot's commands are slash commands: a message is the turn posts' business only, not
    read for a `@bot command` prefix as `commands.Bot` reads every message."""
    looked: list[object] = []

    async def spy(message) -> None:
        looked.append(message)

    monkeypatch.setattr(running.bot, "process_commands", spy)
    await set_up_game(fake)
    post = await fake.post(fake.room["id"], fake.alice, KAEL_ORDERS)
    await fake.wait_for(lambda: replies_to(fake, post))
    assert looked == []

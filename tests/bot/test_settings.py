"""A game's settings and people from Discord, through the fake: `/game settings` shows them,
`/game set` changes one (a GM only; names autocompleted; a bad value one sentence), the reminder
times set are the ones the call-time loop sends (an injected clock); `/game remove` takes a
player or a GM out, never the last GM."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.bot.conftest import RunningBot
from tests.bot.table import run_command, set_up_game, text_of
from tests.bot.test_game import ManualClock
from tests.service.helpers import stored_game

pytestmark = pytest.mark.e2e


def setting(name: str, value: str) -> list[dict]:
    return [{"type": 3, "name": "name", "value": name},
            {"type": 3, "name": "value", "value": value}]


def user_option(user: dict) -> tuple[list[dict], dict]:
    return [{"type": 6, "name": "user", "value": user["id"]}], {"users": {user["id"]: user}}


async def test_settings_are_shown_and_changed_by_a_gm(running, fake) -> None:
    await set_up_game(fake)
    [shown] = await run_command(fake, fake.alice, "game settings")
    data = shown["callback"]["data"]
    assert data["flags"] & 64 and data["allowed_mentions"] == {"parse": []}
    assert "`reminders` = 12h, 1h" in data["content"]
    assert "`proxy_posts` = off" in data["content"]
    assert "`pips_enabled` = off" in data["content"]

    [refused] = await run_command(fake, fake.alice, "game set", setting("reminders", "5m"))
    assert refused["callback"]["data"]["flags"] & 64
    assert 'Only a GM of "Goblin Road"' in text_of([refused])

    [bad] = await run_command(fake, fake.gm, "game set", setting("reminders", "soonish"))
    assert bad["callback"]["data"]["flags"] & 64
    assert text_of([bad]).startswith('reminders: "soonish" is no duration')

    [done] = await run_command(fake, fake.gm, "game set", setting("Reminders", "30m, 5m"))
    assert done["callback"]["data"]["content"] == "`reminders` is now 30m, 5m."
    game = await running.services.games.show(running.bot.rooms._known[fake.room["id"]])
    assert (await stored_game(running.services, game.id)).settings.reminders == (
        timedelta(minutes=30), timedelta(minutes=5))


async def test_a_new_game_takes_the_hosts_reminder_times(running, fake) -> None:
    running.bot.settings.turns.reminders_minutes = [90, 15]
    text_of(await run_command(fake, fake.gm, "game create",
                              [{"type": 3, "name": "name", "value": "Goblin Road"}]))
    game = await running.services.games.find(fake.room["id"])
    assert (await stored_game(running.services, game.id)).settings.reminders == (
        timedelta(minutes=90), timedelta(minutes=15))


async def test_setting_names_are_autocompleted(running, fake) -> None:
    await set_up_game(fake)
    data = {"id": "1", "name": "game", "type": 1, "options": [
        {"type": 1, "name": "set", "options": [
            {"type": 3, "name": "name", "value": "remi", "focused": True},
            {"type": 3, "name": "value", "value": ""}]}]}
    interaction = await fake.interact(fake.gm, fake.room["id"], 4, data)
    [answer] = await fake.answered(interaction)
    assert [c["value"] for c in answer["callback"]["data"]["choices"]] == ["remind_by", "reminders"]


async def test_values_are_offered_by_the_setting_named(running, fake) -> None:
    await set_up_game(fake)

    async def offered(name: str, typed: str) -> list[str]:
        data = {"id": "1", "name": "game", "type": 1, "options": [
            {"type": 1, "name": "set", "options": [
                {"type": 3, "name": "name", "value": name},
                {"type": 3, "name": "value", "value": typed, "focused": True}]}]}
        interaction = await fake.interact(fake.gm, fake.room["id"], 4, data)
        [answer] = await fake.answered(interaction)
        return [c["value"] for c in answer["callback"]["data"]["choices"]]

    assert await offered("proxy_posts", "") == ["off", "on"]
    assert await offered("results_visibility", "p") == ["parties", "public"]
    assert await offered("reminders", "") == ["12h, 1h"]  # its value now, to edit
    assert await offered("no such thing", "") == []


async def test_the_reminder_times_set_are_the_ones_the_loop_sends(fake, tmp_path) -> None:
    clock = ManualClock()
    running = RunningBot(fake, tmp_path / "data", clock=clock)
    await running.start()
    room = fake.room["id"]
    try:
        await set_up_game(fake)
        text_of(await run_command(fake, fake.gm, "game set", setting("reminders", "30m")))
        text_of(await run_command(fake, fake.gm, "turn calltime",
                                  [{"type": 3, "name": "in", "value": "60m"}]))
        # by the default times (12h, 1h) nothing would remind before this deadline
        clock.at += timedelta(minutes=31)
        [reminder] = await fake.wait_for(lambda: [
            m for m in fake.bot_messages(room) if m["content"].startswith("Reminder: turn 1")])
        assert "Kael" in reminder["content"]
        # the game's default `remind_by` is a ping: the missing player, and only them
        assert reminder["content"].endswith(f"\n<@{fake.alice['id']}>")
        assert [str(u) for u in reminder["allowed_mentions"]["users"]] == [fake.alice["id"]]
    finally:
        await running.stop()


async def test_a_gm_removes_a_player_and_a_gm_but_never_the_last_gm(running, fake) -> None:
    await set_up_game(fake)
    gm, alice, bob = fake.gm, fake.alice, fake.bob
    options, resolved = user_option(bob)
    text_of(await run_command(fake, gm, "game player", options, resolved))
    text_of(await run_command(fake, gm, "game gm", user_option(alice)[0],
                              user_option(alice)[1]))

    [refused] = await run_command(fake, bob, "game remove", options, resolved)
    assert refused["callback"]["data"]["flags"] & 64
    assert "Only a GM" in text_of([refused])

    [removed] = await run_command(fake, gm, "game remove", options, resolved)
    assert removed["callback"]["data"]["content"] == \
        f"<@{bob['id']}> is no longer a player of Goblin Road."
    assert removed["callback"]["data"]["allowed_mentions"] == {"parse": []}

    options, resolved = user_option(alice)
    [removed] = await run_command(fake, gm, "game remove",
                                  [*options, {"type": 3, "name": "role", "value": "gm"}],
                                  resolved)
    assert "is no longer a GM of Goblin Road" in text_of([removed])
    options, resolved = user_option(gm)
    [last] = await run_command(fake, gm, "game remove",
                               [*options, {"type": 3, "name": "role", "value": "gm"}], resolved)
    assert last["callback"]["data"]["flags"] & 64
    assert text_of([last]) == "A game needs at least one GM; add another GM first."
    game = await running.services.games.show(running.bot.rooms._known[fake.room["id"]])
    assert game.gms == (gm["id"],) and bob["id"] not in game.players

"""The Xp dice pools on the bot through the fake Discord: `/odds` for anyone, privately
or in the room; the GM's `/xp` rolls, every die shown in the room; a Passive roll and the GM's view
of an Active roll or a PLOT only to the GM; every record (and its case file) for the GMs only,
refused to a player with the service's sentence."""

from __future__ import annotations

import pytest
import yaml

from tests.bot.table import run_command, text_of

pytestmark = pytest.mark.e2e

EPHEMERAL = 64


def _opt(name, value, kind=3):
    return {"type": kind, "name": name, "value": value}


def _data(response):
    return response.get("callback", {}).get("data") or response.get("followup") or {}


async def _plot(fake, user, sub, options=None, responses=1):
    """`/xp plot SUB`: a subcommand of a subcommand group (the fake's `command` takes two
    words)."""
    data = {"id": str(fake.snowflake()), "name": "xp", "type": 1, "options": [
        {"type": 2, "name": "plot", "options": [
            {"type": 1, "name": sub, "options": options or []}]}]}
    interaction = await fake.interact(user, fake.room["id"], 2, data)
    return await fake.answered(interaction, responses)


async def _xp_game(fake):
    created = text_of(await run_command(fake, fake.gm, "game create", [
        _opt("name", "Sands of Aegyptvs"), _opt("ruleset", "xp")]))
    assert "Sands of Aegyptvs" in created, created
    alice = fake.alice
    text_of(await run_command(fake, fake.gm, "game player", [_opt("user", alice["id"], 6)],
                              {"users": {alice["id"]: alice}}))


async def test_odds_for_anyone_privately_or_in_the_room(running, fake) -> None:
    [answer] = await run_command(fake, fake.alice, "odds", [_opt("dice", "6d superior")])
    data = _data(answer)
    assert data["flags"] & EPHEMERAL
    assert data["content"].startswith("```\n6d at Superior (3-6), heroic, need 1\n")
    [public] = await run_command(fake, fake.alice, "odds", [
        _opt("dice", "3"), _opt("npc", True, 5), _opt("need", 2, 4), _opt("public", True, 5)])
    assert not _data(public).get("flags", 0) & EPHEMERAL
    assert "3d at Normal (5-6), not heroic, need 2" in _data(public)["content"]
    [long] = await run_command(fake, fake.alice, "odds", [_opt("dice", "100d")])
    assert len(_data(long)["content"]) <= 2000 and "fumble" in _data(long)["content"]
    ((name, table),) = long["callback"]["_files"].items()
    assert name == "odds.txt" and bytes(table).decode().count("\n") > 40
    [bad] = await run_command(fake, fake.alice, "odds", [_opt("dice", "6d mighty")])
    assert _data(bad)["flags"] & EPHEMERAL
    assert _data(bad)["content"].startswith("Unknown superiority level")


async def test_gm_rolls_show_every_die_and_players_are_refused(running, fake) -> None:
    await _xp_game(fake)
    [refused] = await run_command(fake, fake.alice, "xp roll", [
        _opt("name", "Aster"), _opt("dice", "6d superior")])
    assert _data(refused)["flags"] & EPHEMERAL
    assert _data(refused)["content"] == 'Only a GM of "Sands of Aegyptvs" can do that.'
    [rolled] = await run_command(fake, fake.gm, "xp roll", [
        _opt("name", "@everyone"), _opt("dice", "6d superior")])
    data = _data(rolled)
    assert not data.get("flags", 0) & EPHEMERAL
    assert "6d at Superior (3-6): [" in data["content"] and "-# roll " in data["content"]
    assert "@everyone" not in data["content"] and data["allowed_mentions"] == {"parse": []}
    [group] = await run_command(fake, fake.gm, "xp group", [
        _opt("kind", "collateral"), _opt("rollers", "Aster 6d, Brin 4d, Cato 3d npc")])
    assert _data(group)["content"].startswith(
        "Collateral group roll, need 1 (Aster, Brin, Cato):")


async def test_passive_and_active_keep_the_stored_successes_from_the_room(running, fake) -> None:
    await _xp_game(fake)
    [passive] = await run_command(fake, fake.gm, "xp passive", [
        _opt("name", "Lock"), _opt("dice", "5d")])
    assert _data(passive)["flags"] & EPHEMERAL
    assert "Stored successes:" in _data(passive)["content"]
    room, mine = await run_command(fake, fake.gm, "xp active", [
        _opt("against", "Lock"), _opt("name", "Aster"), _opt("dice", "4d")], responses=2)
    assert not _data(room).get("flags", 0) & EPHEMERAL
    assert "Lock" in _data(room)["content"] and "stored" not in _data(room)["content"]
    assert _data(mine)["flags"] & EPHEMERAL and "(stored " in _data(mine)["content"]


async def test_a_plot_hides_the_gms_surprises_from_the_room(running, fake) -> None:
    import dataclasses

    await _xp_game(fake)
    plots = running.services.xp_plots  # a known seed: 8 plot points, 13 GM points
    plots.deps = dataclasses.replace(plots.deps, salts=lambda: "salt0001")
    room, mine = await _plot(fake, fake.gm, "open", [
        _opt("goal", "Open the gate"), _opt("leader", "Aster 30d"), _opt("gm_dice", 30, 4),
        _opt("tasks", "sneak, open gate"), _opt("surprises", "gate commander")], responses=2)
    assert "PLOT: Open the gate" in _data(room)["content"]
    assert "gate commander" not in _data(room)["content"]
    assert "Hidden surprises (GM only): gate commander" in _data(mine)["content"]
    [auto] = await _plot(fake, fake.gm, "auto", [_opt("task", "sneak")])
    assert "1. sneak: passed with a plot point" in _data(auto)["content"]
    assert "Plot points 7, GM points 13." in _data(auto)["content"]
    [early] = await _plot(fake, fake.gm, "play", [
        _opt("task", "gate commander"), _opt("success", True, 5)])
    assert "hidden task the GM has not played yet" in _data(early)["content"]
    # autocomplete: the tasks still to play, and the GM's unused surprises, to the GM only
    for user, option, sub, expected in ((fake.gm, "task", "play", ["open gate"]),
                                        (fake.gm, "task", "surprise", ["gate commander"]),
                                        (fake.alice, "task", "play", [])):
        data = {"id": "1", "name": "xp", "type": 1, "options": [
            {"type": 2, "name": "plot", "options": [
                {"type": 1, "name": sub, "options": [
                    {"type": 3, "name": option, "value": "", "focused": True}]}]}]}
        [answer] = await fake.answered(await fake.interact(user, fake.room["id"], 4, data))
        assert [c["value"] for c in answer["callback"]["data"]["choices"]] == expected
    [shown] = await _plot(fake, fake.alice, "show")
    assert _data(shown)["content"].startswith("Only a GM")


async def test_the_records_are_the_gms(running, fake) -> None:
    await _xp_game(fake)
    text_of(await run_command(fake, fake.gm, "xp roll", [_opt("name", "Aster"),
                                                          _opt("dice", "4d")]))
    [listed] = await run_command(fake, fake.gm, "xp rolls")
    assert _data(listed)["flags"] & EPHEMERAL
    short = _data(listed)["content"].split("\n")[1].split()[0]
    # autocomplete offers the game's rolls to the GM, nothing to a player
    for user, expected in ((fake.gm, 1), (fake.alice, 0)):
        data = {"id": "1", "name": "xp", "type": 1, "options": [
            {"type": 1, "name": "show", "options": [
                {"type": 3, "name": "roll", "value": "", "focused": True}]}]}
        interaction = await fake.interact(user, fake.room["id"], 4, data)
        [answer] = await fake.answered(interaction)
        choices = answer["callback"]["data"]["choices"]
        assert len(choices) == expected
        if expected:
            assert choices[0]["value"].startswith(short)
    [shown] = await run_command(fake, fake.gm, "xp show", [_opt("roll", short)])
    assert _data(shown)["content"].startswith("Aster: 4d at Normal (5-6)")
    assert "Seed " in _data(shown)["content"]
    [case] = await run_command(fake, fake.gm, "xp case", [_opt("roll", short)])
    ((name, body),) = case["callback"]["_files"].items()
    loaded = yaml.safe_load(bytes(body).decode())["cases"][0]
    assert name == f"{loaded['id']}.yaml" and loaded["kind"] == "xp-roll"
    [refused] = await run_command(fake, fake.alice, "xp show", [_opt("roll", short)])
    assert _data(refused)["content"].startswith("Only a GM")


async def test_the_xp_commands_are_published(running, fake) -> None:
    names = {c["name"]: [o["name"] for o in c.get("options") or []] for c in fake.commands}
    assert names["xp"] == ["plot", "roll", "passive", "active", "group", "reroll", "augment",
                          "event", "rank", "rolls", "show", "case"]
    assert "odds" in names
    plot = next(o for c in fake.commands if c["name"] == "xp" for o in c["options"]
                if o["name"] == "plot")
    assert [o["name"] for o in plot["options"]] == ["open", "auto", "play", "surprise", "show"]


async def test_an_xp_games_flags_are_offered_set_and_played_on_the_bot(running, fake) -> None:
    """`/game set` in an Xp game's room offers the xp_* flags (not FAPPO's), takes them, and the
    room's `/odds` and `/xp roll` play them; FAPPO's flags are refused with a sentence."""
    await _xp_game(fake)

    async def names(typed: str) -> list[str]:
        data = {"id": "1", "name": "game", "type": 1, "options": [
            {"type": 1, "name": "set", "options": [
                {"type": 3, "name": "name", "value": typed, "focused": True},
                {"type": 3, "name": "value", "value": ""}]}]}
        interaction = await fake.interact(fake.gm, fake.room["id"], 4, data)
        [answer] = await fake.answered(interaction)
        return [c["value"] for c in answer["callback"]["data"]["choices"]]

    assert "xp_heroic_default" in await names("xp_")
    assert await names("pips") == []
    [pips] = await run_command(fake, fake.gm, "game set", [_opt("name", "pips_enabled"),
                                                           _opt("value", "on")])
    assert "not played in an Xp game" in text_of([pips])
    [done] = await run_command(fake, fake.gm, "game set", [_opt("name", "xp_heroic_default"),
                                                           _opt("value", "none")])
    assert _data(done)["content"] == "`xp_heroic_default` is now none."
    [odds] = await run_command(fake, fake.alice, "odds", [_opt("dice", "4d")])
    assert _data(odds)["content"].startswith("```\n4d at Normal (5-6), not heroic, need 1\n")
    rolled = text_of(await run_command(fake, fake.gm, "xp roll", [
        _opt("name", "Aster"), _opt("dice", "4d")]))
    assert "Aster: 4d at Normal (5-6), not heroic: [" in rolled

"""Games: create in a channel, members, R2 flags and settings, status, the audit log."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules.config import NuisanceCountMode
from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.games import GameService
from fappo_bot.service.records import GameStatus, Role
from fappo_bot.service.rulesets.known import KNOWN
from tests.service.conftest import ALICE, BOB, GM
from tests.service.helpers import actions, snapshot, stored_game


async def test_create_a_game_with_its_gms_and_rules_flags(services):
    game = await services.games.create(
        channel_key="thread-9", guild_key="guild-1", name="  Goblin Road ", creator=GM,
        gms=["gm-2"], rules={"nuisance_count_mode": "level_rank", "inactive_threshold": 2},
        settings={"tournament": True},
    )
    assert game.name == "Goblin Road"
    assert set(game.gms) == {GM, "gm-2"}
    # no ruleset named: the registry's first, FAPPO, and the R2 flags its GMs set are its own
    assert (game.ruleset, game.flags) == ("fappo", KNOWN["fappo"].flags)
    stored = await stored_game(services, game.id)
    assert stored.rules.nuisance_count_mode is NuisanceCountMode.LEVEL_RANK
    assert stored.rules.inactive_threshold == 2
    assert stored.settings.tournament
    assert (await services.games.find("thread-9")).id == game.id
    assert await actions(services.deps.uow_factory, game.id) == ["game.create"]


async def test_a_new_game_plays_the_first_ruleset_the_bot_knows(services):
    """The default is the registry's order, not a name written in the service."""
    games = GameService(replace(services.deps, rulesets={"xp": KNOWN["xp"], **KNOWN}))
    game = await games.create(channel_key="c1", name="A", creator=GM)
    assert (game.ruleset, game.dice_pools, game.flags) == ("xp", True, KNOWN["xp"].flags)


async def test_one_game_per_channel(services, uow_factory):
    await services.games.create(channel_key="c1", name="A", creator=GM)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="already a game in this channel"):
        await services.games.create(channel_key="c1", name="B", creator=GM)
    assert await snapshot(uow_factory) == before


async def test_bad_flags_are_all_named_and_nothing_is_created(services, uow_factory):
    with pytest.raises(InvalidInput) as caught:
        await services.games.create(channel_key="c1", name="A", creator=GM,
                                    rules={"inactive_threshold": 0, "no_such_flag": True})
    text = str(caught.value)
    assert "inactive_threshold" in text and "no_such_flag" in text
    for ruleset in ("gurps", ""):  # an empty name is no ruleset, not the default
        with pytest.raises(InvalidInput, match="ruleset"):
            await services.games.create(channel_key="c1", name="A", creator=GM, ruleset=ruleset)
    assert (await snapshot(uow_factory))["games"] == []


async def test_members_are_added_and_removed_by_a_gm_only(services, uow_factory):
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    view = await services.games.add_member(game.id, GM, ALICE, Role.PLAYER)
    assert view.players == (ALICE,)
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.games.add_member(game.id, ALICE, BOB, Role.PLAYER)
    with pytest.raises(Conflict, match="at least one GM"):
        await services.games.remove_member(game.id, GM, GM, Role.GM)
    with pytest.raises(Conflict, match="not a player"):
        await services.games.remove_member(game.id, GM, BOB, Role.PLAYER)
    assert await snapshot(uow_factory) == before
    view = await services.games.remove_member(game.id, GM, ALICE, Role.PLAYER)
    assert view.players == ()
    assert [g.id for g in await services.games.games_of(GM)] == [game.id]


async def test_configure_changes_flags_and_settings_or_nothing(services, uow_factory):
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    await services.games.configure(game.id, GM, rules={"pips_enabled": True},
                                   settings={"results_visibility": "public"})
    stored = await stored_game(services, game.id)
    assert stored.rules.pips_enabled and stored.settings.results_visibility.value == "public"
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput) as caught:
        await services.games.configure(game.id, GM, rules={"pips_enabled": "maybe"},
                                       settings={"scene": "x"})
    assert "pips_enabled" in str(caught.value) and "scene" in str(caught.value)
    with pytest.raises(Forbidden):
        await services.games.configure(game.id, ALICE, rules={"pips_enabled": False})
    assert await snapshot(uow_factory) == before


async def test_status_pause_resume_end(services):
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    assert (await services.games.set_status(game.id, GM, GameStatus.PAUSED)).status \
        is GameStatus.PAUSED
    with pytest.raises(Conflict, match="paused"):
        await services.turns.open(game.id, GM)
    await services.games.set_status(game.id, GM, GameStatus.ACTIVE)
    await services.games.set_status(game.id, GM, GameStatus.ENDED)
    with pytest.raises(Conflict, match="ended"):
        await services.games.set_status(game.id, GM, GameStatus.ACTIVE)
    assert (await services.games.show(game.id)).status is GameStatus.ENDED


async def test_unknown_game_and_channel(services):
    with pytest.raises(NotFound, match="no such game"):
        await services.games.show("nope")
    with pytest.raises(NotFound, match="no game in this channel"):
        await services.games.find("nowhere")


async def test_the_audit_log_is_for_gms(services):
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    await services.games.add_member(game.id, GM, ALICE, Role.PLAYER)
    log = await services.games.audit_log(game.id, GM)
    assert [(e.actor, e.action) for e in log] == [(GM, "game.create"), (GM, "member.add")]
    assert log[1].detail == {"user": ALICE, "role": "player"}
    with pytest.raises(Forbidden):
        await services.games.audit_log(game.id, ALICE)


async def test_the_game_listing_filters_by_channel_prefix(services):
    from tests.service.conftest import GM

    table_game = await services.games.create(channel_key="table:one", name="One", creator=GM)
    other = await services.games.create(channel_key="guild-1/chan-2", name="Two", creator=GM)
    assert [g.id for g in await services.games.listing("table:")] == [table_game.id]
    assert [g.id for g in await services.games.listing()] == [table_game.id, other.id]

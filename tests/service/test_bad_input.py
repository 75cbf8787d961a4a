"""Bad input at every use case gets a specific error and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.rules.advancement import Purchase, PurchaseKind
from fappo_bot.service import (
    Conflict,
    Forbidden,
    NotFound,
    SceneGap,
    ServiceError,
)
from fappo_bot.service.records import GameStatus, Role
from tests.service.conftest import ALICE, BOB, EVE, GM, sheet
from tests.service.helpers import snapshot

NOPE = "no-such-game"


def every_use_case(s, game):
    """(label, call) for every use case that names a game, with `game` as its game."""
    raise_ = Purchase(kind=PurchaseKind.SKILL, name="Stealth")
    return [
        ("games.show", lambda: s.games.show(game)),
        ("games.add_member", lambda: s.games.add_member(game, GM, EVE, Role.PLAYER)),
        ("games.remove_member", lambda: s.games.remove_member(game, GM, ALICE, Role.PLAYER)),
        ("games.configure", lambda: s.games.configure(game, GM, rules={"pips_enabled": True})),
        ("games.set_status", lambda: s.games.set_status(game, GM, GameStatus.PAUSED)),
        ("games.settings", lambda: s.games.settings(game)),
        ("games.set_setting", lambda: s.games.set_setting(game, GM, "tournament", "on")),
        ("games.audit_log", lambda: s.games.audit_log(game, GM)),
        ("characters.create", lambda: s.characters.create(game, ALICE, sheet("Bran"))),
        ("characters.add_enemy", lambda: s.characters.add_enemy(game, GM, sheet("Rats"))),
        ("characters.show", lambda: s.characters.show(game, "Kael")),
        ("characters.list", lambda: s.characters.list(game)),
        ("characters.edit", lambda: s.characters.edit(game, GM, "Kael", sheet("Kael"))),
        ("characters.set_count", lambda: s.characters.set_count(game, GM, "Goblins", 3)),
        ("characters.retire", lambda: s.characters.retire(game, ALICE, "Kael")),
        ("characters.transfer", lambda: s.characters.transfer(game, GM, "Kael", BOB)),
        ("characters.npcize", lambda: s.characters.npcize(game, GM, "Kael")),
        ("characters.mark_inactive", lambda: s.characters.mark_inactive(game, GM, "Kael")),
        ("characters.restore_control", lambda: s.characters.restore_control(game, GM, "Kael")),
        ("turns.open", lambda: s.turns.open(game, GM)),
        ("turns.post", lambda: s.turns.post(game, ALICE, channel_key="c1", message_key="x",
                                            text="3 AP defend")),
        ("turns.edit", lambda: s.turns.edit(game, ALICE, channel_key="c1", message_key="x",
                                            text="3 AP defend")),
        ("turns.delete", lambda: s.turns.delete(game, ALICE, channel_key="c1",
                                                message_key="x")),
        ("turns.pass_turn", lambda: s.turns.pass_turn(game, ALICE)),
        ("turns.status", lambda: s.turns.status(game)),
        ("turns.seal", lambda: s.turns.seal(game, GM)),
        ("turns.reveal", lambda: s.turns.reveal(game, 1)),
        ("calltime.set_deadline", lambda: s.calltime.set_deadline(game, GM,
                                                                  after=timedelta(hours=1))),
        ("calltime.extend", lambda: s.calltime.extend(game, GM, timedelta(hours=1))),
        ("calltime.pause", lambda: s.calltime.pause(game, GM)),
        ("calltime.resume", lambda: s.calltime.resume(game, GM)),
        ("calltime.close", lambda: s.calltime.close(game, GM)),
        ("calltime.reopen", lambda: s.calltime.reopen(game, GM)),
        ("review.review", lambda: s.review.review(game, GM)),
        ("review.answer", lambda: s.review.answer(game, GM, {})),
        ("review.set_inputs", lambda: s.review.set_inputs(game, GM, end_combat=True)),
        ("resolution.resolve", lambda: s.resolution.resolve(game, GM, 1)),
        ("resolution.undo", lambda: s.resolution.undo(game, GM)),
        ("aftermath.end_scene", lambda: s.aftermath.end_scene(game, GM, SceneGap.NIGHT)),
        ("aftermath.end_adventure", lambda: s.aftermath.end_adventure(game, GM, {"Kael": 1})),
        ("aftermath.spend_cc", lambda: s.aftermath.spend_cc(game, ALICE, "Kael", raise_)),
        ("traits.add", lambda: s.traits.add(game, GM, "Keen-eyed")),
        ("traits.remove", lambda: s.traits.remove(game, GM, "Keen-eyed")),
        ("traits.list", lambda: s.traits.list(game)),
    ]


async def test_an_unknown_game_is_not_found_everywhere(services, table, uow_factory):
    before = await snapshot(uow_factory)
    for label, call in every_use_case(services, NOPE):
        with pytest.raises(NotFound) as caught:
            await call()
        assert "game" in str(caught.value).casefold(), label
    assert await snapshot(uow_factory) == before


GM_ONLY = {
    "games.add_member", "games.remove_member", "games.configure", "games.set_status",
    "games.set_setting",
    "games.audit_log", "characters.add_enemy", "characters.edit", "characters.set_count",
    "characters.transfer", "characters.npcize", "characters.mark_inactive",
    "characters.restore_control", "turns.open", "turns.seal", "calltime.set_deadline",
    "calltime.extend", "calltime.pause", "calltime.resume", "calltime.close",
    "calltime.reopen", "review.review", "review.answer", "review.set_inputs",
    "resolution.resolve", "resolution.undo", "aftermath.end_scene", "aftermath.end_adventure",
    "traits.add", "traits.remove",
}


async def test_gm_commands_refuse_players_and_strangers(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    for user in (ALICE, EVE):
        as_user = every_use_case(services, game)
        for label, _ in as_user:
            if label not in GM_ONLY:
                continue
            call = _as(services, game, label, user)
            with pytest.raises(Forbidden):
                await call()
    assert await snapshot(uow_factory) == before


def _as(s, game, label, user):
    """The same use case called by `user` instead of the GM."""
    calls = {
        "games.add_member": lambda: s.games.add_member(game, user, EVE, Role.PLAYER),
        "games.remove_member": lambda: s.games.remove_member(game, user, ALICE, Role.PLAYER),
        "games.configure": lambda: s.games.configure(game, user, rules={"pips_enabled": True}),
        "games.set_status": lambda: s.games.set_status(game, user, GameStatus.PAUSED),
        "games.set_setting": lambda: s.games.set_setting(game, user, "tournament", "on"),
        "games.audit_log": lambda: s.games.audit_log(game, user),
        "characters.add_enemy": lambda: s.characters.add_enemy(game, user, sheet("Rats")),
        "characters.edit": lambda: s.characters.edit(game, user, "Kael", sheet("Kael")),
        "characters.set_count": lambda: s.characters.set_count(game, user, "Goblins", 3),
        "characters.transfer": lambda: s.characters.transfer(game, user, "Kael", BOB),
        "characters.npcize": lambda: s.characters.npcize(game, user, "Kael"),
        "characters.mark_inactive": lambda: s.characters.mark_inactive(game, user, "Kael"),
        "characters.restore_control": lambda: s.characters.restore_control(game, user, "Kael"),
        "turns.open": lambda: s.turns.open(game, user),
        "turns.seal": lambda: s.turns.seal(game, user),
        "calltime.set_deadline": lambda: s.calltime.set_deadline(game, user,
                                                                 after=timedelta(hours=1)),
        "calltime.extend": lambda: s.calltime.extend(game, user, timedelta(hours=1)),
        "calltime.pause": lambda: s.calltime.pause(game, user),
        "calltime.resume": lambda: s.calltime.resume(game, user),
        "calltime.close": lambda: s.calltime.close(game, user),
        "calltime.reopen": lambda: s.calltime.reopen(game, user),
        "review.review": lambda: s.review.review(game, user),
        "review.answer": lambda: s.review.answer(game, user, {}),
        "review.set_inputs": lambda: s.review.set_inputs(game, user, end_combat=True),
        "resolution.resolve": lambda: s.resolution.resolve(game, user, 1),
        "resolution.undo": lambda: s.resolution.undo(game, user),
        "aftermath.end_scene": lambda: s.aftermath.end_scene(game, user, SceneGap.NIGHT),
        "aftermath.end_adventure": lambda: s.aftermath.end_adventure(game, user, {"Kael": 1}),
        "traits.add": lambda: s.traits.add(game, user, "Keen-eyed"),
        "traits.remove": lambda: s.traits.remove(game, user, "Keen-eyed"),
    }
    return calls[label]


async def test_a_retired_character_takes_no_part(services, table, uow_factory):
    game = table["game"]
    await services.characters.retire(game, ALICE, "Kael")
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Kael cannot take orders"):
        await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                  text="3 AP defend")
    for call in (lambda: services.characters.npcize(game, GM, "Kael"),
                 lambda: services.characters.edit(game, GM, "Kael", sheet("Kael")),
                 lambda: services.aftermath.spend_cc(
                     game, ALICE, "Kael", Purchase(kind=PurchaseKind.SKILL, name="Stealth"))):
        with pytest.raises(Conflict, match="retired"):
            await call()
    assert await snapshot(uow_factory) == before
    reply = await services.turns.post(game, GM, channel_key="c1", message_key="g1",
                                      text="**Skarg**\n2 AP attack Kael")
    assert not reply.ok  # Kael is no longer in the scene


async def test_every_refusal_is_a_service_error_with_a_sentence(services, table):
    game = table["game"]
    await services.calltime.close(game, GM)
    for label, call in every_use_case(services, game):
        try:
            await call()
        except ServiceError as exc:
            text = str(exc)
            assert text and text[0].isupper() and "Traceback" not in text, label

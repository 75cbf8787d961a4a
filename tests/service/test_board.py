"""A game's turn board (`TurnService.board`): what the board and `/turn status` show, read in
one transaction and only that, the same as the game's view and the turn's whole status say."""

from __future__ import annotations

from datetime import timedelta

import pytest

from fappo_bot.service import NotFound
from fappo_bot.service.board_views import BoardView
from fappo_bot.service.errors import NoOpenTurn
from tests.service.conftest import ALICE, BOB, GM

KAEL_ATTACK = "Kael swings.\n2 AP attack Goblins with Broadsword\n1 AP defend"
NPC_ORDERS = "**Skarg**\n2 AP attack Kael with Broadsword\n**Goblins**\n1 AP attack Kael"


async def board(services, game) -> BoardView:
    """The board, checked against what the game's view and the whole status say of it, and
    against `/turn status`'s one read of both (`status_board`)."""
    found = await services.turns.board(game)
    status = await services.turns.status(game)
    assert found == BoardView.of(await services.games.show(game), status)
    assert await services.turns.status_board(game, ALICE) == (status, found, False)
    return found


async def test_the_board_follows_posts_passes_absences_and_the_seal(services, table, clock):
    game = table["game"]
    opened = await board(services, game)
    assert (opened.name, opened.channel_key, opened.has_npc_seal) == ("Goblin Road", "c1", True)
    assert (opened.posted, opened.passed, opened.away, opened.missing) == (
        (), (), (), ("Kael", "Mira"))
    assert not opened.npc_sealed and opened.deadline_moved is None
    await services.pace.away(ALICE, None, clock.now() + timedelta(days=3))
    await services.turns.pass_turn(game, BOB)
    away = await board(services, game)
    assert (away.posted, away.passed, away.away, away.missing) == ((), ("Mira",), ("Kael",), ())
    await services.pace.back(ALICE)
    reply = await services.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                                      text=KAEL_ATTACK)
    assert reply.ok, reply.reply
    # the GM's post names several NPCs: each one's orders are read once, the player's as before
    npcs = await services.turns.post(game, GM, channel_key="c1", message_key="m2",
                                     text=NPC_ORDERS)
    assert npcs.ok, npcs.reply
    await services.turns.seal(game, GM)
    sealed = await board(services, game)
    assert (sealed.posted, sealed.passed, sealed.away, sealed.missing) == (
        ("Kael",), ("Mira",), (), ())
    assert sealed.npc_sealed


async def test_a_game_without_a_turn_has_no_board(services):
    game = await services.games.create(channel_key="c9", name="Quiet Road", creator=GM)
    assert await services.turns.board(game.id) is None


async def test_the_board_names_only_the_active_characters_players_run(services, table):
    game = table["game"]
    await services.characters.npcize(game, GM, "Kael")  # the GMs give its orders now
    await services.characters.retire(game, GM, "Mira")
    gone = await board(services, game)
    assert (gone.posted, gone.passed, gone.away, gone.missing) == ((), (), (), ())
    await services.characters.restore_control(game, GM, "Kael")
    back = await board(services, game)
    assert back.missing == ("Kael",)


async def test_turn_status_reads_once_and_knows_the_gm(services, table):
    """`/turn status`'s read: the whole status and the board in one transaction, and whether
    the reader is a GM (who may ping); no turn yet is the status's refusal."""
    game = table["game"]
    read = await services.turns.status_board(game, GM)
    assert read.gm and read.status == await services.turns.status(game)
    assert read.board == await services.turns.board(game)
    quiet = await services.games.create(channel_key="c9", name="Quiet Road", creator=GM)
    with pytest.raises(NoOpenTurn, match="No turn has been opened yet"):
        await services.turns.status_board(quiet.id, GM)
    with pytest.raises(NotFound):
        await services.turns.status_board("no-such-game", GM)

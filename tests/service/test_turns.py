"""Posting (F29): posts recorded whole or not at all, edits, deletes, passes, secret orders, the
NPC seal and who is in."""

from __future__ import annotations

import hashlib

import pytest

from fappo_bot.service import Conflict, Forbidden, InvalidInput, NoOpenTurn, NotFound
from fappo_bot.service.records import TurnStatus
from fappo_bot.service.views import PostOutcome
from tests.service.conftest import ALICE, BOB, CAROL, EVE, GM
from tests.service.helpers import actions, snapshot, stored_orders

KAEL_ATTACK = "Kael swings.\n2 AP attack Goblins with Broadsword\n1 AP defend"
NPC_ORDERS = "**Skarg**\n2 AP attack Kael with Broadsword\n**Goblins**\n1 AP attack Kael"


async def post(services, game, user, key, text, **kw):
    return await services.turns.post(game, user, channel_key=kw.pop("channel", "c1"),
                                     message_key=key, text=text, **kw)


async def test_a_valid_post_is_stored_and_answered_with_the_orders(services, table, uow_factory):
    game = table["game"]
    reply = await post(services, game, ALICE, "m1", KAEL_ATTACK)
    assert reply.ok and reply.turn == 1 and reply.revision == 1
    assert "Kael: 3/3 AP committed" in reply.reply
    assert reply.characters == ("Kael",)
    (order,) = await stored_orders(uow_factory, reply.post_id)
    assert [a.kind.value for a in order.actions] == ["attack", "defend"]
    status = await services.turns.status(game)
    assert status.posted == ("Kael",) and status.missing == ("Mira",)
    assert await actions(uow_factory, game) == ["game.create"] + ["member.add"] * 3 + [
        "character.create"] * 4 + ["turn.open", "post.create"]


async def test_a_post_with_problems_records_nothing_and_lists_every_problem(
    services, table, uow_factory
):
    """spec/posting.md: "A post is recorded whole or not at all"."""
    game = table["game"]
    before = await snapshot(uow_factory)
    reply = await post(services, game, ALICE, "m1", "2 AP attack Gobbo\n9 AP defend")
    assert not reply.ok and reply.characters == ()
    assert len(reply.problems) == 2
    assert "nothing is recorded" in reply.reply
    assert await snapshot(uow_factory) == before
    # the edit of a message that was never recorded is taken as a new post
    fixed = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                      text=KAEL_ATTACK)
    assert fixed.ok and fixed.revision == 1


async def test_a_player_cannot_post_for_someone_elses_character(services, table, uow_factory):
    game = table["game"]
    before = await snapshot(uow_factory)
    reply = await post(services, game, BOB, "m1", "Character: Kael\n2 AP attack Goblins")
    assert not reply.ok and 'anyone called "Kael"' in reply.reply
    with pytest.raises(Forbidden, match="no character in this game"):
        await post(services, game, CAROL, "m2", "1 AP defend")
    with pytest.raises(Forbidden, match="not in the game"):
        await post(services, game, EVE, "m3", "1 AP defend")
    with pytest.raises(NotFound):
        await post(services, "nope", ALICE, "m4", "1 AP defend")
    assert await snapshot(uow_factory) == before


class OrdersFor:
    """A stand-in post language that reads every post as orders for one named actor."""

    def __init__(self, actor):
        self.actor = actor

    def read(self, text, state, poster, controls, traits=None):
        from fappo_bot.rules.orders import Action, ActionKind, Order
        from fappo_bot.service import ReadPost

        order = Order(actor=self.actor, actions=(Action(kind=ActionKind.DEFEND, ap=1),))
        return ReadPost((order,), (), "ok")

    def results(self, result, audience=None):
        return "results"

    def replaced(self, earlier, now, state):
        return "replaced"


@pytest.mark.parametrize(("actor", "error"), [("Kael", Forbidden), ("Nobody", NotFound)])
async def test_the_service_itself_refuses_orders_for_characters_the_poster_does_not_run(
    services, table, uow_factory, actor, error
):
    """Defence in depth: whatever the parser returns, Bob gives only Mira's orders."""
    from fappo_bot.service import Services

    game = table["game"]
    other = Services(uow_factory, clock=services.deps.clock, text=OrdersFor(actor))
    before = await snapshot(uow_factory)
    with pytest.raises(error, match=actor):
        await other.turns.post(game, BOB, channel_key="c1", message_key="m1", text="x")
    assert await snapshot(uow_factory) == before


async def test_edits_replace_the_orders_and_a_bad_edit_changes_nothing(
    services, table, uow_factory
):
    """F29 Amb-2: "allowed until calltime; the last version counts"."""
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    edited = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                       text="3 AP defend")
    assert edited.ok and edited.revision == 2
    (order,) = await stored_orders(uow_factory, edited.post_id)
    assert edited.characters == ("Kael",) and [a.kind.value for a in order.actions] == ["defend"]
    before = await snapshot(uow_factory)
    bad = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                    text="3 AP attack Gobbo")
    assert not bad.ok and bad.problems
    assert bad.characters == ("Kael",)  # its orders still in force
    with pytest.raises(Forbidden, match="author"):
        await services.turns.edit(game, BOB, channel_key="c1", message_key="m1", text="x")
    assert await snapshot(uow_factory) == before
    async with uow_factory() as uow:
        stored = await uow.posts.by_message("c1", "m1")
        revisions = await uow.posts.revisions(stored.id)
    assert [r.number for r in revisions] == [1, 2]
    assert revisions[0].text == KAEL_ATTACK


async def test_f29_amb3_the_last_written_order_of_a_character_wins(services, table, clock):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    clock.advance(minutes=1)
    await post(services, game, ALICE, "m2", "3 AP defend")
    review = await services.review.review(game, GM)
    assert all(i.actor != "Kael" or i.field != "flat_footed" for i in review.items)
    clock.advance(minutes=1)
    # an edit that leaves the text as it is writes nothing (Discord sends one for link previews)
    unchanged = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                          text=KAEL_ATTACK)
    assert unchanged.outcome is PostOutcome.UNCHANGED and unchanged.revision == 1
    review = await services.review.review(game, GM)
    assert all(i.actor != "Kael" or i.field != "flat_footed" for i in review.items)
    await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                              text=KAEL_ATTACK + "\nKael roars.")
    review = await services.review.review(game, GM)
    assert any(i.actor == "Kael" and i.field == "flat_footed" for i in review.items)


async def test_deleting_a_post_withdraws_its_orders(services, table, uow_factory):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    assert not await services.turns.delete(game, ALICE, channel_key="c1", message_key="chat")
    with pytest.raises(Forbidden):
        await services.turns.delete(game, BOB, channel_key="c1", message_key="m1")
    assert await services.turns.delete(game, ALICE, channel_key="c1", message_key="m1")
    assert (await services.turns.status(game)).missing == ("Kael", "Mira")
    async with uow_factory() as uow:  # the text stays stored
        stored = await uow.posts.by_message("c1", "m1")
        assert stored.deleted and (await uow.posts.revisions(stored.id))[0].text == KAEL_ATTACK


async def test_passing_counts_as_in(services, table, uow_factory):
    game = table["game"]
    reply = await services.turns.pass_turn(game, BOB)
    assert reply.ok and reply.characters == ("Mira",)
    assert (await stored_orders(uow_factory, reply.post_id))[0].passed
    with pytest.raises(Forbidden, match="do not give"):
        await services.turns.pass_turn(game, BOB, "Kael")
    status = await services.turns.status(game)
    assert status.passed == ("Mira",) and status.missing == ("Kael",)


async def test_secret_orders_are_marked_and_their_posters_listed(services, table):
    game = table["game"]
    reply = await post(services, game, BOB, "dm1", "2 AP attack Kael with Dagger",
                       channel="dm-bob", secret=True)
    assert reply.ok and reply.secret
    status = await services.turns.status(game)
    mira = next(c for c in status.characters if c.name == "Mira")
    assert mira.state == "posted" and mira.secret


async def test_the_room_learns_only_that_sealed_orders_arrived(services, table, uow_factory):
    """A secret post puts one notice in the game's room, naming neither the sender
    nor the orders; an edit of it, and a public post, put none."""
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    await post(services, game, BOB, "dm1", "2 AP attack Kael with Dagger", channel="dm-bob",
               secret=True)
    await services.turns.edit(game, BOB, channel_key="dm-bob", message_key="dm1",
                              text="3 AP attack Kael with Dagger", secret=True)
    async with uow_factory() as uow:
        notices = [m for m in await uow.outbox.for_game(game) if m.kind == "secret_orders"]
    assert len(notices) == 1
    notice = notices[0]
    assert notice.dest_kind.value == "channel" and notice.content.startswith("Sealed orders")
    assert "Mira" not in notice.content and "Kael" not in notice.content
    assert "Dagger" not in notice.content


async def test_npc_orders_are_sealed_by_a_sha256_commitment(services, table, uow_factory):
    game = table["game"]
    gm_reply = await post(services, game, GM, "g1", NPC_ORDERS)
    assert gm_reply.ok, gm_reply.reply
    with pytest.raises(Forbidden):
        await services.turns.seal(game, ALICE)
    seal = await services.turns.seal(game, GM)
    assert seal.npc_orders == 2 and len(seal.commitment) == 64
    with pytest.raises(Conflict, match="already sealed"):
        await services.turns.seal(game, GM)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="sealed"):
        await post(services, game, GM, "g2", "**Skarg**\n3 AP defend")
    assert await snapshot(uow_factory) == before
    async with uow_factory() as uow:
        turn = await uow.turns.latest(game)
        sealed = [m for m in await uow.outbox.for_game(game) if m.kind == "sealed"]
    expected = hashlib.sha256(f"{turn.npc_salt}\n{turn.npc_canonical}".encode()).hexdigest()
    assert seal.commitment == expected == turn.npc_commitment
    # the room reads a short prefix (the whole commitment is in the reveal); the payload
    # keeps all of it
    assert [m.payload["commitment"] for m in sealed] == [seal.commitment]
    assert f"(commitment {seal.commitment[:12]}…)" in sealed[0].content
    assert seal.commitment not in sealed[0].content
    assert '"actor":"Goblins"' in turn.npc_canonical and '"actor":"Skarg"' in turn.npc_canonical


async def test_everyone_in_needs_every_player_and_the_seal(services, table, uow_factory):
    game = table["game"]
    assert not (await post(services, game, ALICE, "m1", KAEL_ATTACK)).everyone_in
    assert not (await services.turns.pass_turn(game, BOB)).everyone_in
    await post(services, game, GM, "g1", NPC_ORDERS)
    await services.turns.seal(game, GM)
    assert (await services.turns.status(game)).everyone_in
    async with uow_factory() as uow:
        kinds = [m.kind for m in await uow.outbox.for_game(game)]
    assert kinds.count("everyone_in") == 1  # one DM to the one GM


async def test_a_post_after_call_time_is_refused_with_a_clear_message(
    services, table, uow_factory
):
    game = table["game"]
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="Post it again when turn 2 opens"):
        await post(services, game, ALICE, "m1", KAEL_ATTACK)
    with pytest.raises(Conflict, match="Time has been called on turn 1"):
        await services.turns.pass_turn(game, BOB)
    assert await snapshot(uow_factory) == before
    assert (await services.turns.status(game)).turn.status is TurnStatus.CLOSED


async def test_no_turn_yet_and_duplicate_message(services, table):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    with pytest.raises(Conflict, match="already recorded"):
        await post(services, game, ALICE, "m1", KAEL_ATTACK)
    with pytest.raises(Conflict, match="still open"):
        await services.turns.open(game, GM)
    other = await services.games.create(channel_key="c2", name="B", creator=GM)
    with pytest.raises(NoOpenTurn, match="No turn has been opened") as refused:
        await services.turns.status(other.id)
    # the service names no adapter's command; each adapter adds its own
    assert refused.value.with_command("/open") == (
        "No turn has been opened yet; a GM opens the first one with /open.")


TALK = "Kael grins at Mira.\n> nice shot!\n*laughs*"


async def test_table_talk_is_its_own_outcome_whoever_posts_it_and_whenever(
    services, table, uow_factory
):
    """A message with no mechanics line is table talk: no reply, no error, nothing stored; from
    a player, a stranger, a GM, and while time is called."""
    game = table["game"]
    before = await snapshot(uow_factory)
    for author in (ALICE, EVE, GM):
        reply = await post(services, game, author, f"t-{author}", TALK)
        assert reply.outcome is PostOutcome.TABLE_TALK and reply.ok and not reply.post_id
    with pytest.raises(Forbidden):
        await post(services, game, EVE, "t4", "3 AP defend")  # a stranger's orders: refused
    assert await snapshot(uow_factory) == before
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    assert (await post(services, game, BOB, "t2", TALK)).outcome is PostOutcome.TABLE_TALK
    with pytest.raises(Conflict, match="Time has been called"):
        await post(services, game, BOB, "t3", "3 AP defend")
    assert await snapshot(uow_factory) == before


async def test_an_edit_to_table_talk_withdraws_the_orders_and_an_edit_back_restores_them(
    services, table
):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    talk = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1", text=TALK)
    assert talk.outcome is PostOutcome.TABLE_TALK and talk.post_id and not talk.characters
    assert "Kael" in (await services.turns.status(game)).missing
    back = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                     text=KAEL_ATTACK)
    assert back.outcome is PostOutcome.ACCEPTED and back.revision == 3
    assert "Kael" in (await services.turns.status(game)).posted


async def test_problems_cross_the_service_as_the_post_language_found_them(services, table):
    from fappo_bot.posting.errors import PostProblem
    from fappo_bot.posting.render import render_problems

    reply = await post(services, table["game"], ALICE, "m1", "2 AP attack Gobbo\n9 AP defend")
    assert reply.outcome is PostOutcome.PROBLEMS and not reply.ok
    assert all(isinstance(p, PostProblem) for p in reply.problems)
    assert [p.line for p in reply.problems] == [1, 2]
    assert reply.reply == render_problems(reply.problems)  # the shared plain-text rendering


async def test_players_see_their_own_orders_and_gms_see_all(services, table):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    await post(services, game, BOB, "d1", "3 AP defend", channel="dm-bob", secret=True)
    await post(services, game, GM, "g1", NPC_ORDERS)
    mine = await services.turns.orders(game, ALICE)
    assert [(o.character, o.author) for o in mine] == [("Kael", ALICE)]
    # Mira's secret order stays hidden from the GM until the NPC orders are sealed
    before_seal = await services.turns.orders(game, GM)
    assert [o.character for o in before_seal] == ["Goblins", "Kael", "Skarg"]
    assert (await services.review.review(game, GM)).hidden_secret == 1
    await services.turns.seal(game, GM)
    everything = await services.turns.orders(game, GM)
    assert [o.character for o in everything] == ["Goblins", "Kael", "Mira", "Skarg"]
    assert next(o for o in everything if o.character == "Mira").secret
    assert (await services.review.review(game, GM)).hidden_secret == 0
    with pytest.raises(Forbidden):
        await services.turns.orders(game, EVE)


async def test_f29_orders_against_another_players_character_must_come_by_dm(
    services, table, uow_factory
):
    """F29: "if an action targets a PC controlled by another player -> its AP/SP declaration
    (and the target's pledges and def_ap) must come by DM to the bot"."""
    game = table["game"]
    before = await snapshot(uow_factory)
    for text in ("2 AP attack Mira with Broadsword\n1 AP defend",
                 "3 AP defend against Mira",
                 "3 AP defend\nGuard: 1 SP Nimble against Mira"):
        with pytest.raises(InvalidInput, match=r"Mira\) go to the bot by DM"):
            await post(services, game, ALICE, "m1", text)
    assert await snapshot(uow_factory) == before
    reply = await post(services, game, ALICE, "d1", "2 AP attack Mira with Broadsword",
                       channel="dm-alice", secret=True)
    assert reply.ok
    # the GM's NPCs attack PCs in the open; that is no PvP
    assert (await post(services, game, GM, "g1", NPC_ORDERS)).ok
    # a public post edited into a PvP order is refused too
    await post(services, game, BOB, "m2", "3 AP defend")
    with pytest.raises(InvalidInput, match="DM"):
        await services.turns.edit(game, BOB, channel_key="c1", message_key="m2",
                                  text="2 AP attack Kael with Dagger")


async def test_editing_a_post_of_a_resolved_turn_changes_nothing(services, table, uow_factory):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    await services.resolution.resolve(game, GM, 1)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="Turn 1 is over"):
        await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                  text="3 AP defend")
    with pytest.raises(Conflict, match="Turn 1 is resolved"):
        await services.turns.delete(game, ALICE, channel_key="c1", message_key="m1")
    assert await snapshot(uow_factory) == before


async def test_f29_amb4_hide_all_allocations_wants_every_player_order_by_dm(services, table):
    """F29 Amb-4: "public by default (config hide_all_allocations)"."""
    game = table["game"]
    await services.games.configure(game, GM, rules={"hide_all_allocations": True})
    with pytest.raises(InvalidInput, match="by DM"):
        await post(services, game, ALICE, "m1", KAEL_ATTACK)
    assert (await post(services, game, ALICE, "d1", KAEL_ATTACK, channel="dm-alice",
                       secret=True)).ok
    assert (await post(services, game, GM, "g1", NPC_ORDERS)).ok  # the GM's own are sealed


async def test_r2_allow_player_resolved_pvp_takes_pvp_orders_in_the_open(
    services, table, uow_factory
):
    """F29: "honor-system PvP without the GM: config allow_player_resolved_pvp (default false:
    the bot resolves it)". On, an order against another player's character may be posted in
    the room on the players' honour: it is accepted, its reply says so, and its result is
    public like any other (docs/rulings.md)."""
    game = table["game"]
    await services.games.configure(game, GM, rules={"allow_player_resolved_pvp": True})
    reply = await post(services, game, ALICE, "m1", "2 AP attack Mira with Broadsword\n1 AP defend")
    assert reply.ok and not reply.secret
    assert "(Mira)" in reply.reply and "allow_player_resolved_pvp" in reply.reply
    # an edit into a PvP order is taken in the open too, and says so
    await post(services, game, BOB, "m2", "3 AP defend")
    edited = await services.turns.edit(game, BOB, channel_key="c1", message_key="m2",
                                       text="2 AP attack Kael with Dagger\n1 AP defend")
    assert edited.outcome is PostOutcome.ACCEPTED and "(Kael)" in edited.reply
    # a post that names no other player's character gets no such line
    plain = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                      text=KAEL_ATTACK)
    assert plain.ok and "allow_player_resolved_pvp" not in plain.reply
    await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                              text="2 AP attack Mira with Broadsword\n1 AP defend")
    await post(services, game, GM, "g1", NPC_ORDERS)
    await services.resolution.resolve(game, GM, 1)
    async with uow_factory() as uow:
        messages = list(await uow.outbox.for_game(game))
    public = "\n".join(m.content for m in messages if m.kind == "results")
    assert "Kael attacks Mira" in public and "Mira attacks Kael" in public
    assert not [m for m in messages if m.kind == "results_private"]
    # hide_all_allocations still wants every order by DM
    await services.games.configure(game, GM, rules={"hide_all_allocations": True})
    with pytest.raises(InvalidInput, match="by DM"):
        await post(services, game, ALICE, "m9", "2 AP attack Mira with Broadsword")


async def test_a_dm_is_edited_and_deleted_by_its_message_alone(services, table, uow_factory):
    """Discord's DM edit and delete events name the message, not the game; the delete event
    does not say who deleted."""
    game = table["game"]
    await post(services, game, BOB, "d1", "3 AP defend", channel="dm-bob", secret=True)
    await services.turns.set_reply_keys((await _post_id(uow_factory, "dm-bob", "d1")),
                                        ["r1", "r2"])
    edited = await services.turns.edit(None, BOB, channel_key="dm-bob", message_key="d1",
                                       text="2 AP defend\n1 AP defend")
    assert edited.outcome is PostOutcome.ACCEPTED and edited.secret
    assert edited.reply_keys == ("r1", "r2")
    with pytest.raises(Forbidden):
        await services.turns.edit(None, ALICE, channel_key="dm-bob", message_key="d1", text="x")
    with pytest.raises(NotFound, match="not a recorded post"):
        await services.turns.edit(None, BOB, channel_key="dm-bob", message_key="d9", text="x")
    deleted = await services.turns.delete(None, None, channel_key="dm-bob", message_key="d1")
    assert deleted is not None and deleted.reply_keys == ("r1", "r2")
    assert "Mira" in (await services.turns.status(game)).missing
    assert (await actions(uow_factory, game))[-1] == "post.delete"
    async with uow_factory() as uow:
        entry = (await uow.audit.list(game))[-1]
    assert entry.actor == "(unknown)"
    assert await services.turns.delete(None, None, channel_key="dm-bob", message_key="d1") is None
    assert await services.turns.delete(None, None, channel_key="c1", message_key="zz") is None


async def _post_id(uow_factory, channel, key):
    async with uow_factory() as uow:
        return (await uow.posts.by_message(channel, key)).id


async def test_an_unchanged_edit_changes_nothing_even_after_call_time(
    services, table, uow_factory
):
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL_ATTACK)
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    same = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                     text=KAEL_ATTACK)
    assert same.outcome is PostOutcome.UNCHANGED and same.ok and same.characters
    assert await snapshot(uow_factory) == before
    with pytest.raises(Conflict, match="Time has been called"):
        await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                  text="3 AP defend")


async def test_a_gms_post_is_never_secret(services, table, uow_factory):
    game = table["game"]
    reply = await post(services, game, GM, "g1", NPC_ORDERS, channel="dm-gm", secret=True)
    assert reply.ok and not reply.secret
    async with uow_factory() as uow:
        assert not (await uow.posts.by_message("dm-gm", "g1")).secret


async def test_several_reply_keys_are_kept_per_post(services, table, uow_factory):
    game = table["game"]
    first = await post(services, game, ALICE, "m1", KAEL_ATTACK)
    await services.turns.set_reply_keys(first.post_id, ["r1", "r2", "r3"])
    again = await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                      text="3 AP defend")
    assert again.reply_keys == ("r1", "r2", "r3")
    await services.turns.set_reply_keys(first.post_id, ["r4"])
    deleted = await services.turns.delete(game, ALICE, channel_key="c1", message_key="m1")
    assert deleted.reply_keys == ("r4",)


async def test_reply_keys_are_stored_in_one_write_that_bumps_the_post_version(
    services, table, uow_factory
):
    """The adapter stores its replies' ids after sending them: one statement, nothing read
    first, the post's version bumped (a concurrent edit of it is then retried)."""
    from fappo_bot.service import NotFound

    game = table["game"]
    first = await post(services, game, ALICE, "m1", KAEL_ATTACK)
    async with uow_factory() as uow:
        before = await uow.posts.get(first.post_id)
    await services.turns.set_reply_keys(first.post_id, ["r1", "r2"])
    async with uow_factory() as uow:
        after = await uow.posts.get(first.post_id)
        assert await uow.posts.set_reply_keys("no-such-post", ["r9"]) is False
    assert after.reply_keys == ("r1", "r2") and after.version == before.version + 1
    assert after.model_copy(update={"reply_keys": (), "version": before.version}) == before
    with pytest.raises(NotFound):
        await services.turns.set_reply_keys("no-such-post", ["r1"])


async def test_the_reply_keys_of_several_posts_are_stored_in_one_transaction(
    services, table, uow_factory
):
    """The adapter writes the keys of the posts it answered together: each post gets its own
    keys, a post that is gone is skipped and counted out."""
    game = table["game"]
    first = await post(services, game, ALICE, "m1", KAEL_ATTACK)
    second = await post(services, game, ALICE, "m2", "3 AP defend")
    found = await services.turns.set_many_reply_keys(
        [(first.post_id, ["r1", "r2"]), ("no-such-post", ["r9"]), (second.post_id, ["r3"])])
    assert found == 2
    async with uow_factory() as uow:
        assert (await uow.posts.get(first.post_id)).reply_keys == ("r1", "r2")
        assert (await uow.posts.get(second.post_id)).reply_keys == ("r3",)
    assert await services.turns.set_many_reply_keys([]) == 0


async def test_npc_orders_from_a_player_are_refused_before_anything_is_stored(
    services, table, uow_factory
):
    """A player's /npc was refused only at the seal, after the post had replaced the
    player's own orders. A refused command changes nothing."""
    game = table["game"]
    await post(services, game, ALICE, "m1", "2 AP attack Skarg with Broadsword\n1 AP defend")
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only a GM"):
        await services.turns.npc_orders(game, ALICE, channel_key="dm:alice",
                                        message_key="n1", text="3 AP defend")
    assert await snapshot(uow_factory) == before
    reply = await services.turns.npc_orders(game, GM, channel_key="dm:gm", message_key="n2",
                                            text="**Skarg**\n3 AP defend")
    assert reply.ok and (await services.turns.status(game)).npc_sealed


async def test_only_a_messages_author_edits_it_even_a_refused_one(services, table, uow_factory):
    """An edit of another seat's refused post was stored as the editor's post."""
    game = table["game"]
    refused = await services.turns.post(game, BOB, channel_key="c1", message_key="m1",
                                        text="2 AP attack Nobody with Dagger")
    assert not refused.ok
    before = await snapshot(uow_factory)
    with pytest.raises(Forbidden, match="Only the author"):
        await services.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                                  text="3 AP defend", written_by=BOB)
    assert await snapshot(uow_factory) == before
    reply = await services.turns.edit(game, BOB, channel_key="c1", message_key="m1",
                                      text="3 AP defend", written_by=BOB)
    assert reply.ok and reply.characters == ("Mira",)

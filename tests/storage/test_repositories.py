"""The SQL repositories keep the contract of `fappo_bot.service.ports`, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.service.errors import Conflict, NotFound, StaleVersion
from fappo_bot.service.ports import StateWrite
from fappo_bot.service.records import GameStatus, Membership, Role, TurnStatus

from . import records as r


async def _seed(uow_factory, *, turn: bool = True) -> None:
    async with uow_factory() as uow:
        await uow.games.add(r.game())
        await uow.characters.add(r.character())
        if turn:
            await uow.turns.add(r.turn())
        await uow.commit()


async def test_every_record_reads_back_equal_to_what_was_written(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        await uow.members.add(Membership(game_id="g1", user_id="user-1", role=Role.GM))
        await uow.posts.add(r.post(), r.revision())
        await uow.resolutions.add(r.resolution())
        assert await uow.outbox.add(r.message())
        await uow.audit.add(r.audit())
        await uow.ledger.add(r.ledger())
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.games.get("g1") == r.game()
        assert await uow.games.by_channel("chan-1") == r.game()
        assert await uow.characters.get("c1") == r.character()
        assert await uow.turns.get("t1") == r.turn()
        assert await uow.posts.get("p1") == r.post()
        assert await uow.posts.revisions("p1") == [r.revision()]
        assert await uow.resolutions.get("r1") == r.resolution()
        assert await uow.outbox.get("o1") == r.message()
        assert await uow.audit.list("g1") == [r.audit()]
        assert await uow.ledger.for_player("user-1") == [r.ledger()]
        assert await uow.members.list("g1") == [
            Membership(game_id="g1", user_id="user-1", role=Role.GM)
        ]


async def test_a_resolution_stores_its_state_after_once_unless_it_differs_from_the_result(
    uow_factory,
):
    """`state_after` is the result's own state after `resolve` (stored as JSON null, read back
    as the result's state); a different one is stored whole."""
    from fappo_bot.rules.results import TurnState

    other = TurnState(turn=2, characters=(r.sheet(),))
    await _seed(uow_factory)
    async with uow_factory() as uow:
        await uow.resolutions.add(r.resolution())
        await uow.resolutions.add(r.resolution(id="r2", state_after=other))
        await uow.commit()
    async with uow_factory() as uow:
        shared = await uow.resolutions.get("r1")
        assert shared is not None and shared.state_after == shared.result.state
        assert await uow.resolutions.get("r2") == r.resolution(id="r2", state_after=other)


async def test_nothing_is_visible_before_commit_and_leaving_rolls_back(uow_factory):
    async with uow_factory() as uow:
        await uow.games.add(r.game())
        async with uow_factory.reader() as other:
            assert await other.games.get("g1") is None
    async with uow_factory() as uow:
        assert await uow.games.get("g1") is None


async def test_update_checks_the_version(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        game = await uow.games.get("g1")
        await uow.games.update(game.model_copy(update={"name": "Renamed", "version": 1}))
        await uow.commit()
    async with uow_factory() as uow:
        stale = r.game().model_copy(update={"name": "Lost update", "version": 1})
        with pytest.raises(StaleVersion):
            await uow.games.update(stale)
        with pytest.raises(NotFound):
            await uow.games.update(r.game(id="nope", version=1))
    async with uow_factory() as uow:
        assert (await uow.games.get("g1")).name == "Renamed"


async def test_a_change_committed_in_between_makes_the_commit_stale(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as first:
        record = await first.characters.get("c1")
        await first.characters.update(record.model_copy(update={"missed_turns": 1, "version": 1}))
        await first.commit()
    # the service read version 1 earlier, but version 2 was committed meanwhile
    async with uow_factory() as racer:
        current = await racer.characters.get("c1")
        await racer.characters.update(current.model_copy(update={"version": 2}))
        await racer.commit()
    async with uow_factory() as uow:
        with pytest.raises(StaleVersion):
            await uow.characters.update(record.model_copy(update={"version": 2}))


async def test_unique_keys_raise_conflict(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        with pytest.raises(Conflict, match="channel already has a game"):
            await uow.games.add(r.game(id="g2"))
    async with uow_factory() as uow:
        with pytest.raises(Conflict, match="character with that name"):
            await uow.characters.add(r.character(id="c2", name="ARIA"))
    async with uow_factory() as uow:
        with pytest.raises(Conflict):
            await uow.turns.add(r.turn(id="t2", number=1))
    async with uow_factory() as uow:
        await uow.posts.add(r.post(), r.revision())
        await uow.commit()
    async with uow_factory() as uow:
        with pytest.raises(Conflict, match="already recorded as a post"):
            await uow.posts.add(r.post(id="p2"), r.revision(post_id="p2"))
    async with uow_factory() as uow:
        with pytest.raises(Conflict):
            await uow.posts.add_revision(r.revision())


async def test_a_void_turn_frees_its_number(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        turn = await uow.turns.get("t1")
        await uow.turns.update(turn.model_copy(update={"status": TurnStatus.VOID, "version": 1}))
        await uow.turns.add(r.turn(id="t1b", number=1, opened_at=r.at(5)))
        await uow.commit()
    async with uow_factory() as uow:
        assert (await uow.turns.latest("g1")).id == "t1b"
        assert [t.id for t in await uow.turns.list("g1")] == ["t1", "t1b"]
        assert (await uow.turns.by_number("g1", 1)).id == "t1b"
        assert await uow.turns.by_number("g1", 2) is None
        assert await uow.turns.by_number("g2", 1) is None


async def test_character_names_are_found_whatever_their_case(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        assert (await uow.characters.by_name("g1", "aRIA")).id == "c1"
        assert await uow.characters.by_name("g1", "Bob") is None
        assert await uow.characters.by_name("other", "Aria") is None


async def test_games_list_by_status_oldest_first(uow_factory):
    async with uow_factory() as uow:
        await uow.games.add(r.game(id="g2", channel="c2", created_at=r.at(5)))
        await uow.games.add(r.game(id="g1", channel="c1", created_at=r.at(1)))
        await uow.games.add(
            r.game(id="g3", channel="c3", created_at=r.at(3), status=GameStatus.ENDED)
        )
        await uow.commit()
    async with uow_factory() as uow:
        assert [g.id for g in await uow.games.list()] == ["g1", "g3", "g2"]
        assert [g.id for g in await uow.games.list(GameStatus.ACTIVE)] == ["g1", "g2"]


async def test_at_play_reads_the_game_its_latest_turn_and_the_users_roles_together(uow_factory):
    async with uow_factory() as uow:
        assert await uow.games.at_play("g1", "u2") is None
    await _seed(uow_factory, turn=False)
    async with uow_factory() as uow:
        found = await uow.games.at_play("g1", "u2")
        assert found is not None
        assert (found.game, found.turn, found.roles) == (await uow.games.get("g1"), None, set())
        await uow.members.add(Membership(game_id="g1", user_id="u2", role=Role.GM))
        await uow.members.add(Membership(game_id="g1", user_id="u2", role=Role.PLAYER))
        await uow.members.add(Membership(game_id="g1", user_id="u3", role=Role.PLAYER))
        await uow.turns.add(r.turn())
        await uow.turns.add(r.turn(id="t2", number=2, opened_at=r.at(5)))
        await uow.commit()
    async with uow_factory() as uow:  # turn 2 voided and opened again: the new one is current
        turn = await uow.turns.get("t2")
        await uow.turns.update(turn.model_copy(update={"status": TurnStatus.VOID, "version": 1}))
        await uow.turns.add(r.turn(id="t2b", number=2, opened_at=r.at(9)))
        await uow.commit()
    async with uow_factory() as uow:
        found = await uow.games.at_play("g1", "u2")
        assert found is not None
        assert found.game == await uow.games.get("g1")
        assert found.turn == await uow.turns.latest("g1")
        assert found.turn is not None and found.turn.id == "t2b"
        assert found.roles == {Role.GM, Role.PLAYER}
        other = await uow.games.at_play("g1", "u3")
        assert other is not None and other.roles == {Role.PLAYER}
        # the rows read are kept: an update checks the version read here
        await uow.turns.update(
            found.turn.model_copy(update={"paused": True, "version": found.turn.version + 1})
        )
        with pytest.raises(StaleVersion):
            await uow.games.update(found.game.model_copy(update={"version": found.game.version + 2}))
        await uow.commit()
    async with uow_factory() as uow:
        assert (await uow.lock_turn("t2b")).paused


async def test_at_play_with_a_message_answers_by_message_as_a_read_of_its_own_would(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        assert await uow.games.at_play("g1", "u2", ("chan-1", "m1")) is not None
        assert await uow.posts.by_message("chan-1", "m1") is None
        await uow.posts.add(r.post(), r.revision())  # added here: read from now on
        found = await uow.posts.by_message("chan-1", "m1")
        assert found is not None and found.id == "p1"
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.games.at_play("g1", "u2", ("chan-1", "m1")) is not None
        found = await uow.posts.by_message("chan-1", "m1")
        assert found is not None and found.id == "p1"
        assert await uow.games.at_play("g1", "u2", ("chan-1", "m2")) is not None
        assert await uow.posts.by_message("chan-1", "m2") is None
    async with uow_factory() as uow:  # a new transaction knows nothing of the last one's read
        await uow.posts.add(r.post(id="p2", message="m2"), r.revision(post_id="p2"))
        await uow.commit()
    async with uow_factory() as uow:
        found = await uow.posts.by_message("chan-1", "m2")
        assert found is not None and found.id == "p2"


async def test_memberships_are_idempotent_and_removable(uow_factory):
    await _seed(uow_factory)
    gm = Membership(game_id="g1", user_id="u2", role=Role.GM)
    player = Membership(game_id="g1", user_id="u2", role=Role.PLAYER)
    async with uow_factory() as uow:
        await uow.members.add(player)
        await uow.members.add(gm)
        await uow.members.add(gm)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.members.list("g1") == [gm, player]
        assert await uow.members.games_of("u2") == [gm, player]
        assert await uow.members.remove("g1", "u2", Role.GM)
        assert not await uow.members.remove("g1", "u2", Role.GM)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.members.list("g1") == [player]


async def test_due_turns_are_open_unpaused_and_alarmed(uow_factory):
    await _seed(uow_factory, turn=False)
    async with uow_factory() as uow:
        await uow.turns.add(r.turn(id="a", number=1, alarm_at=r.at(30)))
        await uow.turns.add(r.turn(id="b", number=2, alarm_at=r.at(10)))
        await uow.turns.add(r.turn(id="c", number=3, alarm_at=r.at(5), paused=True))
        await uow.turns.add(r.turn(id="d", number=4, alarm_at=r.at(5), status=TurnStatus.CLOSED))
        await uow.turns.add(r.turn(id="e", number=5, alarm_at=None))
        await uow.turns.add(r.turn(id="f", number=6, alarm_at=r.at(90)))
        await uow.commit()
    async with uow_factory() as uow:
        assert [t.id for t in await uow.turns.due(r.at(30))] == ["b", "a"]


async def test_orders_follow_the_newest_revision(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        await uow.posts.add(r.post(), r.revision())
        await uow.posts.add(
            r.post(id="p2", message="m2", updated_at=r.at(1)),
            r.revision(post_id="p2", orders=(r.order("Bob"),)),
        )
        await uow.posts.add(r.post(id="p3", message="m3", deleted=True), r.revision(post_id="p3"))
        await uow.commit()
    async with uow_factory() as uow:
        post = await uow.posts.get("p1")
        newer = r.revision(number=2, orders=(r.order(ap=1), r.order("Aria's horse", ap=2)))
        await uow.posts.add_revision(newer)
        await uow.posts.update(
            post.model_copy(update={"revision": 2, "version": 1, "updated_at": r.at(9)})
        )
        await uow.commit()
    async with uow_factory() as uow:
        latest = await uow.posts.latest_revisions("t1")
        assert [(p.id, rev.number) for p, rev in latest] == [("p2", 1), ("p1", 2)]
        assert latest[1][1] == newer
        # only some actors' orders: the same posts, the others' orders left out
        some = await uow.posts.latest_revisions("t1", {"aria's horse"})
        assert [(p.id, [o.actor for o in rev.orders]) for p, rev in some] == [
            ("p2", []), ("p1", ["Aria's horse"])]
        assert [rev.number for rev in await uow.posts.revisions("p1")] == [1, 2]
        assert [p.id for p in await uow.posts.list("t1")] == ["p1", "p2"]
        assert [p.id for p in await uow.posts.list("t1", include_deleted=True)] == [
            "p1",
            "p2",
            "p3",
        ]


def _last_written(pairs) -> dict[str, tuple[str, int, object]]:
    """Per character, the post, revision and order in force (F29 Amb-3: the last written)."""
    found: dict[str, tuple[str, int, object]] = {}
    for post, revision in sorted(pairs, key=lambda pr: (pr[1].created_at, pr[0].updated_at,
                                                        pr[0].id)):
        if revision.ok:
            for order in revision.orders:
                found[order.actor.casefold()] = (post.id, revision.number, order)
    return found


async def test_in_force_revisions_leave_out_the_posts_written_over(uow_factory):
    """Thirty posts over seven characters (names in two cases, update times that tie, edits,
    a deletion, a refused edit): the posts holding orders in force, whatever the actors asked
    for, one by one (a few) or with the turn's rows (many), and the same orders in force as
    from every post."""
    await _seed(uow_factory)
    names = [f"C{i}" for i in range(7)]
    async with uow_factory() as uow:
        for i in range(30):
            actors = {names[(i * 3) % 7], names[(i * 5 + 1) % 7].lower()}
            await uow.posts.add(
                r.post(id=f"p{i:02}", message=f"m{i}", updated_at=r.at(i // 3),
                       deleted=i == 29),
                r.revision(post_id=f"p{i:02}", orders=tuple(r.order(a) for a in sorted(actors))))
        await uow.commit()
    async with uow_factory() as uow:
        for i, orders in ((27, (r.order("c6"),)), (28, ())):  # an edit, and an edit refused
            post = await uow.posts.get(f"p{i}")
            await uow.posts.add_revision(r.revision(post_id=f"p{i}", number=2, orders=orders))
            await uow.posts.update(post.model_copy(update={"revision": 2, "version": 1}))
        # read in the transaction that edited them, before the commit: read afresh
        left = _last_written(await uow.posts.latest_revisions("t1", {"c6"}))
        assert await uow.posts.orders_in_force("t1", {"c6"}) == {"c6": left["c6"][2]}
        every = _last_written(await uow.posts.latest_revisions("t1"))
        assert await uow.posts.orders_in_force("t1") == {k: o for k, (_, _, o) in every.items()}
        await uow.commit()
    for actors in (None, {"c1"}, {"c2", "c6"}, {"c0", "c1", "c2", "c3", "c4", "c5"}, {"nobody"}):
        async with uow_factory() as uow:
            every = await uow.posts.latest_revisions("t1", actors)
            pruned = await uow.posts.in_force_revisions("t1", actors)
            orders = await uow.posts.orders_in_force("t1", actors)
        expected = _last_written(every)
        assert _last_written(pruned) == expected
        # the orders alone, as the reply's notes and the "everyone is in" check read them
        assert orders == {key: order for key, (_, _, order) in expected.items()}
        assert [p.id for p, _ in pruned] == sorted({post for post, _, _ in expected.values()})
        assert len(pruned) < len(every)


async def test_a_refused_post_keeps_its_text_and_no_orders(uow_factory):
    await _seed(uow_factory)
    refused = r.revision(orders=())
    async with uow_factory() as uow:
        await uow.posts.add(r.post(), refused)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.posts.revisions("p1") == [refused]


async def test_resolutions_for_turn_latest_and_undo(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        await uow.resolutions.add(r.resolution())
        await uow.commit()
    async with uow_factory() as uow:
        assert (await uow.resolutions.for_turn("t1")).id == "r1"
        assert (await uow.resolutions.latest("g1")).id == "r1"
        await uow.resolutions.mark_undone("r1", r.at(20))
        with pytest.raises(NotFound):
            await uow.resolutions.mark_undone("nope", r.at(20))
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.resolutions.for_turn("t1") is None
        assert await uow.resolutions.latest("g1") is None
        undone = await uow.resolutions.get("r1")
        assert undone.undone and undone.undone_at == r.at(20)


async def test_outbox_dedupes_and_delivers_oldest_first(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        assert await uow.outbox.add(r.message("o2", "k2", minutes=5))
        assert await uow.outbox.add(r.message("o1", "k1", minutes=1))
        assert not await uow.outbox.add(r.message("o3", "k1", minutes=9))
        await uow.commit()
    async with uow_factory() as uow:
        assert not await uow.outbox.add(r.message("o4", "k2"))
        assert [m.id for m in await uow.outbox.pending(r.at(20))] == ["o1", "o2"]
        assert [m.id for m in await uow.outbox.pending(r.at(20), limit=1)] == ["o1"]
        await uow.outbox.mark_failed("o1", "Discord is down", r.at(25), r.at(20))
        await uow.outbox.mark_sent("o1", r.at(30), ("m1", "m2"))
        await uow.outbox.mark_sent("o1", r.at(40), ("m3",))
        with pytest.raises(NotFound):
            await uow.outbox.mark_sent("nope", r.at(30))
        await uow.commit()
    async with uow_factory() as uow:
        assert [m.id for m in await uow.outbox.pending(r.at(20))] == ["o2"]
        sent = await uow.outbox.get("o1")
        assert (sent.sent_at, sent.attempts, sent.last_error) == (r.at(30), 1, "Discord is down")
        assert (sent.next_attempt_at, sent.delivered_keys) == (r.at(25), ("m1", "m2"))
        assert [m.id for m in await uow.outbox.for_game("g1")] == ["o1", "o2"]


async def test_audit_limit_keeps_the_newest_in_order(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        for i in range(5):
            await uow.audit.add(r.audit(id=f"a{i}", at=r.at(i)))
        await uow.commit()
    async with uow_factory() as uow:
        assert [e.id for e in await uow.audit.list("g1", limit=2)] == ["a3", "a4"]
        assert [e.id for e in await uow.audit.list("g1")] == [f"a{i}" for i in range(5)]


async def test_lock_turn_returns_the_committed_turn(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        assert (await uow.lock_turn("t1")) == r.turn()
        with pytest.raises(NotFound):
            await uow.lock_turn("nope")


async def test_commit_then_reuse_reads_afresh(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        game = await uow.games.get("g1")
        await uow.games.update(game.model_copy(update={"name": "One", "version": 1}))
        await uow.commit()
        again = await uow.games.get("g1")
        assert (again.name, again.version) == ("One", 1)
        await uow.games.update(again.model_copy(update={"name": "Two", "version": 2}))
        await uow.rollback()
        assert (await uow.games.get("g1")).name == "One"


async def test_postgres_a_row_changed_after_it_was_read_fails_the_commit(
    uow_factory, database_kind
):
    """READ COMMITTED: the UPDATE's `WHERE version = <read>` catches a change committed after the
    read (on SQLite the other writer could not have run: BEGIN IMMEDIATE)."""
    if database_kind != "postgres":
        pytest.skip("SQLite serialises writers from BEGIN; nothing can commit in between")
    await _seed(uow_factory)
    async with uow_factory() as slow:
        mine = await slow.characters.get("c1")
        async with uow_factory() as fast:
            theirs = await fast.characters.get("c1")
            await fast.characters.update(
                theirs.model_copy(update={"missed_turns": 5, "version": 1})
            )
            await fast.commit()
        await slow.characters.update(mine.model_copy(update={"missed_turns": 1, "version": 1}))
        with pytest.raises(StaleVersion):
            await slow.commit()
    async with uow_factory() as uow:
        assert (await uow.characters.get("c1")).missed_turns == 5


async def test_many_updates_in_one_transaction_are_all_written(uow_factory):
    await _seed(uow_factory)
    async with uow_factory() as uow:
        for i in range(2, 12):
            await uow.characters.add(r.character(id=f"c{i}", name=f"Hero {i}"))
        await uow.commit()
    async with uow_factory() as uow:
        records = await uow.characters.list("g1")
        for record in records:
            await uow.characters.update(record.model_copy(update={"missed_turns": 2, "version": 1}))
        # read-your-writes before the commit, then a second update of the same row
        again = await uow.characters.get("c3")
        assert (again.missed_turns, again.version) == (2, 1)
        await uow.characters.update(again.model_copy(update={"missed_turns": 3, "version": 2}))
        assert [c.id for c in await uow.characters.list("g1") if c.missed_turns == 3] == ["c3"]
        await uow.commit()
    async with uow_factory() as uow:
        stored = {c.id: (c.missed_turns, c.version) for c in await uow.characters.list("g1")}
        assert stored.pop("c3") == (3, 2)
        assert set(stored.values()) == {(2, 1)}


async def _states_written(uow_factory) -> None:
    """`write_states`: the state, the missed turns and the version of each character named, read
    back in the transaction and after it, and nothing else of it (the sheet, the name); a stale
    version or a missing character refused as `update` refuses them."""
    await _seed(uow_factory)
    async with uow_factory() as uow:
        await uow.characters.add(r.character(id="c2", name="Bran"))
        await uow.commit()
    hurt = replace(r.sheet(), health=5, statuses=())
    async with uow_factory() as uow:
        await uow.characters.list("g1")
        await uow.characters.write_states([StateWrite("c1", hurt, 3, 1),
                                           StateWrite("c2", r.sheet("Bran"), 0, 1)])
        assert (await uow.characters.get("c1")).state == hurt
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.characters.get("c1") == r.character(state=hurt, missed_turns=3, version=1)
        assert await uow.characters.get("c2") == r.character(
            id="c2", name="Bran", state=r.sheet("Bran"), version=1)
        with pytest.raises(StaleVersion):
            await uow.characters.write_states([StateWrite("c1", r.sheet(), 0, 1)])
    async with uow_factory() as uow:
        with pytest.raises(NotFound):
            await uow.characters.write_states([StateWrite("nobody", r.sheet(), 0, 1)])


async def test_write_states_writes_the_state_and_missed_turns_only(uow_factory):
    await _states_written(uow_factory)


@pytest.mark.unit
async def test_the_fake_writes_states_as_the_stores_do():
    """The service's tests and benchmarks run on the fake: it keeps the same contract."""
    from tests.service.fakes import FakeUowFactory

    await _states_written(FakeUowFactory())


async def test_outbox_pending_to_forty_thousand_rooms(uow_factory):
    # a process of many guilds asks for the messages of all its rooms at once: more rooms than
    # PostgreSQL takes arguments in one statement (32,767), and than a stock SQLite takes variables
    await _seed(uow_factory)
    rooms = [str(10**17 + i) for i in range(40_000)]
    async with uow_factory() as uow:
        await uow.outbox.add_many([
            r.message("o1", "k1", minutes=1, dest_key=rooms[0]),
            r.message("o2", "k2", minutes=2, dest_key="not-this-process"),
            r.message("o3", "k3", minutes=3, dest_key=rooms[-1]),
            r.message("o4", "k4", minutes=4, dest_key=rooms[20_000]),
        ])
        await uow.commit()
    async with uow_factory() as uow:
        found = await uow.outbox.pending(r.at(20), dest_keys=set(rooms))
        assert [m.id for m in found] == ["o1", "o3", "o4"]
        assert [m.id for m in await uow.outbox.pending(r.at(20), 2, rooms)] == ["o1", "o3"]
        assert [m.id for m in await uow.outbox.pending(r.at(20), dest_keys=rooms[1:2])] == []
        assert await uow.outbox.pending(r.at(20), dest_keys=()) == []


async def test_channel_marks_are_stored_replaced_and_read_back(uow_factory):
    from datetime import UTC, datetime

    at = datetime(2026, 12, 2, 5, 0, tzinfo=UTC)
    async with uow_factory() as uow:
        assert await uow.channels.marks() == {}
        await uow.channels.set_marks({"room-1": "1001", "dm-2": "2002"}, at)
        await uow.commit()
    async with uow_factory() as uow:
        await uow.channels.set_marks({"room-1": "1005"}, at)
        await uow.channels.set_marks({}, at)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.channels.marks() == {"dm-2": "2002", "room-1": "1005"}


async def test_display_names_of_many_users_are_read_in_one_statement(uow_factory):
    from datetime import UTC, datetime

    from fappo_bot.service.records import UserName

    at = datetime(2026, 12, 2, 5, 0, tzinfo=UTC)
    async with uow_factory() as uow:
        for i in (1, 2, 3):
            await uow.users.set_name(UserName(user_id=f"u{i}", display_name=f"Name {i}",
                                              updated_at=at))
        await uow.commit()
    async with uow_factory() as uow:
        # in the order asked, those without a name left out, each once
        assert await uow.users.names(["u3", "nobody", "u1", "u3"]) == {
            "u3": "Name 3", "u1": "Name 1"}
        assert list(await uow.users.names(["u3", "u1"])) == ["u3", "u1"]
        assert await uow.users.names([]) == {}
        # more users than either database takes parameters in one statement
        many = [f"x{i}" for i in range(40_000)] + ["u2"]
        assert await uow.users.names(many) == {"u2": "Name 2"}


async def test_an_xp_posts_actions_read_back_as_stored_and_hold_orders_in_force(uow_factory):
    """An Xp post keeps its actions as a FAPPO post keeps its orders (one row each, in order):
    they read back equal, by actor, and name the post in force for their characters; a
    revision stored with its text only (before the actions were kept) reads back without any."""
    from fappo_bot.posting_xp import Route, XpAction, XpKind

    await _seed(uow_factory)
    actions = (
        XpAction(actor="Nefer", line=1, kind=XpKind.CONTEST, skill="Stealth", target="Guard",
                 text="past the guard", heroic=True, mods=("Desert creature",)),
        XpAction(actor="Khai", line=3, kind=XpKind.TEST, route=Route.RAW, claim=1),
        XpAction(actor="Nefer", line=4, kind=XpKind.ASSIST, target="Khai"),
    )
    xp = r.revision(orders=()).model_copy(update={"text": "roll Stealth", "actions": actions,
                                                  "ok": True, "problems": ()})
    old = r.revision(post_id="p2", orders=()).model_copy(update={
        "text": "roll Lore", "ok": True, "problems": ()})
    async with uow_factory() as uow:
        await uow.posts.add(r.post(), xp)
        await uow.posts.add(r.post(id="p2", message="m2", updated_at=r.at(1)), old)
        await uow.commit()
    async with uow_factory() as uow:
        assert await uow.posts.revisions("p1") == [xp]
        assert (await uow.posts.revisions("p2"))[0].actions == ()
        some = await uow.posts.latest_revisions("t1", {"khai"})
        assert [(p.id, rev.actions) for p, rev in some] == [("p2", ()), ("p1", actions[1:2])]
        assert await uow.posts.orders_in_force("t1", {"nefer"}) == {}  # Xp actions, no orders
        held = await uow.posts.in_force_revisions("t1", {"nefer"})
        assert [(p.id, [a.line for a in rev.actions]) for p, rev in held] == [("p1", [1, 4])]

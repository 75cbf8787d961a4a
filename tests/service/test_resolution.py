"""GM review (R1), resolve (F7) through the outbox, provisional hits and Reduce (F13), undo."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from fappo_bot.posting.safety import possessive
from fappo_bot.service import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.records import TurnStatus
from fappo_bot.service.views import HitView
from tests.service.conftest import ALICE, BOB, CAROL, GM, sheet
from tests.service.helpers import actions, resolved, snapshot, stored_orders

KAEL = "2 AP attack Goblins with Broadsword, +1 (high ground)\n1 AP defend"
MIRA = "2 AP Stealth: slip past the guard\nIf the guard wakes: 1 AP attack him with Dagger"
NPCS = "**Skarg**\n2 AP attack Kael with Broadsword\n**Goblins**\n1 AP attack Kael"


async def post(services, game, user, key, text):
    reply = await services.turns.post(game, user, channel_key="c1", message_key=key, text=text)
    assert reply.ok, reply.reply
    return reply


async def by_field(services, game):
    review = await services.review.review(game, GM)
    return review, {(i.actor, i.field): i for i in review.items}


async def test_r1_resolve_refuses_until_every_required_gm_input_is_given(
    services, table, uow_factory
):
    """R1: "Every GM input is a value the engine must receive from the GM and must never guess"."""
    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL)
    await post(services, game, BOB, "m2", MIRA)
    review, items = await by_field(services, game)
    assert {k for k, i in items.items() if i.required} == {
        ("Kael", "claim"), ("Mira", "difficulty"), ("Mira", "triggered")}
    assert not items[("Kael", "flat_footed")].required
    assert not review.complete
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput) as caught:
        await services.resolution.resolve(game, GM, 1)
    text = str(caught.value)
    assert "difficulty" in text and "high ground" in text and "the guard wakes" in text
    with pytest.raises(Forbidden):
        await services.review.review(game, ALICE)
    bad = {items[("Mira", "difficulty")].key: "hard", items[("Kael", "claim")].key: "perhaps",
           "no-such-key": 1}
    with pytest.raises(InvalidInput) as caught:
        await services.review.answer(game, GM, bad)
    assert "whole number" in str(caught.value) and "no-such-key" in str(caught.value)
    assert await snapshot(uow_factory) == before

    review = await services.review.answer(game, GM, {
        items[("Mira", "difficulty")].key: "4",
        items[("Kael", "claim")].key: "accept",
        items[("Mira", "triggered")].key: "yes",
    })
    # "attack him": the condition came true, so the GM names the target (F9)
    missing = {(i.actor, i.field) for i in review.missing}
    assert missing == {("Mira", "target")}
    target = next(i for i in review.items if i.field == "target")
    review = await services.review.answer(game, GM, {target.key: "skarg"})
    assert review.complete
    await post(services, game, GM, "g1", NPCS)
    result = await resolved(services, game, GM, 1)
    kael_attack = next(a for a in result.result.actions if a.actor == "Kael" and a.index == 0)
    assert kael_attack.total is not None
    mira = [a for a in result.result.actions if a.actor == "Mira"]
    assert mira[0].difficulty == 4
    assert any(a.target == "Skarg" for a in mira)


async def test_f7_resolve_stores_the_new_state_opens_the_next_turn_and_queues_results(
    services, table, uow_factory
):
    game = table["game"]
    await post(services, game, ALICE, "m1", "2 AP attack Goblins with Broadsword\n1 AP defend")
    await services.turns.pass_turn(game, BOB)
    await post(services, game, GM, "g1", NPCS)
    view = await resolved(services, game, GM, 1)
    assert view.turn == 1 and view.next_turn == 2
    assert "Turn 1 results" in view.text
    async with uow_factory() as uow:
        turns = list(await uow.turns.list(game))
        goblins = await uow.characters.by_name(game, "Goblins")
        kael = await uow.characters.by_name(game, "Kael")
        outbox = list(await uow.outbox.for_game(game))
    assert [(t.number, t.status) for t in turns] == [(1, TurnStatus.RESOLVED),
                                                      (2, TurnStatus.OPEN)]
    assert goblins.state == next(c for c in view.result.state.characters if c.name == "Goblins")
    assert goblins.state.count < 8
    assert kael.state.health == next(c for c in view.result.state.characters
                                     if c.name == "Kael").health
    # F13: the hits of turn 1 are reducible in turn 2
    assert turns[1].pending == view.result.state.pending
    kinds = [m.kind for m in outbox]
    assert "results" in kinds and "revealed" in kinds and "sealed" in kinds
    assert kinds.index("results") < kinds.index("turn_opened") or "turn_opened" in kinds
    assert "turn.resolve" in await actions(uow_factory, game)


async def test_the_npc_commitment_verifies_after_resolution(services, table):
    game = table["game"]
    await post(services, game, GM, "g1", NPCS)
    seal = await services.turns.seal(game, GM)
    with pytest.raises(Conflict, match="Turn 1 is open, not resolved yet"):
        await services.turns.reveal(game, 1)
    with pytest.raises(NotFound, match="There is no turn 2 in this game; the latest is turn 1"):
        await services.turns.reveal(game, 2)
    await services.resolution.resolve(game, GM, 1)
    reveal = await services.turns.reveal(game, 1)
    assert reveal.verified and reveal.commitment == seal.commitment
    assert '"actor":"Skarg"' in reveal.canonical


async def test_two_resolves_at_once_give_one_resolution(services, table, uow_factory):
    game = table["game"]
    outcomes = await asyncio.gather(services.resolution.resolve(game, GM, 1),
                                    services.resolution.resolve(game, GM, 1),
                                    return_exceptions=True)
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "ResolutionView"]
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="Turn 1 is already resolved"):
        await services.resolution.resolve(game, GM, 1)
    assert await snapshot(uow_factory) == before
    assert [r is not None for r in before[game]["resolutions"]] == [True, False]


async def test_a_resolve_that_comes_second_never_resolves_the_next_empty_turn(
    services, table, uow_factory
):
    """A resolve names its turn: once turn 1 is resolved and turn 2 open (empty), a second
    resolve of turn 1 is refused in one sentence and turn 2 stays open; a turn that does not
    exist yet is refused too."""
    game = table["game"]
    await services.resolution.resolve(game, GM, 1)
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict) as refused:
        await services.resolution.resolve(game, GM, 1)
    assert str(refused.value) == ("Turn 1 is already resolved; turn 2 is open, and nothing "
                                  "was resolved now.")
    with pytest.raises(Conflict, match="^There is no turn 3 yet; turn 2 is open.$"):
        await services.resolution.resolve(game, GM, 3)
    assert await snapshot(uow_factory) == before


async def test_f14_amb1_a_staggered_hit_heals_when_the_next_turn_is_resolved_quietly(
    services, table, uow_factory
):
    """RULINGS Amendments 2026-12-01 (F14 Amb-1, F7 step 7): "resolving a turn advances heal
    timers by one turn ... a Staggered hit taken in turn N-1 heals at CLOSE(N) when turn N
    brings no new damage", through the stored state: Skarg's Broadsword 5 + 1 AP = 6 against
    Kael's 5 - 1 + 2 (medium armor) = 6 is a Bare Success, 3 // 2 = 1 level."""
    game = table["game"]
    await services.turns.pass_turn(game, ALICE)
    await post(services, game, GM, "g1", "**Skarg**\n1 AP attack Kael with Broadsword")
    first = await resolved(services, game, GM, 1)
    assert next(c for c in first.result.state.characters if c.name == "Kael").health == 1
    await services.turns.pass_turn(game, ALICE)
    await post(services, game, GM, "g2", "**Skarg**\n1 AP defend")
    await services.resolution.resolve(game, GM, 2)
    async with uow_factory() as uow:
        kael = await uow.characters.by_name(game, "Kael")
    assert (kael.state.health, kael.state.heal_elapsed) == (0, 0)


async def test_f13_a_reduce_line_in_the_next_turn_lowers_the_provisional_hit(services, table,
                                                                            uow_factory):
    """F13: "the defender declares the use of SPs to reduce damage in the same post as
    declaring his next action" [F:L231]."""
    game = table["game"]
    await services.turns.pass_turn(game, ALICE)
    await post(services, game, GM, "g1", "**Skarg**\n3 AP attack Kael with Broadsword")
    first = await resolved(services, game, GM, 1)
    hits = [h for h in first.result.hits if h.target == "Kael"]
    assert hits, first.text
    status = await services.turns.status(game)
    assert status.pending_hits == tuple(HitView.of(h) for h in first.result.state.pending)
    reply = await post(services, game, ALICE, "m2",
                       "Reduce: 1 SP Nimble on Skarg's hit (it glanced off my armor)\n1 AP defend")
    assert (await stored_orders(uow_factory, reply.post_id))[0].reduce[0].sp == {"Nimble": 1}
    second = await resolved(services, game, GM, 2)
    kael = next(c for c in second.result.state.characters if c.name == "Kael")
    assert kael.traits[next(t for t in kael.traits if t.value == "Nimble")] == 4


async def test_r2_auto_reduce_on_absence_reduces_for_a_player_who_did_not_post(
    services, table
):
    """F30 Amb-4: "Forfeiting reductions is harsh. ... Config auto_reduce_on_absence". On, a
    player who does not post in the turn after a hit has it reduced by the bot (as far as the
    SP allow, up to 2 levels a hit), and the results say so; a pass still forfeits the window."""
    game = table["game"]
    await services.games.configure(game, GM, rules={"auto_reduce_on_absence": True})
    await services.turns.pass_turn(game, ALICE)
    await post(services, game, GM, "g1", "**Skarg**\n3 AP attack Kael with Broadsword")
    first = await resolved(services, game, GM, 1)
    hit = next(h for h in first.result.hits if h.target == "Kael")
    kael = next(c for c in first.result.state.characters if c.name == "Kael")
    sp = sum(kael.traits.values()) + kael.floating
    second = await resolved(services, game, GM, 2)  # Alice posts nothing this turn
    cut = min(2, hit.levels)
    after = next(c for c in second.result.state.characters if c.name == "Kael")
    assert sum(after.traits.values()) + after.floating == sp - cut
    assert f"Kael reduced for the absent player: {possessive(hit.attacker)} {hit.weapon} hit" \
        in second.text and hit.id not in second.text
    assert f"({cut} level" in second.text
    # a pass is a post: it forfeits the window, flag or not
    await services.turns.pass_turn(game, ALICE)
    await post(services, game, GM, "g3", "**Skarg**\n3 AP attack Kael with Broadsword")
    third = await resolved(services, game, GM, 3)
    again = next(h for h in third.result.hits if h.target == "Kael")
    before = next(c for c in third.result.state.characters if c.name == "Kael")
    await services.turns.pass_turn(game, ALICE)
    fourth = await resolved(services, game, GM, 4)
    passed = next(c for c in fourth.result.state.characters if c.name == "Kael")
    assert passed.traits == before.traits and "absent player" not in fourth.text
    assert again.levels > 0


async def test_undo_restores_the_state_exactly_and_is_audited(services, table, uow_factory):
    game = table["game"]
    await post(services, game, ALICE, "m1", "2 AP attack Goblins with Broadsword\n1 AP defend")
    await post(services, game, GM, "g1", NPCS)
    await services.calltime.close(game, GM)
    before = await snapshot(uow_factory)
    with pytest.raises(NotFound, match="no resolution"):
        await services.resolution.undo(game, GM)
    await services.resolution.resolve(game, GM, 1)
    await post(services, game, BOB, "m3", "3 AP defend")  # a turn-2 post, kept stored
    with pytest.raises(Forbidden):
        await services.resolution.undo(game, ALICE)
    summary = await services.resolution.undo(game, GM)
    assert summary.number == 1 and summary.status is TurnStatus.CLOSED
    async with uow_factory() as uow:  # the notice says whose turn-2 orders went with turn 2
        notice = [m.content for m in await uow.outbox.for_game(game) if m.kind == "undone"]
    assert notice == ["The GM (gm-1) rolled back the resolution of turn 1; it will be resolved "
                      "again. The orders already given for turn 2 (Mira) are withdrawn with it: "
                      "give them again when turn 2 opens."]
    after = await snapshot(uow_factory)
    strip = lambda records: [r.model_copy(update={"version": 0}) for r in records]  # noqa: E731
    assert strip(after[game]["characters"]) == strip(before[game]["characters"])
    turns = after[game]["turns"]
    assert [(t.number, t.status) for t in turns] == [(1, TurnStatus.CLOSED), (2, TurnStatus.VOID)]
    assert any(p.message_key == "m3" for p, _ in after[game]["posts"])
    assert (await actions(uow_factory, game))[-1] == "turn.undo"
    with pytest.raises(NotFound):
        await services.resolution.undo(game, GM)
    again = await services.resolution.resolve(game, GM, 1)  # resolves again, under number 2 again
    assert again.next_turn == 2


async def test_f30_missed_turns_are_counted_and_the_gm_is_told(services, table, uow_factory):
    """F30: "missed[c] += 1 per turn without a post; reset on any post"."""
    game = table["game"]
    await services.games.configure(game, GM, rules={"inactive_threshold": 2})
    await services.turns.pass_turn(game, BOB)
    await services.resolution.resolve(game, GM, 1)
    kael = await services.characters.show(game, "Kael")
    assert kael.missed_turns == 1 and (await services.characters.show(game, "Mira")).missed_turns == 0
    with pytest.raises(Conflict, match="missed 1 turn"):
        await services.characters.mark_inactive(game, GM, "Kael")
    view = await services.resolution.resolve(game, GM, 2)
    assert view.inactive_candidates == ("Kael",)
    inactive = await services.characters.mark_inactive(game, GM, "Kael")
    assert inactive.status.value == "inactive"
    status = await services.turns.status(game)
    assert status.missing == ("Mira",)
    assert any(c.name == "Kael" and c.state == "inactive" for c in status.characters)
    async with uow_factory() as uow:
        assert "inactive" in [m.kind for m in await uow.outbox.for_game(game)]
    await post(services, game, BOB, "m9", "3 AP defend")
    await services.resolution.resolve(game, GM, 3)
    assert (await services.characters.show(game, "Mira")).missed_turns == 0


async def test_secret_results_go_to_the_parties_only(services, table, uow_factory):
    """F29: secret PvP results "to the interested parties"."""
    game = table["game"]
    reply = await services.turns.post(game, BOB, channel_key="dm-bob", message_key="d1",
                                      text="2 AP attack Kael with Dagger\n1 AP defend",
                                      secret=True)
    assert reply.ok, reply.reply
    await post(services, game, ALICE, "m1", "3 AP defend")
    view = await services.resolution.resolve(game, GM, 1)
    assert "Mira attack" in view.gm_text and "Mira attack" not in view.text
    async with uow_factory() as uow:
        outbox = list(await uow.outbox.for_game(game))
    public = next(m for m in outbox if m.kind == "results")
    private = {m.dest_key: m for m in outbox if m.kind == "results_private"}
    assert "Mira attack" not in public.content
    assert set(private) == {ALICE, BOB, GM}  # the parties and the GM (F29)
    assert "Mira attack" in private[ALICE].content


async def test_turn_wide_gm_inputs_reach_the_resolver(services, table, uow_factory):
    """F7 Amb-7: "Bleeding triggers when the GM ends combat (a GM input event end_combat)"."""
    game = table["game"]
    seen = []
    from fappo_bot.service import Services
    from fappo_bot.service.base import rules_resolver

    def spy(state, orders, gm):
        seen.append(gm)
        return rules_resolver(state, orders, gm)

    spying = Services(uow_factory, clock=services.deps.clock, resolve=spy)
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="Nobody here is called Zed"):
        await spying.review.set_inputs(game, GM, extinguished=["Zed"])
    assert await snapshot(uow_factory) == before
    inputs = await spying.review.set_inputs(game, GM, end_combat=True, freed=["kael"],
                                            end_positions={"skarg": 2})
    assert inputs.end_combat and inputs.freed == ("Kael",) and inputs.end_positions == {
        "Skarg": 2}
    await spying.resolution.resolve(game, GM, 1)
    assert seen[0].end_combat and seen[0].end_positions == {"Skarg": 2}


async def test_a_post_racing_a_resolve_is_either_resolved_or_refused_never_lost(
    services, table, uow_factory
):
    game = table["game"]
    posted, resolved = await asyncio.gather(
        services.turns.post(game, ALICE, channel_key="c1", message_key="race",
                            text="3 AP defend"),
        services.resolution.resolve(game, GM, 1),
        return_exceptions=True,
    )
    assert not isinstance(resolved, BaseException), resolved
    if isinstance(posted, BaseException):
        # the turn found closed ("Post it again when turn 2 opens") or, when the resolve
        # committed between the post's read of the game and its lock of the turn, over
        assert isinstance(posted, Conflict) and "nothing" in str(posted) \
            and "recorded" in str(posted)
        assert all(o.actor != "Kael" for o in (await _resolution(uow_factory, game)).orders)
    elif posted.turn == 1:
        assert posted.ok
        assert any(o.actor == "Kael" for o in (await _resolution(uow_factory, game)).orders)
    else:  # the resolve committed before the post read the game: it went to the next turn
        assert posted.ok and posted.turn == 2
        assert all(o.actor != "Kael" for o in (await _resolution(uow_factory, game)).orders)


async def _resolution(uow_factory, game):
    async with uow_factory() as uow:
        return await uow.resolutions.latest(game)


async def test_undo_is_refused_when_characters_changed_since(services, table, uow_factory):
    game = table["game"]
    await post(services, game, GM, "g1", NPCS)
    await services.resolution.resolve(game, GM, 1)
    await services.aftermath.end_adventure(game, GM, {"Kael": 2})
    before = await snapshot(uow_factory)
    with pytest.raises(Conflict, match="Kael.*changed after turn 1"):
        await services.resolution.undo(game, GM)
    assert await snapshot(uow_factory) == before


async def test_f29_secret_orders_reach_the_gms_review_only_after_the_seal(
    services, table, uow_factory
):
    game = table["game"]
    reply = await services.turns.post(game, BOB, channel_key="dm-bob", message_key="d1",
                                      text="2 AP Stealth: slip behind Skarg\n1 AP defend",
                                      secret=True)
    assert reply.ok
    await post(services, game, ALICE, "m1", KAEL)  # a claim to rule on, in the open
    await post(services, game, GM, "g1", NPCS)
    review, items = await by_field(services, game)
    assert review.hidden_secret == 1 and ("Mira", "difficulty") not in items
    before = await snapshot(uow_factory)
    with pytest.raises(InvalidInput, match="1 secret order"):
        await services.resolution.resolve(game, GM, 1)
    assert await snapshot(uow_factory) == before  # not even sealed
    await services.review.answer(game, GM, {items[("Kael", "claim")].key: "refuse"})
    with pytest.raises(InvalidInput, match="slip behind Skarg"):
        await services.resolution.resolve(game, GM, 1)  # sealed now; Mira's difficulty is due
    assert (await services.turns.status(game)).npc_sealed
    review, items = await by_field(services, game)
    await services.review.answer(game, GM, {items[("Mira", "difficulty")].key: 4})
    view = await resolved(services, game, GM, 1)
    assert any(a.actor == "Mira" and a.difficulty == 4 for a in view.result.actions)


@pytest.mark.parametrize(("answer", "effective"), [(None, False), ("yes", True)])
async def test_f7_amb4_melee_on_a_target_moving_away_asks_whether_it_was_engaged(
    services, table, answer, effective
):
    """RULINGS Amendments, F7 Amb-4: "when the target of a melee attack moves away in the same
    turn, the attack needs the GM's ruling that the attacker engaged (... the bot asks in the
    review, default no); without it the attack is void"."""
    game = table["game"]
    await post(services, game, ALICE, "m1", "2 AP attack Skarg with Broadsword")
    await services.turns.pass_turn(game, BOB)
    await post(services, game, GM, "g1", "**Skarg**\nmove 2 away from Kael")
    review, items = await by_field(services, game)
    question = items[("Kael", "engaged")]
    assert not question.required and "Skarg moves away" in question.question
    assert ("Skarg", "engaged") not in items
    if answer is not None:
        await services.review.answer(game, GM, {question.key: answer})
    result = await resolved(services, game, GM, 1)
    attack = next(a for a in result.result.actions if a.actor == "Kael" and a.index == 0)
    assert attack.effective is effective
    assert (attack.total is not None) is effective


@pytest.mark.parametrize("conditional", ["attack", "move"])
async def test_f7_amb4_the_engaged_question_follows_the_gms_answers(services, table, conditional):
    """The engaged question reads the orders as the GM's answers make them: a conditional
    attack on "it" whose GM-named target moves away, and a target whose conditional move away
    the GM rules triggered, both ask it (the question never appeared, so the attack was void
    and the GM could not rule that Kael engaged)."""
    game = table["game"]
    if conditional == "attack":
        kael, skarg = "If it runs: 2 AP attack it with Broadsword", "**Skarg**\nmove 2 away"
    else:
        kael, skarg = "2 AP attack Skarg with Broadsword", \
            "**Skarg**\nIf Kael charges: move 2 away from Kael"
    await post(services, game, ALICE, "m1", kael)
    await services.turns.pass_turn(game, BOB)
    await post(services, game, GM, "g1", skarg)
    _, items = await by_field(services, game)
    assert ("Kael", "engaged") not in items
    who = "Kael" if conditional == "attack" else "Skarg"
    review = await services.review.answer(game, GM, {items[(who, "triggered")].key: "yes"})
    if conditional == "attack":
        target = next(i for i in review.items if i.field == "target")
        await services.review.answer(game, GM, {target.key: "Skarg"})
    _, items = await by_field(services, game)
    question = items[("Kael", "engaged")]
    assert "Skarg moves away" in question.question and not question.required
    await services.review.answer(game, GM, {question.key: "yes"})
    result = await resolved(services, game, GM, 1)
    attack = next(a for a in result.result.actions if a.actor == "Kael" and a.index == 0)
    assert attack.effective and attack.total is not None


async def test_f7_amb4_a_spear_the_game_throws_asks_no_engaged_question(services, table):
    """A Spear the game maps to Throwing is thrown (ranged), as the engine resolves it (F19
    amendment): no engaged question for it (one was asked, for nothing)."""
    game = table["game"]
    await services.games.set_setting(game, GM, "weapon_skills", "Spear=Throwing")
    tess = sheet("Kael", name="Tess", skills={"Throwing": 3}, weapons=["Spear"])
    assert (await services.characters.create(game, CAROL, tess)).ok
    await post(services, game, CAROL, "m1", "2 AP attack Skarg with Spear")
    await post(services, game, ALICE, "m2", "2 AP attack Skarg with Broadsword")
    await services.turns.pass_turn(game, BOB)
    await post(services, game, GM, "g1", "**Skarg**\nmove 2 away")
    _, items = await by_field(services, game)
    assert ("Kael", "engaged") in items
    assert ("Tess", "engaged") not in items


async def test_f4_amb14_no_veto_question_for_the_suggested_trait_of_a_mapped_weapon(
    services, table
):
    """A Spear the game maps to Swordfighting attacks with Swordfighting, whose Suggested Trait
    is Nimble: SP from Nimble need no explanation and the review offers no veto of them (it
    read the Spear's own skill, none, and asked)."""
    game = table["game"]
    await services.games.set_setting(game, GM, "weapon_skills", "Spear=Swordfighting")
    tess = sheet("Kael", name="Tess", weapons=["Spear"])
    assert (await services.characters.create(game, CAROL, tess)).ok
    await post(services, game, CAROL, "m1", "2 AP attack Skarg with Spear, 1 SP Nimble")
    await post(services, game, ALICE, "m2", "2 AP attack Skarg with Broadsword, 1 SP Tireless")
    _, items = await by_field(services, game)
    assert ("Kael", "veto") in items
    assert ("Tess", "veto") not in items


@pytest.mark.parametrize("how", ["calltime", "deadline", "closed-before-the-fix"])
async def test_f29_call_time_seals_the_npc_orders_so_the_turn_resolves(
    services, table, uow_factory, clock, how
):
    """Time called (by /calltime or the deadline) before the GM sealed the NPC orders
    showed the GM a player's secret order while the NPC orders could still change, and the turn
    could never be resolved. Call time seals them first; a turn stored closed and unsealed (by
    an older version) is sealed by /resolve."""
    game = table["game"]
    reply = await services.turns.post(game, BOB, channel_key="dm-bob", message_key="d1",
                                      text="2 AP Stealth: slip behind Skarg\n1 AP defend",
                                      secret=True)
    assert reply.ok
    await post(services, game, ALICE, "m1", "3 AP defend")
    await post(services, game, GM, "g1", NPCS)
    if how == "calltime":
        await services.calltime.close(game, GM)
    elif how == "deadline":
        await services.calltime.set_deadline(game, GM, after=timedelta(hours=1))
        clock.advance(hours=1)
        assert [a.kind for a in await services.calltime.fire_due()] == ["deadline"]
    else:
        async with uow_factory() as uow:
            turn = await uow.turns.latest(game)
            await uow.turns.update(turn.model_copy(update={
                "status": TurnStatus.CLOSED, "closed_at": clock.now(),
                "version": turn.version + 1}))
            await uow.commit()
    status = await services.turns.status(game)
    assert status.turn.status is TurnStatus.CLOSED
    if how != "closed-before-the-fix":
        assert status.npc_sealed  # sealed before any secret could be shown
    review, items = await by_field(services, game)
    if not status.npc_sealed:
        assert ("Mira", "difficulty") not in items and review.hidden_secret == 1
    with pytest.raises(InvalidInput, match="slip behind Skarg"):
        await services.resolution.resolve(game, GM, 1)
    assert (await services.turns.status(game)).npc_sealed
    review, items = await by_field(services, game)
    await services.review.answer(game, GM, {items[("Mira", "difficulty")].key: 4})
    view = await resolved(services, game, GM, 1)
    assert any(a.actor == "Mira" and a.difficulty == 4 for a in view.result.actions)
    assert (await services.turns.reveal(game, 1)).verified


@pytest.mark.parametrize("auto_open", [True, False])
async def test_f29_a_secret_hit_stays_out_of_the_status_and_the_turn_notice(
    services, table, uow_factory, auto_open
):
    """After a PvP attack sent by DM the public status listed "Hits open to Reduce:
    Mira (4 from Kael)" and the turn-opened notice counted it. Secret results stay with their
    audience (F29); a hit dealt in the open is still listed and counted."""
    game = table["game"]
    if not auto_open:
        await services.games.configure(game, GM, settings={"auto_open_next": False})
    reply = await services.turns.post(game, ALICE, channel_key="dm-alice", message_key="d1",
                                      text="3 AP attack Mira with Broadsword", secret=True)
    assert reply.ok, reply.reply
    await post(services, game, BOB, "m1", "3 AP defend")
    await post(services, game, GM, "g1", "**Skarg**\n3 AP attack Kael with Broadsword")
    view = await resolved(services, game, GM, 1)
    assert {h.attacker for h in view.result.state.pending} == {"Kael", "Skarg"}
    if not auto_open:
        await services.turns.open(game, GM)
    status = await services.turns.status(game)
    assert [h.attacker for h in status.pending_hits] == ["Skarg"]
    async with uow_factory() as uow:
        notices = [m.content for m in await uow.outbox.for_game(game)
                   if m.kind == "turn_opened"]
    assert "1 hit of the last turn" in notices[-1]


async def test_the_turn_before_is_read_by_its_number_not_among_the_whole_history(
    services, table, uow_factory, monkeypatch
):
    """Which hits open to Reduce everyone may see depends on the turn before (F29): it was
    looked for among every turn of the game, so a status, and a resolve, cost more the longer
    the game ran. Only the turn open and the one before it are read."""
    game = table["game"]
    for number in (1, 2):
        await post(services, game, ALICE, f"a{number}", "3 AP defend")
        await post(services, game, BOB, f"b{number}", "3 AP defend")
        await post(services, game, GM, f"g{number}",
                   "**Skarg**\n3 AP defend\n**Goblins**\n2 AP defend")
        await services.resolution.resolve(game, GM, number)
    reply = await services.turns.post(game, ALICE, channel_key="dm-alice", message_key="d3",
                                      text="3 AP attack Mira with Broadsword", secret=True)
    assert reply.ok, reply.reply
    await post(services, game, BOB, "b3", "3 AP defend")
    await post(services, game, GM, "g3", "**Skarg**\n3 AP attack Kael with Broadsword")
    await services.resolution.resolve(game, GM, 3)

    read: list[int] = []
    async with uow_factory() as uow:
        repository = type(uow.turns)
    for name in ("get", "latest", "by_number", "list", "due"):
        method = getattr(repository, name)

        async def counted(self, *args, _method=method, **kwargs):
            found = await _method(self, *args, **kwargs)
            for turn in found if isinstance(found, list | tuple) else [found]:
                if turn is not None:
                    read.append(turn.number)
            return found

        monkeypatch.setattr(repository, name, counted)
    status = await services.turns.status(game)
    assert status.turn.number == 4
    assert [h.attacker for h in status.pending_hits] == ["Skarg"]
    assert set(read) <= {3, 4}, read


async def test_an_answer_works_the_review_out_once_unless_it_can_change_the_questions(
        services, table, monkeypatch):
    """An answer that can make no question appear (a difficulty, a claim) is checked against
    the questions it had and shown with them: the review is worked out once, and the view is
    the one the review gives afresh. One that can ("triggered: yes" asks for the target) has
    them worked out again."""
    from fappo_bot.service import review as review_module

    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL)
    await post(services, game, BOB, "m2", MIRA)
    _, items = await by_field(services, game)
    real = review_module.review_items
    calls: list[int] = []

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(review_module, "review_items", counted)
    view = await services.review.answer(game, GM, {
        items[("Mira", "difficulty")].key: "4", items[("Kael", "claim")].key: "accept"})
    assert len(calls) == 1
    assert view == await services.review.review(game, GM)
    assert {(i.actor, i.field): i.answer for i in view.items if i.answered} == {
        ("Mira", "difficulty"): 4, ("Kael", "claim"): True}
    calls.clear()
    view = await services.review.answer(game, GM, {items[("Mira", "triggered")].key: "yes"})
    assert len(calls) == 2
    assert ("Mira", "target") in {(i.actor, i.field) for i in view.missing}
    assert view == await services.review.review(game, GM)


async def test_a_resolve_reads_only_the_required_and_the_answered_questions(
        services, table, uow_factory):
    """What a resolve reads of the review (`every=False`) is the review's required and answered
    questions, their answers as the review has them, without their words; the optional ones
    left unanswered (a flat-footed target, a Special to invoke) are not worked out."""
    from dataclasses import replace

    from fappo_bot.service.base import live_turn
    from fappo_bot.service.review import review_items
    from fappo_bot.service.scene import build_state, orders_in_force

    game = table["game"]
    await post(services, game, ALICE, "m1", KAEL)
    await post(services, game, BOB, "m2", MIRA)
    await post(services, game, GM, "m3", NPCS)
    _, items = await by_field(services, game)
    await services.review.answer(game, GM, {
        items[("Mira", "difficulty")].key: "4", items[("Kael", "flat_footed")].key: "yes"})
    async with uow_factory() as uow:
        found = await uow.games.get(game)
        turn = await live_turn(uow, found)
        state = build_state(found, turn, list(await uow.characters.list(game)))
        in_force = await orders_in_force(uow, turn)
    every = review_items(state, in_force, turn.gm_answers, turn.gm_inputs)
    read = review_items(state, in_force, turn.gm_answers, turn.gm_inputs, every=False)
    assert read == [replace(q, question="") for q in every if q.required or q.answered]
    assert ("Kael", "flat_footed") in {(q.actor, q.field) for q in read}
    assert any(not q.required and not q.answered for q in every)

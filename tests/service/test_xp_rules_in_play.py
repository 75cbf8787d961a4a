"""Xp rules that were only in the rules core, played through the use cases: a player's new sheet
begins with 2 Passions and 2 Flaws (X15), the game flag `xp_failure_takes_longer` (X6: a failed
test where time is freely available took longer), one wording of a group roll's members for
the GM's group rolls and a turn's results (X11), a Cut! asked in a post and priced by the GM, the
GM's events (X17), and ranks shown and depleted (X16). Runs on the fake, SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from fappo_bot.render_xp import member_lines
from fappo_bot.rules_xp.dice import RandomDice
from fappo_bot.rules_xp.roll import RollOutcome, roll
from fappo_bot.service import Forbidden, InvalidInput, NotFound
from fappo_bot.service.records import Role
from fappo_bot.service.xp_rolls import generator
from fappo_bot.sheets.xp import render_xp_sheet
from tests.service.conftest import ALICE, BOB, GM
from tests.service.test_xp_flags import services_with_seed
from tests.service.test_xp_play import xp_sheet

pytestmark = pytest.mark.integration

#: 8d at Normal, heroic, needing 6, from this seed: a failure (3 successes, 1 one), not a fumble
LONGER_SEED = "seed0002"
#: the same roll from this seed: a fumble (1 success, 3 ones)
FUMBLE_SEED = "seed0001"


async def _game(services, *, flag: bool = False) -> str:
    game = await services.games.create(channel_key="xp-1", name="Tomb of Ankh", creator=GM,
                                       ruleset="xp")
    for player in (ALICE, BOB):
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
    if flag:
        await services.games.set_setting(game.id, GM, "xp_failure_takes_longer", "on")
    return game.id


async def test_a_players_new_sheet_begins_with_two_passions_and_two_flaws(services):
    game = await _game(services)
    one = await services.characters.create_from_data(
        game, ALICE, xp_sheet("nefer", passions=["Protect my brother Khai"], flaws=[]))
    assert not one.ok
    assert one.problems == (
        "passions: a player's character begins with 2 Passions (X15), not 1 Passion; write 2, "
        "each of 2 to 6 words, such as passions: [Protect my sister at all costs, Gold buys "
        "every door].",
        "flaws: a player's character begins with 2 Flaws (X15), not 0 Flaws; write 2, each of 2 "
        "to 6 words, such as flaws: [Cannot resist a wager, Talks too much].")
    # the GM adding a player's character is held to it too; nothing was stored
    three = await services.characters.create_from_data(
        game, GM, xp_sheet("nefer", passions=["Aa bb", "Cc dd", "Ee ff"]), owner=ALICE)
    assert not three.ok and "not 3 Passions" in three.problems[0]
    # an NPC "will generally only have one or none": not counted
    guard = await services.characters.create_from_data(game, GM, xp_sheet("guard"), kind=None)
    assert guard.ok
    assert (await services.characters.create_from_data(game, ALICE, xp_sheet("nefer"))).ok


async def test_a_stored_sheet_is_not_checked_again(services, uow_factory):
    """A sheet stored before the check (one Passion) still plays: the check is at creation."""
    game = await _game(services)
    assert (await services.characters.create_from_data(game, ALICE, xp_sheet("nefer"))).ok
    async with uow_factory() as uow:
        [nefer] = [r for r in await uow.characters.list(game) if r.name == "Nefer"]
        await uow.characters.update(nefer.model_copy(update={
            "xp": nefer.xp.model_copy(update={"passions": ("Protect my brother Khai",)}),
            "version": nefer.version + 1}))
        await uow.commit()
    await services.turns.open(game, GM)
    reply = await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                                      text="roll Stealth: past the guard")
    assert reply.ok
    assert (await services.characters.show(game, "Nefer")).xp.passions == (
        "Protect my brother Khai",)


def _expected(seed: str) -> RollOutcome:
    return roll(8, 0, heroic=True, dice=RandomDice(generator(seed)), need=6).outcome


@pytest.mark.parametrize(("seed", "longer"), [(LONGER_SEED, True), (FUMBLE_SEED, False)])
async def test_a_failed_test_took_longer_where_the_game_plays_it(uow_factory, clock, seed,
                                                                 longer):
    """X6: with `xp_failure_takes_longer`, the review asks of each test whether time is freely
    available (default yes); a failure then took longer, a fumble stays a fumble."""
    services = services_with_seed(uow_factory, clock, seed)
    game = await _game(services, flag=True)
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    await services.turns.open(game, GM)
    await services.turns.post(game, BOB, channel_key="xp-1", message_key="m1",
                              text="roll Lore: read the seal")
    review = await services.review.review(game, GM)
    keys = {i.field: i for i in review.items}
    assert "a failure only means it took longer? (X6)" in keys["longer"].question
    assert keys["longer"].default == "yes"
    assert not keys["longer"].required
    await services.review.answer(game, GM, {keys["difficulty"].key: "routine",
                                            keys["need"].key: "6"})
    done = await services.resolution.resolve(game, GM, 1)
    assert (_expected(seed) is RollOutcome.FAILURE) is longer
    took = "it took longer than thought: time was freely available, so the task succeeds"
    assert (took in done.text) is longer, done.text
    assert any(r.get("took_longer") for r in done.rolls) is longer


async def test_the_gm_says_time_was_not_free_and_the_failure_stands(uow_factory, clock):
    services = services_with_seed(uow_factory, clock, LONGER_SEED)
    game = await _game(services, flag=True)
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    await services.turns.open(game, GM)
    await services.turns.post(game, BOB, channel_key="xp-1", message_key="m1",
                              text="roll Lore: read the seal")
    keys = {i.field: i.key for i in (await services.review.review(game, GM)).items}
    await services.review.answer(game, GM, {keys["difficulty"]: "routine", keys["need"]: "6",
                                            keys["longer"]: "no"})
    done = await services.resolution.resolve(game, GM, 1)
    assert "took longer" not in done.text and ": failure" in done.text


async def test_without_the_flag_nothing_is_asked_and_a_case_leaves_it_out(services):
    game = await _game(services)
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    await services.turns.open(game, GM)
    await services.turns.post(game, BOB, channel_key="xp-1", message_key="m1",
                              text="roll Lore: read the seal")
    assert "longer" not in {i.field for i in (await services.review.review(game, GM)).items}
    # on, the flag words a turn's tests only: a GM roll's record and its case leave it out
    await services.games.set_setting(game, GM, "xp_failure_takes_longer", "on")
    view = await services.xp_rolls.roll(game, GM, name="Aster", pool=3, sl=0, who="pc")
    case = await services.xp_rolls.case(game, GM, view.id)
    assert "options" not in case


async def test_a_group_roll_reads_the_same_from_the_gm_and_in_a_turn(services):
    """X11: the GM's collateral roll and a turn's collateral group roll word their members with
    the one `member_lines` (the turn indents them under its head)."""
    game = await _game(services)
    assert (await services.characters.create_from_data(game, ALICE, xp_sheet("nefer"))).ok
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    await services.turns.open(game, GM)
    await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                              text="group roll Stealth")
    await services.turns.post(game, BOB, channel_key="xp-1", message_key="m2",
                              text="group roll Stealth")
    keys = {i.field: i.key for i in (await services.review.review(game, GM)).items}
    await services.review.answer(game, GM, {keys["mode"]: "collateral",
                                            keys["difficulty"]: "routine"})
    done = await services.resolution.resolve(game, GM, 1)
    lines = done.text.splitlines()
    head = lines.index("Collateral group roll of Stealth, routine, need 1 (Nefer, Khai):")
    assert lines[head + 1].startswith("  Nefer: 6d at Normal (5-6): [")
    assert lines[head + 3] in {"  0 of 2 succeed.", "  1 of 2 succeed.", "  2 of 2 succeed."}
    gm = await services.xp_groups.group(game, GM, kind="collateral",
                                        members="Nefer 6d, Khai 4d")
    gm_lines = gm.public.splitlines()
    assert gm_lines[0] == "Collateral group roll, need 1 (Nefer, Khai):"
    assert gm_lines[1].startswith("Nefer: 6d at Normal (5-6): [")
    assert gm_lines[-1].endswith(" of 2 succeed.")
    assert member_lines.__doc__ and "a turn's results alike" in member_lines.__doc__


async def _two(services) -> str:
    game = await _game(services)
    assert (await services.characters.create_from_data(game, ALICE, xp_sheet("nefer"))).ok
    assert (await services.characters.create_from_data(game, BOB, xp_sheet("khai"))).ok
    return game


async def test_a_cut_in_a_post_is_granted_at_the_gms_luck_price(services, uow_factory):
    """X17: the review asks whether the Cut! is granted, then its price; the results record the
    price and the Luck it took, and the turn's audit entry keeps it."""
    game = await _two(services)
    await services.turns.open(game, GM)
    reply = await services.turns.post(game, BOB, channel_key="xp-1", message_key="m1",
                                      text="Cut!: I read the curse aloud and the door opens")
    assert reply.ok and "asks for a Cut!" in reply.reply
    await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m2",
                              text="Cut!: I vanish into the crowd")
    review = await services.review.review(game, GM)
    granted = {i.actor: i for i in review.items if i.field == "granted"}
    assert set(granted) == {"Khai", "Nefer"} and all(i.required for i in granted.values())
    assert not [i for i in review.items if i.field == "price"]  # asked once granted
    view = await services.review.answer(game, GM, {granted["Khai"].key: "yes",
                                                   granted["Nefer"].key: "no"})
    [price] = [i for i in view.items if i.field == "price"]
    assert "price in Luck" in price.question and "Khai has 2" in price.question
    with pytest.raises(InvalidInput, match="Answer from 0 to 99"):
        await services.review.answer(game, GM, {price.key: "100"})
    await services.review.answer(game, GM, {price.key: "2"})
    done = await services.resolution.resolve(game, GM, 1)
    assert ('Khai takes the Cut! "I read the curse aloud and the door opens": Luck 2 -> 0, '
            "the GM's price; the GM narrates it.") in done.text
    assert 'Nefer: the Cut! "I vanish into the crowd" is not granted; no Luck spent' in done.text
    assert (await services.characters.show(game, "Khai")).xp.luck == 0
    async with uow_factory() as uow:
        [entry] = [e for e in await uow.audit.list(game) if e.action == "xp.turn"]
    assert entry.detail["events"] == [{"kind": "cut", "name": "Khai", "price": 2,
                                       "text": "I read the curse aloud and the door opens",
                                       "luck": [2, 0]}]


async def test_a_cut_dearer_than_the_luck_left_is_not_taken(services):
    game = await _two(services)
    await services.turns.open(game, GM)
    await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                              text="Cut!: I vanish into the crowd")
    [granted] = [i for i in (await services.review.review(game, GM)).items]
    view = await services.review.answer(game, GM, {granted.key: "yes"})
    [price] = [i for i in view.items if i.field == "price"]
    await services.review.answer(game, GM, {price.key: "3"})
    done = await services.resolution.resolve(game, GM, 1)
    assert "costs 3 Luck and Nefer has 1; not taken." in done.text
    assert (await services.characters.show(game, "Nefer")).xp.luck == 1


async def test_the_gm_records_events_and_a_cut_with_its_price(services, uow_factory):
    game = await _two(services)
    ended = await services.xp_events.event(game, GM, kind="event", note="the ambush is over")
    assert ended.text == ("End of the event (X17): what lasts an Event ends now. the ambush "
                          "is over")
    parley = await services.xp_events.event(game, GM, kind="parley")
    assert parley.text == "Parley (X17): time and actions stop for the two sides to talk."
    cut = await services.xp_events.event(game, GM, kind="Cut!", character="khai", luck=1,
                                         note="he reads the curse")
    assert cut.text == ("Cut! (X17): Khai takes control of the scene, for 1 Luck (the GM's "
                        "price): Luck 2 -> 1. he reads the curse")
    assert (await services.characters.show(game, "Khai")).xp.luck == 1
    for kwargs, text in (
        ({"kind": "brunch"}, "An event is one of event, session"),
        ({"kind": "cut"}, "A Cut! names the character"),
        ({"kind": "parley", "character": "Khai"}, "Only a Cut! names a character"),
        ({"kind": "cut", "character": "Khai", "luck": 5}, "Khai has 1 Luck; the Cut! costs 5"),
        ({"kind": "cut", "character": "Zed", "luck": 0}, 'no character "Zed"'),
        ({"kind": "session", "note": "x" * 301}, "at most 300 characters"),
    ):
        with pytest.raises((InvalidInput, NotFound), match=text):
            await services.xp_events.event(game, GM, **kwargs)
    with pytest.raises(Forbidden):
        await services.xp_events.event(game, ALICE, kind="session")
    async with uow_factory() as uow:
        kinds = [e.detail["kind"] for e in await uow.audit.list(game) if e.action == "xp.event"]
    assert kinds == ["event", "parley", "cut"]


async def test_ranks_are_shown_depleted_to_minus_three_and_recovered(services):
    """X16: Nefer (BODY Healthy +1, MIND Smart +1): Physical 5, Mental 5, the magical ranks 4."""
    game = await _game(services)
    sheet = xp_sheet("nefer", ranks={"physical": 1})
    assert (await services.characters.create_from_data(game, ALICE, sheet)).ok
    nefer = (await services.characters.show(game, "Nefer")).xp
    assert render_xp_sheet(nefer).splitlines()[-2] == (
        "  Ranks: Physical 6, Mental 5, Elemental 4, Spiritual 4")
    hit = await services.xp_events.rank(game, GM, name="nefer", rank="Physical", change=-4)
    assert hit.text == "Nefer loses 4 Physical rank: 6 -> 2 of 6 (X16)."
    worse = await services.xp_events.rank(game, GM, name="Nefer", rank="physical", change=-9)
    assert worse.text == "Nefer loses 9 Physical rank: 2 -> -3 of 6 (the floor, X16) (X16)."
    back = await services.xp_events.rank(game, GM, name="Nefer", rank="physical", change=20)
    assert back.text == "Nefer recovers 20 Physical rank: -3 -> 6 of 6 (X16)."
    await services.xp_events.rank(game, GM, name="Nefer", rank="spiritual", change=-1)
    nefer = (await services.characters.show(game, "Nefer")).xp
    assert "Spiritual 3 of 4" in render_xp_sheet(nefer) and nefer.rank_now("elemental") == 4
    for kwargs, text in (({"rank": "luck", "change": -1}, "A rank is physical, mental"),
                         ({"rank": "mental", "change": 0}, "not 0"),
                         ({"rank": "mental", "change": -21}, "not -21")):
        with pytest.raises(InvalidInput, match=text):
            await services.xp_events.rank(game, GM, name="Nefer", **kwargs)
    with pytest.raises(Forbidden):
        await services.xp_events.rank(game, ALICE, name="Nefer", rank="mental", change=-1)
    bad = await services.characters.create_from_data(
        game, BOB, xp_sheet("khai", ranks={"luck": 1, "mental": 12}))
    assert not bad.ok and any("ranks.luck: no such rank" in p for p in bad.problems)
    assert any("ranks.mental: a whole number from -8 to 8" in p for p in bad.problems)


async def test_nothing_live_leaves_the_event_and_rank_use_cases(services):
    import inspect

    from fappo_bot.service.xp_events import XpEventService
    from tests.service.test_guard_walk import KAEL, PROSE, Recorder

    game = await _game(services)
    assert (await services.characters.create_from_data(
        game, ALICE, xp_sheet("nefer", name=KAEL))).ok
    s = Recorder(services)
    await s.xp_events.event(game, GM, kind="cut", character=KAEL, luck=1, note=PROSE)
    await s.xp_events.event(game, GM, kind="@everyone")  # refused
    await s.xp_events.rank(game, GM, name=KAEL, rank="mental", change=-1)
    await s.xp_events.rank(game, GM, name="<@1>", rank="mental", change=-1)  # refused
    names = {f"xp_events.{n}" for n, v in inspect.getmembers(XpEventService)
             if not n.startswith("_") and inspect.iscoroutinefunction(v)}
    assert names <= s.called and not s.leaks, s.leaks


async def test_a_roll_over_time_shows_every_unit_and_its_end(services):
    """X9: the review asks the time unit and how many units the time allows; the results show
    each unit's dice and how the attempt ended."""
    game = await _two(services)
    await services.turns.open(game, GM)
    reply = await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                                      text="roll Lockpicking over time: the tomb door")
    assert reply.ok and "over time" in reply.reply
    items = {i.field: i for i in (await services.review.review(game, GM)).items}
    assert items["unit"].required and items["units"].required
    with pytest.raises(InvalidInput, match="is no duration"):
        await services.review.answer(game, GM, {items["unit"].key: "soon"})
    with pytest.raises(InvalidInput, match="Answer from 1 to 100"):
        await services.review.answer(game, GM, {items["units"].key: "0"})
    await services.review.answer(game, GM, {items["difficulty"].key: "routine",
                                            items["unit"].key: "1m", items["units"].key: "5",
                                            items["need"].key: "4"})
    done = await services.resolution.resolve(game, GM, 1)
    line = next(x for x in done.text.splitlines() if "over time" in x)
    assert line.startswith('Nefer, Lockpicking ("the tomb door"), routine, over time (1m a unit, '
                           "at most 5), need 4: ")
    assert ("success after" in line) or ("out of dice" in line) or ("out of time" in line)
    assert "  unit 1: 5d [" in done.text  # Lockpicking: 4 + Normal 0 + MIND Smart 1
    [logged] = [r for r in done.rolls if r["what"] == "over time"]
    assert logged["unit"] == 60 and logged["units"] == 5 and logged["need"] == 4


async def test_an_augment_rolls_first_and_adds_its_successes(services):
    """X12: Khai rolls Stealth and MIND first; their successes are dice added to his Lore."""
    game = await _two(services)
    await services.turns.open(game, GM)
    await services.turns.post(game, BOB, channel_key="xp-1", message_key="m1",
                              text="roll Lore augmented by Stealth, MIND: read the seal")
    items = {i.field: i for i in (await services.review.review(game, GM)).items}
    assert "may Khai first roll Stealth, MIND to add their successes as dice" in \
        items["augment"].question
    await services.review.answer(game, GM, {items["difficulty"].key: "routine",
                                            items["augment"].key: "yes"})
    done = await services.resolution.resolve(game, GM, 1)
    augments = [r for r in done.rolls if r["what"] == "augment"]
    assert [r["pool"] for r in augments] == [4, 6]  # Stealth 4 + 0 + 0; raw MIND 4 + 2
    added = sum(0 if r["outcome"] == "fumble" else r["s"] for r in augments)
    assert "  Khai augments with Stealth: 4d at Normal (5-6): [" in done.text
    assert "  Khai augments with MIND: 6d at Normal (5-6): [" in done.text
    [lore] = [r for r in done.rolls if r["what"] == "test"]
    assert lore["pool"] == 8 + added
    assert f'Khai, Lore ("read the seal"), routine, augmented (+{added}d): ' in done.text or \
        (added == 0 and 'Khai, Lore ("read the seal"), routine: ' in done.text)


async def test_the_gms_reroll_over_time_is_stored_replayed_and_a_case(services):
    from tests.service.test_xp_flags import runs_as_a_case

    game = await _game(services)
    shown = await services.xp_timed.reroll(game, GM, name="Aster", pool=5, need=4, unit="1m",
                                           units=5)
    head = shown.public.splitlines()[0]
    assert head.startswith("Aster: 5d over time (1m a unit, at most 5), need 4: ")
    assert shown.public.splitlines()[1].startswith("  unit 1: 5d [")
    assert "Seed salt" in shown.gm and "Seed" not in shown.public
    [listed] = await services.xp_rolls.rolls(game, GM)
    assert listed.kind == "reroll" and listed.public == shown.public
    case = await services.xp_rolls.case(game, GM, shown.id)
    assert case["kind"] == "xp-reroll" and case["time_unit"] == 60 and case["max_units"] == 5
    runs_as_a_case(case)
    for kwargs, text in (({"unit": "soon"}, "is no duration"), ({"units": 0}, "1 to 100 units"),
                         ({"pool": 101}, "0 to 100 dice"), ({"need": 0}, "at least 1")):
        args = {"name": "Aster", "pool": 5, "unit": "1m", "units": 5, **kwargs}
        with pytest.raises(InvalidInput, match=text):
            await services.xp_timed.reroll(game, GM, **args)
    with pytest.raises(Forbidden):
        await services.xp_timed.reroll(game, ALICE, name="A", pool=3, unit="1m", units=2)


async def test_the_gms_augmented_roll_is_stored_replayed_and_a_case(services):
    from tests.service.test_xp_flags import runs_as_a_case

    game = await _game(services)
    shown = await services.xp_timed.augment(game, GM, name="Trap removal", pool=5,
                                            augments="Perception 5d, Lore 3d superior")
    lines = shown.public.splitlines()
    assert lines[0].startswith("Perception augments: 5d at Normal (5-6): [")
    assert lines[1].startswith("Lore augments: 3d at Superior (3-6): [")
    assert lines[2].startswith("Trap removal, augmented (+")
    [listed] = await services.xp_rolls.rolls(game, GM)
    assert listed.kind == "augmented" and listed.name == "Trap removal"
    case = await services.xp_rolls.case(game, GM, shown.id)
    assert case["kind"] == "xp-augmented" and [a["name"] for a in case["augments"]] == [
        "Perception", "Lore"]
    runs_as_a_case(case)
    with pytest.raises(InvalidInput, match="not as the roll it augments"):
        await services.xp_timed.augment(game, GM, name="Lore", pool=3, augments="Lore 3d")
    with pytest.raises(InvalidInput, match="name the rollers|Name"):
        await services.xp_timed.augment(game, GM, name="Trap", pool=3, augments=" ")


async def test_nothing_live_leaves_the_timed_rolls(services):
    import inspect

    from fappo_bot.service.xp_timed import XpTimedService
    from tests.service.test_guard_walk import KAEL, PROSE, Recorder

    game = await _game(services)
    s = Recorder(services)
    await s.xp_timed.reroll(game, GM, name=KAEL, pool=3, unit="1m", units=3)
    await s.xp_timed.reroll(game, GM, name=PROSE, pool=3, unit="@everyone", units=3)  # refused
    await s.xp_timed.augment(game, GM, name=KAEL, pool=3, augments=f"{PROSE} 2d, @here 1d")
    names = {f"xp_timed.{n}" for n, v in inspect.getmembers(XpTimedService)
             if not n.startswith("_") and inspect.iscoroutinefunction(v)}
    assert names <= s.called and not s.leaks, s.leaks


async def test_a_contest_over_time_rerolls_both_sides(services):
    """X9: "Where the roll is Contested then the opposing side also gets to reroll everytime"."""
    game = await _two(services)
    assert (await services.characters.create_from_data(game, GM, xp_sheet("guard"),
                                                       kind=None)).ok
    await services.turns.open(game, GM)
    await services.turns.post(game, ALICE, channel_key="xp-1", message_key="m1",
                              text="roll Stealth against Guard over time: wait him out")
    items = {i.field: i.key for i in (await services.review.review(game, GM)).items}
    await services.review.answer(game, GM, {items["opponent"]: "Perception", items["unit"]: "1m",
                                            items["units"]: "3"})
    done = await services.resolution.resolve(game, GM, 1)
    head = next(x for x in done.text.splitlines() if "over time" in x)
    assert head.startswith('Nefer, Stealth ("wait him out") against Guard (Perception), over '
                           "time (1m a unit, at most 3): ")
    assert "  Nefer, unit 1: 6d [" in done.text and "  Guard, unit 1: 4d [" in done.text
    assert {r["name"] for r in done.rolls if r["what"] == "contest over time"} == {"Nefer",
                                                                                  "Guard"}

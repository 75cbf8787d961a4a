"""Playing an Xp turn through the generic use cases: Xp sheets, posts read by the Xp
post language (the reply names the roll and its pool), the GM's review in the same
question/answer model as FAPPO's, and a resolution that rolls every die from a seeded generator,
stores the seeds and dice, and posts them all. Runs on the fake, SQLite and PostgreSQL."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from fappo_bot.render_xp import roll_text
from fappo_bot.rules_xp.dice import RandomDice
from fappo_bot.rules_xp.roll import roll
from fappo_bot.service import Conflict, InvalidInput, NotFound, xp_play
from fappo_bot.service.records import Post, PostRevision, Role
from fappo_bot.service.views import PostOutcome
from fappo_bot.service.xp_rolls import generator
from tests.service.conftest import ALICE, BOB, GM

XP_EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "xp-adventure"


def xp_sheet(example: str, **changes: Any) -> dict[str, Any]:
    data = yaml.safe_load((XP_EXAMPLES / f"{example}.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    return data


@pytest.fixture
async def xp_table(services) -> str:
    game = await services.games.create(channel_key="xp-1", name="Tomb of Ankh", creator=GM,
                                       ruleset="xp")
    for player in (ALICE, BOB):
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
    assert (await services.characters.create_from_data(game.id, ALICE, xp_sheet("nefer"))).ok
    assert (await services.characters.create_from_data(game.id, BOB, xp_sheet("khai"))).ok
    assert (await services.characters.create_from_data(game.id, GM, xp_sheet("guard"),
                                                       kind=None)).ok
    await services.turns.open(game.id, GM)
    return game.id


async def post(services, game, author, text, key="m1"):
    return await services.turns.post(game, author, channel_key="xp-1", message_key=key,
                                     text=text)


async def test_an_xp_sheet_is_checked_stored_and_shown(services, xp_table):
    shown = await services.characters.show(xp_table, "Nefer")
    assert shown.xp is not None and shown.xp.luck == 1
    assert shown.xp.skill("stealth").rank == 1
    guard = await services.characters.show(xp_table, "Guard")
    assert guard.kind.value == "npc" and guard.xp is not None and not guard.xp.heroic
    bad = await services.characters.create_from_data(
        xp_table, ALICE, xp_sheet("nefer", name="Nefer II", passions=["Gold"],
                                  characteristics={"BODY": 5}))
    assert not bad.ok
    assert any("passions" in p and "2 to 6 words" in p for p in bad.problems)
    assert any("characteristics.BODY" in p for p in bad.problems)


async def test_a_fappo_sheet_is_refused_in_an_xp_game_and_the_other_way(services, xp_table):
    check = await services.characters.create_from_data(
        xp_table, ALICE, {"name": "Kael", "traits": {"Nimble": 5}})
    assert not check.ok and any("unknown field traits" in p for p in check.problems)
    fappo = await services.games.create(channel_key="c9", name="Goblin Road", creator=GM)
    with pytest.raises(Conflict, match="Xp sheet"):
        await services.characters.create_xp(fappo.id, GM, xp_sheet("guard"))


async def test_a_post_gets_its_roll_and_pool_and_problems_with_lines(services, xp_table):
    reply = await post(services, xp_table, ALICE,
                       "Nefer creeps along the wall.\nroll Stealth: past the guard")
    assert reply.ok and reply.outcome is PostOutcome.ACCEPTED
    assert "a test of Stealth" in reply.reply and "6d (4 + rank 1 + characteristic 1)" in reply.reply
    bad = await post(services, xp_table, BOB, "Khai mutters.\nroll Sailing\nattack the guard",
                     key="m2")
    assert not bad.ok and bad.outcome is PostOutcome.PROBLEMS
    assert [p.line for p in bad.problems] == [2, 3]
    assert bad.problems[1].hint and "General test" in bad.problems[1].hint
    talk = await post(services, xp_table, BOB, "Khai: I'll wait here.", key="m3")
    assert talk.outcome is PostOutcome.TABLE_TALK


async def test_a_turn_is_reviewed_and_resolved_with_every_die(services, xp_table, uow_factory,
                                                              clock):
    await post(services, xp_table, ALICE, "roll Stealth against Guard\npassion: Protect my brother")
    await post(services, xp_table, BOB, "roll Lore +1d: read the seal", key="m2")
    review = await services.review.review(xp_table, GM)
    fields = {(i.actor, i.field): i for i in review.items}
    assert fields[("Nefer", "opponent")].required
    assert fields[("Khai", "difficulty")].choices[0] == "easy"
    assert not fields[("Khai", "sl")].required
    with pytest.raises(InvalidInput, match="cannot be resolved"):
        await services.resolution.resolve(xp_table, GM, 1)
    with pytest.raises(InvalidInput, match="Choose one of"):
        await services.review.answer(xp_table, GM, {fields[("Khai", "difficulty")].key: "tough"})
    with pytest.raises(InvalidInput, match="Guard has no skill \"Sailing\" \\(skills: Spear, "):
        await services.review.answer(xp_table, GM, {fields[("Nefer", "opponent")].key: "Sailing"})
    await services.review.answer(xp_table, GM, {
        fields[("Nefer", "opponent")].key: "Perception",
        fields[("Nefer", "relevant")].key: "yes",
        fields[("Khai", "difficulty")].key: "difficult",
        fields[("Khai", "claim")].key: "accept",
    })
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert done.turn == 1 and done.next_turn == 2
    assert "Nefer invokes the Passion" in done.text and "Luck 1 -> 0" in done.text
    assert "Nefer, Stealth against Guard (Perception)" in done.text
    # Khai: Lore master (4 + 2) + Clever 2 - difficult 1 + the accepted 1d = 8d at Normal
    (lore,) = [r for r in done.rolls if r["name"] == "Khai"]
    assert lore["pool"] == 8 and lore["sl"] == 0
    rng = RandomDice(generator(lore["seed"]))
    again = roll(8, 0, heroic=True, dice=rng)
    assert list(again.base) == lore["base"] and list(again.bonus) == lore["bonus"]
    # the results show the roll as the GM's own rolls do: the one renderer of a roll
    assert f'Khai, Lore ("read the seal"), difficult: {roll_text(again)}' in done.text
    nefer = [r for r in done.rolls if r["name"] == "Nefer"][0]
    assert nefer["sl"] == 1  # the Passion's +1 SL
    assert (await services.characters.show(xp_table, "Nefer")).xp.luck == 0
    async with uow_factory() as uow:
        entries = [e for e in await uow.audit.list(xp_table) if e.action == "xp.turn"]
        pending = await uow.outbox.pending(clock.now())
    assert entries and entries[0].detail["rolls"][0]["seed"].startswith("salt")
    assert [m.content for m in pending if m.kind == "results"] == [done.text]
    with pytest.raises(Conflict, match="rolls stand"):
        await services.resolution.undo(xp_table, GM)


async def test_assist_group_plot_and_flaw(services, xp_table):
    await post(services, xp_table, ALICE,
               "group roll Stealth\nspend 1 plot point on the gate\nflaw: Cannot resist a wager")
    await post(services, xp_table, BOB, "group roll Stealth", key="m2")
    review = await services.review.review(xp_table, GM)
    keys = {i.field: i.key for i in review.items}
    answers = {keys["mode"]: "collateral", keys["difficulty"]: "routine",
               keys["counter"]: "no", keys["relevant"]: "yes"}
    view = await services.review.answer(xp_table, GM, answers)
    opponent = [i for i in view.items if i.field == "opponent"]
    assert opponent and "Guard" in opponent[0].choices
    await services.review.answer(xp_table, GM, {opponent[0].key: "Guard"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Collateral group roll of Stealth, routine, need 1 (" in done.text
    assert "the task succeeds without a roll" in done.text
    nefer = (await services.characters.show(xp_table, "Nefer")).xp
    assert (nefer.plot_points, nefer.luck) == (0, 2)


async def test_an_assist_gives_the_lead_dice(services, xp_table):
    await post(services, xp_table, ALICE, "roll Stealth")
    await post(services, xp_table, BOB, "assist Nefer", key="m2")
    review = await services.review.review(xp_table, GM)
    keys = {(i.actor, i.field): i.key for i in review.items}
    await services.review.answer(xp_table, GM, {keys[("Nefer", "difficulty")]: "routine",
                                                keys[("Khai", "allowed")]: "yes"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Khai assists:" in done.text and "assisted (" in done.text
    helper, lead = done.rolls
    assert (helper["name"], helper["what"], lead["name"]) == ("Khai", "assist", "Nefer")
    delta = 1 if helper["outcome"] == "success" else -2 if helper["outcome"] == "fumble" else -1
    assert lead["pool"] == 6 + delta  # X10: the supporter's result moves the lead's pool


async def test_an_edit_rereads_and_a_pass_is_refused(services, xp_table):
    await post(services, xp_table, ALICE, "roll Stealth")
    edited = await services.turns.edit(xp_table, ALICE, channel_key="xp-1", message_key="m1",
                                       text="roll Acrobatics")
    assert "Acrobatics" in edited.reply and edited.revision == 2
    review = await services.review.review(xp_table, GM)
    assert all("Stealth" not in i.question for i in review.items)
    with pytest.raises(Conflict, match="no pass"):
        await services.turns.pass_turn(xp_table, ALICE)


async def test_call_time_seals_nothing_and_fappos_aftermath_is_refused(services, xp_table):
    from fappo_bot.service import SceneGap

    await services.calltime.close(xp_table, GM)
    status = await services.turns.status(xp_table)
    assert not status.npc_sealed and status.missing == ("Nefer", "Khai")
    with pytest.raises(Conflict, match="rests and scene ends are FAPPO's"):
        await services.aftermath.end_scene(xp_table, GM, SceneGap.NIGHT)
    with pytest.raises(Conflict, match="sheet edits"):
        await services.characters.edit(xp_table, GM, "Nefer", {"name": "Nefer"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Nothing to roll this turn." in done.text
    # nothing was sealed, so a reveal has nothing to check
    with pytest.raises(NotFound, match="Turn 1 had no sealed NPC orders, so there is nothing"):
        await services.turns.reveal(xp_table, 1)


async def test_an_xp_game_exports_and_imports_with_its_sheets(services, xp_table):
    import itertools

    from fappo_bot.service.transfer import copied, dumps, loads

    await post(services, xp_table, ALICE, "roll Stealth")
    document = loads(dumps(await services.transfer.export(xp_table, GM, secrets=True)))
    counter = itertools.count()
    imported = await services.transfer.import_game(
        copied(document, lambda: f"copy{next(counter):04d}", "xp-2"), GM)
    nefer = await services.characters.show(imported.id, "Nefer")
    assert nefer.xp is not None and nefer.xp.skill("Stealth") is not None
    review = await services.review.review(imported.id, GM)
    assert any("test of Stealth" in i.question for i in review.items)


async def test_a_conceded_test_rolls_no_dice(services, xp_table):
    await post(services, xp_table, ALICE, "roll Stealth: climb the low wall")
    review = await services.review.review(xp_table, GM)
    keys = {i.field: i.key for i in review.items}
    assert not next(i for i in review.items if i.field == "concede").required
    await services.review.answer(xp_table, GM, {keys["difficulty"]: "easy",
                                                keys["concede"]: "yes"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "conceded by the GM: one success, no roll -> success" in done.text
    assert not re.search(r"\(X\d", done.text)  # no rule code in what players read
    (entry,) = done.rolls
    assert entry["dice"] == [] and entry["s"] == 1


async def test_the_gm_posts_for_an_npc_and_a_tie_between_players_is_asked_first(services,
                                                                                 xp_table):
    reply = await services.turns.post(xp_table, GM, channel_key="xp-1", message_key="g1",
                                      text="Character: Guard\nroll Spear against Nefer")
    assert reply.ok and "Guard: a contest of Spear against Nefer, 7d" in reply.reply
    await post(services, xp_table, ALICE, "roll Stealth against Khai")
    review = await services.review.review(xp_table, GM)
    ties = [i for i in review.items if i.field == "tie"]
    assert [(i.actor, i.choices) for i in ties] == [("Nefer", ("Nefer", "Khai"))]
    answers = {i.key: {"opponent": "Stealth", "tie": "Khai"}[i.field]
               for i in review.items if i.required}
    answers[next(i.key for i in review.items if i.actor == "Guard"
                 and i.field == "opponent")] = "Acrobatics"
    await services.review.answer(xp_table, GM, answers)
    done = await services.resolution.resolve(xp_table, GM, 1)
    guard = next(r for r in done.rolls if r["name"] == "Guard")
    assert guard["pool"] == 7 and guard["bonus"] == []  # an NPC is not Heroic (X5 Amb-2)


async def test_good_luck_relaunches_a_broken_chain(services, xp_table):
    reply = await post(services, xp_table, ALICE, "group roll Stealth, relaunch with good luck")
    assert "1 Luck relaunches it from you" in reply.reply
    await post(services, xp_table, BOB, "group roll Stealth", key="m2")
    review = await services.review.review(xp_table, GM)
    keys = {i.field: i.key for i in review.items}
    # Khai first, at Impossible: 4d - 4 = no dice, the chain breaks before Nefer (X11)
    await services.review.answer(xp_table, GM, {keys["mode"]: "collateral",
                                                keys["difficulty"]: "impossible",
                                                keys["order"]: "Khai, Nefer"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Nefer relaunches the chain with Good Luck: 2d at Normal" in done.text
    assert "Nefer: Luck 1 -> 0" in done.text
    assert (await services.characters.show(xp_table, "Nefer")).xp.luck == 0
    again = await post(services, xp_table, ALICE, "group roll Stealth relaunch", key="m3")
    assert not again.ok and "a relaunch costs 1 Luck" in again.problems[0].message


async def test_a_player_of_two_characters_names_the_second_in_the_post(services, xp_table):
    sia = {"name": "Sia", "skills": {"Stealth": "master BODY"},
           "passions": ["Sing at every dawn", "Keep the old ways"],
           "flaws": ["Sleeps too deeply", "Cannot keep secrets"]}
    assert (await services.characters.create_from_data(xp_table, ALICE, sia)).ok
    first = await post(services, xp_table, ALICE, "roll Stealth")
    assert first.reply.startswith("Nefer: a test of Stealth")  # the first character's
    # a proxy post speaking as Sia is read once, for Sia, and stored so: it stays Sia's
    proxied = await services.turns.post(xp_table, ALICE, channel_key="xp-1", message_key="p1",
                                        text="roll Stealth", as_character="Sia")
    assert proxied.reply.startswith("Sia: a test of Stealth, 6d")
    review = await services.review.review(xp_table, GM)
    assert {i.actor for i in review.items} == {"Nefer", "Sia"}
    named = await services.turns.post(xp_table, ALICE, channel_key="xp-1", message_key="p2",
                                      text="Character: Sia\nroll Stealth", as_character="Sia")
    assert named.reply.startswith("Sia: a test of Stealth, 6d")
    in_force = await services.turns.orders(xp_table, ALICE)
    assert [(o.character, o.post_id) for o in in_force] == [
        ("Nefer", first.post_id), ("Sia", named.post_id)]


async def test_the_orders_in_force_of_an_xp_turn_are_its_actions(services, xp_table):
    """`turns.orders` in an Xp game: each character's actions as the post's reply named them;
    the GM sees everyone's, a player their own characters'."""
    await post(services, xp_table, ALICE, "roll Stealth against Guard: past the guard")
    await post(services, xp_table, BOB, "roll Lore +1d: read the seal\nassist Nefer", key="m2")
    everyone = await services.turns.orders(xp_table, GM)
    assert [o.character for o in everyone] == ["Khai", "Nefer"]
    khai, nefer = everyone
    assert len(khai.actions) == 2
    assert khai.actions[0].startswith('Khai: a test of Lore: "read the seal", 8d')
    assert "assists Nefer's roll" in khai.actions[1]
    assert nefer.actions == (
        'Nefer: a contest of Stealth against Guard: "past the guard", 6d (4 + rank 1 + '
        "characteristic 1), heroic dice on 6s. The GM says what Guard rolls (Contested, X7).",)
    assert nefer.author == ALICE and not nefer.secret
    assert [o.character for o in await services.turns.orders(xp_table, ALICE)] == ["Nefer"]


async def test_a_retired_xp_character_gives_its_name_up_sheet_included(services, xp_table):
    """Retiring frees the name: the old character is kept as "Nefer (retired)", its Xp sheet
    renamed with it, and a new Nefer can be added."""
    await services.characters.retire(xp_table, GM, "Nefer")
    assert (await services.characters.create_from_data(xp_table, ALICE, xp_sheet("nefer"))).ok
    old = await services.characters.show(xp_table, "Nefer (retired)")
    assert old.xp is not None and old.xp.name == "Nefer (retired)"
    assert (await services.characters.show(xp_table, "Nefer")).xp.name == "Nefer"


# ---- an Xp post is read once: its actions are stored with its revision -------------------------
def _counting(monkeypatch: Any) -> list[str]:
    """Every text the Xp post language is asked to read, from now on."""
    read: list[str] = []
    parse = xp_play.parse_xp_post

    def counted(text: str, ctx: Any) -> Any:
        read.append(text)
        return parse(text, ctx)

    monkeypatch.setattr(xp_play, "parse_xp_post", counted)
    return read


async def test_each_post_is_read_once_from_post_to_results(services, xp_table, monkeypatch):
    read = _counting(monkeypatch)
    await post(services, xp_table, ALICE, "roll Stealth")
    await post(services, xp_table, BOB, "assist Nefer", key="m2")
    proxied = await services.turns.post(xp_table, BOB, channel_key="xp-1", message_key="m3",
                                        text="roll Lore: read the seal", as_character="Khai")
    assert proxied.ok
    assert read == ["roll Stealth", "assist Nefer", "roll Lore: read the seal"]
    listed = await services.turns.orders(xp_table, GM)
    assert [(o.character, len(o.actions)) for o in listed] == [("Khai", 1), ("Nefer", 1)]
    review = await services.review.review(xp_table, GM)
    keys = {(i.actor, i.field): i.key for i in review.items}
    await services.review.answer(xp_table, GM, {keys[("Nefer", "difficulty")]: "routine",
                                                keys[("Khai", "difficulty")]: "routine"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Khai, Lore" in done.text and "Nefer, Stealth" in done.text
    assert len(read) == 3  # the orders, the review, the answers and the resolution read none


async def test_a_revision_stored_with_its_text_only_is_read_again(services, xp_table,
                                                                  uow_factory, clock,
                                                                  monkeypatch):
    """A post stored before the actions were kept: the review, the orders and the results read
    its text against the sheets, for its author's first character, as it was read then."""
    async with uow_factory() as uow:
        turn = await uow.turns.latest(xp_table)
        now = clock.now()
        old = Post(id="old-1", game_id=xp_table, turn_id=turn.id, author=ALICE,
                   channel_key="xp-1", message_key="old", created_at=now, updated_at=now)
        await uow.posts.add(old, PostRevision(post_id="old-1", number=1, text="roll Stealth",
                                              ok=True, reply="Nefer: a test of Stealth",
                                              created_at=now))
        await uow.commit()
    read = _counting(monkeypatch)
    (nefer,) = await services.turns.orders(xp_table, ALICE)
    assert nefer.character == "Nefer" and nefer.post_id == "old-1"
    assert nefer.actions[0].startswith("Nefer: a test of Stealth, 6d")
    review = await services.review.review(xp_table, GM)
    (difficulty,) = [i for i in review.items if i.field == "difficulty"]
    assert difficulty.actor == "Nefer"
    await services.review.answer(xp_table, GM, {difficulty.key: "routine"})
    done = await services.resolution.resolve(xp_table, GM, 1)
    assert "Nefer, Stealth" in done.text
    assert read and set(read) == {"roll Stealth"}

"""Xp games: the ruleset is chosen at creation, nothing of FAPPO's turn flow runs on
an Xp game, and the GM's rolls are auditable (seed, dice and result stored; replayable)."""

from __future__ import annotations

import pytest

from fappo_bot.rules_xp.roll import RollOutcome
from fappo_bot.service import Conflict, Forbidden, InvalidInput
from fappo_bot.service.records import Role
from fappo_bot.service.xp_rolls import generator, replay, roll_case, roll_detail
from tests.service.conftest import ALICE, GM, sheet


async def _xp_game(services):
    game = await services.games.create(channel_key="xp-1", name="Aegyptvs", creator=GM,
                                       ruleset="xp")
    await services.games.add_member(game.id, GM, ALICE, Role.PLAYER)
    return game


async def test_a_game_chooses_its_ruleset_at_creation(services):
    fappo = await services.games.create(channel_key="c1", name="Goblin Road", creator=GM)
    xp = await _xp_game(services)
    assert (fappo.ruleset, xp.ruleset) == ("fappo", "xp")
    # what an adapter shows of its rules comes with the view, so no adapter tells them by name
    assert (fappo.label, fappo.tag, fappo.has_npc_seal, fappo.dice_pools) == (
        "FAPPO", "", True, False)
    assert (xp.label, xp.tag, xp.has_npc_seal, xp.dice_pools) == ("Xp", "Xp rules", False, True)
    assert (await services.games.show(xp.id)).tag == "Xp rules"
    with pytest.raises(InvalidInput, match="Rulesets: fappo, xp"):
        await services.games.create(channel_key="c2", name="X", creator=GM, ruleset="dnd")


async def test_fappo_flags_sheets_and_passes_do_not_apply_to_an_xp_game(services):
    with pytest.raises(InvalidInput, match="Xp"):
        await services.games.create(channel_key="c3", name="X", creator=GM, ruleset="xp",
                                    rules={"pips_enabled": True})
    game = await _xp_game(services)
    with pytest.raises(Conflict, match="xp rules: character sheets are FAPPO's"):
        await services.characters.create(game.id, GM, sheet("Kael"), owner=ALICE)
    await services.turns.open(game.id, GM)  # an Xp game's turns run the Xp rules
    with pytest.raises(Conflict, match="no pass"):
        await services.turns.pass_turn(game.id, GM)


async def test_a_gm_roll_is_stored_with_its_seed_and_dice(services):
    game = await _xp_game(services)
    view = await services.xp_rolls.roll(game.id, GM, name="Aster", pool=6, sl=2)
    assert view.seed.startswith("salt")  # the injected salt factory gives the seed
    expected = generator(view.seed)
    assert list(view.dice[:6]) == [expected.randrange(1, 7) for _ in range(6)]
    assert len(view.dice) == 6 + view.record.base.count(6)  # a PC is heroic
    (listed,) = await services.xp_rolls.rolls(game.id, GM)
    assert listed.id == view.id and listed.kind == "roll"
    stored = await services.xp_rolls.stored_roll(game.id, GM, view.id)
    assert (stored.seed, stored.dice, stored.record) == (view.seed, view.dice, view.record)


async def test_a_stored_roll_replays_and_becomes_a_case(services):
    import yaml

    from fappo_bot.adjudication.loader import load_case_text
    from fappo_bot.adjudication.runner import run_case

    game = await _xp_game(services)
    view = await services.xp_rolls.roll(game.id, GM, name="Guard", pool=5, who="npc")

    detail = roll_detail(view)
    assert replay(detail) == view.record
    (case,) = load_case_text(yaml.safe_dump({"cases": [roll_case(detail, "logged")]}))
    assert run_case(case).passed
    tampered = {**detail, "dice": [6] * len(detail["dice"])}
    if tampered["dice"] != detail["dice"]:
        with pytest.raises(Conflict, match="altered"):
            replay(tampered)


async def test_only_a_gm_rolls_and_only_in_an_xp_game(services):
    game = await _xp_game(services)
    with pytest.raises(Forbidden):
        await services.xp_rolls.roll(game.id, ALICE, name="Aster", pool=4)
    with pytest.raises(Forbidden):
        await services.xp_rolls.rolls(game.id, ALICE)
    with pytest.raises(InvalidInput):
        await services.xp_rolls.roll(game.id, GM, name="Aster", pool=10_000)
    fappo = await services.games.create(channel_key="c9", name="Goblin Road", creator=GM)
    with pytest.raises(Conflict, match="Xp games"):
        await services.xp_rolls.roll(fappo.id, GM, name="Kael", pool=4)


async def test_a_refused_roll_outcome_is_a_roll_record(services):
    game = await _xp_game(services)
    view = await services.xp_rolls.roll(game.id, GM, name="Aster", pool=0)
    assert view.record.outcome is RollOutcome.FAILURE and view.dice == ()


async def test_an_xp_game_takes_no_fappo_sheet(services):
    from tests.service.conftest import sheet

    game = await _xp_game(services)
    with pytest.raises(Conflict, match="character sheets"):
        await services.characters.create(game.id, ALICE, sheet("Kael"))


async def test_a_rollers_name_never_pings(services):
    """A name written by a GM cannot ping anyone where the roll is shown; the view keeps the
    name as data, as written, and the record keeps its types."""
    from fappo_bot.posting.safety import has_live_mention
    from fappo_bot.rules_xp.roll import Mode

    game = await _xp_game(services)
    view = await services.xp_rolls.roll(game.id, GM, name="@everyone", pool=3)
    assert view.name == "@everyone"
    shown = view.shown
    assert shown.public.startswith("@\u200beveryone: 3d")
    assert not has_live_mention(shown.public) and not has_live_mention(shown.gm)
    assert isinstance(view.record.mode, Mode)

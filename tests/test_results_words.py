"""A turn's results as data (`service/results_report.py`) and in words (`render/results.py`):
each action named as its player wrote it, numbers that explain themselves, the defences folded
into the attacks they answered, every character under "Where things stand", hits named as a
Reduce line names them, no internal id and no rule code."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from fappo_bot.render import results as words
from fappo_bot.rules.resolve import resolve_turn
from fappo_bot.service import notices
from fappo_bot.service.results_report import turn_blocks
from fappo_bot.service.rulesets.names import FAPPO, XP
from tests.posting.helpers import parse, state_of

pytestmark = pytest.mark.unit

#: "(F13)", "(X4 Amb-4)", "RULINGS X18": codes a player cannot look up
RULE_CODE = re.compile(r"\((?:RULINGS )?[FX]\d+|RULINGS [FX]\d+")


def text_of(result, orders, audience=None, masked=()) -> str:
    blocks = turn_blocks(result, orders, audience, masked)
    return words.text(notices.results(result.turn, "r1", blocks))


def test_each_action_reads_as_its_player_wrote_it() -> None:
    state = state_of()
    orders = [
        *parse("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble\n1 AP defend against "
               "Goblin 1", "Kael", state).orders,
        *parse("3 AP cast Fireball at the Goblins, 1 SP Uncanny", "Zara", state).orders,
        *parse("Character: Goblin 1\n2 AP attack Kael with Dagger", "gm", state).orders,
    ]
    result = resolve_turn(state, orders)
    text = text_of(result, orders)
    assert text.startswith(f"**Turn {result.turn} results**")
    assert "- Kael attacks Goblin 1 with Broadsword: " in text
    # Kael's defence is folded into the attack it answered, not a line of its own
    assert "- Kael defends" not in text
    assert "- Goblin 1 attacks Kael with Dagger: " in text and "(Kael defends with 1 AP)" in text
    assert "- Zara casts Fireball at Goblins" in text
    assert "    - Goblins: " in text and "eliminated" in text
    assert "Goblins: all eliminated" in text
    assert "- Kael: " in text and "(provisional: " in text
    assert not RULE_CODE.search(text)
    # no internal id: each hit is named by its attacker and weapon
    for hit in result.hits:
        assert hit.id not in text


def test_a_move_names_its_direction_and_a_skill_its_task_and_target() -> None:
    state = state_of()
    orders = [*parse("move 1 away from Goblin 1", "Kael", state).orders,
              *parse("2 AP Stealth on Goblin 2: slip past him", "Mira", state).orders]
    result = resolve_turn(state, orders)
    text = text_of(result, orders)
    assert "- Kael moves 1 Range away from Goblin 1\n" in text, text  # not "moves Goblin 1"
    assert "Mira tries Stealth on Goblin 2 (slip past him)" in text, text


def test_the_sp_that_moved_a_level_are_shown_with_the_chart_level() -> None:
    from fappo_bot.service import results_report as r

    line = r.ActionLine(actor="Kael", kind="attack", target="Skarg", weapon="Broadsword",
                        total=7, difficulty=7, base="bare", level="solid", sp={"Nimble": 1})
    assert words.action_lines(line) == [
        "- Kael attacks Skarg with Broadsword: 7 vs 7, Bare Success, +1 level from 1 SP Nimble:"
        " Solid Success"]
    guarded = replace(line, sp={}, level="failure", guard=1)
    assert words.action_lines(guarded)[0].endswith(
        "7 vs 7, Bare Success, -1 level from a Guard: Failure")
    hidden = replace(line, total=None, difficulty=None, sp={})
    assert words.action_lines(hidden) == ["- Kael attacks Skarg with Broadsword: Solid Success"]


def test_refused_orders_in_turn_results() -> None:
    from fappo_bot.rules.orders import Action, ActionKind, Order

    state = state_of()
    bad = Order(actor="Kael", actions=(Action(kind=ActionKind.DEFEND, ap=9),))
    result = resolve_turn(state, [bad])
    text = text_of(result, [bad])
    assert "**Refused orders**" in text and "Kael's orders were refused" in text


def test_turn_results_for_an_audience_show_only_what_concerns_it() -> None:
    """F29: secret PvP results go "to the interested parties"; the room's list every
    character."""
    state = state_of()
    orders = [
        *parse("2 AP attack Goblin 1 with Broadsword", "Kael", state).orders,
        *parse("2 AP attack Goblin 2 with Dagger", "Mira", state).orders,
    ]
    result = resolve_turn(state, orders)
    everyone = text_of(result, orders)
    assert "Mira attacks Goblin 2" in everyone and "Kael attacks Goblin 1" in everyone
    for character in result.state.characters:
        assert f"- {character.name}: " in everyone
    kael_only = text_of(result, orders, audience=["kael"])
    assert "Kael attacks Goblin 1" in kael_only
    assert "Mira" not in kael_only and "Goblin 2" not in kael_only
    assert "- Goblin 1: " in kael_only and "- Kael: " in kael_only


def test_events_deaths_and_statuses_in_results() -> None:
    """F7 step 8: results list what happened besides actions (ticks, deaths, statuses)."""
    from fappo_bot.rules.character import Status, StatusKind
    from fappo_bot.rules.levels import SuccessLevel
    from fappo_bot.rules.results import ActionResult, Event, TurnResult

    state = state_of()
    kael = replace(state.characters[0], health=5, statuses=(Status(kind=StatusKind.BLEEDING),))
    after = replace(state, characters=(kael, *state.characters[1:]))
    result = TurnResult(
        turn=4, state=after,
        actions=(ActionResult(actor="Goblin 1", index=0, kind="attack", target="Kael", total=5,
                              difficulty=2, margin=3, level=SuccessLevel.GREAT, damage=2,
                              specials=("Bleeding",), notes=("flat-footed",)),
                 ActionResult(actor="Mira", index=0, kind="attack", target="Goblin 2",
                              effective=False, notes=("not triggered",))),
        events=(Event(kind="tick", character="Kael", detail="Fire", levels=1),
                Event(kind="died", character="Goblin 2", detail="ten turns Dying")),
    )
    text = text_of(result, [])
    assert "- Goblin 1 attacks Kael: 5 vs 2, Great Success · 2 levels of damage · " \
           "Bleeding · flat-footed" in text
    assert "- Mira attacks Goblin 2 · it did not happen" in text
    assert "- Kael: Dying · bleeding" in text
    assert "- Kael takes damage from Fire (1 level)" in text
    assert "- Goblin 2 dies (ten turns Dying)" in text


def test_r2_fodder_can_reduce_shows_eliminations_as_creatures() -> None:
    """With `fodder_can_reduce` a group's eliminations are a provisional hit counted in
    creatures, not levels (F13 Amb-8), named by its attacker and weapon."""
    from fappo_bot.rules.config import RulesConfig

    state = replace(state_of(), config=RulesConfig(fodder_can_reduce=True))
    orders = parse("3 AP cast Fireball at the Goblins, 1 SP Uncanny", "Zara", state).orders
    result = resolve_turn(state, orders)
    hits = [h for h in result.hits if h.source == "elimination"]
    assert hits
    text = text_of(result, orders)
    hit = hits[0]
    assert f"{hit.levels} creature{'s' if hit.levels != 1 else ''}" in text
    assert hit.id not in text


def test_rule_codes_are_left_out_of_what_players_read() -> None:
    for coded, plain in [("Luck 1 -> 0 (X11)", "Luck 1 -> 0"),
                         ("the GM's call (X4 Amb-4).", "the GM's call."),
                         ("no roll (X6, X8) -> failure", "no roll -> failure"),
                         ("a hit [F:L221-225] lands", "a hit lands"),
                         ("2 actions over budget dropped (F7 step 3)",
                          "2 actions over budget dropped"),
                         ("as RULINGS X18 says", "as says"),
                         ("6 -> 4 (the floor, X16).", "6 -> 4 (the floor)."),
                         ("difficulty? (2 easy, 4, 6, 8+ hard; F4)",
                          "difficulty? (2 easy, 4, 6, 8+ hard)"),
                         ("secret (hide_all_allocations, F29 Amb-4): DM", "secret "
                          "(hide_all_allocations): DM"),
                         ("a profile (F18.6, F18.7).", "a profile."),
                         ("(Fist, always at hand)", "(Fist, always at hand)"),
                         ("Turn 1 results (Xp):", "Turn 1 results (Xp):")]:
        assert words.no_rule_codes(coded) == plain


def test_a_dice_pool_turn_names_its_rules_and_says_when_nothing_was_rolled() -> None:
    """The words come with the notice (its ruleset's label); a payload written before they
    were stored, naming only its ruleset, reads the same."""
    xp = notices.results(3, "r1", (), ruleset=XP)
    old = notices.read("results", {"turn": 3, "resolution_id": "r1", "ruleset": "xp",
                                   "blocks": []})
    assert old == xp
    assert words.text(xp) == "Turn 3 results (Xp):\nNothing to roll this turn."
    fappo = notices.results(3, "r1", ())
    assert words.text(fappo) == "**Turn 3 results**"
    assert notices.read("results", {"turn": 3, "resolution_id": "r1", "blocks": []}) == fappo
    assert notices.results(3, "r1", (), ruleset=FAPPO) == fappo
    # the stored payloads are the same as before the words came from the port
    same = {"turn": 3, "resolution_id": "r1", "characters": None, "blocks": [],
            "continued": False}
    assert xp.payload() == {**same, "ruleset": "xp", "label": "Xp", "dice_pools": True}
    assert fappo.payload() == {**same, "ruleset": "fappo", "label": "", "dice_pools": False}
    unknown = notices.read("results", {**same, "ruleset": "chess"})
    assert (unknown.label, unknown.dice_pools) == ("", False)

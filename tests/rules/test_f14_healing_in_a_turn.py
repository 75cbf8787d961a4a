"""F14 in play: a Healing skill use posted in a turn is the level's Healing check [F:L201]:
"Successful use of the Healing skill versus the difficulty number given in the list above will
cut the time to heal one level in half ... This check can only be made once per health level,
and must result in a Solid Success or better"."""

from __future__ import annotations

import pytest
from engine_helpers import char, order, run, state

from fappo_bot.rules.healing_turn import with_healing_checks

pytestmark = pytest.mark.unit

WOUNDED = 3


def _healed(healer_fields: dict, action: dict, patient_health: int = WOUNDED):
    healer = char("Doc", **healer_fields)
    patient = char("Kael", health=patient_health)
    orders = [order("Doc", action)]
    return with_healing_checks(run(state(healer, patient), *orders), orders)


def _kael(result):
    return next(c for c in result.state.characters if c.name == "Kael")


def test_f14_a_solid_healing_check_in_a_turn_halves_the_level():
    result = _healed({"skills": {"Healing": 3}},
                     {"kind": "skill", "ap": 3, "skill": "Healing", "target": "Kael"})
    kael = _kael(result)
    assert kael.heal_checked and kael.heal_halved
    assert [e.kind for e in result.events if e.character == "Kael"] == ["healing_check"]


def test_f14_a_bare_success_is_the_check_but_does_not_halve():
    result = _healed({"skills": {"Healing": 1}},
                     {"kind": "skill", "ap": 3, "skill": "Healing", "target": "Kael"})
    kael = _kael(result)
    assert kael.heal_checked and not kael.heal_halved


def test_f14_sagacious_sp_count_double_on_the_check():
    """F4 via F14 Amb-6: Sagacious is Healing's Suggested Trait."""
    plain = _healed({"skills": {"Healing": 1}},
                    {"kind": "skill", "ap": 3, "skill": "Healing", "target": "Kael"})
    with_sp = _healed({"traits": {"Sagacious": 3}, "skills": {"Healing": 1}},
                      {"kind": "skill", "ap": 3, "skill": "Healing", "target": "Kael",
                       "sp": {"Sagacious": 1}})
    assert not _kael(plain).heal_halved and _kael(with_sp).heal_halved


def test_f14_a_healthy_patient_or_another_skill_is_no_check():
    healthy = _healed({"skills": {"Healing": 3}},
                      {"kind": "skill", "ap": 3, "skill": "Healing", "target": "Kael"}, 0)
    other = _healed({"skills": {"Stealth": 3}},
                    {"kind": "skill", "ap": 3, "skill": "Stealth", "target": "Kael"})
    assert not _kael(healthy).heal_checked and not _kael(other).heal_checked
    assert not [e for e in healthy.events + other.events if e.kind.startswith("healing")]

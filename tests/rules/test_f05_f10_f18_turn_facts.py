"""RULINGS F5, F10, F11, F18.9, F19: the turn's per-character facts (`rules.facts`) give the
answers of the plain rules they cache.

Validation, planning and grading share one `Facts` per turn; each answer is checked here against
the function it stands for, over levels, statuses, armor and prone opponents.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import char

from fappo_bot.rules.character import Character, Status, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.defense import effective_skill, trained_defense
from fappo_bot.rules.facts import Facts
from fappo_bot.rules.health import can_act, dead_or_out
from fappo_bot.rules.names import attack_weapon

pytestmark = pytest.mark.unit
CFG = RulesConfig()
STATUSES = [None, StatusKind.UNCONSCIOUS, StatusKind.VAPORIZED, StatusKind.PRONE,
            StatusKind.FROZEN, StatusKind.IMPALED]


def _with(c: Character, health: int, status: StatusKind | None) -> Character:
    return replace(c, health=health, statuses=(Status(kind=status),) if status else ())


@pytest.mark.parametrize("status", STATUSES)
def test_f10_f11_level_and_ability_read_once(status: StatusKind | None) -> None:
    """[F:L178] Incapacitated characters act only with a Tireless SP (F10 Amb-7); Dying, Dead and
    unconscious characters cannot act and defend at 1 (F6 Amb-6); vaporized is dead (F18.16)."""
    facts = Facts(CFG)
    for health in range(0, 7):
        c = _with(char("Vic"), health, status)
        fighter = facts.of(c)
        assert (fighter.dead, fighter.unconscious) == dead_or_out(c, CFG)
        for endure in (False, True):
            assert fighter.can_act(endure) == can_act(c, CFG, endure=endure)
        assert fighter.prone == c.has_status(StatusKind.PRONE)
        assert fighter.frozen == c.has_status(StatusKind.FROZEN)
        assert facts.of(c) is fighter  # one reading per character object


@pytest.mark.parametrize("armor", ["none", "heavy"])
@pytest.mark.parametrize("mine", [None, StatusKind.PRONE, StatusKind.IMPALED])
@pytest.mark.parametrize("theirs", [None, StatusKind.PRONE])
def test_f5_f18_9_effective_skill_and_trained_defense_against_each_opponent(
    armor: str, mine: StatusKind | None, theirs: StatusKind | None
) -> None:
    """[F:L229] defense is "their highest attack skill minus 1"; a prone fighter takes -2 against
    a standing opponent (F18.9), Impale -1 (F18.12), Heavy armor -1 on Nimble skills (F17)."""
    facts = Facts(CFG)
    arlo = _with(char("Arlo", traits={"Nimble": 3}, armor=armor,
                      skills={"Archery": 4, "Swordfighting": 2, "Stealth": 5}), 0, mine)
    nell = _with(char("Nell", skills={"Stealth": 5}), 0, mine)
    foe = _with(char("Foe"), 0, theirs)
    for who in (arlo, nell):
        for opponent in (foe, None):
            assert facts.trained_defense(who, opponent) == trained_defense(
                who, CFG, attacker=opponent)
            for skill in ("Archery", "Swordfighting", "Stealth", "Fisticuffs"):
                assert facts.skill(who, skill, opponent) == effective_skill(
                    who, skill, opponent=opponent)


def test_f19_attack_weapon_as_named_or_in_hand() -> None:
    """spec/cases.md: an attack uses the weapon it names, else the one in hand (`wielding`,
    defaulting to the first weapon), else the Fist (F19)."""
    facts = Facts(CFG)
    kael = char("Kael", weapons=["Broadsword", "Long Bow"], wielding="Long Bow")
    fighter = facts.of(kael)
    for written in (None, "Broadsword", "long bow", "fist", "Spear", "Long"):
        assert fighter.attack_weapon(written) == attack_weapon(kael, written)
    assert fighter.held == kael.weapon()

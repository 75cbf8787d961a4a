"""The review's rulings as data (R1): each one only where it applies, its real default, and the
GM's answers read as their fields need (F18.6 Amb-1 profiles)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.rules import Action, ActionKind, Special, Weapon
from fappo_bot.service import InvalidInput
from fappo_bot.service.review_rulings import action_rulings, coerce_ruling, written

pytestmark = pytest.mark.unit

DAGGER = Weapon.named("Dagger")


def poisoned(profile=None):
    assert DAGGER is not None
    return replace(DAGGER, specials=(Special.POISON,), profile=profile)


ATTACK = Action(kind=ActionKind.ATTACK, ap=2, target="Vic", weapon="Dagger")


def test_f18_6_the_profile_is_asked_where_neither_the_attack_nor_the_weapon_gives_one():
    [ruling] = [r for r in action_rulings(None, ATTACK, None, poisoned(), False)
                if r.field == "profile"]
    assert ruling.default == "mortal" and ruling.shown_default == "mortal, 3 turns of 1 level"
    assert not [r for r in action_rulings(None, ATTACK, None, poisoned({"kind": "nerve"}), False)
                if r.field == "profile"]
    given = replace(ATTACK, profile={"kind": "mortal", "ticks": 2})
    assert not [r for r in action_rulings(None, given, None, poisoned(), False)
                if r.field == "profile"]


def test_f18_6_a_poison_answer_is_read_as_its_profile():
    choices = ("mortal", "nerve")
    assert coerce_ruling("profile", "Q?", choices, "mortal 5") == {"kind": "mortal", "ticks": 5}
    assert coerce_ruling("profile", "Q?", choices, "nerve -2 1 3") == {
        "kind": "nerve", "penalty": 2, "ap_loss": 1, "duration": 3}
    with pytest.raises(InvalidInput, match="nerve -2 1 3"):
        coerce_ruling("profile", "Q?", choices, "sleepy")


def test_f18_7_a_disease_answer_and_none():
    assert coerce_ruling("profile", "Q?", (), "fever duration 4") == {
        "duration": 4, "effect": "fever"}
    assert written("profile", coerce_ruling("profile", "Q?", (), "none")) is None
    assert written("part", "none") is None and written("part", "sword arm") == "sword arm"

"""`views.action_view`, `views.character_view`: validation and planning read each action (and
validation each actor) through a plain view of its fields, so a view must give every
field and property the model gives, and stay out of what a turn returns."""

from __future__ import annotations

import pytest

from fappo_bot.rules.character import Character, Status, StatusKind, Weapon
from fappo_bot.rules.data import Tier
from fappo_bot.rules.orders import Action, ActionKind
from fappo_bot.rules.views import action_view, character_view

pytestmark = pytest.mark.unit

ACTIONS = [
    Action(kind=ActionKind.ATTACK, target="Goblin", weapon="Broadsword", ap=2, sp={"Brawny": 1}),
    Action(kind=ActionKind.MOVE, ranges=3, toward="Goblin"),
    Action.model_validate({"kind": "skill", "skill": "Stealth", "if": "the guard looks away"}),
    Action.model_validate({"kind": "defend", "ap": 1, "if": "attacked", "triggered": True}),
]


@pytest.mark.parametrize("action", ACTIONS)
def test_a_view_reads_every_field_and_property_of_its_action(action: Action) -> None:
    view = action_view(action)
    for name in Action.model_fields:
        assert getattr(view, name) == getattr(action, name), name
    assert view.conditional == action.conditional
    assert view.effective_now == action.effective_now


def test_a_view_is_no_action_and_does_not_copy_it() -> None:
    action = ACTIONS[0]
    view = action_view(action)
    assert not isinstance(view, Action)  # results take the model, never a view
    assert view.__dict__ is action.__dict__  # shared, not copied: a frozen model never changes it
    assert action_view(ACTIONS[2]).conditional and not action_view(ACTIONS[2]).effective_now
    assert action_view(ACTIONS[3]).effective_now


CHARACTERS = [
    Character(name="Aldo", skills={"Swordfighting": 3}, weapons=(Weapon.named("Broadsword"),),
              shock=True, base_ap=4),
    Character(name="rats", tier=Tier.NUISANCE, count=12, health=1,
              statuses=(Status(kind=StatusKind.POISONED, ap_loss=1),)),
]


@pytest.mark.parametrize("character", CHARACTERS)
def test_a_character_view_reads_every_field_and_property(character: Character) -> None:
    view = character_view(character)
    for name in Character.model_fields:
        assert getattr(view, name) == getattr(character, name), name
    for name, value in vars(Character).items():
        if isinstance(value, property):
            assert getattr(view, name) == getattr(character, name), name
    assert not isinstance(view, Character)
    assert view.__dict__ is character.__dict__

"""`views.action_view`: validation and planning read each action through a plain view of its
fields (issue 12), so a view must give every field and property the action gives, and stay
out of what a turn returns."""

from __future__ import annotations

import pytest

from fappo_bot.rules.orders import Action, ActionKind
from fappo_bot.rules.views import action_view

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

"""`results.trusted` builds the results a turn makes by the thousand without validating them
again: the instance must be the one validation gives, field order and fields set included,
since the JSON of a result lists the fields in the order of its `__dict__`."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.orders import Action, PendingHit
from fappo_bot.rules.results import ActionResult, Event, TargetResult, trusted

pytestmark = pytest.mark.unit

ATTACK = {
    "notes": ("self-hit",), "actor": "Mira", "index": 1, "kind": "attack", "target": "Goblin",
    "total": 9, "difficulty": 7, "margin": 2, "level": SuccessLevel.SOLID, "em": 2, "damage": 3,
    "specials": ("Bleeding",), "eliminated": 0, "shield": True, "pledged": 1,
}


def _same(made: BaseModel, validated: BaseModel) -> None:
    assert made == validated
    assert type(made) is type(validated)
    assert made.__dict__ == validated.__dict__
    assert list(made.__dict__) == list(validated.__dict__)  # the declared order
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_dump_json() == validated.model_dump_json()
    assert repr(made) == repr(validated)


def test_a_constructor_of_given_fields_makes_what_validation_makes() -> None:
    build = trusted(ActionResult, *ATTACK)  # in another order than the model declares them
    _same(build(**ATTACK), ActionResult(**ATTACK))
    _same(build(*ATTACK.values()), ActionResult(**ATTACK))


def test_fields_left_out_keep_their_defaults_and_are_not_set() -> None:
    build = trusted(TargetResult, "name", "damage")
    made = build(name="Goblin", damage=2)
    _same(made, TargetResult(name="Goblin", damage=2))
    assert made.effective is True and made.specials == ()
    assert made.model_fields_set == {"name", "damage"}
    assert made.model_dump(exclude_unset=True) == {"name": "Goblin", "damage": 2}


def test_the_keyword_constructor_sets_what_it_is_given() -> None:
    build = trusted(Event)
    _same(build(kind="woke", character="Mira"), Event(kind="woke", character="Mira"))
    hit = trusted(PendingHit)
    _same(hit(id="t1-mira-0", target="Goblin", levels=2),
          PendingHit(id="t1-mira-0", target="Goblin", levels=2))


def test_copies_and_updates_behave_as_on_validated_results() -> None:
    made = trusted(ActionResult, *ATTACK)(**ATTACK)
    copied = made.model_copy(update={"effective": False})
    assert copied.effective is False and made.effective is True
    assert copied.model_fields_set == set(ATTACK) | {"effective"}
    assert made.model_fields_set == set(ATTACK)  # the copy's set is its own


def test_unknown_fields_required_fields_and_shared_defaults_are_refused() -> None:
    with pytest.raises(AssertionError, match="no field"):
        trusted(ActionResult, "actor", "index", "kind", "colour")
    with pytest.raises(AssertionError):
        trusted(ActionResult, "actor", "index")  # `kind` is required
    with pytest.raises(AssertionError, match="default factory"):
        trusted(Action, "kind")  # its SP maps would be one dict shared by every action

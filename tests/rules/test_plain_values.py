"""The rules core's values are plain slotted dataclasses; pydantic reads and writes them only at
the boundary (docs/architecture.md, the rules/ row), with the JSON it wrote for the models."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

from fappo_bot.rules import (
    Action,
    ActionKind,
    ActionResult,
    Character,
    GMInputs,
    Order,
    OrderError,
    PendingHit,
    Pledge,
    Reduction,
    TargetResult,
    TurnResult,
    TurnState,
    Weapon,
)
from fappo_bot.rules.character import Spell, Status, StatusKind
from fappo_bot.rules.orders import Claim
from fappo_bot.rules.results import Event

pytestmark = pytest.mark.unit

RULES = Path(__file__).resolve().parents[2] / "fappo_bot" / "rules"
VALUES = (Action, ActionResult, Character, Claim, Event, GMInputs, Order, OrderError, PendingHit,
          Pledge, Reduction, Spell, Status, TargetResult, TurnResult, TurnState, Weapon)


@pytest.mark.parametrize("value", VALUES, ids=lambda v: v.__name__)
def test_the_turns_values_are_slotted_dataclasses(value: type) -> None:
    assert dataclasses.is_dataclass(value) and not issubclass(value, BaseModel)
    assert "__slots__" in vars(value)


def test_no_view_no_field_dict_read_and_no_generated_constructor_in_the_core() -> None:
    assert not (RULES / "views.py").exists()
    for path in sorted(RULES.glob("*.py")):
        text = path.read_text()
        assert "__dict__" not in text, path.name
        assert "exec(" not in text, path.name
        assert "__pydantic_fields_set__" not in text, path.name
        # no module alias of an enum member (`_MOVE = ActionKind.MOVE`)
        assert not re.search(r"^_[A-Z_0-9]+ = [A-Z]\w*\.[A-Z_0-9]+$", text, re.M), path.name


def test_the_boundary_reads_the_models_json_back_to_equal_values() -> None:
    kael = Character(name="Kael", skills={"Swordfighting": 3}, weapons=(Weapon.named("Dagger"),),
                     statuses=(Status(kind=StatusKind.PRONE),))
    hit = PendingHit(id="t1-gob-0", target="Kael", attacker="Gob", levels=2)
    state = TurnState(turn=2, characters=(kael,), pending=(hit,))
    adapter = TypeAdapter(TurnState)
    assert adapter.validate_json(adapter.dump_json(state)) == state
    # the case format's `if` and the field's own name both read; unknown fields refused
    actions = TypeAdapter(Action)
    assert actions.validate_python({"kind": "move", "if": "they run"}).condition == "they run"
    assert actions.validate_python({"kind": "move", "condition": "x"}).kind is ActionKind.MOVE
    with pytest.raises(ValidationError):
        actions.validate_python({"kind": "move", "colour": "red"})
    with pytest.raises(ValidationError):
        TypeAdapter(PendingHit).validate_python({"id": "h", "target": "Kael", "levels": -1})

"""Fixtures for the adjudication runner's tests: case files on disk and a stand-in engine.

The stand-in `resolve_turn` returns hand-made `TurnResult` values, so these tests check the
runner (loading, result building, comparing, printing) independently of the resolution engine,
whose numbers the public cases check (tests/test_public_cases.py).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from fappo_bot.adjudication import runner
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.orders import Order
from fappo_bot.rules.results import (
    ActionResult,
    ErrorCode,
    GMInputs,
    OrderError,
    TargetResult,
    TurnResult,
    TurnState,
)


def fake_resolve_turn(
    state: TurnState, orders: Sequence[Order], gm: GMInputs | None = None
) -> TurnResult:
    """Every attack hits solidly for 3 levels (total 5 vs 4); a cast also reports one target;
    an order whose actor is unknown is refused with unknown-name."""
    names = {c.name.casefold() for c in state.characters}
    actions: list[ActionResult] = []
    errors: list[OrderError] = []
    hurt: dict[str, int] = {}
    for order in orders:
        if order.actor.casefold() not in names:
            errors.append(OrderError(actor=order.actor, code=ErrorCode.UNKNOWN_NAME,
                                     message=f"no one called {order.actor}"))
            continue
        for index, action in enumerate(order.actions):
            if action.kind.value == "attack" and action.target:
                hurt[action.target.casefold()] = hurt.get(action.target.casefold(), 0) + 3
                actions.append(ActionResult(
                    actor=order.actor, index=index, kind="attack", target=action.target,
                    total=5, difficulty=4, margin=1, level=SuccessLevel.SOLID, damage=3,
                    specials=("Bleeding",) if action.special else (),
                ))
            elif action.kind.value == "cast":
                actions.append(ActionResult(
                    actor=order.actor, index=index, kind="cast", total=7, difficulty=9,
                    margin=-2, level=SuccessLevel.BARE,
                    targets=(TargetResult(name=action.target or "?", total=6, difficulty=2,
                                          margin=4, level=SuccessLevel.GREAT, damage=4,
                                          specials=("Fire",)),),
                ))
            else:
                actions.append(ActionResult(actor=order.actor, index=index,
                                            kind=action.kind.value,
                                            effective=action.effective_now))
    characters = tuple(
        replace(c, health=c.health + hurt.get(c.name.casefold(), 0))
        for c in state.characters
    )
    return TurnResult(turn=state.turn, actions=tuple(actions), errors=tuple(errors),
                      state=replace(state, characters=characters))


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> Callable[..., TurnResult]:
    """The stand-in `resolve_turn` in the case runner, for this test only."""
    monkeypatch.setattr(runner, "resolve_turn", fake_resolve_turn)
    return fake_resolve_turn


@pytest.fixture
def case_file(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a case file (dedented YAML) and return its path."""

    def write(text: str, name: str = "cases.yaml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        return path

    return write


DUEL_TEXT = """\
cases:
- id: duel
  rule: F5
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 3}, weapons: [Dagger]}
  orders:
  - actor: Kael
    actions:
    - {kind: attack, ap: 2, target: Goblin}
    - {kind: defend, ap: 1}
  expect:
    actions:
    - {actor: Kael, index: 0, total: 5, difficulty: 4, margin: 1, level: solid, damage: 3}
    characters:
    - {name: Goblin, health: Wounded, sp: {Clever: 3}, ap_next: 2}
    errors: []
"""


@pytest.fixture
def duel() -> str:
    """A one-case file: Kael attacks a goblin (2 AP) and defends (1 AP)."""
    return DUEL_TEXT

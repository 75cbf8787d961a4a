"""`resolve_turn` pauses Python's cyclic garbage collector while a turn resolves (the
collector was a third of a 3,000-combatant turn), and gives it back as it found it."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from engine_helpers import char, order, run, state

from fappo_bot.rules import resolve

pytestmark = pytest.mark.unit


def _scene(fighters: int) -> tuple[Any, list[Any]]:
    chars = [char(f"F{i}", skills={"Swordfighting": 3}, weapons=["Broadsword"])
             for i in range(fighters)]
    orders = [order(f"F{i}", {"kind": "attack", "ap": 2, "target": f"F{(i + 1) % fighters}"})
              for i in range(fighters)]
    return state(*chars), orders


def test_the_collector_is_paused_during_a_turn_and_back_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[bool] = []
    planned = resolve.plan_strikes

    def watching(turn: Any) -> Any:
        seen.append(gc.isenabled())
        return planned(turn)

    monkeypatch.setattr(resolve, "plan_strikes", watching)
    st, orders = _scene(6)
    assert gc.isenabled()
    result = run(st, *orders)
    assert not result.errors and len(result.actions) == 6
    assert seen == [False]
    assert gc.isenabled()


def test_a_caller_that_paused_the_collector_finds_it_paused() -> None:
    st, orders = _scene(3)
    gc.disable()
    try:
        run(st, *orders)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_collector_is_back_after_a_turn_that_raises() -> None:
    st, _ = _scene(2)
    with pytest.raises(AttributeError):
        run(st, None)  # type: ignore[arg-type]  (not an order)
    assert gc.isenabled()

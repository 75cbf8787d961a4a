"""Small builders for resolution tests: characters and orders from case-style dicts."""

from __future__ import annotations

from typing import Any

from fappo_bot.adjudication.loader import character_from_case
from fappo_bot.rules.character import Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.health import level_name
from fappo_bot.rules.orders import Order, PendingHit
from fappo_bot.rules.resolve import resolve_turn
from fappo_bot.rules.results import ActionResult, GMInputs, TurnResult, TurnState
from fappo_bot.sheets.convert import order_from_case


def char(name: str, **fields: Any) -> Character:
    """A character from case-file fields (traits default to Brawny 3)."""
    data: dict[str, Any] = {"name": name, "traits": {"Brawny": 3}}
    data.update(fields)
    return character_from_case(data)


def order(actor: str, *actions: dict[str, Any], **extra: Any) -> Order:
    """An order from case-file action dicts."""
    return order_from_case({"actor": actor, "actions": list(actions), **extra}, "test")


def state(*characters: Character, pending: tuple[PendingHit, ...] = (), turn: int = 1,
          config: RulesConfig | None = None) -> TurnState:
    return TurnState(turn=turn, characters=characters, pending=pending,
                     config=config or RulesConfig())


def run(st: TurnState, *orders: Order, gm: GMInputs | None = None) -> TurnResult:
    return resolve_turn(st, list(orders), gm)


def act(result: TurnResult, actor: str, index: int = 0) -> ActionResult:
    for a in result.actions:
        if a.actor == actor and a.index == index:
            return a
    raise AssertionError(f"no result for {actor} #{index}")


def who(result: TurnResult, name: str) -> Character:
    found = result.state.character(name)
    assert found is not None
    return found


def health(result: TurnResult, name: str) -> str:
    return level_name(who(result, name), result.state.config)


def codes(result: TurnResult, actor: str | None = None) -> set[str]:
    return {e.code.value for e in result.errors if actor is None or e.actor == actor}

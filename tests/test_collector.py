"""The collector's pause (`fappo_bot/collector.py`): off inside the block, back as it was found
after it (an error too, a caller's pause kept), and used by the callers of a turn, never by the
rules core, whose functions leave the process's collector alone."""

from __future__ import annotations

import ast
import gc
from pathlib import Path
from typing import Any

import pytest

from fappo_bot.adjudication import runner
from fappo_bot.collector import collector_paused
from fappo_bot.rules import GMInputs, Order, TurnResult, TurnState
from fappo_bot.service import base

pytestmark = pytest.mark.unit

PACKAGE = Path(__file__).resolve().parents[1] / "fappo_bot"


def test_the_collector_is_off_in_the_block_and_back_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_caller_that_paused_the_collector_finds_it_paused() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _watching(seen: list[bool]) -> Any:
    def resolve(state: TurnState, orders: Any, gm: GMInputs | None = None) -> TurnResult:
        seen.append(gc.isenabled())
        return TurnResult(turn=state.turn, state=state)
    return resolve


def test_the_service_resolves_a_turn_with_the_collector_paused(monkeypatch) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(base, "resolve_turn", _watching(seen))
    base.rules_resolver(TurnState(), [Order(actor="Kael")])
    assert seen == [False] and gc.isenabled()


def test_the_case_runner_resolves_a_turn_with_the_collector_paused(monkeypatch) -> None:
    from fappo_bot.adjudication.loader import load_case_text

    seen: list[bool] = []
    monkeypatch.setattr(runner, "resolve_turn", _watching(seen))
    [case] = load_case_text("cases:\n- id: t\n  kind: turn\n  characters: [{name: Kael}]\n"
                             "  orders: []\n")
    runner.run_case(case)
    assert seen == [False] and gc.isenabled()


@pytest.mark.parametrize("package", ["rules", "rules_xp", "posting", "posting_xp"])
def test_the_pure_core_leaves_the_collector_alone(package: str) -> None:
    wrong = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                wrong += [f"{path.name}:{node.lineno}" for n in names if n == "gc"]
    assert not wrong, wrong

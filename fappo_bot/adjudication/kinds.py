"""Sheet, rest and heal cases through their rules modules (RULINGS F1/F3/F22, F27, F14)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from fappo_bot.adjudication.convert import build_model
from fappo_bot.adjudication.loader import HealCase, RestCase, SheetCase
from fappo_bot.adjudication.report import sp_dict

Require = Callable[..., ModuleType]


def run_sheet(case: SheetCase, require: Require) -> dict[str, Any]:
    """Validity, cost, unspent CC, errors and warnings of a sheet (F1, F3, F22)."""
    sheets = require("fappo_bot.rules.sheet", "Sheet", "check_sheet")
    sheet = build_model(sheets.Sheet, dict(case.sheet), "sheet")
    check = sheets.check_sheet(sheet)
    return {
        "valid": check.valid,
        "cost": check.cost,
        "budget": check.budget,
        "unspent": check.unspent,
        "errors": [_problem(p) for p in check.errors],
        "warnings": [_problem(p) for p in check.warnings],
        "breakdown": dict(check.breakdown),
    }


def _problem(problem: Any) -> dict[str, Any]:
    return {"code": problem.code, "message": problem.message, "field": problem.field}


def run_rest(case: RestCase, require: Require) -> dict[str, Any]:
    """SP pools after a break between scenes (F27)."""
    require("fappo_bot.rules.rest", "restore")
    raise NotImplementedError


def run_heal(case: HealCase, require: Require) -> dict[str, Any]:
    """Level after `elapsed` seconds, the check's level and the starting level's time (F14)."""
    require("fappo_bot.rules.healing", "heal_over_time")
    raise NotImplementedError


__all__ = ["run_heal", "run_rest", "run_sheet", "sp_dict"]

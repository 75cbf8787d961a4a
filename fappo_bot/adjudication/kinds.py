"""Sheet, rest and heal cases through their rules modules (RULINGS F1/F3/F22, F27, F14)."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from fappo_bot.adjudication.loader import HealCase, RestCase, SheetCase
from fappo_bot.adjudication.report import sp_dict

Require = Callable[..., ModuleType]


def run_sheet(case: SheetCase, require: Require) -> dict[str, Any]:
    """Validity, cost, unspent CC, errors and warnings of a sheet (F1, F3, F22)."""
    require("fappo_bot.rules.sheet", "check_sheet")
    raise NotImplementedError


def run_rest(case: RestCase, require: Require) -> dict[str, Any]:
    """SP pools after a break between scenes (F27)."""
    require("fappo_bot.rules.rest", "restore")
    raise NotImplementedError


def run_heal(case: HealCase, require: Require) -> dict[str, Any]:
    """Level after `elapsed` seconds, the check's level and the starting level's time (F14)."""
    require("fappo_bot.rules.healing", "heal_over_time")
    raise NotImplementedError


__all__ = ["run_heal", "run_rest", "run_sheet", "sp_dict"]

"""Sheet, rest and heal cases through their rules modules (RULINGS F1/F3/F22, F27, F14)."""

from __future__ import annotations

from typing import Any

from fappo_bot.adjudication.loader import HealCase, RestCase, SheetCase
from fappo_bot.adjudication.report import character_dict, level_label, sp_dict
from fappo_bot.rules import HealingCheck, RulesError, check_sheet, heal, restore
from fappo_bot.sheets.convert import CaseError, sheet_from_data


def run_sheet(case: SheetCase) -> dict[str, Any]:
    """Validity, cost, unspent CC, errors and warnings of a sheet (F1, F3, F22)."""
    sheet = sheet_from_data(case.sheet)
    check = check_sheet(sheet)
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


def run_rest(case: RestCase) -> dict[str, Any]:
    """SP pools after a break between scenes (F27): each character's allocation (by name,
    case-insensitive), the rest allocated by the rules' deterministic default (F27 Amb-2)."""
    names = {c.name.casefold() for c in case.characters}
    unknown = [n for n in case.allocate if n.casefold() not in names]
    if unknown:
        raise CaseError(f"allocate: no character called {', '.join(map(repr, unknown))}",
                        "unknown-name")
    allocations = {n.casefold(): pools for n, pools in case.allocate.items()}
    characters, details, errors = [], [], []
    for character in case.characters:
        try:
            outcome = restore(character, case.break_,
                              allocations.get(character.name.casefold()), case.config)
        except RulesError as exc:  # an allocation the rules refuse: that character's error
            if exc.field == "break":
                raise
            errors.append({"actor": character.name, "code": exc.code, "message": exc.message})
            characters.append(character_dict(character, case.config))
            continue
        characters.append(character_dict(outcome.character, case.config))
        details.append({"name": character.name, "restored": dict(outcome.restored),
                        "lost": outcome.lost})
    # over-allocation is clipped, never refused (RULINGS Amendments, F27): `errors: []` holds
    return {"characters": characters, "restored": details, "errors": errors}


def run_heal(case: HealCase) -> dict[str, Any]:
    """Level after `elapsed` seconds, the check's level and the starting level's time (F14).

    The check, if any, is the first character's (the patient's); every character lets the same
    time pass."""
    if not case.characters:
        raise CaseError("a heal case needs the patient in `characters:`")
    check = None
    if case.check is not None:
        check = HealingCheck(total=case.check.total, sp=dict(case.check.sp),
                             sagacious=case.check.sagacious)
    outcomes = [
        heal(c, case.elapsed, check=check if i == 0 else None, config=case.config)
        for i, c in enumerate(case.characters)
    ]
    first = outcomes[0]
    return {
        "characters": [character_dict(o.character, case.config) for o in outcomes],
        "check_level": level_label(first.check_level),
        "check_margin": first.check_margin,
        "heal_seconds": first.heal_seconds,
        "seconds_to_next": first.seconds_to_next,
        "levels_healed": first.levels_healed,
        "notes": list(first.notes),
    }


__all__ = ["run_heal", "run_rest", "run_sheet", "sp_dict"]

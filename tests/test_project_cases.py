"""The project's own adjudication cases (tests/cases/*.yaml), written from RULINGS.md.

Each case is one test, named by its file and id. ENGINE_WRONG lists the cases whose expected
values follow RULINGS (and spec/cases.md) while the engine computes something else; the marker
is strict, so a case that starts passing after the engine is fixed fails here until its entry is
removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fappo_bot.adjudication.loader import CaseFileError, load_case_file
from fappo_bot.adjudication.runner import run_case

CASES_DIR = Path(__file__).parent / "cases"

#: case id -> what the engine gets wrong (RULINGS section and the arithmetic). Remove an entry
#: when the engine is fixed; never add one because a case's own arithmetic is doubtful.
ENGINE_WRONG: dict[str, str] = {
    "F18-grasp-tiers-by-em": (
        "engine: F18.11 'the victim is Disarmed as above' in every Grasp tier, and the attacker "
        "is not disarmed; at em 4 (Whip 3 + 2 AP = 5 vs 1) and em 5 (3 + 3 = 6 vs 1) the engine "
        "drops the victim's 'disarmed' status and gives the attacker a 'disarmed' status "
        "(rules/specials.py _grasp)"
    ),
    "F25-learned-fireball-bought-special": (
        "engine: spec/cases.md 'A spell's bought special applies on a Great Success of its attack "
        "stage (nothing to declare)'; attack 4 + 3 AP = 7 vs 1 -> +6 great -> 4 + Fire, but the "
        "engine applies Fire only when the cast declares special: (rules/combat.py calls "
        "great_specials with action.special for spell strikes)"
    ),
    "F25-attack-sp-and-ad-hoc-accuracy": (
        "engine: spec/cases.md bought spell Special applies on a Great Success without a "
        "declaration; both targets reach great (8 vs 5 -> +3; 8 vs 6 -> +2 +1 floating SP) so both "
        "take 4 + Fire, the engine gives no Fire (same cause as F25-learned-fireball-bought-special)"
    ),
    "F18-disarmed-cannot-strike-with-dropped-weapon": (
        "engine: F18.10 a disarmed character's weapon 'falls to his feet' (1 AP to retrieve, 1 to "
        "ready); with the case format's plain `status: [disarmed]` the engine still strikes with "
        "the wielded Broadsword (3 + 3 AP = 6 vs 1 -> great -> 4 levels, goblin Incapacitated) "
        "because combat.in_hand only honours a disarmed status that names its item (s.item is not "
        "None); a bare 'disarmed' should mean the wielded weapon"
    ),
    "F8-two-turn-cast-is-concentration": (
        "engine: F24 Amb-5 'the casting becomes a multi-turn concentration action' and F8 Amb-3 "
        "'multi-turn spell concentration' cover conc_2turns ('two full turns of uninterrupted "
        "concentration'); rules/validate_actions.py is_concentration only checks conc_minute, "
        "conc_hour and conc_day, so cast + attack passes instead of concentration-conflict"
    ),
    "F8-learned-concentration-spell": (
        "engine: F8 Amb-3 / F24 Amb-5 a learned spell whose effects carry a concentration modifier "
        "is a concentration action too; is_concentration only looks at inline `effects` "
        "(action.effects), never at the learned spell's effects, so cast Ward + attack passes"
    ),
    "F25-caster-immune": (
        "engine: F25 Amb-7 'the caster included unless caster_immune was bought' (F24 row '+2: The "
        "caster is immune to the effect of an area effect spell'); D = 3 + 2 + 2 + 2 = 9, cast 5 + "
        "4 = 9 bare, attack 9 vs Zara's own 1 -> great -> 2: the engine hurts the immune caster "
        "(Battered) because rules/casting.py plan_casts never reads SpellProfile.caster_immune"
    ),
    "F25-mind-spell-mood-difficulty": (
        "engine: F25 mind payload TN_a = mood difficulty M, a GM input (R1) that a case gives as "
        "the cast's `difficulty` (spec: GM inputs ride on the action); 'flee!' attack 5 + 2 = 7 "
        "vs M 10 -> -3 -> failure, but the engine reads only the non-spec `mood` field and "
        "defaults M to 0 (casting.py plan_casts fixed_tn = action.mood or 0): 7 vs 0 -> great, "
        "a guessed GM input"
    ),
    "F18-bleeding-cannot-be-bound-during-combat": (
        "engine: F18.2 binding takes 60 uninterrupted turns and Amb-3 'Binding before combat "
        "ends: not possible'; one turn of `tend` on a bleeding (not Dying) patient mid-fight "
        "clears the bleeding status at once (rules/actions.py resolve_tend adds to "
        "changes.bound, apply.py _bind drops the flag) without checking combat or duration"
    ),
}


def _params() -> list[object]:
    params: list[object] = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        try:
            cases = load_case_file(path)
        except CaseFileError as exc:
            params.append(pytest.param(path, exc, id=path.name))
            continue
        for case in cases:
            marks = []
            if case.id in ENGINE_WRONG:
                marks.append(pytest.mark.xfail(reason=ENGINE_WRONG[case.id], strict=True))
            params.append(pytest.param(path, case, id=f"{path.stem}::{case.id}", marks=marks))
    return params


@pytest.mark.unit
@pytest.mark.parametrize(("path", "case"), _params())
def test_project_case(path: Path, case: object) -> None:
    """Every project case resolves to the values RULINGS gives (its note shows the arithmetic)."""
    if isinstance(case, CaseFileError):
        pytest.fail(str(case))
    outcome = run_case(case)  # type: ignore[arg-type]
    details = [outcome.problem] if outcome.problem else []
    details += [d.line() for d in outcome.differences]
    assert outcome.passed, f"{path.name} {outcome.id}:\n  " + "\n  ".join(details)


@pytest.mark.unit
def test_case_ids_unique_and_engine_wrong_names_real_cases() -> None:
    """Case ids are unique across tests/cases, every case names its RULINGS section, and every
    ENGINE_WRONG entry is a real case with a reason that starts with 'engine:'."""
    ids: list[str] = []
    for path in sorted(CASES_DIR.glob("*.yaml")):
        for case in load_case_file(path):
            ids.append(case.id)
            assert getattr(case, "rule", None), f"{case.id} names no RULINGS section"
    assert len(ids) == len(set(ids)), "duplicate case ids"
    assert set(ENGINE_WRONG) <= set(ids)
    assert all(reason.startswith("engine:") for reason in ENGINE_WRONG.values())

"""The project's own adjudication cases (tests/cases/*.yaml), written from RULINGS.md.

Each case is one test, named by its file and id. ENGINE_WRONG lists the cases whose expected
values follow RULINGS (and spec/cases.md) while the engine computes something else; the marker
is strict, so a case that starts passing after the engine is fixed fails here until its entry is
removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from casefiles import assert_case_passes, case_params

from fappo_bot.adjudication.loader import load_case_file

CASES_DIR = Path(__file__).parent / "cases"

#: case id -> what the engine gets wrong (RULINGS section and the arithmetic). Remove an entry
#: when the engine is fixed; never add one because a case's own arithmetic is doubtful.
ENGINE_WRONG: dict[str, str] = {}


def _params() -> list[object]:
    return case_params(sorted(CASES_DIR.glob("*.yaml")), ENGINE_WRONG)


@pytest.mark.unit
@pytest.mark.parametrize(("path", "case"), _params())
def test_project_case(path: Path, case: object) -> None:
    """Every project case resolves to the values RULINGS gives (its note shows the arithmetic)."""
    assert_case_passes(path, case)


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

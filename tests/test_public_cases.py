"""The public adjudication cases (../shared/cases/*.yaml) and the example case files
(examples/*.yaml) must pass (spec/cases.md).

Each case is one test, named by its file and id. Cases that need a feature not in this checkout
yet are listed in NOT_YET with the feature named; the marker is strict, so a case that starts
passing fails here until its entry is removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from casefiles import assert_case_passes, case_params

from fappo_bot.adjudication.loader import load_case_file
from tests.shared_folder import MISSING, PUBLIC_CASES

CASES_DIR = PUBLIC_CASES
EXAMPLES_DIR = Path(__file__).parents[1] / "examples"

#: case id -> the feature it waits for. Shrink this as features land; never add a case here
#: because its numbers disagree with the engine (that is a bug to report and fix).
NOT_YET: dict[str, str] = {}


def _params() -> list[object]:
    params: list[object] = []
    if not CASES_DIR.is_dir():
        params.append(pytest.param(None, None, id="no-public-cases",
                                   marks=pytest.mark.skip(reason=MISSING)))
    paths = sorted(CASES_DIR.glob("*.yaml")) + sorted(EXAMPLES_DIR.glob("*.yaml"))
    return params + case_params(paths, NOT_YET)


@pytest.mark.unit
@pytest.mark.parametrize(("path", "case"), _params())
def test_public_case(path: Path, case: object) -> None:
    assert_case_passes(path, case)


@pytest.mark.unit
def test_not_yet_names_only_real_cases() -> None:
    """Every NOT_YET entry is a case id and names the feature it waits for."""
    if not CASES_DIR.is_dir():
        pytest.skip(MISSING)
    paths = [*CASES_DIR.glob("*.yaml"), *EXAMPLES_DIR.glob("*.yaml")]
    ids = {c.id for p in paths for c in load_case_file(p)}
    assert set(NOT_YET) <= ids
    assert all(reason.startswith("needs ") for reason in NOT_YET.values())

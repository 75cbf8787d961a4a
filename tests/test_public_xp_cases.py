"""The public Xp adjudication cases (../shared/cases-xp/*.yaml, spec/cases-xp.md) must pass.

Each case is one test, named by its file and id. Without ../shared the test is skipped with the
reason, as for the FAPPO public cases.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from casefiles import assert_case_passes, case_params

from tests.shared_folder import MISSING, SHARED

XP_CASES_DIR = SHARED / "cases-xp"


def _params() -> list[object]:
    if not XP_CASES_DIR.is_dir():
        return [pytest.param(None, None, id="no-public-xp-cases",
                             marks=pytest.mark.skip(reason=MISSING))]
    return case_params(sorted(XP_CASES_DIR.glob("*.yaml")), {})


@pytest.mark.unit
@pytest.mark.parametrize(("path", "case"), _params())
def test_public_xp_case(path: Path, case: object) -> None:
    assert_case_passes(path, case)


@pytest.mark.unit
def test_every_public_xp_case_is_an_xp_case() -> None:
    """The 27 public cases all load as Xp cases (none falls back to a FAPPO kind)."""
    if not XP_CASES_DIR.is_dir():
        pytest.skip(MISSING)
    from fappo_bot.adjudication.loader import load_case_file
    from fappo_bot.adjudication.xp_case import XpCase

    cases = [c for p in sorted(XP_CASES_DIR.glob("*.yaml")) for c in load_case_file(p)]
    assert len(cases) >= 27
    assert all(isinstance(c, XpCase) for c in cases)

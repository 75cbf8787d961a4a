"""Running adjudication case files as tests: one test per case, named by its file and id, with
strict expected-failure markers for the cases a reason is listed for."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from fappo_bot.adjudication.loader import CaseFileError, load_case_file
from fappo_bot.adjudication.runner import run_case


def case_params(paths: Iterable[Path], expected_failures: Mapping[str, str]) -> list[object]:
    """One pytest param (path, case) per case; an unreadable file is one param carrying its error."""
    params: list[object] = []
    for path in paths:
        try:
            cases = load_case_file(path)
        except CaseFileError as exc:
            params.append(pytest.param(path, exc, id=path.name))
            continue
        for case in cases:
            marks = []
            if case.id in expected_failures:
                marks.append(pytest.mark.xfail(reason=expected_failures[case.id], strict=True))
            params.append(pytest.param(path, case, id=f"{path.stem}::{case.id}", marks=marks))
    return params


def assert_case_passes(path: Path, case: object) -> None:
    """The case resolves to its expected values; the failure message lists every difference."""
    if isinstance(case, CaseFileError):
        pytest.fail(str(case))
    outcome = run_case(case)  # type: ignore[arg-type]
    details = [outcome.problem] if outcome.problem else []
    details += [d.line() for d in outcome.differences]
    assert outcome.passed, f"{path.name} {outcome.id}:\n  " + "\n  ".join(details)

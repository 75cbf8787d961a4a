"""The public adjudication cases (../shared/cases/*.yaml) and the example case files
(examples/*.yaml) must pass (spec/cases.md).

Each case is one test, named by its file and id. Cases that need a feature not in this checkout
yet are listed in NOT_YET with the feature named; the marker is strict, so a case that starts
passing fails here until its entry is removed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fappo_bot.adjudication.loader import CaseFileError, load_case_file
from fappo_bot.adjudication.runner import run_case

CASES_DIR = Path(__file__).parents[1].parent / "shared" / "cases"
EXAMPLES_DIR = Path(__file__).parents[1] / "examples"

#: case id -> the feature it waits for. Shrink this as features land; never add a case here
#: because its numbers disagree with the engine (that is a bug to report and fix).
_ENGINE = "needs the resolution engine (fappo_bot.rules.resolve.resolve_turn)"
_PARSER = "needs the post parser (fappo_bot.posting.parse_post)"
NOT_YET: dict[str, str] = {
    "F5-combat-defense-formula": _ENGINE,
    "F6-flat-footed-defense-is-one": _ENGINE,
    "F17-heavy-armor": _ENGINE,
    "F16-range-penalty-by-weapon-class": _ENGINE,
    "F12-damage-by-success-level": _ENGINE,
    "F12-great-success-declared-special": _ENGINE,
    "F9-conditional-actions": _ENGINE,
    "F10-hit-to-wounded-ap-next": _ENGINE,
    "F10-several-hits-one-shock": _ENGINE,
    "F10-shock-and-wound-limit-this-turn": _ENGINE,
    "F13-reduction-cancels-hit-no-shock": _ENGINE,
    "F13-reduce-over-limit": _ENGINE,
    "F11-pips-option": _ENGINE,
    "F11-lieutenant-track": _ENGINE,
    "F11-master-track-slots": _ENGINE,
    "R3-01-goblin-three-ap-split": _ENGINE,
    "R3-03-fireball-uncanny-sp-abject-to-bare": _ENGINE,
    "R3-06-battered-longsword-reduced-to-wounded": _ENGINE,
    "R3-07-medium-shield-three-attacks": _ENGINE,
    "R3-08a-light-shield-covers-one-attack": _ENGINE,
    "R3-08b-heavy-shield-covers-three-attacks": _ENGINE,
    "R3-09-nuisances-nine-at-margin-three": _ENGINE,
    "R3-10-minions-longsword-three": _ENGINE,
    "R3-11-healing-check-battered": _ENGINE,
    "R3-12a-goblins-pledge-one-sp-each": _ENGINE,
    "R3-12b-troll-pledge-lost": _ENGINE,
    "F4-chart-boundaries": _ENGINE,
    "F4-abject-failure-protection": _ENGINE,
    "F4-sp-shift-suggested-bonus-once-floating-none": _ENGINE,
    "F4-attacker-capped-at-great-before-pledge": _ENGINE,
    "F4-pledge-cannot-push-protected-actor-to-abject": _ENGINE,
    "F4-sp-insufficient-action-and-guard-share-a-pool": _ENGINE,
    "P-line-form-intent-ooc": _PARSER,
    "P-bracket-form": _PARSER,
    "P-conditional": _PARSER,
    "P-guard-lines": _PARSER,
    "P-reduce-line": _PARSER,
    "P-forgiving-names": _PARSER,
    "P-discord-markdown": _PARSER,
    "P-gm-post-two-characters": _PARSER,
    "P-error-unknown-name": _PARSER,
    "P-error-syntax": _PARSER,
    "P-endure-line": _PARSER,
    "P-move-without-ap": _PARSER,
    "P-drop-is-free": _PARSER,
    "P-cast-to-hit": _PARSER,
    "example-skirmish-at-the-ford": _ENGINE,
}


def _params() -> list[object]:
    params: list[object] = []
    if not CASES_DIR.is_dir():
        params.append(pytest.param(None, None, id="no-public-cases",
                                   marks=pytest.mark.skip(reason=f"{CASES_DIR} is absent")))
    paths = sorted(CASES_DIR.glob("*.yaml")) + sorted(EXAMPLES_DIR.glob("*.yaml"))
    for path in paths:
        try:
            cases = load_case_file(path)
        except CaseFileError as exc:
            params.append(pytest.param(path, exc, id=path.name))
            continue
        for case in cases:
            marks = []
            if case.id in NOT_YET:
                marks.append(pytest.mark.xfail(reason=NOT_YET[case.id], strict=True))
            params.append(pytest.param(path, case, id=f"{path.stem}::{case.id}", marks=marks))
    return params


@pytest.mark.unit
@pytest.mark.parametrize(("path", "case"), _params())
def test_public_case(path: Path, case: object) -> None:
    if isinstance(case, CaseFileError):
        pytest.fail(str(case))
    outcome = run_case(case)  # type: ignore[arg-type]
    details = [outcome.problem] if outcome.problem else []
    details += [d.line() for d in outcome.differences]
    assert outcome.passed, f"{path.name} {outcome.id}:\n  " + "\n  ".join(details)


def test_not_yet_names_only_real_cases() -> None:
    """Every NOT_YET entry is a case id and names the feature it waits for."""
    if not CASES_DIR.is_dir():
        pytest.skip(f"{CASES_DIR} is absent")
    paths = [*CASES_DIR.glob("*.yaml"), *EXAMPLES_DIR.glob("*.yaml")]
    ids = {c.id for p in paths for c in load_case_file(p)}
    assert set(NOT_YET) <= ids
    assert all(reason.startswith("needs ") for reason in NOT_YET.values())

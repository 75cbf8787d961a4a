"""The public parse cases (../shared/cases/parse.yaml) straight through `parse_post`, compared as
spec/cases.md says: only the listed fields of each action, names in canonical form, `if` trimmed
and case-folded; a post with problems lists `errors: [{line, code}]` and records no orders."""

from __future__ import annotations

import pytest

from fappo_bot.adjudication.loader import load_case_file
from fappo_bot.posting import PostContext, parse_post
from fappo_bot.rules.results import TurnState
from tests.posting.helpers import subset
from tests.shared_folder import MISSING, PUBLIC_CASES

pytestmark = pytest.mark.unit

CASES_FILE = PUBLIC_CASES / "parse.yaml"
CASES = load_case_file(CASES_FILE) if CASES_FILE.exists() else []


PARAMS = [pytest.param(c, id=c.id) for c in CASES] or [
    pytest.param(None, id="shared-folder-missing", marks=pytest.mark.skip(MISSING))]


@pytest.mark.parametrize("case", PARAMS)
def test_public_parse_case(case: object) -> None:
    state = TurnState(characters=case.characters, pending=case.pending,  # type: ignore[attr-defined]
                      config=case.config)  # type: ignore[attr-defined]
    post = parse_post(case.post, PostContext.for_poster(state, case.poster))  # type: ignore[attr-defined]
    expect = case.expect  # type: ignore[attr-defined]
    orders = post.to_case_orders()
    errors = post.to_case_errors()
    assert subset(expect.get("orders", []), orders), orders
    assert sorted((e["line"], e["code"]) for e in errors) == sorted(
        (e["line"], e["code"]) for e in expect.get("errors", [])), errors

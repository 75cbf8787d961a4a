"""The Xp side of `fappo-bot adjudicate` (spec/cases-xp.md): loading, refusals as results, the
comparison rules and the command's output."""

from __future__ import annotations

import json

import pytest

from fappo_bot.adjudication.loader import BadCase, load_case_text
from fappo_bot.adjudication.runner import run_case
from fappo_bot.adjudication.xp_case import XpCase
from fappo_bot.adjudication.xp_report import compare_xp
from fappo_bot.cli import main

pytestmark = pytest.mark.unit

ROLL = """
cases:
- id: heroic
  rule: X5
  kind: xp-roll
  pool: 4
  sl: weak
  dice: [2, 4, 6, 6, 5, 1]
  expect: {target: 6x2, bonus: [5, 1], outcome: Success}
"""


def test_an_xp_case_loads_beside_fappo_cases_and_passes():
    (case,) = load_case_text(ROLL)
    assert isinstance(case, XpCase)
    outcome = run_case(case)
    assert outcome.passed, outcome.differences


def test_an_unknown_xp_kind_is_a_bad_case():
    (case,) = load_case_text("cases:\n- {id: a, kind: xp-duel}\n")
    assert isinstance(case, BadCase) and "xp-pool" in case.problem


def test_lists_of_numbers_compare_whole_and_in_order():
    """`bonus`, `base`, `order` are compared whole (cases-xp.md "Comparison")."""
    assert compare_xp({"bonus": [1, 5]}, {"bonus": [5, 1]})
    assert compare_xp({"order": ["b", "a"]}, {"order": ["a", "b"]})
    assert not compare_xp({"target": 6}, {"target": "6"})


def test_records_match_by_name_and_errors_as_a_set():
    got = {"members": [{"name": "Aster", "s": 1}, {"name": "Brin", "s": 0}],
           "errors": [{"code": "no-xposure", "name": "Cato", "message": "..."}]}
    assert not compare_xp({"members": [{"name": "brin", "s": 0}]}, got)
    assert compare_xp({"members": [{"name": "Cato", "s": 0}]}, got)
    assert not compare_xp({"errors": [{"code": "no-xposure"}]}, got)
    assert compare_xp({"errors": []}, got)
    assert compare_xp({"errors": [{"code": "no-xposure", "name": "Brin"}]}, got)


def test_a_refused_case_reports_every_field_null(tmp_path, capsys):
    path = tmp_path / "x.yaml"
    path.write_text("cases:\n- id: short\n  rule: X0\n  kind: xp-roll\n  pool: 3\n"
                    "  dice: [5]\n  expect: {errors: [{code: dice-short}]}\n", encoding="utf-8")
    assert main(["adjudicate", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)["cases"][0]["result"]
    assert result["s"] is None and result["errors"][0]["code"] == "dice-short"
    assert "ran short" in result["errors"][0]["message"]

"""Sheet, spell and heal cases through the real rules modules and the real CLI: the runner's
wiring (every computed field in --json, errors and warnings by code)."""

from __future__ import annotations

import json

import pytest

from fappo_bot.cli import main

pytestmark = pytest.mark.unit

SHEETS = """\
cases:
- id: valid
  kind: sheet
  note: 5 + 5 Traits, +2 extra Nimble SP, skills 4 + 3, floating 3 -> 22; 30 - 22 = 8.
  sheet: {tier: pc, traits: {Agile: 5, Vigilant: 3}, skills: {Swordfighting: 4, Stealth: 3}, floating: 1}
  expect: {valid: true, cost: 22, unspent: 8, errors: [], warnings: []}
- id: caps
  kind: sheet
  sheet: {tier: pc, traits: {Nimble: 6}, skills: {Swordfighting: 6}}
  expect: {valid: false, errors: [{code: trait-sp-cap}, {code: skill-cap}]}
- id: typo
  kind: sheet
  sheet: {tier: pc, trait: {Nimble: 3}}
  expect: {valid: false}
"""


def test_sheet_cases(case_file, capsys) -> None:
    code = main(["adjudicate", str(case_file(SHEETS))])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[:3] == ["PASS valid", "PASS caps", "FAIL typo"]
    assert lines[3].startswith("  bad-case: sheet: unknown field trait")
    assert lines[-1] == "2 passed, 1 failed"


def test_sheet_json_has_every_field(case_file, capsys) -> None:
    main(["adjudicate", str(case_file(SHEETS)), "--json", "--case", "caps"])
    [case] = json.loads(capsys.readouterr().out)["cases"]
    result = case["result"]
    assert {"valid", "cost", "unspent", "errors", "warnings"} <= set(result)
    assert {e["code"] for e in result["errors"]} == {"trait-sp-cap", "skill-cap"}
    assert all(e["message"] for e in result["errors"])


def test_spell_case_and_rules_refusal(case_file, capsys) -> None:
    text = """\
cases:
- {id: fireball, kind: spell, effects: {damage: 4, specials: 1, locus: true, radius: 2, loud: true, traceable: true},
   ranges: 3, expect: {difficulty: 12, cast_difficulty: 15, learned: 6, learned_cast_difficulty: 9, cost: 2}}
- {id: nonsense, kind: spell, effects: {teleport_castle: 1}, expect: {difficulty: 4}}
"""
    code = main(["adjudicate", str(case_file(text))])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert lines[:2] == ["PASS fireball", "FAIL nonsense"]
    assert lines[2].startswith("  the rules refused the case (")
    assert "teleport_castle" in lines[2]


def test_f14_heal_case(case_file, capsys) -> None:
    """F14: "Successful use of the Healing skill versus the difficulty number ... will cut the
    time to heal one level in half"; a Solid check at Battered (difficulty 3) halves 600 s."""
    text = """\
cases:
- id: battered-with-check
  kind: heal
  characters: [{name: Kael, health: Battered}]
  elapsed: 300
  check: {total: 5, sp: {}, sagacious: false}
  expect: {characters: [{name: Kael, health: Staggered}], check_level: solid, heal_seconds: 300}
- id: master-slots
  kind: heal
  characters: [{name: Ooze, tier: master, health: Wounded 2}]
  elapsed: 86400
  expect: {characters: [{name: Ooze, health: Wounded}], heal_seconds: 86400}
"""
    code = main(["adjudicate", str(case_file(text)), "--json"])
    cases = json.loads(capsys.readouterr().out)["cases"]
    assert code == 0, cases
    first = cases[0]["result"]
    assert (first["check_level"], first["heal_seconds"]) == ("solid", 300)
    assert first["characters"][0]["health"] == "Staggered"
    assert cases[1]["result"]["characters"][0]["health"] == "Wounded 1"


RESTS = """\
cases:
- id: clipped-not-refused
  kind: rest
  note: a night restores 3; Nimble +5 is clipped to 3 (RULINGS Amendments, F27), no error
  characters: [{name: Kael, traits: {Nimble: 1}, max: {traits: {Nimble: 5}}}]
  break: night
  allocate: {Kael: {Nimble: 5}}
  expect: {errors: [], characters: [{name: Kael, sp: {Nimble: 4}}]}
- id: no-such-pool
  kind: rest
  note: Mira has no Brawny pool; Kael's rest stands
  characters:
  - {name: Kael, traits: {Nimble: 1}, max: {traits: {Nimble: 5}}}
  - {name: Mira, traits: {Clever: 0}, max: {traits: {Clever: 3}}}
  break: immediate
  allocate: {Mira: {Brawny: 1}}
  expect:
    errors: [{actor: Mira, code: unknown-name}]
    characters: [{name: Kael, sp: {Nimble: 2}}, {name: Mira, sp: {Clever: 0}}]
"""


def test_rest_cases_report_their_errors_per_character(case_file, capsys) -> None:
    """Rest cases expect `errors` (loader.EXPECT_KEYS): none when the allocation is clipped
    (it reported no `errors` field at all, so `errors: []` failed), and a pool the character
    lacks as that character's error (it failed the whole case as refused by the rules)."""
    code = main(["adjudicate", str(case_file(RESTS))])
    out = capsys.readouterr().out
    assert code == 0, out

"""`fappo-bot adjudicate` through the real CLI (spec/cases.md): output lines, exit codes, --json,
--case, bad cases, unknown kinds, errors inside the rules; plus one run of the installed script."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fappo_bot.adjudication import runner
from fappo_bot.cli import main

pytestmark = pytest.mark.unit


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(["adjudicate", *argv])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_all_pass_exit_zero(fake_engine, case_file, capsys, duel) -> None:
    code, lines, err = run(capsys, str(case_file(duel)))
    assert (code, lines, err) == (0, ["PASS duel", "1 passed, 0 failed"], "")


def test_failures_list_each_differing_field(fake_engine, case_file, capsys, duel) -> None:
    text = duel.replace("total: 5", "total: 6").replace("health: Wounded", "health: Dead")
    code, lines, _ = run(capsys, str(case_file(text)))
    assert code == 1
    assert lines == [
        "FAIL duel",
        "  actions[Kael #0].total: expected 6, got 5",
        "  characters[Goblin].health: expected Dead, got Wounded",
        "0 passed, 1 failed",
    ]


def test_bad_cases_and_unknown_kinds_fail_alone(fake_engine, case_file, capsys, duel) -> None:
    text = duel + """\
- {id: broken, characters: [{name: K, skills: {Sorcery: 2}}]}
- {id: odd, kind: battle}
"""
    code, lines, _ = run(capsys, str(case_file(text)))
    assert code == 1
    assert lines[0] == "PASS duel"
    assert lines[1] == "FAIL broken"
    assert lines[2].startswith("  unknown-name: character K.skills: no skill called 'Sorcery'")
    assert lines[3:] == [
        "FAIL odd",
        "  bad-case: unknown kind 'battle' (kinds: turn, sheet, spell, rest, heal, parse)",
        "1 passed, 2 failed",
    ]


def test_engine_errors_fail_the_case_without_a_traceback(monkeypatch, fake_engine, case_file,
                                                          capsys, duel) -> None:
    def explode(*_: object) -> None:
        raise KeyError("Goblin")

    monkeypatch.setattr(runner, "resolve_turn", explode)
    code, lines, err = run(capsys, str(case_file(duel)))
    assert code == 1 and "Traceback" not in err
    assert lines == ["FAIL duel", "  error while running the case: KeyError: 'Goblin'",
                     "0 passed, 1 failed"]


def test_unreadable_files_exit_two_and_the_rest_still_run(fake_engine, case_file, tmp_path,
                                                          capsys, duel) -> None:
    good = case_file(duel)
    code, lines, err = run(capsys, str(tmp_path / "nope.yaml"), str(good))
    assert code == 2
    assert lines == ["PASS duel", "1 passed, 0 failed"]
    assert "nope.yaml: no such file" in err
    bad = case_file("cases: [oops", "bad.yaml")
    code, _, err = run(capsys, str(bad))
    assert code == 2 and "bad.yaml: not valid YAML" in err


def test_case_filter(fake_engine, case_file, capsys, duel) -> None:
    path = str(case_file(duel + "- {id: other, kind: battle}\n"))
    code, lines, _ = run(capsys, path, "--case", "Duel")
    assert (code, lines) == (0, ["PASS duel", "1 passed, 0 failed"])
    code, _, err = run(capsys, path, "--case", "ghost")
    assert code == 2 and "no case with the id 'ghost'" in err


def test_json_has_every_computed_field(fake_engine, case_file, capsys, duel) -> None:
    path = str(case_file(duel.replace("total: 5", "total: 6") + "- {id: odd, kind: battle}\n"))
    code, lines, _ = run(capsys, path, "--json")
    assert code == 1
    document = json.loads("\n".join(lines))
    duel, odd = document["cases"]
    assert (duel["id"], duel["kind"], duel["passed"]) == ("duel", "turn", False)
    result = duel["result"]
    assert set(result) == {"actions", "characters", "errors"}
    attack, defend = result["actions"]
    assert {"actor", "index", "total", "difficulty", "margin", "level", "damage", "specials",
            "eliminated", "effective", "targets"} <= set(attack)
    assert (attack["total"], attack["level"], defend["kind"]) == (5, "solid", "defend")
    goblin = next(c for c in result["characters"] if c["name"] == "Goblin")
    assert goblin == {"name": "Goblin", "health": "Wounded", "count": 1, "sp": {"Clever": 3},
                      "floating": 0, "ap_next": 2, "status": [], "damage": 0}
    assert duel["differences"] == [{"path": "actions[Kael #0].total", "expected": 6, "got": 5}]
    assert (odd["passed"], odd["code"]) == (False, "bad-case")


def test_json_reports_a_cast_target_and_refused_orders(fake_engine, case_file, capsys) -> None:
    text = """\
cases:
- id: cast
  characters:
  - {name: Zara, traits: {Uncanny: 3}, skills: {Spellcasting: 4}, spells: [{name: Bolt, difficulty: 4}]}
  - {name: Goblin}
  orders:
  - actor: Zara
    actions: [{kind: cast, ap: 3, spell: Bolt, target: Goblin}]
  - actor: Nobody
    actions: [{kind: defend, ap: 1}]
  expect:
    actions:
    - {actor: Zara, index: 0, level: bare,
       targets: [{name: Goblin, total: 6, difficulty: 2, margin: 4, level: great, damage: 4, specials: [Fire]}]}
    errors: [{actor: Nobody, code: unknown-name}]
"""
    code, lines, _ = run(capsys, str(case_file(text)))
    assert (code, lines) == (0, ["PASS cast", "1 passed, 0 failed"])


@pytest.mark.e2e
def test_installed_script(case_file) -> None:
    script = shutil.which("fappo-bot", path=str(Path(sys.executable).parent))
    assert script is not None, "the fappo-bot script is not installed in this venv"
    path = case_file("cases:\n- {id: odd, kind: battle}\n")
    done = subprocess.run([script, "adjudicate", str(path)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "FAIL odd",
        "  bad-case: unknown kind 'battle' (kinds: turn, sheet, spell, rest, heal, parse)",
        "0 passed, 1 failed",
    ]
    missing = subprocess.run([script, "adjudicate", str(path) + ".gone"], capture_output=True,
                             text=True, timeout=60, check=False)
    assert missing.returncode == 2 and "no such file" in missing.stderr

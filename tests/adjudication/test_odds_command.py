"""`fappo-bot odds`: the exact odds of an Xp roll on the command line."""

from __future__ import annotations

import json

import pytest

from fappo_bot.cli import main

pytestmark = pytest.mark.unit


def test_odds_prints_the_table_and_the_chances(capsys):
    assert main(["odds", "6d", "superior"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "6d at Superior (3-6), heroic, need 1"
    assert "fumble (more 1s than successes):" in out and "success: " in out


def test_odds_exact_fractions_match_the_rulings(capsys):
    """RULINGS X5: a non-Heroic 4d reaches 4 successes with probability 1/81."""
    assert main(["odds", "4d6", "normal", "--need", "4", "--not-heroic", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["success"]["fraction"] == "1/81"
    assert len(figures["successes"]) == 5


@pytest.mark.parametrize("argv", [["odds", "six"], ["odds", "4", "mighty"],
                                  ["odds", "4", "--need", "0"]])
def test_odds_bad_input_is_one_sentence(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("fappo-bot odds: ") and "Traceback" not in err

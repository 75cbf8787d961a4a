"""/advance DURATION [--check PATIENT=TOTAL[:HEALER]]: the GM's advance_time (F7 Amb-7, F14)."""

from __future__ import annotations

import pytest

from fappo_bot.console.scene_commands import parse_checks, parse_duration
from fappo_bot.console.table import TableError
from fappo_bot.service import HealingInput

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "seconds"), [
    ("90s", 90), ("10m", 600), ("2h", 7200), ("2d", 172800), ("1w", 604800),
    ("1h30m", 5400), ("0s", 0), (" 10M ", 600), ("10", 600), ("10 m", 600), ("2d 6h", 194400),
])
def test_durations_take_the_units_s_m_h_d_w(text, seconds):
    """F14 Amb-10: a week is 7 days (2 weeks = 14 days); a bare number is minutes, as in every
    command that reads a duration (the project's one parser, `service/timetext.py`)."""
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "ten", "10y", "-5m", "10m5", "m10", "1.5h"])
def test_a_bad_duration_says_how_to_write_one(text):
    with pytest.raises(TableError, match="no duration: write a number and a unit"):
        parse_duration(text)


def test_checks_name_the_patient_the_total_and_the_healer():
    assert parse_checks(["Kael=5:Mira", "Bran=3"]) == {
        "Kael": HealingInput(total=5, healer="Mira"), "Bran": HealingInput(total=3)}


@pytest.mark.parametrize("word", ["Kael", "Kael=", "=5", "Kael=five", "Kael=5x:Mira"])
def test_a_bad_check_says_how_to_write_one(word):
    with pytest.raises(TableError, match="no Healing check"):
        parse_checks([word])


def test_one_check_per_patient():
    with pytest.raises(TableError, match="one Healing check"):
        parse_checks(["Kael=5:Mira", "kael=6:Bran"])

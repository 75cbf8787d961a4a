"""The project's one duration parser and one time parser (`service/timetext.py`), which every
command on Discord and at the table that reads a time or a duration goes through."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from fappo_bot.service.timetext import (
    duration_text,
    local_text,
    parse_duration,
    parse_time,
    zone_name,
)

pytestmark = pytest.mark.unit

#: a Thursday, 11:00 in Berlin (CET, UTC+1)
NOW = datetime(2026, 12, 3, 10, 0, tzinfo=UTC)
BERLIN = "Europe/Berlin"


@pytest.mark.parametrize(("text", "value"), [
    ("48h", timedelta(hours=48)), ("2d 6h", timedelta(days=2, hours=6)),
    ("90m", timedelta(minutes=90)), ("1w", timedelta(weeks=1)), ("1h30m", timedelta(minutes=90)),
    ("45s", timedelta(seconds=45)), ("2 days", timedelta(days=2)),
    ("1h 30min", timedelta(minutes=90)), (" 12H ", timedelta(hours=12)),
    ("0s", timedelta(0)),
])
def test_durations_as_people_write_them(text, value):
    assert parse_duration(text) == value


def test_a_bare_number_is_minutes():
    assert parse_duration("90") == timedelta(minutes=90)


@pytest.mark.parametrize("text", ["", "h", "ten", "10y", "-5m", "1.5h", "10m5", "m10"])
def test_a_wrong_duration_says_how_to_write_one(text):
    with pytest.raises(ValueError, match=r"is no duration: write a number and a unit .* e\.g\. "
                       r"48h, 2d 6h, 90m or 1w \(a bare number is minutes\)"):
        parse_duration(text)


def test_a_duration_past_what_a_date_holds_is_refused_in_words():
    with pytest.raises(ValueError, match="too long a duration"):
        parse_duration("99999999999w")


def test_a_duration_reads_back_as_written():
    for text in ("1d2h", "1h30m", "45s", "0s"):
        assert duration_text(parse_duration(text)) == text


@pytest.mark.parametrize(("text", "local"), [
    ("Fri 20:00", "Fri 2026-12-04 20:00 CET"),
    ("friday 20:00", "Fri 2026-12-04 20:00 CET"),
    ("2026-12-05 20:00", "Sat 2026-12-05 20:00 CET"),
    ("20:00", "Thu 2026-12-03 20:00 CET"),  # later today
    ("09:00", "Fri 2026-12-04 09:00 CET"),  # passed today: tomorrow
    ("tomorrow 18:00", "Fri 2026-12-04 18:00 CET"),
    ("today 18:00", "Thu 2026-12-03 18:00 CET"),
    ("Thu 12:00", "Thu 2026-12-03 12:00 CET"),  # today, still to come
    ("Thu 10:30", "Thu 2026-12-10 10:30 CET"),  # today's has passed: next week's
])
def test_times_are_local_to_the_games_zone(text, local):
    moment = parse_time(text, NOW, BERLIN)
    assert moment.tzinfo is not None
    assert local_text(moment, BERLIN) == local


def test_a_time_is_kept_in_utc():
    assert parse_time("2026-12-05 20:00", NOW, BERLIN) == datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    assert parse_time("2026-07-05 20:00", NOW, BERLIN) == datetime(2026, 7, 5, 18, 0, tzinfo=UTC)
    assert parse_time("20:30", NOW) == datetime(2026, 12, 3, 20, 30, tzinfo=UTC)  # UTC default


def test_a_naive_now_is_utc():
    assert parse_time("20:30", NOW.replace(tzinfo=None)) == datetime(2026, 12, 3, 20, 30,
                                                                      tzinfo=UTC)


@pytest.mark.parametrize("text", ["", "tomorrow-ish", "25:00", "Fri", "someday 20:00",
                                  "2026-13-01 20:00", "Fri 20:00 sharp"])
def test_a_wrong_time_says_how_to_write_one(text):
    with pytest.raises(ValueError, match=r"is no time: write a day and a time in the game's "
                       r"time zone \(Europe/Berlin\), e\.g\. Fri 20:00, 2026-12-05 20:00"):
        parse_time(text, NOW, BERLIN)


def test_the_table_shows_a_time_in_the_games_zone():
    at = datetime(2026, 12, 5, 19, 0, tzinfo=UTC)
    assert local_text(at, BERLIN) == "Sat 2026-12-05 20:00 CET"
    assert local_text(at) == "Sat 2026-12-05 19:00 UTC"
    assert local_text(at, "America/New_York") == "Sat 2026-12-05 14:00 EST"


def test_zone_names_are_iana_spelled_as_the_database_spells_them():
    assert zone_name("Europe/Berlin") == "Europe/Berlin"
    assert zone_name(" europe/berlin ") == "Europe/Berlin"
    assert zone_name("America/New York") == "America/New_York"
    assert zone_name("UTC") == "UTC"


def test_a_wrong_zone_gets_the_nearest_names():
    with pytest.raises(ValueError, match=r"no time zone: write an IANA name .* Did you mean "
                       r"Europe/Berlin"):
        zone_name("Europe/Berln")
    with pytest.raises(ValueError, match="Did you mean Europe/Berlin?"):
        zone_name("Berlin")
    with pytest.raises(ValueError, match=r"no time zone: write an IANA name such as "
                       r"Europe/Berlin, America/New_York or UTC\.$"):
        zone_name("qqqqqq")

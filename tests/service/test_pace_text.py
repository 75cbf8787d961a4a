"""An absence's times as a player writes them (`pace.absence_time`): dates, dates and times,
durations, in UTC; anything else refused in words, with what to write."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from fappo_bot.service import InvalidInput
from fappo_bot.service.pace import absence_time

pytestmark = pytest.mark.unit

NOW = datetime(2026, 12, 3, 10, 30, tzinfo=UTC)


@pytest.mark.parametrize(("text", "end", "expected"), [
    ("2026-12-05", False, datetime(2026, 12, 5, tzinfo=UTC)),
    ("2026-12-05", True, datetime(2026, 12, 6, tzinfo=UTC)),  # an end: through that day
    ("2026-12-05 18:00", True, datetime(2026, 12, 5, 18, tzinfo=UTC)),
    ("  2026-12-05   18:00 ", False, datetime(2026, 12, 5, 18, tzinfo=UTC)),
    ("3d", True, NOW + timedelta(days=3)),
    ("2d 6h", False, NOW + timedelta(days=2, hours=6)),
    ("90m", True, NOW + timedelta(minutes=90)),
])
def test_dates_times_and_durations(text, end, expected) -> None:
    assert absence_time(text, NOW, end=end) == expected


def test_a_duration_as_the_end_counts_from_the_start() -> None:
    start = datetime(2026, 12, 10, tzinfo=UTC)
    assert absence_time("3d", NOW, end=True, start=start) == start + timedelta(days=3)


def test_a_time_or_a_duration_as_every_command_writes_one() -> None:
    # the project's one time parser and one duration parser (service/timetext.py)
    assert absence_time("3 days", NOW) == NOW + timedelta(days=3)
    friday = absence_time("Fri 18:00", NOW)
    assert friday.weekday() == 4 and (friday.hour, friday.minute) == (18, 0) and friday > NOW


@pytest.mark.parametrize("text", ["someday", "2026-13-01", "friday", "3 lunes", ""])
def test_anything_else_is_refused_with_what_to_write(text) -> None:
    with pytest.raises(InvalidInput, match="is no date, time or duration: write e.g. "
                                           "2026-12-05, 2026-12-05 18:00 \\(UTC\\), Fri 18:00 "
                                           "or 3d"):
        absence_time(text, NOW)

"""Discord timestamps (`discord/timestamps.py`): the full date and time and the countdown, each
reader's own zone; a naive time is UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from fappo_bot.discord.timestamps import stamp

pytestmark = pytest.mark.unit


def test_a_moment_is_its_utc_epoch_seconds_in_both_styles() -> None:
    at = datetime(2026, 12, 5, 18, 0, 30, 900000, tzinfo=UTC)
    assert stamp(at) == "<t:1796493630:F> (<t:1796493630:R>)"
    assert stamp(at.replace(tzinfo=None)) == stamp(at)  # naive: UTC
    berlin = at.astimezone(timezone(timedelta(hours=1)))
    assert stamp(berlin) == stamp(at)

"""Times as each adapter shows them: on Discord every moment is a Discord timestamp, which each
reader sees in their own zone (`discord/timestamps.py`); at the table, the game's local time;
the neutral words (stored as the inbox's text) stay in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fappo_bot.console.rendering import rendered as at_the_table
from fappo_bot.discord.rendering import rendered as on_discord
from fappo_bot.discord.timestamps import stamp
from fappo_bot.posting.safety import has_live_mention
from fappo_bot.service import notices
from tests.bot.test_rendering import _messages

pytestmark = pytest.mark.unit

AT = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
N = int(AT.timestamp())


def test_a_stamp_is_discords_full_time_and_countdown():
    assert stamp(AT) == f"<t:{N}:F> (<t:{N}:R>)"
    assert stamp(AT.replace(tzinfo=None)) == f"<t:{N}:F> (<t:{N}:R>)"  # naive is UTC
    assert stamp(datetime(2026, 12, 4, 20, 0, 30, 999, tzinfo=UTC)) == (
        f"<t:{N + 3630}:F> (<t:{N + 3630}:R>)")


@pytest.mark.parametrize(("kind", "notice"), [
    ("turn_opened", notices.turn_opened(2, AT, 0, "Europe/Berlin")),
    ("reminder", notices.reminder(2, AT, ["Kael"], "Europe/Berlin")),
    ("grace", notices.grace_extended(2, AT, ["Kael"], "12h", "Europe/Berlin")),
    ("deadline_moved", notices.deadline_moved(2, AT, "2h15m", "Europe/Berlin")),
])
def test_every_deadline_is_a_timestamp_on_discord_and_local_at_the_table(kind, notice):
    [message] = _messages(kind, notice)
    assert "2026-12-04 19:00 UTC" in message.content  # the stored, neutral words
    assert f"<t:{N}:F> (<t:{N}:R>)" in on_discord(message)
    assert "UTC" not in on_discord(message)
    assert "Fri 2026-12-04 20:00 CET" in at_the_table(message).text


def test_the_grace_notice_names_who_is_late_and_how_far_the_deadline_moves():
    [message] = _messages("grace", notices.grace_extended(2, AT, ["Kael", "Mira"], "12h"))
    assert message.content == (
        "Grace: turn 2's deadline moves by 12h, to 2026-12-04 19:00 UTC, because Kael, Mira had "
        "not posted yet (one grace extension used for each player). Post (or pass) before "
        "then.")
    assert at_the_table(message).title == "grace"


def test_the_outage_notice_says_the_deadline_was_moved_and_by_how_much():
    [message] = _messages("deadline_moved", notices.deadline_moved(2, AT, "2h15m"))
    assert message.content == (
        "The bot was down for 2h15m when turn 2's deadline came, so the deadline moves by as "
        "much, to 2026-12-04 19:00 UTC: the outage costs nobody their turn.")


def test_a_zone_nobody_knows_is_shown_in_utc_and_pings_nobody():
    hostile = "@everyone <@123>"
    for kind, notice in [("grace", notices.grace_extended(1, AT, [hostile], hostile, hostile)),
                         ("deadline_moved", notices.deadline_moved(1, AT, hostile, hostile)),
                         ("reminder", notices.reminder(1, AT, [hostile], hostile))]:
        for message in _messages(kind, notice):
            for text in (on_discord(message), at_the_table(message).text):
                assert not has_live_mention(text), (kind, text)
            assert "Fri 2026-12-04 19:00 UTC" in at_the_table(message).text

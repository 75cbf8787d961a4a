"""Seats and the rich view: secrets stay with their seat (F29), bodies are shown untouched."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from fappo_bot.console.seats import GM_SEAT, Kind, SeatBook, Shown, only, seat_user_id, seen_by
from fappo_bot.console.view import TableView

pytestmark = pytest.mark.unit


def book() -> SeatBook:
    seats = SeatBook()
    seats.add("Alice", ["Kael"])
    seats.add("bob", ["Mira"])
    return seats


def test_a_seat_is_found_by_its_name_or_its_characters():
    seats = book()
    assert seats.resolve("ALICE") == "alice"
    assert seats.resolve("kael") == "alice"
    assert seats.resolve("gm") == GM_SEAT
    assert seats.resolve("Nobody") is None
    assert seats.label("alice") == "alice (Kael)"
    assert seat_user_id(" Alice ") == "alice"


def test_private_items_are_seen_only_by_their_seats():
    items = [
        Shown(Kind.RESULTS, "Turn 1", "Kael hits"),
        Shown(Kind.REPLY, "DM", "secret: Mira sneaks", only("bob")),
    ]
    assert "secret" in seen_by(items, "bob")
    assert "secret" not in seen_by(items, "alice")
    assert "Kael hits" in seen_by(items, "alice")


def render(all_seats: bool, seat: str) -> str:
    out = io.StringIO()
    view = TableView(Console(file=out, width=100, color_system=None), book(), all_seats=all_seats)
    view.show(
        [
            Shown(Kind.POST, "Kael", "2 AP attack [Goblins]"),
            Shown(Kind.REPLY, "reply", "Mira: 3/3 AP committed", only("bob")),
        ],
        seat,
    )
    return out.getvalue()


def test_the_view_hides_other_seats_secrets_and_counts_them():
    text = render(False, "alice")
    assert "2 AP attack [Goblins]" in text  # brackets are not rich markup
    assert "Mira: 3/3" not in text
    assert "1 private message for other seats not shown" in text


def test_a_replay_shows_every_item_with_its_audience():
    text = render(True, "alice")
    assert "Mira: 3/3 AP committed" in text
    assert "only bob (Mira)" in text
    assert "#table · everyone" in text


def test_discord_bold_is_shown_bold_and_levels_are_coloured():
    from fappo_bot.console.view import styled

    text = styled("**Turn 1 results**\n- Kael attacks: 7 vs 2 (+5), Great Success\n2 ** odd")
    assert text.plain == "Turn 1 results\n- Kael attacks: 7 vs 2 (+5), Great Success\n2 ** odd"
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert styles["Turn 1 results"] == "bold"
    assert styles["Great Success"] == "bold green"


def test_a_narrow_panel_still_shows_its_whole_audience_tag():
    """A one-word reply to a DM drew a panel too narrow for `only bob (Mira)`."""
    out = io.StringIO()
    seats = book()
    seats.add("bob", ["Mira", "a long-named second character"])
    view = TableView(Console(file=out, width=100, color_system=None), seats, all_seats=True)
    view.show([Shown(Kind.REPLY, "ok", "ok", only("bob"))], "gm")
    assert "only bob (Mira, a long-named second character)" in out.getvalue()
    # and never wider than the screen
    out = io.StringIO()
    view = TableView(Console(file=out, width=30, color_system=None), seats, all_seats=True)
    view.show([Shown(Kind.REPLY, "ok", "ok", only("bob"))], "gm")
    assert max(len(line) for line in out.getvalue().splitlines()) <= 30


def test_control_characters_are_shown_never_sent_to_the_terminal():
    from fappo_bot.console.view import printable

    assert printable("a\x1b[2Jb\x07\x7f\x9b\tc\nd") == "a␛[2Jb␇␡�\tc\nd"
    out = io.StringIO()
    seats = book()
    seats.add("bob", ["Mira\x1b]0;t\x07"])
    view = TableView(Console(file=out, width=100, color_system=None), seats, all_seats=True)
    view.show([Shown(Kind.POST, "#1 \x1b[31m", "x\x1b[2J"), Shown(Kind.REPLY, "r", "y\x1b",
                                                                    only("bob"))], "gm")
    assert "\x1b" not in out.getvalue() and "\x07" not in out.getvalue()
    assert "x␛[2J" in out.getvalue() and "only bob (Mira, Mira␛]0;t␇)" in out.getvalue()
    assert "\x1b" not in view.prompt("bob")

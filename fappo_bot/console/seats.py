"""Seats at the local table: the GM and one per player, and what each of them is shown.

A seat is a user. On Discord a user id is the snowflake; at the table it is the seat's name
(case-folded, `seat_user_id`), so the same transcript always plays as the same users and a game
exported from the table keeps its owners. Everything the table shows goes to an audience: the whole channel, or only some
seats (a DM reply, secret results, the GM's review). F29: secret orders and private results are
shown only to the seats they belong to.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from fappo_bot.posting.parser import MAX_POST_CHARS
from fappo_bot.posting.safety import inert

GM_SEAT = "gm"

#: seat colours, handed out in order of arrival (the GM is always magenta)
SEAT_COLOURS: tuple[str, ...] = (
    "cyan", "green", "yellow", "blue", "bright_red", "bright_cyan", "bright_green", "bright_yellow"
)


def seat_user_id(name: str) -> str:
    """The user id of a seat in the service's records: its case-folded name."""
    return name.strip().casefold()


def as_typed(name: str) -> str:
    """A name as a user would type it, for comparing: case-folded, without the zero-width
    spaces that keep a mention in a name inert (the table lists names that way, so
    `/use <#1> @here` must find the game it listed as `<\u200b#1> @\u200bhere`)."""
    return name.replace("\u200b", "").strip().casefold()


class Kind(StrEnum):
    """What a shown item is, for colour and layout."""

    REPLY = "reply"  # the bot's reply to a post (orders accepted)
    ERROR = "error"  # a refusal or a post with problems
    RESULTS = "results"  # turn results
    NOTICE = "notice"  # announcements (turn opened, time called, sealed NPC orders)
    QUESTION = "question"  # a review question to the GM
    INFO = "info"  # status, help, sheets
    POST = "post"  # somebody's post as the channel shows it


@dataclass(frozen=True)
class Shown:
    """One thing the table shows, and to whom (`seats` None: everyone at the channel)."""

    kind: Kind
    title: str
    body: str
    seats: frozenset[str] | None = None

    def __post_init__(self) -> None:
        """Nothing the table shows has a live mention: the service's texts come rendered inert,
        and the names in its views are data the table writes here. A post is shown as typed."""
        object.__setattr__(self, "title", inert(self.title))
        if self.kind is not Kind.POST:
            object.__setattr__(self, "body", inert(self.body))
        elif len(self.body) > MAX_POST_CHARS:  # refused unread; drawn only as far as is read
            rest = len(self.body) - MAX_POST_CHARS
            object.__setattr__(self, "body", f"{self.body[:MAX_POST_CHARS]}\n"
                                             f"... ({rest:,} more characters not shown)")

    def visible_to(self, seat: str) -> bool:
        """Whether `seat` sees this item."""
        return self.seats is None or seat.casefold() in self.seats

    @property
    def private(self) -> bool:
        """Shown to some seats only."""
        return self.seats is not None


def only(*seats: str) -> frozenset[str]:
    """An audience of the given seats (case-folded)."""
    return frozenset(s.casefold() for s in seats)


@dataclass
class SeatBook:
    """The seats of the table: who is who, which characters each plays, and their colours."""

    seats: dict[str, list[str]] = field(default_factory=lambda: {GM_SEAT: []})
    colours: dict[str, str] = field(default_factory=lambda: {GM_SEAT: "magenta"})

    def add(self, seat: str, characters: Iterable[str] = ()) -> str:
        """Add a seat (if new) and the characters it plays; returns the seat's key."""
        key = seat.casefold()
        chars = self.seats.setdefault(key, [])
        for name in characters:
            if name not in chars:
                chars.append(name)
        if key not in self.colours:
            self.colours[key] = SEAT_COLOURS[(len(self.colours) - 1) % len(SEAT_COLOURS)]
        return key

    def clear(self, keep: str = GM_SEAT) -> None:
        """Forget every seat but the GM's and `keep`, and every character (another game's
        members sit down next); a seat keeps its colour if it comes back."""
        self.seats = {GM_SEAT: [], keep.casefold(): []}

    def resolve(self, name: str) -> str | None:
        """The seat called `name`, or the seat of the player of the character called `name`."""
        key = name.casefold()
        if key in self.seats:
            return key
        for seat, characters in self.seats.items():
            if any(as_typed(c) == as_typed(name) for c in characters):
                return seat
        return None

    def label(self, seat: str) -> str:
        """`alice (Kael)` or `gm`: the seat and the characters it plays (their names as the
        service keeps them, data: inert here, as the table writes them)."""
        characters = [inert(c) for c in self.seats.get(seat, [])]
        return f"{seat} ({', '.join(characters)})" if characters and seat != GM_SEAT else seat

    def colour(self, seat: str) -> str:
        """The seat's colour."""
        return self.colours.get(seat, "white")

    def names(self) -> list[str]:
        """Every seat, the GM first."""
        return [GM_SEAT, *(s for s in self.seats if s != GM_SEAT)]


def seen_by(items: Iterable[Shown], seat: str) -> str:
    """The plain text `seat` sees of `items` (titles and bodies), for assertions and tests."""
    parts = []
    for item in items:
        if item.visible_to(seat):
            parts.append(f"{item.title}\n{item.body}" if item.title else item.body)
    return "\n".join(parts)

"""Times and durations as people write them: the one duration parser and the one time parser of
the project, which every command on Discord and at the table that reads a time or a duration
goes through (`/turn calltime`, `/turn extend`, `/gm advance`, the duration settings of
`/game set`, and the table's `/calltime`, `/extend`, `/advance`, `/set`).

A duration is numbers with units: `48h`, `2d 6h`, `90m`, `1h30m`, `1w`, `45s` (also the words:
`2 days`, `3 hours`); a bare number is minutes (`90` is an hour and a half). A time is a local
date and time in the game's time zone (an IANA name, `Europe/Berlin`; UTC by default):
`Fri 20:00` (the next Friday at 20:00, today if it is Friday before 20:00), `2026-12-05 20:00`,
`20:00` (the next 20:00: today, or tomorrow once it has passed), `tomorrow 18:00`, `today
18:00`. Every error says in words what was expected, with an example.

Moments are kept and compared in UTC (aware datetimes); a zone only reads and writes them.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from fappo_bot.posting.safety import safe
from fappo_bot.spelling import nearest

#: the default zone of a game that names none
DEFAULT_ZONE = "UTC"

_UNITS: dict[str, int] = {
    "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
    "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
    "d": 86400, "day": 86400, "days": 86400,
    "w": 7 * 86400, "week": 7 * 86400, "weeks": 7 * 86400,
}
_PART = re.compile(r"(\d+)\s*([a-z]+)")
#: the longest duration a number may hold before a date cannot (datetime's limit is ~10,000 years)
_LONGEST = timedelta(days=365 * 1000)

_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_NAMES = {name: i for i, name in enumerate(_DAYS)} | {
    full: i for i, full in enumerate(("monday", "tuesday", "wednesday", "thursday", "friday",
                                      "saturday", "sunday"))} | {
    "tues": 1, "wednes": 2, "thur": 3, "thurs": 3}
_CLOCK = re.compile(r"(\d{1,2})[:.h](\d{2})")
_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")

DURATION_EXAMPLES = "48h, 2d 6h, 90m or 1w (a bare number is minutes)"
TIME_EXAMPLES = "Fri 20:00, 2026-12-05 20:00, 20:00 or tomorrow 18:00"


def _shown(text: str) -> str:
    return safe(text.strip()[:40])


def parse_duration(text: str) -> timedelta:
    """`48h`, `2d 6h`, `90m`, `1h30m`, `1w`, `45s`, `2 days`; a bare number is minutes.
    ValueError, in words, for anything else (zero is a duration; a caller that needs a positive
    one says so)."""
    word = text.strip().casefold().replace(",", " ")
    if word.isdigit():
        return _bounded(text, int(word) * 60)
    parts = _PART.findall(word)
    rebuilt = "".join(n + u for n, u in parts)
    if not parts or rebuilt != re.sub(r"\s+", "", word) or any(u not in _UNITS for _, u in parts):
        raise ValueError(f'"{_shown(text)}" is no duration: write a number and a unit (s, m, '
                         f"h, d or w), e.g. {DURATION_EXAMPLES}")
    return _bounded(text, sum(int(n) * _UNITS[u] for n, u in parts))


def _bounded(text: str, seconds: int) -> timedelta:
    if seconds > _LONGEST.total_seconds():
        raise ValueError(f'"{_shown(text)}" is too long a duration: at most '
                         f"{_LONGEST.days // 365} years")
    return timedelta(seconds=seconds)


def duration_text(value: timedelta) -> str:
    """`1d2h`, `1h30m`, `0s`: what `parse_duration` reads back."""
    seconds = int(value.total_seconds())
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts) or "0s"


@cache
def _zone_names() -> dict[str, str]:
    """Every IANA zone name, by its casefolded spelling."""
    return {name.casefold(): name for name in available_timezones()}


def zone_name(text: str) -> str:
    """The IANA name a GM typed, spelled as the zone database spells it (`europe/berlin` ->
    `Europe/Berlin`); ValueError with the nearest names ("Did you mean") otherwise."""
    word = text.strip().replace(" ", "_")
    names = _zone_names()
    found = names.get(word.casefold())
    if found is not None:
        return found
    key = word.casefold()
    # the same city under its region first ("Berlin"), then the names spelled nearest
    near = [folded for folded in sorted(names) if folded.rsplit("/", 1)[-1] == key]
    near += [folded for folded in nearest(key, names, 3)
             if folded not in near]
    shown = [names[n] for n in near[:3]]
    hint = (" Did you mean " + (", ".join(shown[:-1]) + " or " if len(shown) > 1 else "")
            + shown[-1] + "?" if shown else "")
    raise ValueError(f'"{_shown(text)}" is no time zone: write an IANA name such as '
                     f"Europe/Berlin, America/New_York or UTC.{hint}")


def zone(name: str | None) -> tzinfo:
    """The zone of an IANA name (None or an unknown name: UTC, so a stored game never fails)."""
    if not name or name == DEFAULT_ZONE:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def parse_time(text: str, now: datetime, zone_of_game: str | None = None) -> datetime:
    """A local date and time in the game's zone as a UTC moment: `Fri 20:00`, `2026-12-05
    20:00`, `20:00`, `tomorrow 18:00`, `today 18:00`. A clock time without a date is the next
    such time after `now`. ValueError, in words, for anything else."""
    where = zone(zone_of_game)
    local_now = _aware(now).astimezone(where)
    words = text.strip().casefold().split()
    try:
        if len(words) == 1:
            return _next_clock(_clock(words[0]), local_now, where)
        if len(words) == 2:
            day, clock = words[0], _clock(words[1])
            if (matched := _DATE.fullmatch(day)) is not None:
                on = date(*(int(g) for g in matched.groups()))
                return _at(on, clock, where)
            if day in ("today", "tomorrow"):
                on = local_now.date() + timedelta(days=day == "tomorrow")
                return _at(on, clock, where)
            if day.rstrip(".") in _DAY_NAMES:
                wanted = _DAY_NAMES[day.rstrip(".")]
                ahead = (wanted - local_now.weekday()) % 7
                moment = _at(local_now.date() + timedelta(days=ahead), clock, where)
                return moment if moment > local_now else _at(
                    local_now.date() + timedelta(days=ahead + 7), clock, where)
    except ValueError:
        pass
    raise ValueError(f'"{_shown(text)}" is no time: write a day and a time in the game\'s time '
                     f"zone ({zone_of_game or DEFAULT_ZONE}), e.g. {TIME_EXAMPLES}")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _clock(word: str) -> time:
    matched = _CLOCK.fullmatch(word)
    if matched is None:
        raise ValueError(word)
    return time(int(matched.group(1)), int(matched.group(2)))  # ValueError past 23:59


def _at(on: date, clock: time, where: tzinfo) -> datetime:
    return datetime.combine(on, clock, tzinfo=where).astimezone(UTC)


def _next_clock(clock: time, local_now: datetime, where: tzinfo) -> datetime:
    moment = _at(local_now.date(), clock, where)
    return moment if moment > local_now else _at(local_now.date() + timedelta(days=1), clock,
                                                 where)


def local_text(at: datetime, zone_of_game: str | None = None) -> str:
    """A moment as the table shows it, in the game's zone: `Fri 2026-12-05 20:00 CET`."""
    local = _aware(at).astimezone(zone(zone_of_game))
    return f"{_DAYS[local.weekday()].title()} {local:%Y-%m-%d %H:%M} {local.tzname()}"

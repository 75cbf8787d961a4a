"""Values as stored: UTC times, exact durations, JSON documents in pydantic's own serialisation.

JSON columns hold `RawJSON`: written with `model_dump_json` and read with `model_validate_json`, so a
document is parsed and validated in one pass (no `json` module, no intermediate dicts); the engines'
`json_serializer`/`json_deserializer` pass the text through. Times go in as UTC (SQLite keeps no
offset) and come out timezone-aware UTC, so a record read back equals the record written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter


# ---- scalars ------------------------------------------------------------------------------------
def utc(value: datetime) -> datetime:
    """A time as timezone-aware UTC, naive times taken to be UTC already: the same both ways, as
    a time is stored (SQLite keeps no offset) and as a stored one comes back to the service."""
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def opt_utc(value: datetime | None) -> datetime | None:
    return None if value is None else utc(value)


def to_us(value: timedelta | None) -> int | None:
    if value is None:
        return None
    return (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds


def from_us(value: int | None) -> timedelta | None:
    return None if value is None else timedelta(microseconds=value)


class RawJSON(str):
    """A JSON document as text, serialised by pydantic: the engine stores and returns it as it is
    (its `json_serializer`/`json_deserializer`), and pydantic parses and validates it in one go."""


def json_serializer(value: Any) -> str:
    """The engines' JSON serializer: pydantic's documents as they are, anything else by `json`."""
    if isinstance(value, RawJSON):
        return value
    return json.dumps(value)


def json_deserializer(text: str) -> RawJSON:
    """The engines' JSON deserializer: the text, for the mappers to validate."""
    return RawJSON(text)


M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

RowSet = tuple[tuple[tuple[str, Any, int], ...], list[dict[str, Any]]]
"""Rows of versioned tables as read: the (table, id, version) of each, and each one's columns."""



class Remembered:
    """Values built from what was stored, remembered by what they were built from: documents by
    (model, exact text), records by their row's values. The values are frozen, so equal text or
    rows are an equal value, and a turn's use cases read the same game, turn, sheets and orders
    again and again. One per unit-of-work factory (`SqlUnitOfWorkFactory`, built where the
    application is put together), so two databases in one process never share one."""

    __slots__ = ("built", "dumped", "holding", "limit", "parsed", "rows")

    def __init__(self, limit: int = 5_000) -> None:
        #: about 5,000 values of a few kB each in each map: a few tens of MB at most, enough for
        #: a 600-combatant turn; a full map is emptied and fills again
        self.limit = limit
        self.parsed: dict[tuple[object, str], Any] = {}
        self.built: dict[tuple[Any, ...], Any] = {}
        #: the text each value of `parsed` was parsed from, by its adapter and the value's
        #: identity (the value is kept with it, so the identity is not reused): a record written
        #: back with a value it read (a resolve writes 60 characters whose sheets did not
        #: change) is not dumped again
        self.dumped: dict[tuple[object, int], tuple[Any, str]] = {}
        #: row sets of versioned tables as committed, by what they are (`SqlGames.at_play`,
        #: `Repository._load_versioned`): the (table, id, version) of each row, and its columns.
        #: Every change of a versioned row raises its version (`updates.py`), in whichever
        #: process made it, so rows read at the same ids and versions are these rows
        self.rows: dict[tuple[str, str], RowSet] = {}
        #: the row set of `rows` each row is in, by (table, id)
        self.holding: dict[tuple[str, Any], tuple[str, str]] = {}

    def remember(self, seen: dict[Any, Any], key: Any, build: Callable[[], T]) -> T:
        found = seen.get(key)
        if found is None:
            found = self.keep(seen, key, build())
        return found

    def keep_rows(self, what: tuple[str, str], rows: RowSet) -> None:
        """Remember a row set as committed (`rows`), emptying a full map first."""
        if len(self.rows) >= self.limit:
            self.rows.clear()
            self.holding.clear()
        self.rows[what] = rows
        for table, key, _version in rows[0]:
            self.holding[(table, key)] = what

    def committed(self, updated: Mapping[tuple[str, Any], Any]) -> None:
        """Rows a transaction updated, committed: the row sets that hold one take its new
        columns and version (`updated`: by (table, id), each row as the transaction keeps it,
        with every column), so the process that changed a game reads only its versions next."""
        for (table, key), row in updated.items():
            what = self.holding.get((table, key))
            found = None if what is None else self.rows.get(what)
            if what is None or found is None:
                continue
            versions, columns = list(found[0]), list(found[1])
            for at, (in_table, in_key, _version) in enumerate(versions):
                if in_table == table and in_key == key:
                    versions[at], columns[at] = (table, key, row.version), dict(vars(row))
            self.rows[what] = (tuple(versions), columns)

    def keep(self, seen: dict[Any, Any], key: Any, value: T) -> T:
        """Remember `value` by `key` in `seen` (one of the maps), emptying a full map first."""
        if len(seen) >= self.limit:
            seen.clear()
        seen[key] = value
        return value


#: the cache of the unit of work this task is in (`SqlUnitOfWork` sets it while it is open), so
#: that the mappers reach their factory's cache without every call passing it; none, none kept
current: ContextVar[Remembered | None] = ContextVar("fappo_bot_storage_remembered", default=None)


def parse(model: type[M], text: str) -> M:
    """`model.model_validate_json(text)`, remembered for text seen before."""
    cache = current.get()
    if cache is None:
        return model.model_validate_json(text)
    return cache.remember(cache.parsed, (model, text), lambda: model.model_validate_json(text))


def parse_as(adapter: TypeAdapter[T], text: str) -> T:
    """`adapter.validate_json(text)`, remembered for text seen before (frozen values only)."""
    cache = current.get()
    if cache is None:
        return adapter.validate_json(text)

    def build() -> T:
        value = adapter.validate_json(text)
        cache.remember(cache.dumped, (adapter, id(value)), lambda: (value, text))
        return value

    return cache.remember(cache.parsed, (adapter, text), build)


def doc(model: BaseModel, *, whole: bool = False) -> RawJSON:
    """`model` as a stored document, without the fields left at their defaults (read back, they
    take them again): an order or a character is 4-5 times smaller (666 -> 136 bytes, 1,015 ->
    175), so a post writes fewer pages and a resolution sends a fifth of the bytes. `whole`
    keeps every field: a game's rules and settings, which must not follow a later change of a
    default."""
    return RawJSON(model.model_dump_json(exclude_defaults=not whole))


def docs(adapter: TypeAdapter[Any], value: Any, *, whole: bool = False) -> RawJSON:
    """A value of `adapter`'s type as a stored document, defaults left out unless `whole`
    (`doc`); a value read through `parse_as` in this factory is its text as read (an equal
    value: it reads back the same)."""
    cache = None if whole else current.get()
    if cache is not None:
        found = cache.dumped.get((adapter, id(value)))
        if found is not None and found[0] is value:
            return RawJSON(found[1])
    return RawJSON(adapter.dump_json(value, exclude_defaults=not whole).decode())

"""The mention guard on everything that leaves the service (BRIEF: "Nothing a user writes can
ping @everyone/@here/users/roles").

The renderers make names and prose inert as they write them (`posting.safety.safe`) and the
outbox breaks every mention it queues; but a use case also returns values (views, replies,
review questions, names, lists) that adapters lay out themselves, and refuses with messages
that quote what a user wrote. So the guard sits where every use case returns
(`base.UseCases`): `guarded` breaks every mention in every text of the value returned, and
`ServiceError` breaks those of its message. `unguarded` takes the guard's own zero-width
spaces out of a use case's text arguments, so a name the service showed comes back as the
name stored.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import re
import typing
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter

from fappo_bot.posting.safety import has_live_mention, inert

RAW_OUTPUT = "__fappo_raw_output__"
"""The attribute `raw_output` sets on a use case whose value is data, not text to show."""

_F = TypeVar("_F", bound=Callable[..., Any])
_GUARD_SPACE = re.compile("(?<=[@<])\u200b")


def raw_output(method: _F) -> _F:
    """Mark a use case whose value is data for another program (an export, a backup), never
    shown as it is: it leaves the service unguarded, so it goes back in unchanged."""
    setattr(method, RAW_OUTPUT, True)
    return method


def guarded(value: Any) -> Any:
    """`value` with every text in it made inert (`posting.safety.inert`): strings, and the
    strings inside pydantic values, dataclasses (a post's `Problem`s, the rules' results) and
    containers (tuples, lists, sets, dicts). Values with no live mention are returned as they
    are.

    A pydantic value is walked field by field, only the fields whose type can hold a text
    (`_text_fields`: not numbers, flags, times, enum members); a dataclass (the rules' values,
    thousands of them in a resolution) is first read in one pass of pydantic's serializer, and
    walked only when that finds a live mention."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, BaseModel):
        return _guard_model(value)
    if isinstance(value, list | tuple | set | frozenset | dict):
        return _guard_container(value) if value else value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _guard_dataclass(value)
    return value


#: per class, the fields whose declared type may hold a text
_TEXT_FIELDS: dict[type, tuple[str, ...]] = {}
#: per dataclass, the serializer that reads it in one pass (None: it has none, walk it)
_SERIALIZERS: dict[type, TypeAdapter[Any] | None] = {}
_NO_TEXT = (int, float, complex, bytes, Enum, datetime.date, datetime.time, datetime.timedelta,
            decimal.Decimal, type(None))


def _may_hold_text(annotation: Any) -> bool:
    """Whether a value of this declared type may hold a text (anything unknown may)."""
    if isinstance(annotation, type):
        if issubclass(annotation, str):
            return True
        return not issubclass(annotation, _NO_TEXT)
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return False  # the code's own values
    if origin is typing.Annotated:
        return _may_hold_text(typing.get_args(annotation)[0])
    if origin is None:
        return True  # Any, a type variable, a name not resolved: be safe
    args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
    return not args or any(_may_hold_text(a) for a in args)


def _text_fields(cls: type) -> tuple[str, ...]:
    found = _TEXT_FIELDS.get(cls)
    if found is None:
        if issubclass(cls, BaseModel):
            hints = {n: f.annotation for n, f in cls.model_fields.items()}
        else:
            try:
                hints = typing.get_type_hints(cls)
            except (NameError, TypeError):
                hints = {}
            hints = {f.name: hints.get(f.name, Any)
                     for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        found = _TEXT_FIELDS[cls] = tuple(n for n, t in hints.items() if _may_hold_text(t))
    return found


def _serializer(cls: type) -> TypeAdapter[Any] | None:
    if cls not in _SERIALIZERS:
        try:
            _SERIALIZERS[cls] = TypeAdapter(cls)
        except Exception:  # a type pydantic cannot serialize: walked instead
            _SERIALIZERS[cls] = None
    return _SERIALIZERS[cls]


def _guard_dataclass(value: Any) -> Any:
    adapter = _serializer(type(value))
    if adapter is not None:
        try:
            if not has_live_mention(adapter.dump_json(value, warnings=False).decode()):
                return value
        except Exception:  # a value its type does not describe: walked instead
            pass
    update = _changes((n, getattr(value, n)) for n in _text_fields(type(value)))
    return dataclasses.replace(value, **update) if update else value


def _changes(fields: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The fields whose guarded value differs from the value they hold."""
    return {name: safe for name, item in fields if (safe := guarded(item)) is not item}


def _guard_model(model: BaseModel) -> BaseModel:
    values = model.__dict__
    update = _changes((n, values[n]) for n in _text_fields(type(model)))
    extra = model.__pydantic_extra__
    if extra:
        update.update(_changes(extra.items()))
    return model.model_copy(update=update) if update else model


def _guard_container(value: Any) -> Any:
    if isinstance(value, dict):
        pairs = [(guarded(k), guarded(v)) for k, v in value.items()]
        if all(a is k and b is v for (a, b), (k, v) in zip(pairs, value.items(), strict=True)):
            return value
        return type(value)(pairs)
    items = [guarded(v) for v in value]
    if all(a is b for a, b in zip(value, items, strict=True)):
        return value
    return type(value)(items)


def unguarded(value: Any) -> Any:
    """A use case's argument with the guard's zero-width spaces (after `@` and `<`) taken out
    of its text, and of the texts in a tuple, list or dict of them."""
    if isinstance(value, str):
        return _GUARD_SPACE.sub("", value) if "\u200b" in value else value
    if isinstance(value, list | tuple):
        return type(value)(unguarded(v) for v in value)
    if isinstance(value, dict):
        return {unguarded(k): unguarded(v) for k, v in value.items()}
    return value

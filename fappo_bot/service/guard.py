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
import gc
import re
import typing
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel

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

    Whether a value holds a live mention is read in one pass over its texts (`_live_inside`:
    the interpreter's own list of what each object refers to, no copy of the value as JSON);
    only a value that does is walked and rebuilt, field by field, and only the fields whose
    type can hold a text (`_text_fields`: not numbers, flags, times, enum members)."""
    if isinstance(value, str):
        return inert(value)
    kind = _KINDS.get(type(value)) or _kind(type(value))
    if kind is not _DESCEND or _live_inside(value) is False:
        return value
    if isinstance(value, BaseModel):
        return _guard_model(value)
    if isinstance(value, list | tuple | set | frozenset | dict):
        return _guard_container(value)
    if dataclasses.is_dataclass(value):
        return _guard_dataclass(value)
    return value


_TEXT, _SKIP, _DESCEND, _UNKNOWN = "text", "skip", "descend", "unknown"
#: per type, what the mention check does with its instances
_KINDS: dict[type, str] = {}
_NO_TEXT = (int, float, complex, bytes, Enum, datetime.date, datetime.time, datetime.timedelta,
            decimal.Decimal, type(None))
_CONTAINERS = (list, tuple, set, frozenset, dict)


def _kind(cls: type) -> str:
    if issubclass(cls, type):
        kind = _SKIP  # a class (an annotation, a model's type): the code's, no user text
    elif issubclass(cls, Enum) or not issubclass(cls, str) and issubclass(cls, _NO_TEXT):
        kind = _SKIP  # numbers, flags, times; enum members are the code's values
    elif issubclass(cls, str):
        kind = _TEXT
    elif issubclass(cls, (*_CONTAINERS, BaseModel)) or dataclasses.is_dataclass(cls):
        kind = _DESCEND
    else:
        kind = _UNKNOWN
    _KINDS[cls] = kind
    return kind


def _live_inside(value: Any) -> bool | None:
    """Whether a text inside `value` (a container, a pydantic value or a dataclass, nested
    to any depth) holds a live mention: None when it holds an object of another kind, which
    the walk then decides. Breadth first, each level's references read at once
    (`gc.get_referents`, which lists an object's fields, items and its type, and a dict's
    keys unless they are all texts: those are read apart), so a resolution's thousands of
    values cost one pass and no copy."""
    kinds = _KINDS
    texts: list[str] = []
    seen: set[int] = set()
    level = [value]
    while level:
        deeper = []
        for item in level:
            if isinstance(item, dict):  # a dict of text keys does not list its keys
                texts.extend(k for k in item if isinstance(k, str))
        for item in gc.get_referents(*level):
            kind = kinds.get(type(item)) or _kind(type(item))
            if kind is _TEXT:
                texts.append(item)
            elif kind is _DESCEND:
                if id(item) not in seen:
                    seen.add(id(item))
                    deeper.append(item)
            elif kind is _UNKNOWN:
                return None
        level = deeper
    # "\0" neither opens nor breaks a mention: each text is read as it is
    return has_live_mention("\0".join(texts))


#: per class, the fields whose declared type may hold a text
_TEXT_FIELDS: dict[type, tuple[str, ...]] = {}


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


def _guard_dataclass(value: Any) -> Any:
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

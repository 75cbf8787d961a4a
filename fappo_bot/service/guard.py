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
import re
from collections.abc import Callable, Iterable
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
    strings inside pydantic values, dataclasses (a post's `Problem`s) and containers (tuples,
    lists, sets, dicts).
    Values with no live mention are returned as they are (one JSON dump of a model tells)."""
    if isinstance(value, str):
        return inert(value)
    if isinstance(value, BaseModel):
        if not has_live_mention(value.model_dump_json(warnings=False)):
            return value
        return _guard_model(value)
    if isinstance(value, list | tuple | set | frozenset | dict):
        return _guard_container(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _guard_dataclass(value)
    return value


def _guard_dataclass(value: Any) -> Any:
    update = _changes((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
    return dataclasses.replace(value, **update) if update else value


def _changes(fields: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The fields whose guarded value differs from the value they hold."""
    return {name: safe for name, item in fields if (safe := guarded(item)) is not item}


def _guard_model(model: BaseModel) -> BaseModel:
    update = _changes(model.__dict__.items())
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

"""Plain views of the frozen models that the turn's hot loops read field by field (RULINGS P2: a
turn reads one snapshot; docs/benchmarks.md).

pydantic's `BaseModel` defines `__getattr__`, which stops Python 3.11 from specialising attribute
loads on its instances: a field read costs about 32 ns, against about 9 ns on an object of a
plain class. A view is an object of a plain class that shares the model's field dict (no copy:
a frozen model never changes it) and carries the model's properties, so a loop reads the same
fields, under the same names, at a plain object's speed. Making one costs about three reads.

Views stay inside the loops that made them: results, hits and everything a turn returns take the
models themselves (`isinstance`, equality and pydantic's serialisation know only those).
"""

from __future__ import annotations

from typing import cast

from fappo_bot.rules.orders import Action


def _plain(model: type) -> type:
    """A plain class with the model's properties (they read only fields)."""
    namespace: dict[str, object] = {
        name: value for name, value in vars(model).items() if isinstance(value, property)
    }
    namespace["__doc__"] = f"A plain view of a {model.__name__} (`views`)."
    return type(f"{model.__name__}View", (), namespace)


_ActionView = _plain(Action)
_new = object.__new__


class _View:
    """What `action_view` fills: a plain object whose field dict is set."""

    __dict__: dict[str, object]


def action_view(action: Action) -> Action:
    """The action's fields and properties, read at a plain object's speed (typed as the action:
    the same names give the same values)."""
    view: _View = _new(_ActionView)
    view.__dict__ = action.__dict__
    return cast(Action, view)

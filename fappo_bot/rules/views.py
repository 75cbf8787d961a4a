"""Plain views of the frozen models that the turn's hot loops read field by field (RULINGS P2: a
turn reads one snapshot; docs/benchmarks.md).

pydantic's `BaseModel` defines `__getattr__`, which stops Python 3.11 from specialising attribute
loads on its instances: a field read goes through the type's attribute hook, about 420 machine
instructions (callgrind), against about 65 on an object of a plain class, and a property of the
model (its body reading fields through the hook too) about 1,300. A view is an object of a plain
class that shares the model's field dict (no copy: a frozen model never changes it) and carries
the model's properties, so a loop reads the same fields, under the same names, at a plain
object's speed. Making one costs about 1,500 instructions, the saving of four or five reads.

Views stay inside the loops that made them: results, hits and everything a turn returns take the
models themselves (`isinstance`, equality and pydantic's serialisation know only those), and so
does any function that calls a model's methods (a view carries its properties only).
"""

from __future__ import annotations

from typing import Any

from fappo_bot.rules.character import Character
from fappo_bot.rules.orders import Action


def _plain(model: type) -> type:
    """A plain class with the model's properties (they read only fields)."""
    namespace: dict[str, object] = {
        name: value for name, value in vars(model).items() if isinstance(value, property)
    }
    namespace["__doc__"] = f"A plain view of a {model.__name__} (`views`)."
    return type(f"{model.__name__}View", (), namespace)


_ActionView = _plain(Action)
_CharacterView = _plain(Character)


def action_view(action: Action) -> Action:
    """The action's fields and properties, read at a plain object's speed (typed as the action:
    the same names give the same values)."""
    # calling the class makes the object faster than `object.__new__`, and `typing.cast` would
    # be one more Python call per action
    view: Any = _ActionView()
    view.__dict__ = action.__dict__
    return view  # type: ignore[no-any-return]  # the same names give the same values


def character_view(character: Character) -> Character:
    """The character's fields and properties (not its methods: `owns`, `pool`...), read at a
    plain object's speed; typed as the character for the functions that only read those."""
    view: Any = _CharacterView()
    view.__dict__ = character.__dict__
    return view  # type: ignore[no-any-return]  # the same names give the same values

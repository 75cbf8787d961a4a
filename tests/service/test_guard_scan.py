"""The mention guard's one pass over a value's texts (`guard._live_inside`): it finds a live
mention at any depth of the values a use case returns (pydantic views, the rules' slotted
dataclasses, tuples, lists, sets and dicts, their keys too), and says when it meets an object
it does not know, so that the guard walks that value instead of trusting it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import pytest
from pydantic import BaseModel

from fappo_bot.service.guard import _live_inside, guarded

pytestmark = pytest.mark.unit
ZW = "\u200b"


@dataclass(slots=True)
class Leaf:
    name: str
    count: int = 0


@dataclass
class Branch:
    leaves: tuple[Leaf, ...]
    notes: dict[str, list[str]] = field(default_factory=dict)


class View(BaseModel):
    turn: int
    branch: Branch
    names: frozenset[str] = frozenset()


class Colour(enum.StrEnum):
    AT = "@everyone"  # the code's own value: never a user's text


def view(text: str, where: str) -> View:
    leaf = Leaf(text if where == "leaf" else "Kael")
    notes = {text: ["x"]} if where == "key" else {"k": [text if where == "note" else "y"]}
    names = frozenset({text}) if where == "set" else frozenset({"Mira"})
    return View(turn=1, branch=Branch((Leaf("Skarg", 2), leaf), notes), names=names)


@pytest.mark.parametrize("where", ["leaf", "key", "note", "set"])
@pytest.mark.parametrize("text", ["@everyone", "<@123>", "<#777>", "x <@&9> y", "@"])
def test_a_live_mention_is_found_at_any_depth_and_made_inert(text: str, where: str) -> None:
    value = view(text, where)
    assert _live_inside(value) is True
    safe = guarded(value)
    assert _live_inside(safe) is False


@pytest.mark.parametrize("text", [f"@{ZW}everyone", f"<{ZW}#777>", "a < b", "#1", "mail me"])
def test_inert_or_harmless_texts_leave_the_value_as_it_is(text: str) -> None:
    for where in ("leaf", "key", "note", "set"):
        value = view(text, where)
        assert _live_inside(value) is False
        assert guarded(value) is value


def test_texts_are_read_one_by_one_never_across_two() -> None:
    assert _live_inside(("a <", "@x")) is True  # the second is live on its own
    assert _live_inside(("a <", "#x")) is False  # "<" then "#" in another text: nothing


def test_enum_members_and_classes_are_the_codes_own() -> None:
    assert _live_inside((Colour.AT, Leaf, View, 3, 2.5, None, True)) is False


def test_an_unknown_object_is_not_trusted() -> None:
    class Opaque:
        __slots__ = ("text",)

        def __init__(self) -> None:
            self.text = "@everyone"

    assert _live_inside((Opaque(),)) is None

"""The service's port to the post language (issue 4, F29).

The service never renders text itself: replies and results come from `fappo_bot.posting`
(`parse_post`, `render`), reached through the small protocol below, so the composition root (or a
test) can pass another implementation; `PostingText` is the real one, imported lazily so that
importing the service stays cheap.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from fappo_bot.rules.orders import Order
from fappo_bot.rules.results import TurnResult, TurnState

GM_POSTER = "gm"
"""The poster of a GM post with character lines (spec/cases.md)."""


@dataclass(frozen=True)
class ReadPost:
    """What the post language made of one post: the orders, or every problem (never both)."""

    orders: tuple[Order, ...]
    problems: tuple[str, ...]
    #: the reply to show: the canonical orders with AP and SP left, or the problems
    reply: str

    @property
    def ok(self) -> bool:
        return not self.problems


class PostText(Protocol):
    """Text in and out of the post language."""

    def read(
        self, text: str, state: TurnState, poster: str, controls: Sequence[str]
    ) -> ReadPost:
        """Parse and validate a post written by `poster` (a character name, or `gm`) who
        controls the characters `controls`."""
        ...

    def results(self, result: TurnResult, audience: Sequence[str] | None = None) -> str:
        """The results of a resolution as text; with an audience, only what concerns those
        characters (secret orders, F29)."""
        ...


def _context(posting: Any, state: TurnState, poster: str, controls: Sequence[str]) -> Any:
    """A `PostContext`, passing the controlled characters if the parser takes them."""
    context_type = posting.PostContext
    kwargs: dict[str, Any] = {"state": state, "poster": poster}
    names: set[str] = set()
    if dataclasses.is_dataclass(context_type):
        names = {f.name for f in dataclasses.fields(context_type)}
    else:
        names = set(getattr(context_type, "model_fields", {}))
    for candidate in ("controls", "controlled", "characters"):
        if candidate in names:
            kwargs[candidate] = tuple(controls)
            break
    return context_type(**kwargs)


class PostingText:
    """The real post language: `fappo_bot.posting.parse_post` and `fappo_bot.posting.render`."""

    def read(
        self, text: str, state: TurnState, poster: str, controls: Sequence[str]
    ) -> ReadPost:
        posting = importlib.import_module("fappo_bot.posting")
        render = importlib.import_module("fappo_bot.posting.render")
        parsed = posting.parse_post(text, _context(posting, state, poster, controls))
        errors = tuple(parsed.errors)
        if errors:
            return ReadPost((), tuple(str(e) for e in errors), _call(render, "errors", errors))
        orders = tuple(parsed.orders)
        return ReadPost(orders, (), _call(render, "orders", orders, state))

    def results(self, result: TurnResult, audience: Sequence[str] | None = None) -> str:
        render = importlib.import_module("fappo_bot.posting.render")
        return str(_call(render, "results", result, audience))


_RENDER_NAMES = {
    "errors": ("render_errors", "error_reply", "errors_reply"),
    "orders": ("render_orders", "orders_reply", "reply"),
    "results": ("render_results", "results", "turn_results"),
}


def _call(render: Any, what: str, *args: Any) -> str:
    for name in _RENDER_NAMES[what]:
        function = getattr(render, name, None)
        if function is not None:
            return str(function(*args))
    raise RuntimeError(f"fappo_bot.posting.render has no {what} renderer")

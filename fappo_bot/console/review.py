"""The GM's review at the table: the service's review questions asked one at a time (R1, P3).

`/resolve` asks every required question still unanswered (difficulties, conditional triggers and
their targets, modifier claims, area targets), then resolves. `/review NAME...` asks every
question about those characters' orders, the optional ones too (flat-footed targets, invoked
Specials, SP vetoes, end positions); an empty answer keeps an optional question's default. Each
answer goes to the service at once; a refused answer is explained and the question asked again.
Nothing is guessed: the table never answers for the GM.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.console.seats import Shown, as_typed


@dataclass(frozen=True)
class Confirmation:
    """A yes/no question the table asks before a step that cannot be taken back (call time or
    resolution with NPCs that have no orders: the seal would fix them as doing nothing; an undo
    over a turn that already has orders: they would be withdrawn with it)."""

    text: str
    #: what a yes does
    then: Callable[[], Awaitable[list[Shown]]]
    #: what a no says
    otherwise: str

    def question(self) -> str:
        """The question as the GM reads it."""
        return self.text


@dataclass
class ReviewSession:
    """A review in progress: which questions it asks, and what happens at its end."""

    game_id: str
    #: resolve once every required question is answered
    then_resolve: bool
    #: ask the optional questions too
    optional: bool
    #: only the orders of these characters (case-folded); empty: everyone's
    actors: frozenset[str] = frozenset()
    #: the turn the GM's /resolve reviewed, the one it resolves (None: not read yet); a
    #: resolve names its turn, so a second one never resolves the next, empty, turn
    turn: int | None = None
    #: optional questions the GM left at their default
    skipped: set[str] = field(default_factory=set)
    current: Any = None

    def wants(self, item: Any) -> bool:
        """Whether this session asks `item` (a `ReviewItem`)."""
        if item.answered or item.key in self.skipped:
            return False
        if self.actors and as_typed(item.actor) not in self.actors:
            return False
        return bool(item.required or self.optional)

    def next_item(self, items: Sequence[Any]) -> Any:
        """The next question to ask, or None when the session is done."""
        self.current = next((i for i in items if self.wants(i)), None)
        return self.current

    def question(self) -> str:
        """The current question as the GM reads it, with its choices and default."""
        item = self.current
        if item is None:
            return ""
        text: str = str(item.question)
        if item.choices and len(item.choices) <= 8:
            text += f"  [{' / '.join(item.choices)}]"
        elif item.choices:
            text += f"  (one of: {', '.join(item.choices)})"
        if not item.required:
            text += f"  (empty: {item.default or 'the default'})"
        return text

"""The service's port to the post language (F29).

The service never renders text itself: the replies come from `fappo_bot.posting` (`parse_post`,
`render`), reached through the small protocol below (the results are data, worded by
`fappo_bot.render.results`), so the composition root (or a
test) can pass another implementation; `PostingText` is the real one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from fappo_bot.posting import PostContext, PostProblem, parse_post
from fappo_bot.posting.parser import too_long
from fappo_bot.posting.render import (
    order_lines,
    render_problems,
    render_replaced,
    render_reply,
)
from fappo_bot.rules import BUILT_IN, Character, Order, PendingHit, TraitCatalogue, TurnState

_NO_SCENE = TurnState(turn=1, characters=())

GM_POSTER = "gm"
"""The poster of a GM post with character lines (spec/cases.md)."""


@dataclass(frozen=True)
class ReadPost:
    """What the post language made of one post: the orders, or every problem (never both)."""

    orders: tuple[Order, ...]
    problems: tuple[PostProblem, ...]
    #: the reply to show: the canonical orders with AP and SP left, or the problems
    reply: str

    @property
    def ok(self) -> bool:
        return not self.problems


class PostText(Protocol):
    """Text in and out of the post language."""

    def read(
        self, text: str, state: TurnState, poster: str, controls: Sequence[str],
        traits: TraitCatalogue = BUILT_IN,
    ) -> ReadPost:
        """Parse and validate a post written by `poster` (a character name, or `gm`) who
        controls the characters `controls`, in a game with the Traits of `traits`."""
        ...

    def table_talk(self, text: str) -> bool:
        """Whether the text has no mechanics line at all, read with no scene and no characters
        (for a poster the service cannot give a scene: not in the game, no character, no open
        turn)."""
        ...

    def replaced(self, earlier: Order, now: Order, state: TurnState) -> str:
        """The reply's note when `now` replaces `earlier`, given in another post (F29 Amb-3):
        that it does, and what changed."""
        ...


#: how many contexts a `PostingText` keeps (a full map is emptied and fills again)
_CONTEXTS_KEPT = 256


class PostingText:
    """The real post language: `fappo_bot.posting.parse_post` and `fappo_bot.posting.render`.

    It keeps the context of the posts it read lately, by poster, characters and scene: a post
    into the same scene (an equal state) takes the names its lines are resolved against
    (`PostContext.scenes`) from the one before instead of building them again."""

    def __init__(self) -> None:
        #: by (poster, controls, the identities of the state's characters), which the context
        #: kept holds, so no other object can take one of those identities while it is kept
        self._contexts: dict[tuple[str, tuple[str, ...], tuple[int, ...]], PostContext] = {}
        #: `order_lines` of orders replaced lately, by the identities of the order, its
        #: character and the hits, which each entry holds
        self._lines: dict[tuple[int, int, int], tuple[
            Order, Character | None, tuple[PendingHit, ...], list[str]]] = {}

    def _context(self, state: TurnState, poster: str, controls: tuple[str, ...],
                 traits: TraitCatalogue) -> PostContext:
        key = (poster, controls, tuple(map(id, state.characters)))
        found = self._contexts.get(key)
        if found is not None and found.state == state and found.traits == traits:
            return found
        if len(self._contexts) >= _CONTEXTS_KEPT:
            self._contexts.clear()
        made = self._contexts[key] = PostContext(state=state, poster=poster,
                                                 controls=controls, traits=traits)
        return made

    def read(
        self, text: str, state: TurnState, poster: str, controls: Sequence[str],
        traits: TraitCatalogue = BUILT_IN,
    ) -> ReadPost:
        oversize = too_long(text)  # refused before a line is read
        if oversize is not None:
            return ReadPost((), (oversize,), render_problems((oversize,)))
        parsed = parse_post(text, self._context(state, poster, tuple(controls), traits))
        reply = render_reply(parsed, state)
        if not parsed.ok:
            return ReadPost((), parsed.problems, reply)
        return ReadPost(tuple(parsed.orders), (), reply)

    def table_talk(self, text: str) -> bool:
        """No line reads as a statement or a character line: with no characters to post for,
        every such line is a problem, so table talk is a post with no block and no problem.
        A text over the post size is not read at all, so it is not table talk."""
        if too_long(text) is not None:
            return False
        parsed = parse_post(text, PostContext(state=_NO_SCENE, poster="", controls=()))
        return not parsed.blocks and not parsed.problems

    def replaced(self, earlier: Order, now: Order, state: TurnState) -> str:
        """`render_replaced`, with the actor's ratings and the hits open to Reduce. The lines of
        `earlier` are kept: the orders in force that a player's next post replaces are read
        back as the same value, for the same character and hits while they do not change."""
        character, hits = state.character(now.actor), state.pending
        key = (id(earlier), id(character), id(hits))
        found = self._lines.get(key)  # its entry holds the three: no other can have their ids
        if found is None:
            if len(self._lines) >= _CONTEXTS_KEPT:
                self._lines.clear()
            found = self._lines[key] = (earlier, character, hits,
                                        order_lines(earlier, character, hits))
        return render_replaced(earlier, now, character, hits, before=found[3])

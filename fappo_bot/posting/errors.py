"""Problems with a post: positioned, collected, and safe to show a player (RULINGS F29, STYLE 2-3).

Every problem names the 1-based line of the post, the words at fault, what the bot expected there
and a suggestion. The parser never stops at the first problem: it collects them all, so a player
fixes a post in one edit. Problems are values, never raised (parsing never fails); `kind` sorts
them into the three families of STYLE 2 (syntax, ambiguous, illegal by the rules) and `str()` is
a sentence a player can read.
"""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.posting.safety import safe
from fappo_bot.rules import ErrorCode


@dataclass(frozen=True, slots=True)
class PostProblem:
    """One problem in a post: where it is, what is wrong, and how to fix it."""

    line: int
    code: ErrorCode
    message: str
    #: the words of the post at fault (markdown removed)
    words: str = ""
    expected: str | None = None
    hint: str | None = None
    #: the names it could mean (ambiguous) or the nearest names (unknown)
    candidates: tuple[str, ...] = ()
    actor: str | None = None

    @property
    def kind(self) -> str:
        """`syntax`, `ambiguous` or `illegal` (by the rules): the three families of STYLE 2."""
        if self.code is ErrorCode.SYNTAX:
            return "syntax"
        if self.code is ErrorCode.AMBIGUOUS_NAME:
            return "ambiguous"
        return "illegal"

    def __str__(self) -> str:
        """`line 4 "2 AP attack Gobbo": no one called "Gobbo" here`, safe to echo (no mentions,
        no markdown)."""
        return f'line {self.line} "{safe(self.words)}": {safe(self.message)}'

"""Making player text safe to echo in Discord, and keeping messages within its size limit
(BRIEF: "Nothing a user writes can ping @everyone/@here/users/roles")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

DISCORD_LIMIT = 2000
_ZWSP = "\u200b"
_MARKDOWN_CHAR = re.compile(r"[*_~|`\\]")
_UNSAFE = re.compile(r"[*_~|`\\@]|<#|\]\(")


_RAW_MENTION = re.compile("<(?=[@#])|@(?!\u200b)")


def inert(text: str) -> str:
    """The last guard on every text that leaves the service (BRIEF: "Nothing a user writes can
    ping @everyone/@here/users/roles"): a zero-width space after every `@` and every `<` that
    opens a mention (`<@`, `<@!`, `<@&`, `<#`), unless one is there already. `safe` leaves
    `<@\u200b123>` (inert, but still the raw `<@`); this also breaks that. Idempotent; the bot
    never means to mention."""
    if "@" not in text and "<#" not in text:
        return text  # nothing to break (the regex would still visit every character)
    return _RAW_MENTION.sub(lambda m: m.group() + _ZWSP, text)


def has_live_mention(text: str) -> bool:
    """Whether `inert` would change `text`: an `@` or a mention-opening `<` not yet broken."""
    return ("@" in text or "<#" in text) and _RAW_MENTION.search(text) is not None


_RULE_TAG = re.compile(r"\s*\[F:L[0-9][0-9,\- L]*\]")


def without_rule_tags(text: str) -> str:
    """`text` without the rulebook line tags (`[F:L221-225]`): a GM's reference, noise in a
    player's reply or the channel's results (the GM's own review and summaries keep them)."""
    return _RULE_TAG.sub("", text) if "[F:" in text else text


def no_mentions(text: str) -> str:
    """Break every mention: @everyone, @here, <@id>, <@!id>, <@&id> and <#id> (a zero-width space
    after `@` and after `<#`), so nothing echoed from a player can ping anyone."""
    return text.replace("@", "@" + _ZWSP).replace("<#", "<#" + _ZWSP)


@lru_cache(maxsize=4096)
def safe(text: str) -> str:
    """A name or phrase a player wrote, made inert: no mentions, no markdown, no line breaks
    (BRIEF: "Nothing a user writes can ping @everyone/@here/users/roles"). Pure, so the many
    repeated names of replies are remembered."""
    text = " ".join(text.split())
    if _UNSAFE.search(text) is None:
        return text
    text = _MARKDOWN_CHAR.sub(r"\\\g<0>", no_mentions(text))
    return text.replace("](", "]" + _ZWSP + "(")  # no masked links


def safe_prose(text: str) -> str:
    """Prose echoed verbatim with its formatting, but without mentions or code fences that could
    swallow the rest of the message."""
    return no_mentions(text).replace("```", "`" + _ZWSP + "``")


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """`text` in messages of at most `limit` characters (Discord takes 2,000), split on line
    boundaries; a longer line is cut at its last blank before the limit, or at the limit."""
    if limit < 1:
        raise ValueError("limit must be positive")
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for line in _cut_lines(text, limit):
        extra = len(line) + (1 if current else 0)
        if current and size + extra > limit:
            messages.append("\n".join(current))
            current, size = [], 0
            extra = len(line)
        current.append(line)
        size += extra
    if current and any(current):
        messages.append("\n".join(current))
    return messages or [""]


def _cut_lines(text: str, limit: int) -> Iterable[str]:
    for line in text.split("\n"):
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit + 1)
            if cut <= 0:
                cut = limit
            yield line[:cut]
            line = line[cut:].lstrip(" ")
        yield line

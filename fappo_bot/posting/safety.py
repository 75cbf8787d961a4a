"""The one place where text a user wrote becomes product text: `safe` for a name or a phrase,
`safe_prose` for prose kept with its formatting (BRIEF: "Nothing a user writes can ping
@everyone/@here/users/roles"). Every renderer writes a user-given value through one of the two,
so what a renderer returns pings nobody and nothing after it scrubs (the outbox, the refusals and
the views a use case returns carry either rendered text or the user's own values as data, which
each adapter renders through these same functions). Also: keeping messages within Discord's size
limit, and the rule codes a player does not read.
"""

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
    """`text` with a zero-width space after every `@` and every `<` that opens a mention (`<@`,
    `<@!`, `<@&`, `<#`), unless one is there already: what `safe` and `safe_prose` do to
    mentions, for an adapter's text that is not a user's value (a heading, a status line).
    Idempotent; the bot never means to mention."""
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


#: "(F13)", "(X4 Amb-4)", "(F7 step 3)", "(RULINGS X18)", "RULINGS X18", and the codes that
#: close a parenthetical after its words ("(the floor, X16)", "(2 easy ... 8+ hard; F4)",
#: "(hide_all_allocations, F29 Amb-4)"): codes a player cannot look up (the words say the rule)
_CODE = r"(?:RULINGS )?[FX]\d+(?:\.\d+)?(?: (?:Amb-|step )\d+)?"
_RULE_CODE = re.compile(r"\s*\((?:RULINGS )?[FX]\d+[^()]*\)|\s*\bRULINGS [FX]\d+(?:\.\d+)?"
                        r"(?: Amb-\d+)?"
                        rf"|\s*[,;]\s*{_CODE}(?:,\s*{_CODE})*(?=\))")


def no_rule_codes(text: str) -> str:
    """`text` without the rule codes a player cannot look up ("(F13)", "(X4 Amb-4)") nor the
    rulebook's line tags: what a player reads says the rule in words (a GM's texts keep them)."""
    return _RULE_CODE.sub("", without_rule_tags(text))


def no_mentions(text: str) -> str:
    """Break every mention: @everyone, @here, <@id>, <@!id>, <@&id> and <#id> (a zero-width space
    after every `@`, after `<#`, and after a `<` that opens one), so nothing echoed from a player
    can ping anyone, and the result holds no raw `<@` or `<#` (`inert` leaves it as it is)."""
    if "@" not in text and "<#" not in text:
        return text
    return inert(text.replace("@", "@" + _ZWSP).replace("<#", "<#" + _ZWSP))


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


ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """`text` within `limit` characters, a visible "…" ending it when it had to be cut (for a
    label that cannot be split: a select option, a button, a title). Never parts an escape from
    what it escapes, nor leaves a trailing blank before the mark."""
    if len(text) <= limit:
        return text
    if limit < 1:
        raise ValueError("limit must be positive")
    cut = limit - len(ELLIPSIS)
    while cut > 0 and text[cut - 1] == "\\" and _escapes(text, cut - 1):
        cut -= 1
    return text[:cut].rstrip() + ELLIPSIS


def split_message(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """`text` in messages of at most `limit` characters (Discord takes 2,000), split cleanly:
    on line boundaries; a line longer than the limit is cut at its last blank before the limit
    that leaves no inline markdown (`**`, `*`, `__`, `~~`, `||`, a backtick) open, else at its
    last blank, else at the limit (never between a backslash and the character it escapes). A
    code block cut in two is closed at the end of one message and opened again, with its
    language, at the start of the next. Nothing but those fences is added or lost except the
    blanks and line breaks at a cut."""
    if limit < 1:
        raise ValueError("limit must be positive")
    if len(text) <= limit:  # most replies: one message, as it is
        return [text] if text.strip("\n") else [""]
    if FENCE in text and limit >= _FENCE_ROOM:
        return _split_fenced(text, limit)
    return _pack(_cut_lines(text.split("\n"), limit), limit)


FENCE = "```"
#: the smallest limit for which a cut code block is closed and opened again
_FENCE_ROOM = 40


def _pack(lines: Iterable[str], limit: int) -> list[str]:
    """Lines (each within `limit`) joined into as few messages as fit."""
    messages: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
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


def _split_fenced(text: str, limit: int) -> list[str]:
    """`split_message` of a text with code blocks: a message that ends inside a block closes
    it, and the next opens it again with the same opening line (room kept for both)."""
    lines = text.split("\n")
    openers = [line.strip() for line in lines if line.lstrip().startswith(FENCE)]
    room = max(map(len, openers), default=0) + len(FENCE) + 2
    if not openers or limit - room < _FENCE_ROOM // 2:
        return _pack(_cut_lines(lines, limit), limit)  # no room: cut as plain text
    parts = _pack(_cut_lines(lines, limit - room), limit - room)
    opener: str | None = None
    framed = []
    for number, part in enumerate(parts, start=1):
        head = f"{opener}\n" if opener is not None else ""
        for line in part.split("\n"):
            if line.lstrip().startswith(FENCE):
                opener = None if opener is not None else line.strip()
        cut = opener is not None and number < len(parts)  # a block the text leaves open stays
        framed.append(head + part + (f"\n{FENCE}" if cut else ""))
    return framed


_INLINE = re.compile(r"\\.|\*\*|__|~~|\|\||[`*]", re.DOTALL)


def _cut_lines(lines: Iterable[str], limit: int) -> Iterable[str]:
    for line in lines:
        while len(line) > limit:
            cut = _cut_at(line, limit)
            yield line[:cut]
            line = line[cut:].lstrip(" ")
        yield line


def _cut_at(line: str, limit: int) -> int:
    """Where to cut a line longer than `limit`: the last blank within it that leaves no inline
    markdown open, else the last blank, else the limit (backed off so as not to part an escape
    from what it escapes)."""
    window = line[: limit + 1]
    balanced = last = -1
    open_marks: set[str] = set()
    position = 0
    for match in _INLINE.finditer(window):
        if not open_marks:
            balanced = max(balanced, window.rfind(" ", position, match.start() + 1))
        mark = match.group()
        if not mark.startswith("\\"):
            open_marks ^= {mark}
        position = match.end()
    if not open_marks:
        balanced = max(balanced, window.rfind(" ", position))
    last = window.rfind(" ")
    for cut in (balanced, last):
        if cut > 0:
            return cut
    cut = limit
    while cut > 1 and line[cut - 1] == "\\" and _escapes(line, cut - 1):
        cut -= 1
    return cut


def _escapes(line: str, index: int) -> bool:
    """Whether the backslash at `index` escapes the character after it (an even run of
    backslashes before it)."""
    run = 0
    while index - run - 1 >= 0 and line[index - run - 1] == "\\":
        run += 1
    return run % 2 == 0


def possessive(name: str) -> str:
    """`Kael's`, `Rats'`: a name (already safe) with its possessive ending."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"

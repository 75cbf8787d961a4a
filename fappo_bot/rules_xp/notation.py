"""The rulebook's short notation for a roll, as people type it: `6d superior`, `4d`, `5 -1`, and
lists of rollers such as `Aster 6d, Brin 4d superior npc` (RULINGS X2, X3).

One parser for every place that reads it: `fappo-bot odds`, the service's odds and the GM's rolls
at the local table and on the bot. Every failure is an `XpError` whose text is one sentence that
says what to write instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import key, sl_named

MAX_POOL = 200
"""No roll or odds takes more dice than this (a typo must not roll a million)."""

_POOL = re.compile(r"\s*(-?\d+)\s*(?:d\s*6?)?\s*", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?\d+")


def parse_pool(text: str) -> int:
    """`6`, `6d` or `6d6` as a number of dice, at most `MAX_POOL`."""
    match = _POOL.fullmatch(text)
    if match is None:
        raise XpError(f'the pool "{text.strip()}" is not a number of dice (for example 6, 6d or 6d6)',
                      code="out-of-range")
    pool = int(match.group(1))
    if pool > MAX_POOL:
        raise XpError(f"pools above {MAX_POOL} dice are not rolled or computed", code="out-of-range")
    return pool


def is_pool(text: str) -> bool:
    """Whether a word reads as a pool (`6`, `6d`, `6d6`)."""
    return _POOL.fullmatch(text) is not None


def parse_level(text: str) -> int:
    """A Superiority Level by name (`superior`, `weak`...) or number (`+2`, `-1`; 4 and up is
    above Dominant, X3 Amb-1)."""
    word = text.strip()
    if _NUMBER.fullmatch(word):
        level = int(word)
        if abs(level) > 20:
            raise XpError(f"a superiority level of {level} is out of range (-20 to +20)",
                          code="out-of-range")
        return level
    return sl_named(word)


@dataclass(frozen=True, slots=True)
class RollSpec:
    """A pool and a level, as typed."""

    pool: int
    sl: int = 0


def parse_roll(text: str) -> RollSpec:
    """`6d superior`, `6d`, `6 +2`: the pool, then an optional level (Normal if left out)."""
    words = text.split()
    if not words:
        raise XpError("say how many dice, and the level if it is not Normal (for example "
                      "6d superior)")
    if len(words) > 2 and not is_pool(words[0]):
        raise XpError(f'not a roll: "{text.strip()}"; write the pool, then the level (for '
                      "example 6d superior)")
    pool = parse_pool(words[0])
    level = parse_level(" ".join(words[1:])) if len(words) > 1 else 0
    return RollSpec(pool, level)


@dataclass(frozen=True, slots=True)
class MemberSpec:
    """One roller of a list: `NAME POOL [LEVEL] [npc|pc] [relaunch]`."""

    name: str
    pool: int
    sl: int = 0
    who: Who = Who.PC
    relaunch: bool = False


_FLAGS = {"npc", "pc", "relaunch"}


def parse_member(text: str) -> MemberSpec:
    """`Aster 6d`, `Old Brin 4d superior npc`, `Cato 3d relaunch`: a name (one or more words),
    its pool, then optionally its level, `npc` (no heroic dice unless the GM says so) and
    `relaunch` (the member spends 1 Good Luck to relaunch a broken collateral chain, X11)."""
    words = text.split()
    at = next((i for i, w in enumerate(words) if i and is_pool(w)), None)
    if at is None:
        raise XpError(f'not a roller: "{text.strip()}"; write a name and a pool (for example '
                      "Aster 6d superior)")
    name = " ".join(words[:at])
    pool = parse_pool(words[at])
    rest = words[at + 1:]
    flags = {key(w) for w in rest if key(w) in _FLAGS}
    level_words = [w for w in rest if key(w) not in _FLAGS]
    sl = parse_level(" ".join(level_words)) if level_words else 0
    who = Who.NPC if "npc" in flags else Who.PC
    return MemberSpec(name, pool, sl, who, "relaunch" in flags)


def parse_members(text: str) -> list[MemberSpec]:
    """Rollers separated by commas or semicolons; names must differ."""
    parts = [p for p in re.split(r"[,;\n]", text) if p.strip()]
    if not parts:
        raise XpError("name the rollers, separated by commas (for example Aster 6d, Brin 4d)")
    members = [parse_member(p) for p in parts]
    seen: set[str] = set()
    for member in members:
        if key(member.name) in seen:
            raise XpError(f"{member.name} is named twice: each roller once")
        seen.add(key(member.name))
    return members


def parse_names(text: str) -> list[str]:
    """Task names separated by commas or semicolons (a PLOT's tasks, X14)."""
    return [p.strip() for p in re.split(r"[,;\n]", text) if p.strip()]

"""A small scene and helpers for the post-parser tests (spec/posting.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fappo_bot.adjudication.loader import character_from_case
from fappo_bot.posting import ParsedPost, PostContext, parse_post
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import TurnState

#: the skirmish of posting.md's examples: Kael, Mira and Zara against goblins and a troll
SKIRMISH: list[dict[str, Any]] = [
    {"name": "Kael", "traits": {"Nimble": 3, "Tireless": 3, "Highborn": 3}, "floating": 1,
     "skills": {"Swordfighting": 3, "Acrobatics": 2, "Archery": 2},
     "weapons": ["Broadsword", "Long Bow"], "wielding": "Broadsword"},
    {"name": "Mira", "traits": {"Clever": 3, "Nimble": 2}, "skills": {"Pickpocket": 3,
     "Knife Fighting": 2, "Stealth": 2, "Healing": 1}, "weapons": ["Dagger"]},
    {"name": "Zara", "traits": {"Uncanny": 3, "Sagacious": 2}, "floating": 1,
     "skills": {"Spellcasting": 4},
     "spells": [{"name": "Fireball", "effects": {"damage": 4, "specials": 1, "locus": True,
                                                 "radius": 2, "loud": True, "traceable": True},
                 "special": "Fire"}, {"name": "Mend", "difficulty": 4}]},
    {"name": "Goblin 1", "traits": {"Brawny": 3}, "skills": {"Knife Fighting": 2},
     "weapons": ["Dagger"]},
    {"name": "Goblin 2", "traits": {"Brawny": 3}, "skills": {"Knife Fighting": 2},
     "weapons": ["Dagger"]},
    {"name": "Goblin Archer", "traits": {"Brawny": 3}, "skills": {"Archery": 2},
     "weapons": ["Horse Bow"], "position": 3},
    {"name": "Goblins", "tier": "nuisance", "count": 4, "skills": {"Knife Fighting": 1},
     "weapons": ["Dagger"]},
    {"name": "Troll", "tier": "lieutenant", "traits": {"Brawny": 5},
     "skills": {"Fisticuffs": 4}, "weapons": ["Fist"]},
]


def state_of(characters: Sequence[Mapping[str, Any]] = SKIRMISH,
             pending: Sequence[Mapping[str, Any]] = ()) -> TurnState:
    return TurnState(
        characters=tuple(character_from_case(c) for c in characters),
        pending=tuple(PendingHit(**p) for p in pending),
    )


def parse(text: str, poster: str = "Kael", state: TurnState | None = None) -> ParsedPost:
    state = state if state is not None else state_of()
    return parse_post(text, PostContext.for_poster(state, poster))


def actions(post: ParsedPost) -> list[dict[str, Any]]:
    """The actions of the only order, in the case schema (fails on problems)."""
    assert post.ok, [str(p) for p in post.problems]
    (order,) = post.to_case_orders()
    return list(order["actions"])


def action(text: str, poster: str = "Kael", state: TurnState | None = None) -> dict[str, Any]:
    (only,) = actions(parse(text, poster, state))
    return only


def codes(post: ParsedPost) -> list[tuple[int, str]]:
    return [(e["line"], e["code"]) for e in post.to_case_errors()]


def subset(expected: Any, got: Any) -> bool:
    """Whether every listed field of `expected` is in `got` (the case-file comparison)."""
    if isinstance(expected, Mapping):
        return isinstance(got, Mapping) and all(
            k in got and subset(v, got[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(got, list) and len(expected) == len(got) and all(
            subset(e, g) for e, g in zip(expected, got, strict=True))
    if isinstance(expected, str) and isinstance(got, str):
        return expected.strip().casefold() == got.strip().casefold()
    return bool(expected == got)

"""What the post parser takes and gives: the context of a post and the parsed post (RULINGS F29).

`ParsedPost` keeps, per character block, the `Order` (rules/orders.py), the prose verbatim and, for
every statement, its 1-based line and source words, so errors and the reply can cite them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from fappo_bot.posting.errors import PostProblem
from fappo_bot.rules import BUILT_IN, Action, Order, TraitCatalogue, TurnState

GM = "gm"
"""The poster of a GM post (NPC orders with character lines)."""


@dataclass(frozen=True, slots=True)
class PostContext:
    """Who posts, for which characters, into which scene (F29)."""

    state: TurnState
    #: a character name, or `GM`
    poster: str
    #: the characters the poster controls (their own, a retainer, a GM's NPCs)
    controls: tuple[str, ...] = ()
    #: what each actor may name, built once per context (the state is immutable)
    scenes: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
    #: what every post of the context starts from, found once (the characters the poster
    #: controls, and their names: `parser.parse_post`)
    start: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
    #: the game's Traits: the rulebook's, and its own that SP lines may name (F2)
    traits: TraitCatalogue = BUILT_IN

    @classmethod
    def for_poster(cls, state: TurnState, poster: str, traits: TraitCatalogue = BUILT_IN
                   ) -> PostContext:
        """The usual context: a player controls their character, a GM every non-player one.

        A case file's `poster: gm` controls every character of the case (spec/cases.md).
        """
        if poster.strip().casefold() == GM:
            return cls(state, GM, tuple(c.name for c in state.characters), traits=traits)
        found = state.character(poster)
        name = found.name if found is not None else poster
        return cls(state, name, (name,), traits=traits)

    @property
    def is_gm(self) -> bool:
        """Whether the GM posts."""
        return self.poster.casefold() == GM


class StatementKind(StrEnum):
    """What a mechanics statement declares."""

    CHARACTER = "character"
    ACTION = "action"
    GUARD = "guard"
    REDUCE = "reduce"
    ENDURE = "endure"
    BIND = "bind"
    GOOD_CASE = "good_case"
    INTENT = "intent"
    OOC = "ooc"


@dataclass(frozen=True, slots=True)
class Statement:
    """One mechanics statement of a post, with where it stands (F29)."""

    line: int
    #: the statement's words, markdown removed
    words: str
    kind: StatementKind
    #: index of the first action, pledge or reduction it produced in its order
    index: int | None = None
    #: how many it produced ("Guard ... against each goblin" gives one pledge per goblin)
    count: int = 1
    #: written inside square brackets in a prose line
    bracket: bool = False
    #: the words of its SP clauses (to cite in budget problems)
    sp_words: str = ""


@dataclass(frozen=True, slots=True)
class ParsedBlock:
    """One character's part of a post: its order, prose and statements."""

    actor: str
    order: Order
    prose: tuple[str, ...] = ()
    statements: tuple[Statement, ...] = ()
    #: the AP the actor may spend this turn (None when the rules could not tell)
    ap_budget: int | None = None


@dataclass(frozen=True, slots=True)
class ParsedPost:
    """A parsed post: whole or nothing (posting.md: "A post is recorded whole or not at all")."""

    blocks: tuple[ParsedBlock, ...] = ()
    #: every prose line of the post, verbatim, in order
    prose: tuple[str, ...] = ()
    problems: tuple[PostProblem, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """No problem: the post may be recorded."""
        return not self.problems

    @property
    def orders(self) -> tuple[Order, ...]:
        """The orders to record: none at all while any line has a problem."""
        if self.problems:
            return ()
        return tuple(b.order for b in self.blocks)

    def to_case_orders(self) -> list[dict[str, Any]]:
        """The orders in the `orders` schema of spec/cases.md (empty when the post has problems)."""
        return [order_to_case(o) for o in self.orders]

    def to_case_errors(self) -> list[dict[str, Any]]:
        """The problems as `[{line, code}]` (spec/cases.md parse cases), in line order."""
        return [{"line": p.line, "code": p.code.value} for p in self.problems]


def _sp(values: dict[str, int]) -> dict[str, int]:
    return dict(values)


def action_to_case(action: Action) -> dict[str, Any]:
    """One action in the case schema: only the fields the post set."""
    out: dict[str, Any] = {"kind": action.kind.value}
    if action.ap is not None:
        out["ap"] = action.ap
    for name in ("target", "weapon", "skill", "special", "against", "toward", "away", "item",
                 "spell", "why", "task"):
        value = getattr(action, name)
        if value is not None:
            out[name] = value
    if action.targets:
        out["targets"] = list(action.targets)
    if action.ranges is not None:
        out["ranges"] = action.ranges
    if action.accuracy:
        out["accuracy"] = action.accuracy
    if action.sp:
        out["sp"] = _sp(action.sp)
    if action.cast_sp:
        out["cast_sp"] = _sp(action.cast_sp)
    if action.attack_sp:
        out["attack_sp"] = _sp(action.attack_sp)
    if action.claim is not None:
        out["claim"] = {"value": action.claim.value, "reason": action.claim.reason}
    if action.condition is not None:
        out["if"] = action.condition
    return out


def order_to_case(order: Order) -> dict[str, Any]:
    """One order in the case schema (spec/cases.md `orders`, plus `intent` and `ooc`)."""
    out: dict[str, Any] = {"actor": order.actor, "actions": [action_to_case(a) for a in order.actions]}
    if order.guard:
        out["guard"] = [{"against": p.against, "sp": _sp(p.sp)} for p in order.guard]
    if order.reduce:
        out["reduce"] = [
            {"hit": r.hit, "sp": _sp(r.sp), **({"why": r.why} if r.why else {})}
            for r in order.reduce
        ]
    if order.endure:
        out["endure"] = True
    if order.bind:
        out["bind"] = [{"item": b.item, **({"sacrifice": b.sacrifice} if b.sacrifice else {})}
                       for b in order.bind]
    if order.intent is not None:
        out["intent"] = order.intent
    if order.ooc is not None:
        out["ooc"] = order.ooc
    if order.good_case is not None:
        out["good_case"] = order.good_case
    return out


def join_text(parts: Iterable[str]) -> str | None:
    """Several Intent or OOC lines as one text (None when there is none)."""
    kept = [p for p in parts if p]
    return "\n".join(kept) if kept else None

"""The input state of a turn and the data a resolution returns (F7). Never text: rendering is
separate (`fappo_bot.posting.render`, the adapters).

The results are plain slotted dataclasses; pydantic reads and writes them only where they cross
the boundary (storage, case files). The ones a turn makes by the thousand (`ActionResult`,
`TargetResult`, `Event`, and `PendingHit`) are not frozen, since a frozen dataclass sets each
field through `object.__setattr__`: they are never changed once made."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated

from pydantic import Field

from fappo_bot.rules.character import Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.traits import BUILT_IN, TraitCatalogue


@dataclass(frozen=True, slots=True)
class TurnState:
    """Everything the rules need to know about a scene at the start of a turn."""

    turn: int = 1
    characters: tuple[Character, ...] = ()
    #: hits of the last resolution, provisional until their targets' posts (F13)
    pending: tuple[PendingHit, ...] = ()
    config: RulesConfig = field(default_factory=RulesConfig)
    in_combat: bool = True
    #: the game's Traits, for the Suggested Trait of the skills its own Traits suggest (F2);
    #: the game's, not the turn's: never written with the state
    traits: Annotated[TraitCatalogue, Field(exclude=True)] = BUILT_IN

    def character(self, name: str) -> Character | None:
        """The character called `name` (exact, case-insensitive), or None."""
        key = name.casefold()
        for character in self.characters:
            if character.name.casefold() == key:
                return character
        return None


@dataclass(frozen=True, slots=True)
class GMInputs:
    """Turn-wide GM inputs (R1) that do not ride on one action."""

    #: end positions after this turn's movement (F7 Amb-4), by character name
    end_positions: dict[str, int] = field(default_factory=dict)
    #: the combat ends with this resolution (Bleeding drops, F18.2)
    end_combat: bool = False
    #: characters whose fire was put out this turn by the GM's ruling (F18.4 Amb-1)
    extinguished: tuple[str, ...] = ()
    #: characters freed from a Freeze sheath or a held Transfix by the GM's ruling
    freed: tuple[str, ...] = ()
    #: orders were valid when posted (the service validates at posting): an order that became
    #: over budget by resolution keeps its actions in declared order and drops the overflow
    #: (F7 step 3 amendment) instead of being refused; case files leave this off
    trim_overflow: bool = False


class ErrorCode(str, Enum):
    """Validation error codes (spec/cases.md), shared by case files and posts."""

    AP_OVER_BUDGET = "ap-over-budget"
    AP_REQUIRED = "ap-required"
    AP_MISMATCH = "ap-mismatch"
    SP_INSUFFICIENT = "sp-insufficient"
    UNKNOWN_NAME = "unknown-name"
    AMBIGUOUS_NAME = "ambiguous-name"
    SKILL_FORBIDDEN = "skill-forbidden"
    CANNOT_ACT = "cannot-act"
    OUT_OF_RANGE = "out-of-range"
    REDUCE_OVER_LIMIT = "reduce-over-limit"
    CONCENTRATION_CONFLICT = "concentration-conflict"
    #: a weapon the table maps to no skill, with none named (F19 Amb-1 amendment)
    SKILL_REQUIRED = "skill-required"
    #: a plaser order firing more shots than the ammunition left (F19 amendment)
    NO_AMMO = "no-ammo"
    BAD_CASE = "bad-case"
    SYNTAX = "syntax"


class RulesError(ValueError):
    """A request the rules refuse (an unknown spell effect, an impossible purchase...).

    `str()` is the message, written for the player and safe to show as it is; `code` is a short
    machine code (`unknown-name`, `not-enough-cc`...), `field` names the input at fault.
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found by a checker that reports every problem at once (a sheet, F1)."""

    code: str
    message: str
    field: str | None = None


class Where(str, Enum):
    """Which part of an order a problem concerns (the parser maps it to a post line)."""

    ORDER = "order"
    ACTION = "action"
    GUARD = "guard"
    REDUCE = "reduce"
    ENDURE = "endure"


@dataclass(frozen=True, slots=True)
class OrderError:
    """One problem with an order: safe to show a player as it is."""

    actor: str
    code: ErrorCode
    message: str
    where: Where = Where.ORDER
    #: index of the action, pledge or reduction concerned
    index: int | None = None
    #: the words at fault, what was expected, and a suggestion
    words: str | None = None
    expected: str | None = None
    hint: str | None = None
    #: candidate names (ambiguous) or nearest names (unknown)
    candidates: tuple[str, ...] = ()


@dataclass(slots=True)
class TargetResult:
    """The attack stage of an area attack or a spell against one creature (F19, F25)."""

    name: str
    total: int | None = None
    difficulty: int | None = None
    margin: int | None = None
    level: SuccessLevel | None = None
    em: int | None = None
    damage: int = 0
    specials: tuple[str, ...] = ()
    eliminated: int = 0
    effective: bool = True
    shield: bool = False
    pledged: int = 0


@dataclass(slots=True)
class ActionResult:
    """What one action did. For a cast the top-level fields are the casting stage."""

    actor: str
    index: int
    kind: str
    target: str | None = None
    total: int | None = None
    difficulty: int | None = None
    margin: int | None = None
    level: SuccessLevel | None = None
    em: int | None = None
    damage: int = 0
    specials: tuple[str, ...] = ()
    eliminated: int = 0
    effective: bool = True
    targets: tuple[TargetResult, ...] = ()
    #: whether a shield covered it and how many pledge levels lowered it (F17, F5)
    shield: bool = False
    pledged: int = 0
    #: short facts for the GM and the renderer ("not triggered", "self-hit 3 levels")
    notes: tuple[str, ...] = ()


@dataclass(slots=True)
class Event:
    """Something that happened in resolution besides action results (ticks, deaths, statuses)."""

    kind: str
    character: str
    detail: str = ""
    levels: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnResult:
    """The whole outcome of one resolution: data, never text."""

    turn: int
    actions: tuple[ActionResult, ...] = ()
    errors: tuple[OrderError, ...] = ()
    events: tuple[Event, ...] = ()
    #: the new provisional hits (F13), also carried in `state.pending`
    hits: tuple[PendingHit, ...] = ()
    #: the state at the start of the next turn (hits of this resolution provisional)
    state: TurnState
    #: the state after step 2 (pending hits finalised with this turn's reductions)
    finalized: TurnState | None = None

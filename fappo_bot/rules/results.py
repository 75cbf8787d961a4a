"""The input state of a turn and the data a resolution returns (F7). Never text: rendering is
separate (`fappo_bot.posting.render`, the adapters)."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from fappo_bot.rules.character import Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.levels import SuccessLevel
from fappo_bot.rules.orders import PendingHit


class TurnState(BaseModel):
    """Everything the rules need to know about a scene at the start of a turn."""

    model_config = ConfigDict(frozen=True)

    turn: int = 1
    characters: tuple[Character, ...] = ()
    #: hits of the last resolution, provisional until their targets' posts (F13)
    pending: tuple[PendingHit, ...] = ()
    config: RulesConfig = Field(default_factory=RulesConfig)
    in_combat: bool = True

    def character(self, name: str) -> Character | None:
        """The character called `name` (exact, case-insensitive), or None."""
        key = name.casefold()
        for character in self.characters:
            if character.name.casefold() == key:
                return character
        return None


class GMInputs(BaseModel):
    """Turn-wide GM inputs (R1) that do not ride on one action."""

    model_config = ConfigDict(frozen=True)

    #: end positions after this turn's movement (F7 Amb-4), by character name
    end_positions: dict[str, int] = Field(default_factory=dict)
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


class Problem(BaseModel):
    """One problem found by a checker that reports every problem at once (a sheet, F1)."""

    model_config = ConfigDict(frozen=True)

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


class OrderError(BaseModel):
    """One problem with an order: safe to show a player as it is."""

    model_config = ConfigDict(frozen=True)

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


class TargetResult(BaseModel):
    """The attack stage of an area attack or a spell against one creature (F19, F25)."""

    model_config = ConfigDict(frozen=True)

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


class ActionResult(BaseModel):
    """What one action did. For a cast the top-level fields are the casting stage."""

    model_config = ConfigDict(frozen=True)

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


class Event(BaseModel):
    """Something that happened in resolution besides action results (ticks, deaths, statuses)."""

    model_config = ConfigDict(frozen=True)

    kind: str
    character: str
    detail: str = ""
    levels: int = 0


class TurnResult(BaseModel):
    """The whole outcome of one resolution: data, never text."""

    model_config = ConfigDict(frozen=True)

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


_Model = TypeVar("_Model", bound=BaseModel)


def trusted(model: type[_Model], *given: str) -> Callable[..., _Model]:
    """A constructor of `model` for values the rules built themselves, already of the field
    types (a str, an int, a tuple, an enum member...): the instance pydantic's validation would
    give, without validating again.

    For the results a turn makes by the thousand (an action's result, a pending hit): validating
    them was a tenth of a 1,000-entry turn (docs/benchmarks.md), and `model_construct` is slower
    still (a Python loop over every field). The fields the caller passes are the ones set, as with
    `model(**values)`; the defaults must be immutable (a default factory would be shared).

    With `given` field names, the constructor takes exactly those fields (by keyword or in that
    order) and is made, as `dataclasses` makes `__init__`, from source text: no keyword dict to
    build and merge into the defaults.
    """
    defaults: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        assert info.default_factory is None, f"{model.__name__}.{name} has a default factory"
        defaults[name] = info.default  # PydanticUndefined for a required field, always given
    new = object.__new__
    assign = object.__setattr__
    if given:
        assert set(given) <= defaults.keys(), f"{model.__name__} has no field {given}"
        assert all(n in given for n, info in model.model_fields.items() if info.is_required())
        namespace: dict[str, Any] = {
            "_model": model, "_new": new, "_assign": assign, "_given": frozenset(given),
            "_defaults": defaults,
        }
        # a copy of the defaults keeps the declared order; storing into it is cheaper than a
        # dict display of every field
        stores = "".join(f"    data[{name!r}] = {name}\n" for name in given)
        source = (
            f"def build({', '.join(given)}):\n"
            "    data = _defaults.copy()\n"
            f"{stores}"
            "    made = _new(_model)\n"
            "    _assign(made, '__dict__', data)\n"
            "    _assign(made, '__pydantic_fields_set__', set(_given))\n"
            "    _assign(made, '__pydantic_extra__', None)\n"
            "    _assign(made, '__pydantic_private__', None)\n"
            "    return made\n"
        )
        exec(source, namespace)  # the source is made above from the field names alone
        built: Callable[..., _Model] = namespace["build"]
        return built

    def build(**values: Any) -> _Model:
        data = defaults.copy()  # the fields in their declared order, as validation lists them
        data.update(values)
        made = new(model)
        assign(made, "__dict__", data)
        assign(made, "__pydantic_fields_set__", set(values))
        assign(made, "__pydantic_extra__", None)
        assign(made, "__pydantic_private__", None)
        return made

    return build


make_event = trusted(Event, "kind", "character", "detail", "levels")

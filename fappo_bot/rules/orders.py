"""Orders: what a character declares for a turn, and the GM inputs riding on them (F7, F8, F29).

These are the structured declarations of RULINGS P1: "Using SPs, dividing APs, etc. happen exactly
as described by the player." The post parser produces them; case files give them directly.
SP maps are keyed by canonical pool names: a Trait's default name, or `floating`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated, Any

from annotated_types import Ge
from pydantic import ConfigDict, Field

ANY = "any"
"""A Guard pledge against whichever attack the rules match first (F5)."""
GENERAL = frozenset({ANY, "all"})
"""The words of a Guard pledge or a defense against any attacker (F5)."""


class ActionKind(str, Enum):
    """Action kinds of the case format and the post language (plus documented extensions)."""

    ATTACK = "attack"
    DEFEND = "defend"
    SKILL = "skill"
    MOVE = "move"
    READY = "ready"
    STOW = "stow"
    DROP = "drop"
    SWITCH = "switch"
    PICKUP = "pickup"
    STAND = "stand"
    REMOVE = "remove"
    RIPOUT = "ripout"
    CAST = "cast"
    TEND = "tend"
    WATCH = "watch"
    #: extensions (docs/rulings.md): put out a fire (F18.4 Amb-1), steady a sniper rifle (F19 Amb-6)
    EXTINGUISH = "extinguish"
    AIM = "aim"


@dataclass(frozen=True, slots=True)
class Claim:
    """A circumstantial modifier the player claims, pending the GM's acceptance (posting.md)."""

    value: int
    reason: str | None = None


@dataclass(slots=True)
class Action:
    """One allocation of a turn, with the GM inputs that concern it (R1).

    The parser makes one for every allocation of every post, and a frozen dataclass sets each of
    its fields through `object.__setattr__`, so not frozen (`results`): never changed once made
    (`dataclasses.replace` makes a changed copy).

    The input schema (`TypeAdapter(Action)`) refuses unknown fields and reads a condition as
    `if` (the case format's word) or `condition`."""

    __pydantic_config__ = ConfigDict(populate_by_name=True, extra="forbid")

    kind: ActionKind
    ap: int | None = None
    target: str | None = None
    #: creatures inside an area effect (GM input, F19 Amb-3, F25 Amb-7), or a cast's targets
    targets: tuple[str, ...] | None = None
    weapon: str | None = None
    skill: str | None = None
    #: the Special attempted on a Great Success (F12)
    special: str | None = None
    #: defend: the attacker the defense is scoped to (None: every attack, F5 Amb-3)
    against: str | None = None
    #: GM input: the difficulty of an unopposed action (F4 Amb-10)
    difficulty: int | None = None
    #: move: total Ranges moved this turn (1 is free, F16)
    ranges: int | None = None
    toward: str | None = None
    away: str | None = None
    item: str | None = None
    spell: str | None = None
    #: General Magic effects given inline (F24)
    effects: dict[str, Any] | None = None
    #: ad-hoc accuracy of a cast: +1 to the attack per +1 to the casting difficulty (F25)
    accuracy: int = 0
    cast_sp: dict[str, int] = field(default_factory=dict)
    attack_sp: dict[str, int] = field(default_factory=dict)
    sp: dict[str, int] = field(default_factory=dict)
    #: the player's explanation for SP from a Trait that is not the Suggested Trait (F2 Amb-2)
    why: str | None = None
    #: what the player tries with a skill use ("2 AP Stealth: slip past the guard") or watches for
    #: ("watch for archers"): text for the GM, never read by the rules (posting.md, F9)
    task: str | None = None
    #: the net circumstantial modifier the GM accepted (F4)
    modifier: int = 0
    #: a modifier the player claims, for the GM to accept or refuse
    claim: Claim | None = None
    #: conditional action (F9): the condition's text, and the GM's ruling
    condition: Annotated[str | None, Field(alias="if")] = None
    triggered: bool = False
    #: GM inputs: flat-footed target (F6), invoked Special (F12), engaged fodder groups (F20/F21)
    flat_footed: bool = False
    #: GM input: a melee attacker reached a target that moved away this turn (F7 Amb-4 amendment)
    engaged: bool = False
    invoke: str | None = None
    also: tuple[str, ...] = ()
    #: GM veto of SP from a Trait that is not the Suggested Trait: refunded (F4 Amb-14)
    sp_vetoed: bool = False
    #: GM's "good case" override of concentration exclusivity (F8 Amb-3)
    concentration_ok: bool = False
    #: mind magic: the mood difficulty M (F25); a message spell's "flooded mind" flag
    mood: int | None = None
    flooded: bool = False
    #: heat involved in breaking a Freeze sheath (F18.15 Amb-1)
    heat: bool = False
    #: the attacker keeps hold of an impaling or transfixing weapon (F18.12 Amb-2, F18.14)
    hold: bool = False
    #: Dismemberment: the body part or item the GM picks (F18.8)
    part: str | None = None
    #: GM data for a Poison or Disease Special (F18.6, F18.7): {kind: mortal|nerve|custom,
    #: ticks, penalty, ap_loss, duration} or {onset, effect, duration}; None: the suggested defaults
    profile: dict[str, Any] | None = None

    @property
    def conditional(self) -> bool:
        """Whether the action waits on a condition (F9)."""
        return self.condition is not None

    @property
    def effective_now(self) -> bool:
        """Whether the action comes to pass: unconditional, or its condition was ruled true."""
        return self.condition is None or self.triggered


@dataclass(frozen=True, slots=True)
class Pledge:
    """A Guard line: defensive SP declared in advance against one action (F5)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    against: str = ANY
    sp: dict[str, int] = field(default_factory=dict)

    @property
    def general(self) -> bool:
        """A pledge against any attacker."""
        return self.against.casefold() in GENERAL


@dataclass(frozen=True, slots=True)
class Reduction:
    """A Reduce line: post-hoc SP against one hit of the last resolution (F13)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    hit: str
    sp: dict[str, int] = field(default_factory=dict)
    why: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Binding:
    """F22: binding someone else's legendary item the actor holds, for one creation point
    ([F:L358] "This binding requires the character to sacrifice one (and only one) character
    creation point"): `sacrifice` names a skill, a Trait or `floating`; None, a banked CC."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    item: str
    sacrifice: str | None = None


@dataclass(frozen=True, slots=True)
class Order:
    """Everything one actor declares for a turn (F29)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    actor: str
    actions: tuple[Action, ...] = ()
    guard: tuple[Pledge, ...] = ()
    reduce: tuple[Reduction, ...] = ()
    #: spend 1 Tireless SP to act while Incapacitated (F10 Amb-7)
    endure: bool = False
    intent: str | None = None
    ooc: str | None = None
    #: an explicit "no action this turn" (the service's pass)
    passed: bool = False
    #: legendary items bound by this post (F22), done by the service as the turn resolves
    bind: tuple[Binding, ...] = ()
    #: the player's case for mixing a concentration action with others (F8 "unless the player
    #: can make a good case"), for the GM to accept (`concentration_ok`) or refuse
    good_case: str | None = None


@dataclass(slots=True, kw_only=True)
class PendingHit:
    """A hit of the last resolution, still provisional until its target's next post (F13).

    Made by the thousand in a turn, so not frozen (`results`): never changed once made."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    id: str
    target: str
    attacker: str | None = None
    weapon: str | None = None
    levels: Annotated[int, Ge(0)]
    specials: tuple[str, ...] = ()
    #: attack, tick (Fire, Transfix, poison, exposure), ripout, removal, self (lightsword), sheath
    source: str = "attack"
    #: the turn the hit was dealt
    turn: int | None = None

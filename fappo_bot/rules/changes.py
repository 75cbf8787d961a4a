"""What a resolution changes, collected while actions resolve and applied once at the end
(RULINGS F7 steps 5-7; P2: nothing changes the snapshot while the turn resolves)."""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.rules.character import Status, StatusKind, Weapon
from fappo_bot.rules.orders import PendingHit
from fappo_bot.rules.results import Event


@dataclass
class Changes:
    """Every change of one resolution, by character name."""

    hits: list[PendingHit] = field(default_factory=list)
    add_status: dict[str, list[Status]] = field(default_factory=dict)
    drop_status: dict[str, list[tuple[StatusKind, str | None]]] = field(default_factory=dict)
    positions: dict[str, int] = field(default_factory=dict)
    wielding: dict[str, str] = field(default_factory=dict)
    lose_weapon: dict[str, list[str]] = field(default_factory=dict)
    gain_weapon: dict[str, list[Weapon]] = field(default_factory=dict)
    #: shields destroyed (a Dismemberment aimed at the shield, F18.8)
    lose_shield: set[str] = field(default_factory=set)
    eliminated: dict[str, int] = field(default_factory=dict)
    ammo: dict[str, int] = field(default_factory=dict)
    corrode: dict[str, int] = field(default_factory=dict)
    vaporize: set[str] = field(default_factory=set)
    #: levels healed at once by spells (F14 Amb-9)
    heal: dict[str, int] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    #: characters whose fire was put out this turn (no tick, F18.4 Amb-1)
    extinguished: set[str] = field(default_factory=set)
    #: Dying characters attended for a full turn, or stabilized by the 2-SP route (F15)
    attended: set[str] = field(default_factory=set)
    stabilized: set[str] = field(default_factory=set)
    #: bleeding wounds tended this turn, toward the 60 turns of binding (F18.2)
    bound: set[str] = field(default_factory=set)
    #: casters who carried a multi-turn cast on this turn (F24 Amb-5)
    concentrating: set[str] = field(default_factory=set)
    #: sniper steadying: name -> target steadied on this turn (F19 Amb-6)
    aiming: dict[str, str | None] = field(default_factory=dict)

    #: levels of this resolution's hits per target (filled by `index_hits`)
    levels_on: dict[str, int] = field(default_factory=dict)

    def index_hits(self) -> None:
        """Sum the levels of the hits per target once, for applying them."""
        levels_on: dict[str, int] = {}
        for hit in self.hits:
            target = hit.target
            levels_on[target] = levels_on.get(target, 0) + hit.levels
        self.levels_on = levels_on

    def status(self, name: str, status: Status) -> None:
        """A status in force from the next turn."""
        self.add_status.setdefault(name, []).append(status)

    def clear(self, name: str, kind: StatusKind, item: str | None = None) -> None:
        """End a status (all of that kind, or the one holding `item`) from the next turn."""
        self.drop_status.setdefault(name, []).append((kind, item))

    def event(self, kind: str, character: str, detail: str = "", levels: int = 0) -> None:
        """Record something that happened besides action results."""
        self.events.append(Event(kind, character, detail, levels))

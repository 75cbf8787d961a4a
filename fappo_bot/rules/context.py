"""The snapshot a turn resolves against (RULINGS P2, F7 step 5): characters after step 2, the
valid orders, the GM inputs and the lookups every action needs."""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.rules.character import Character, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import Trait
from fappo_bot.rules.defense import (
    PledgeLine,
    effective_skill,
    fallback_defense,
    trained_defense,
)
from fappo_bot.rules.health import dead_or_out
from fappo_bot.rules.names import Roster, fold
from fappo_bot.rules.orders import ANY, Action, ActionKind, Order
from fappo_bot.rules.results import GMInputs
from fappo_bot.rules.spending import canonical

AWARENESS_SKILLS = frozenset({"stealth", "pickpocket"})
"""Skills a `watch` action's AP defend against (F9: "be watchful")."""


@dataclass
class Turn:
    """The single snapshot of turn N (P2) and the valid orders, by character name."""

    number: int
    config: RulesConfig
    gm: GMInputs
    chars: dict[str, Character]
    orders: dict[str, Order]
    in_combat: bool = True
    _roster: Roster | None = None
    _actors: list[str] = field(default_factory=list)
    _flags: dict[str, tuple[bool, bool]] = field(default_factory=dict)
    _trained: dict[tuple[str, bool], int] = field(default_factory=dict)
    _defends: dict[str, list[Action]] = field(default_factory=dict)
    _skills: dict[tuple[str, str, str], int] = field(default_factory=dict)
    _defend: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._actors = sorted(self.orders, key=fold)

    def actors(self) -> list[str]:
        """The names of the characters with a valid order, in the fixed order every loop over
        actions follows (case-folded name, F7: nothing depends on the order of posting)."""
        return self._actors

    def _flag(self, name: str) -> tuple[bool, bool]:
        found = self._flags.get(name)
        if found is None:
            found = dead_or_out(self.chars[name], self.config)
            self._flags[name] = found
        return found

    def dead(self, name: str) -> bool:
        """Dead (or vaporized) at the snapshot (cached for the turn)."""
        return self._flag(name)[0]

    def unconscious(self, name: str) -> bool:
        """Unable to react at the snapshot: defense 1 (F6 Amb-6; cached for the turn)."""
        return self._flag(name)[1]

    def base_defense(self, defender: str, skill: str | None, attacker: str) -> int:
        """max(highest attack skill - 1, fallback) against one attacker (F5), cached: it depends
        on the attacker only through the prone penalty (F18.9)."""
        prone = self.chars[attacker].has_status(StatusKind.PRONE)
        key = (defender, prone)
        trained = self._trained.get(key)
        if trained is None:
            trained = trained_defense(self.chars[defender], self.config,
                                      attacker=self.chars[attacker])
            self._trained[key] = trained
        return max(trained, fallback_defense(self.chars[defender], skill))

    def find(self, name: str | None) -> Character | None:
        """The snapshot character a written name means (exact or unique prefix)."""
        if name is None:
            return None
        if name in self.chars:
            return self.chars[name]
        if self._roster is None:  # built on the first name that is not written exactly
            self._roster = Roster(self.chars.values())
        found = self._roster.get(name)
        return self.chars.get(found.name) if found is not None else None

    def order_of(self, name: str) -> Order | None:
        """The valid order of a character, if it posted one."""
        return self.orders.get(name)

    def defend_actions(self, defender: str) -> list[Action]:
        """The defender's defend actions that come to pass (F5 Amb-3, F9 Amb-5)."""
        found = self._defends.get(defender)
        if found is None:
            order = self.orders.get(defender)
            found = [] if order is None else [
                a for a in order.actions if a.kind is ActionKind.DEFEND and a.effective_now
            ]
            self._defends[defender] = found
        return found

    def skill_value(self, actor: Character, skill: str, opponent: Character | None) -> int:
        """`effective_skill` against an opponent, cached for the turn: it depends on the
        opponent only through whether he is prone (F18.9)."""
        if opponent is None:
            stance = "none"
        else:
            stance = "prone" if opponent.has_status(StatusKind.PRONE) else "standing"
        key = (actor.name, skill, stance)
        found = self._skills.get(key)
        if found is None:
            found = effective_skill(actor, skill, opponent=opponent)
            self._skills[key] = found
        return found

    def defend_ap(self, defender: str, attacker: str) -> tuple[int, int]:
        """(AP, modifier) of the defender's defense that apply against `attacker` (F5 Amb-3)."""
        if not self.defend_actions(defender):
            return 0, 0
        found = self._defend.get((defender, attacker))
        if found is None:
            found = self._defend_ap(defender, attacker)
            self._defend[(defender, attacker)] = found
        return found

    def _defend_ap(self, defender: str, attacker: str) -> tuple[int, int]:
        ap = modifier = 0
        for action in self.defend_actions(defender):
            scope = action.against
            if scope is None or fold(scope) in {ANY, "all"} or self._same(scope, attacker):
                ap += max(0, action.ap or 0)
                modifier += action.modifier
        return ap, modifier

    def total_defend_ap(self, defender: str) -> int:
        """All defense AP of a character this turn (lightsword deflection capacity, F17)."""
        return sum(max(0, a.ap or 0) for a in self.defend_actions(defender))

    def watch_ap(self, defender: str) -> int:
        """AP put into `watch` (F9): added to awareness defenses."""
        order = self.orders.get(defender)
        if order is None:
            return 0
        return sum(
            max(0, a.ap or 0)
            for a in order.actions
            if a.kind is ActionKind.WATCH and a.effective_now
        )

    def deflects(self, defender: Character) -> int:
        """Lightsword-as-shield capacity: an Uncanny wielder's defense AP (F17 Amb-7)."""
        weapon = defender.weapon()
        if weapon is None or not weapon.uncanny_only_specials:
            return 0
        if not defender.owns(Trait.UNCANNY) or defender.has_status(StatusKind.DISARMED):
            return 0
        return self.total_defend_ap(defender.name)

    def pledges(self, defender: Character) -> list[PledgeLine]:
        """The defender's Guard lines as matching needs them (F5; fodder only by config)."""
        order = self.orders.get(defender.name)
        if order is None or (defender.is_fodder and not self.config.fodder_can_pledge):
            return []
        out: list[PledgeLine] = []
        for i, pledge in enumerate(order.guard):
            levels = sum(canonical(pledge.sp).values())
            if levels <= 0:
                continue
            against = None if pledge.general else self._canonical(pledge.against)
            out.append(PledgeLine(i, against, levels))
        return out

    def moves_of(self, name: str) -> list[Action]:
        """Moves a character makes this turn."""
        order = self.orders.get(name)
        if order is None:
            return []
        return [a for a in order.actions if a.kind is ActionKind.MOVE and a.effective_now]

    def _same(self, written: str, name: str) -> bool:
        return self._canonical(written) == name

    def _canonical(self, written: str) -> str:
        found = self.find(written)
        return found.name if found is not None else written

"""The snapshot a turn resolves against (RULINGS P2, F7 step 5): characters after step 2, the
valid orders, the GM inputs and the lookups every action needs."""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field

from fappo_bot.rules.character import Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.defense import PledgeLine
from fappo_bot.rules.facts import Facts, Fighter
from fappo_bot.rules.names import Roster, fold
from fappo_bot.rules.orders import GENERAL, Action, ActionKind, Order
from fappo_bot.rules.results import GMInputs
from fappo_bot.rules.spending import canonical
from fappo_bot.rules.traits import BUILT_IN, TraitCatalogue

_NONE: list[Action] = []  # no defend actions (never changed)

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
    #: the characters' facts as validation learnt them (a fresh cache without it)
    shared: InitVar[Facts | None] = None
    #: the game's Traits: the Suggested Trait of a skill (`TraitCatalogue.suggested`, F2)
    traits: TraitCatalogue = BUILT_IN
    facts: Facts = field(init=False)
    #: each snapshot character's facts by name (`facts.of(chars[name])`, looked up once)
    fighters: dict[str, Fighter] = field(init=False)
    _roster: Roster | None = None
    _actors: list[str] = field(default_factory=list)
    _defends_all: dict[str, list[Action]] | None = None
    _defend: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    _by_kind: dict[ActionKind, list[tuple[str, int, Action]]] | None = None

    def __post_init__(self, shared: Facts | None) -> None:
        self._actors = sorted(self.orders, key=fold)
        self.facts = shared if shared is not None else Facts(self.config)
        of = self.facts.of
        self.fighters = {name: of(character) for name, character in self.chars.items()}

    def actors(self) -> list[str]:
        """The names of the characters with a valid order, in the fixed order every loop over
        actions follows (case-folded name, F7: nothing depends on the order of posting)."""
        return self._actors

    def actions_of(self, kind: ActionKind) -> list[tuple[str, int, Action]]:
        """(actor, index, action) of every valid action of one kind, in the order of `actors`
        then of the order: one pass over the turn's actions indexes them all by kind, so each
        stage visits only its own actions."""
        if self._by_kind is None:
            index: dict[ActionKind, list[tuple[str, int, Action]]] = {}
            for name in self._actors:
                for i, action in enumerate(self.orders[name].actions):
                    of = action.kind
                    found = index.get(of)
                    if found is None:
                        index[of] = [(name, i, action)]
                    else:
                        found.append((name, i, action))
            self._by_kind = index
        return self._by_kind.get(kind, [])

    def dead(self, name: str) -> bool:
        """Dead (or vaporized) at the snapshot (cached for the turn)."""
        return self.fighters[name].dead

    def unconscious(self, name: str) -> bool:
        """Unable to react at the snapshot: defense 1 (F6 Amb-6; cached for the turn)."""
        return self.fighters[name].unconscious

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

    def defend_actions(self, defender: str) -> list[Action]:
        """The defender's defend actions that come to pass (F5 Amb-3, F9 Amb-5)."""
        if self._defends_all is None:  # one pass over the turn's defend actions
            self._defends_all = {}
            for name, _, action in self.actions_of(ActionKind.DEFEND):
                if action.effective_now:
                    self._defends_all.setdefault(name, []).append(action)
        return self._defends_all.get(defender, _NONE)

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
            if scope is None or fold(scope) in GENERAL or self._same(scope, attacker):
                given = action.ap  # max(0, ap or 0) without the call (a slow builtin)
                ap += given if given is not None and given > 0 else 0
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
        if not self.facts.deflects_with(defender):
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

"""A turn's results as data: what the `results` and `results_private` outbox messages carry
(`notices.Results.blocks`), so that each adapter words them its own way
(`fappo_bot.render.results`, overridable per adapter).

A block is one thing a reader is told: an action as its player wrote it (the skill, the task, the
target, the direction) with its numbers and what moved its level (the SP spent, a Guard), the
defences it answered folded in; a refused order; where a character stands (its health and the
hits still open to a Reduce line, named as a player names them); something else that happened;
an Xp line. Names are data here, as the users wrote them: the renderer makes them inert.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field

from fappo_bot.posting.scene import hit_name
from fappo_bot.rules import (
    ELIMINATION,
    Action,
    ActionKind,
    ActionResult,
    Order,
    PendingHit,
    SuccessLevel,
    TargetResult,
    TurnResult,
    chart,
    level_name,
)

# Plain slotted classes, not pydantic models: a turn of a thousand entries makes thousands of
# blocks, and their values are the rules' own results, already of the right types. Immutable
# by convention (not frozen: a frozen dataclass sets each field through `object.__setattr__`).
# Pydantic reads and writes them only at the boundary, as the fields of `notices.Results`
# (the outbox payload; `notices.read`). Keyword-only, so each block's `type`, the union's
# discriminator, can come first with its default, as it did in the payload's JSON. A payload
# with a field this version does not know is refused, as the models refused it (`_STRICT`).
# Each writes its own JSON value (`as_json`, the fields in their order, as pydantic's dump
# writes them): pydantic's dump of thousands of blocks, field by field against their schema,
# was the slower (`tests/service/test_results_payload.py` holds the two the same).
_STRICT = ConfigDict(extra="forbid")


@dataclass(slots=True, kw_only=True)
class TargetLine:
    """One creature of an area attack or of a spell's attack stage."""

    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    name: str
    total: int | None = None
    difficulty: int | None = None
    #: the chart's level for the margin, before SP and Guard moved it (level labels)
    base: str | None = None
    level: str | None = None
    guard: int = 0
    damage: int = 0
    specials: tuple[str, ...] = ()
    eliminated: int = 0
    effective: bool = True

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "difficulty": self.difficulty,
                "base": self.base, "level": self.level, "guard": self.guard,
                "damage": self.damage, "specials": list(self.specials),
                "eliminated": self.eliminated, "effective": self.effective}


@dataclass(slots=True, kw_only=True)
class Defence:
    """A defence that answered an attack (folded into it); `ap`: None when hidden."""

    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    name: str
    ap: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "ap": self.ap}


@dataclass(slots=True, kw_only=True)
class ActionLine:
    """One action and what it did."""

    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    type: Literal["action"] = "action"
    actor: str
    kind: str
    #: the actor is a group (goblins attack, a goblin attacks)
    group: bool = False
    #: as the player wrote them
    skill: str | None = None
    task: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    weapon: str | None = None
    spell: str | None = None
    item: str | None = None
    ranges: int | None = None
    toward: str | None = None
    away: str | None = None
    #: the condition of a conditional action, as written
    condition: str | None = None
    #: the numbers (None when the allocations are hidden or there is no roll)
    total: int | None = None
    difficulty: int | None = None
    base: str | None = None
    level: str | None = None
    #: the SP spent on the roll, by pool (empty when hidden)
    sp: dict[str, int] = field(default_factory=dict)
    #: the levels a Guard took off it
    guard: int = 0
    damage: int = 0
    specials: tuple[str, ...] = ()
    eliminated: int = 0
    effective: bool = True
    shield: bool = False
    notes: tuple[str, ...] = ()
    creatures: tuple[TargetLine, ...] = ()
    #: the defences of its target that answered it
    defences: tuple[Defence, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "type": self.type, "actor": self.actor, "kind": self.kind, "group": self.group,
            "skill": self.skill, "task": self.task, "target": self.target,
            "targets": list(self.targets), "weapon": self.weapon, "spell": self.spell,
            "item": self.item, "ranges": self.ranges, "toward": self.toward,
            "away": self.away, "condition": self.condition, "total": self.total,
            "difficulty": self.difficulty, "base": self.base, "level": self.level,
            "sp": dict(self.sp), "guard": self.guard, "damage": self.damage,
            "specials": list(self.specials), "eliminated": self.eliminated,
            "effective": self.effective, "shield": self.shield, "notes": list(self.notes),
            "creatures": [c.as_json() for c in self.creatures],
            "defences": [d.as_json() for d in self.defences]}


@dataclass(slots=True, kw_only=True)
class Refusal:
    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    type: Literal["refusal"] = "refusal"
    actor: str
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"type": self.type, "actor": self.actor, "message": self.message}


@dataclass(slots=True, kw_only=True)
class HitLine:
    """A hit still open to a Reduce line: its attacker and weapon name it (`id`: the old name
    a Reduce line still takes, kept for the GM's texts, never shown to players)."""

    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    id: str
    attacker: str | None = None
    weapon: str | None = None
    levels: int
    #: it counts creatures eliminated, not levels
    creatures: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "attacker": self.attacker, "weapon": self.weapon,
                "levels": self.levels, "creatures": self.creatures}


@dataclass(slots=True, kw_only=True)
class Standing:
    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    type: Literal["standing"] = "standing"
    name: str
    #: the level name, or for a group "N left" / "all eliminated"
    health: str
    hits: tuple[HitLine, ...] = ()
    statuses: tuple[str, ...] = ()
    #: its results this turn went to the parties only: no health shown
    withheld: bool = False

    def as_json(self) -> dict[str, Any]:
        return {"type": self.type, "name": self.name, "health": self.health,
                "hits": [h.as_json() for h in self.hits], "statuses": list(self.statuses),
                "withheld": self.withheld}


@dataclass(slots=True, kw_only=True)
class EventLine:
    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    type: Literal["event"] = "event"
    character: str
    kind: str
    detail: str = ""
    levels: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"type": self.type, "character": self.character, "kind": self.kind,
                "detail": self.detail, "levels": self.levels}


@dataclass(slots=True, kw_only=True)
class XpLine:
    """A line of an Xp turn's results (every roll with every die, `render_xp`)."""

    __pydantic_config__: ClassVar[ConfigDict] = _STRICT
    type: Literal["xp"] = "xp"
    text: str

    def as_json(self) -> dict[str, Any]:
        return {"type": self.type, "text": self.text}


Block = Annotated[ActionLine | Refusal | Standing | EventLine | XpLine,
                  Field(discriminator="type")]


# ---- from a resolution ----------------------------------------------------------------------------
#: each level's label and each kind's word, looked up (an enum's `name` and `value` are
#: descriptors, read for every one of thousands of lines)
_LABEL = {level: level.label for level in SuccessLevel}
_KINDS = {kind: kind.value for kind in ActionKind}


@cache
def _chart_label(margin: int) -> str:
    """The chart's label of a margin (`chart`), worked out once per margin."""
    return chart(margin).label


def _base(margin: int | None, level: object) -> str | None:
    return _chart_label(margin) if margin is not None and level is not None else None


def _target_line(t: TargetResult) -> TargetLine:
    return TargetLine(
        name=t.name, total=t.total, difficulty=t.difficulty, base=_base(t.margin, t.level),
        level=_LABEL[t.level] if t.level is not None else None, guard=t.pledged,
        damage=t.damage, specials=t.specials, eliminated=t.eliminated, effective=t.effective)


def _spent(action: Action | None) -> dict[str, int]:
    if action is None or action.sp_vetoed:  # a vetoed Trait's SP are refunded
        return {}
    if not action.attack_sp:
        return dict(action.sp)
    spent = dict(action.sp)
    for pool, points in action.attack_sp.items():
        spent[pool] = spent.get(pool, 0) + points
    return spent


def _action_line(result: ActionResult, a: Action | None, hidden: bool,
                 defences: tuple[Defence, ...], group: bool) -> ActionLine:
    target = result.target
    if a is None:
        skill = task = weapon = spell = item = toward = away = condition = None
        ranges: int | None = None
        targets: tuple[str, ...] = ()
    else:
        skill, task, weapon, spell, item = a.skill, a.task, a.weapon, a.spell, a.item
        ranges, toward, away, condition = a.ranges, a.toward, a.away, a.condition
        targets = tuple(a.targets) if a.targets else ()
        if result.kind == "move" and target is not None and target in (toward, away):
            target = None  # "moves 1 away from Goblins", not "moves Goblins"
        if result.kind == "defend" and target is None:
            target = a.against
    level = result.level
    return ActionLine(
        actor=result.actor, kind=result.kind, group=group, skill=skill, task=task,
        target=target, targets=targets, weapon=weapon, spell=spell, item=item, ranges=ranges,
        toward=toward, away=away, condition=condition, total=result.total,
        difficulty=result.difficulty, base=_base(result.margin, level),
        level=_LABEL[level] if level is not None else None,
        sp={} if hidden else _spent(a), guard=result.pledged, damage=result.damage,
        specials=result.specials, eliminated=result.eliminated, effective=result.effective,
        shield=result.shield, notes=result.notes,
        creatures=tuple(map(_target_line, result.targets)) if result.targets else (),
        defences=defences)


def _quiet_defence(result: ActionResult) -> bool:
    """A defence with nothing of its own to report: it shows in the attacks it answered."""
    return (result.kind == "defend" and result.total is None and result.effective
            and not result.notes and not result.damage and not result.specials)


def action_blocks(result: TurnResult, orders: Iterable[Order], masked: Collection[str] = ()
                  ) -> list[ActionLine]:
    """Every action of `result` named from its order in `orders`; the quiet defences folded
    into the attacks they answered (one no attack tested has nothing to report: it is left
    out); `masked` (case-folded): the characters whose allocations stay hidden (no AP, no
    SP)."""
    by_actor = {o.actor.casefold(): o for o in orders}
    results = result.actions
    actors = [r.actor.casefold() for r in results]  # each folded once

    def action_of(r: ActionResult, actor: str) -> Action | None:
        order = by_actor.get(actor)
        if order is None or not 0 <= r.index < len(order.actions):
            return None
        found = order.actions[r.index]
        return found if _KINDS[found.kind] == r.kind else None

    def hidden(r: ActionResult) -> bool:
        if not masked:
            return False
        names = {r.actor, *(t.name for t in r.targets), *([r.target] if r.target else [])}
        return any(n.casefold() in masked for n in names)

    own = [action_of(r, actor) for r, actor in zip(results, actors, strict=True)]
    quiet = [_quiet_defence(r) for r in results]
    attacks_on: dict[str, list[int]] = {}  # by the folded target: each defence looks once
    for i, r in enumerate(results):
        if r.kind in ("attack", "cast") and r.target:
            attacks_on.setdefault(r.target.casefold(), []).append(i)
    answered: dict[int, list[Defence]] = {}
    for d, actor, its, is_quiet in zip(results, actors, own, quiet, strict=True):
        if not is_quiet:
            continue
        attacks = attacks_on.get(actor)
        if not attacks:
            continue
        against = d.target or (its.against if its is not None else None)
        folded = against.casefold() if against is not None else None
        ap = None if actor in masked or its is None else its.ap
        for i in attacks:
            if folded is None or actors[i] == folded:
                answered.setdefault(i, []).append(Defence(name=d.actor, ap=ap))
    groups = {c.name.casefold() for c in result.state.characters if c.is_fodder}
    return [_action_line(r, own[i], hidden(r), tuple(answered.get(i, ())), actors[i] in groups)
            for i, r in enumerate(results) if not quiet[i]]


def _hit_line(hit: PendingHit) -> HitLine:
    return HitLine(id=hit.id, attacker=hit.attacker, weapon=hit.weapon,
                                   levels=hit.levels, creatures=hit.source == ELIMINATION)


def standing_blocks(result: TurnResult, shown: Collection[str] | None,
                    withheld: Collection[str] = ()) -> list[Standing]:
    """Where each character stands after `result` (`shown`: the case-folded names to show;
    None: every character of the scene), with the hits open to Reduce on it; a `withheld`
    character is listed without its health (its results went to the parties only)."""
    hits: dict[str, list[HitLine]] = {}
    for hit in result.hits:
        hits.setdefault(hit.target.casefold(), []).append(_hit_line(hit))
    config = result.state.config
    out: list[Standing] = []
    for character in result.state.characters:
        key = character.name.casefold()
        if shown is not None and key not in shown:
            continue
        if key in withheld:
            out.append(Standing(name=character.name, health="", withheld=True))
            continue
        if character.is_fodder:
            health = f"{character.count} left" if character.count else "all eliminated"
        else:
            health = level_name(character, config)
        out.append(Standing(
            name=character.name, health=health, hits=tuple(hits.get(key, ())),
            statuses=tuple(s.kind.value for s in character.statuses) if character.statuses
            else ()))
    return out


def turn_blocks(result: TurnResult, orders: Iterable[Order],
                audience: Collection[str] | None = None, masked: Collection[str] = (),
                withheld: Collection[str] = (), earlier: Sequence[PendingHit] = ()
                ) -> tuple[Block, ...]:
    """The blocks of a resolution: its actions, refusals, where things stand, and events.

    With an `audience` (a party's secret results, F29), only what concerns those characters:
    their actions and the actions aimed at them, their refusals, the characters those touched,
    and their events. Without, every action of `result` and every character of the scene;
    `withheld` (case-folded): the parties of orders whose results go to the parties only, whose
    standing the room is not told; `earlier`: the hits open at the start of the turn, named in
    the events that settle them (a Reduce made for an absent player) instead of by their ids."""
    wanted = None if audience is None else {n.casefold() for n in audience}
    actions = [a for a in action_blocks(result, orders, masked)
               if wanted is None or _concerns(a, wanted)]
    errors = [Refusal(actor=e.actor, message=e.message) for e in result.errors
              if wanted is None or e.actor.casefold() in wanted]
    shown: set[str] | None = None
    if wanted is not None:
        shown = set(wanted)
        for a in actions:
            shown.update(n.casefold() for n in _names(a))
    standing = standing_blocks(result, shown, withheld)
    listed = {s.name.casefold() for s in standing}
    named = {f"hit {h.id}": hit_name(h) for h in earlier}
    events = [EventLine(character=e.character, kind=e.kind,
                                        detail=_named(e.detail, named), levels=e.levels)
              for e in result.events if wanted is None or e.character.casefold() in listed]
    return (*actions, *errors, *standing, *events)


def _named(detail: str, named: dict[str, str]) -> str:
    if "hit " not in detail:
        return detail
    for key, name in named.items():
        detail = detail.replace(key, name)
    return detail


def _names(action: ActionLine) -> set[str]:
    return {action.actor, *(c.name for c in action.creatures),
            *([action.target] if action.target else [])}


def _concerns(action: ActionLine, wanted: set[str]) -> bool:
    return any(n.casefold() in wanted for n in _names(action))


def xp_blocks(lines: Sequence[str]) -> tuple[Block, ...]:
    return tuple(XpLine(text=line) for line in lines)


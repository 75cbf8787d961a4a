"""Checks of one action of an order: AP costs, names, forbidden skills, reach and ammo
(RULINGS F1, F2, F8, F16, F18, F19). Used by `validate.validate_order`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.data import AP_COSTS, special_by_name
from fappo_bot.rules.defense import skill_def
from fappo_bot.rules.facts import Facts, Fighter
from fappo_bot.rules.facts import weapon_skill as weapon_skill  # F19 Amb-1: the skill of a weapon
from fappo_bot.rules.magic import magic_mode_refusal
from fappo_bot.rules.names import (
    Match,
    Roster,
    fold,
    match_name,
    match_skill,
    match_weapon,
)
from fappo_bot.rules.orders import Action, ActionKind, Order
from fappo_bot.rules.ranges import distance, in_reach, move_cost
from fappo_bot.rules.results import ErrorCode, OrderError, TurnState, Where

# Enum members read through module aliases: on Python 3.11 `ActionKind.MOVE` goes through the
# enum metaclass's `__getattr__` hook, and this module reads them often enough in the benchmarks
# for that to show (`benchmarks/enum_reads.py`, docs/benchmarks.md).
_ATTACK = ActionKind.ATTACK
_CAST = ActionKind.CAST
_DEFEND = ActionKind.DEFEND
_DROP = ActionKind.DROP
_MOVE = ActionKind.MOVE
_READY = ActionKind.READY
_REMOVE = ActionKind.REMOVE
_RIPOUT = ActionKind.RIPOUT
_SKILL = ActionKind.SKILL
_STOW = ActionKind.STOW
_SWITCH = ActionKind.SWITCH
_IN_ACTION = Where.ACTION

#: minimum AP of each kind (F8 table); remove depends on what is embedded
_MIN_AP: dict[ActionKind, int] = {
    ActionKind.DROP: 0,
    ActionKind.SWITCH: AP_COSTS["switch"],
    ActionKind.STAND: AP_COSTS["stand"],
    ActionKind.RIPOUT: AP_COSTS["ripout"],
}
_EMBED_COST: dict[StatusKind, int] = {
    StatusKind.IMPALED: AP_COSTS["remove_impale"],
    StatusKind.BARBED: AP_COSTS["remove_barbed"],
    StatusKind.TRANSFIXED: AP_COSTS["remove_transfix"],
}
EMBEDDED = tuple(_EMBED_COST)
_CONCENTRATION_KINDS = frozenset({ActionKind.TEND, ActionKind.AIM})


@dataclass(slots=True)
class ActionCheck:
    """What validation learnt of one action (the `index`th of `actor`'s order): its AP, Ranges
    moved and its problems."""

    actor: str
    index: int
    ap: int
    ranges: int = 0
    frozen_forbidden: bool = False
    errors: list[OrderError] = field(default_factory=list)

    def error(self, code: ErrorCode, message: str, words: str, expected: str, hint: str,
              candidates: tuple[str, ...] = ()) -> None:
        """Record a problem of the action."""
        self.errors.append(OrderError(
            actor=self.actor, code=code, message=message, where=_IN_ACTION, index=self.index,
            words=words, expected=expected, hint=hint, candidates=candidates,
        ))

    def name_error(self, found: Match, what: str, expected: str) -> None:
        """Record a name that matched nothing, or several things."""
        code = ErrorCode.AMBIGUOUS_NAME if found.ambiguous else ErrorCode.UNKNOWN_NAME
        if found.ambiguous:
            message = f"'{found.query}' could be {', '.join(found.candidates)}."
            hint = "Write the full name."
        else:
            message = f"'{found.query}' is no {what}."
            hint = f"Use {expected}."
        self.error(code, message, found.query, expected, hint, found.candidates)


def move_ranges(action: Action) -> int:
    """Ranges a move covers: given, else AP + 1, else the free 1 (F16 amendment)."""
    if action.ranges is not None:
        ranges = action.ranges
        return ranges if ranges > 0 else 0  # max(0, ranges), without the call
    if action.ap is not None:
        return action.ap + 1
    return 1


def action_ap(action: Action) -> int:
    """AP an action allocates (a move without AP costs Ranges - 1)."""
    if action.kind is _MOVE and action.ap is None:
        return move_cost(move_ranges(action))
    ap = action.ap
    return ap if ap is not None and ap > 0 else 0  # max(0, ap or 0), without the call


def order_ap_costs(actions: Sequence[Action]) -> list[int]:
    """AP each action of an order costs, in declared order. "A character can move one Range per
    turn without penalty" [F:L225]: the free Range goes to the first move, so every later move pays
    for all of its Ranges (F16, F8)."""
    costs: list[int] = []
    free_range_used = False
    for action in actions:
        cost = action_ap(action)
        if action.kind is _MOVE:
            if free_range_used:
                cost = move_ranges(action)
            free_range_used = True
        costs.append(cost)
    return costs


def embedded_status(character: Character, item: str | None) -> StatusKind | None:
    """The kind of the impale-type status holding `item` (or the only one, with no item)."""
    found = [s for s in character.statuses if s.kind in EMBEDDED]
    if item is not None:
        found = [s for s in found if s.item is None or fold(s.item) == fold(item)]
    return found[0].kind if found else None


def min_ap(action: Action, actor: Character) -> int:
    """The least AP an action needs (F8 Amb-1: every action but drop needs 1)."""
    if action.kind is _MOVE:
        return move_cost(move_ranges(action))
    if action.kind is _REMOVE:
        kind = embedded_status(actor, action.item)
        return _EMBED_COST.get(kind, 1) if kind is not None else 1
    return _MIN_AP.get(action.kind, 1)


_CONC_KEYS = ("conc_2turns", "conc_minute", "conc_hour", "conc_day")


def is_concentration(action: Action, actor: Character | None = None) -> bool:
    """F8 Amb-3: concentration skills, attending the Dying, sniper steadying, and casts that take
    turns of concentration (F24 Amb-5), inline or learned (the actor's spell's effects)."""
    if action.kind in _CONCENTRATION_KINDS:
        return True
    if action.kind is _SKILL and action.skill:
        definition = skill_def(action.skill)
        if definition is None and actor is not None:  # a prefix or typo of a rulebook skill
            found = match_skill(actor, action.skill).name
            definition = skill_def(found) if found is not None else None
        return definition is not None and definition.concentration
    if action.kind is _CAST:
        effects = action.effects
        if not effects and actor is not None and action.spell:
            spell = next((s for s in actor.spells if fold(s.name) == fold(action.spell)), None)
            effects = spell.effects if spell is not None else None
        if not effects:
            return False
        return any(effects.get(k) for k in _CONC_KEYS)
    return False


def check_action(
    state: TurnState, actor: Character, order: Order, index: int, action: Action, able: bool,
    roster: Roster | None = None, facts: Facts | None = None, me: Fighter | None = None,
) -> ActionCheck:
    """Every problem of one action (codes of spec/cases.md). `me` may carry the actor's facts
    (`facts.of(actor)`) when the caller has them."""
    # the problems go through the check's methods, not closures: this runs for every action of
    # every post and resolution, and closures cost as much as the rest of a typical action's check
    check = ActionCheck(actor.name, index, action_ap(action))
    names = roster or Roster(state.characters)
    if me is None:
        me = (facts or Facts(state.config)).of(actor)

    kind = action.kind
    if kind is _MOVE:
        check.ranges = move_ranges(action)
        if action.ap is not None and action.ranges is not None and action.ap != action.ranges - 1:
            check.error(ErrorCode.AP_MISMATCH,
                        f"Moving {action.ranges} Ranges costs {max(0, action.ranges - 1)} AP, "
                        f"not {action.ap} (the first Range is free).",
                        f"{action.ap} AP", f"{max(0, action.ranges - 1)} AP",
                        "Give either the Ranges or the AP; the other follows [F:L225].")
    if able and kind is not _MOVE:  # a move's AP follow from its Ranges
        need = min_ap(action, actor) if kind is _REMOVE else _MIN_AP.get(kind, 1)
        given = check.ap
        if given < need:
            check.error(
                ErrorCode.AP_REQUIRED,
                f"{kind.value.capitalize()} needs at least {need} AP; {given} given.",
                f"{given} AP", f"{need} AP or more",
                "Put AP on the action; only dropping and a 1-Range move are free [F:L78-82].",
            )
    if action.toward is not None:
        _scene_character(check, names, action.toward)
    if action.away is not None:
        _scene_character(check, names, action.away)
    target = None if action.target is None else _scene_character(check, names, action.target)
    for name in action.targets or ():
        _scene_character(check, names, name)
    for name in action.also:
        _scene_character(check, names, name)
    if kind is _DEFEND and action.against and fold(action.against) not in {"any", "all"}:
        _scene_character(check, names, action.against)
    for special in (action.special, action.invoke):
        if special is None or special_by_name(special) is not None:
            continue
        check.error(ErrorCode.UNKNOWN_NAME, f"'{special}' is not a Special.", special,
                    "one of the 16 Specials (Bleeding, Knockdown...)",
                    "Name a Special of the weapon [F:L247-262].")

    skill: str | None = None
    weapon: Weapon | None = None
    if kind is _ATTACK:
        arm = me.arm(action.weapon, action.skill, state.config)
        weapon = arm.carried
        if weapon is None and arm.found is not None:
            check.name_error(arm.found, f"weapon {actor.name} carries", "one of your weapons")
        skill = action.skill
        if weapon is not None:
            skill = arm.named  # the skill named, else the weapon's
            if skill is None:
                check.error(
                    ErrorCode.SKILL_REQUIRED,
                    f"The {weapon.name} has no skill of its own: the GM decides which one it uses.",
                    weapon.name, "the skill named: 'using SKILL'",
                    f"Add 'using' and the skill, as in 'attack {action.target or 'X'} with "
                    f"{weapon.name} using Swordfighting' [F:L305-308].",
                )
            weapon = arm.weapon  # as the attack uses it (`Weapon.used_with`)
        if (target is None and not action.targets and not action.conditional
                and action.target is None):
            check.error(ErrorCode.UNKNOWN_NAME, "The attack names no target.", "attack",
                        "a target's name", "Say whom you attack.")
        # a conditional's target is the GM's to name: out of reach, only that action is void
        # when it resolves (F7 Amb-6 amendment), never the whole order
        if (weapon is not None and target is not None and not action.conditional
                and not reachable(order, actor, target, weapon)):
            check.error(
                ErrorCode.OUT_OF_RANGE,
                f"{target.name} is {distance(actor, target)} Range(s) away, beyond the reach of "
                f"the {weapon.name}.",
                target.name, "a target within reach, or a move toward it this turn",
                "Add a move toward the target, or use a ranged weapon [F:L221-225].",
            )
        if weapon is not None and weapon.ammo_cost and actor.ammo is not None:
            spent = _ammo_before(order, me, index) + weapon.ammo_cost
            if spent > actor.ammo:
                check.error(ErrorCode.NO_AMMO,
                            f"The {weapon.name} needs {weapon.ammo_cost} ammo; the battery has "
                            f"{max(0, actor.ammo - spent + weapon.ammo_cost)} left.",
                            weapon.name, f"ammo {weapon.ammo_cost} or more",
                            "Pick a lower setting or recharge [F:L320].")
    elif kind is _SKILL:
        skill = action.skill
        if skill is None:
            check.error(ErrorCode.UNKNOWN_NAME, "The skill action names no skill.", "skill",
                        "a skill name", "Name the skill you use.")
    elif kind is _CAST:
        skill = "Spellcasting"
        if action.spell is not None and not action.effects:
            found = match_name(action.spell, [s.name for s in actor.spells])
            if not found.ok:
                check.name_error(found, f"spell {actor.name} has learned", "a learned spell")
        elif action.spell is None and not action.effects:
            check.error(ErrorCode.UNKNOWN_NAME, "The cast names no spell and no effects.", "cast",
                        "a learned spell or inline effects", "Name the spell.")
        refused = magic_mode_refusal(state.config.magic_mode, not action.effects)  # F26 Amb-3
        if refused is not None and (action.spell is not None or action.effects):
            check.error(ErrorCode.SKILL_FORBIDDEN, refused[0], action.spell or "cast",
                        f"a cast this game's magic_mode ({state.config.magic_mode.value}) allows",
                        refused[1])
    elif kind in (_READY, _STOW, _DROP, _SWITCH):
        if action.item is not None and not _holds(actor, action.item):
            found, _ = match_weapon(actor, action.item)
            check.name_error(found, f"item {actor.name} has", "a weapon you carry, or 'shield'")
    elif kind in (_REMOVE, _RIPOUT):
        patient = target or actor
        if embedded_status(patient, action.item) is None:
            check.error(ErrorCode.UNKNOWN_NAME,
                        f"No weapon{' ' + repr(action.item) if action.item else ''} is stuck in "
                        f"{patient.name}.", action.item or kind.value, "an impaling weapon",
                        "Only Impale, Barbed and Transfix leave a weapon to remove [F:L258-260].")

    if skill is not None:
        known = me.skills_ok.get(skill)  # a skill the actor may use, checked once a turn
        if known is None:
            before, written = len(check.errors), skill
            skill = _check_skill(actor, written, check)
            if len(check.errors) == before and skill is not None:
                me.skills_ok[written] = skill
        else:
            skill = known
    check.frozen_forbidden = me.frozen and not (
        skill is not None and fold(skill) == "wrestling" and kind in (_ATTACK,
                                                                       _SKILL)
    )
    return check


def _check_skill(actor: Character, skill: str, check: ActionCheck) -> str | None:
    """The skill's name as the rules know it, after checking it exists and is allowed (F1 Amb-6,
    F2: "Characters without Uncanny or Fantastical may not buy or use" those skills)."""
    definition = skill_def(skill)  # a rulebook skill: what `match_skill` finds first
    name = definition.name if definition is not None else None
    if definition is None:
        found = match_skill(actor, skill)
        if not found.ok:
            check.name_error(found, "skill", "a skill of the rulebook or of your sheet")
            return skill
        name = found.name
        definition = skill_def(name or "")
    restricted = definition.restricted_by if definition else None
    if restricted is not None and not actor.owns(restricted):
        check.error(ErrorCode.SKILL_FORBIDDEN,
                    f"{name} needs the {restricted.value} Trait, which {actor.name} lacks.",
                    name or skill, f"a character with {restricted.value}",
                    "Characters without Uncanny or Fantastical may not use those skills [F:L158].")
    return name


def _scene_character(check: ActionCheck, names: Roster, name: str | None) -> Character | None:
    """The character of the scene a name means, else None (and a problem if a name was given)."""
    if name is None:
        return None
    found = names.get(name)
    if found is None:
        check.name_error(names.match(name), "character of this scene", "a character's name")
    return found


def _holds(actor: Character, item: str) -> bool:
    key = fold(item)
    if key == "shield":
        return True
    if any(fold(w.name) == key for w in actor.weapons):
        return True
    return any(s.item is not None and fold(s.item) == key for s in actor.statuses)


def reachable(order: Order, actor: Character, target: Character, weapon: Weapon) -> bool:
    """A melee strike needs the target within reach, or a move toward it this turn (F16)."""
    d = distance(actor, target)
    if in_reach(weapon, d):
        return True
    for action in order.actions:
        if action.kind is _MOVE and action.toward is not None:
            if fold(action.toward) == fold(target.name) or target.name.casefold().startswith(
                fold(action.toward)
            ):
                return move_ranges(action) + weapon.reach >= d
    return False


def _ammo_before(order: Order, actor: Fighter, index: int) -> int:
    spent = 0
    for action in order.actions[:index]:
        if action.kind is _ATTACK:
            _, weapon = actor.attack_weapon(action.weapon)
            if weapon is not None:
                spent += weapon.ammo_cost
    return spent


"""Checks of one action of an order: AP costs, names, forbidden skills, reach and ammo
(RULINGS F1, F2, F8, F16, F18, F19). Used by `validate.validate_order`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import AP_COSTS, RangeClass, Trait, special_by_name
from fappo_bot.rules.defense import skill_def
from fappo_bot.rules.facts import Fighter
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
from fappo_bot.rules.ranges import in_reach, move_cost, ranges_apart
from fappo_bot.rules.results import ErrorCode, OrderError, TurnState, Where

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


@dataclass(slots=True, init=False)
class ActionCheck:
    """What validation learnt of one action (the `index`th of `actor`'s order): its AP, Ranges
    moved and its problems."""

    actor: str
    index: int
    ap: int
    ranges: int
    frozen_forbidden: bool
    errors: list[OrderError]

    def __init__(self, actor: str, index: int, ap: int, ranges: int = 0) -> None:
        # written out rather than made by `dataclass`: its `__init__` calls a factory for the
        # list of problems, and every action of every order gets a check
        self.actor = actor
        self.index = index
        self.ap = ap
        self.ranges = ranges
        self.frozen_forbidden = False
        self.errors = []

    def error(self, code: ErrorCode, message: str, words: str, expected: str, hint: str,
              candidates: tuple[str, ...] = ()) -> None:
        """Record a problem of the action."""
        self.errors.append(OrderError(
            actor=self.actor, code=code, message=message, where=Where.ACTION, index=self.index,
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
    if action.kind is ActionKind.MOVE and action.ap is None:
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
        if action.kind is ActionKind.MOVE:
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


def _move_min_ap(action: Action, actor: Character) -> int:
    return move_cost(move_ranges(action))


def _removal_min_ap(action: Action, actor: Character) -> int:
    kind = embedded_status(actor, action.item)
    return _EMBED_COST.get(kind, 1) if kind is not None else 1


#: the least AP of the kinds whose minimum depends on the action (a move on its Ranges, a
#: removal on what is embedded); every other kind's is in `_MIN_AP`, else 1
_MIN_AP_OF: dict[ActionKind, Callable[[Action, Character], int]] = {
    ActionKind.MOVE: _move_min_ap,
    ActionKind.REMOVE: _removal_min_ap,
}


def min_ap(action: Action, actor: Character) -> int:
    """The least AP an action needs (F8 Amb-1: every action but drop needs 1)."""
    rule = _MIN_AP_OF.get(action.kind)
    return rule(action, actor) if rule is not None else _MIN_AP.get(action.kind, 1)


_CONC_KEYS = ("conc_2turns", "conc_minute", "conc_hour", "conc_day")


def _always(action: Action, actor: Character | None) -> bool:
    return True


def _skill_concentrates(action: Action, actor: Character | None) -> bool:
    if not action.skill:
        return False
    definition = skill_def(action.skill)
    if definition is None and actor is not None:  # a prefix or typo of a rulebook skill
        found = match_skill(actor, action.skill).name
        definition = skill_def(found) if found is not None else None
    return definition is not None and definition.concentration


def _cast_concentrates(action: Action, actor: Character | None) -> bool:
    effects = action.effects
    if not effects and actor is not None and action.spell:
        spell = next((s for s in actor.spells if fold(s.name) == fold(action.spell)), None)
        effects = spell.effects if spell is not None else None
    if not effects:
        return False
    return any(effects.get(k) for k in _CONC_KEYS)


#: the kinds of action that may need concentration, and whether this one does (F8 Amb-3)
_CONCENTRATION: dict[ActionKind, Callable[[Action, Character | None], bool]] = {
    ActionKind.TEND: _always,
    ActionKind.AIM: _always,
    ActionKind.SKILL: _skill_concentrates,
    ActionKind.CAST: _cast_concentrates,
}
MAY_CONCENTRATE = frozenset(_CONCENTRATION)
"""The kinds of action `is_concentration` may answer True for."""


def is_concentration(action: Action, actor: Character | None = None) -> bool:
    """F8 Amb-3: concentration skills, attending the Dying, sniper steadying, and casts that take
    turns of concentration (F24 Amb-5), inline or learned (the actor's spell's effects)."""
    rule = _CONCENTRATION.get(action.kind)
    return rule is not None and rule(action, actor)


def _move_ap_check(actor: Character, index: int, action: Action, cost: int,
                   able: bool) -> ActionCheck:
    """A move's AP follow from its Ranges: given both, they must agree (F16)."""
    check = ActionCheck(actor.name, index, cost, move_ranges(action))
    ap = action.ap
    if ap is not None and action.ranges is not None and ap != action.ranges - 1:
        check.error(ErrorCode.AP_MISMATCH,
                    f"Moving {action.ranges} {'Range' if action.ranges == 1 else 'Ranges'} "
                    f"costs {max(0, action.ranges - 1)} AP, "
                    f"not {ap} (the first Range is free).",
                    f"{ap} AP", f"{max(0, action.ranges - 1)} AP",
                    "Give either the Ranges or the AP; the other follows [F:L225].")
    return check


def _ap_check(actor: Character, index: int, action: Action, cost: int,
              able: bool) -> ActionCheck:
    """Any other action needs at least its kind's least AP (F8 Amb-1), when the actor can act."""
    check = ActionCheck(actor.name, index, cost)
    if able:
        need = min_ap(action, actor)
        if cost < need:
            check.error(
                ErrorCode.AP_REQUIRED,
                f"{action.kind.value.capitalize()} needs at least {need} AP; {cost} given.",
                f"{cost} AP", f"{need} AP or more",
                "Put AP on the action; only dropping and a 1-Range move are free "
                "[F:L78-82].",
            )
    return check


#: how an action's AP are checked, by kind (`_ap_check` for the kinds not listed)
_AP_CHECKS: dict[ActionKind, Callable[[Character, int, Action, int, bool], ActionCheck]] = {
    ActionKind.MOVE: _move_ap_check,
}


def check_action(
    state: TurnState, roster: Roster, actor: Character, me: Fighter, order: Order, index: int,
    action: Action, able: bool,
) -> ActionCheck:
    """Every problem of one action (codes of spec/cases.md); `roster` is the scene's index of
    names, `me` the actor's facts of the turn (`Facts.of(actor)`)."""
    # the problems go through the check's methods, not closures: this runs for every action of
    # every post and resolution, and a check that cannot apply is skipped on the field that
    # decides it (most actions name no Special, no second target, no `also`)
    kind = action.kind
    check = _AP_CHECKS.get(kind, _ap_check)(actor, index, action, action_ap(action), able)
    if action.toward is not None:
        _scene_character(check, roster, action.toward)
    if action.away is not None:
        _scene_character(check, roster, action.away)
    written = action.target
    target = None if written is None else _scene_character(check, roster, written)
    targets = action.targets
    if targets:
        for name in targets:
            _scene_character(check, roster, name)
    if action.also:
        for name in action.also:
            _scene_character(check, roster, name)
    if kind is ActionKind.DEFEND and action.against and fold(action.against) not in {"any", "all"}:
        _scene_character(check, roster, action.against)
    special = action.special
    if special is not None and special_by_name(special) is None:
        _unknown_special(check, special)
    special = action.invoke
    if special is not None and special_by_name(special) is None:
        _unknown_special(check, special)

    by_kind = _KIND_CHECKS.get(kind)
    skill = by_kind(state, actor, order, index, action, me, target, check) if by_kind else None
    if skill is not None:
        known = me.skills_ok.get(skill)  # a skill the actor may use, checked once a turn
        if known is None:
            before, written = len(check.errors), skill
            skill = _check_skill(actor, written, check)
            if len(check.errors) == before and skill is not None:
                me.skills_ok[written] = skill
        else:
            skill = known
    if me.frozen:
        check.frozen_forbidden = not (
            skill is not None and fold(skill) == "wrestling"
            and kind in (ActionKind.ATTACK, ActionKind.SKILL)
        )
    return check


def _attack_check(state: TurnState, actor: Character, order: Order, index: int, action: Action,
                  me: Fighter, target: Character | None, check: ActionCheck) -> str | None:
    return _check_attack(state.config, actor, order, index, action, me, target, check)


def _skill_check(state: TurnState, actor: Character, order: Order, index: int, action: Action,
                 me: Fighter, target: Character | None, check: ActionCheck) -> str | None:
    if action.skill is None:
        check.error(ErrorCode.UNKNOWN_NAME, "The skill action names no skill.", "skill",
                    "a skill name", "Name the skill you use.")
    return action.skill


def _cast_check(state: TurnState, actor: Character, order: Order, index: int, action: Action,
                me: Fighter, target: Character | None, check: ActionCheck) -> str | None:
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
    return "Spellcasting"


def _item_check(state: TurnState, actor: Character, order: Order, index: int, action: Action,
                me: Fighter, target: Character | None, check: ActionCheck) -> str | None:
    if action.item is not None and not _holds(actor, action.item):
        found, _ = match_weapon(actor, action.item)
        check.name_error(found, f"item {actor.name} has", "a weapon you carry, or 'shield'")
    return None


def _removal_check(state: TurnState, actor: Character, order: Order, index: int,
                   action: Action, me: Fighter, target: Character | None,
                   check: ActionCheck) -> str | None:
    patient = target or actor
    if embedded_status(patient, action.item) is None:
        check.error(ErrorCode.UNKNOWN_NAME,
                    f"No weapon{' ' + repr(action.item) if action.item else ''} is stuck in "
                    f"{patient.name}.", action.item or action.kind.value, "an impaling weapon",
                    "Only Impale, Barbed and Transfix leave a weapon to remove [F:L258-260].")
    return None


_KindCheck = Callable[
    [TurnState, Character, Order, int, Action, Fighter, Character | None, ActionCheck], str | None
]
#: the checks of each kind of action beyond names and AP, giving the skill it uses (defend and
#: move name characters only, checked by `check_action` itself)
_KIND_CHECKS: dict[ActionKind, _KindCheck] = {
    ActionKind.ATTACK: _attack_check,
    ActionKind.SKILL: _skill_check,
    ActionKind.CAST: _cast_check,
    ActionKind.READY: _item_check,
    ActionKind.STOW: _item_check,
    ActionKind.DROP: _item_check,
    ActionKind.SWITCH: _item_check,
    ActionKind.REMOVE: _removal_check,
    ActionKind.RIPOUT: _removal_check,
}


def _unknown_special(check: ActionCheck, special: str) -> None:
    check.error(ErrorCode.UNKNOWN_NAME, f"'{special}' is not a Special.", special,
                "one of the 16 Specials (Bleeding, Knockdown...)",
                "Name a Special of the weapon [F:L247-262].")


def _check_attack(
    config: RulesConfig, actor: Character, order: Order, index: int,
    action: Action, me: Fighter, target: Character | None, check: ActionCheck,
) -> str | None:
    """The weapon, target, reach and ammo of an attack; the skill it names (F16, F19)."""
    arm = me.arm(action.weapon, action.skill, config)
    weapon = arm.carried
    if weapon is None and arm.found is not None:
        check.name_error(arm.found, f"weapon {actor.name} carries", "one of your weapons")
    skill = action.skill
    if weapon is None:
        if target is None and not action.targets and action.condition is None \
                and action.target is None:
            check.error(ErrorCode.UNKNOWN_NAME, "The attack names no target.", "attack",
                        "a target's name", "Say whom you attack.")
        return skill
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
    assert weapon is not None  # the carried weapon, as used
    conditional = action.condition is not None
    if target is None and not action.targets and not conditional and action.target is None:
        check.error(ErrorCode.UNKNOWN_NAME, "The attack names no target.", "attack",
                    "a target's name", "Say whom you attack.")
    # a conditional's target is the GM's to name: out of reach, only that action is void
    # when it resolves (F7 Amb-6 amendment), never the whole order
    if target is not None and not conditional:
        d = actor.position - target.position  # `ranges.distance`, `ranges.in_reach`
        if (weapon.range_class is RangeClass.MELEE and (d if d > 0 else -d) > weapon.reach
                and not reachable(order, actor, target, weapon)):
            away = ranges_apart(actor, target)
            check.error(
                ErrorCode.OUT_OF_RANGE,
                f"{target.name} is {away} {'Range' if away == 1 else 'Ranges'} away, beyond the "
                f"reach of the {weapon.name}.",
                target.name, "a target within reach, or a move toward it this turn",
                "Add a move toward the target, or use a ranged weapon [F:L221-225].",
            )
    ammo_cost = weapon.ammo_cost
    if ammo_cost and actor.ammo is not None:
        spent = _ammo_before(order, me, index) + ammo_cost
        if spent > actor.ammo:
            check.error(ErrorCode.NO_AMMO,
                        f"The {weapon.name} needs {ammo_cost} ammo; the battery has "
                        f"{max(0, actor.ammo - spent + ammo_cost)} left.",
                        weapon.name, f"ammo {ammo_cost} or more",
                        "Pick a lower setting or recharge [F:L320].")
    return skill


def _check_skill(actor: Character, skill: str, check: ActionCheck) -> str | None:
    """The skill's name as the rules know it, after checking it exists and is allowed (F1 Amb-6,
    F2: "Characters without Uncanny or Fantastical may not buy or use" those skills)."""
    rulebook = _rulebook_skill(skill)  # a rulebook skill: what `match_skill` finds first
    if rulebook is not None:
        known, trait = rulebook
        if trait is not None and not actor.owns(trait):
            _forbidden(actor, known, trait, check)
        return known
    found = match_skill(actor, skill)  # a custom skill of the sheet, or a prefix
    if not found.ok:
        check.name_error(found, "skill", "a skill of the rulebook or of your sheet")
        return skill
    name = found.name
    definition = skill_def(name or "")
    restricted = definition.restricted_by if definition else None
    if restricted is not None and not actor.owns(restricted):
        _forbidden(actor, name or skill, restricted, check)
    return name


@lru_cache(maxsize=1024)
def _rulebook_skill(skill: str) -> tuple[str, Trait | None] | None:
    """The rulebook's name of a skill as written and the Trait that restricts it, or None for a
    skill the rulebook does not know (`defense.skill_def`): the rulebook is fixed, so this is
    worked out once per spelling, not once per action."""
    definition = skill_def(skill)
    return None if definition is None else (definition.name, definition.restricted_by)


def _forbidden(actor: Character, name: str, restricted: Trait, check: ActionCheck) -> None:
    check.error(ErrorCode.SKILL_FORBIDDEN,
                f"{name} needs the {restricted.value} Trait, which {actor.name} lacks.",
                name, f"a character with {restricted.value}",
                "Characters without Uncanny or Fantastical may not use those skills [F:L158].")


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
    d = ranges_apart(actor, target)
    if in_reach(weapon, d):
        return True
    for action in order.actions:
        if action.kind is ActionKind.MOVE and action.toward is not None:
            if fold(action.toward) == fold(target.name) or target.name.casefold().startswith(
                fold(action.toward)
            ):
                return move_ranges(action) + weapon.reach >= d
    return False


def _ammo_before(order: Order, actor: Fighter, index: int) -> int:
    spent = 0
    for action in order.actions[:index]:
        if action.kind is ActionKind.ATTACK:
            _, weapon = actor.attack_weapon(action.weapon)
            if weapon is not None:
                spent += weapon.ammo_cost
    return spent


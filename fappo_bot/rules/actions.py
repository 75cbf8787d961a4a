"""Actions other than attacks and casts: skill uses, movement, equipment, standing, removing
embedded weapons, attending the Dying, putting out fires, steadying (RULINGS F4, F5, F8, F9,
F15, F16, F18, F19)."""

from __future__ import annotations

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, StatusKind, Weapon
from fappo_bot.rules.context import AWARENESS_SKILLS, Turn
from fappo_bot.rules.data import Trait
from fappo_bot.rules.defense import Incoming, effective_skill, noncombat_defense, skill_def
from fappo_bot.rules.dying import qualifies_attendance, qualifies_sp_route
from fappo_bot.rules.health import ap_budget, is_dying, is_unconscious
from fappo_bot.rules.levels import resolve_check, sp_levels
from fappo_bot.rules.names import fold, match_skill, skill_rating
from fappo_bot.rules.orders import Action, ActionKind, PendingHit
from fappo_bot.rules.ranges import move_blocked, ranges_apart, step_away, step_toward
from fappo_bot.rules.results import ActionResult
from fappo_bot.rules.spending import canonical, vetoed_refund
from fappo_bot.rules.validate_actions import embedded_status, move_ranges

#: F9: "be watchful" adds its AP to spotting and Searching checks the GM calls
SPOTTING_SKILLS = frozenset({"searching"})
FREEZE_INSIDE = 8
FREEZE_INSIDE_HEAT = 5
EXTINGUISH_DIFFICULTY = 4



def contest_key(actor: str, index: int) -> str:
    """The key of an opposed skill use among a defender's incoming actions."""
    return f"{actor}#{index}#skill"


def contests(turn: Turn) -> dict[str, list[Incoming]]:
    """Opposed skill uses per defender, for pledge matching (F5 Amb-8); potential damage 0."""
    out: dict[str, list[Incoming]] = {}
    for name, index, action in turn.actions_of(ActionKind.SKILL):
        if not action.effective_now or action.difficulty is not None:
            continue  # the GM's difficulty makes it unopposed (the target is its subject)
        target = turn.find(action.target)
        if target is None or action.skill is None:
            continue
        value = effective_skill(turn.chars[name], _skill(turn.chars[name], action.skill),
                                opponent=target)
        out.setdefault(target.name, []).append(Incoming(
            key=contest_key(name, index), attacker=name, index=index, potential=0,
            skill=value, attack=False,
        ))
    return out


def _skill(actor: Character, written: str) -> str:
    found = match_skill(actor, written)
    return found.name if found.name is not None else written


def resolve_skill(
    turn: Turn, actor: Character, index: int, action: Action, pledged: dict[str, int],
    changes: Changes,
) -> ActionResult:
    """A skill use against the GM's difficulty (F4 Amb-10), else opposed by the target's defense
    (F5). With a difficulty the target is only the subject (a patient, a lock's owner)."""
    base = (actor.name, index, action.kind.value, action.target)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    skill = _skill(actor, action.skill or "")
    trait = turn.traits.suggested(skill)  # the rulebook's, or a game's own Trait's (F2)
    suggested = trait.value if trait is not None else None
    target = turn.find(action.target)
    frozen = actor.has_status(StatusKind.FROZEN) and fold(skill) == "wrestling"
    if target is not None and action.difficulty is None and not frozen \
            and turn.dead(target.name):
        # opposed by the Dead: impossible, void alone (F7 Amb-6 amendment); with the GM's
        # difficulty the target is only the subject (searching a body)
        return ActionResult(*base, effective=False, notes=(f"{target.name} is dead",))
    total = (effective_skill(actor, skill, opponent=target) + max(0, action.ap or 0)
             + action.modifier)
    if fold(skill) in SPOTTING_SKILLS:
        total += turn.watch_ap(actor.name)
    down = 0
    if frozen:
        difficulty = FREEZE_INSIDE_HEAT if action.heat else FREEZE_INSIDE
    elif action.difficulty is not None:
        difficulty = action.difficulty
    elif target is not None:
        if action.flat_footed or is_unconscious(target, turn.config):
            difficulty = 1
        else:
            ap, modifier = turn.defend_ap(target.name, actor.name)
            if fold(skill) in AWARENESS_SKILLS:
                ap += turn.watch_ap(target.name)
            # F5: the defender's relevant skill defaults to the one the actor uses
            difficulty = noncombat_defense(target, skill, opponent=actor, defend_ap=ap,
                                           modifier=modifier)
        down = pledged.get(contest_key(actor.name, index), 0)
    else:
        return ActionResult(*base, total=total, notes=("no difficulty given",))
    spend = canonical(action.sp)
    for key, amount in vetoed_refund(action, suggested).items():
        spend[key] -= amount
    outcome = resolve_check(total, difficulty, protected=actor.owns(trait),
                            shift_up=sp_levels(spend, suggested), shift_down=down)
    if frozen and outcome.level.succeeded:
        changes.clear(actor.name, StatusKind.FROZEN)
        changes.event("freed", actor.name, "broke the ice sheath")
    return ActionResult(*base, total=total, difficulty=difficulty, margin=outcome.margin,
        level=outcome.level, em=outcome.em, pledged=down,)


def resolve_move(turn: Turn, actor: Character, index: int, action: Action,
                 changes: Changes) -> ActionResult:
    """Movement from the start-of-turn positions (F16 Amb-7); the GM's end positions win."""
    base = (actor.name, index, action.kind.value, action.toward or action.away)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    blocked = move_blocked(actor, turn.orders[actor.name])  # `ranges.moves_away` asks it too
    if blocked is not None:
        return ActionResult(*base, effective=False, notes=(blocked,))
    ranges = move_ranges(action)
    if actor.name in turn.gm.end_positions:
        changes.positions[actor.name] = turn.gm.end_positions[actor.name]
    elif (other := turn.find(action.toward)) is not None:
        changes.positions[actor.name] = step_toward(actor.position, other.position, ranges)
    elif (other := turn.find(action.away)) is not None:
        changes.positions[actor.name] = step_away(actor.position, other.position, ranges)
    return ActionResult(*base)




def resolve_equipment(turn: Turn, actor: Character, index: int, action: Action,
                      changes: Changes) -> ActionResult:
    """ready, switch, stow, drop, pickup, stand: item states from the next turn (F8 Amb-7)."""
    base = (actor.name, index, action.kind.value, action.item)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    item = action.item
    held = actor.weapon()
    kind = action.kind
    if kind is ActionKind.STAND:
        changes.clear(actor.name, StatusKind.PRONE)
    elif kind in (ActionKind.READY, ActionKind.SWITCH) and item is not None:
        weapon = actor.weapon(item)
        if fold(item) != "shield":
            changes.wielding[actor.name] = weapon.name if weapon else item
        changes.clear(actor.name, StatusKind.DISARMED, item)
    elif kind in (ActionKind.STOW, ActionKind.DROP) and item is not None:
        if held is not None and fold(held.name) == fold(item):
            changes.wielding[actor.name] = "Fist"
    elif kind is ActionKind.PICKUP and item is not None:
        changes.clear(actor.name, StatusKind.DISARMED, item)
        if actor.weapon(item) is None and (weapon := Weapon.named(item)) is not None:
            changes.gain_weapon.setdefault(actor.name, []).append(weapon)
    return ActionResult(*base)


def resolve_removal(turn: Turn, actor: Character, index: int, action: Action,
                    changes: Changes) -> ActionResult:
    """Remove or rip out an embedded weapon (F18.12-14): rip-out and Transfix removal deal
    1 level each, as reducible hits (F13 Amb-5)."""
    patient = turn.find(action.target) or actor
    base = (actor.name, index, action.kind.value, patient.name)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    kind = embedded_status(patient, action.item)
    if kind is None:
        return ActionResult(*base, effective=False, notes=("nothing to remove",))
    status = next(s for s in patient.statuses if s.kind is kind and (
        action.item is None or s.item is None or fold(s.item) == fold(action.item)))
    changes.clear(patient.name, kind, status.item)
    hurts = action.kind is ActionKind.RIPOUT or kind is StatusKind.TRANSFIXED
    if hurts:
        source = "ripout" if action.kind is ActionKind.RIPOUT else "removal"
        changes.hits.append(PendingHit(
            id=f"t{turn.number}-{_slug(actor.name)}-{index}", target=patient.name,
            attacker=actor.name, weapon=status.item, levels=1, source=source, turn=turn.number,
        ))
        return ActionResult(*base, damage=1)
    return ActionResult(*base)


def resolve_tend(turn: Turn, actor: Character, index: int, action: Action,
                 changes: Changes) -> ActionResult:
    """Attend the Dying (F15) or bind a Bleeding wound after the fight (F18.2)."""
    patient = turn.find(action.target)
    # actor, index, kind, target: the fields every result of the action has
    base = (actor.name, index, action.kind.value, patient.name if patient else action.target)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    if patient is None or ranges_apart(actor, patient) > 0:
        return ActionResult(*base, effective=False, notes=("not at hand",))
    notes: list[str] = []
    if is_dying(patient, turn.config):
        d = ranges_apart(actor, patient)
        ap = max(0, action.ap or 0)
        route = qualifies_sp_route(actor, distance=d, ap_spent=ap, sp_spent=canonical(action.sp))
        if route.ok:
            changes.stabilized.add(patient.name)
            notes.append("stabilized with 2 SP")
        attention = qualifies_attendance(actor, distance=d, ap_spent=ap,
                                         ap_budget=ap_budget(actor, turn.config))
        if attention.ok:
            changes.attended.add(patient.name)
            notes.append("a full turn of attention")
        if not notes:
            notes.append(attention.reason or route.reason or "no help")
            return ActionResult(*base, notes=tuple(notes), effective=False)
    elif patient.has_status(StatusKind.BLEEDING):
        qualified = (actor.owns(Trait.SAGACIOUS) or actor.owns(Trait.HIGHBORN)
                     or skill_rating(actor, "Healing") >= 1)
        dropped = any(s.kind is StatusKind.BLEEDING and s.restore_to is not None
                      for s in patient.statuses)
        if not qualified:
            notes.append("binding needs Sagacious, Highborn or the Healing skill")
        elif not (dropped or not turn.in_combat):
            notes.append("a wound cannot be bound before the fight ends (F18.2 Amb-3)")
        else:
            changes.bound.add(patient.name)
            return ActionResult(*base, notes=("binding the wounds",))
        return ActionResult(*base, notes=tuple(notes), effective=False)
    return ActionResult(*base, notes=tuple(notes), effective=bool(notes))


def resolve_extinguish(turn: Turn, actor: Character, index: int, action: Action,
                       changes: Changes) -> ActionResult:
    """Put out a fire (F18.4 Amb-1): GM-chosen skill (default Acrobatics) vs 4 by default."""
    patient = turn.find(action.target) or actor
    skill = _skill(actor, action.skill or "Acrobatics")
    total = effective_skill(actor, skill) + max(0, action.ap or 0) + action.modifier
    difficulty = action.difficulty if action.difficulty is not None else EXTINGUISH_DIFFICULTY
    definition = skill_def(skill)
    suggested = definition.suggested if definition else None
    outcome = resolve_check(total, difficulty, protected=actor.owns(suggested),
                            shift_up=sp_levels(canonical(action.sp),
                                               suggested.value if suggested else None))
    if outcome.level.succeeded and action.effective_now:
        changes.extinguished.add(patient.name)
        changes.clear(patient.name, StatusKind.BURNING)
    return ActionResult(actor=actor.name, index=index, kind=action.kind.value,
                        target=patient.name, total=total, difficulty=difficulty,
                        margin=outcome.margin, level=outcome.level, em=outcome.em,
                        effective=action.effective_now)


def resolve_aim(turn: Turn, actor: Character, index: int, action: Action,
                changes: Changes) -> ActionResult:
    """Steady a sniper rifle on a target (F19 Amb-6): one more full turn of steadying. An
    untriggered conditional aim steadies nothing (F9)."""
    target = turn.find(action.target)
    base = (actor.name, index, action.kind.value, target.name if target else None)
    if not action.effective_now:
        return ActionResult(*base, effective=False, notes=("not triggered",))
    changes.aiming[actor.name] = target.name if target else None
    return ActionResult(*base)


def _slug(name: str) -> str:
    return "-".join(fold(name).split())


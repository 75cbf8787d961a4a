"""The Specials of a Great Success as statuses in force from the next turn (RULINGS F18, F7 Amb-2).

"Status effects begin at the start of the next turn (F7 Amb-2). Post-hoc SP reduction never
removes a status (F13)." Extra Damage is part of the damage (F18.1) and is not handled here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, Status, StatusKind
from fappo_bot.rules.config import KnockoutMode
from fappo_bot.rules.context import Turn
from fappo_bot.rules.data import ArmorType, Special
from fappo_bot.rules.names import fold
from fappo_bot.rules.ranges import range_penalty
from fappo_bot.rules.strikes import StrikeResult

TURNS_PER_10_MIN = 60
#: F18.6 Amb-1 suggested defaults, used when the GM gives no profile
MORTAL_TICKS = 3
NERVE_PENALTY = 2

# the statuses a turn's Great Successes inflict by the hundred, without validating them again
NERVE_AP_LOSS = 1
NERVE_TURNS = 10


def knockout_turns(result: StrikeResult, turn: Turn) -> int:
    """60 turns (10 min) per point, at least one (F18.3 Amb-1: em; literal reading by config)."""
    if turn.config.knockout_duration_mode is KnockoutMode.SKILL_MINUS_DEFENSE:
        strike = result.strike
        defense = result.difficulty - range_penalty(strike.weapon, strike.dist,
                                                    steadied=strike.steadied)
        points = strike.skill_value - defense
    else:
        points = result.outcome.em
    return TURNS_PER_10_MIN * max(1, points)


def dismember_tier(em: int, turn: Turn) -> str:
    """minor (em 3), moderate (em 4-5), major (em >= 6) by default (F18.8 Amb-1, config)."""
    if em >= turn.config.dismember_major_from:
        return "major"
    if em >= turn.config.dismember_moderate_from:
        return "moderate"
    return "minor"


def _held_item(victim: Character, action_item: str | None) -> str | None:
    if action_item:
        return action_item
    weapon = victim.weapon()
    if weapon is None or fold(weapon.name) == "fist":
        return None
    return weapon.name


def _disarm(victim: Character, item: str | None, changes: Changes, source: str) -> None:
    if item is None:
        return
    changes.status(victim.name, Status(kind=StatusKind.DISARMED, item=item, source=source))
    weapon = victim.weapon()
    if weapon is not None and fold(weapon.name) == fold(item):
        changes.wielding[victim.name] = "Fist"


def apply_specials(turn: Turn, result: StrikeResult, changes: Changes) -> None:
    """Turn each Special of a Great Success into its status or effect (F18.2-F18.16)."""
    strike = result.strike
    victim = turn.chars[strike.target]
    attacker = strike.attacker
    action = strike.action
    em = result.outcome.em
    for special in result.specials:
        if special is Special.KNOCKDOWN:
            changes.status(victim.name, Status(kind=StatusKind.PRONE, source=attacker.name))
        elif special is Special.KNOCKOUT:
            changes.status(victim.name, Status(
                kind=StatusKind.UNCONSCIOUS, source=attacker.name, turns=knockout_turns(result, turn)
            ))
        elif special is Special.BLEEDING:
            changes.status(victim.name, Status(kind=StatusKind.BLEEDING, source=attacker.name))
        elif special is Special.FIRE:
            changes.status(victim.name, Status(kind=StatusKind.BURNING, source=attacker.name))
        elif special is Special.CORROSION:
            changes.corrode[victim.name] = changes.corrode.get(victim.name, 0) + 1
        elif special is Special.POISON:
            changes.status(victim.name, _poison(action.profile or strike.weapon.profile,
                                                attacker.name))
        elif special is Special.DISEASE:
            profile = action.profile or strike.weapon.profile or {}
            changes.status(victim.name, Status(
                kind=StatusKind.DISEASED, source=attacker.name,
                turns=_int(profile.get("duration")), note=_text(profile),
            ))
        elif special is Special.DISMEMBERMENT:
            _dismember(victim, attacker, action.part, dismember_tier(em, turn), changes)
        elif special is Special.DISARM:
            _disarm(victim, _held_item(victim, action.item), changes, attacker.name)
        elif special is Special.GRASP:
            _grasp(victim, attacker, em, action.item, changes)
        elif special in (Special.IMPALE, Special.BARBED, Special.TRANSFIX):
            _embed(victim, attacker, special, result, changes)
        elif special is Special.FREEZE:
            changes.status(victim.name, Status(
                kind=StatusKind.FROZEN, source=attacker.name, elapsed=0,
            ))
        elif special is Special.VAPORIZE:
            changes.vaporize.add(victim.name)
        changes.event("special", victim.name, special.value)


def _dismember(victim: Character, attacker: Character, part: str | None, tier: str,
               changes: Changes) -> None:
    """Dismemberment (F18.8): the part the GM picked is lost, by the tier of the blow; a lost
    weapon hand or arm disarms from the moderate tier. Aimed at an item the victim carries (the
    GM's part names one of their weapons, or their shield), it destroys the item: "slashing them
    in half and rendering them useless" (RULINGS F18.8: "the item is destroyed"), whatever the
    tier, and no anatomy is lost."""
    item = _carried_item(victim, part)
    if item is not None:
        if item == _SHIELD:
            changes.lose_shield.add(victim.name)
            changes.event("destroyed", victim.name, "shield")
            return
        changes.lose_weapon.setdefault(victim.name, []).append(item)
        weapon = victim.weapon()
        if weapon is not None and fold(weapon.name) == fold(item):
            changes.wielding[victim.name] = "Fist"
        changes.event("destroyed", victim.name, item)
        return
    changes.status(victim.name, Status(
        kind=StatusKind.DISMEMBERED, item=part, source=attacker.name, note=tier,
    ))
    if tier != "minor" and _weapon_part(part):
        _disarm(victim, _held_item(victim, None), changes, attacker.name)


_SHIELD = "shield"


def _carried_item(victim: Character, part: str | None) -> str | None:
    """The item a Dismemberment's part names: a weapon the victim carries (not a Fist) by its
    name, or "shield" for the shield they bear; None for a body part."""
    if not part:
        return None
    text = fold(part.strip())
    if text in (_SHIELD, "their shield", "his shield", "her shield") \
            and victim.shield is not ArmorType.NONE:
        return _SHIELD
    weapon = victim.weapon(part.strip())
    if weapon is None or fold(weapon.name) == "fist":
        return None
    return weapon.name


def _weapon_part(part: str | None) -> bool:
    """The GM's part is the weapon hand or arm ("sword arm", "weapon hand"): losing it disarms
    (F18.8 moderate and major tiers)."""
    text = fold(part or "")
    return any(word in text for word in ("weapon", "sword", "shield"))


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(profile: Mapping[str, Any]) -> str | None:
    """A disease's GM profile as a note for the GM (onset, effect, duration, cure)."""
    return ", ".join(f"{k} {v}" for k, v in sorted(profile.items())) or None


def _poison(profile: Mapping[str, Any] | None, source: str) -> Status:
    """A poison status from the GM's profile (F18.6): mortal ticks 1 level a turn for `ticks`
    turns; nerve gives `penalty` to all actions and loses `ap_loss` AP for `duration` turns.
    Without a profile: the suggested mortal default (3 ticks, Amb-1)."""
    data = profile or {}
    kind = str(data.get("kind", "mortal")).casefold()
    if kind == "nerve":
        return Status(
            kind=StatusKind.POISONED, source=source, note="nerve",
            turns=_int(data.get("duration")) or NERVE_TURNS,
            penalty=_int(data.get("penalty")) or NERVE_PENALTY,
            ap_loss=_int(data.get("ap_loss")) or NERVE_AP_LOSS,
        )
    if kind == "mortal":
        return Status(kind=StatusKind.POISONED, source=source, note="mortal",
                      turns=_int(data.get("ticks")) or MORTAL_TICKS)
    return Status(kind=StatusKind.POISONED, source=source, note=_text(data),
                  turns=_int(data.get("duration")))


def _grasp(
    victim: Character, attacker: Character, em: int, item: str | None, changes: Changes
) -> None:
    """Grasp (F18.11): "the victim is Disarmed as above" in every tier; at em exactly 4 the item
    is pulled to the attacker's feet, at 5 or more the attacker holds it (either way it is the
    attacker's to pick up or ready, and no longer the victim's)."""
    held = _held_item(victim, item)
    if held is None:
        return
    _disarm(victim, held, changes, attacker.name)
    if em < 4:
        return
    weapon = victim.weapon(held)
    changes.lose_weapon.setdefault(victim.name, []).append(held)
    if weapon is not None:
        changes.gain_weapon.setdefault(attacker.name, []).append(weapon)


def _embed(
    victim: Character, attacker: Character, special: Special, result: StrikeResult,
    changes: Changes,
) -> None:
    """Impale, Barbed, Transfix (F18.12-14): the weapon stays in the victim; a melee or thrown
    weapon leaves the attacker's hand (Amb-2), a bow or crossbow does not (the missile stays)."""
    weapon = result.strike.weapon
    kind = {
        Special.IMPALE: StatusKind.IMPALED,
        Special.BARBED: StatusKind.BARBED,
        Special.TRANSFIX: StatusKind.TRANSFIXED,
    }[special]
    changes.status(victim.name, Status(
        kind=kind, item=weapon.name, source=attacker.name, flag=result.strike.action.hold,
    ))
    if weapon.melee or weapon.single_use or weapon.skill == "Throwing":
        changes.lose_weapon.setdefault(attacker.name, []).append(weapon.name)
        changes.wielding[attacker.name] = "Fist"

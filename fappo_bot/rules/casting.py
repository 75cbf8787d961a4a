"""Casting spells in two stages (RULINGS F25, F26, with the difficulties of `rules.magic`, F24).

CAST: Spellcasting + AP + modifiers vs the learned difficulty + Ranges (a learned spell) or the
General Magic difficulty + Ranges (inline effects), with the cast SP. ATTACK (damage, Specials or
mind payloads, only when the cast reaches a Bare Success): Spellcasting + bought and ad-hoc
accuracy + the same AP vs each target's combat defense (no range penalty: range is priced into
the cast), or vs the GM's mood difficulty for mind magic; the attack SP apply to every target.

With `spell_resolution: single_roll` (F25 Amb-1 (a), R2) the cast is the only roll: "the cast
level grades the effect and the target's defense is ignored" (`single_roll.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fappo_bot.rules import magic
from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Character, Spell, Status, StatusKind, Weapon
from fappo_bot.rules.context import Turn
from fappo_bot.rules.data import RangeClass, Trait, special_by_name
from fappo_bot.rules.defense import effective_skill
from fappo_bot.rules.fodder import SINGLE
from fappo_bot.rules.levels import Outcome, SuccessLevel, resolve_check, sp_levels
from fappo_bot.rules.names import fold, match_name
from fappo_bot.rules.orders import Action, ActionKind
from fappo_bot.rules.ranges import ranges_apart
from fappo_bot.rules.results import ActionResult, RulesError, TargetResult
from fappo_bot.rules.single_roll import (
    alert_on_abject_cast,
    graded_by_cast,
    one_roll_spend,
    single_roll,
)
from fappo_bot.rules.spending import canonical
from fappo_bot.rules.strikes import Strike, StrikeResult

SPELLCASTING = "Spellcasting"
UNCANNY = Trait.UNCANNY.value


@dataclass(frozen=True)
class CastStage:
    """The casting stage of one cast action."""

    total: int
    difficulty: int
    outcome: Outcome | None
    profile: magic.SpellProfile | None
    spell: Spell | None
    note: str | None = None
    #: a multi-turn cast still under way: the turns of concentration done with this one
    progress: int = 0
    #: `single_roll`: each target's effect, graded by the cast itself (no attack stage)
    graded: tuple[StrikeResult, ...] = ()


def _spell_of(caster: Character, action: Action) -> tuple[Spell | None, magic.SpellProfile,
                                                            bool]:
    """(learned spell, profile, learned?) of a cast: inline effects are General Magic."""
    if action.effects:
        name = action.spell or "spell"
        special = special_by_name(action.special) if action.special else None
        spell = Spell(name=name, effects=action.effects, special=special)
        return spell, magic.spell_profile(action.effects), False
    found = match_name(action.spell or "", [s.name for s in caster.spells])
    spell = next(s for s in caster.spells if s.name == found.name)
    return spell, magic.profile_of(spell), True


def cast_profile(caster: Character, action: Action) -> magic.SpellProfile | None:
    """The payload of a cast (F24, F25): what its attack stage needs from the GM (a mind
    spell's mood difficulty, a message's "flooded" flag); None when the spell is unknown."""
    try:
        return _spell_of(caster, action)[1]
    except (RulesError, StopIteration):
        return None


def cast_stage(turn: Turn, caster: Character, action: Action) -> CastStage:
    """Grade the casting stage (F25 CAST, F26; Uncanny is Spellcasting's Suggested Trait)."""
    total = (effective_skill(caster, SPELLCASTING) + max(0, action.ap or 0) + action.modifier)
    try:
        spell, profile, learned = _spell_of(caster, action)
    except (RulesError, StopIteration) as exc:
        return CastStage(total, 0, None, None, None, str(exc) or "unknown spell")
    target = turn.find(action.target) or next(
        (c for c in (turn.find(n) for n in action.targets or ()) if c is not None), None
    )
    ranges = action.ranges if action.ranges is not None else (
        ranges_apart(caster, target) if target is not None else 0
    )
    minimum = turn.config.min_spell_difficulty
    fn = magic.learned_cast_difficulty if learned else magic.cast_difficulty
    difficulty = fn(profile.difficulty, ranges, minimum, accuracy=action.accuracy,
                    flooded=action.flooded)
    spend = canonical(action.cast_sp)
    if single_roll(turn.config):
        spend = one_roll_spend(spend, canonical(action.attack_sp))
    outcome = resolve_check(total, difficulty, protected=caster.owns(Trait.UNCANNY),
                            shift_up=sp_levels(spend, UNCANNY))
    return CastStage(total, difficulty, outcome, profile, spell)


def concentration_done(caster: Character, spell: str) -> int:
    """Turns of concentration already spent on `spell` (F24 Amb-5); damage last turn, or a
    different spell, starts it over (F7 Amb-5)."""
    if caster.shock:
        return 0
    for status in caster.statuses:
        if status.kind is StatusKind.CONCENTRATING and fold(status.item or "") == fold(spell):
            return status.elapsed
    return 0


def spell_weapon(spell: Spell, profile: magic.SpellProfile, ranged: bool) -> Weapon:
    """The attack payload as a weapon: its SS damage and bought Special, no range penalty."""
    specials = (spell.special,) if spell.special is not None else ()
    return Weapon(name=spell.name, damage=profile.damage, range_class=RangeClass.MELEE,
                  ranged=ranged, specials=specials, area=profile.area, magical=True)


def plan_casts(turn: Turn, strikes: list[Strike], stages: dict[tuple[str, int], CastStage],
               void: dict[tuple[str, int], str]) -> None:
    """Cast stages of every cast action, and the attack-stage strikes of successful ones."""
    for name, index, action in turn.actions_of(ActionKind.CAST):
        caster = turn.chars[name]
        if not action.effective_now:
            void[(name, index)] = "not triggered"
            continue
        named = [c for c in (turn.find(n) for n in (action.targets or (action.target,)) if n)
                 if c is not None]
        if named and all(turn.dead(c.name) for c in named):
            # at the Dead alone: impossible, void alone (F7 Amb-6 amendment)
            void[(name, index)] = f"{named[0].name} is dead"
            continue
        stage = cast_stage(turn, caster, action)
        profile, spell = stage.profile, stage.spell
        if profile is not None and spell is not None and profile.concentration_turns > 1:
            done = concentration_done(caster, spell.name) + 1
            if done < profile.concentration_turns:
                stage = CastStage(stage.total, stage.difficulty, None, profile, spell,
                                  f"concentrating: turn {done} of "
                                  f"{profile.concentration_turns}", done)
        stages[(name, index)] = stage
        if stage.outcome is None or not stage.outcome.level.succeeded:
            continue
        assert profile is not None and spell is not None
        if not profile.attacks:
            continue
        names = list(action.targets) if action.targets else [action.target]
        targets = [c for c in (turn.find(n) for n in names if n)
                   if c is not None and not turn.dead(c.name)]  # as attacks' (`combat`)
        if profile.caster_immune:
            targets = [c for c in targets if c.name != name]  # F25 Amb-7
        if single_roll(turn.config):
            stages[(name, index)] = replace(stage, graded=graded_by_cast(
                turn, caster, index, action, stage.total, stage.difficulty, stage.outcome,
                spell_weapon(spell, profile, ranged=False), targets))
            continue
        mind = profile.mind and profile.damage == 0
        mood = action.mood if action.mood is not None else action.difficulty
        if mind and mood is None:
            stages[(name, index)] = replace(stage, note="the GM's mood difficulty is needed "
                                            "for the attack stage (F25)")
            continue
        value = effective_skill(caster, SPELLCASTING)
        total = (value + profile.accuracy + action.accuracy + max(0, action.ap or 0)
                 + action.modifier)
        for t_index, target in enumerate(targets):
            d = ranges_apart(caster, target)
            ranged = d >= 1 and turn.config.spells_at_range_are_ranged
            weapon = spell_weapon(spell, profile, ranged)
            strikes.append(Strike(
                key=f"{name}#{index}#0#{t_index}", actor=name, attacker=caster, index=index,
                entity=SINGLE, swarm=False,
                action=action, target=target.name, weapon=weapon, skill=SPELLCASTING,
                skill_value=value, total=total, potential=profile.damage, dist=d,
                area=bool(action.targets) or profile.area, sub=t_index,
                spend=canonical(action.attack_sp),
                fixed_tn=mood if mind else None,
                shieldable=not mind and not action.flat_footed,
            ))


def cast_result(turn: Turn, actor: str, index: int, stage: CastStage,
                strikes: list[StrikeResult], changes: Changes) -> ActionResult:
    """The cast's result: the casting stage on top, each target's attack stage in `targets`;
    non-attack payloads (healing) take effect on a Bare Success or better (F25 Amb-3)."""
    action = turn.orders[actor].actions[index]
    outcome = stage.outcome
    notes: tuple[str, ...] = (stage.note,) if stage.note else ()
    changes.clear(actor, StatusKind.CONCENTRATING)
    if stage.progress and stage.spell is not None:
        changes.status(actor, Status(kind=StatusKind.CONCENTRATING, item=stage.spell.name,
                                     elapsed=stage.progress))
        changes.concentrating.add(actor)
    targets: list[TargetResult] = []
    for r in strikes:
        targets.append(TargetResult(
            name=r.strike.target, total=r.strike.total, difficulty=r.difficulty,
            margin=r.outcome.margin, level=r.outcome.level, em=r.outcome.em, damage=r.damage,
            specials=tuple(s.value for s in r.specials), eliminated=r.eliminated,
            shield=r.shield, pledged=r.pledged,
        ))
        if r.strike.fixed_tn is not None and r.outcome.level is SuccessLevel.ABJECT:
            changes.status(r.strike.target, Status(kind=StatusKind.ALERTED, source=actor))
    if single_roll(turn.config):
        alert_on_abject_cast(turn, actor, action, stage.profile, outcome, changes)
    if outcome is not None and outcome.level.succeeded and stage.profile is not None:
        heal = stage.profile.heal
        # a healing spell heals whom it names: its `target`, or each of its `targets` when it
        # names no single one (spec/cases.md allows either for a cast)
        for name in (action.target,) if action.target else action.targets or ():
            patient = turn.find(name)
            if heal > 0 and patient is not None:
                changes.heal[patient.name] = changes.heal.get(patient.name, 0) + heal
    return ActionResult(
        actor=actor, index=index, kind=action.kind.value, target=action.target,
        total=stage.total, difficulty=stage.difficulty if outcome else None,
        margin=outcome.margin if outcome else None, level=outcome.level if outcome else None,
        em=outcome.em if outcome else None, damage=sum(t.damage for t in targets),
        specials=tuple(dict.fromkeys(s for t in targets for s in t.specials)),
        eliminated=sum(t.eliminated for t in targets), targets=tuple(targets),
        # a failed cast resolved too: `effective` means resolved (Amendments 2026-12-01)
        effective=outcome is not None, notes=notes,
    )

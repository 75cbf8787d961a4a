"""Healing over time, Healing checks and magical healing (RULINGS F14, F11 pips).

[F:L178] "After the amount of time listed under \"Heal,\" the character will regain one health
level." [F:L201] "Successful use of the Healing skill versus the difficulty number given in the
list above will cut the time to heal one level in half ... This check can only be made once per
health level, and must result in a Solid Success or better." Time is passed in as seconds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pydantic import ConfigDict

from fappo_bot.rules.character import FLOATING, Character, StatusKind
from fappo_bot.rules.config import PipsHealMode, RulesConfig
from fappo_bot.rules.data import LEVELS, PIP_THRESHOLDS, Trait, trait_by_name
from fappo_bot.rules.health import index_from_pips, track, uses_pips
from fappo_bot.rules.levels import Outcome, SuccessLevel, resolve_check, sp_levels
from fappo_bot.rules.results import RulesError

DYING = "Dying"
DEAD = "Dead"
HEALING_TRAIT = Trait.SAGACIOUS
"""Healing's Suggested Trait [F:L140]: protection and the SP bonus (F14 Amb-6)."""


# ---- track helpers (shared with dying.py; the track and its pips are health.py's) -------------
def level_index(character: Character, config: RulesConfig) -> int:
    """The character's index on its track (from its pips under the pips option)."""
    return index_from_pips(character.pips) if uses_pips(character, config) else character.health


def is_stabilized(character: Character) -> bool:
    """Whether a Dying character has been stabilized (F15)."""
    return character.has_status(StatusKind.STABILIZED)


def _leave_dying(character: Character) -> Character:
    return replace(character, statuses=tuple(s for s in character.statuses
                                             if s.kind is not StatusKind.STABILIZED),
                   dying_turns=0, attended_turns=0)


# ---- the Healing check ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class HealingCheck:
    """The one Healing check of a level episode, made by an assisting character (F14 Amb-5)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    #: the healer's total: Healing skill + AP + modifiers (F14 Amb-7)
    total: int
    #: SP the healer declared on the check, by pool (Trait names or `floating`)
    sp: dict[str, int] = field(default_factory=dict)
    #: the healer owns Sagacious, Healing's Suggested Trait (protection and SP bonus, F4)
    sagacious: bool = False
    #: who made the check, when known: never the patient (F14 Amb-5)
    healer: str | None = None


def _canonical_sp(sp: Mapping[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, amount in sp.items():
        if amount < 0:
            raise RulesError("bad-sp", f"SP on the Healing check cannot be negative ({key}).",
                             "check.sp")
        if key.strip().casefold() == FLOATING:
            name = FLOATING
        else:
            trait = trait_by_name(key)
            if trait is None:
                raise RulesError("unknown-name", f"'{key}' is no Trait (or 'floating') to spend "
                                 "SP from on the Healing check.", "check.sp")
            name = trait.value
        out[name] = out.get(name, 0) + amount
    return out


def grade_healing_check(check: HealingCheck, difficulty: int) -> Outcome:
    """The check's success level against the level's difficulty (F14 via F4)."""
    spend = _canonical_sp(check.sp)
    sagacious = check.sagacious or spend.get(HEALING_TRAIT.value, 0) > 0
    shift = sp_levels(spend, HEALING_TRAIT.value if sagacious else None)
    return resolve_check(check.total, difficulty, protected=sagacious, shift_up=shift)


def heal_time(name: str, halved: bool) -> int | None:
    """Seconds a level needs to heal one level (F14 HEAL), halved by a Solid+ check."""
    seconds = LEVELS[name].heal_seconds
    if seconds is None:
        return None
    return math.ceil(seconds / 2) if halved else seconds


# ---- healing by time --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class HealOutcome:
    """The result of `heal`: the character after the time, and what the check did."""

    character: Character
    start_level: str
    level: str
    levels_healed: int
    check_level: SuccessLevel | None = None
    check_margin: int | None = None
    #: the time the starting level needs (after any halving); None when it cannot heal by time
    heal_seconds: int | None = None
    #: time still needed at the level reached; None when it cannot heal by time
    seconds_to_next: int | None = None
    notes: tuple[str, ...] = ()


def heal(
    character: Character,
    elapsed_seconds: int,
    *,
    check: HealingCheck | None = None,
    config: RulesConfig | None = None,
) -> HealOutcome:
    """Let `elapsed_seconds` pass without new damage, one level at a time (F14 Rule).

    Each new level's clock starts when it is entered and runs at full time: a check halves only
    the level it was made for (Amb-4: the full duration, counted from level entry), once per
    level episode (Amb-3); Staggered and Unaffected need none (Amb-8). A Dying character heals
    only once stabilized (F15); Dead never heals (F11 Amb-7). With pips, healing the most
    advanced level clears every pip (F11 Amb-2) or, with `pips_heal_mode: one_level`, that
    level's pips only.
    """
    cfg = config or RulesConfig()
    if elapsed_seconds < 0:
        raise RulesError("bad-time", f"Elapsed time cannot be negative ({elapsed_seconds} s).",
                         "elapsed")
    start = track(character)[level_index(character, cfg)]
    notes: list[str] = []
    graded = _graded_check(character, check, start, notes)
    checked, halved = character.heal_checked, character.heal_halved
    if graded is not None:
        checked, halved = True, graded.level >= SuccessLevel.SOLID
    clock = _HealClock(character, cfg, checked, halved, character.heal_elapsed + elapsed_seconds)
    clock.run(notes)
    final = clock.names[clock.index]
    final_need = heal_time(final, clock.halved) if clock.index > 0 else None
    if final == DYING and not is_stabilized(character):
        final_need = None
    return HealOutcome(
        character=replace(clock.patient, health=clock.index, heal_elapsed=clock.banked,
                          heal_checked=clock.checked, heal_halved=clock.halved, pips=clock.pips),
        start_level=start,
        level=final,
        levels_healed=clock.healed,
        check_level=graded.level if graded else None,
        check_margin=graded.margin if graded else None,
        heal_seconds=heal_time(start, halved),
        seconds_to_next=None if final_need is None else max(0, final_need - clock.banked),
        notes=tuple(notes),
    )


def _graded_check(character: Character, check: HealingCheck | None, start: str,
                  notes: list[str]) -> Outcome | None:
    """The level's Healing check graded, or None when none was made (F14 Amb-3, Amb-5, Amb-8)."""
    if check is None:
        return None
    difficulty = LEVELS[start].heal_difficulty
    if difficulty is None:
        notes.append(f"{start} needs no Healing check: no check was made.")
        return None
    if check.healer is not None and check.healer.casefold() == character.name.casefold():
        raise RulesError(
            "self-treatment",
            f"{character.name} cannot make their own Healing check: it takes \"an assisting "
            "character\" [F:L201].", "check")
    if character.heal_checked:
        raise RulesError(
            "check-used",
            f"{character.name} already had this level's Healing check; \"this check can "
            "only be made once per health level\" [F:L201].", "check")
    return grade_healing_check(check, difficulty)


class _HealClock:
    """Time passing over the track, one level at a time (F14 Rule, F11 Amb-2 for pips)."""

    __slots__ = ("banked", "checked", "config", "halved", "healed", "index", "names", "patient",
                 "pips", "pips_mode")

    def __init__(self, character: Character, config: RulesConfig, checked: bool, halved: bool,
                 banked: int) -> None:
        self.patient = character
        self.config = config
        self.names = track(character)
        self.pips_mode = uses_pips(character, config)
        self.pips = character.pips
        self.index = level_index(character, config)
        self.checked, self.halved, self.banked = checked, halved, banked
        self.healed = 0

    def run(self, notes: list[str]) -> None:
        names, stabilized = self.names, is_stabilized(self.patient)
        while self.index > 0:
            name = names[self.index]
            need = heal_time(name, self.halved)
            if need is None:  # Dead (F11 Amb-7)
                break
            if name == DYING and not stabilized:
                notes.append("Dying heals only once stabilized (F15).")
                self.banked = 0
                break
            if self.banked < need:
                break
            self.banked -= need
            self.healed += 1
            self.checked = self.halved = False
            if name == DYING:
                self.patient = _leave_dying(self.patient)
            if self.pips_mode:
                if self.config.pips_heal_mode is PipsHealMode.RESET_ALL:
                    self.pips = 0
                else:
                    self.pips = PIP_THRESHOLDS[self.index] - 1
                self.index = index_from_pips(self.pips)
            else:
                self.index -= 1
        if self.index == 0:
            self.banked = 0


# ---- magical healing --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class MagicHealOutcome:
    """The result of `heal_levels`: the patient, levels healed, and when (for the cooldown)."""

    character: Character
    levels_healed: int
    healed_at: int | None = None


def heal_levels(
    character: Character,
    levels: int,
    *,
    config: RulesConfig | None = None,
    now_seconds: int | None = None,
    last_healed_at: int | None = None,
) -> MagicHealOutcome:
    """A healing spell: `levels` levels at once; the new level's timer starts fresh (F14 Amb-9).

    [F:L203] "Some magic spells will heal characters one or more levels instantly." With
    `healing_spell_layering` (the default) spells stack; otherwise a spell within
    `healing_spell_cooldown_seconds` of the last one (`last_healed_at`, `now_seconds`) is
    refused. Magic needs no stabilization; Dead is beyond it (F11 Amb-7). Under pips, each level
    healed is a heal of the most advanced level (F11 Amb-2).
    """
    cfg = config or RulesConfig()
    if levels < 0:
        raise RulesError("bad-heal", f"A spell heals 0 or more levels, not {levels}.", "heal")
    names = track(character)
    index = level_index(character, cfg)
    if names[index] == DEAD:
        raise RulesError("heal-dead", f"{character.name} is Dead; healing magic cannot help "
                         "(only the GM can rule a resurrection).", "target")
    if not cfg.healing_spell_layering and last_healed_at is not None:
        if now_seconds is None:
            raise RulesError("bad-time", "The time of this healing spell is needed for the "
                             "cool-down.", "now")
        wait = cfg.healing_spell_cooldown_seconds - (now_seconds - last_healed_at)
        if wait > 0:
            raise RulesError(
                "healing-cooldown",
                f"{character.name}'s body is still acclimating to the last healing spell "
                f"[F:L203]: {wait} more seconds before more magic can heal it.", "target")
    patient = character
    healed = 0
    pips = character.pips
    pips_mode = uses_pips(character, cfg)
    while healed < levels and index > 0:
        if names[index] == DYING:
            patient = _leave_dying(patient)
        if pips_mode:
            pips = 0 if cfg.pips_heal_mode is PipsHealMode.RESET_ALL else (
                PIP_THRESHOLDS[index] - 1)
            index = index_from_pips(pips)
        else:
            index -= 1
        healed += 1
    if healed:
        patient = replace(patient, health=index, heal_elapsed=0, heal_checked=False,
                          heal_halved=False, pips=pips)
    return MagicHealOutcome(character=patient,
                            levels_healed=healed,
                            healed_at=now_seconds if healed else last_healed_at)

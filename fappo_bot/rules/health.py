"""Health tracks, wound penalties, shock and AP budgets (RULINGS F10, F11).

[F:L178] "Moving down on the list, in any amount, will cause the injured character to lose 1 AP on
their next action only. Characters who drop to Wounded also lose 1 AP "permanently" until they heal
up to Battered, and Incapacitated characters lose yet another AP "permanently" until they heal up
to Wounded."

A character's place on its track is an index (`Character.health`). With the pips option (F11) the
index is derived from the pips filled (`Character.pips`).
"""

from __future__ import annotations

from dataclasses import replace

from fappo_bot.rules.character import Character, StatusKind
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import LEVELS, PIP_THRESHOLDS, TIERS, TRACKS, TrackKind

#: Level names that repeat on the Master track carry a slot number (F11 Amb-6).
_MASTER_SLOTTED = frozenset({"Battered", "Wounded"})


def track(character: Character) -> tuple[str, ...]:
    """The level names of the character's track, Healthy first (F11)."""
    return TRACKS[character.track_kind]


def dead_index(character: Character) -> int:
    """The index of Dead on the character's track (F11)."""
    return len(track(character)) - 1


def uses_pips(character: Character, config: RulesConfig) -> bool:
    """Whether the pips option applies to this character (F11 Amb-4, F3 Amb-5).

    Pips apply only on the standard track and only to the tiers listed in `config.pips_tiers`.
    """
    return (
        config.pips_enabled
        and character.track_kind is TrackKind.STANDARD
        and character.tier.value in config.pips_tiers
    )


def index_from_pips(pips: int) -> int:
    """The standard-track index for `pips` filled (F11 Amb-1: the lowest level with a filled pip).

    1 Staggered, 2-3 Battered, 4-6 Wounded, 7-10 Incapacitated, 11-15 Dying, 16 Dead.
    """
    index = 0
    for i, threshold in enumerate(PIP_THRESHOLDS):
        if pips >= threshold:
            index = i
    return index


def pips_dead() -> int:
    """Pips that make a character Dead under the pips option (F11)."""
    return PIP_THRESHOLDS[-1]


def current_index(character: Character, config: RulesConfig) -> int:
    """The character's track index, from its pips where the pips option applies (F11)."""
    if uses_pips(character, config):
        return index_from_pips(character.pips)
    health = character.health  # clamped without `min` and `max` calls (slow builtins)
    floor, dead = (health if health > 0 else 0), dead_index(character)
    return floor if floor <= dead else dead


def base_level_name(character: Character, config: RulesConfig) -> str:
    """The bare name of the character's level ("Battered", never "Battered 2")."""
    names = TRACKS[character.track_kind]
    if config.pips_enabled and uses_pips(character, config):
        return names[index_from_pips(character.pips)]
    health = character.health  # clamped to the track without `min` and `max` calls
    return names[0 if health < 0 else health if health < len(names) else len(names) - 1]


def level_name(character: Character, config: RulesConfig) -> str:
    """The character's level as results show it; Master slots carry their number (F11 Amb-6).

    [F:L348] Masters have "Healthy, Unaffected, Staggered, Battered, Battered, Wounded, Wounded,
    Wounded, Incapacitated, Dying, Dead": index 4 is "Battered 2", index 7 "Wounded 3".
    """
    names = track(character)
    index = current_index(character, config)
    name = names[index]
    if character.track_kind is TrackKind.MASTER and name in _MASTER_SLOTTED:
        return f"{name} {names[: index + 1].count(name)}"
    return name


def index_of_level(kind: TrackKind, name: str) -> int | None:
    """The index of a level name on a track ("Battered" = slot 1, "Battered 2"), or None (F11)."""
    names = TRACKS[kind]
    text = " ".join(name.split()).casefold()
    slot = 1
    head, _, tail = text.rpartition(" ")
    if head and tail.isdigit():
        text, slot = head, int(tail)
    seen = 0
    for i, level in enumerate(names):
        if level.casefold() == text:
            seen += 1
            if seen == slot:
                return i
    return None


def apply_damage(character: Character, levels: int, config: RulesConfig) -> Character:
    """The character after `levels` of damage, clamped at Dead (F11, F12 Amb-7).

    On the pips option one level of damage fills one pip (F11 Amb-3).
    """
    if levels <= 0:
        return character
    health, pips = damaged(character, levels, config)
    if uses_pips(character, config):
        return replace(character, pips=pips, health=health)
    return replace(character, health=health)


def damaged(character: Character, levels: int, config: RulesConfig) -> tuple[int, int]:
    """`(health, pips)` after `levels` (> 0) of damage, as `apply_damage` sets them (F11)."""
    if uses_pips(character, config):
        pips = min(pips_dead(), character.pips + levels)
        return index_from_pips(pips), pips
    dead, index = dead_index(character), current_index(character, config) + levels
    return (dead if dead <= index else index), character.pips  # min(dead, index)


def wound_penalty(character: Character, config: RulesConfig) -> int:
    """The lasting AP penalty of the character's level name (F10): Wounded 1, Incapacitated 2.

    Every track uses the level name, and a Master's three Wounded slots cost 1 each, not
    cumulatively (F10 Rule, Amb-6).
    """
    return LEVELS[base_level_name(character, config)].ap_penalty


def is_dead(character: Character, config: RulesConfig) -> bool:
    """Dead, or vaporized (F11, F18.16)."""
    return (
        LEVELS[base_level_name(character, config)].dead
        or character.has_status(StatusKind.VAPORIZED)
    )


def dead_or_out(character: Character, config: RulesConfig) -> tuple[bool, bool]:
    """(`is_dead`, `is_unconscious`) at once, from one reading of the level (F6 Amb-6, F11)."""
    level = LEVELS[base_level_name(character, config)]
    dead = level.dead or character.has_status(StatusKind.VAPORIZED)
    return dead, dead or level.unconscious or _knocked_out(character)


def is_dying(character: Character, config: RulesConfig) -> bool:
    """At its track's Dying level (F15; a Lieutenant's track has none, Amb-8)."""
    return base_level_name(character, config) == "Dying"


def is_unconscious(character: Character, config: RulesConfig) -> bool:
    """Dying, Dead, or knocked out: no actions and defense 1 (F6 Amb-6, F10)."""
    level = LEVELS[base_level_name(character, config)]
    return level.unconscious or level.dead or _knocked_out(character)


def _knocked_out(character: Character) -> bool:
    """Knocked out or vaporized, whatever the level (F18.3, F18.16)."""
    for s in character.statuses:
        if s.kind is StatusKind.UNCONSCIOUS or s.kind is StatusKind.VAPORIZED:
            return True
    return False


def can_act(character: Character, config: RulesConfig, *, endure: bool = False) -> bool:
    """Whether the character may allocate AP this turn (F10).

    Dying, Dead and unconscious characters cannot act; an Incapacitated one only with `endure`
    (1 Tireless SP, F10 Amb-7). A frozen character's one allowed action (a Wrestling break attempt,
    F18.15) is checked where actions are validated.
    """
    name = base_level_name(character, config)
    level = LEVELS[name]
    if level.unconscious or level.dead or _knocked_out(character):
        return False
    if name == "Incapacitated":
        return endure
    return True


def ap_budget(character: Character, config: RulesConfig, *, shock: bool | None = None) -> int:
    """AP this turn: base - shock - wound penalty, floor 0 (F10 Rule, Amb-9).

    A nerve poison's AP loss (F18.6) comes off too while it lasts.

    `shock` defaults to the character's `shock` flag (it moved down in the previous resolution).
    """
    return budget_after(character, wound_penalty(character, config), shock=shock)


def budget_after(character: Character, wound: int, *, shock: bool | None = None) -> int:
    """`ap_budget` with the wound penalty of the character's level already known (F10)."""
    moved = character.shock if shock is None else shock
    nerve = 0
    for s in character.statuses:
        if s.kind is StatusKind.POISONED:
            nerve += s.ap_loss
    budget = character.ap_base - (1 if moved else 0) - wound - nerve
    return budget if budget > 0 else 0


def turn_budget(character: Character, config: RulesConfig, wound: int | None = None) -> int:
    """AP the character may allocate this turn (F8, F10): `ap_budget`, and for a nuisance or
    minion group no more than its tier's base AP, since each creature acts with its own AP
    (F20, F21). `wound` is the wound penalty when the caller already knows it.

    The character is the one after F7 step 2 (`finalize.finalized_for`): its shock and wound
    penalty come from the hits it settled with this turn's reductions.
    """
    if wound is None:
        wound = wound_penalty(character, config)
    budget = budget_after(character, wound)
    if character.is_fodder:
        cap = TIERS[character.tier].base_ap
        if budget > cap:  # `min`, without the call (a slow builtin, once per order)
            budget = cap
    return budget


def ap_next(character: Character, config: RulesConfig, *, shock: bool | None = None) -> int:
    """AP the character would have next turn as things stand (F10; spec: `ap_next`).

    0 for a character that cannot act next turn (Dying, Dead, unconscious, or a nuisance or
    minion group whose every creature was eliminated, F20/F21); otherwise the base, less the shock
    from this resolution's hits (provisional), less the wound penalty of its level.
    """
    if is_unconscious(character, config) or (character.is_fodder and character.count == 0):
        return 0
    return ap_budget(character, config, shock=shock)

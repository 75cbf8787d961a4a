"""Restoring SP at the end of a scene (RULINGS F27).

[F:L452] "Success Points partially regenerate at the end of a scene, as determined by the GM."
[F:L454-461] "1 pt: Next scene follows immediately / 2 pts: ... the same day / 3 pts: ... a good
night's rest / 4 pts: ... a week or more of downtime / All: After the end of the adventure".
[F:L463] "These restored points may go toward any Trait or mix of Traits. Excess points are lost."
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import CustomTrait, Trait, trait_by_name, trait_key
from fappo_bot.rules.results import RulesError


class BreakKind(StrEnum):
    """The gap between scenes, as the GM declares it (F27)."""

    IMMEDIATE = "immediate"
    SAME_DAY = "same_day"
    NIGHT = "night"
    WEEK_PLUS = "week_plus"
    ADVENTURE_END = "adventure_end"


#: Points restored per break; None = all [F:L454-461].
REST_POINTS: dict[BreakKind, int | None] = {
    BreakKind.IMMEDIATE: 1,
    BreakKind.SAME_DAY: 2,
    BreakKind.NIGHT: 3,
    BreakKind.WEEK_PLUS: 4,
    BreakKind.ADVENTURE_END: None,
}


def break_kind(value: BreakKind | str) -> BreakKind:
    """The break named `value` (case-insensitive; `week-plus` accepted), or a clear error."""
    if isinstance(value, BreakKind):
        return value
    key = value.strip().casefold().replace("-", "_").replace(" ", "_")
    for kind in BreakKind:
        if kind.value == key:
            return kind
    raise RulesError("unknown-name", f"'{value}' is no scene break; use one of "
                     f"{', '.join(k.value for k in BreakKind)}.", "break")


def rest_points(kind: BreakKind | str) -> int | None:
    """SP restored by a break (None: all) (F27)."""
    return REST_POINTS[break_kind(kind)]


@dataclass(frozen=True, slots=True, kw_only=True)
class RestOutcome:
    """The character after resting, and where the points went."""

    character: Character
    #: points actually restored, by pool key
    restored: dict[str, int] = field(default_factory=dict)
    #: points lost: allocated to a full pool ("Excess points are lost")
    lost: int = 0


def _pools(character: Character, config: RulesConfig, everything: bool) -> list[str]:
    """Restorable pool keys in Trait list order, floating last (F27 Amb-2)."""
    keys = [t.value for t in Trait if t in character.traits]
    keys += sorted((t.value for t in character.traits if type(t) is CustomTrait),
                   key=str.casefold)  # a game's own Traits after the rulebook's
    if character.floating_maximum > 0 and (everything or config.floating_sp_restorable):
        keys.append(FLOATING)
    return keys


def _maximum(character: Character, key: str) -> int:
    if key == FLOATING:
        return character.floating_maximum
    return character.trait_maximum(trait_key(key))


def _deficit(character: Character, key: str, current: Mapping[str, int]) -> int:
    return max(0, _maximum(character, key) - current[key])


def _canonical(character: Character, allocation: Mapping[str, int], pools: list[str],
               config: RulesConfig) -> dict[str, int]:
    out: dict[str, int] = {}
    for raw, amount in allocation.items():
        if amount < 0:
            raise RulesError("bad-allocation",
                             f"Restored points cannot be negative ({raw}: {amount}).", raw)
        if raw.strip().casefold() == FLOATING:
            key = FLOATING
            if not config.floating_sp_restorable:
                raise RulesError("bad-allocation", "Floating SP are not restored between scenes "
                                 "in this game (only Traits, [F:L463]).", raw)
        else:
            trait = trait_by_name(raw)
            custom = character.custom_pool(raw) if trait is None else None
            if custom is not None:
                key = custom
            elif trait is None:
                raise RulesError("unknown-name", f"'{raw}' is no Trait (or 'floating') to "
                                 "restore SP to.", raw)
            else:
                key = trait.value
        if key not in pools:
            raise RulesError("unknown-name", f"{character.name} has no {key} pool to restore "
                             "SP to.", raw)
        out[key] = out.get(key, 0) + amount
    return out


def restore(
    character: Character,
    kind: BreakKind | str,
    allocation: Mapping[str, int] | None = None,
    config: RulesConfig | None = None,
) -> RestOutcome:
    """Restore SP for a scene break, with the detail of where points went (F27).

    The player's allocation is applied first, in the order it lists the pools, clipped to the
    points the break restores and each pool at its maximum (the excess is lost; never refused,
    Amendments 2026-12-01); points the player did not allocate (all of them, without an
    allocation) go one at a time to the pool with the largest deficit, ties in the canonical
    Trait order (Brawny, Vigilant, ... Fantastical), floating last (Amb-2).
    Floating SP are restorable per `floating_sp_restorable` (Amb-1); the end of the adventure
    refills every pool, floating included.
    """
    cfg = config or RulesConfig()
    points = rest_points(kind)
    everything = points is None
    pools = _pools(character, cfg, everything)
    current = {k: (character.floating if k == FLOATING else character.traits[trait_key(k)])
               for k in pools}
    restored = dict.fromkeys(pools, 0)
    lost = 0
    if points is None:
        for key in pools:
            restored[key] = _deficit(character, key, current)
    else:
        left = points
        # in the order the allocation lists the pools: what the break does not restore is
        # clipped, and what a full pool cannot take is lost (Amendments 2026-12-01, F27)
        for key, amount in _canonical(character, allocation or {}, pools, cfg).items():
            taken = min(amount, left)
            fits = min(taken, _deficit(character, key, current) - restored[key])
            restored[key] += fits
            lost += taken - fits
            left -= taken
        while left > 0:
            room = {k: _deficit(character, k, current) - restored[k] for k in pools}
            best = max(pools, key=lambda k: room[k], default=None)
            if best is None or room[best] <= 0:
                lost += left
                break
            restored[best] += 1
            left -= 1
    traits = dict(character.traits)
    floating = character.floating
    for key, amount in restored.items():
        if key == FLOATING:
            floating += amount
        else:
            traits[trait_key(key)] += amount
    updated = replace(character, traits=traits, floating=floating)
    return RestOutcome(character=updated, restored={k: v for k, v in restored.items() if v},
                       lost=lost)


def restore_sp(
    character: Character,
    break_kind: BreakKind | str,
    allocation: Mapping[str, int] | None = None,
    config: RulesConfig | None = None,
) -> Character:
    """The character after a scene break restores its SP (F27); see `restore`."""
    return restore(character, break_kind, allocation, config).character

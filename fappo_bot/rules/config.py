"""The per-game ruleset configuration: the R2 flags, each defaulting to its ruling."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Annotated

from annotated_types import Ge
from pydantic import ConfigDict


class NuisanceCountMode(str, Enum):
    """F20 Amb-1: 3 x effective margin (ruling) or 3 x level rank."""

    MARGIN = "margin"
    LEVEL_RANK = "level_rank"


class MinionElimMode(str, Enum):
    """F21 Amb-1: the damage the hit deals (ruling) or the weapon's base damage."""

    DAMAGE_DEALT = "damage_dealt"
    WEAPON_BASE_DAMAGE = "weapon_base_damage"


class PipsHealMode(str, Enum):
    """F11 Amb-2: healing the most advanced level clears every pip (ruling) or one level."""

    RESET_ALL = "reset_all"
    ONE_LEVEL = "one_level"


class SpecialsPerGreat(str, Enum):
    """F12 Amb-1: Extra Damage plus one declared Special (ruling), or all of them."""

    ED_PLUS_ONE = "ed_plus_one"
    ALL = "all"


class KnockoutMode(str, Enum):
    """F18.3 Amb-1: 10 min x max(1, em) (ruling) or 10 min x (attacker skill - defense)."""

    EFFECTIVE_MARGIN = "effective_margin"
    SKILL_MINUS_DEFENSE = "skill_minus_defense"


class MagicMode(str, Enum):
    """F26 Amb-3: which kinds of magic a caster may use."""

    BOTH = "both"
    GENERAL = "general"
    SPECIFIC = "specific"


class SpellResolution(str, Enum):
    """F25 Amb-1: a casting stage then an attack stage (ruling), or a single roll."""

    TWO_STAGE = "two_stage"
    SINGLE_ROLL = "single_roll"


class AdvancementMenu(str, Enum):
    """F28 Amb-1: everything but packages (ruling) or the literal "skills + traits"."""

    ALL_BUT_PACKAGES = "all_but_packages"
    SKILLS_AND_TRAITS = "skills_and_traits"


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesConfig:
    """The R2 configuration flags of one game. Every default is the RULINGS ruling.

    The input schema (`TypeAdapter(RulesConfig)`: case files, a GM's flags, storage) refuses
    unknown flags."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    pips_enabled: bool = False
    pips_heal_mode: PipsHealMode = PipsHealMode.RESET_ALL
    #: tiers that use pips when `pips_enabled` (R2 health_model_by_tier: PCs and Veterans)
    pips_tiers: tuple[str, ...] = ("pc", "veteran")
    spellcasting_is_attack_skill: bool = False
    #: the game's mapping of weapons the table leaves to the GM (Spear, Polearm...) to a skill,
    #: by weapon name (F19 Amb-1 amendment); case-insensitive
    weapon_skills: dict[str, str] = field(default_factory=dict)
    nuisance_count_mode: NuisanceCountMode = NuisanceCountMode.MARGIN
    minion_elim_mode: MinionElimMode = MinionElimMode.DAMAGE_DEALT
    fodder_elimination_by_any_attacker: bool = True
    fodder_can_pledge: bool = False
    fodder_can_reduce: bool = False
    floating_sp_for_reduction: bool = True
    floating_sp_restorable: bool = True
    specials_per_great: SpecialsPerGreat = SpecialsPerGreat.ED_PLUS_ONE
    knockout_duration_mode: KnockoutMode = KnockoutMode.EFFECTIVE_MARGIN
    #: F18.8 Dismemberment tiers by effective margin: moderate from this em, major from the next
    dismember_moderate_from: int = 4
    dismember_major_from: int = 6
    healing_spell_layering: bool = True
    healing_spell_cooldown_seconds: int = 0
    magic_mode: MagicMode = MagicMode.BOTH
    spell_resolution: SpellResolution = SpellResolution.TWO_STAGE
    min_spell_difficulty: int | None = 1
    advancement_menu: AdvancementMenu = AdvancementMenu.ALL_BUT_PACKAGES
    inactive_threshold: Annotated[int, Ge(1)] = 3
    auto_reduce_on_absence: bool = False
    hide_all_allocations: bool = False
    #: F17 Amb-4: spells cast at a distance of 1 Range or more count as ranged for shields
    spells_at_range_are_ranged: bool = True
    #: minion Collaborate for this encounter (F21 Amb-4), a GM option
    collaborate: bool = False
    #: F29: player-vs-player resolved by the players on an honor system (default: the bot)
    allow_player_resolved_pvp: bool = False

    def mapped_skill(self, weapon: str) -> str | None:
        """The skill the game maps a weapon to, if any (F19 Amb-1 amendment)."""
        key = weapon.casefold()
        for name, skill in self.weapon_skills.items():
            if name.casefold() == key:
                return skill
        return None

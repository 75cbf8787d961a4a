"""The FAPPO rules core (RULINGS F0-F30): pure functions over plain slotted dataclasses.

This is its public face: other packages (posting, adjudication, service, storage, console, the
benchmarks) import from `fappo_bot.rules` only, and only the names below
(`tests/test_architecture.py` checks it). The modules inside are free to change shape; a name
joins this list when outside code needs it. `docs/architecture.md` maps each RULINGS section to
its module."""

from __future__ import annotations

from fappo_bot.rules.advancement import (
    MAX_AWARD,
    Purchase,
    PurchaseKind,
    TournamentLedger,
    award_advancement,
    record_adventure,
    spend_cc,
    starting_budget,
)
from fappo_bot.rules.casting import cast_profile
from fappo_bot.rules.character import FLOATING, Character, Spell, Status, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig, SpellResolution
from fappo_bot.rules.data import (
    AP_COSTS,
    PIP_THRESHOLDS,
    PLASER_BATTERY,
    SKILLS,
    SKILLS_BY_KEY,
    THROWING,
    TRACKS,
    TRAIT_ALIASES,
    WEAPONS,
    ArmorType,
    CustomTrait,
    RangeClass,
    Special,
    Tier,
    TrackKind,
    Trait,
    armor_by_name,
    special_by_name,
    trait_by_name,
    weapon_by_name,
)
from fappo_bot.rules.fodder import ELIMINATION, entities
from fappo_bot.rules.healing import HealingCheck, heal, level_index
from fappo_bot.rules.healing_turn import with_healing_checks
from fappo_bot.rules.health import ap_budget, ap_next, current_index, level_name, track, uses_pips
from fappo_bot.rules.legendary import (
    LegendaryItem,
    LegendaryUpgrade,
    bind,
    change_hands,
    give_up,
    powers_active,
    take_up,
)
from fappo_bot.rules.levels import SuccessLevel, chart
from fappo_bot.rules.magic import (
    cast_difficulty,
    general_difficulty,
    learned_cast_difficulty,
    learned_difficulty,
    spell_cost,
    suggested_mood,
)
from fappo_bot.rules.names import Roster, fold, pool_key
from fappo_bot.rules.orders import (
    ANY,
    Action,
    ActionKind,
    Binding,
    Claim,
    Order,
    PendingHit,
    Pledge,
    Reduction,
)
from fappo_bot.rules.ranges import moves_away
from fappo_bot.rules.resolve import resolve_turn
from fappo_bot.rules.rest import BreakKind, rest_points, restore, restore_sp
from fappo_bot.rules.results import (
    ActionResult,
    ErrorCode,
    GMInputs,
    OrderError,
    RulesError,
    TargetResult,
    TurnResult,
    TurnState,
    Where,
)
from fappo_bot.rules.sheet import Sheet, character_from_sheet, check_sheet
from fappo_bot.rules.spending import action_spends
from fappo_bot.rules.traits import (
    BUILT_IN,
    MAX_CUSTOM_TRAITS,
    MAX_TRAIT_ALIASES,
    MAX_TRAIT_NAME,
    MAX_TRAIT_SKILLS,
    TraitCatalogue,
    TraitDef,
    TraitRefused,
    new_trait,
)
from fappo_bot.rules.validate import order_budget, validate_order
from fappo_bot.rules.validate_actions import order_ap_costs

__all__ = [
    "ANY",
    "AP_COSTS",
    "Action",
    "ActionKind",
    "ActionResult",
    "ArmorType",
    "BUILT_IN",
    "BreakKind",
    "CustomTrait",
    "MAX_CUSTOM_TRAITS",
    "MAX_TRAIT_ALIASES",
    "MAX_TRAIT_NAME",
    "MAX_TRAIT_SKILLS",
    "TraitCatalogue",
    "TraitDef",
    "TraitRefused",
    "new_trait",
    "Character",
    "Claim",
    "ELIMINATION",
    "ErrorCode",
    "FLOATING",
    "GMInputs",
    "HealingCheck",
    "LegendaryItem",
    "LegendaryUpgrade",
    "MAX_AWARD",
    "Order",
    "OrderError",
    "PIP_THRESHOLDS",
    "PLASER_BATTERY",
    "PendingHit",
    "Pledge",
    "Purchase",
    "PurchaseKind",
    "RangeClass",
    "Reduction",
    "Roster",
    "RulesConfig",
    "RulesError",
    "SKILLS",
    "SKILLS_BY_KEY",
    "Sheet",
    "Special",
    "SpellResolution",
    "Spell",
    "Status",
    "StatusKind",
    "SuccessLevel",
    "THROWING",
    "TRACKS",
    "TRAIT_ALIASES",
    "TargetResult",
    "Tier",
    "TournamentLedger",
    "TrackKind",
    "Trait",
    "TurnResult",
    "TurnState",
    "WEAPONS",
    "Weapon",
    "Where",
    "action_spends",
    "ap_budget",
    "ap_next",
    "armor_by_name",
    "cast_profile",
    "cast_difficulty",
    "general_difficulty",
    "learned_cast_difficulty",
    "learned_difficulty",
    "spell_cost",
    "award_advancement",
    "character_from_sheet",
    "check_sheet",
    "chart",
    "current_index",
    "entities",
    "fold",
    "heal",
    "level_index",
    "level_name",
    "moves_away",
    "order_ap_costs",
    "order_budget",
    "pool_key",
    "record_adventure",
    "resolve_turn",
    "rest_points",
    "restore",
    "restore_sp",
    "special_by_name",
    "suggested_mood",
    "spend_cc",
    "starting_budget",
    "track",
    "trait_by_name",
    "uses_pips",
    "validate_order",
    "weapon_by_name",
    "bind",
    "change_hands",
    "give_up",
    "powers_active",
    "take_up",
    "Binding",
    "with_healing_checks",
]

"""Case files to typed cases (spec/cases.md): every field of the characters block, orders,
options, and the bad-case handling that keeps one malformed case from stopping the rest."""

from __future__ import annotations

import pytest

from fappo_bot.adjudication.loader import (
    BadCase,
    CaseError,
    CaseFileError,
    HealCase,
    ParseCase,
    PostOrder,
    RestCase,
    SheetCase,
    SpellCase,
    TurnCase,
    character_from_case,
    load_case_file,
    load_case_text,
)
from fappo_bot.rules.character import StatusKind
from fappo_bot.rules.config import NuisanceCountMode
from fappo_bot.rules.data import ArmorType, RangeClass, Special, Tier, Trait

pytestmark = pytest.mark.unit


def test_character_every_field() -> None:
    kael = character_from_case({
        "name": "Kael", "tier": "PC", "count": 1, "ap": 4,
        "traits": {"agile": 2, "Highborn": 4}, "floating": 1,
        "max": {"traits": {"Nimble": 5, "Worldly": 4}, "floating": 2},
        "skills": {"swordfighting": 3, "ARCHERY": 2},
        "weapons": ["Broadsword", {"name": "Elf Bow", "damage": 3, "range": "extreme",
                                   "specials": ["Barbed"], "skill": "archery", "accuracy": 1,
                                   "extra_damage": 1}],
        "wielding": "elf bow", "armor": "light", "armor_bonus": 1, "shield": "Medium",
        "health": "wounded", "position": 4, "status": ["prone", "Bleeding"], "shock": True,
        "dying_turns": 2, "attended_turns": 1, "ammo": 10, "steadied_turns": 1,
        "spells": [{"name": "Fireball", "effects": {"damage": 4}, "special": "fire"},
                   {"name": "Mend", "difficulty": 4}],
    })
    assert kael.tier is Tier.PC and kael.base_ap == 4
    assert kael.traits == {Trait.NIMBLE: 2, Trait.HIGHBORN: 4}
    assert kael.trait_max == {Trait.NIMBLE: 5, Trait.HIGHBORN: 4} and kael.floating_max == 2
    assert kael.skills == {"Swordfighting": 3, "Archery": 2}
    bow = kael.weapon("Elf Bow")
    assert bow is not None and bow.damage == 3 and bow.range_class is RangeClass.EXTREME
    assert bow.ranged and bow.specials == (Special.BARBED,) and bow.skill == "Archery"
    assert bow.accuracy == 1 and bow.extra_damage == 1
    assert kael.wielding == "Elf Bow"
    assert kael.armor is ArmorType.LIGHT and kael.armor_bonus == 1
    assert kael.shield is ArmorType.MEDIUM
    assert kael.health == 3 and kael.position == 4 and kael.shock
    assert {s.kind for s in kael.statuses} == {StatusKind.PRONE, StatusKind.BLEEDING}
    assert (kael.dying_turns, kael.attended_turns, kael.ammo, kael.steadied_turns) == (2, 1, 10, 1)
    assert kael.spells[0].special is Special.FIRE and kael.spells[1].difficulty == 4


def test_table_weapon_keeps_its_row_and_defaults_to_first() -> None:
    kael = character_from_case({"name": "Kael", "weapons": ["long bow", "Dagger"]})
    assert kael.weapons[0].name == "Long Bow" and kael.weapons[0].range_class is RangeClass.EXTREME
    assert kael.wielding is None and kael.weapon() == kael.weapons[0]


def test_wielding_a_table_weapon_not_listed_adds_it() -> None:
    kael = character_from_case({"name": "Kael", "weapons": ["Dagger"], "wielding": "Fist"})
    assert kael.wielding == "Fist" and [w.name for w in kael.weapons] == ["Dagger", "Fist"]


@pytest.mark.parametrize(
    ("tier", "health", "index"),
    [("master", "Battered 2", 4), ("master", "Battered", 3), ("master", "wounded 3", 7),
     ("master", "Unaffected", 1), ("pc", "Dying", 5), ("lieutenant", "Wounded", 1),
     ("veteran", "Dead", 6)],
)
def test_f11_health_names_with_master_slots(tier: str, health: str, index: int) -> None:
    """F11: Masters have "Healthy, Unaffected, Staggered, Battered, Battered, Wounded, Wounded,
    Wounded, Incapacitated, Dying, Dead"; a bare repeated name in a case means slot 1."""
    assert character_from_case({"name": "X", "tier": tier, "health": health}).health == index


def test_f11_pips_damage_overrides_health() -> None:
    """F11 Amb-1: 2-3 pips Battered, 4-6 Wounded."""
    kael = character_from_case({"name": "Kael", "health": "Healthy", "damage": 4})
    assert kael.pips == 4 and kael.health == 3


@pytest.mark.parametrize(
    ("entry", "words"),
    [({"name": "K", "skills": {"Sorcery": 2}}, "no skill called 'Sorcery'"),
     ({"name": "K", "traits": {"Lucky": 3}}, "no Trait called 'Lucky'"),
     ({"name": "K", "weapons": ["Laser Cannon"]}, "no weapon called 'Laser Cannon'"),
     ({"name": "K", "health": "Bruised"}, "'Bruised' is not a level"),
     ({"name": "K", "tier": "master", "health": "Battered 3"}, "'Battered 3' is not a level"),
     ({"name": "K", "status": ["sleepy"]}, "'sleepy' is not one of")],
)
def test_unknown_names_are_unknown_name_errors(entry: dict[str, object], words: str) -> None:
    with pytest.raises(CaseError) as caught:
        character_from_case(entry)
    assert words in str(caught.value)
    if "status" not in entry:
        assert caught.value.code == "unknown-name"


@pytest.mark.parametrize(
    ("entry", "words"),
    [({"traits": {"Nimble": 3}}, "needs a name"),
     ({"name": "K", "armour": "light"}, "unknown field armour"),
     ({"name": "K", "skills": {"Stealth": "lots"}}, "expected a whole number"),
     ({"name": "K", "weapons": [{"name": "Stick"}]}, "give its damage"),
     ({"name": "K", "armor": "plate"}, "'plate' is not one of none, light, medium, heavy")],
)
def test_malformed_characters_say_what_is_wrong(entry: dict[str, object], words: str) -> None:
    with pytest.raises(CaseError) as caught:
        character_from_case(entry)
    assert words in str(caught.value)


def test_turn_case_orders_pending_options() -> None:
    [case] = load_case_text("""
cases:
- id: t1
  options: {nuisance_count_mode: level_rank, collaborate: true}
  characters: [{name: Kael, traits: {Nimble: 3}}, {name: Mira}]
  pending: [{id: h1, target: Kael, attacker: Bandit, levels: 3, specials: [Bleeding]}]
  orders:
  - actor: Kael
    endure: true
    actions:
    - {kind: Attack, ap: 2, target: Mira, sp: {agile: 1, floating: 1}, if: she moves, triggered: true}
    - {kind: move, ranges: 3}
    guard: [{against: all, sp: {Nimble: 1}}]
    reduce: [{hit: h1, sp: {Nimble: 2}, why: cloak}]
  - actor: Mira
    post: "2 AP attack Kael"
  expect: {}
""")
    assert isinstance(case, TurnCase)
    assert case.config.nuisance_count_mode is NuisanceCountMode.LEVEL_RANK
    assert case.config.collaborate
    assert case.pending[0].levels == 3 and case.pending[0].specials == ("Bleeding",)
    kael, mira = case.orders
    assert not isinstance(kael, PostOrder) and kael.endure
    attack, move = kael.actions
    assert attack.sp == {"Nimble": 1, "floating": 1}
    assert attack.condition == "she moves" and attack.triggered
    assert move.ap is None and move.ranges == 3
    assert kael.guard[0].general and kael.reduce[0].why == "cloak"
    assert isinstance(mira, PostOrder) and mira.actor == "Mira" and mira.post == "2 AP attack Kael"


def test_every_kind_loads() -> None:
    cases = load_case_text("""
cases:
- {id: s, kind: sheet, sheet: {tier: pc, traits: {Nimble: 5}}, expect: {valid: true}}
- {id: m, kind: spell, effects: {damage: 4}, ranges: 3, expect: {difficulty: 7}}
- id: r
  kind: rest
  characters: [{name: Kael, traits: {Nimble: 1}, max: {traits: {Nimble: 5}}}]
  break: night
  allocate: {Kael: {Agile: 3}}
  expect: {characters: [{name: Kael, sp: {Nimble: 4}}]}
- id: h
  kind: heal
  characters: [{name: Kael, health: Battered}]
  elapsed: 300
  check: {total: 5, sp: {Smart: 1}, sagacious: true}
  expect: {check_level: solid}
- {id: p, kind: parse, characters: [{name: Mira}], post: "1 AP defend", expect: {orders: []}}
""")
    assert [type(c) for c in cases] == [SheetCase, SpellCase, RestCase, HealCase, ParseCase]
    rest, heal, parse = cases[2], cases[3], cases[4]
    assert isinstance(rest, RestCase) and rest.break_ == "night"
    assert rest.allocate == {"Kael": {"Nimble": 3}}
    assert isinstance(heal, HealCase) and heal.check is not None
    assert heal.check.sp == {"Sagacious": 1} and heal.elapsed == 300
    assert isinstance(parse, ParseCase) and parse.poster == "Mira"  # the only character


@pytest.mark.parametrize(
    ("entry", "words"),
    [("{id: a, kind: battle}", "unknown kind 'battle' (kinds: turn, sheet, spell, rest, heal, parse)"),
     ("{id: a, expect: {helth: Dead}}", "expect: unknown field helth"),
     ("{id: a, options: {pips: true}}", "options: unknown field pips"),
     ("{id: a, ordres: []}", "unknown field for a turn case: ordres"),
     ("{id: a, orders: [{actor: K, post: x, actions: []}]}", "either a post or structured orders"),
     ("{id: a, orders: [{actor: K, actions: [{kind: fly}]}]}", "orders[0] (K).actions[0]: kind: Input should be 'attack'"),
     ("{id: a, characters: [{name: K}, {name: k}]}", "used twice"),
     ("{kind: spell, effects: {}}", "no `id`"),
     ("{id: a, kind: rest, characters: []}", "needs a `break:`"),
     ("{id: a, expect: {actions: [{actor: K}]}}", "expect.actions[0]: needs index"),
     ("{id: a, kind: parse, characters: [{name: A}, {name: B}], post: x}", "needs a `poster:`")],
)
def test_bad_cases_carry_a_clear_message(entry: str, words: str) -> None:
    [case] = load_case_text(f"cases:\n- {entry}\n", "f.yaml")
    assert isinstance(case, BadCase)
    assert words in case.problem


def test_a_bad_case_does_not_stop_the_others() -> None:
    cases = load_case_text("""
cases:
- {id: one, characters: [{name: K, skills: {Sorcery: 1}}]}
- {id: two, kind: spell, effects: {damage: 1}}
- {id: two, kind: spell, effects: {damage: 2}}
- just text
""", "f.yaml")
    assert [type(c).__name__ for c in cases] == ["BadCase", "SpellCase", "BadCase", "BadCase"]
    assert isinstance(cases[0], BadCase) and cases[0].code == "unknown-name"
    assert cases[2].id == "two" and "used twice" in cases[2].problem  # type: ignore[union-attr]
    assert cases[3].id == "f.yaml#4"


def test_unreadable_files(tmp_path) -> None:
    with pytest.raises(CaseFileError, match="no such file"):
        load_case_file(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("cases:\n- {id: a\n")
    with pytest.raises(CaseFileError, match=r"not valid YAML at line \d+"):
        load_case_file(broken)
    listless = tmp_path / "listless.yaml"
    listless.write_text("id: a\n")
    with pytest.raises(CaseFileError, match="`cases:` list"):
        load_case_file(listless)


def test_r2_options_in_their_rulings_spelling() -> None:
    """R2 names flags the way RULINGS writes them; they map onto RulesConfig."""
    from fappo_bot.rules.config import MinionElimMode
    from fappo_bot.sheets.convert import config_from_options

    config = config_from_options({
        "health_model_by_tier": {"PC": "pips", "veteran": "standard"},
        "dismember_tiers": [3, 5, 7],
        "healing_spell_layering": "cooldown(600)",
        "min_spell_difficulty": "none",
        "fodder_elimination_by_any_attacker": "PCs only",
        "minion_elim_mode": "Weapon_Base_Damage",
        "pips_enabled": True,
    })
    assert config.pips_tiers == ("pc",) and config.pips_enabled
    assert (config.dismember_moderate_from, config.dismember_major_from) == (5, 7)
    assert not config.healing_spell_layering and config.healing_spell_cooldown_seconds == 600
    assert config.min_spell_difficulty is None
    assert not config.fodder_elimination_by_any_attacker
    assert config.minion_elim_mode is MinionElimMode.WEAPON_BASE_DAMAGE
    assert config_from_options({"dismember_tiers": {"major": 8}}).dismember_major_from == 8
    assert config_from_options({"healing_spell_layering": "allowed"}).healing_spell_layering


def test_an_empty_id_is_a_bad_case() -> None:
    [case] = load_case_text("cases:\n- {id: '', kind: spell, effects: {}}\n", "f.yaml")
    assert isinstance(case, BadCase) and case.id == "f.yaml#1" and "no `id`" in case.problem


@pytest.mark.parametrize(
    ("written", "item"),
    [("impaled: Spear", "Spear"), ("Impaled (Thrown Spear)", "Thrown Spear"),
     ("barbed by Horse Bow", "Horse Bow"), ({"kind": "transfixed", "item": "Polearm"}, "Polearm")],
)
def test_f18_statuses_with_the_weapon_concerned(written: object, item: str) -> None:
    """F18.12-14: Impale, Barbed and Transfix leave a weapon to remove; a case may name it."""
    [status] = character_from_case({"name": "K", "status": [written]}).statuses
    assert status.item == item

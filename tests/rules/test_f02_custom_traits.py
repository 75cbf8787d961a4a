"""RULINGS F2 ("others may be introduced that follow the same general pattern" [F:L40]): a
game's own Trait in the pure core. A sheet buys it only in a game whose catalogue has it; the
skills it suggests are the game's, with it as their Suggested Trait, so its SP count one more
on them and it keeps them from an Abject Failure (F4); its SP are paid from its pool; a
character owning it is read and written by the Trait's name; the catalogue refuses a Trait that
clashes with a rulebook Trait or its alternate names."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from fappo_bot.rules import (
    BUILT_IN,
    Action,
    ActionKind,
    Character,
    CustomTrait,
    GMInputs,
    Order,
    Sheet,
    SuccessLevel,
    Trait,
    TraitCatalogue,
    TraitRefused,
    TurnState,
    check_sheet,
    new_trait,
    resolve_turn,
    validate_order,
)

pytestmark = pytest.mark.unit

KEEN = CustomTrait("Keen-eyed")
GAME = TraitCatalogue((new_trait(BUILT_IN, "Keen-eyed", ["Sharp"], ["Lookout"]),))


def test_f2_the_catalogue_finds_a_games_trait_by_its_names_and_its_skills() -> None:
    assert GAME.find("sharp") == KEEN and GAME.find("KEEN-EYED") == KEEN
    assert GAME.find("Agile") is Trait.NIMBLE and BUILT_IN.find("Sharp") is None
    assert GAME.suggested("lookout") == KEEN and GAME.suggested("Stealth") is Trait.NIMBLE
    assert BUILT_IN.suggested("Lookout") is None
    assert GAME.names()[-1] == "Keen-eyed" and len(GAME.names()) == 11


@pytest.mark.parametrize(("name", "aliases", "skills", "words"), [
    ("Burly", (), (), "a name of the Trait Brawny"),
    ("Hawk", ("Sharp",), (), "a name of the Trait Keen-eyed"),
    ("Hawk", (), ("Lookout",), "already suggested by Keen-eyed"),
    ("Hawk", (), ("Archery",), "Archery is a rulebook skill"),
    ("Two words", (), (), "one word"),
])
def test_f2_a_clash_is_refused(name, aliases, skills, words) -> None:
    with pytest.raises(TraitRefused, match=words):
        new_trait(GAME, name, aliases, skills)


def test_f2_a_sheet_buys_a_games_trait_only_in_that_game() -> None:
    sheet = Sheet(traits={"Keen-eyed": 3, "Nimble": 3}, skills={"Lookout": 2})
    assert check_sheet(sheet, traits=GAME).valid
    refused = check_sheet(sheet)
    assert not refused.valid
    assert {p.field for p in refused.errors} == {"traits.Keen-eyed", "skills.Lookout"}


def test_f2_a_character_owning_it_is_stored_by_the_traits_name() -> None:
    ann = Character(name="Ann", traits={KEEN: 3, Trait.NIMBLE: 2}, trait_max={KEEN: 4})
    adapter = TypeAdapter(Character)
    assert adapter.dump_python(ann, mode="json")["traits"] == {"Keen-eyed": 3, "Nimble": 2}
    back = adapter.validate_json(adapter.dump_json(ann))
    assert back == ann and back.pool("Keen-eyed") == 3 and back.trait_maximum(KEEN) == 4


def _look(catalogue: TraitCatalogue, sp: int, difficulty: int) -> tuple[SuccessLevel, int]:
    ann = Character(name="Ann", traits={KEEN: 3}, skills={"Lookout": 0})
    state = TurnState(characters=(ann,), in_combat=False, traits=catalogue)
    action = Action(kind=ActionKind.SKILL, ap=1, skill="Lookout", difficulty=difficulty,
                    sp={"Keen-eyed": sp} if sp else {})
    order = Order(actor="Ann", actions=(action,))
    assert validate_order(state, order) == []
    result = resolve_turn(state, [order], GMInputs())
    [done] = result.actions
    assert done.level is not None
    return done.level, result.state.characters[0].pool("Keen-eyed")


def test_f4_its_sp_count_one_more_on_a_skill_it_suggests() -> None:
    # 1 vs 3: a Failure; 1 SP moves it one level, two from the Suggested Trait (F4 Amb-1)
    assert _look(BUILT_IN, 1, 3) == (SuccessLevel.BARE, 2)
    assert _look(GAME, 1, 3) == (SuccessLevel.SOLID, 2)


def test_f4_it_keeps_a_skill_it_suggests_from_an_abject_failure() -> None:
    # 1 vs 5: -4, an Abject Failure, but a Failure for the owner of the Suggested Trait
    assert _look(BUILT_IN, 0, 5) == (SuccessLevel.ABJECT, 3)
    assert _look(GAME, 0, 5) == (SuccessLevel.FAILURE, 3)


def test_f4_a_trait_the_actor_does_not_own_is_no_pool() -> None:
    bob = Character(name="Bob", traits={Trait.NIMBLE: 3})
    state = TurnState(characters=(bob,), traits=GAME)
    order = Order(actor="Bob", actions=(Action(kind=ActionKind.SKILL, ap=1, skill="Lookout",
                                               difficulty=3, sp={"Keen-eyed": 1}),))
    errors = validate_order(state, order)
    assert any("'Keen-eyed' is not a Trait" in e.message for e in errors), errors

"""Forgiving names (spec/posting.md "Names match forgivingly"; RULINGS F2 Amb-4: the seed's
alternate Trait names are display aliases of one canonical Trait)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.posting.names import MatchTier, Named, one_typo, resolve
from fappo_bot.posting.scene import TRAITS
from tests.posting.helpers import action, codes, parse

pytestmark = pytest.mark.unit

PEOPLE = [Named(n) for n in ("Goblin 1", "Goblin 2", "Goblin Archer", "Kael", "Kay", "Troll")]


@pytest.mark.parametrize(("written", "name", "tier"), [
    ("kael", "Kael", MatchTier.EXACT),
    ("  TROLL ", "Troll", MatchTier.EXACT),
    ("goblin  archer", "Goblin Archer", MatchTier.EXACT),
    ("Goblin A", "Goblin Archer", MatchTier.PREFIX),
    ("Tro", "Troll", MatchTier.PREFIX),
    ("Trol", "Troll", MatchTier.PREFIX),
    ("Trolls", "Troll", MatchTier.TYPO),        # a letter added
    ("Trll", "Troll", MatchTier.TYPO),          # a letter removed
    ("Goblin Archor", "Goblin Archer", MatchTier.TYPO),  # a letter changed
    ("Tlorl", None, None),                 # two edits: nothing
    ("Toll", "Troll", MatchTier.TYPO),
    ("Rtoll", "Troll", MatchTier.TYPO),         # two neighbours swapped
])
def test_tiers(written: str, name: str | None, tier: MatchTier | None) -> None:
    found = resolve(written, PEOPLE)
    assert (found.found.name if found.found else None, found.tier if found.ok else None) == (
        name, tier)


def test_exact_wins_over_prefix_and_typo() -> None:
    """posting.md: "An exact match wins over a prefix or a typo match"."""
    assert resolve("Kay", PEOPLE).name == "Kay"  # also one typo from Kael
    things = [Named("Goblin"), Named("Goblin Chief")]
    assert resolve("goblin", things).name == "Goblin"


def test_a_prefix_of_several_is_ambiguous_with_the_candidates() -> None:
    found = resolve("Goblin", PEOPLE)
    assert found.ambiguous
    assert found.candidates == ("Goblin 1", "Goblin 2", "Goblin Archer")


def test_a_typo_of_several_is_ambiguous() -> None:
    found = resolve("Kaz", PEOPLE)  # Kay (changed) and Kael? no: Kael is two edits away
    assert found.ok and found.name == "Kay"
    found = resolve("Goblin 3", PEOPLE)
    assert found.ambiguous and set(found.candidates) == {"Goblin 1", "Goblin 2"}


def test_unknown_names_come_with_the_nearest_names() -> None:
    found = resolve("Gobbo", PEOPLE)
    assert not found.ok and not found.ambiguous
    assert found.candidates == ("Goblin 1", "Goblin 2", "Goblin Archer")


@pytest.mark.parametrize(("alias", "trait"), [
    ("Strong", "Brawny"), ("Burly", "Brawny"), ("Alert", "Vigilant"), ("Energetic", "Tireless"),
    ("Agile", "Nimble"), ("Dexterous", "Clever"), ("Adroit", "Clever"),
    ("Intelligent", "Sagacious"), ("Smart", "Sagacious"), ("Attractive", "Alluring"),
    ("Charismatic", "Alluring"), ("Aristocratic", "Highborn"), ("Worldly", "Highborn"),
    ("Inhuman", "Fantastical"), ("Alien", "Fantastical"), ("float", "floating"),
])
def test_alternate_trait_names(alias: str, trait: str) -> None:
    """[F:L46-64] the Traits' "Alternate names"."""
    assert resolve(alias, TRAITS).name == trait


def test_names_come_back_canonical_in_orders() -> None:
    got = action("2 AP ATTACK goblin ARCHER with longbow, 1 SP agile")
    assert (got["target"], got["weapon"], got["sp"]) == ("Goblin Archer", "Long Bow", {"Nimble": 1})


def test_skills_prefix_swordfighting() -> None:
    """posting.md: "a unique prefix (`Sword` for Swordfighting)"."""
    got = action("2 AP attack Goblin 1 with Sword")
    assert got.get("skill") == "Swordfighting"


def test_targets_are_the_characters_present_weapons_those_carried() -> None:
    assert codes(parse("1 AP draw Dagger")) == [(1, "unknown-name")]  # Kael carries none
    assert codes(parse("2 AP attack Zorg")) == [(1, "unknown-name")]


@settings(deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_one_typo_is_symmetric_and_means_distance_one(a: str, b: str) -> None:
    assert one_typo(a, b) == one_typo(b, a)
    if one_typo(a, b):
        assert a != b and abs(len(a) - len(b)) <= 1


@settings(deadline=None)
@given(st.text(min_size=1, max_size=12), st.integers(min_value=0, max_value=11),
       st.characters())
def test_every_single_edit_is_one_typo(word: str, at: int, ch: str) -> None:
    i = at % len(word)
    for edited in (word[:i] + ch + word[i:], word[:i] + word[i + 1:],
                   word[:i] + ch + word[i + 1:]):
        if edited != word:
            assert one_typo(word, edited)
    if i + 1 < len(word) and word[i] != word[i + 1]:
        assert one_typo(word, word[:i] + word[i + 1] + word[i] + word[i + 2:])


def test_full_width_and_curly_names_match() -> None:
    assert resolve("Ｔｒｏｌｌ", PEOPLE).name == "Troll"
    assert resolve("ﬁst", [Named("Fist")]).name == "Fist"
    assert resolve("Kael’s", [Named("Kael's")]).name == "Kael's"


def test_one_fold_for_the_whole_project() -> None:
    """The rules core and the post language compare names by the same key: a full-width name or a
    curly apostrophe matches in a case file's orders as it does in a post."""
    from fappo_bot.posting import names
    from fappo_bot.rules import fold
    from fappo_bot.rules.names import match_name

    assert names.fold is fold
    assert fold("Ｋａｅｌ’s  Blade") == "kael's blade"
    assert match_name("Ｋａｅｌ", ["Kael", "Mira"]).name == "Kael"


def test_the_one_nearest_name_matcher() -> None:
    """Every "did you mean" (a post, the GM's review, an Xp post) asks `nearest`, always with
    some names: a player who wrote a name that is nowhere needs the names there are."""
    from fappo_bot.spelling import nearest

    assert nearest("Skrag", ["Skarg", "Kael", "Mira"]) == ("Skarg",)
    assert nearest("M", ["Skarg", "Kael", "Mira"], limit=1) == ("Mira",)
    assert resolve("Zzzzzz", PEOPLE).candidates  # far from every name, yet some are offered

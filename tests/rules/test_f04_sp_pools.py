"""RULINGS F4: SP pools are read and paid by their canonical key (a Trait's default name, or
`floating`), whichever Traits the character owns."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import FLOATING, Character
from fappo_bot.rules.data import Trait
from fappo_bot.rules.spending import paid

pytestmark = pytest.mark.unit

_KEYS = [*(t.value for t in Trait), FLOATING, "nimble", "Inhuman", ""]
_TRAITS = st.dictionaries(st.sampled_from(list(Trait)), st.integers(0, 6), max_size=4)


@given(_TRAITS, st.integers(0, 3), st.sampled_from(_KEYS))
def test_f4_pool_is_the_trait_whose_default_name_is_the_key(
    traits: dict[Trait, int], floating: int, key: str
) -> None:
    """A pool key names a Trait by its default name exactly; an unowned or unknown one is 0."""
    kael = Character(name="Kael", traits=traits, floating=floating)
    owned = [sp for trait, sp in traits.items() if trait.value == key]
    want = floating if key == FLOATING else (owned[0] if owned else 0)
    assert kael.pool(key) == want


@given(_TRAITS, st.integers(0, 3),
       st.dictionaries(st.sampled_from(_KEYS), st.integers(1, 4), max_size=3))
def test_f4_paying_takes_each_key_from_its_own_pool(
    traits: dict[Trait, int], floating: int, spent: dict[str, int]
) -> None:
    """SP spent come out of the pool they were declared from, never below 0; keys that
    name no owned pool change nothing."""
    kael = Character(name="Kael", traits=traits, floating=floating)
    left = paid(kael, spent)
    if not spent:
        assert left is None
        return
    assert left is not None
    traits_left, floating_left = left
    assert floating_left == max(0, floating - spent.get(FLOATING, 0))
    assert traits_left == {
        trait: max(0, sp - spent.get(trait.value, 0)) for trait, sp in traits.items()
    }

"""RULINGS F27: restoring SP at the end of a scene."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fappo_bot.rules.character import Character
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import Trait
from fappo_bot.rules.rest import BreakKind, rest_points, restore, restore_sp
from fappo_bot.rules.results import RulesError
from tests.shared_folder import public_cases

pytestmark = pytest.mark.unit

N, V, H = Trait.NIMBLE, Trait.VIGILANT, Trait.HIGHBORN


def kael(nimble: int, other: int, floating: int = 0, *, other_trait: Trait = V,
         other_max: int = 3, floating_max: int = 1) -> Character:
    return Character(name="Kael", traits={N: nimble, other_trait: other},
                     trait_max={N: 5, other_trait: other_max}, floating=floating,
                     floating_max=floating_max)


@pytest.mark.parametrize(("kind", "points"), [("immediate", 1), ("same_day", 2), ("night", 3),
                                              ("week_plus", 4), ("adventure_end", None),
                                              ("Week-Plus", 4)])
def test_f27_points_per_break(kind: str, points: int | None) -> None:
    """[F:L454-461] "1 pt: Next scene follows immediately / 2 pts: ... same day / 3 pts: ...
    a good night's rest / 4 pts: ... a week or more of downtime / All: After the end of the
    adventure"."""
    assert rest_points(kind) == points


def test_f27_night_rest_allocated_example() -> None:
    """[F:L463] "These restored points may go toward any Trait or mix of Traits." RULINGS F27:
    Nimble 1/5, Vigilant 0/3, floating 0/1; night (3): Nimble +2, Vigilant +1 -> 3/5, 1/3, 0/1."""
    out = restore_sp(kael(1, 0), "night", {"Nimble": 2, "Vigilant": 1})
    assert (out.traits, out.floating) == ({N: 3, V: 1}, 0)


def test_f27_excess_points_are_lost() -> None:
    """[F:L463] "Excess points are lost." Nimble 3/5 + 4 -> 5; the other 2 are lost."""
    out = restore(kael(3, 2, floating_max=0), BreakKind.WEEK_PLUS, {"Nimble": 4})
    assert out.character.traits == {N: 5, V: 2}
    assert out.lost == 2 and out.restored == {"Nimble": 2}


def test_f27_nimble_plus_5_is_clipped_to_4() -> None:
    """RULINGS F27 (as corrected by the Amendments of 2026-12-01): "Choosing Nimble +5 on a
    week_plus rest (all points) clips 5 -> 4 (the deficit) and the rest is lost"; "points
    allocated beyond what the rest restores ... are clipped ... (never refused)"."""
    out = restore(kael(1, 0), "week_plus", {"Nimble": 5})
    assert out.character.traits == {N: 5, V: 0} and out.restored == {"Nimble": 4}
    out = restore(kael(1, 3, floating=1), "week_plus", {"Nimble": 4})
    assert out.character.traits[N] == 5 and out.lost == 0


def test_f27_clipping_follows_the_order_the_allocation_lists() -> None:
    """Amendments 2026-12-01, F27: "clipping follows the order in which the allocation lists the
    pools". A night restores 3: Vigilant +2 then Nimble +2 -> Vigilant 0 + 2, Nimble 1 + 1 (the
    third point); listed the other way round, Nimble 1 + 2, Vigilant 0 + 1."""
    first = restore_sp(kael(1, 0), "night", {"Vigilant": 2, "Nimble": 2})
    assert first.traits == {N: 2, V: 2}
    other = restore_sp(kael(1, 0), "night", {"Nimble": 2, "Vigilant": 2})
    assert other.traits == {N: 3, V: 1}


def test_f27_a_full_pool_loses_its_points_and_the_rest_goes_by_default() -> None:
    """Points beyond a pool's maximum are lost, never moved; points left unallocated are placed
    by the default rule. Same day (2): Vigilant 3/3 +1 is lost; the other point goes to the
    largest deficit, Nimble (1/5)."""
    out = restore(kael(1, 3, floating_max=0), "same_day", {"Vigilant": 1})
    assert out.character.traits == {N: 2, V: 3} and out.lost == 1


def test_f27_adventure_end_refills_all_floating_included() -> None:
    """[F:L461] "All: After the end of the adventure"; F27 Amb-1: floating too."""
    char = kael(0, 1, 0, other_trait=H, floating_max=2)
    out = restore_sp(char, "adventure_end", {"Nimble": 1})  # an allocation changes nothing
    assert (out.traits, out.floating) == ({N: 5, H: 3}, 2)
    strict = RulesConfig(floating_sp_restorable=False)
    assert restore_sp(char, "adventure_end", config=strict).floating == 2


def test_f27_amb2_default_allocation_largest_deficit_ties_by_trait_order() -> None:
    """RULINGS F27 Amb-2: "the engine allocates deterministically to the pool with the largest
    deficit (ties by Trait list order, floating last)"."""
    # Nimble 1/5 (4), Vigilant 0/3 (3), floating 0/1 (1): N, then tie 3-3 -> Vigilant (listed
    # before Nimble), then N.
    out = restore(kael(1, 0), "night")
    assert out.restored == {"Nimble": 2, "Vigilant": 1}
    tie = Character(name="T", traits={N: 2}, trait_max={N: 3}, floating=0, floating_max=1)
    assert restore(tie, "immediate").restored == {"Nimble": 1}  # floating last on a tie
    assert restore(tie, "same_day").restored == {"Nimble": 1, "floating": 1}


def test_f27_unallocated_points_go_by_the_default_rule() -> None:
    """A partial allocation: the player's points first, the rest by the default rule."""
    out = restore(kael(1, 0), "night", {"Vigilant": 1})
    assert out.restored == {"Vigilant": 1, "Nimble": 2}


def test_f27_everything_full_loses_the_points() -> None:
    """[F:L463] "Excess points are lost."."""
    out = restore(kael(5, 3, 1), "night")
    assert out.restored == {} and out.lost == 3


def test_f27_amb1_floating_restorable_flag() -> None:
    """RULINGS F27 Amb-1 flag `floating_sp_restorable` (default true)."""
    char = Character(name="F", traits={N: 5}, trait_max={N: 5}, floating=0, floating_max=2)
    assert restore_sp(char, "same_day", {"floating": 2}).floating == 2
    strict = RulesConfig(floating_sp_restorable=False)
    with pytest.raises(RulesError, match="Floating SP are not restored"):
        restore_sp(char, "same_day", {"floating": 1}, strict)
    assert restore(char, "same_day", config=strict).lost == 2


@pytest.mark.parametrize(("allocation", "match"), [({"Lucky": 1}, "no Trait"),
                                                   ({"Brawny": 1}, "no Brawny pool"),
                                                   ({"Nimble": -1}, "negative")])
def test_f27_bad_allocations_are_clear_errors(allocation: dict[str, int], match: str) -> None:
    """An allocation naming an unknown or unowned pool is refused with a clear message."""
    with pytest.raises(RulesError, match=match):
        restore_sp(kael(1, 0), "night", allocation)
    with pytest.raises(RulesError, match="no scene break"):
        restore_sp(kael(1, 0), "nap")


def test_f27_alternate_trait_names_in_allocation() -> None:
    """F2 Amb-4: alternate names are aliases of one Trait."""
    assert restore_sp(kael(1, 0), "night", {"Agile": 3}).traits[N] == 4


_state = st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 2))


@given(_state, st.sampled_from(list(BreakKind)), st.booleans())
def test_f27_rest_never_exceeds_max_and_never_loses_sp(state: tuple[int, int, int],
                                                       kind: BreakKind, flag: bool) -> None:
    """[F:L463] points go "toward any Trait"; pools never pass their maximum, never drop, and
    at most the break's points are restored."""
    nimble, vigilant, floating = state
    char = Character(name="P", traits={N: nimble, V: vigilant}, trait_max={N: 5, V: 3},
                     floating=floating, floating_max=2)
    out = restore(char, kind, config=RulesConfig(floating_sp_restorable=flag))
    after = out.character
    assert nimble <= after.traits[N] <= 5 and vigilant <= after.traits[V] <= 3
    assert floating <= after.floating <= 2
    gained = sum(out.restored.values())
    points = rest_points(kind)
    if points is not None:
        assert gained + out.lost == points
        deficit = (5 - nimble) + (3 - vigilant) + ((2 - floating) if flag else 0)
        assert gained == min(points, deficit)


@pytest.mark.parametrize("case", public_cases("rest"))
def test_f27_public_rest_cases(case: dict[str, object]) -> None:
    """../shared/cases/sheets-spells-rest.yaml: the public rest cases, checked directly."""
    from fappo_bot.rules.data import trait_by_name

    allocate = case.get("allocate") or {}
    assert isinstance(allocate, dict)
    results = {}
    for raw in case["characters"]:  # type: ignore[attr-defined]
        maxima = raw.get("max", {})
        char = Character(
            name=raw["name"],
            traits={trait_by_name(k): v for k, v in raw["traits"].items()},
            trait_max={trait_by_name(k): v for k, v in maxima.get("traits", {}).items()},
            floating=raw.get("floating", 0), floating_max=maxima.get("floating"))
        results[char.name] = restore_sp(char, str(case["break"]), allocate.get(char.name))
    for want in case["expect"]["characters"]:  # type: ignore[index]
        got = results[want["name"]]
        assert {k: got.pool(trait_by_name(k).value) for k in want["sp"]} == want["sp"]  # type: ignore[union-attr]
        if "floating" in want:
            assert got.floating == want["floating"]

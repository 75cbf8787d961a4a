"""Every problem code of a post (spec/cases.md error codes plus `syntax`), on its line, all of a
post's problems at once, and nothing recorded while any remains (posting.md: "A post is recorded
whole or not at all"; RULINGS F7 step 3 Amendment: "an invalid post records nothing")."""

from __future__ import annotations

import pytest

from fappo_bot.posting.render import render_problems
from tests.posting.helpers import SKIRMISH, codes, parse, state_of

pytestmark = pytest.mark.unit


def test_syntax_guard_without_sp() -> None:
    post = parse("Kael braces himself.\n1 AP defend\nGuard: against Troll")
    assert codes(post) == [(3, "syntax")]
    assert post.orders == () and post.to_case_orders() == []
    problem = post.problems[0]
    assert problem.expected and "Guard: N SP TRAIT" in problem.expected
    assert problem.hint and "2 SP Nimble" in problem.hint


@pytest.mark.parametrize("line", [
    "2 AP attack Goblin 1 with Broadsword, glorious",
    "1 AP defend, 1 SP",
    "2 AP",
    "2 AP attack Goblin 1, to hit 1 SP Nimble",
    "Reduce: on the dagger",
    "Endure: 1 SP Nimble",
    "2 AP attack Goblin 1 with",
    "1 AP defend against",
])
def test_syntax(line: str) -> None:
    post = parse(line)
    assert (1, "syntax") in codes(post), codes(post)


@pytest.mark.parametrize("post", [
    "If the gate opens:\n1 AP defend",
    "Kael waits [If the gate opens:] and then\n1 AP defend",
    "**If the gate opens:**\n1 AP defend",
])
def test_syntax_condition_with_nothing_after_its_colon(post: str) -> None:
    """posting.md: "`If the gate opens:` with nothing after the colon is an error in the reply,
    never a condition silently dropped from the next line"."""
    parsed = parse(post)
    assert codes(parsed) == [(1, "syntax")]
    assert parsed.orders == ()
    assert parsed.problems[0].hint and "If the gate opens: 1 AP" in parsed.problems[0].hint


def test_unknown_name_suggests_the_nearest_names() -> None:
    """posting.md: "a name that matches nothing is an error with the nearest names"."""
    post = parse("Kael charges.\n2 AP attack Gobbo with Broadsword\n1 AP defend")
    assert codes(post) == [(2, "unknown-name")]
    problem = post.problems[0]
    assert problem.words == "2 AP attack Gobbo"
    assert problem.candidates[:2] == ("Goblin 1", "Goblin 2")
    assert problem.hint == 'Did you mean "Goblin 1", "Goblin 2" or "Goblin Archer"?'


@pytest.mark.parametrize("line", [
    "2 AP attack Goblin 1 with Spoon",
    "2 AP attack Goblin 1, 1 SP Lucky",
    "1 AP draw Halberd",
    "1 AP frobnicate the widget",
    "2 AP attack Goblin 1 going for Sparkles",
    "Guard: 1 SP Nimble against each dragon",
    "2 AP attack him",
])
def test_unknown_names(line: str) -> None:
    assert codes(parse(line)) == [(1, "unknown-name")]


def test_unknown_spell() -> None:
    assert codes(parse("3 AP cast Lightning at Troll", poster="Zara")) == [(1, "unknown-name")]


@pytest.mark.parametrize("line", [
    "2 AP attack Goblin",              # Goblin 1, Goblin 2, Goblin Archer, Goblins
    "1 AP defend against Gob",
])
def test_ambiguous_name_lists_the_candidates(line: str) -> None:
    post = parse(line)
    assert codes(post) == [(1, "ambiguous-name")]
    assert {"Goblin 1", "Goblin 2"} <= set(post.problems[0].candidates)


def test_reduce_with_several_hits_must_name_one() -> None:
    pending = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger",
                "levels": 2},
               {"id": "h2", "target": "Kael", "attacker": "Goblin 2", "weapon": "Dagger",
                "levels": 1}]
    state = state_of(pending=pending)
    assert codes(parse("Reduce: 1 SP Nimble (ow)", state=state)) == [(1, "ambiguous-name")]
    post = parse("Reduce: 1 SP Nimble on the dagger hit", state=state)
    assert codes(post) == [(1, "ambiguous-name")]
    # the candidates are named as the results name the hits, never by their internal ids
    assert post.problems[0].candidates == ("Goblin 1's Dagger hit", "Goblin 2's Dagger hit")
    assert parse("Reduce: 1 SP Nimble on Goblin 2's hit", state=state).ok


def test_reduce_names_a_hit_as_the_results_name_it_and_the_old_id_still_works() -> None:
    """The results name a hit "Goblin 2's Dagger hit"; a Reduce line takes that name (with or
    without the possessive), and the id it replaced still works."""
    pending = [{"id": "t1-goblin-1-0", "target": "Kael", "attacker": "Goblin 1",
                "weapon": "Dagger", "levels": 2},
               {"id": "t1-goblin-2-0", "target": "Kael", "attacker": "Goblin 2",
                "weapon": "Dagger", "levels": 1}]
    state = state_of(pending=pending)
    for line in ("Reduce: 1 SP Nimble on Goblin 2's Dagger hit",
                 "Reduce: 1 SP Nimble on the Goblin 2 Dagger hit",
                 "Reduce: 1 SP Nimble on hit t1-goblin-2-0",
                 "Reduce: 1 SP Nimble on t1-goblin-2-0"):
        post = parse(line, state=state)
        assert post.ok, (line, post.problems)
        assert post.orders[0].reduce[0].hit == "t1-goblin-2-0", line


def test_reduce_naming_no_pending_hit_is_unknown_name() -> None:
    """posting.md: "a name that matches no pending hit is an `unknown-name` error"."""
    pending = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger",
                "levels": 2}]
    assert codes(parse("Reduce: 1 SP Nimble on the Troll's hit", state=state_of(pending=pending))
                 ) == [(1, "unknown-name")]
    assert codes(parse("Reduce: 1 SP Nimble (ow)")) == [(1, "unknown-name")]


def test_ap_required() -> None:
    """F8 Amb-1: "Every declared action needs >=1 AP" (a bracket or a condition without AP)."""
    post = parse("Kael moves in [attack Goblin 1 with Broadsword]\n"
                 "If the troll comes: attack it\n0 AP attack Goblin 1")
    assert codes(post) == [(1, "ap-required"), (2, "ap-required"), (3, "ap-required")]


def test_ap_required_for_a_switch_below_its_cost() -> None:
    """F8: "Switch weapons and be ready to attack in the same turn: 2 APs"."""
    assert codes(parse("1 AP switch to Long Bow")) == [(1, "ap-required")]


def test_ap_mismatch_for_a_move_whose_ap_and_ranges_disagree() -> None:
    """F16 Amendment: "moving N Ranges in a turn costs N - 1 AP; a post may give either number"."""
    post = parse("2 AP move 2")
    assert codes(post) == [(1, "ap-mismatch")]
    assert "costs 1 AP" in post.problems[0].message


def test_ap_over_budget_is_reported_on_the_first_line_that_goes_over() -> None:
    """F8: "sum(ap_i) + def_ap + run_ap <= B"; posting.md: reported "on the first line, in the
    post's order, that goes over it"."""
    post = parse("1 AP defend\n2 AP attack Goblin 1\nmove 2\n1 AP watch")
    assert codes(post) == [(3, "ap-over-budget")]
    assert "3 AP this turn" in post.problems[0].message


def test_ap_budget_counts_wounds() -> None:
    """F10: "Wounded (-1 AP)"."""
    sheet = [{**SKIRMISH[0], "health": "Wounded"}, *SKIRMISH[1:]]
    post = parse("2 AP attack Goblin 1\n1 AP defend", state=state_of(sheet))
    assert codes(post) == [(2, "ap-over-budget")]


def test_sp_insufficient_on_the_first_line_in_post_order() -> None:
    """posting.md: "Kael has 0 SP left in Nimble (2 spent on line 4 and in Guard)"."""
    post = parse("Guard: 2 SP Nimble against Troll\n2 AP attack Goblin 1, 1 SP Nimble\n"
                 "1 AP defend, 1 SP Nimble")
    assert codes(post) == [(3, "sp-insufficient")]
    problem = post.problems[0]
    assert problem.words == "1 SP Nimble"
    assert problem.message == "Kael has 0 SP left in Nimble (3 spent on Guard and line 2)"


def test_sp_insufficient_for_a_trait_not_owned() -> None:
    assert codes(parse("2 AP attack Goblin 1, 1 SP Brawny")) == [(1, "sp-insufficient")]


def test_skill_forbidden() -> None:
    """[F:L158]: skills of Uncanny and Fantastical are forbidden without the Trait."""
    assert codes(parse("2 AP Spellcasting: light a candle")) == [(1, "skill-forbidden")]


def test_cannot_act_on_each_line_that_allocates_ap_guard_and_reduce_stand() -> None:
    """F10: "Dying/Unconscious -> no actions at all"; cases.md: "An actor that cannot act gets
    cannot-act on each line that allocates AP (its Guard and Reduce lines stand)"."""
    sheet = [{**SKIRMISH[0], "health": "Dying"}, *SKIRMISH[1:]]
    pending = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger",
                "levels": 1}]
    post = parse("Reduce: 1 SP Nimble (rolled)\n1 AP defend\nGuard: 1 SP Tireless vs any\n"
                 "2 AP attack Goblin 1", state=state_of(sheet, pending))
    assert codes(post) == [(2, "cannot-act"), (4, "cannot-act")]


def test_incapacitated_needs_endure() -> None:
    """F10: "Incapacitated characters can take no action more strenuous than walking slowly
    unless they spend a Success Point from the trait Tireless"."""
    sheet = [{**SKIRMISH[0], "health": "Incapacitated"}, *SKIRMISH[1:]]
    state = state_of(sheet)
    assert codes(parse("1 AP attack Goblin 1", state=state)) == [(1, "cannot-act")]
    assert parse("Endure: 1 SP Tireless\n1 AP attack Goblin 1", state=state).ok


def test_out_of_range() -> None:
    """F16: "melee weapons: only at d == 0"; the archer stands 3 Ranges away."""
    assert codes(parse("2 AP attack Goblin Archer with Broadsword")) == [(1, "out-of-range")]


def test_reduce_over_limit() -> None:
    """F13: "up to two levels per attack"."""
    pending = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger",
                "levels": 3}]
    post = parse("Reduce: 3 SP Nimble (I rolled)", state=state_of(pending=pending))
    assert codes(post) == [(1, "reduce-over-limit")]


def test_concentration_conflict() -> None:
    """F8 Amb-3: Pickpocket needs concentration; "attacking a goblin and picking a lock in the
    same turn is not recommended"."""
    post = parse("1 AP Pickpocket on Goblin 1: the purse\n1 AP attack Goblin 1 with Dagger",
                 poster="Mira")
    assert codes(post) == [(2, "concentration-conflict")]


def test_every_problem_is_collected_and_reported_together() -> None:
    text = ("Kael charges.\n2 AP attack Gobbo\nGuard: against Troll\n2 AP move 2\n"
            "1 AP defend, 1 SP Lucky")
    post = parse(text)
    assert codes(post) == [(2, "unknown-name"), (3, "syntax"), (4, "ap-mismatch"),
                           (5, "unknown-name")]
    reply = render_problems(post.problems)
    assert reply.startswith("I couldn't use 4 lines of this post (nothing is recorded until "
                            "they are fixed):")
    assert post.orders == ()


def test_problems_in_two_blocks_of_a_gm_post() -> None:
    post = parse("Character: Goblin 1\n3 AP attack Kael\nCharacter: Goblin 2\n2 AP attack Mira\n"
                 "2 AP defend", poster="gm")
    assert codes(post) == [(5, "ap-over-budget")]


def test_a_poster_without_a_character_in_the_scene() -> None:
    post = parse("1 AP defend\n2 AP attack Goblin 1", poster="Nobody")
    assert codes(post) == [(1, "cannot-act")]
    assert "in this scene" in post.problems[0].message


def test_each_problem_belongs_to_one_family_of_style_2() -> None:
    """Syntax, ambiguous or illegal by the rules (STYLE 2), on the problem itself."""
    for text, family in [("Guard: against Troll", "syntax"),
                         ("2 AP attack Goblin", "ambiguous"),
                         ("2 AP attack Gobbo", "illegal")]:
        [problem] = parse(text).problems
        assert problem.kind == family and str(problem).startswith('line 1 "')


def test_problem_text_is_safe_to_echo() -> None:
    post = parse("2 AP attack @everyone")
    assert "@everyone" not in str(post.problems[0])


def test_sp_on_a_line_of_their_own_are_not_guessed_onto_an_action() -> None:
    """F4: SP are declared "when the action is declared"; the bot does not guess which."""
    post = parse("2 AP attack Goblin 1\n1 SP Nimble")
    assert codes(post) == [(2, "syntax")]
    assert "on their action's line" in (post.problems[0].hint or "")
    assert parse("3 goblins burst in.\n1 AP defend").ok  # a number starting prose is prose


@pytest.mark.parametrize(("line", "code"), [
    ("attack Goblin 1 with Broadsword", [(1, "ap-required")]),
    ("draw Long Bow", [(1, "ap-required")]),
    ("Tend Mira", [(1, "ap-required")]),
    ("Attack Goblin 1!", []),           # a sentence: prose
    ("Watch the door", []),             # names nothing of the scene: prose
    ("Stand up and fight", []),         # does not read as an action: prose
    ("attack Gobbo", []),               # names nothing of the scene: prose
])
def test_a_bare_order_line_without_ap(line: str, code: list[tuple[int, str]]) -> None:
    """F8 Amb-1: every action but a drop or a 1-Range move needs an AP count; a line that reads
    wholly as an order naming something of the scene is one, missing its AP."""
    post = parse(line)
    assert codes(post) == code
    if not code:
        assert post.prose == (line,)


def test_a_second_move_line_pays_for_all_its_ranges() -> None:
    """[F:L225] one free Range a turn: the over-budget line is the one that goes over, counting a
    second move at its full Ranges (2 + 1 on line 2, then defend on line 3 makes 4 > 3)."""
    from fappo_bot.posting import PostContext, parse_post
    from fappo_bot.rules.results import TurnState
    from fappo_bot.sheets.characters import character_from_case

    mira = character_from_case({"name": "Mira", "traits": {"Nimble": 3},
                                "skills": {"Stealth": 2}, "weapons": ["Dagger"]})
    state = TurnState(characters=(mira,))
    post = parse_post("move 2\nmove 2\n1 AP defend\n", PostContext.for_poster(state, "Mira"))
    assert post.to_case_errors() == [{"line": 3, "code": "ap-over-budget"}]
    assert parse_post("move 2\nmove 2\n", PostContext.for_poster(state, "Mira")).ok

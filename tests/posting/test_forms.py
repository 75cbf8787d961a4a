"""Every form of spec/posting.md parses, in the line form and in the bracket form (RULINGS F29:
"The standard post format should include the character's name, a prose description of the
character's actions, and a brief description of the general intent of the character and any
out-of-character chatter, if needed")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.posting.helpers import SKIRMISH, action, actions, codes, parse, state_of, subset

pytestmark = pytest.mark.unit

ATTACK = {"kind": "attack", "ap": 2, "target": "Goblin 1", "weapon": "Broadsword"}

FORMS = [
    # attack and its synonyms
    ("2 AP attack Goblin 1 with Broadsword", ATTACK),
    ("2 AP hit Goblin 1 with Broadsword", ATTACK),
    ("2 AP strike Goblin 1 with Broadsword", ATTACK),
    ("2 AP stab Goblin 1 with Broadsword", ATTACK),
    ("2 AP slash Goblin 1 with Broadsword", ATTACK),
    ("2 AP shoot Goblin Archer with Long Bow",
     {"kind": "attack", "target": "Goblin Archer", "weapon": "Long Bow"}),
    ("2 AP shoot at Goblin Archer with Longbow",
     {"kind": "attack", "target": "Goblin Archer", "weapon": "Long Bow"}),
    ("2 AP attack Goblin 1", {"kind": "attack", "ap": 2, "target": "Goblin 1"}),
    ("2 AP attack Goblin 1 with Swordfighting", {"kind": "attack", "skill": "Swordfighting"}),
    ("2 AP attack Goblin 1 with Broadsword going for Bleeding",
     {**ATTACK, "special": "Bleeding"}),
    # `using SKILL` and `throw WEAPON at TARGET` (posting.md as amended on 2026-12-01)
    ("2 AP attack Goblin 1 with Broadsword using Swordfighting",
     {**ATTACK, "skill": "Swordfighting"}),
    ("2 AP attack Goblin 1 using Swordfighting with Broadsword",
     {**ATTACK, "skill": "Swordfighting"}),
    ("2 AP throw Broadsword at Goblin 1", {**ATTACK, "skill": "Throwing"}),
    ("2 AP hurl the broadsword at Goblin 1, 1 SP Nimble",
     {**ATTACK, "skill": "Throwing", "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 going for bleeding, with Broadsword", {**ATTACK, "special": "Bleeding"}),
    # the AP count forms
    ("2 AP: attack Goblin 1 with Broadsword", ATTACK),
    ("2 AP - attack Goblin 1 with Broadsword", ATTACK),
    ("(2 AP) attack Goblin 1 with Broadsword", ATTACK),
    ("2 APs attack Goblin 1 with Broadsword", ATTACK),
    ("2 ap ATTACK goblin 1 WITH broadsword", ATTACK),
    ("2AP attack Goblin 1 with Broadsword", ATTACK),
    ("two AP attack Goblin 1 with Broadsword", ATTACK),
    # SP clauses, separators and any order
    ("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble", {**ATTACK, "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 with Broadsword + 1 SP Nimble + 1 SP floating",
     {**ATTACK, "sp": {"Nimble": 1, "floating": 1}}),
    ("2 AP attack Goblin 1 with Broadsword; 1 SP Nimble | 1 SP Highborn",
     {**ATTACK, "sp": {"Nimble": 1, "Highborn": 1}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 SP Highborn (I know this duelling school)",
     {**ATTACK, "sp": {"Highborn": 1}, "why": "I know this duelling school"}),
    ("2 AP attack Goblin 1 with Broadsword, +1 (high ground), 1 SP Nimble",
     {**ATTACK, "sp": {"Nimble": 1}, "claim": {"value": 1, "reason": "high ground"}}),
    ("2 AP attack Goblin 1 with Broadsword -2 (in the dark)",
     {**ATTACK, "claim": {"value": -2, "reason": "in the dark"}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 SP agile", {**ATTACK, "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 SP Nimbel", {**ATTACK, "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 SP from Nimble", {**ATTACK, "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 Nimble SP", {**ATTACK, "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1 with Broadsword, 1 SP Nimble, 1 SP Nimble",
     {**ATTACK, "sp": {"Nimble": 2}}),
    # at: ->, →, @
    ("1 AP Searching -> Goblin Archer", {"kind": "skill", "target": "Goblin Archer"}),
    ("1 AP Searching → Goblin Archer", {"kind": "skill", "target": "Goblin Archer"}),
    ("1 AP Searching @ Goblin Archer", {"kind": "skill", "target": "Goblin Archer"}),
    # defend
    ("1 AP defend", {"kind": "defend", "ap": 1}),
    ("1 AP defend against Goblin Archer", {"kind": "defend", "ap": 1, "against": "Goblin Archer"}),
    ("1 AP defend vs troll", {"kind": "defend", "against": "Troll"}),
    # skill use
    ("2 AP Acrobatics: roll under the table",
     {"kind": "skill", "ap": 2, "skill": "Acrobatics", "task": "roll under the table"}),
    ("1 AP Acro", {"kind": "skill", "skill": "Acrobatics"}),
    ("1 AP use Acrobatics", {"kind": "skill", "skill": "Acrobatics"}),
    ("2 AP Acrobatics on Goblin 1: tumble past him, 1 SP Nimble",
     {"kind": "skill", "skill": "Acrobatics", "target": "Goblin 1", "task": "tumble past him",
      "sp": {"Nimble": 1}}),
    ("2 AP Acrobatics: over the cart, then the wall, 1 SP Nimble",
     {"kind": "skill", "task": "over the cart, then the wall", "sp": {"Nimble": 1}}),
    ("1 AP Searching at Goblin Archer", {"kind": "skill", "skill": "Searching",
                                         "target": "Goblin Archer"}),
    # move
    ("move 1", {"kind": "move", "ranges": 1, "ap": 0}),
    ("move 3", {"kind": "move", "ranges": 3, "ap": 2}),
    ("run 2", {"kind": "move", "ranges": 2, "ap": 1}),
    ("move 2 ranges toward Goblin Archer", {"kind": "move", "ranges": 2, "toward": "Goblin Archer"}),
    ("move 2 away from Troll", {"kind": "move", "ranges": 2, "away": "Troll"}),
    ("1 AP move 2 away from Troll", {"kind": "move", "ap": 1, "ranges": 2, "away": "Troll"}),
    ("1 AP move toward Troll", {"kind": "move", "ap": 1, "ranges": 2, "toward": "Troll"}),
    # equipment
    ("1 AP draw Long Bow", {"kind": "ready", "ap": 1, "item": "Long Bow"}),
    ("1 AP ready my Broadsword", {"kind": "ready", "item": "Broadsword"}),
    ("1 AP put away Broadsword", {"kind": "stow", "item": "Broadsword"}),
    ("1 AP stow Broadsword", {"kind": "stow", "item": "Broadsword"}),
    ("drop Long Bow", {"kind": "drop", "item": "Long Bow", "ap": 0}),
    ("2 AP switch to Long Bow", {"kind": "switch", "ap": 2, "item": "Long Bow"}),
    ("1 AP pick up the lantern", {"kind": "pickup", "item": "lantern"}),
    ("1 AP pick up a dagger", {"kind": "pickup", "item": "Dagger"}),
    ("2 AP stand up", {"kind": "stand", "ap": 2}),
    # tend, watch
    ("3 AP tend Mira", {"kind": "tend", "ap": 3, "target": "Mira"}),
    ("3 AP tend Mira, 2 SP Highborn", {"kind": "tend", "target": "Mira", "sp": {"Highborn": 2}}),
    ("1 AP watch", {"kind": "watch", "ap": 1}),
    ("1 AP watch for archers on the roof", {"kind": "watch", "task": "archers on the roof"}),
    # extensions (docs/posting.md)
    ("1 AP parry", {"kind": "defend"}),
    ("2 AP atack Goblin 1 with Broadsword", ATTACK),
    ("2 AP attack Goblin 1 with Broadsword (2 AP)", ATTACK),
    ("1 AP put out the fire", {"kind": "extinguish", "ap": 1}),
    ("2 AP aim at Goblin Archer", {"kind": "aim", "target": "Goblin Archer"}),
]


@pytest.mark.parametrize(("line", "expected"), FORMS, ids=[f[0] for f in FORMS])
def test_line_form(line: str, expected: dict[str, object]) -> None:
    got = action(line)
    assert subset(expected, got), got


@pytest.mark.parametrize(("line", "expected"), FORMS, ids=[f[0] for f in FORMS])
def test_bracket_form(line: str, expected: dict[str, object]) -> None:
    got = action(f"Kael does something dramatic [{line}] and grins.")
    assert subset(expected, got), got


ZARA_CASTS = [
    ("3 AP cast Fireball -> Goblins", {"kind": "cast", "spell": "Fireball", "target": "Goblins"}),
    ("3 AP cast Fireball → Goblins", {"kind": "cast", "spell": "Fireball", "target": "Goblins"}),
    ("3 AP cast Fireball @ Goblins", {"kind": "cast", "spell": "Fireball", "target": "Goblins"}),
    ("3 AP cast Fireball at the Goblins, 1 SP Uncanny, to hit 1 SP floating",
     {"kind": "cast", "ap": 3, "spell": "Fireball", "target": "Goblins",
      "cast_sp": {"Uncanny": 1}, "attack_sp": {"floating": 1}}),
    ("3 AP cast Fireball at the Goblin Archers at 3 ranges, 1 SP Uncanny",
     {"kind": "cast", "target": "Goblin Archer", "ranges": 3, "cast_sp": {"Uncanny": 1}}),
    ("3 AP cast Fireball at Goblin 1 and Goblin 2 +2 accuracy",
     {"kind": "cast", "targets": ["Goblin 1", "Goblin 2"], "accuracy": 2}),
    ("2 AP cast Mend at Kael", {"kind": "cast", "spell": "Mend", "target": "Kael"}),
    ("3 AP cast fire at Troll, to hit: 1 SP Sagacious (I studied trolls)",
     {"kind": "cast", "spell": "Fireball", "attack_sp": {"Sagacious": 1},
      "why": "I studied trolls"}),
]


@pytest.mark.parametrize(("line", "expected"), ZARA_CASTS, ids=[c[0] for c in ZARA_CASTS])
def test_cast_forms(line: str, expected: dict[str, object]) -> None:
    """F25: "SP: declared separately as cast_sp and attack_sp"."""
    got = action(line, poster="Zara")
    assert subset(expected, got), got


@pytest.mark.parametrize("pronoun", ["it", "them", "him", "her", "whoever", "whatever"])
def test_conditional_pronouns_leave_the_target_to_the_gm(pronoun: str) -> None:
    """F9: "attack the first thing that sticks its head out"; the GM names the target."""
    got = action(f"If anything comes through the door: 1 AP attack {pronoun} with Broadsword")
    assert got == {"kind": "attack", "ap": 1, "weapon": "Broadsword",
                   "if": "anything comes through the door"}


def test_conditional_with_a_named_target_and_comma_form() -> None:
    got = action("If Goblin 1 moves, 1 AP attack Goblin 1")
    assert subset({"kind": "attack", "target": "Goblin 1", "if": "Goblin 1 moves"}, got)


MARKDOWN = [
    "**2 AP attack Goblin 1 with Broadsword**",
    "*2 AP attack Goblin 1 with Broadsword*",
    "_2 AP attack Goblin 1 with Broadsword_",
    "__2 AP attack Goblin 1 with Broadsword__",
    "~~2 AP~~ attack Goblin 1 with Broadsword",
    "`2 AP attack Goblin 1 with Broadsword`",
    "||2 AP attack Goblin 1 with Broadsword||",
    "- 2 AP attack Goblin 1 with Broadsword",
    "* 2 AP attack Goblin 1 with Broadsword",
    "• 2 AP attack Goblin 1 with Broadsword",
    "1. 2 AP attack Goblin 1 with Broadsword",
    "12) 2 AP attack Goblin 1 with Broadsword",
    "> 2 AP attack Goblin 1 with Broadsword",
    ">>> 2 AP attack Goblin 1 with Broadsword",
    "- > **2 AP** attack *Goblin 1* with __Broadsword__",
    "1. **2 AP** attack Goblin 1 with ***Broadsword***",
    "   2 AP    attack   Goblin 1 with Broadsword   ",
]


@pytest.mark.parametrize("line", MARKDOWN)
def test_discord_markdown_is_ignored(line: str) -> None:
    assert action(line) == ATTACK


def test_several_bracket_statements_on_one_prose_line() -> None:
    post = parse("Mira keeps her head down [2 AP Pickpocket: lift the keys, 1 SP Clever] and "
                 "whispers a prayer. [If the guard wakes: 1 AP attack him with Dagger] [sic]",
                 poster="Mira")
    got = actions(post)
    assert subset([{"kind": "skill", "skill": "Pickpocket", "sp": {"Clever": 1}},
                   {"kind": "attack", "weapon": "Dagger", "if": "the guard wakes"}], got)
    assert post.blocks[0].statements[0].bracket


def test_prose_is_kept_verbatim_and_mechanics_lines_are_not_prose() -> None:
    text = ("**Kael**\nKael vaults the cart [1 AP defend].\n\n2 AP attack Goblin 1\n"
            "Drop it, he said. Drop it now!\nmove quickly, he thought")
    post = parse(text)
    assert post.ok
    assert post.prose == ("Kael vaults the cart [1 AP defend].", "",
                          "Drop it, he said. Drop it now!", "move quickly, he thought")
    assert [s.line for s in post.blocks[0].statements] == [1, 2, 4]
    assert post.blocks[0].statements[2].words == "2 AP attack Goblin 1"


def test_guard_lines() -> None:
    """F5: a pledge against a named attacker, each PREFIX (one per match), any or all."""
    sheet = [{**SKIRMISH[0], "traits": {"Nimble": 3, "Tireless": 5, "Highborn": 3}}, *SKIRMISH[1:]]
    post = parse("Guard: 2 SP Nimble against Troll\nGuard: 1 SP Tireless against each goblin\n"
                 "Guard: 1 SP Highborn against all\nGuard: 1 SP floating vs any",
                 state=state_of(sheet))
    (order,) = post.to_case_orders()
    assert order["guard"] == [
        {"against": "Troll", "sp": {"Nimble": 2}},
        {"against": "Goblin 1", "sp": {"Tireless": 1}},
        {"against": "Goblin 2", "sp": {"Tireless": 1}},
        {"against": "Goblin Archer", "sp": {"Tireless": 1}},
        {"against": "Goblins", "sp": {"Tireless": 1}},
        {"against": "any", "sp": {"Highborn": 1}},
        {"against": "any", "sp": {"floating": 1}},
    ]


def test_guard_each_counts_its_pledges_on_one_line() -> None:
    post = parse("Guard: 1 SP Tireless against each goblin")
    (statement,) = post.blocks[0].statements
    assert (statement.index, statement.count) == (0, 4)
    assert post.problems and post.problems[0].code.value == "sp-insufficient"


PENDING_ONE = [{"id": "h1", "target": "Kael", "attacker": "Goblin 1", "weapon": "Dagger",
                "levels": 2}]
PENDING_TWO = [*PENDING_ONE, {"id": "h2", "target": "Kael", "attacker": "Troll", "weapon": "Fist",
                              "levels": 2}]
REDUCE = [
    ("Reduce: 2 SP Nimble on the dagger hit (it glanced off)", PENDING_ONE,
     {"hit": "h1", "sp": {"Nimble": 2}, "why": "it glanced off"}),
    ("Reduce: 1 SP Nimble - rolled with it", PENDING_ONE,
     {"hit": "h1", "sp": {"Nimble": 1}, "why": "rolled with it"}),
    ("Reduce: 1 SP Nimble: rolled with it", PENDING_ONE,
     {"hit": "h1", "sp": {"Nimble": 1}, "why": "rolled with it"}),
    ("Reduce: 1 SP Nimble, rolled with it, barely", PENDING_ONE,
     {"hit": "h1", "sp": {"Nimble": 1}, "why": "rolled with it, barely"}),
    ("Reduce: 1 SP Nimble + 1 SP floating on the Troll's hit (tough)", PENDING_TWO,
     {"hit": "h2", "sp": {"Nimble": 1, "floating": 1}, "why": "tough"}),
    ("Reduce: 1 SP Nimble from the Goblin 1 hit - ducked", PENDING_TWO,
     {"hit": "h1", "sp": {"Nimble": 1}, "why": "ducked"}),
    ("Reduce: 1 SP Tireless on h2 (walked it off)", PENDING_TWO,
     {"hit": "h2", "sp": {"Tireless": 1}, "why": "walked it off"}),
    ("Reduce: 1 SP Tireless (I walked it off)", PENDING_ONE,
     {"hit": "h1", "sp": {"Tireless": 1}, "why": "I walked it off"}),
]


@pytest.mark.parametrize(("line", "pending", "expected"), REDUCE, ids=[r[0] for r in REDUCE])
def test_reduce_lines(line: str, pending: list[dict[str, object]],
                      expected: dict[str, object]) -> None:
    """F13: "Characters can reduce incoming damage by up to two levels per attack"."""
    post = parse(line, state=state_of(pending=pending))
    assert post.ok, [str(p) for p in post.problems]
    (order,) = post.to_case_orders()
    assert order["reduce"] == [expected]


def test_a_dying_character_may_still_reduce() -> None:
    """F13 Amb-6: "A provisionally Dead character's player may still reduce"; posting.md: "A
    Dying (unconscious) character may still post a Reduce line"."""
    sheet = [{"name": "Kael", "traits": {"Nimble": 3}, "health": "Dying"},
             {"name": "Goblin 1", "weapons": ["Dagger"]}]
    post = parse("Reduce: 2 SP Nimble on the dagger hit (rolled aside)",
                 state=state_of(sheet, PENDING_ONE))
    assert post.ok
    assert post.to_case_orders()[0]["reduce"][0]["hit"] == "h1"


def test_endure_intent_and_ooc() -> None:
    post = parse("Endure: 1 SP Tireless\nIntent: keep them off Mira\nOOC: back on Monday\n"
                 "1 AP defend")
    (order,) = post.to_case_orders()
    assert order["endure"] is True
    assert order["intent"] == "keep them off Mira"
    assert order["ooc"] == "back on Monday"


def test_intent_and_ooc_are_never_read_as_orders() -> None:
    post = parse("Intent: 2 AP attack Gobbo with a spoon\nOOC: 3 AP move 9")
    assert post.ok
    assert post.to_case_orders()[0]["actions"] == []


def test_character_blocks_for_a_gm() -> None:
    text = ("The goblins split up.\n**Goblin 1**\n2 AP attack Kael with Dagger\n"
            "Character: Goblin 2\n1 AP defend\n**Kael**\n1 AP defend")
    post = parse(text, poster="gm")
    assert [o["actor"] for o in post.to_case_orders()] == ["Goblin 1", "Goblin 2", "Kael"]


def test_a_bold_name_the_poster_does_not_control_is_prose() -> None:
    post = parse("**Troll**\n1 AP defend")
    assert post.ok
    assert post.prose == ("**Troll**",)
    assert post.to_case_orders()[0]["actor"] == "Kael"


def test_character_line_for_someone_else_is_refused() -> None:
    post = parse("Character: Troll\n1 AP defend")
    assert codes(post) == [(1, "unknown-name")]
    assert post.orders == ()


def test_gm_lines_need_a_character_line() -> None:
    post = parse("1 AP defend", poster="gm")
    assert codes(post) == [(1, "syntax")]


def test_a_retainer_block_after_the_players_own_lines() -> None:
    from fappo_bot.posting import PostContext, parse_post

    state = state_of()
    ctx = PostContext(state, "Kael", ("Kael", "Mira"))
    post = parse_post("1 AP defend\n**Mira**\n1 AP defend", ctx)
    assert [o["actor"] for o in post.to_case_orders()] == ["Kael", "Mira"]


def test_case_does_not_matter_for_keywords() -> None:
    post = parse("GUARD: 1 SP NIMBLE AGAINST TROLL\nooc: hi\nINTENT - win")
    (order,) = post.to_case_orders()
    assert order["guard"] == [{"against": "Troll", "sp": {"Nimble": 1}}]
    assert (order["ooc"], order["intent"]) == ("hi", "win")


@pytest.mark.parametrize(("line", "expected"), [
    ("1 AP remove Spear", {"kind": "remove", "ap": 1, "item": "Spear"}),
    ("[2 AP remove the spear]", {"kind": "remove", "item": "Spear"}),
    ("1 AP rip out Spear", {"kind": "ripout", "ap": 1, "item": "Spear"}),
])
def test_remove_and_rip_out_an_impaling_weapon(line: str, expected: dict[str, object]) -> None:
    """F8 table: "Remove an impaling weapon | 1"; "Rip out a Barbed weapon (+1 level damage) | 1"."""
    from fappo_bot.rules.character import Status, StatusKind

    state = state_of()
    kael = replace(state.characters[0], statuses=(Status(kind=StatusKind.IMPALED, item="Spear"),))
    state = replace(state, characters=(kael, *state.characters[1:]))
    got = action(line, state=state)
    assert subset(expected, got), got


@pytest.mark.parametrize(("text", "expected"), [
    ("Kael swings [2 AP attack Goblin 1 with Broadsword, 1 SP Nimble, 1 AP defend]",
     [{**ATTACK, "sp": {"Nimble": 1}}, {"kind": "defend", "ap": 1}]),
    ("2 AP attack Goblin 1 and 1 AP defend against Troll",
     [{"kind": "attack", "target": "Goblin 1"}, {"kind": "defend", "against": "Troll"}]),
    ("2 AP attack Goblin 1; move 2", [{"kind": "attack"}, {"kind": "move", "ap": 1, "ranges": 2}]),
    ("1 AP attack Goblin 1 then 1 AP: defend, 1 AP watch for archers, quietly",
     [{"kind": "attack"}, {"kind": "defend"}, {"kind": "watch", "task": "archers, quietly"}]),
    ("If the troll comes: 2 AP attack it, 1 AP defend",
     [{"kind": "attack", "if": "the troll comes"}, {"kind": "defend", "if": "the troll comes"}]),
    ("2 AP Acrobatics: over the cart, 1 AP defend",
     [{"kind": "skill", "task": "over the cart"}, {"kind": "defend"}]),
])
def test_several_actions_in_one_statement(text: str, expected: list[dict[str, object]]) -> None:
    """Extension (docs/posting.md): a separator, `and` or `then` before another AP count."""
    got = actions(parse(text))
    assert subset(expected, got), got


def test_several_actions_on_one_line_share_its_line_for_problems() -> None:
    post = parse("Kael moves [2 AP attack Goblin 1, 2 AP defend]")
    assert codes(post) == [(1, "ap-over-budget")]
    statement = post.blocks[0].statements[0]
    assert (statement.index, statement.count) == (0, 2)


def test_names_holding_stop_words() -> None:
    sheet = [*SKIRMISH, {"name": "Man at Arms", "weapons": ["Spear"]},
             {"name": "Knight of the Rose", "weapons": ["Broadsword"]}]
    state = state_of(sheet)
    got = action("2 AP attack Man at Arms with Broadsword", state=state)
    assert (got["target"], got["weapon"]) == ("Man at Arms", "Broadsword")
    assert action("1 AP defend against man at arms", state=state)["against"] == "Man at Arms"
    post = parse("Guard: 1 SP Nimble against Man at Arms", state=state)
    assert post.to_case_orders()[0]["guard"] == [{"against": "Man at Arms", "sp": {"Nimble": 1}}]


def test_a_line_may_start_with_the_name_of_a_character_the_poster_controls() -> None:
    """Extension (docs/posting.md): `Goblin 1: 2 AP attack Kael` starts Goblin 1's block."""
    post = parse("Goblin 1: 2 AP attack Kael with Dagger\nGoblin 2: 1 AP defend\n1 AP defend",
                 poster="gm")
    orders = post.to_case_orders()
    assert [(o["actor"], len(o["actions"])) for o in orders] == [("Goblin 1", 1), ("Goblin 2", 2)]
    assert parse("Kael: he thinks about it").prose == ("Kael: he thinks about it",)
    assert parse("Troll: 1 AP defend").prose == ("Troll: 1 AP defend",)


EXTENSIONS = [
    ("2 AP attacks Goblin 1", {"kind": "attack", "target": "Goblin 1"}),
    ("1 AP dodge", {"kind": "defend"}), ("1 AP block vs Troll", {"kind": "defend"}),
    ("1 AP walk 2", {"kind": "move", "ranges": 2}),
    ("1 AP unsling Long Bow", {"kind": "ready", "item": "Long Bow"}),
    ("1 AP sheathe Broadsword", {"kind": "stow", "item": "Broadsword"}),
    ("2 AP swap to Long Bow", {"kind": "switch", "item": "Long Bow"}),
    ("1 AP grab the torch", {"kind": "pickup", "item": "Torch"}),
    ("2 AP get up", {"kind": "stand"}),
    ("3 AP tend to Mira", {"kind": "tend", "target": "Mira"}),
    ("3 AP bind Mira", {"kind": "tend", "target": "Mira"}),
    ("1 AP watch out for archers", {"kind": "watch", "task": "archers"}),
    ("1 AP be watchful", {"kind": "watch"}), ("1 AP keep watch", {"kind": "watch"}),
    ("2 AP steady on Goblin Archer", {"kind": "aim", "target": "Goblin Archer"}),
    ("2 AP attack Goblin 1, 1SP Nimble", {"kind": "attack", "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1, a SP Nimble", {"kind": "attack", "sp": {"Nimble": 1}}),
    ("2 AP attack Goblin 1, +1 (high ground), -1 (mud)",
     {"kind": "attack", "claim": {"value": 0, "reason": "high ground; mud"}}),
    ("If the troll moves, 2 AP attack it", {"kind": "attack", "if": "the troll moves"}),
]


@pytest.mark.parametrize(("line", "expected"), EXTENSIONS, ids=[e[0] for e in EXTENSIONS])
def test_extensions(line: str, expected: dict[str, object]) -> None:
    """docs/posting.md "Extensions"."""
    got = action(line)
    assert subset(expected, got), got


def test_extension_keyword_forms() -> None:
    sheet = [{**SKIRMISH[0], "health": "Incapacitated"}, *SKIRMISH[1:]]
    post = parse("Endure\n1 AP defend\nGuard: 1 SP Nimble\nGuard: 1 SP Highborn against anyone\n"
                 "Guard: 1 SP floating against each trolls", state=state_of(sheet))
    (order,) = post.to_case_orders()
    assert order["endure"] is True
    assert order["guard"] == [{"against": "any", "sp": {"Nimble": 1}},
                              {"against": "any", "sp": {"Highborn": 1}},
                              {"against": "Troll", "sp": {"floating": 1}}]


def test_headings_and_code_fences() -> None:
    post = parse("# Turn 3\n```\n1 AP defend\n```\n-# 2 AP attack Goblin 1")
    assert [a["kind"] for a in actions(post)] == ["defend", "attack"]
    assert post.prose == ("# Turn 3", "```", "```")


def test_several_pledges_on_one_guard_line() -> None:
    """Extension: `Guard: 1 SP Nimble against Troll, 1 SP Tireless against Goblin 1`."""
    post = parse("Guard: 1 SP Nimble against Troll, 1 SP Tireless against Goblin 1, 1 SP Highborn")
    (order,) = post.to_case_orders()
    assert order["guard"] == [{"against": "Troll", "sp": {"Nimble": 1}},
                              {"against": "Goblin 1", "sp": {"Tireless": 1}},
                              {"against": "any", "sp": {"Highborn": 1}}]
    (statement,) = post.blocks[0].statements
    assert (statement.index, statement.count) == (0, 3)


def test_block_prose_includes_the_story_before_the_first_order() -> None:
    post = parse("Kael vaults the cart.\n\n2 AP attack Goblin 1\nHe grins.")
    assert post.blocks[0].prose == ("Kael vaults the cart.", "", "He grins.")
    gm = parse("The goblins split up.\nCharacter: Goblin 1\n1 AP defend\nIt hides.", poster="gm")
    assert gm.blocks[0].prose == ("It hides.",)  # scene prose before a character line is no one's
    assert gm.prose == ("The goblins split up.", "It hides.")


def test_an_npc_called_guard() -> None:
    """`Guard: 2 AP attack Mira` is the Guard's order when the GM controls a character called
    Guard; `Guard: 1 SP ...` stays a Guard line."""
    sheet = [*SKIRMISH, {"name": "Guard", "traits": {"Vigilant": 3}, "weapons": ["Club"]}]
    state = state_of(sheet)
    post = parse("Guard: 2 AP attack Mira with Club\nGuard: 1 SP Vigilant against Kael", "gm",
                 state)
    (order,) = post.to_case_orders()
    assert order["actor"] == "Guard"
    assert order["actions"] == [{"kind": "attack", "ap": 2, "target": "Mira", "weapon": "Club"}]
    assert order["guard"] == [{"against": "Kael", "sp": {"Vigilant": 1}}]


def test_several_reductions_on_one_reduce_line() -> None:
    """Extension: a separator followed by an SP clause starts the next reduction (F13: "up to
    two levels per attack")."""
    state = state_of(pending=PENDING_TWO)
    post = parse("Reduce: 2 SP Nimble on the dagger hit (ducked), 1 SP Tireless on the Troll's hit"
                 " - rolled with it, mostly", state=state)
    (order,) = post.to_case_orders()
    assert order["reduce"] == [
        {"hit": "h1", "sp": {"Nimble": 2}, "why": "ducked"},
        {"hit": "h2", "sp": {"Tireless": 1}, "why": "rolled with it, mostly"},
    ]
    (statement,) = post.blocks[0].statements
    assert (statement.index, statement.count) == (0, 2)
    post = parse("Reduce: 1 SP Nimble on h1, it hurt, 1 SP Tireless on h2", state=state)
    assert post.to_case_orders()[0]["reduce"] == [
        {"hit": "h1", "sp": {"Nimble": 1}, "why": "it hurt"},
        {"hit": "h2", "sp": {"Tireless": 1}}]


def test_character_lines_ambiguous_and_repeated() -> None:
    post = parse("Character: Goblin\n1 AP defend", poster="gm")
    assert codes(post) == [(1, "ambiguous-name")]
    assert {"Goblin 1", "Goblin 2"} <= set(post.problems[0].candidates)
    post = parse("**Goblin 1**\n1 AP defend\n**Goblin 2**\n1 AP defend\n**Goblin 1**\n"
                 "1 AP watch", poster="gm")
    assert [(o["actor"], [a["kind"] for a in o["actions"]]) for o in post.to_case_orders()] == [
        ("Goblin 1", ["defend", "watch"]), ("Goblin 2", ["defend"])]
    assert parse("**Goblin**\n1 AP defend", poster="gm").to_case_errors() == [
        {"line": 2, "code": "syntax"}]  # an ambiguous bold name is prose; then whose order?

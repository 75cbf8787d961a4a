"""The runner with the real engine and parser on rules the public cases do not cover: casts with
an attack stage (F25), swarms (F20), Collaborate (F21), Endure (F10), move pricing (F16), post
orders in a turn, statuses (F18), area weapons (F19) and overflow eliminations (F20). Each note gives the arithmetic from RULINGS."""

from __future__ import annotations

import json

import pytest

from fappo_bot.cli import main

pytestmark = pytest.mark.unit

CASES = """\
cases:
- id: cast-fireball-at-goblins
  note: >-
    F25, F20: cast TN learned 6 + 2 Ranges = 8; Spellcasting 4 + 3 AP = 7 -> -1 failure (Uncanny protects), 1 Uncanny SP counts 2 -> solid. Attack 4 + 3 AP = 7 vs the goblins' defense max(1 - 1, 1) = 1 (no range penalty, range is priced in the cast) -> +6 great -> 3 x 6 = 18, all 4 goblins.
  characters:
  - {name: Zara, traits: {Uncanny: 3}, skills: {Spellcasting: 4}, spells: [{name: Fireball, effects: {damage: 4, specials: 1, locus: true, radius: 2, loud: true, traceable: true}, special: Fire}]}
  - {name: Goblins, tier: nuisance, count: 4, skills: {Knife Fighting: 1}, weapons: [Dagger]}
  orders:
  - actor: Zara
    actions:
    - {kind: cast, ap: 3, spell: Fireball, targets: [Goblins], ranges: 2, cast_sp: {Uncanny: 1}}
  expect:
    actions:
    - {actor: Zara, index: 0, total: 7, difficulty: 8, margin: -1, level: solid,
       targets: [{name: Goblins, total: 7, difficulty: 1, margin: 6, level: great, eliminated: 4}]}
    characters:
    - {name: Zara, sp: {Uncanny: 2}}
    - {name: Goblins, count: 0}
    errors: []
- id: swarm-of-five
  note: >-
    F20: five nuisances attack as one swarm: Fisticuffs 2 + 1 = 3, AP 1 + 1 = 2 -> 5 vs Kael max(3 - 1, 1) = 2 -> +3 great -> 3 levels -> Wounded; next turn 3 - 1 shock - 1 = 1.
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Rats, tier: nuisance, count: 5, skills: {Fisticuffs: 2}, weapons: [Fist]}
  orders:
  - actor: Rats
    actions: [{kind: attack, ap: 1, target: Kael}]
  expect:
    actions: [{actor: Rats, index: 0, total: 5, difficulty: 2, margin: 3, level: great, damage: 3}]
    characters: [{name: Kael, health: Wounded, ap_next: 1}]
    errors: []
- id: minions-collaborate
  note: >-
    F21 Collaborate: 7 minions = 2 trios (Swordfighting 2 + 2 = 4, 2 AP) + 1 single. Kael's defense 2 + 2 Medium = 4. Trios 6 vs 4 -> solid -> Short sword 2 each; single 4 vs 4 -> bare -> 1; 5 levels -> Dying (ap_next 0).
  options: {collaborate: true}
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword], armor: medium}
  - {name: Thugs, tier: minion, count: 7, traits: {Brawny: 3}, skills: {Swordfighting: 2}, weapons: [Short sword]}
  orders:
  - actor: Thugs
    actions: [{kind: attack, ap: 2, target: Kael}]
  expect:
    actions: [{actor: Thugs, index: 0, total: 6, difficulty: 4, margin: 2, level: solid, damage: 5}]
    characters: [{name: Kael, health: Dying, ap_next: 0}]
- id: endure
  note: >-
    F10 Amb-7: Incapacitated 3 - 2 = 1 AP with endure (1 Tireless SP). 3 + 1 = 4 vs max(2 - 1, 1) = 1 -> great -> Broadsword 3 + 1 -> Incapacitated.
  characters:
  - {name: Kael, health: Incapacitated, traits: {Tireless: 2}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 2}, weapons: [Dagger]}
  orders:
  - actor: Kael
    endure: true
    actions: [{kind: attack, ap: 1, target: Goblin}]
  expect:
    actions: [{actor: Kael, index: 0, total: 4, difficulty: 1, margin: 3, level: great, damage: 4}]
    characters: [{name: Kael, sp: {Tireless: 1}}, {name: Goblin, health: Incapacitated}]
    errors: []
- id: no-endure
  note: >-
    F10 Amb-7: without endure an Incapacitated actor's allocations are refused (cannot-act).
  characters:
  - {name: Kael, health: Incapacitated, traits: {Tireless: 2}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 2}, weapons: [Dagger]}
  orders:
  - actor: Kael
    actions: [{kind: attack, ap: 1, target: Goblin}]
  expect:
    errors: [{actor: Kael, code: cannot-act}]
    characters: [{name: Goblin, health: Healthy}]
- id: move-without-ap
  note: >-
    F16 Amendment: a move of N Ranges costs N - 1 AP; omitted AP is computed, a disagreeing AP is ap-mismatch.
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword], position: 0}
  - {name: Goblin, traits: {Clever: 3}, skills: {Knife Fighting: 2}, weapons: [Dagger], position: 5}
  orders:
  - actor: Kael
    actions: [{kind: move, ranges: 3, toward: Goblin}, {kind: defend, ap: 1}]
  - actor: Goblin
    actions: [{kind: move, ap: 1, ranges: 3}]
  expect:
    errors: [{actor: Goblin, code: ap-mismatch}]
- id: turn-with-post
  note: >-
    posting.md: posts go through the parser; a post with a problem records nothing. Mira: Knife Fighting 3 + 2 = 5 vs max(2 - 1, 1) = 1 -> great (Clever SP capped) -> Dagger 1 + 1 -> Battered.
  characters:
  - {name: Mira, traits: {Clever: 3}, skills: {Knife Fighting: 3}, weapons: [Dagger]}
  - {name: Goblin, traits: {Brawny: 3}, skills: {Fisticuffs: 2}, weapons: [Fist]}
  orders:
  - actor: Mira
    post: |
      Mira darts in [2 AP attack Goblin with Dagger, 1 SP Clever]
      1 AP defend
  - actor: Goblin
    post: |
      2 AP attack Gobbo
  expect:
    actions: [{actor: Mira, index: 0, total: 5, difficulty: 1, margin: 4, level: great, damage: 2}]
    characters: [{name: Mira, sp: {Clever: 2}}, {name: Goblin, health: Battered}]
    errors: [{actor: Goblin, code: unknown-name}]
- id: knockdown-status
  note: >-
    F12, F18.9: Whip 3 + 2 = 5 vs 1 -> great + Knockdown -> prone from next turn; Bleeding stays.
  characters:
  - {name: Lash, traits: {Clever: 3}, skills: {Whip: 3}, weapons: [Whip], position: 1}
  - {name: Brute, traits: {Brawny: 3}, skills: {Fisticuffs: 2}, weapons: [Fist], status: [bleeding]}
  orders:
  - actor: Lash
    actions: [{kind: attack, ap: 2, target: Brute, special: Knockdown}]
  expect:
    characters: [{name: Brute, status: [prone, bleeding]}]
- id: F19-grenade
  note: >-
    F19 Amb-3: one throw, Throwing 3 + 2 AP = 5; each creature in the blast defends alone with the penalty to the impact point (Short, 2 Ranges: +4): Goblin 1 + 4 = 5 -> bare -> floor(4 / 2) = 2; Orc (Swordfighting 4 - 1 = 3) 3 + 4 = 7 -> -2 miss.
  characters:
  - {name: Tess, traits: {Clever: 3}, skills: {Throwing: 3}, weapons: [Grenade], position: 0}
  - {name: Goblin, traits: {Brawny: 3}, skills: {Knife Fighting: 2}, weapons: [Dagger], position: 2}
  - {name: Orc, traits: {Brawny: 3}, skills: {Swordfighting: 4}, weapons: [Broadsword], position: 2}
  orders:
  - actor: Tess
    actions:
    - {kind: attack, ap: 2, target: Goblin, weapon: Grenade, targets: [Goblin, Orc]}
  expect:
    actions:
    - {actor: Tess, index: 0, total: 5,
       targets: [{name: Goblin, total: 5, difficulty: 5, margin: 0, level: bare, damage: 2},
                 {name: Orc, total: 5, difficulty: 7, margin: -2, level: failure, damage: 0}]}
    characters:
    - {name: Goblin, health: Battered}
    - {name: Orc, health: Healthy}
- id: F20-overflow-also
  note: >-
    F20 Amb-4: 3 x em 3 = 9 eliminations spill from the 4 rats onto the engaged bats (GM input `also`): 4 + 5, 1 bat left.
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Rats, tier: nuisance, count: 4, skills: {Fisticuffs: 1}, weapons: [Fist]}
  - {name: Bats, tier: nuisance, count: 6, skills: {Fisticuffs: 1}, weapons: [Fist]}
  orders:
  - actor: Kael
    actions:
    - {kind: attack, ap: 1, target: Rats, also: [Bats]}
  expect:
    actions:
    - {actor: Kael, index: 0, total: 4, difficulty: 1, margin: 3, level: great, eliminated: 9}
    characters:
    - {name: Rats, count: 0}
    - {name: Bats, count: 1}
"""


def test_turn_features_through_the_real_engine(case_file, capsys) -> None:
    code = main(["adjudicate", str(case_file(CASES))])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1] == "10 passed, 0 failed"


def test_cast_json_reports_the_attack_stage(case_file, capsys) -> None:
    main(["adjudicate", str(case_file(CASES)), "--json", "--case", "cast-fireball-at-goblins"])
    [case] = json.loads(capsys.readouterr().out)["cases"]
    [cast] = case["result"]["actions"]
    assert cast["kind"] == "cast" and cast["level"] == "solid"
    [stage] = cast["targets"]
    assert {"name", "total", "difficulty", "margin", "level", "damage", "specials", "eliminated",
            "effective"} <= set(stage)
    assert (stage["name"], stage["eliminated"]) == ("Goblins", 4)


def test_spec_json_result_fills_every_order_field() -> None:
    """spec/cases.md: `--json` gives "the shape of that kind's expect with every field filled in";
    a parsed order without Guard, Reduce, Endure, Intent or OOC still lists them, empty."""
    from fappo_bot.adjudication.report import order_case_dict
    from fappo_bot.rules.orders import Action, ActionKind, Order

    order = Order(actor="Kael", actions=(Action(kind=ActionKind.DEFEND, ap=1),))
    assert order_case_dict(order) == {
        "actor": "Kael", "actions": [{"kind": "defend", "ap": 1}], "guard": [], "reduce": [],
        "endure": False, "intent": "", "ooc": "",
    }


REFUSED = """\
cases:
- id: refused-orders-are-reported
  note: >-
    RULINGS Amendments 2026-12-01 (reporting): "`--json` reports every action of every order,
    refused ones included", each `effective: false`. Kael's post allocates 4 AP of 3 (refused on
    its line 2), Mira's structured order names no weapon skill for her Spear (skill-required).
  characters:
  - {name: Kael, traits: {Nimble: 3}, skills: {Swordfighting: 3}, weapons: [Broadsword]}
  - {name: Mira, traits: {Clever: 3}, skills: {Swordfighting: 3}, weapons: [Spear]}
  - {name: Goblin, traits: {Brawny: 3}, skills: {Knife Fighting: 2}, weapons: [Dagger]}
  orders:
  - actor: Kael
    post: |
      2 AP attack Goblin with Broadsword
      2 AP defend
  - actor: Mira
    actions:
    - {kind: attack, ap: 1, target: Goblin}
  - actor: Goblin
    actions:
    - {kind: defend, ap: 1}
  expect:
    errors:
    - {actor: Kael, code: ap-over-budget}
    - {actor: Mira, code: skill-required}
"""


def test_json_reports_every_action_of_refused_orders(case_file, capsys) -> None:
    code = main(["adjudicate", str(case_file(REFUSED)), "--json"])
    [case] = json.loads(capsys.readouterr().out)["cases"]
    assert code == 0 and case["passed"], case
    got = [(a["actor"], a["index"], a["kind"], a["effective"], a["notes"])
           for a in case["result"]["actions"]]
    assert got == [
        ("Goblin", 0, "defend", True, []),
        ("Kael", 0, "attack", False, ["order refused"]),
        ("Kael", 1, "defend", False, ["order refused"]),
        ("Mira", 0, "attack", False, ["order refused"]),
    ]

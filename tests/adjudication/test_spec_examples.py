"""The examples of spec/cases.md itself (one per kind besides the turns the public cases cover)
load, run and pass through the real rules modules and parser."""

from __future__ import annotations

import pytest

from fappo_bot.cli import main

pytestmark = pytest.mark.unit

SPEC_EXAMPLES = """\
cases:
- id: F1-valid-pc
  kind: sheet
  sheet:
    tier: pc
    traits: {Nimble: 5, Vigilant: 3}
    skills: {Swordfighting: 4, Stealth: 3}
    floating: 1
    ap: 3
    legendary: [{item: Longsword, points: 1}]
    packages: [{name: Wood Elf, cost: 3}]
    spells: [{name: Fireball, difficulty: 12}]
    budget: 30
  expect: {valid: true, cost: 28, unspent: 2}
- id: F24-fireball
  kind: spell
  effects: {damage: 4, specials: 1, locus: true, radius: 2, loud: true, traceable: true}
  ranges: 3
  expect: {difficulty: 12, cast_difficulty: 15, learned: 6, learned_cast_difficulty: 9, cost: 2}
- id: F27-night
  kind: rest
  characters: [{name: Kael, traits: {Nimble: 1, Highborn: 0}, floating: 0,
                max: {traits: {Nimble: 5, Highborn: 3}, floating: 1}}]
  break: night
  allocate: {Kael: {Nimble: 2, Highborn: 1}}
  expect: {characters: [{name: Kael, sp: {Nimble: 3, Highborn: 1}}]}
- id: P-inline-brackets
  kind: parse
  characters: [{name: Mira, traits: {Clever: 3}, skills: {Pickpocket: 3, Knife Fighting: 2}, weapons: [Dagger]}, {name: Guard, traits: {Vigilant: 3}, skills: {Swordfighting: 2}, weapons: [Broadsword]}]
  pending: []
  poster: Mira
  post: |
    Mira keeps low [2 AP Pickpocket: lift the keys, 1 SP Clever] and waits.
    [If the guard wakes: 1 AP attack him with Dagger]
    OOC: back Monday
  expect:
    orders:
    - actor: Mira
      actions:
      - {kind: skill, ap: 2, skill: Pickpocket, sp: {Clever: 1}}
      - {kind: attack, ap: 1, weapon: Dagger, if: the guard wakes}
      ooc: back Monday
- id: F14-battered-with-check
  kind: heal
  characters: [{name: Kael, health: Battered}]
  elapsed: 300
  check: {total: 5, sp: {}, sagacious: false}
  expect: {characters: [{name: Kael, health: Staggered}], check_level: solid, heal_seconds: 300}
"""


def test_spec_examples_pass(case_file, capsys) -> None:
    code = main(["adjudicate", str(case_file(SPEC_EXAMPLES))])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines() == ["PASS F1-valid-pc", "PASS F24-fireball", "PASS F27-night",
                                "PASS P-inline-brackets", "PASS F14-battered-with-check",
                                "5 passed, 0 failed"]

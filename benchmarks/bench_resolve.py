"""How long `resolve_turn` takes for 10, 100 and 1,000 combatants (goal: 1,000 < 50 ms, linear).

A realistic mix: duels of PCs with shields and pledges, groups ganging up on one defender, Great
Successes with Specials, nuisance swarms and minion trios, area attacks (grenades), ranged shots,
skill uses and moves. Run: `.venv/bin/python benchmarks/bench_resolve.py [--repeat N]`.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fappo_bot.rules.character import Character, Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import ArmorType, Tier, Trait
from fappo_bot.rules.orders import Action, ActionKind, Order, Pledge
from fappo_bot.rules.resolve import resolve_turn
from fappo_bot.rules.results import TurnState


def _w(name: str) -> Weapon:
    weapon = Weapon.named(name)
    assert weapon is not None
    return weapon


def scene(n: int) -> tuple[TurnState, list[Order]]:
    """n combatants in blocks of 10: 4 PCs, 3 thugs, a minion group, a nuisance group, 1 thrower."""
    chars: list[Character] = []
    orders: list[Order] = []
    for block in range(max(1, n // 10)):
        p = f"b{block}-"
        pos = block * 10
        pcs = [f"{p}pc{i}" for i in range(4)]
        for i, name in enumerate(pcs):
            chars.append(Character(
                name=name, traits={Trait.NIMBLE: 3, Trait.BRAWNY: 3}, floating=1,
                skills={"Swordfighting": 3 + i % 2, "Archery": 2},
                weapons=(_w("Broadsword"), _w("Long Bow")), armor=ArmorType(i % 4),
                shield=ArmorType.MEDIUM if i % 2 else ArmorType.NONE, position=pos,
            ))
        thugs = [f"{p}thug{i}" for i in range(3)]
        for i, name in enumerate(thugs):
            chars.append(Character(
                name=name, tier=Tier.VETERAN, traits={Trait.BRAWNY: 4},
                skills={"Swordfighting": 4, "Fisticuffs": 3},
                weapons=(_w(["Club", "Mace", "Dagger"][i]),), armor=ArmorType.LIGHT,
                position=pos,
            ))
        chars.append(Character(name=f"{p}minions", tier=Tier.MINION, count=7,
                               traits={Trait.BRAWNY: 3}, skills={"Swordfighting": 2},
                               weapons=(_w("Short sword"),), position=pos))
        chars.append(Character(name=f"{p}rats", tier=Tier.NUISANCE, count=12,
                               skills={"Fisticuffs": 2}, weapons=(_w("Fist"),), position=pos))
        chars.append(Character(name=f"{p}sapper", traits={Trait.CLEVER: 3},
                               skills={"Throwing": 3}, weapons=(_w("Grenade"),),
                               position=pos + 2))
        a = ActionKind
        orders += [
            Order(actor=pcs[0], actions=(
                Action(kind=a.ATTACK, ap=2, target=thugs[0], sp={"Nimble": 1}, special="Bleeding"),
                Action(kind=a.DEFEND, ap=1)),
                guard=(Pledge(against=thugs[1], sp={"Brawny": 1}),)),
            Order(actor=pcs[1], actions=(
                Action(kind=a.ATTACK, ap=2, target=f"{p}rats"),
                Action(kind=a.DEFEND, ap=1, against=thugs[2]))),
            Order(actor=pcs[2], actions=(
                Action(kind=a.ATTACK, ap=3, target=f"{p}minions"),)),
            Order(actor=pcs[3], actions=(
                Action(kind=a.SKILL, ap=1, skill="Stealth", difficulty=4),
                Action(kind=a.MOVE, ranges=2, toward=thugs[0]),
                Action(kind=a.DEFEND, ap=1)),
                guard=(Pledge(against="any", sp={"floating": 1}),)),
            Order(actor=thugs[0], actions=(Action(kind=a.ATTACK, ap=3, target=pcs[0],
                                                  special="Knockdown"),)),
            Order(actor=thugs[1], actions=(Action(kind=a.ATTACK, ap=2, target=pcs[0]),
                                           Action(kind=a.ATTACK, ap=2, target=pcs[1]))),
            Order(actor=thugs[2], actions=(Action(kind=a.ATTACK, ap=4, target=pcs[1],
                                                  flat_footed=True),)),
            Order(actor=f"{p}minions", actions=(Action(kind=a.ATTACK, ap=2, target=pcs[1]),)),
            Order(actor=f"{p}rats", actions=(Action(kind=a.ATTACK, ap=1, target=pcs[0]),)),
            Order(actor=f"{p}sapper", actions=(Action(
                kind=a.ATTACK, ap=2, weapon="Grenade", targets=(pcs[2], pcs[3], thugs[2])),)),
        ]
    state = TurnState(turn=1, characters=tuple(chars), config=RulesConfig(collaborate=True))
    return state, orders


def measure(n: int, repeat: int) -> float:
    """Median milliseconds per resolved turn."""
    state, orders = scene(n)
    resolve_turn(state, orders)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = resolve_turn(state, orders)
        times.append((time.perf_counter() - start) * 1000)
    assert not result.errors, result.errors[:3]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for n in (10, 100, 1000):
        ms = measure(n, args.repeat)
        print(f"{n:>5} combatants: {ms:8.2f} ms per turn ({ms / n * 1000:6.1f} us each)")


if __name__ == "__main__":
    main()

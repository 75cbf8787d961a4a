"""How long `resolve_turn` takes for 10, 100 and 1,000 combatants (goal: 1,000 < 50 ms, linear).

Scenes are built in blocks of 10 entries (characters or fodder groups) holding 27 creatures, so a
scene is sized two ways: by entries (orders to resolve) and by creatures (combatants in the fight).
The default sizes include 370 entries, the scene of 999 creatures, and the verdict is printed for
both readings of "1,000 combatants": 1,000 creatures, and 1,000 entries (2,700 creatures).

A realistic mix: duels of PCs with shields and pledges, groups ganging up on one defender, Great
Successes with Specials, nuisance swarms and minion trios, area attacks (grenades), ranged shots,
skill uses and moves. Run:
`.venv/bin/python benchmarks/bench_resolve.py [--repeat N] [--sizes 10 100 1000]`; under
valgrind's callgrind, `--sizes 1000 --repeat 1` and `--repeat 3` differ by two turns' instructions.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_storage import machine_speed
from fappo_bot.collector import collector_paused
from fappo_bot.rules import (
    Action,
    ActionKind,
    ArmorType,
    Character,
    Order,
    Pledge,
    RulesConfig,
    Tier,
    Trait,
    TurnState,
    Weapon,
    entities,
    resolve_turn,
)

GOAL_MS = 50


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


@dataclass(frozen=True)
class Row:
    """The measured figures of one scene size."""

    #: character entries (a nuisance or minion group is one entry) and the creatures in them
    entries: int
    creatures: int
    #: attack actions ordered, and the strikes they make (entity x target, each graded)
    attack_actions: int
    strikes: int
    best_ms: float
    median_ms: float

    @property
    def us_per_entry(self) -> float:
        """Median microseconds per combatant entry (a group is one entry)."""
        return self.median_ms / self.entries * 1000

    @property
    def us_per_creature(self) -> float:
        """Median microseconds per creature (a 12-rat group counts 12)."""
        return self.median_ms / self.creatures * 1000


def measure(n: int, repeat: int) -> Row:
    """Resolve the scene of `n` entries once to warm up, then `repeat` timed times.

    Each timed run starts from a collected heap (`gc.collect()` outside the timing); the
    collector is left on, and paused while the turn resolves, as the service resolves it
    (`collector_paused`, `service.base.rules_resolver`).
    """
    state, orders = scene(n)
    result = resolve_turn(state, orders)
    assert not result.errors, result.errors[:3]
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        with collector_paused():
            resolve_turn(state, orders)
        times.append((time.perf_counter() - start) * 1000)
    by_name = {c.name: c for c in state.characters}
    attacks = [(o.actor, a) for o in orders for a in o.actions if a.kind is ActionKind.ATTACK]
    strikes = sum(  # each entity of the attacker (swarm, trio, single) against each target
        len(entities(by_name[actor], state.config)) * len(a.targets or (a.target,))
        for actor, a in attacks
    )
    return Row(
        entries=len(state.characters),
        creatures=sum(c.count for c in state.characters),
        attack_actions=len(attacks),
        strikes=strikes,
        best_ms=min(times),
        median_ms=statistics.median(times),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="timed turns per size (default 5)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 370, 1000],
                        help="entries per scene (default 10 100 370 1000; 370 entries hold 999 "
                             "creatures)")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.repeat = [10], 1
    print(machine_speed())
    rows = {n: measure(n, args.repeat) for n in args.sizes}
    print(f"resolve_turn, {args.repeat} timed turns per size (goal: 1,000 combatants < {GOAL_MS} ms)")
    print(f"{'entries':>8} {'creatures':>9} {'attacks':>8} {'strikes':>8} {'best ms':>9} "
          f"{'median ms':>10} {'us/entry':>9} {'us/creature':>12}")
    for row in rows.values():
        print(f"{row.entries:>8,} {row.creatures:>9,} {row.attack_actions:>8,} {row.strikes:>8,} "
              f"{row.best_ms:>9.2f} {row.median_ms:>10.2f} {row.us_per_entry:>9.1f} "
              f"{row.us_per_creature:>12.1f}")
    if 100 in rows and 1000 in rows:
        small = rows[100]
        print(f"growth 100 -> 1,000 entries: x{rows[1000].median_ms / small.median_ms:.1f} "
              f"median, x{rows[1000].best_ms / small.best_ms:.1f} best (linear = x10.0)")
    for size, label in ((370, "1,000 combatants as creatures (370 entries, 999 creatures)"),
                        (1000, "1,000 combatants as entries (2,700 creatures)")):
        if size not in rows:
            continue
        row = rows[size]
        verdict = "meets" if row.best_ms < GOAL_MS else "misses"
        print(f"{label}: best {row.best_ms:.1f} ms, median {row.median_ms:.1f} ms: "
              f"{verdict} the {GOAL_MS} ms goal (best)")


if __name__ == "__main__":
    main()

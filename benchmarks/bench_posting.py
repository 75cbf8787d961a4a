"""Post-parser benchmark: a typical 8-line post parsed, validated and rendered (goal < 200 µs,
i.e. 5,000 posts/s on one core) and a 10,000-line post (goal < 1 s).

Also, for information, the service's own read of a post (`PostingText.read`: a fresh context and
a freshly loaded state for every post) with the typical post, and with the 2-line post of the
storage ingest benchmark in its scene (4 PCs, 2 lieutenants).

Run: .venv/bin/python benchmarks/bench_posting.py [--quick | --smoke]

Each figure is the best of several repetitions (as `timeit` advises: the others measure the other
jobs sharing the machine); the median is printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_storage import ENEMY_SHEET, PC_SHEET, machine_speed, name
from fappo_bot.adjudication.loader import character_from_case
from fappo_bot.posting import PostContext, parse_post
from fappo_bot.posting.render import render_reply
from fappo_bot.rules import Character, TurnState
from fappo_bot.service.characters import NewCharacter
from fappo_bot.service.text import PostingText

CHARACTERS = [
    {"name": "Kael", "traits": {"Nimble": 3, "Tireless": 3, "Highborn": 3}, "floating": 1,
     "skills": {"Swordfighting": 3, "Acrobatics": 2}, "weapons": ["Broadsword", "Long Bow"]},
    {"name": "Mira", "traits": {"Clever": 3}, "skills": {"Pickpocket": 3}, "weapons": ["Dagger"]},
    {"name": "Goblin 1", "traits": {"Brawny": 3}, "skills": {"Knife Fighting": 2},
     "weapons": ["Dagger"]},
    {"name": "Goblin 2", "traits": {"Brawny": 3}, "skills": {"Knife Fighting": 2},
     "weapons": ["Dagger"]},
    {"name": "Goblin Archer", "traits": {"Brawny": 3}, "skills": {"Archery": 2},
     "weapons": ["Horse Bow"], "position": 3},
]
TYPICAL = """**Kael**
Kael vaults the overturned cart and brings his broadsword down on the nearest goblin,
keeping half an eye on the archer on the roof [1 AP defend against Goblin Archer].

2 AP attack Goblin 1 with Broadsword, 1 SP Nimble, +1 (high ground)
Guard: 1 SP Tireless against Goblin Archer
Intent: keep them off Mira while she works the lock
OOC: I'll be slow to post this weekend"""


INGEST_POST = "2 AP attack Skargaa with Broadsword\n1 AP defend"


def ingest_scene() -> tuple[Character, ...]:
    """The scene of bench_storage's ingest: 4 PCs and 2 lieutenant enemies."""
    sheets = [{**PC_SHEET, "name": name("Kael", i)} for i in range(4)]
    sheets += [{**ENEMY_SHEET, "name": name("Skarg", i)} for i in range(2)]
    built = [NewCharacter.from_dict(sheet).build() for sheet in sheets]
    return tuple(c for c in built if isinstance(c, Character))


def timed(label: str, func: Callable[[], object], repeat: int, number: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        runs.append((time.perf_counter() - start) / number)
    best, median = min(runs), statistics.median(runs)
    print(f"{label}: best {best * 1e6:,.1f} µs ({1 / best:,.0f}/s), median {median * 1e6:,.1f} µs"
          " per run")
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest sizes: checks that the script runs")
    args = parser.parse_args()
    state = TurnState(characters=tuple(character_from_case(c) for c in CHARACTERS))
    ctx = PostContext.for_poster(state, "Kael")
    assert len(TYPICAL.split("\n")) == 8
    assert parse_post(TYPICAL, ctx).ok

    def typical() -> str:
        return render_reply(parse_post(TYPICAL, ctx), state)

    def parse_only() -> object:
        return parse_post(TYPICAL, ctx)

    lines = TYPICAL.split("\n")[1:]
    size = 100 if args.smoke else 10_000
    huge = "\n".join((lines * (size // len(lines) + 1))[:size])

    def huge_post() -> str:
        return render_reply(parse_post(huge, ctx), state)

    text = PostingText()
    characters, ingest = state.characters, ingest_scene()
    assert len(ingest) == 6 and text.read(INGEST_POST, TurnState(characters=ingest), "Kaelaa",
                                          ["Kaelaa"]).ok

    def typical_service() -> object:
        return text.read(TYPICAL, TurnState(characters=characters), "Kael", ["Kael"])

    def ingest_service() -> object:
        return text.read(INGEST_POST, TurnState(characters=ingest), "Kaelaa", ["Kaelaa"])

    print(machine_speed())
    number = 2 if args.smoke else 200 if args.quick else 2000
    repeat = 1 if args.smoke else 5
    typical_s = timed("typical 8-line post, parse+validate+render", typical, repeat, number)
    timed("typical 8-line post, parse+validate only", parse_only, repeat, number)
    timed("typical 8-line post, service read (fresh context and state)", typical_service, repeat,
          number)
    timed("storage ingest 2-line post, service read (fresh context and state)", ingest_service,
          repeat, number)
    huge_s = timed(f"{size:,}-line post, parse+validate+render", huge_post, min(repeat, 3), 1)
    ok = typical_s < 200e-6 and huge_s < 1.0
    print("goals (best run: < 200 µs, < 1 s):", "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

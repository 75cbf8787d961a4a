"""A fuzz of posts through the whole service: random posts built from valid lines,
mutated with hostile tokens (mentions, zero-width tricks, markdown, control characters, huge
numbers), posted, edited and sent by DM by the players and as NPC orders by the GM, on the
in-memory store; every so often the turn is reviewed, closed and resolved with every question
answered. Every reply, refusal, review and outbox message is checked: no traceback, no live
mention.

Run: .venv/bin/python benchmarks/fuzz_posts.py [--posts 20000] [--seed 1] [--smoke]
Prints the count of posts, replies accepted and refused, turns resolved, and the rate.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fappo_bot.service import ServiceError, Services
from fappo_bot.service.records import Role
from tests.service.conftest import sheet
from tests.service.fakes import FakeUowFactory
from tests.service.test_guard_walk import live_texts

GOOD = [
    "2 AP attack Skarg with Broadsword, 1 SP Nimble, +1 (high ground)",
    "1 AP defend against Skarg", "Guard: 1 SP Tireless against Skarg",
    "Reduce: 1 SP Nimble on the hit", "Kael vaults the cart [2 AP attack Goblins with Broadsword]",
    "If anything comes through: 1 AP attack it with Broadsword", "Endure: 1 SP Tireless",
    "Intent: hold the line", "OOC: back Monday", "2 AP Stealth: slip behind Skarg",
    "move 3 away from Skarg", "3 AP defend", "1 AP attack Goblins with Dagger",
]
NASTY = [
    "@everyone", "@here", "<@123456789012345678>", "<@!1>", "<@&1>", "<#1>", "@\u200beveryone",
    "@\u200b\u200bhere", "<@\u200b1>", "**@**everyone", "`@here`", "||@everyone||", "@\u2060here",
    "@\ufeffeveryone", "[x](https://e.x)", "```", "[", "]", "(", ")", "**", "\x00", "\u202e",
    "\r", "\t", "99999999999999999999", "-0", "\\", "🗡️", "İ", "ß", ":", "->", "2 AP", "1 SP",
]


def post_text(rng: random.Random, gm: bool) -> str:
    lines = [rng.choice(GOOD) for _ in range(rng.randint(1, 8))]
    for _ in range(rng.randint(0, 6)):
        index = rng.randrange(len(lines))
        line = lines[index]
        at = rng.randint(0, len(line))
        lines[index] = line[:at] + rng.choice(NASTY) + line[at:]
    if gm:
        lines = [f"**{rng.choice(['Skarg', 'Goblins'])}**", *lines]
    return "\n".join(lines)


class Fuzz:
    def __init__(self, services: Services, game: str) -> None:
        self.services, self.game = services, game
        self.posts = self.accepted = self.problems = self.refused = self.resolved = 0
        self.failures: list[str] = []

    def check(self, where: str, value: Any) -> None:
        for text in live_texts(value):
            self.failures.append(f"{where}: live mention in {text[:120]!r}")

    async def call(self, where: str, text: str, coro: Any) -> Any:
        try:
            value = await coro
        except ServiceError as refused:
            self.refused += 1
            self.check(where, str(refused))
            return None
        except Exception as crash:  # a traceback: the fuzz found a bug
            self.failures.append(f"{where}: {type(crash).__name__}: {crash} for {text!r}")
            return None
        self.check(where, value)
        if getattr(value, "ok", None) is True:
            self.accepted += 1
        elif getattr(value, "ok", None) is False:
            self.problems += 1
        return value

    async def turn(self, rng: random.Random) -> None:
        services, game = self.services, self.game
        gm_review = await self.call("review", "", services.review.review(game, "gm"))
        if gm_review is not None:
            answers = {i.key: ("accept" if i.field in {"claim", "triggered"} else
                               (3 if i.field == "difficulty" else "Kael"))
                       for i in gm_review.items if i.required and not i.answered}
            if answers:
                await self.call("answer", str(answers), services.review.answer(game, "gm",
                                                                                  answers))
        number = gm_review.turn if gm_review is not None else 1
        if await self.call("resolve", "", services.resolution.resolve(game, "gm", number)
                           ) is not None:
            self.resolved += 1
            self.check("outbox", await services.outbox.for_game(game))
        elif rng.random() < 0.5:
            await self.call("undo", "", services.resolution.undo(game, "gm"))


async def main(posts: int, seed: int) -> int:
    rng = random.Random(seed)
    services = Services(FakeUowFactory())
    game = (await services.games.create(channel_key="c1", name="Fuzz", creator="gm")).id
    for user in ("alice", "bob"):
        await services.games.add_member(game, "gm", user, Role.PLAYER)
    await services.characters.create(game, "alice", sheet("Kael"))
    await services.characters.create(game, "bob", sheet("Mira"))
    await services.characters.add_enemy(game, "gm", sheet("Skarg"))
    await services.characters.add_enemy(game, "gm", sheet("Goblins"))
    await services.turns.open(game, "gm")
    fuzz = Fuzz(services, game)
    start = time.process_time()
    for number in range(posts):
        user = rng.choice(["alice", "bob", "gm"])
        text = post_text(rng, user == "gm")
        secret = user == "bob" and rng.random() < 0.5
        key = f"m{number}"
        if rng.random() < 0.15 and number:
            key = f"m{rng.randrange(number)}"  # an edit of an earlier message
            use = services.turns.edit(game, user, channel_key="c1", message_key=key, text=text,
                                      secret=secret)
        elif user == "gm":
            use = services.turns.npc_orders(game, "gm", channel_key="dm-gm", message_key=key,
                                            text=text, seal=False)
        else:
            use = services.turns.post(game, user, channel_key=f"dm-{user}" if secret else "c1",
                                      message_key=key, text=text, secret=secret)
        fuzz.posts += 1
        await fuzz.call(f"post {number}", text, use)
        if number % 250 == 249:
            await fuzz.turn(rng)
    seconds = time.process_time() - start
    print(f"{fuzz.posts:,} posts (seed {seed}): {fuzz.accepted:,} accepted, {fuzz.problems:,} "
          f"answered with their problems, {fuzz.refused:,} refusals, {fuzz.resolved} turns resolved, {len(fuzz.failures)} failures; "
          f"{fuzz.posts / seconds:,.0f} posts/s of CPU")
    for failure in fuzz.failures[:20]:
        print("  FAIL", failure)
    return 1 if fuzz.failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--posts", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true",
                        help="a short run, one turn resolved: checks that the script runs")
    args = parser.parse_args()
    if args.smoke:
        args.posts = 250
    sys.exit(asyncio.run(main(args.posts, args.seed)))

"""A small game ready to resolve, built through the service API (for the crash and shard tests).

Channel c1, GM gm-1, alice plays Kael, bob plays Mira, the GM runs Goblins and Skarg; turn 1 is
open with every post in, so `resolve` needs no GM review answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from fappo_bot.service import NewCharacter, Services
from fappo_bot.service.records import Role

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "adventure"
GM, ALICE, BOB = "gm-1", "alice", "bob"

POSTS = (
    (ALICE, "m-kael", "2 AP attack Goblins with Broadsword\n1 AP defend"),
    (BOB, "m-mira", "3 AP defend"),
    (GM, "m-gm", "**Skarg**\n2 AP attack Kael with Broadsword\n**Goblins**\n1 AP attack Mira"),
)


def sheet(name: str) -> NewCharacter:
    data = yaml.safe_load((EXAMPLES / f"{name.lower()}.yaml").read_text(encoding="utf-8"))
    return NewCharacter.from_dict(data)


async def build_table(services: Services, *, posts: bool = True) -> str:
    """The game's id; turn 1 open (with every post in, unless `posts` is False)."""
    game = await services.games.create(channel_key="c1", name="Goblin Road", creator=GM)
    for player in (ALICE, BOB):
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
    assert (await services.characters.create(game.id, ALICE, sheet("Kael"))).ok
    assert (await services.characters.create(game.id, BOB, sheet("Mira"))).ok
    assert (await services.characters.add_enemy(game.id, GM, sheet("Goblins"))).ok
    assert (await services.characters.add_enemy(game.id, GM, sheet("Skarg"))).ok
    await services.turns.open(game.id, GM)
    if posts:
        for user, key, text in POSTS:
            reply = await services.turns.post(
                game.id, user, channel_key="c1", message_key=key, text=text
            )
            assert reply.ok, reply.reply
    return game.id


async def stored(uow_factory: Any, game_id: str) -> dict[str, Any]:
    """What the crash and shard tests compare: posts with revisions, turns, resolutions, outbox."""
    async with uow_factory() as uow:
        turns = list(await uow.turns.list(game_id))
        posts = {}
        for turn in turns:
            for post in await uow.posts.list(turn.id, include_deleted=True):
                posts[post.id] = (post, list(await uow.posts.revisions(post.id)))
        return {
            "turns": turns,
            "posts": posts,
            "resolutions": [await uow.resolutions.for_turn(t.id) for t in turns],
            "characters": list(await uow.characters.list(game_id)),
            "outbox": list(await uow.outbox.for_game(game_id)),
        }

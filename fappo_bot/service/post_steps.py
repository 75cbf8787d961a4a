"""What every ruleset's post path shares: a new post's record, the reply to table talk, and
the room's notice that sealed orders arrived (F29). The post being read is a
`rulesets.port.PostStep`. The rules' own steps are in
`fappo_posts.py` and `xp_posts.py`, chosen by the game's ruleset (`rulesets/`)."""

from __future__ import annotations

from datetime import datetime

from fappo_bot.service import notices
from fappo_bot.service.base import Outgoing, UseCases
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import Game, Post, PostRevision, TurnRecord
from fappo_bot.service.rulesets.port import PostStep
from fappo_bot.service.views import PostOutcome, PostReply


def characters(revision: PostRevision) -> tuple[str, ...]:
    """The characters a revision's orders (or its Xp actions) are for, each once, in order."""
    return tuple(dict.fromkeys([*(o.actor for o in revision.orders),
                                *(a.actor for a in revision.actions)]))


def new_post(cases: UseCases, step: PostStep, secret: bool, now: datetime) -> Post:
    """The post record of a new post, written at `now` (its first revision is the caller's)."""
    return Post(id=cases.deps.ids(), game_id=step.game.id, turn_id=step.turn.id,
                author=step.author, channel_key=step.channel_key,
                message_key=step.message_key, secret=secret, created_at=now, updated_at=now)


def table_talk_reply(turn: TurnRecord | None) -> PostReply:
    return PostReply(post_id="", turn=turn.number if turn else 0, ok=True, reply="",
                     revision=0, outcome=PostOutcome.TABLE_TALK)


async def sealed_orders_arrived(cases: UseCases, uow: UnitOfWork, game: Game, turn: TurnRecord,
                                post: Post, action: str) -> None:
    """Secret orders (a DM, or the secret-orders form) are new: the room learns only that
    sealed orders arrived and how many sets so far, not from whom nor what (F29). Edits stay
    silent."""
    if post.secret and action == "post.create":
        count = sum(1 for p in await uow.posts.list(turn.id) if p.secret)
        out = Outgoing(cases.deps, game)
        out.add("secret_orders", notices.secret_orders_arrived(turn.number, max(count, 1)),
                f"secret-orders:{post.id}")
        await out.queue(uow)

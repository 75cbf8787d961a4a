"""An Xp game's post steps: a post or an edit read by the Xp post language (`xp_play`),
stored whole or not at all, audited and answered (the reply names each roll and its pool); and
each character's actions in force as `orders` lists them. Chosen for an Xp game by
`rulesets/xp.py`; as FAPPO's, problems change nothing and table talk withdraws a post's
actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fappo_bot.posting_xp import XpAction, describe
from fappo_bot.service import xp_play
from fappo_bot.service.base import UseCases, audit
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.post_steps import (
    characters,
    new_post,
    sealed_orders_arrived,
    table_talk_reply,
)
from fappo_bot.service.records import CharacterRecord, Game, Post, PostRevision, TurnRecord
from fappo_bot.service.rulesets.port import PostStep
from fappo_bot.service.text import GM_POSTER
from fappo_bot.service.views import OrderInForce, PostOutcome, PostReply


def read(text: str, poster: str, controls: list[CharacterRecord],
         records: list[CharacterRecord]) -> xp_play.XpRead:
    """An Xp post read once, for `poster` (a character, or the GM): its actions are stored
    with it, so a proxy post that speaks as another of the author's characters keeps that
    character's rolls without a `Character:` line."""
    gm = poster == GM_POSTER
    return xp_play.read(text, xp_play.context(controls, records, gm, None if gm else poster))


async def post(cases: UseCases, step: PostStep) -> PostReply:
    """A new Xp post: read, stored whole or not at all, answered."""
    turn = step.turn
    found = read(step.text, step.poster, step.controls, step.records)
    if not found.ok:
        return PostReply(post_id="", turn=turn.number, ok=False, reply=found.reply,
                         problems=found.problems, secret=step.secret, revision=0,
                         outcome=PostOutcome.PROBLEMS)
    if not found.actions:
        return table_talk_reply(turn)
    now = cases.now()
    new = new_post(cases, step, step.secret, now)
    revision = PostRevision(post_id=new.id, number=1, text=step.text, actions=found.actions,
                            ok=True, reply=found.reply, created_at=now)
    await step.uow.posts.add(new, revision)
    reply = await accepted(cases, step.uow, step.game, turn, new, revision, "post.create",
                           found.actions)
    await step.uow.commit()
    return reply


async def edit(cases: UseCases, step: PostStep, post: Post) -> PostReply:
    """An Xp post's edit: as FAPPO's (problems change nothing, table talk withdraws the
    post's actions), read by the Xp post language."""
    turn = step.turn
    found = read(step.text, step.poster, step.controls, step.records)
    if not found.ok:
        return PostReply(post_id=post.id, turn=turn.number, ok=False, reply=found.reply,
                         problems=found.problems, secret=post.secret, revision=post.revision,
                         reply_keys=post.reply_keys, outcome=PostOutcome.PROBLEMS)
    now = cases.now()
    revision = PostRevision(post_id=post.id, number=post.revision + 1,
                            text=step.text if found.actions else "", actions=found.actions,
                            ok=True, reply=found.reply, created_at=now)
    post = post.model_copy(update={"revision": revision.number, "updated_at": now,
                                   "version": post.version + 1})
    await step.uow.posts.add_revision(revision)
    await step.uow.posts.update(post)
    reply = await accepted(cases, step.uow, step.game, turn, post, revision, "post.edit",
                           found.actions)
    await step.uow.commit()
    if not found.actions:
        return reply.model_copy(update={"outcome": PostOutcome.TABLE_TALK, "reply": ""})
    return reply


async def accepted(
    cases: UseCases, uow: UnitOfWork, game: Game, turn: TurnRecord, post: Post,
    revision: PostRevision, action: str, actions: Sequence[XpAction],
) -> PostReply:
    """Audit an accepted Xp post and answer it (the reply names each roll and its pool)."""
    await audit(uow, cases.deps, game.id, post.author, action, post=post.id, turn=turn.number,
                revision=revision.number, secret=post.secret,
                actors=sorted({a.actor for a in actions}))
    await sealed_orders_arrived(cases, uow, game, turn, post, action)
    return PostReply(post_id=post.id, turn=turn.number, ok=True, reply=revision.reply,
                     characters=characters(revision), secret=post.secret, revision=revision.number,
                     reply_keys=post.reply_keys)


async def orders(uow: UnitOfWork, game: Game, turn: TurnRecord,
                 records: Mapping[str, CharacterRecord], viewer: str,
                 gm: bool) -> list[OrderInForce]:
    """`orders` in an Xp game: per character, its actions in force (as the review and the
    resolution read them), each line as the post's reply says it; a player sees
    their own characters', a GM everyone's."""
    found = await xp_play.load_in_force(uow, game, turn, list(records.values()))
    by_actor: dict[str, list[xp_play.XpInForce]] = {}
    for f in found:
        by_actor.setdefault(f.action.actor.casefold(), []).append(f)
    listed = []
    for key, actions in sorted(by_actor.items()):
        record = records.get(key)
        if not gm and (record is None or record.runner() != viewer):
            continue
        sheet = record.xp if record is not None else None
        last = actions[-1]
        listed.append(OrderInForce(
            character=record.name if record else last.action.actor,
            actions=tuple(describe(f.action, sheet) for f in actions),
            post_id=last.post.id, revision=last.revision.number, secret=last.post.secret,
            author=last.post.author))
    return listed

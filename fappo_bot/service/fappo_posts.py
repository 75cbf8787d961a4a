"""FAPPO's post steps (F29): a post or an edit read by the post language against the scene,
checked by the service's own refusals (someone else's character, the seal, secret PvP), stored
whole or not at all, audited and answered; and the orders in force as `orders` lists them.
Chosen for a FAPPO game by `rulesets/fappo.py`.

Decisions (docs/rulings.md collects them): a post with problems stores nothing; an edit with
problems changes nothing (the post's previous valid orders stay in force); F29 Amb-3: orders are
merged per character, the last written wins (`scene.orders_in_force`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from fappo_bot.posting.render import render_order
from fappo_bot.posting.safety import safe
from fappo_bot.rules import Order
from fappo_bot.service import notices
from fappo_bot.service.base import Outgoing, UseCases, audit, gm_ids
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NotFound
from fappo_bot.service.legendary import check_bindings
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.post_steps import (
    characters,
    new_post,
    sealed_orders_arrived,
    table_talk_reply,
)
from fappo_bot.service.records import CharacterRecord, Game, Post, PostRevision, TurnRecord
from fappo_bot.service.rulesets.port import PostStep
from fappo_bot.service.scene import (
    build_state,
    everyone_in,
    gm_run,
    in_scene,
    orders_in_force,
    player_run,
    visible_to_gm,
)
from fappo_bot.service.text import GM_POSTER
from fappo_bot.service.traits import catalogue
from fappo_bot.service.views import OrderInForce, PostOutcome, PostReply


async def post(cases: UseCases, step: PostStep) -> PostReply:
    """A new FAPPO post: parsed, validated, stored whole or not at all, answered."""
    uow, game, turn, records = step.uow, step.game, step.turn, step.records
    state = build_state(game, turn, records)
    read = cases.deps.text.read(step.text, state, step.poster, [c.name for c in step.controls],
                                traits=catalogue(game))
    secret = step.secret and step.poster != GM_POSTER
    if not read.ok:
        return PostReply(post_id="", turn=turn.number, ok=False, reply=read.reply,
                         problems=read.problems, secret=secret, revision=0,
                         outcome=PostOutcome.PROBLEMS)
    if not read.orders:
        return table_talk_reply(turn)
    check_orders(turn, read.orders, step.controls, records)
    check_bindings(game, records, read.orders)
    honour: list[str] = []
    if step.poster != GM_POSTER:
        honour = check_pvp_secret(read.orders, step.author, records, secret,
                                  game.rules.hide_all_allocations,
                                  game.rules.allow_player_resolved_pvp)
    # the orders this post replaces (for the reply's notes): every character's when the
    # "everyone is in" check needs them too (read once for both), else only this post's
    # characters'
    everyone = turn.npc_commitment is not None or not gm_run(records)
    earlier = await uow.posts.orders_in_force(
        turn.id, None if everyone else {o.actor.casefold() for o in read.orders})
    notes = [cases.deps.text.replaced(found, order, state) for order in read.orders
             if (found := earlier.get(order.actor.casefold())) is not None]
    now = cases.now()
    new = new_post(cases, step, secret, now)
    revision = PostRevision(post_id=new.id, number=1, text=step.text, orders=read.orders,
                            ok=True, reply="\n".join([read.reply, *notes, *honour_note(honour)]),
                            created_at=now)
    await uow.posts.add(new, revision)
    # who has orders in force now, this post's characters included
    with_orders = {*earlier, *(o.actor.casefold() for o in revision.orders)} if everyone else None
    reply = await accepted(cases, uow, game, turn, records, new, revision, "post.create",
                           with_orders)
    await uow.commit()
    return reply


async def edit(cases: UseCases, step: PostStep, post: Post) -> PostReply:
    """An edit of a FAPPO post: problems change nothing; table talk withdraws its orders."""
    uow, game, turn, records = step.uow, step.game, step.turn, step.records
    read = cases.deps.text.read(step.text, build_state(game, turn, records), step.poster,
                                [c.name for c in step.controls], traits=catalogue(game))
    if not read.ok:
        kept = await uow.posts.revisions(post.id)
        return PostReply(post_id=post.id, turn=turn.number, ok=False, reply=read.reply,
                         problems=read.problems, characters=characters(kept[-1]) if kept else (),
                         secret=post.secret, revision=post.revision,
                         reply_keys=post.reply_keys, outcome=PostOutcome.PROBLEMS)
    honour = []
    if read.orders:
        check_orders(turn, read.orders, step.controls, records)
        check_bindings(game, records, read.orders)
        if step.poster != GM_POSTER:
            honour = check_pvp_secret(read.orders, step.author, records, post.secret,
                                      game.rules.hide_all_allocations,
                                      game.rules.allow_player_resolved_pvp)
    now = cases.now()
    revision = PostRevision(post_id=post.id, number=post.revision + 1, text=step.text,
                            orders=read.orders, ok=True,
                            reply="\n".join([read.reply, *honour_note(honour)]),
                            created_at=now)
    post = post.model_copy(update={"revision": revision.number, "updated_at": now,
                                   "version": post.version + 1})
    await uow.posts.add_revision(revision)
    await uow.posts.update(post)
    reply = await accepted(cases, uow, game, turn, records, post, revision, "post.edit")
    await uow.commit()
    if not read.orders:
        return reply.model_copy(update={"outcome": PostOutcome.TABLE_TALK, "reply": ""})
    return reply


async def orders(uow: UnitOfWork, turn: TurnRecord, records: Mapping[str, CharacterRecord],
                 viewer: str, gm: bool) -> list[OrderInForce]:
    """The orders in force this turn: a player's own characters'; for a GM every one, the
    players' secret orders once the NPC orders are sealed (F29)."""
    found = []
    in_force = await orders_in_force(uow, turn)
    if gm:
        in_force, _ = visible_to_gm(turn, list(records.values()), in_force)
    for key, item in sorted(in_force.items()):
        record = records.get(key)
        if not gm and (record is None or record.runner() != viewer):
            continue
        found.append(OrderInForce(
            character=record.name if record else item.order.actor,
            actions=tuple(render_order(item.order).split("\n")),
            post_id=item.post.id, revision=item.revision.number,
            secret=item.post.secret, author=item.post.author))
    return found


def check_orders(
    turn: TurnRecord,
    orders: tuple[Order, ...],
    controls: list[CharacterRecord],
    records: list[CharacterRecord],
) -> None:
    """The service's own refusals: orders for someone else's character or a retired one,
    and NPC orders after the seal."""
    mine = {c.name.casefold() for c in controls}
    scene = {r.name.casefold(): r for r in in_scene(records)}
    if not orders:
        raise InvalidInput("This post holds no orders for any character.")
    for order in orders:
        key = order.actor.casefold()
        if key not in mine:
            if key in scene:
                raise Forbidden(f"You do not give {safe(scene[key].name)}'s orders.")
            raise NotFound(f'There is no character called "{safe(order.actor)}" in this scene.')
        if turn.npc_commitment is not None and scene[key].run_by_gm:
            raise Conflict(
                f"The NPC orders of turn {turn.number} are sealed; {safe(scene[key].name)}'s "
                "orders cannot change this turn."
            )

def check_pvp_secret(
    orders: tuple[Order, ...],
    author: str,
    records: list[CharacterRecord],
    secret: bool,
    hide_all: bool = False,
    honour: bool = False,
) -> list[str]:
    """F29 Rule: "if an action targets a PC controlled by another player -> its AP/SP
    declaration (and the target's pledges and def_ap) must come by DM to the bot".

    With `allow_player_resolved_pvp` (`honour`, R2: "honor-system PvP") such orders may be
    posted openly: the other players' characters they name are returned, for the reply to
    say that the orders are public (docs/rulings.md). `hide_all_allocations` still wants
    every order by DM."""
    if secret:
        return []
    if hide_all:
        raise InvalidInput(
            "This game keeps every AP and SP allocation secret (its hide_all_allocations "
            "setting): send your orders to the bot by DM. Nothing of this post was recorded."
        )
    others = {r.name.casefold(): r.name for r in player_run(records)
              if (runner := r.runner()) is not None and runner != author}
    named: list[str] = []
    for order in orders:
        for action in order.actions:
            for name in (action.target, action.against, *(action.targets or ())):
                if name and name.casefold() in others:
                    named.append(others[name.casefold()])
        for pledge in order.guard:
            if pledge.against.casefold() in others:
                named.append(others[pledge.against.casefold()])
    if named and not honour:
        who = ", ".join(map(safe, dict.fromkeys(named)))
        raise InvalidInput(
            f"Orders that concern another player's character ({who}) go to the bot by "
            "DM, so they stay secret until the turn is resolved. Nothing of this post "
            "was recorded; send it again by DM."
        )
    return list(dict.fromkeys(named))


async def accepted(
    cases: UseCases,
    uow: UnitOfWork,
    game: Game,
    turn: TurnRecord,
    records: list[CharacterRecord],
    post: Post,
    revision: PostRevision,
    action: str,
    in_force: Collection[str] | None = None,
) -> PostReply:
    """Audit an accepted post and tell the GMs if everyone is in (`in_force`: the characters
    with orders in force (case-folded), this post's included, when they were read already)."""
    await audit(uow, cases.deps, game.id, post.author, action, post=post.id, turn=turn.number,
                revision=revision.number, secret=post.secret,
                actors=[o.actor for o in revision.orders])
    await sealed_orders_arrived(cases, uow, game, turn, post, action)
    complete = await maybe_everyone_in(cases, uow, game, turn, records, in_force)
    return PostReply(post_id=post.id, turn=turn.number, ok=True, reply=revision.reply,
                     characters=characters(revision), secret=post.secret,
                     revision=revision.number,
                     reply_keys=post.reply_keys, everyone_in=complete)


async def maybe_everyone_in(
    cases: UseCases,
    uow: UnitOfWork,
    game: Game,
    turn: TurnRecord,
    records: list[CharacterRecord],
    in_force: Collection[str] | None = None,
) -> bool:
    """Tell the GMs once per turn when every active character is in (F30 courtesy).
    `in_force`: the characters with orders in force (case-folded), when they were read
    already."""
    if turn.npc_commitment is None and gm_run(records):
        return False  # the NPC orders are not sealed yet: no need to read every post
    if in_force is None:
        in_force = await orders_in_force(uow, turn)
    complete = everyone_in(turn, records, in_force)
    if complete:
        out = Outgoing(cases.deps, game)
        for gm in await gm_ids(uow, game):
            out.add("everyone_in", notices.everyone_in(turn.number),
                    f"everyone-in:{turn.id}:{gm}", dm_to=gm)
        await out.queue(uow)
    return complete


def honour_note(named: list[str]) -> list[str]:
    """The reply's line for PvP orders posted openly (`allow_player_resolved_pvp`, F29)."""
    if not named:
        return []
    return [f"These orders concern another player's character ({', '.join(named)}) and are "
            "posted openly: this game settles player against player on the players' honour "
            "(its allow_player_resolved_pvp setting), so they are public and the turn's results show "
            "them to everyone."]


"""Turns: open, post, edit, delete, pass, secret orders, the NPC seal, and who is in (F7, F29).

Decisions (docs/rulings.md collects them):
- A post is recorded whole or not at all (spec/posting.md). A post with problems stores nothing:
  the reply lists every problem. An edit with problems also changes nothing: the post's previous
  valid orders stay in force until the edit is fixed (bad input changes no state, and a typo
  near call time does not cost the player the turn, F30). An edit of a message that was never
  recorded (its first version had problems) is taken as a new post.
- F29 Amb-3: orders are merged per character, the last written wins (`scene.orders_in_force`).
- A post while the turn is closed (time called, the GM resolving) is refused with a clear
  message; nothing is lost, the text stays in the channel to post again next turn.
- The GM's NPC orders are sealed by a SHA-256 commitment (salt + canonical orders); once sealed
  they cannot change this turn. `resolve` seals them itself if the GM did not.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from fappo_bot.posting_xp import XpAction, describe
from fappo_bot.rules import Order, PendingHit
from fappo_bot.service import notices, xp_play
from fappo_bot.service.base import (
    Outgoing,
    UseCases,
    audit,
    check_gm,
    check_member,
    current_turn,
    gm_ids,
    load_game,
    load_game_at_play,
    require_gm,
    require_member,
    require_running,
    some_turn,
)
from fappo_bot.service.errors import Conflict, Forbidden, InvalidInput, NotFound, ServiceError
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterRecord,
    CharacterStatus,
    Game,
    Post,
    PostRevision,
    Role,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.scene import (
    InForce,
    build_state,
    commitment,
    everyone_in,
    gm_run,
    in_scene,
    orders_in_force,
    player_run,
    visible_to_gm,
)
from fappo_bot.service.text import GM_POSTER
from fappo_bot.service.timing import arm
from fappo_bot.service.turnflow import (
    hidden_actors,
    open_turn,
    refuse_unless_open,
    seal_turn,
    turn_status,
)
from fappo_bot.service.views import (
    DeletedPost,
    OrderInForce,
    PostOutcome,
    PostReply,
    RevealView,
    SealView,
    TurnStatusView,
    TurnSummary,
)


async def _controls(
    uow: UnitOfWork, game: Game, user: str, roles: frozenset[Role] | None = None,
    as_character: str | None = None,
) -> tuple[str, list[CharacterRecord], list[CharacterRecord]]:
    """The poster name for the parser, the characters the user gives orders for, and all
    (`roles`: the user's roles when they were read already; `as_character`: the character a
    player's post speaks as, when the platform says so: a proxy post, docs/discord.md)."""
    if roles is None:
        member_of = await require_member(uow, game, user)
    else:
        member_of = check_member(game, set(roles))
    records = list(await uow.characters.list(game.id))
    own = [r for r in records if r.status is CharacterStatus.ACTIVE and r.runner() == user]
    if Role.GM in member_of:
        return GM_POSTER, gm_run(records) + own, records
    if not own:
        idle = [r.name for r in records if r.runner() == user or r.owner == user]
        if idle:
            raise Forbidden(
                f"{', '.join(idle)} cannot take orders from you now (retired, inactive or run "
                "by the GM); ask a GM."
            )
        raise Forbidden("You have no character in this game; create one first.")
    if as_character is not None:
        wanted = as_character.strip().casefold()
        speaking = [r for r in own if r.name.casefold() == wanted]
        if not speaking:
            raise Forbidden(f'You do not give the orders of "{as_character.strip()}" now.')
        return speaking[0].name, own, records
    return own[0].name, own, records


def _xp_read(text: str, poster: str, controls: list[CharacterRecord],
             records: list[CharacterRecord]) -> xp_play.XpRead:
    """An Xp post read for `poster` (a character, or the GM). An Xp post is read again, from its
    text, when the GM reviews and resolves, for its author's first character: a post that speaks
    as another of the author's characters (a proxy post) without saying so in its text is
    refused rather than read for the wrong character later."""
    gm = poster == GM_POSTER
    read = xp_play.read(text, xp_play.context(controls, records, gm, None if gm else poster))
    if read.ok and not gm and controls and poster != controls[0].name:
        later = xp_play.read(text, xp_play.context(controls, records, False))
        if later.actions != read.actions:
            raise InvalidInput(f"You play several characters here: start the post with the line "
                               f"`Character: {poster}` so that its rolls stay {poster}'s. "
                               "Nothing of this post was recorded.")
    return read


async def _xp_orders(uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: dict[str, CharacterRecord], viewer: str,
                     gm: bool) -> list[OrderInForce]:
    """`orders` in an Xp game: per character, its actions in force (the posts read again, as the
    review and the resolution read them), each line as the post's reply says it; a player sees
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


UNKNOWN_ACTOR = "(unknown)"
"""The audit log's actor of a deletion nobody knows the author of (Discord does not say)."""


def is_late(turn: TurnRecord, posted_at: datetime | None) -> bool:
    """Whether a message written at `posted_at` came after the turn's deadline."""
    return (posted_at is not None and not turn.paused and turn.deadline is not None
            and posted_at > turn.deadline)


def refuse_if_late(turn: TurnRecord, posted_at: datetime | None, *, edit: bool = False) -> None:
    """A post (or an edit) written after the turn's deadline is refused, even when time has not
    been called yet (the scheduler, or an adapter that was away, may be behind): `posted_at` is
    when it was written, as the platform stamps it; None: now, which call time decides."""
    if not is_late(turn, posted_at):
        return
    assert turn.deadline is not None
    when = turn.deadline.strftime("%Y-%m-%d %H:%M UTC")
    if edit:
        raise Conflict(f"This edit came after turn {turn.number}'s deadline ({when}), so the "
                       "orders stand as they were before it.")
    raise Conflict(f"This post came after turn {turn.number}'s deadline ({when}), so nothing "
                   "of it was recorded.")


def _table_talk(turn: TurnRecord | None) -> PostReply:
    return PostReply(post_id="", turn=turn.number if turn else 0, ok=True, reply="",
                     revision=0, outcome=PostOutcome.TABLE_TALK)


class TurnService(UseCases):
    """Posting and the turn's status."""

    @retried
    async def open(self, game_id: str, actor: str) -> TurnSummary:
        """A GM opens the next turn (the first, or after a resolution when the game does not
        open turns by itself). Hits of the last resolution become reducible in it (F13)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            require_running(game)
            last = await uow.turns.latest(game.id)
            if last is not None and last.status is not TurnStatus.RESOLVED:
                raise Conflict(f"Turn {last.number} is still {last.status.value}.")
            pending: tuple[PendingHit, ...] = ()
            hidden: frozenset[str] = frozenset()
            if last is not None:
                resolution = await uow.resolutions.for_turn(last.id)
                pending = resolution.result.state.pending if resolution else ()
                if pending:
                    hidden = await hidden_actors(uow, game, last,
                                                 await uow.characters.list(game.id))
            out = Outgoing(self.deps, game)
            turn = await open_turn(uow, self, game, (last.number + 1) if last else 1, out,
                                   pending, hidden)
            await out.queue(uow)
            await audit(uow, self.deps, game.id, actor, "turn.open", turn=turn.number)
            await uow.commit()
            return TurnSummary.of(turn)

    @retried
    async def post(
        self,
        game_id: str,
        author: str,
        *,
        channel_key: str,
        message_key: str,
        text: str,
        secret: bool = False,
        as_character: str | None = None,
        posted_at: datetime | None = None,
    ) -> PostReply:
        """A turn post (F29): parsed, validated, stored whole or not at all, answered.

        `secret` marks orders sent by DM: private until resolution (F29 secret PvP); a GM's post
        is never secret. `as_character`: a player's post speaks as this character of theirs
        (its lines without a `Character:` header are its orders), as a proxy post does. A post with no mechanics line is table talk (outcome TABLE_TALK):
        nothing is stored and nothing refused, whoever wrote it and whenever. `posted_at`: when
        the message was written (the platform's time); one after the deadline is refused as
        late, though time was not called yet.
        """
        async with self.uow() as uow:
            at_play = await load_game_at_play(uow, game_id, author, (channel_key, message_key))
            game = at_play.game
            try:
                require_running(game)
                turn = some_turn(at_play.turn)
                refuse_unless_open(turn)
                poster, controls, records = await _controls(uow, game, author, at_play.roles,
                                                            as_character)
            except ServiceError:
                talk = (xp_play.table_talk(text) if xp_play.is_xp(game.ruleset)
                        else self.deps.text.table_talk(text))
                if talk:
                    return _table_talk(at_play.turn)
                raise
            turn = await uow.lock_turn(turn.id)
            refuse_unless_open(turn)
            if is_late(turn, posted_at):
                if (xp_play.table_talk(text) if xp_play.is_xp(game.ruleset)
                        else self.deps.text.table_talk(text)):
                    return _table_talk(turn)  # chat after the deadline is chat, not a late post
                refuse_if_late(turn, posted_at)
            if await uow.posts.by_message(channel_key, message_key) is not None:
                raise Conflict("This message is already recorded as a post; edit it instead.")
            if xp_play.is_xp(game.ruleset):
                read_xp = _xp_read(text, poster, controls, records)
                if not read_xp.ok:
                    return PostReply(post_id="", turn=turn.number, ok=False,
                                     reply=read_xp.reply, problems=read_xp.problems,
                                     secret=secret, revision=0, outcome=PostOutcome.PROBLEMS)
                if not read_xp.actions:
                    return _table_talk(turn)
                now = self.now()
                post = Post(id=self.deps.ids(), game_id=game.id, turn_id=turn.id, author=author,
                            channel_key=channel_key, message_key=message_key, secret=secret,
                            created_at=now, updated_at=now)
                revision = PostRevision(post_id=post.id, number=1, text=text, ok=True,
                                        reply=read_xp.reply, created_at=now)
                await uow.posts.add(post, revision)
                reply = await self._xp_accepted(uow, game, turn, post, revision, "post.create",
                                                read_xp.actions)
                await uow.commit()
                return reply
            state = build_state(game, turn, records)
            read = self.deps.text.read(text, state, poster, [c.name for c in controls])
            secret = secret and poster != GM_POSTER
            if not read.ok:
                return PostReply(post_id="", turn=turn.number, ok=False, reply=read.reply,
                                 problems=read.problems, secret=secret, revision=0,
                                 outcome=PostOutcome.PROBLEMS)
            if not read.orders:
                return _table_talk(turn)
            self._check_orders(turn, read.orders, controls, records)
            honour: list[str] = []
            if poster != GM_POSTER:
                honour = self._check_pvp_secret(read.orders, author, records, secret,
                                                game.rules.hide_all_allocations,
                                                game.rules.allow_player_resolved_pvp)
            # the orders this post replaces: every character's when the "everyone is in" check
            # needs them too (read once for both), else only this post's characters'
            everyone = turn.npc_commitment is not None or not gm_run(records)
            in_force = await orders_in_force(
                uow, turn, None if everyone else {o.actor.casefold() for o in read.orders})
            notes = [self.deps.text.replaced(found.order, order, state)
                     for order in read.orders
                     if (found := in_force.get(order.actor.casefold())) is not None]
            now = self.now()
            post = Post(
                id=self.deps.ids(), game_id=game.id, turn_id=turn.id, author=author,
                channel_key=channel_key, message_key=message_key, secret=secret,
                created_at=now, updated_at=now,
            )
            revision = PostRevision(post_id=post.id, number=1, text=text, orders=read.orders,
                                    ok=True,
                                    reply="\n".join([read.reply, *notes, *_honour_note(honour)]),
                                    created_at=now)
            await uow.posts.add(post, revision)
            for order in revision.orders:
                in_force[order.actor.casefold()] = InForce(order, post, revision)
            reply = await self._accepted(uow, game, turn, records, post, revision, "post.create",
                                         in_force if everyone else None)
            await uow.commit()
            return reply

    async def npc_orders(
        self,
        game_id: str,
        actor: str,
        *,
        channel_key: str,
        message_key: str,
        text: str,
        seal: bool = True,
    ) -> PostReply:
        """A GM's NPC orders (F29): a post that must come from a GM, sealed at once unless
        `seal` is false. Anyone else is refused before anything is read or stored (a refused
        command changes nothing: a player's /npc must not replace the player's own orders).
        Not `@retried` as a whole: the post and the seal are two transactions, each retried on
        its own (running the post again after it was kept would be refused as a repeat)."""
        async with self.uow() as uow:
            at_play = await load_game_at_play(uow, game_id, actor)
            check_gm(at_play.game, at_play.roles)
        reply = await self.post(game_id, actor, channel_key=channel_key,
                                message_key=message_key, text=text)
        if reply.ok and seal:
            await self.seal(game_id, actor)
        return reply

    @retried
    async def edit(
        self,
        game_id: str | None,
        author: str,
        *,
        channel_key: str,
        message_key: str,
        text: str,
        secret: bool = False,
        written_by: str | None = None,
        as_character: str | None = None,
        posted_at: datetime | None = None,
    ) -> PostReply:
        """An edited post (F29 Amb-2): the orders follow the newest valid revision.

        `game_id` None: the post is found by its message alone (a DM's edit, where the adapter
        does not know the game); NotFound when that message is no recorded post. An edit that
        leaves the text as it is changes nothing (UNCHANGED, even after call time); an edit to
        table talk withdraws the post's orders (a revision with none: a later edit may bring
        orders back).

        Only a message's author edits it. `written_by` is who wrote the message, as the
        platform knows it (on Discord only the author can edit a message, so it is `author`,
        the default; the local table's /edit N names message N's seat): an edit of a message
        that was never recorded (its post was refused) is a new post of its writer, never of
        someone else. `as_character`: as for `post`; `posted_at`: when the edit
        was made (as for `post`: one after the deadline is refused, the orders stand)."""
        if written_by is not None and written_by != author:
            raise Forbidden("Only the author of a post can edit it.")
        async with self.uow() as uow:
            post = await uow.posts.by_message(channel_key, message_key)
            if post is None and game_id is None:
                raise NotFound("That message is not a recorded post, so there is nothing to "
                               "edit; send it again as a new message.")
            if post is not None:
                kept = await uow.posts.revisions(post.id)
                newest = kept[-1] if kept else None
        if post is None:
            assert game_id is not None
            return await self.post(game_id, author, channel_key=channel_key,
                                   message_key=message_key, text=text, secret=secret,
                                   as_character=as_character, posted_at=posted_at)
        if game_id is not None and post.game_id != game_id:
            raise NotFound("That post belongs to another game.")
        if post.author != author:
            raise Forbidden("Only the author of a post can edit it.")
        if not post.deleted and newest is not None and newest.text == text:
            return await self._unchanged(post, newest)
        async with self.uow() as uow:
            game = await load_game(uow, post.game_id)
            require_running(game)
            if post.deleted:
                raise Conflict("That post was deleted; write a new one.")
            turn = await uow.lock_turn(post.turn_id)
            refuse_unless_open(turn)
            refuse_if_late(turn, posted_at, edit=True)
            post = await uow.posts.get(post.id) or post
            poster, controls, records = await _controls(uow, game, author,
                                                        as_character=as_character)
            if xp_play.is_xp(game.ruleset):
                reply = await self._xp_edit(uow, game, turn, post, text, poster, controls,
                                            records)
                await uow.commit()
                return reply
            read = self.deps.text.read(
                text, build_state(game, turn, records), poster, [c.name for c in controls]
            )
            if not read.ok:
                kept = await uow.posts.revisions(post.id)
                return PostReply(post_id=post.id, turn=turn.number, ok=False, reply=read.reply,
                                 problems=read.problems, orders=kept[-1].orders if kept else (),
                                 secret=post.secret, revision=post.revision,
                                 reply_keys=post.reply_keys, outcome=PostOutcome.PROBLEMS)
            honour = []
            if read.orders:
                self._check_orders(turn, read.orders, controls, records)
                if poster != GM_POSTER:
                    honour = self._check_pvp_secret(read.orders, author, records, post.secret,
                                                    game.rules.hide_all_allocations,
                                                    game.rules.allow_player_resolved_pvp)
            now = self.now()
            revision = PostRevision(post_id=post.id, number=post.revision + 1, text=text,
                                    orders=read.orders, ok=True,
                                    reply="\n".join([read.reply, *_honour_note(honour)]),
                                    created_at=now)
            post = post.model_copy(update={"revision": revision.number, "updated_at": now,
                                           "version": post.version + 1})
            await uow.posts.add_revision(revision)
            await uow.posts.update(post)
            reply = await self._accepted(uow, game, turn, records, post, revision, "post.edit")
            await uow.commit()
            if not read.orders:
                return reply.model_copy(update={"outcome": PostOutcome.TABLE_TALK, "reply": ""})
            return reply

    async def _unchanged(self, post: Post, newest: PostRevision) -> PostReply:
        async with self.uow() as uow:
            turn = await uow.turns.get(post.turn_id)
        return PostReply(post_id=post.id, turn=turn.number if turn else 0, ok=True,
                         reply=newest.reply, orders=newest.orders, secret=post.secret,
                         revision=post.revision, reply_keys=post.reply_keys,
                         outcome=PostOutcome.UNCHANGED)

    @retried
    async def delete(self, game_id: str | None, actor: str | None, *, channel_key: str,
                     message_key: str) -> DeletedPost | None:
        """A deleted post's orders are withdrawn (its text stays stored); None when the message
        was no post (of this game). `game_id` None: found by its message alone (a DM). `actor`
        None: nobody knows who deleted it (Discord does not say; only the author and the
        server's moderators can), so it is not checked."""
        async with self.uow() as uow:
            if game_id is not None:
                await load_game(uow, game_id)  # NotFound for a game that does not exist
            post = await uow.posts.by_message(channel_key, message_key)
            if post is None or post.deleted or game_id not in (None, post.game_id):
                return None
            game = await load_game(uow, post.game_id)
            if actor is not None and post.author != actor:
                await require_gm(uow, game, actor)
            turn = await uow.lock_turn(post.turn_id)
            if turn.status is not TurnStatus.OPEN:
                raise Conflict(
                    f"Turn {turn.number} is {turn.status.value}; its orders stand as they were "
                    "at call time."
                )
            post = await uow.posts.get(post.id) or post
            post = post.model_copy(update={"deleted": True, "updated_at": self.now(),
                                           "version": post.version + 1})
            await uow.posts.update(post)
            await audit(uow, self.deps, game.id, actor if actor is not None else UNKNOWN_ACTOR,
                        "post.delete", post=post.id, turn=turn.number)
            await uow.commit()
            return DeletedPost(post_id=post.id, turn=turn.number, reply_keys=post.reply_keys)

    @retried
    async def pass_turn(self, game_id: str, author: str, character: str | None = None) -> PostReply:
        """An explicit "no action this turn" for one character (all of the author's when
        None). It counts as a post (F30: the missed-turn counter resets) and forfeits Reduce."""
        async with self.uow() as uow:
            at_play = await load_game_at_play(uow, game_id, author)
            game = at_play.game
            require_running(game)
            if xp_play.is_xp(game.ruleset):
                raise Conflict("An Xp turn needs no pass: a character without a post rolls "
                               "nothing.")
            turn = some_turn(at_play.turn)
            refuse_unless_open(turn)
            turn = await uow.lock_turn(turn.id)
            refuse_unless_open(turn)
            _, controls, records = await _controls(uow, game, author, at_play.roles)
            if character is not None:
                wanted = character.strip().casefold()
                controls = [c for c in controls if c.name.casefold() == wanted]
                if not controls:
                    raise Forbidden(f'You do not give the orders of "{character.strip()}".')
            orders = tuple(Order(actor=c.name, passed=True) for c in controls)
            self._check_orders(turn, orders, controls, records)
            now = self.now()
            post_id = self.deps.ids()
            post = Post(id=post_id, game_id=game.id, turn_id=turn.id, author=author,
                        channel_key=game.channel_key, message_key=f"pass:{post_id}",
                        created_at=now, updated_at=now)
            revision = PostRevision(post_id=post_id, number=1, text="", orders=orders, ok=True,
                                    created_at=now)
            await uow.posts.add(post, revision)
            reply = await self._accepted(uow, game, turn, records, post, revision, "post.pass")
            await uow.commit()
            return reply

    @retried
    async def set_reply_keys(self, post_id: str, reply_keys: Sequence[str]) -> None:
        """The adapter records its reply messages (a long reply is several), to edit the same
        replies on an edit and delete them with the post."""
        async with self.uow() as uow:  # one write: the adapter stores keys that changed
            if not await uow.posts.set_reply_keys(post_id, tuple(reply_keys)):
                raise NotFound("There is no such post.")
            await uow.commit()

    async def status(self, game_id: str) -> TurnStatusView:
        """Who has posted, passed or is missing, the seal and the deadline (F29, F30)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            turn = await current_turn(uow, game)
            return await turn_status(uow, game, turn)

    async def orders(self, game_id: str, viewer: str) -> list[OrderInForce]:
        """The orders in force this turn: a player's own characters'; for a GM every one, the
        players' secret orders once the NPC orders are sealed (F29). In an Xp game, each
        character's actions in force (no secret orders there)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            roles = await require_member(uow, game, viewer)
            turn = await current_turn(uow, game)
            records = {r.name.casefold(): r for r in await uow.characters.list(game.id)}
            if game.ruleset == xp_play.XP:
                return await _xp_orders(uow, game, turn, records, viewer, Role.GM in roles)
            found = []
            in_force = await orders_in_force(uow, turn)
            if Role.GM in roles:
                in_force, _ = visible_to_gm(turn, list(records.values()), in_force)
            for key, item in sorted(in_force.items()):
                record = records.get(key)
                if Role.GM not in roles and (record is None or record.runner() != viewer):
                    continue
                found.append(OrderInForce(
                    character=record.name if record else item.order.actor, order=item.order,
                    post_id=item.post.id, revision=item.revision.number,
                    secret=item.post.secret, author=item.post.author))
            return found

    @retried
    async def seal(self, game_id: str, actor: str) -> SealView:
        """A GM seals the NPC orders in force: their SHA-256 commitment is published now and
        the orders themselves with the results."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            turn = await current_turn(uow, game)
            turn = await uow.lock_turn(turn.id)
            if turn.status is not TurnStatus.OPEN:
                raise Conflict(f"Turn {turn.number} is not open.")
            if turn.npc_commitment is not None:
                raise Conflict(f"The NPC orders of turn {turn.number} are already sealed.")
            records = list(await uow.characters.list(game.id))
            in_force = await orders_in_force(uow, turn)
            out = Outgoing(self.deps, game)
            if turn.alarm_at is None and turn.deadline is not None:
                # a deadline that waited for these orders (`calltime`): armed again, past, so
                # time is called at the scheduler's next round
                turn = arm(turn, game, self.now(), fresh=False)
            turn, count = await seal_turn(uow, self, game, turn, records, in_force, out)
            await out.queue(uow)
            await audit(uow, self.deps, game.id, actor, "turn.seal", turn=turn.number,
                        commitment=turn.npc_commitment, orders=count)
            await self._maybe_everyone_in(uow, game, turn, records, in_force)
            await uow.commit()
            assert turn.npc_commitment is not None and turn.npc_sealed_at is not None
            return SealView(turn=turn.number, commitment=turn.npc_commitment,
                            sealed_at=turn.npc_sealed_at, npc_orders=count)

    async def reveal(self, game_id: str, number: int) -> RevealView:
        """Anyone checks a resolved turn's NPC orders against the commitment published."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            turn = await uow.turns.by_number(game.id, number)
            if turn is None:
                latest = await uow.turns.latest(game.id)
                raise NotFound(f"There is no turn {number} in this game; "
                               + (f"the latest is turn {latest.number}." if latest is not None
                                  else "no turn has been opened yet."))
            if turn.status is not TurnStatus.RESOLVED:
                raise Conflict(f"Turn {number} is {turn.status.value}, not resolved yet; its "
                               "sealed NPC orders are revealed once it is resolved.")
            if turn.npc_commitment is None or turn.npc_salt is None or turn.npc_canonical is None:
                raise NotFound(f"Turn {number} had no sealed NPC orders, so there is nothing "
                               "to check.")
            digest = commitment(turn.npc_salt, turn.npc_canonical)
            return RevealView(turn=number, commitment=turn.npc_commitment, salt=turn.npc_salt,
                              canonical=turn.npc_canonical,
                              verified=digest == turn.npc_commitment)

    # ---- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _check_orders(
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
                    raise Forbidden(f"You do not give {scene[key].name}'s orders.")
                raise NotFound(f'There is no character called "{order.actor}" in this scene.')
            if turn.npc_commitment is not None and scene[key].run_by_gm:
                raise Conflict(
                    f"The NPC orders of turn {turn.number} are sealed; {scene[key].name}'s "
                    "orders cannot change this turn."
                )

    @staticmethod
    def _check_pvp_secret(
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
                "This game keeps every AP and SP allocation secret (hide_all_allocations, F29 "
                "Amb-4): send your orders to the bot by DM. Nothing of this post was recorded."
            )
        others = {r.name.casefold(): r.name for r in player_run(records)
                  if r.runner() is not None and r.runner() != author}
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
            who = ", ".join(dict.fromkeys(named))
            raise InvalidInput(
                f"Orders that concern another player's character ({who}) go to the bot by "
                "DM, so they stay secret until the turn is resolved (F29). Nothing of this post "
                "was recorded; send it again by DM."
            )
        return list(dict.fromkeys(named))

    async def _xp_edit(
        self, uow: UnitOfWork, game: Game, turn: TurnRecord, post: Post, text: str, poster: str,
        controls: list[CharacterRecord], records: list[CharacterRecord],
    ) -> PostReply:
        """An Xp post's edit: as FAPPO's (problems change nothing, table talk withdraws the
        post's actions), read by the Xp post language."""
        read = _xp_read(text, poster, controls, records)
        if not read.ok:
            return PostReply(post_id=post.id, turn=turn.number, ok=False, reply=read.reply,
                             problems=read.problems, secret=post.secret, revision=post.revision,
                             reply_keys=post.reply_keys, outcome=PostOutcome.PROBLEMS)
        now = self.now()
        revision = PostRevision(post_id=post.id, number=post.revision + 1,
                                text=text if read.actions else "", ok=True, reply=read.reply,
                                created_at=now)
        post = post.model_copy(update={"revision": revision.number, "updated_at": now,
                                       "version": post.version + 1})
        await uow.posts.add_revision(revision)
        await uow.posts.update(post)
        reply = await self._xp_accepted(uow, game, turn, post, revision, "post.edit",
                                        read.actions)
        if not read.actions:
            return reply.model_copy(update={"outcome": PostOutcome.TABLE_TALK, "reply": ""})
        return reply

    async def _xp_accepted(
        self, uow: UnitOfWork, game: Game, turn: TurnRecord, post: Post, revision: PostRevision,
        action: str, actions: Sequence[XpAction],
    ) -> PostReply:
        """Audit an accepted Xp post and answer it (the reply names each roll and its pool)."""
        await audit(uow, self.deps, game.id, post.author, action, post=post.id, turn=turn.number,
                    revision=revision.number, secret=post.secret,
                    actors=sorted({a.actor for a in actions}))
        await self._sealed_orders_arrived(uow, game, turn, post, action)
        return PostReply(post_id=post.id, turn=turn.number, ok=True, reply=revision.reply,
                         secret=post.secret, revision=revision.number,
                         reply_keys=post.reply_keys)

    async def _accepted(
        self,
        uow: UnitOfWork,
        game: Game,
        turn: TurnRecord,
        records: list[CharacterRecord],
        post: Post,
        revision: PostRevision,
        action: str,
        in_force: dict[str, InForce] | None = None,
    ) -> PostReply:
        """Audit an accepted post and tell the GMs if everyone is in (`in_force`: every order in
        force, this post's included, when they were read already)."""
        await audit(uow, self.deps, game.id, post.author, action, post=post.id, turn=turn.number,
                    revision=revision.number, secret=post.secret,
                    actors=[o.actor for o in revision.orders])
        await self._sealed_orders_arrived(uow, game, turn, post, action)
        complete = await self._maybe_everyone_in(uow, game, turn, records, in_force)
        return PostReply(post_id=post.id, turn=turn.number, ok=True, reply=revision.reply,
                         orders=revision.orders, secret=post.secret, revision=revision.number,
                         reply_keys=post.reply_keys, everyone_in=complete)

    async def _sealed_orders_arrived(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                                     post: Post, action: str) -> None:
        """Secret orders (a DM, or the secret-orders form) are new: the room learns only that
        sealed orders arrived, not from whom nor what (F29). Edits stay silent."""
        if post.secret and action == "post.create":
            out = Outgoing(self.deps, game)
            out.add("secret_orders", notices.secret_orders_arrived(turn.number),
                    f"secret-orders:{post.id}")
            await out.queue(uow)

    async def _maybe_everyone_in(
        self,
        uow: UnitOfWork,
        game: Game,
        turn: TurnRecord,
        records: list[CharacterRecord],
        in_force: dict[str, InForce] | None = None,
    ) -> bool:
        """Tell the GMs once per turn when every active character is in (F30 courtesy).
        `in_force`: the orders in force, when they were read already."""
        if turn.npc_commitment is None and gm_run(records):
            return False  # the NPC orders are not sealed yet: no need to read every post
        if in_force is None:
            in_force = await orders_in_force(uow, turn)
        complete = everyone_in(turn, records, in_force)
        if complete:
            out = Outgoing(self.deps, game)
            for gm in await gm_ids(uow, game):
                out.add("everyone_in", notices.everyone_in(turn.number),
                        f"everyone-in:{turn.id}:{gm}", dm_to=gm)
            await out.queue(uow)
        return complete


def _honour_note(named: list[str]) -> list[str]:
    """The reply's line for PvP orders posted openly (`allow_player_resolved_pvp`, F29)."""
    if not named:
        return []
    return [f"These orders concern another player's character ({', '.join(named)}) and are "
            "posted openly: this game settles player against player on the players' honour "
            "(allow_player_resolved_pvp, F29), so they are public and the turn's results show "
            "them to everyone."]


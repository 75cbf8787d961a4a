"""Turns: open, post, edit, delete, pass, secret orders, the NPC seal, and who is in (F7, F29).
A post's own steps (reading it, the rules' refusals, storing it) are the game's ruleset's
(`rulesets/`: `fappo_posts.py`, `xp_posts.py`); this module keeps what every post goes through
(the game running, the turn open and locked, the deadline, who speaks for whom).

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

from fappo_bot.posting.safety import safe
from fappo_bot.rules import Order, PendingHit
from fappo_bot.service.base import (
    Outgoing,
    UseCases,
    audit,
    check_gm,
    check_member,
    current_turn,
    load_game,
    load_game_at_play,
    require_gm,
    require_member,
    require_running,
    some_turn,
)
from fappo_bot.service.board_views import BoardView, StatusBoard
from fappo_bot.service.disclosure import readable_orders
from fappo_bot.service.errors import Conflict, Forbidden, NotFound, ServiceError
from fappo_bot.service.fappo_posts import accepted, check_orders, maybe_everyone_in
from fappo_bot.service.pace import held_for_gm
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.post_steps import characters, table_talk_reply
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
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.rulesets.port import PostStep
from fappo_bot.service.scene import commitment, gm_run, orders_in_force
from fappo_bot.service.text import GM_POSTER
from fappo_bot.service.timing import arm
from fappo_bot.service.turnflow import (
    board_of,
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
    as_character: str | None = None, now: datetime | None = None,
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
        held = await held_for_gm(uow, game, records, now) if now is not None else []
        return GM_POSTER, gm_run(records) + held + own, records
    if not own:
        idle = [r.name for r in records if r.runner() == user or r.owner == user]
        if idle:
            raise Forbidden(
                f"{', '.join(map(safe, idle))} cannot take orders from you now (retired, inactive or run "
                "by the GM); ask a GM."
            )
        raise Forbidden("You have no character in this game; create one first.")
    if as_character is not None:
        wanted = as_character.strip().casefold()
        speaking = [r for r in own if r.name.casefold() == wanted]
        if not speaking:
            raise Forbidden(f'You do not give the orders of "{safe(as_character)}" now.')
        return speaking[0].name, own, records
    return own[0].name, own, records


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


class TurnService(UseCases):
    """Posting and the turn's status."""

    @retried
    async def open(self, game_id: str, actor: str) -> TurnSummary:
        """A GM opens the next turn (the first, or after a resolution when the game does not
        open turns by itself). Hits of the last resolution become reducible in it (F13)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
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
            await play.audit("turn.open", turn=turn.number)
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
            ruleset = self.ruleset(game)
            try:
                require_running(game)
                turn = some_turn(at_play.turn)
                refuse_unless_open(turn)
                poster, controls, records = await _controls(uow, game, author, at_play.roles,
                                                            as_character, self.now())
            except ServiceError:
                if ruleset.table_talk(text, self.deps.text):
                    return table_talk_reply(at_play.turn)
                raise
            turn = await uow.lock_turn(turn.id)
            refuse_unless_open(turn)
            if is_late(turn, posted_at):
                if ruleset.table_talk(text, self.deps.text):
                    return table_talk_reply(turn)  # chat after the deadline is chat, not late
                refuse_if_late(turn, posted_at)
            if await uow.posts.by_message(channel_key, message_key) is not None:
                raise Conflict("This message is already recorded as a post; edit it instead.")
            return await ruleset.post(self, PostStep(
                uow, game, turn, author, text, poster, controls, records,
                channel_key=channel_key, message_key=message_key, secret=secret))

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
                                                        as_character=as_character,
                                                        now=self.now())
            return await self.ruleset(game).edit(self, PostStep(
                uow, game, turn, author, text, poster, controls, records), post)

    async def _unchanged(self, post: Post, newest: PostRevision) -> PostReply:
        async with self.uow() as uow:
            turn = await uow.turns.get(post.turn_id)
        return PostReply(post_id=post.id, turn=turn.number if turn else 0, ok=True,
                         reply=newest.reply, characters=characters(newest), secret=post.secret,
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
            self.require(game, Feature.PASSES)
            turn = some_turn(at_play.turn)
            refuse_unless_open(turn)
            turn = await uow.lock_turn(turn.id)
            refuse_unless_open(turn)
            _, controls, records = await _controls(uow, game, author, at_play.roles,
                                                   now=self.now())
            if character is not None:
                wanted = character.strip().casefold()
                controls = [c for c in controls if c.name.casefold() == wanted]
                if not controls:
                    raise Forbidden(f'You do not give the orders of "{safe(character)}".')
            orders = tuple(Order(actor=c.name, passed=True) for c in controls)
            check_orders(turn, orders, controls, records)
            now = self.now()
            post_id = self.deps.ids()
            post = Post(id=post_id, game_id=game.id, turn_id=turn.id, author=author,
                        channel_key=game.channel_key, message_key=f"pass:{post_id}",
                        created_at=now, updated_at=now)
            revision = PostRevision(post_id=post_id, number=1, text="", orders=orders, ok=True,
                                    created_at=now)
            await uow.posts.add(post, revision)
            reply = await accepted(self, uow, game, turn, records, post, revision, "post.pass")
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

    @retried
    async def set_many_reply_keys(self, items: Sequence[tuple[str, Sequence[str]]]) -> int:
        """The reply messages of several posts, in one transaction (the adapter answers many
        posts a second and writes their keys together, not one transaction each); how many of
        the posts were found (one that is gone is skipped: its keys have nowhere to go)."""
        async with self.uow() as uow:
            found = 0
            for post_id, reply_keys in items:
                found += await uow.posts.set_reply_keys(post_id, tuple(reply_keys))
            await uow.commit()
            return found

    async def status(self, game_id: str) -> TurnStatusView:
        """Who has posted, passed or is missing, the seal and the deadline (F29, F30)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            turn = await current_turn(uow, game)
            return await turn_status(uow, self.ruleset(game), game, turn, self.now(),
                                     moved=True)

    async def status_board(self, game_id: str, viewer: str) -> StatusBoard:
        """`status`, the board made from it and whether `viewer` is a GM of the game, read in
        one transaction (`/turn status`: its text is the board's, its pings the status's)."""
        async with self.uow() as uow:
            found = await load_game_at_play(uow, game_id, viewer)
            game, ruleset = found.game, self.ruleset(found.game)
            status = await turn_status(uow, ruleset, game, some_turn(found.turn), self.now(),
                                       moved=True)
            board = BoardView.of_status(game, ruleset.has(Feature.NPC_SEAL), status)
            return StatusBoard(status, board, Role.GM in found.roles)

    async def board(self, game_id: str) -> BoardView | None:
        """What the game's turn board shows (and `/turn status`), read in one transaction that
        writes nothing, and only that (not the whole `status`); None before the first turn."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            turn = await uow.turns.latest(game.id)
            if turn is None:
                return None
            return await board_of(uow, self.ruleset(game), game, turn, self.now())

    async def orders(self, game_id: str, viewer: str) -> list[OrderInForce]:
        """The orders in force this turn: a player's own characters'; for a GM every one, the
        players' secret orders once the NPC orders are sealed (F29). In an Xp game, each
        character's actions in force (no secret orders there)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            roles = await require_member(uow, game, viewer)
            turn = await current_turn(uow, game)
            records = {r.name.casefold(): r for r in await uow.characters.list(game.id)}
            return await self.ruleset(game).orders(uow, game, turn, records, viewer,
                                                   Role.GM in roles)

    @retried
    async def seal(self, game_id: str, actor: str) -> SealView:
        """A GM seals the NPC orders in force: their SHA-256 commitment is published now and
        the orders themselves with the results."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
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
            await play.audit("turn.seal", turn=turn.number, commitment=turn.npc_commitment,
                             orders=count)
            await maybe_everyone_in(self, uow, game, turn, records, in_force)
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
                              verified=digest == turn.npc_commitment,
                              orders=readable_orders(turn.npc_canonical))

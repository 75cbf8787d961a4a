"""The NPC seal before the previous results (F30: the GM decides NPC allocations "before even
posting the effects of the previous turn"): at the end of a turn's review, before it is resolved,
the GM seals the next turn's NPC orders; their commitment is published at once, and they become
the next turn's NPC post, sealed, when it opens (`attach_presealed`, from `turnflow.open_turn`).
With the game setting `npc_seal_first` a turn is resolved only once that is done
(`require_presealed`, from the resolve)."""

from __future__ import annotations

from fappo_bot.service import notices
from fappo_bot.service.base import UseCases, live_turn, queue
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    Game,
    Post,
    PostRevision,
    PreSeal,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets.port import Feature
from fappo_bot.service.scene import build_state, canonical_orders, commitment, gm_run
from fappo_bot.service.text import GM_POSTER
from fappo_bot.service.traits import catalogue
from fappo_bot.service.views import SealView


class NpcFirstService(UseCases):
    """The GM's seal of the next turn's NPC orders, before this turn's results."""

    @retried
    async def seal_next(self, game_id: str, actor: str, *, channel_key: str,
                        message_key: str, text: str) -> SealView:
        """Seal the NPC orders of the turn after the live one (open, or closed for review)
        now: read as the GM's post against the scene as it stands (the orders are the GM's
        before the results, F30), committed, the commitment published. Refused when that turn
        has them already, or when the text has a problem (each one named)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.NPC_SEAL) as play:
            uow, game = play.uow, play.game
            turn = await uow.lock_turn((await live_turn(uow, game)).id)
            following = turn.number + 1
            held = game.settings.next_npc
            if held is not None and held.turn == following:
                raise Conflict(f"The NPC orders of turn {following} are already sealed.")
            records = list(await uow.characters.list(game.id))
            npcs = [r.name for r in gm_run(records)]
            read = self.deps.text.read(text, build_state(game, turn, records), GM_POSTER, npcs,
                                       traits=catalogue(game))
            if not read.ok:
                raise InvalidInput(f"The NPC orders of turn {following} were not sealed:",
                                   tuple(f"line {p.line}: {p.message}" for p in read.problems))
            if not read.orders:
                raise InvalidInput(f"There are no NPC orders to seal for turn {following}: "
                                   "write them as in a post (**Name** and the lines).")
            canonical = canonical_orders(read.orders)
            salt = self.deps.salts()
            digest = commitment(salt, canonical)
            held = PreSeal(turn=following, author=actor, channel_key=channel_key,
                           message_key=message_key, text=text, orders=read.orders,
                           reply=read.reply, salt=salt, canonical=canonical, commitment=digest,
                           sealed_at=self.now())
            game = game.model_copy(update={
                "settings": game.settings.model_copy(update={"next_npc": held}),
                "version": game.version + 1})
            await uow.games.update(game)
            await queue(uow, self.deps, game, "sealed", notices.sealed(following, digest),
                        f"sealed:{game.id}:{following}:{digest}")
            await play.audit("turn.seal_next", turn=following, commitment=digest,
                             orders=len(read.orders))
            return SealView(turn=following, commitment=digest, sealed_at=held.sealed_at,
                            npc_orders=len(read.orders))


def require_presealed(game: Game, turn: TurnRecord) -> None:
    """With `npc_seal_first`, a turn is resolved only once the next turn's NPC orders are
    sealed (F30)."""
    held = game.settings.next_npc
    if game.settings.npc_seal_first and (held is None or held.turn != turn.number + 1):
        raise Conflict(f"This game seals the NPC orders of the next turn before the results "
                       f"(npc_seal_first, F30): seal turn {turn.number + 1}'s NPC orders "
                       f"first, then resolve turn {turn.number}.")


async def attach_presealed(uow: UnitOfWork, cases: UseCases, game: Game,
                           turn: TurnRecord) -> tuple[Game, TurnRecord]:
    """The newly opened `turn` with the NPC orders sealed for it before the last results: the
    GM's post in it and its seal (the commitment already published); the game without them."""
    held = game.settings.next_npc
    if held is None or held.turn != turn.number or turn.status is not TurnStatus.OPEN:
        return game, turn
    now = cases.now()
    post = Post(id=cases.deps.ids(), game_id=game.id, turn_id=turn.id, author=held.author,
                channel_key=held.channel_key, message_key=held.message_key, created_at=now,
                updated_at=now)
    await uow.posts.add(post, PostRevision(post_id=post.id, number=1, text=held.text,
                                           orders=held.orders, ok=True, reply=held.reply,
                                           created_at=now))
    turn = turn.model_copy(update={
        "npc_commitment": held.commitment, "npc_salt": held.salt,
        "npc_canonical": held.canonical, "npc_sealed_at": held.sealed_at,
        "version": turn.version + 1})
    await uow.turns.update(turn)
    game = game.model_copy(update={
        "settings": game.settings.model_copy(update={"next_npc": None}),
        "version": game.version + 1})
    await uow.games.update(game)
    return game, turn

"""Resolve a turn (F7) and undo the last resolution.

`resolve` runs in ONE transaction under the turn's lock: it calls time if the turn is open,
checks the review is complete (nothing guessed, R1), seals the NPC orders if the GM did not,
resolves every order simultaneously through the rules core, writes the new character states,
the missed-turn counters (F30), the resolution record (with everything needed to undo it), the
results and messages in the outbox, and opens the next turn with the new provisional hits open
for Reduce (F13). A crash anywhere leaves the turn unresolved, or resolved with its messages
queued: never half. A resolve names the turn it means: two resolves at once of that turn, the
second finds it resolved (or the next one open) and is refused, so nobody resolves the empty turn
the first opened.

`undo` restores exactly the records the last resolution changed, voids the turn it opened (its
posts stay stored) and puts the resolved turn back to closed, to be reviewed and resolved again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from datetime import datetime

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.render import results as result_words
from fappo_bot.rules import GMInputs, Order, TurnResult, TurnState, with_healing_checks
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.service import notices, xp_play, xp_resolve, xp_review
from fappo_bot.service.base import (
    Outgoing,
    UseCases,
    audit,
    check_gm,
    gm_ids,
    load_game_at_play,
    queue,
    require_running,
    some_live_turn,
)
from fappo_bot.service.disclosure import (
    Audiences,
    concerns,
    party_names,
    private_result,
    public_result,
    reveal_messages,
    turn_audiences,
)
from fappo_bot.service.errors import Conflict, InvalidInput, NotFound
from fappo_bot.service.legendary import bind_posted
from fappo_bot.service.npc_first import require_presealed
from fappo_bot.service.pace import absent_defense
from fappo_bot.service.ports import StateWrite, UnitOfWork
from fappo_bot.service.records import (
    AbsencePolicy,
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    Game,
    Resolution,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.results_report import turn_blocks, xp_blocks
from fappo_bot.service.retry import retried
from fappo_bot.service.review import review_items
from fappo_bot.service.review_answers import apply_answers
from fappo_bot.service.review_coerce import Question
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.scene import (
    InForce,
    build_state,
    in_scene,
    orders_in_force,
    orders_of,
    player_run,
    visible_to_gm,
)
from fappo_bot.service.traits import catalogue
from fappo_bot.service.turnflow import open_turn, seal_turn
from fappo_bot.service.views import (
    ResolutionView,
    ReviewItem,
    TurnSummary,
    XpResolutionView,
)
from fappo_bot.words import plural


def _not_that_turn(number: int, turn: TurnRecord) -> Conflict:
    """The refusal of a resolve of turn `number` when the live turn is another one: most
    often the second of two resolves at once, which finds the first one's next turn open."""
    if number < turn.number:
        return Conflict(f"Turn {number} is already resolved; turn {turn.number} is "
                        f"{turn.status.value}, and nothing was resolved now.")
    return Conflict(f"There is no turn {number} yet; turn {turn.number} is {turn.status.value}.")


def _refuse_if_incomplete(turn: TurnRecord, items: Sequence[Question | ReviewItem],
                          hidden: int) -> None:
    """R1: nothing is guessed; the refusal names every missing GM input."""
    missing = [i.question for i in items if i.required and not i.answered]
    if missing:
        later = (f" ({plural(hidden, 'secret order')} will be shown for review once the NPC orders are "
                 "sealed.)" if hidden else "")
        raise InvalidInput(
            f"Turn {turn.number} cannot be resolved yet; answer these first in the review:{later}",
            tuple(missing),
        )


class ResolutionService(UseCases):
    """The GM's /resolve and /undo."""

    @retried
    async def resolve(
        self, game_id: str, actor: str, number: int
    ) -> ResolutionView | XpResolutionView:
        """Resolve turn `number`, the game's live turn (F7), and publish its results through
        the outbox.

        The number is the turn the GM reviewed: a resolve that comes second (two GMs, two
        processes, a repeated click) finds that turn resolved and is refused instead of resolving
        the next one, empty, which nobody asked for. Unsealed NPC orders are sealed first, in
        the same transaction, before anything else: the review may then show the secret orders
        (F29), so a resolve that finds them unanswered keeps the seal (committed) and refuses.
        """
        async with self.uow() as uow:
            game, turn = await _gm_live_turn(uow, game_id, actor)
            turn = await uow.lock_turn(turn.id)
            return await self.ruleset(game).resolve(self, uow, game, turn, actor, number)

    async def _resolve_locked(
        self, uow: UnitOfWork, game: Game, turn: TurnRecord, actor: str, number: int
    ) -> ResolutionView:
        """`resolve`, in its transaction, the turn locked."""
        if turn.status is TurnStatus.RESOLVED or await uow.resolutions.for_turn(turn.id):
            raise Conflict(f"Turn {turn.number} is already resolved.")
        if turn.status is TurnStatus.VOID:
            raise Conflict(f"Turn {turn.number} was voided by an undo.")
        if number != turn.number:
            raise _not_that_turn(number, turn)
        require_presealed(game, turn)
        # F22: a post's `Bind:` lines take effect first, so the powers serve this turn
        game = await bind_posted(uow, self.deps, game, turn, actor)
        records = list(await uow.characters.list(game.id))
        state = build_state(game, turn, records)
        in_force = await orders_in_force(uow, turn)
        out = Outgoing(self.deps, game)
        hidden = 0
        if turn.npc_commitment is None:
            turn, hidden = await self._seal(uow, game, turn, actor, records, state, in_force,
                                            out)
        # what the resolve reads of the review (the required and the answered questions),
        # worded only to name what is missing
        items = review_items(state, in_force, turn.gm_answers, turn.gm_inputs, catalogue(game),
                             every=False)
        if any(i.required and not i.answered for i in items):
            if hidden:
                await out.queue(uow)  # the seal stands: the GM may now review the secret orders
                await uow.commit()
            _refuse_if_incomplete(turn, review_items(state, in_force, turn.gm_answers,
                                                     turn.gm_inputs, catalogue(game)), 0)
        now = self.now()
        if turn.status is TurnStatus.OPEN:
            turn = turn.model_copy(update={"status": TurnStatus.CLOSED, "closed_at": now,
                                           "alarm_at": None, "version": turn.version + 1})
            await uow.turns.update(turn)
        # a pass is a post (docs/rulings.md): with `auto_reduce_on_absence` the rules must see it
        # to tell a player who passed (no reductions) from one who is absent (F30 Amb-4)
        keep_passes = game.rules.auto_reduce_on_absence
        orders, gm_inputs = apply_answers(
            {k: v for k, v in in_force.items() if keep_passes or not v.order.passed}, items,
            turn.gm_inputs,
        )
        away = await _away_in(uow, turn, records, in_force, now)
        if game.settings.absence is AbsencePolicy.DEFEND:
            orders = [*orders, *absent_defense(state, away, set(in_force))]
        # a Healing check posted in the turn goes on its patient's heal clock (F14)
        result = with_healing_checks(self.deps.resolve(state, orders, gm_inputs), orders)
        game, ended = await _combat_over(uow, game, gm_inputs)
        inactive = await self._write_characters(uow, game, records, result, in_force, now, away)
        turn = turn.model_copy(update={"status": TurnStatus.RESOLVED, "npc_revealed": True,
                                       "version": turn.version + 1})
        await uow.turns.update(turn)
        resolution_id = self.deps.ids()
        # the results go out before the next turn's announcement
        seen = turn_audiences(game, records, in_force)
        text, gm_text, queued = await self._publish(
            uow, out, game, turn, state, records, result, orders, seen, resolution_id,
            inactive)
        next_turn: TurnRecord | None = None
        if game.settings.auto_open_next:
            next_turn = await open_turn(uow, self, game, turn.number + 1, out,
                                        result.state.pending, seen.parties_only)
        await out.queue(uow)
        resolution = Resolution(
            id=resolution_id, game_id=game.id, turn_id=turn.id, turn_number=turn.number,
            orders=tuple(orders), gm_inputs=gm_inputs, result=result, state_before=state,
            state_after=result.state, characters_before=tuple(records),
            next_turn_id=next_turn.id if next_turn else None, created_at=now,
        )
        await uow.resolutions.add(resolution)
        await audit(uow, self.deps, game.id, actor, "turn.resolve", turn=turn.number,
                    resolution=resolution.id, orders=len(orders),
                    errors=len(result.errors))
        await uow.commit()
        return ResolutionView(
            resolution_id=resolution.id, turn=turn.number, text=text, gm_text=gm_text,
            messages_queued=queued, next_turn=next_turn.number if next_turn else None,
            inactive_candidates=tuple(inactive), combat_ended=ended,
        )

    async def _resolve_xp(
        self, uow: UnitOfWork, game: Game, turn: TurnRecord, actor: str, number: int
    ) -> XpResolutionView:
        """`resolve` for an Xp turn (`xp_play`), in its transaction, the turn locked: the review
        complete (nothing guessed, R1), every roll from its own seeded generator, the Luck and
        plot points written, the results (every die) in the outbox, the seeds and dice in the
        audit log, the next turn opened."""
        if turn.status is TurnStatus.RESOLVED:
            raise Conflict(f"Turn {turn.number} is already resolved.")
        if number != turn.number:
            raise _not_that_turn(number, turn)
        records = list(await uow.characters.list(game.id))
        found = await xp_play.load_in_force(uow, game, turn, records)
        longer = game.settings.xp.xp_failure_takes_longer
        items = xp_review.review_items(found, records, turn.gm_answers, longer=longer)
        _refuse_if_incomplete(turn, items, 0)
        try:
            resolved = xp_resolve.resolve(found, records, items, self.deps.salts,
                                          game.settings.xp.config(), longer=longer)
        except XpError as exc:
            raise InvalidInput(safe_prose(str(exc))) from None
        now = self.now()
        by_name = {r.name: r for r in records}
        for name, sheet in resolved.sheets.items():
            record = by_name[name]
            await uow.characters.update(record.model_copy(update={
                "xp": sheet, "version": record.version + 1}))
        turn = turn.model_copy(update={"status": TurnStatus.RESOLVED, "closed_at":
                                       turn.closed_at or now, "alarm_at": None,
                                       "version": turn.version + 1})
        await uow.turns.update(turn)
        resolution_id = self.deps.ids()
        out = Outgoing(self.deps, game)
        notice = notices.results(turn.number, resolution_id, xp_blocks(resolved.lines),
                                 ruleset=self.ruleset(game).naming)
        worded = result_words.Worded()  # its text and its parts word each line once
        text = result_words.text(notice, worded)
        queued = out.add("results", notice, f"results:{resolution_id}", lines_of=worded)
        next_turn: TurnRecord | None = None
        if game.settings.auto_open_next:
            next_turn = await open_turn(uow, self, game, turn.number + 1, out)
        await out.queue(uow)
        await audit(uow, self.deps, game.id, actor, "xp.turn", turn=turn.number,
                    resolution=resolution_id, rolls=resolved.rolls,
                    **({"events": resolved.events} if resolved.events else {}),
                    **({"options": options} if (options := game.settings.xp.options()) else {}))
        await uow.commit()
        return XpResolutionView(
            resolution_id=resolution_id, turn=turn.number, text=text, gm_text=text,
            messages_queued=queued, next_turn=next_turn.number if next_turn else None,
            rolls=tuple(resolved.rolls))

    @retried
    async def undo(self, game_id: str, actor: str) -> TurnSummary:
        """Roll back the game's last resolution exactly; recorded in the audit log."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            self.require(game, Feature.UNDO)
            resolution = await uow.resolutions.latest(game.id)
            if resolution is None:
                raise NotFound("There is no resolution to undo.")
            turn = await uow.lock_turn(resolution.turn_id)
            resolution = await uow.resolutions.get(resolution.id) or resolution
            if resolution.undone:
                raise Conflict(f"The resolution of turn {turn.number} was already undone.")
            withdrawn: list[str] = []  # the characters whose orders for the next turn go with it
            npc_sealed = False
            if resolution.next_turn_id is not None:
                # the next turn's lock too: a resolve of it cannot run alongside the undo
                following = await uow.lock_turn(resolution.next_turn_id)
                if following is not None and following.status is not TurnStatus.OPEN:
                    raise Conflict(
                        f"Turn {following.number} is already {following.status.value}; only the "
                        "last resolution can be undone."
                    )
                if following is not None:
                    given = await orders_in_force(uow, following)
                    withdrawn = [r.name for r in player_run(await uow.characters.list(game.id))
                                 if r.name.casefold() in given]
                    npc_sealed = following.npc_commitment is not None
                    await uow.turns.update(following.model_copy(update={
                        "status": TurnStatus.VOID, "alarm_at": None,
                        "version": following.version + 1}))
            after = {c.name.casefold(): c for c in resolution.state_after.characters}
            changed = [c.name for c in await uow.characters.list(game.id)
                       if c.name.casefold() in after and c.state != after[c.name.casefold()]]
            if changed:
                raise Conflict(
                    f"{', '.join(map(safe, changed))} changed after turn {turn.number} was resolved (an "
                    "edit, a rest, an award); undoing the resolution would lose that."
                )
            before = {r.id: r for r in resolution.characters_before}
            for current in await uow.characters.list(game.id):
                old = before.get(current.id)
                if old is not None:
                    if old != current.model_copy(update={"version": old.version}):
                        await uow.characters.update(
                            old.model_copy(update={"version": current.version + 1}))
                elif current.created_at == resolution.created_at and current.owner is None \
                        and current.status is not CharacterStatus.RETIRED:
                    # formed by that resolution (a swarm, F20): gone with it
                    await uow.characters.update(current.model_copy(update={
                        "status": CharacterStatus.RETIRED, "version": current.version + 1}))
            if resolution.gm_inputs.end_combat and resolution.state_before.in_combat:
                game = await _set_in_combat(uow, game, True)  # the fight that undo brings back
            now = self.now()
            await uow.resolutions.mark_undone(resolution.id, now)
            turn = turn.model_copy(update={"status": TurnStatus.CLOSED, "npc_revealed": False,
                                           "version": turn.version + 1})
            await uow.turns.update(turn)
            await queue(uow, self.deps, game, "undone", notices.undone(turn.number, actor, withdrawn, npc_sealed),
                        f"undone:{resolution.id}")
            await play.audit("turn.undo", turn=turn.number,
                             resolution=resolution.id)
            return TurnSummary.of(turn)

    # ---- helpers ------------------------------------------------------------------------------
    async def _seal(
        self, uow: UnitOfWork, game: Game, turn: TurnRecord, actor: str,
        records: list[CharacterRecord], state: TurnState, in_force: dict[str, InForce],
        out: Outgoing,
    ) -> tuple[TurnRecord, int]:
        """Seal the NPC orders in force at /resolve (F29: call time seals them; a turn closed
        before it did is sealed here), once the review of what the GM may see before the seal
        is complete: the turn sealed, and how many secret orders the seal shows the GM now."""
        shown, hidden = visible_to_gm(turn, records, in_force)
        if hidden:  # else the review after the seal asks the same questions
            _refuse_if_incomplete(turn, review_items(state, shown, turn.gm_answers,
                                                       turn.gm_inputs, catalogue(game)), hidden)
        turn, count = await seal_turn(uow, self, game, turn, records, in_force, out)
        await audit(uow, self.deps, game.id, actor, "turn.seal", turn=turn.number,
                    commitment=turn.npc_commitment, orders=count, by="resolve")
        return turn, hidden

    async def _write_characters(
        self,
        uow: UnitOfWork,
        game: Game,
        records: list[CharacterRecord],
        result: TurnResult,
        in_force: dict[str, InForce],
        now: datetime,
        away: Set[str] = frozenset(),
    ) -> list[str]:
        """New states from the result; F30 missed-turn counters. Returns who reached the
        inactivity threshold."""
        by_name = {r.name.casefold(): r for r in in_scene(records)}
        players = {r.id for r in player_run(records)}
        threshold = game.rules.inactive_threshold
        inactive: list[str] = []
        # the state and the missed turns are all a resolution changes of a character: only
        # they are written (`write_states`), not a copy of each record
        writes: list[StateWrite] = []
        for character in result.state.characters:
            record = by_name.pop(character.name.casefold(), None)
            if record is None:
                # an entity the resolution formed (a swarm or a leftover group, F20)
                await uow.characters.add(CharacterRecord(
                    id=self.deps.ids(), game_id=game.id, name=character.name,
                    kind=CharacterKind.GROUP, sheet=character, state=character,
                    created_at=now))
                continue
            missed = record.missed_turns
            if record.id in players:
                missed = (0 if record.name.casefold() in in_force
                          else missed if record.name in away else missed + 1)
                if missed >= threshold:
                    inactive.append(record.name)
            if missed != record.missed_turns or character != record.state:
                writes.append(StateWrite(record.id, character, missed, record.version + 1))
        if writes:
            await uow.characters.write_states(writes)
        return inactive

    async def _publish(
        self,
        uow: UnitOfWork,
        out: Outgoing,
        game: Game,
        turn: TurnRecord,
        state: TurnState,
        records: list[CharacterRecord],
        result: TurnResult,
        orders: Sequence[Order],
        seen: Audiences,
        resolution_id: str,
        inactive: list[str],
    ) -> tuple[str, str, int]:
        """Results to the channel and, for secret orders, to the parties and the GMs (F29); the
        NPC reveal; the inactivity notice. All in `out`, for the resolution's transaction (the
        outbox). Returns the public text, the GMs' text (every result) and how many messages.
        The reveal shows the sealed orders as this process made them when it sealed them
        (`scene.orders_of`: at call time or in this resolve), else read back from their JSON.

        The channel never sees a parties-only order, nor an AP/SP allocation that must stay
        hidden (secret orders shown publicly, every player's with `hide_all_allocations`, R2):
        `disclosure.public_result`. Each party's DM holds what concerns its characters only."""
        public = public_result(result, seen)
        hidden = set(seen.parties_only)
        secret_part = private_result(result, hidden)
        withheld = {n for a in secret_part.actions for n in party_names(a)}
        naming = self.ruleset(game).naming  # the rules the results name
        room = notices.results(turn.number, resolution_id, turn_blocks(
            public, orders, masked=seen.masked, withheld=withheld, earlier=state.pending),
            ruleset=naming)
        worded = result_words.Worded()  # the room's text and its parts word its blocks once
        text = result_words.text(room, worded)
        gm_text = text if public is result else result_words.text(notices.results(
            turn.number, resolution_id, turn_blocks(result, orders, earlier=state.pending),
            ruleset=naming))
        count = out.add("results", room, f"results:{resolution_id}", lines_of=worded)
        gms: Sequence[str] | None = None
        if secret_part.actions or secret_part.errors:
            runners: dict[str, set[str]] = {}
            for record in records:
                user = record.runner()
                if user is not None:
                    runners.setdefault(user, set()).add(record.name.casefold())
            for user, names in sorted(runners.items()):
                if any(concerns(a, names) for a in secret_part.actions) or any(
                        e.actor.casefold() in names for e in secret_part.errors):
                    party = sorted(names)
                    # the other party's allocations stay hidden (F29: "only the outcome")
                    blocks = turn_blocks(secret_part, orders, party, seen.masked - names,
                                         earlier=state.pending)
                    count += out.add(
                        "results_private",
                        notices.results(turn.number, resolution_id, blocks, party, naming),
                        f"results:{resolution_id}:{user}", dm_to=user)
            gms = await gm_ids(uow, game)
            secret = turn_blocks(secret_part, orders, earlier=state.pending)
            for gm in gms:  # the same blocks for every GM, worded once
                count += out.add("results_private", notices.results(
                    turn.number, resolution_id, secret, ruleset=naming),
                                 f"results:{resolution_id}:gm:{gm}", dm_to=gm, lines_of=worded)
        if turn.npc_commitment and turn.npc_salt is not None and turn.npc_canonical is not None:
            reveal = reveal_messages(turn.number, turn.npc_commitment, turn.npc_salt,
                                     turn.npc_canonical, state, orders_of(turn.npc_canonical))
            count += out.add("revealed", reveal, f"revealed:{resolution_id}")
        if inactive:
            for gm in gms if gms is not None else await gm_ids(uow, game):
                count += out.add("inactive",
                                 notices.inactive(inactive, game.rules.inactive_threshold),
                                 f"inactive:{resolution_id}:{gm}", dm_to=gm)
        return text, gm_text, count


async def _gm_live_turn(uow: UnitOfWork, game_id: str, actor: str) -> tuple[Game, TurnRecord]:
    """The running game and its live turn (open or closed), for a GM; one read."""
    at_play = await load_game_at_play(uow, game_id, actor)
    game = at_play.game
    check_gm(game, at_play.roles)
    require_running(game)
    return game, some_live_turn(at_play.turn)


async def _away_in(uow: UnitOfWork, turn: TurnRecord, records: Sequence[CharacterRecord],
                   in_force: Mapping[str, InForce], now: datetime) -> frozenset[str]:
    """The player characters without orders whose player was away during `turn` (`/me away`):
    a turn missed while away is not counted (F30; docs/rulings.md). Nothing is read when every
    player character has orders."""
    runners = {r.name: r.runner() for r in player_run(records)
               if r.name.casefold() not in in_force}
    if not any(runners.values()):
        return frozenset()
    paces = await uow.pace.many([u for u in runners.values() if u])
    end = turn.closed_at or now
    return frozenset(name for name, user in runners.items() if user is not None
                     and user in paces and paces[user].away_during(turn.opened_at, end))


async def _combat_over(uow: UnitOfWork, game: Game, inputs: GMInputs) -> tuple[Game, bool]:
    """The game after a resolution whose GM ended the combat (F18.2): out of combat until a GM
    sets `in_combat` again, so the next turns ask no more whether the combat ends; and whether
    this resolution ended it."""
    if not (inputs.end_combat and game.settings.in_combat):
        return game, False
    return await _set_in_combat(uow, game, False), True


async def _set_in_combat(uow: UnitOfWork, game: Game, in_combat: bool) -> Game:
    if game.settings.in_combat is in_combat:
        return game
    settings = game.settings.model_copy(update={"in_combat": in_combat})
    game = game.model_copy(update={"settings": settings, "version": game.version + 1})
    await uow.games.update(game)
    return game

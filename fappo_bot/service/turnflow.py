"""Steps of the turn cycle shared by several use cases: open a turn, refuse posts to a turn that
is not open, seal the NPC orders (SHA-256 commitment), and who is in (F7, F29, F30)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from datetime import datetime

from fappo_bot.rules import PendingHit
from fappo_bot.service import notices
from fappo_bot.service.base import Outgoing, UseCases
from fappo_bot.service.board_views import BoardView, WhoIsIn
from fappo_bot.service.disclosure import public_hits, turn_audiences
from fappo_bot.service.errors import Conflict
from fappo_bot.service.npc_first import attach_presealed
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterRecord,
    CharacterStatus,
    Game,
    PlayerPace,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.rulesets.port import Feature, Ruleset
from fappo_bot.service.scene import (
    InForce,
    canonical_orders,
    commitment,
    everyone_in,
    gm_run,
    orders_in_force,
    player_run,
)
from fappo_bot.service.timing import arm
from fappo_bot.service.users import names_of
from fappo_bot.service.views import (
    CharacterTurnState,
    DeadlineMoveView,
    TurnStatusView,
    TurnSummary,
)
from fappo_bot.service.xp_play import load_in_force


def refuse_unless_open(turn: TurnRecord) -> None:
    """Posts and edits need an open turn; the message says what to do instead."""
    if turn.status is TurnStatus.OPEN:
        return
    if turn.status is TurnStatus.CLOSED:
        raise Conflict(
            f"Time has been called on turn {turn.number} and the GM is resolving it, so nothing "
            f"of this post was recorded. Post it again when turn {turn.number + 1} opens."
        )
    raise Conflict(f"Turn {turn.number} is over, so nothing was recorded; write a new post for "
                   "the turn that is open now.")


async def open_turn(
    uow: UnitOfWork, cases: UseCases, game: Game, number: int, out: Outgoing,
    pending: tuple[PendingHit, ...] = (), hidden: Set[str] = frozenset(),
) -> TurnRecord:
    """Store a new open turn, with the game's default call time (F30 Amb-2), and announce it
    (in `out`). `hidden`: the parties-only actors of the last resolution, whose hits the
    announcement does not count (F29). An Xp game's turns run the Xp rules (`xp_play`)."""
    cases.ruleset(game)  # refused when this bot does not know the game's rules
    now = cases.now()
    deadline = now + game.settings.calltime if game.settings.calltime else None
    turn = arm(TurnRecord(id=cases.deps.ids(), game_id=game.id, number=number, opened_at=now,
                          deadline=deadline, pending=pending), game, now)
    await uow.turns.add(turn)
    # NPC orders the GM sealed for it before the last results become its sealed NPC post (F30)
    game, turn = await attach_presealed(uow, cases, game, turn)
    out.add("turn_opened", notices.turn_opened(number, deadline,
                                                    len(public_hits(pending, hidden)),
                                                    game.settings.timezone),
            f"turn-opened:{turn.id}")
    return turn


async def seal_turn(
    uow: UnitOfWork,
    cases: UseCases,
    game: Game,
    turn: TurnRecord,
    records: Sequence[CharacterRecord],
    in_force: dict[str, InForce],
    out: Outgoing,
) -> tuple[TurnRecord, int]:
    """Commit to the NPC orders in force (SHA-256 of salt + canonical orders) and publish (in
    `out`). `records` and `in_force`: the game's characters and every order in force now."""
    gm_names = {r.name.casefold() for r in gm_run(records)}
    npc_orders = [f.order for key, f in in_force.items() if key in gm_names]
    canonical = canonical_orders(npc_orders)
    salt = cases.deps.salts()
    digest = commitment(salt, canonical)
    turn = turn.model_copy(update={
        "npc_commitment": digest, "npc_salt": salt, "npc_canonical": canonical,
        "npc_sealed_at": cases.now(), "version": turn.version + 1,
    })
    await uow.turns.update(turn)
    out.add("sealed", notices.sealed(turn.number, digest), f"sealed:{turn.id}:{digest}")
    return turn, len(npc_orders)


async def turn_status(uow: UnitOfWork, ruleset: Ruleset, game: Game,
                      turn: TurnRecord, now: datetime | None = None, *,
                      moved: bool = False) -> TurnStatusView:
    """Who is in and who is missing, as the game's `ruleset` says; with `now`, the missing
    characters of players away at `now` are shown as away instead (`/me away`); with `moved`,
    how the deadline last moved by itself (for the board and `/turn status`: the other callers
    do not read it, and it costs the outbox two look-ups)."""
    status = await ruleset.status(uow, game, turn, list(await uow.characters.list(game.id)))
    if now is None:
        return status
    status = await away_shown(uow, status, now)
    change = await deadline_moved(uow, game, turn) if moved else None
    return status.model_copy(update={"deadline_moved": change}) if change else status


async def board_of(uow: UnitOfWork, ruleset: Ruleset, game: Game, turn: TurnRecord,
                   now: datetime) -> BoardView:
    """The turn board of `game`'s `turn` at `now`: what `turn_status` with `now` and `moved`
    says of who is in, away and missing, the deadline and the seal, read without the rest of
    the status (its rows, the open hits, the runners' names), which a board does not show."""
    who = await ruleset.who_is_in(uow, game, turn)
    runners = [user for _name, user in who.missing if user]
    away_users = players_away(await uow.pace.many(runners), now) if runners else set()
    return BoardView(
        game_id=game.id, name=game.name, channel_key=game.channel_key, guild_key=game.guild_key,
        has_npc_seal=ruleset.has(Feature.NPC_SEAL), turn=TurnSummary.of(turn),
        posted=who.posted, passed=who.passed,
        away=tuple(name for name, user in who.missing if user in away_users),
        missing=tuple(name for name, user in who.missing if user not in away_users),
        deadline_moved=await deadline_moved(uow, game, turn), npc_sealed=who.npc_sealed)


async def deadline_moved(uow: UnitOfWork, game: Game, turn: TurnRecord) -> DeadlineMoveView | None:
    """How the turn's deadline last moved by itself, read from the notices that told the room
    (grace, `grace.py`; an outage, `CallTimeService.outage`), so the board can say so."""
    told = [*await uow.outbox.by_key_prefix(game.id, f"grace:{turn.id}:"),
            *await uow.outbox.by_key_prefix(game.id, f"outage:{turn.id}:")]
    if not told:
        return None
    last = max(told, key=lambda m: (m.created_at, m.id))
    notice = notices.read(last.kind, last.payload)
    if isinstance(notice, notices.GraceExtended):
        return DeadlineMoveView(why="grace", by=notice.by, late=notice.late)
    if isinstance(notice, notices.DeadlineMoved):
        return DeadlineMoveView(why="outage", by=notice.by)
    return None


def missing_by_player(status: TurnStatusView) -> dict[str, list[str]]:
    """The characters still missing, by the user who runs them, in the game's order (the GMs'
    characters are nobody's to remind, and nobody's lateness)."""
    found: dict[str, list[str]] = {}
    for row in status.characters:
        if row.state == "missing" and row.runner:
            found.setdefault(row.runner, []).append(row.name)
    return found


async def away_shown(uow: UnitOfWork, status: TurnStatusView, now: datetime) -> TurnStatusView:
    """`status` with the missing characters of the players away at `now` shown as away, their
    paces read in the unit of work (`with_away`)."""
    runners = [r.runner for r in status.characters if r.state == "missing" and r.runner]
    return with_away(status, dict(await uow.pace.many(runners)), now)


def players_away(paces: Mapping[str, PlayerPace], at: datetime) -> set[str]:
    """The users of `paces` away at `at`."""
    return {user for user, pace in paces.items() if pace.away_at(at)}


def with_away(status: TurnStatusView, paces: dict[str, PlayerPace], at: datetime
              ) -> TurnStatusView:
    """`status` with the missing characters of the players away at `at` shown as away (no
    longer missing: they are not reminded, and their turn is not missed)."""
    away_users = players_away(paces, at)
    if not away_users:
        return status
    rows = tuple(CharacterTurnState(name=r.name, runner=r.runner, state="away", secret=r.secret)
                 if r.state == "missing" and r.runner in away_users else r
                 for r in status.characters)
    away = tuple(r.name for r in rows if r.state == "away")
    return status.model_copy(update={
        "characters": rows, "away": away,
        "missing": tuple(n for n in status.missing if n not in away)})


def without_orders(records: Sequence[CharacterRecord], in_force: Mapping[str, InForce]
                   ) -> list[CharacterRecord]:
    """The active player characters with no orders in force (neither posted nor passed), in
    the game's order: a FAPPO turn's missing (F30)."""
    return [r for r in player_run(records) if r.name.casefold() not in in_force]


async def missing_now(uow: UnitOfWork, records: Sequence[CharacterRecord],
                      in_force: Mapping[str, InForce], now: datetime) -> tuple[str, ...]:
    """The `missing` of a FAPPO turn's status at `now` (`turn_status` with `now`: the players
    away at `now` are not missing), without the rest of the status: what call time says."""
    missing = without_orders(records, in_force)
    runners = [user for r in missing if (user := r.runner())]
    paces = await uow.pace.many(runners) if runners else {}
    away = players_away(paces, now)
    return tuple(r.name for r in missing if r.runner() not in away)


async def fappo_status(uow: UnitOfWork, game: Game, turn: TurnRecord,
                       records: Sequence[CharacterRecord]) -> TurnStatusView:
    """A FAPPO turn's status: who posted, passed or is missing, the seal (F29, F30)."""
    in_force = await orders_in_force(uow, turn)
    rows: list[CharacterTurnState] = []
    posted: list[str] = []
    passed: list[str] = []
    missing: list[str] = []
    for record in player_run(records):
        found: InForce | None = in_force.get(record.name.casefold())
        if found is None:
            state = "missing"
            missing.append(record.name)
        elif found.passed:
            state = "passed"
            passed.append(record.name)
        else:
            state = "posted"
            posted.append(record.name)
        rows.append(CharacterTurnState(name=record.name, runner=record.runner(), state=state,
                                       secret=bool(found and found.post.secret)))
    for record in records:
        if record.status is CharacterStatus.INACTIVE:
            rows.append(CharacterTurnState(name=record.name, runner=record.runner(),
                                           state="inactive"))
    return TurnStatusView(
        game_id=game.id, turn=TurnSummary.of(turn), characters=tuple(rows),
        posted=tuple(posted), passed=tuple(passed), missing=tuple(missing),
        npc_sealed=turn.npc_commitment is not None,
        npcs_without_orders=tuple(r.name for r in gm_run(records)
                                  if r.name.casefold() not in in_force),
        everyone_in=everyone_in(turn, records, in_force),
        pending_hits=await public_pending(uow, game, turn, records),
        names=await names_of(uow, [r.runner for r in rows if r.runner is not None]),
    )


async def fappo_who_is_in(uow: UnitOfWork, game: Game, turn: TurnRecord) -> WhoIsIn:
    """A FAPPO turn's who is in (`fappo_status`'s posted, passed, missing and seal), from the
    characters' roster and the orders in force alone: no sheet, post or revision built."""
    in_force = await uow.posts.orders_in_force(turn.id)
    posted: list[str] = []
    passed: list[str] = []
    missing: list[tuple[str, str | None]] = []
    for name, status, runner in await uow.characters.roster(game.id):
        if status is not CharacterStatus.ACTIVE or runner is None:
            continue  # the GMs' characters, the inactive and the retired (`player_run`)
        order = in_force.get(name.casefold())
        if order is None:
            missing.append((name, runner))
        elif order.passed:
            passed.append(name)
        else:
            posted.append(name)
    return WhoIsIn(tuple(posted), tuple(passed), tuple(missing),
                   turn.npc_commitment is not None)


async def xp_status(uow: UnitOfWork, game: Game, turn: TurnRecord,
                    records: Sequence[CharacterRecord]) -> TurnStatusView:
    """An Xp turn's status: who has actions in force; nothing is sealed (the GM's characters
    post like anyone, and Xp has no secret orders to commit to)."""
    acted = {f.action.actor.casefold() for f in await load_in_force(uow, game, turn, records)}
    rows = [CharacterTurnState(name=r.name, runner=r.runner(),
                               state="posted" if r.name.casefold() in acted else "missing")
            for r in player_run(records)]
    return TurnStatusView(
        game_id=game.id, turn=TurnSummary.of(turn), characters=tuple(rows),
        posted=tuple(r.name for r in rows if r.state == "posted"),
        passed=(), missing=tuple(r.name for r in rows if r.state == "missing"),
        npc_sealed=False, npcs_without_orders=(), everyone_in=False, pending_hits=(),
        names=await names_of(uow, [r.runner for r in rows if r.runner is not None]),
    )


async def hidden_actors(
    uow: UnitOfWork, game: Game, turn: TurnRecord, records: Sequence[CharacterRecord]
) -> frozenset[str]:
    """The parties-only actors of the resolved `turn` (F29), case-folded."""
    return turn_audiences(game, records, await orders_in_force(uow, turn)).parties_only


async def public_pending(
    uow: UnitOfWork, game: Game, turn: TurnRecord, records: Sequence[CharacterRecord]
) -> tuple[PendingHit, ...]:
    """The hits open to Reduce in `turn` that everyone may see: not those of a secret order
    kept to its parties in the resolution that dealt them (F29)."""
    if not turn.pending:
        return ()
    previous = await uow.turns.by_number(game.id, turn.number - 1)
    if previous is None or previous.status is not TurnStatus.RESOLVED:
        return turn.pending
    return public_hits(turn.pending, await hidden_actors(uow, game, previous, records))

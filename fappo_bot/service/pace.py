"""The players' pace: how each is reminded, when they are away, their daily digest.

A player chooses, for one game or for all their games, how a reminder reaches them (`RemindBy`:
a DM, a ping in the room, or nothing); a game's `remind_by` setting is the default. At each of
the game's reminder times before a deadline (`service/timing.py`), only the players still missing
are reminded, each their own way (`queue_reminders`), and each new reminder names the one it
replaces (`replaces`: the outbox ids of the previous reminder of that turn to the same place),
which the adapter takes down as it delivers the new one. A player away (`/me away`) is shown as
away, is not reminded and does not miss a turn (F30: their character follows the game's
`absence` policy, docs/rulings.md). A player's digest is at most one DM a day, at their hour
(UTC), listing every game with an open turn where they have not posted (`send_digests`). A
player also chooses how their DMs show a turn's results (`layout`, `service/layout.py`).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from datetime import UTC, datetime, timedelta

from fappo_bot.posting.safety import safe
from fappo_bot.rules import Action, ActionKind, Order, TurnState, ap_budget
from fappo_bot.service import notices, timetext
from fappo_bot.service.base import Deps, Outgoing, UseCases
from fappo_bot.service.errors import InvalidInput, NotFound
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    AbsencePolicy,
    CharacterRecord,
    Game,
    OutboxMessage,
    PlayerPace,
    RemindBy,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.service.retry import retried
from fappo_bot.service.scene import player_run
from fappo_bot.service.turnflow import missing_by_player, turn_status
from fappo_bot.service.views import TurnStatusView


def reminder_key(turn: TurnRecord, at: datetime | None, user: str | None = None) -> str:
    """The dedupe key of the room's reminder of `turn` at `at` (or of `user`'s DM); with `at`
    None, the prefix every reminder key of the turn starts with."""
    if at is None:
        return f"reminder:{turn.id}:"
    key = f"reminder:{turn.id}:{at.isoformat()}"
    return key if user is None else f"{key}:dm:{user}"


async def queue_reminders(uow: UnitOfWork, deps: Deps, game: Game, turn: TurnRecord,
                          status: TurnStatusView, at: datetime, room: bool = True) -> None:
    """The reminders due at `at`: the room's (naming who is missing, pinging those reminded by
    a ping) and a DM to each player reminded by DM; each replacing the last reminder of the
    turn to the same place, whatever deadline it named (grace, `/turn extend` or an outage may
    have moved it since: the old reminder's time is wrong now). `room` False: the room was
    told already, so its reminder goes out only to ping the players who chose a ping."""
    by_player = missing_by_player(status)
    paces = await uow.pace.many(list(by_player))
    pings: list[str] = []
    dms: list[str] = []
    for user in by_player:
        pace = paces.get(user)
        how = pace.remind_by(game) if pace is not None else game.settings.remind_by
        (pings if how is RemindBy.PING else dms if how is RemindBy.DM else []).append(user)
    assert turn.deadline is not None
    last = await _last_reminders(uow, game, turn)
    out = Outgoing(deps, game)
    if room or pings:
        out.add("reminder", notices.Reminder(
            turn=turn.number, deadline=turn.deadline, missing=status.missing,
            pings=tuple(pings), zone=game.settings.timezone,
            replaces=_every_part(last.get(None))), reminder_key(turn, at))
    for user in dms:
        out.add("reminder_dm", notices.ReminderDm(
            game=game.name, turn=turn.number, deadline=turn.deadline,
            characters=tuple(by_player[user]), room=game.channel_key, guild=game.guild_key,
            zone=game.settings.timezone, replaces=_every_part(last.get(user))),
            reminder_key(turn, at, user), dm_to=user)
    await out.queue(uow)


async def _last_reminders(uow: UnitOfWork, game: Game,
                          turn: TurnRecord) -> dict[str | None, OutboxMessage]:
    """The last reminder of `turn` queued to each place: the room (None) and each player's DMs
    (their user id), read by the turn's reminder keys (`reminder_key`), oldest first."""
    last: dict[str | None, OutboxMessage] = {}
    for message in await uow.outbox.by_key_prefix(game.id, reminder_key(turn, at=None)):
        key = message.dedupe_key
        if "#" in key:
            continue  # a later part of a message: its first part stands for it
        _, dm, user = key.partition(":dm:")
        last[user if dm else None] = message
    return last


def _every_part(message: OutboxMessage | None) -> tuple[str, ...]:
    """The outbox ids of every part of `message`: what a reminder replacing it takes down."""
    if message is None:
        return ()
    return (message.id, *(f"{message.id}part{n:03d}" for n in range(2, message.parts + 1)))


DEFAULT_DIGEST_HOUR = 8
"""The digest's hour (UTC) when a player turns it on without one."""

async def away_now(uow: UnitOfWork, game: Game, user: str, at: datetime) -> bool:
    """Whether `user` is away at `at` by their own `/me away` (a `grace.AwayCheck`): an away
    player spends no grace and holds no deadline back."""
    pace = await uow.pace.get(user)
    return pace is not None and pace.away_at(at)


async def held_for_gm(uow: UnitOfWork, game: Game, records: Sequence[CharacterRecord],
                      now: datetime) -> list[CharacterRecord]:
    """Under the game's `absence: gm`, the characters of the players away at `now`: a GM gives
    their orders while they are away (F30's "assume their character as an NPC", for the
    absence only: the player gets it back when they are back, with no GM command)."""
    if game.settings.absence is not AbsencePolicy.GM:
        return []
    players = [r for r in player_run(records) if r.runner()]
    paces = await uow.pace.many([r.runner() or "" for r in players])
    return [r for r in players if (p := paces.get(r.runner() or "")) and p.away_at(now)]


def absent_defense(state: TurnState, away: Set[str], given: Set[str]) -> list[Order]:
    """Under the game's `absence: defend`, an order for each character of an away player that
    has none (`given`: the case-folded names with orders): every AP it has this turn on defense
    (F5, F10), instead of the base defense alone (F30 Amb-3)."""
    out: list[Order] = []
    for character in state.characters:
        if character.name not in away or character.name.casefold() in given:
            continue
        ap = ap_budget(character, state.config)
        if ap > 0:
            out.append(Order(actor=character.name,
                             actions=(Action(kind=ActionKind.DEFEND, ap=ap),)))
    return out


def absence_time(text: str, now: datetime, *, end: bool = False,
                 start: datetime | None = None) -> datetime:
    """An absence's start or `end` as a player writes it, in UTC: a date (`2026-12-05`; an end:
    through that day, to the next midnight), a time as every command takes one
    (`timetext.parse_time`: `2026-12-05 18:00`, `Fri 18:00`, `tomorrow 9:00`), or a duration
    (`timetext.parse_duration`: `3d`, `12h`, `2d 6h`): from now for a start, from the start
    for an end. A player's absence spans their games, so its times are UTC."""
    words = " ".join(text.split())
    try:
        moment = datetime.strptime(words, "%Y-%m-%d").replace(tzinfo=UTC)
        return moment + timedelta(days=1) if end else moment
    except ValueError:
        pass
    try:
        return timetext.parse_time(words, now)
    except ValueError:
        pass
    try:
        after = timetext.parse_duration(words)
    except ValueError:
        raise InvalidInput(f'"{safe(words[:40])}" is no date, time or duration: write e.g. '
                           "2026-12-05, 2026-12-05 18:00 (UTC), Fri 18:00 or 3d.") from None
    return (start or now) + after if end else now + after


MAX_ABSENCE = timedelta(days=366)
"""The longest absence taken (longer is surely a typing error: a year and a day)."""


class PaceService(UseCases):
    """A player's own choices: reminders, absences, the digest."""

    async def pace_of(self, user_id: str) -> PlayerPace:
        async with self.uow() as uow:
            return await uow.pace.get(user_id) or PlayerPace(user_id=user_id,
                                                            updated_at=self.now())

    @retried
    async def remind(self, user_id: str, how: RemindBy, game_id: str | None = None) -> str:
        """How the player is reminded in one game (a member's), or in all their games."""
        async with self.uow() as uow:
            name = "all your games"
            if game_id is not None:
                game = await uow.games.get(game_id)
                if game is None or not any(m.user_id == user_id
                                           for m in await uow.members.list(game_id)):
                    raise NotFound("You are in no such game.")
                name = f'"{safe(game.name)}"'
            pace = await self._pace(uow, user_id)
            remind = dict(pace.remind)
            if game_id is None:
                remind = {PlayerPace.ALL_GAMES: how}  # all games: one choice, the others go
            else:
                remind[game_id] = how
            await self._put(uow, pace.model_copy(update={"remind": remind}))
            await uow.commit()
        said = {RemindBy.DM: "by direct message", RemindBy.PING: "by a ping in the room",
                RemindBy.NONE: "not at all"}[how]
        return f"You will be reminded {said} in {name}."

    @retried
    async def layout(self, user_id: str, layout: ResultsLayout | None) -> str:
        """How the player's DMs show a turn's results (None: as each game's room does)."""
        async with self.uow() as uow:
            pace = await self._pace(uow, user_id)
            await self._put(uow, pace.model_copy(update={"layout": layout}))
            await uow.commit()
        if layout is None:
            return "Your results by direct message come as each game's room shows them."
        said = {ResultsLayout.EMBEDS: "as embeds, a section each",
                ResultsLayout.TEXT: "as plain text with headings"}[layout]
        return f"Your results by direct message come {said}, in all your games."

    @retried
    async def away(self, user_id: str, start: datetime | None, end: datetime | None) -> str:
        """The player is away from `start` (None: now) to `end` (None: until they are back)."""
        now = self.now()
        start = start or now
        if end is not None and (end <= start or end <= now):
            raise InvalidInput("The end of an absence must come after its start and after "
                               "now; e.g. 2026-12-05 or 3d.")
        if (end is not None and end - now > MAX_ABSENCE) or start - now > MAX_ABSENCE:
            raise InvalidInput("An absence is at most a year away and a year long.")
        async with self.uow() as uow:
            pace = await self._pace(uow, user_id)
            await self._put(uow, pace.model_copy(update={"away_from": start, "away_to": end}))
            await uow.commit()
        until = f"until {_when(end)}" if end else "until you are back"
        return f"You are away from {_when(start)} {until}."

    @retried
    async def back(self, user_id: str) -> str:
        async with self.uow() as uow:
            pace = await self._pace(uow, user_id)
            if pace.away_from is None:
                return "You were not away."
            await self._put(uow, pace.model_copy(update={"away_from": None, "away_to": None}))
            await uow.commit()
        return "Welcome back: you are reminded and shown as before."

    @retried
    async def digest(self, user_id: str, on: bool, hour: int | None = None) -> str:
        """The player's daily digest on (at `hour` UTC, 0-23) or off."""
        if hour is not None and not 0 <= hour <= 23:
            raise InvalidInput(f"The digest's hour is 0 to 23 (UTC), not {hour}.")
        async with self.uow() as uow:
            pace = await self._pace(uow, user_id)
            chosen = hour if hour is not None else pace.digest_hour
            pace = pace.model_copy(update={
                "digest_hour": (DEFAULT_DIGEST_HOUR if chosen is None else chosen) if on
                else None})
            await self._put(uow, pace)
            await uow.commit()
        if pace.digest_hour is None:
            return "Your daily digest is off."
        return f"Your daily digest comes at {pace.digest_hour:02d}:00 UTC."

    @retried
    async def send_digests(self, now: datetime | None = None) -> int:
        """Queue the digests due at `now`: each player whose hour it is (or is past) and who
        had none today, with at least one game waiting for them. Returns how many."""
        now = now or self.now()
        sent = 0
        async with self.uow() as uow:
            for pace in await uow.pace.with_digest(now.hour):
                if (pace.digest_hour is None or now.hour < pace.digest_hour
                        or pace.digest_sent_on == now.date()):
                    continue
                games = await _waiting_for(uow, self, pace.user_id, now)
                await uow.pace.put(pace.model_copy(update={"digest_sent_on": now.date(),
                                                           "updated_at": now}))
                if not games:
                    continue
                digest = notices.Digest(games=tuple(games))
                first = await uow.games.get(games[0].game_id)
                assert first is not None
                out = Outgoing(self.deps, first)
                out.add("digest", digest, f"digest:{pace.user_id}:{now.date().isoformat()}",
                        dm_to=pace.user_id)
                await out.queue(uow)
                sent += 1
            await uow.commit()
        return sent

    async def _pace(self, uow: UnitOfWork, user_id: str) -> PlayerPace:
        return await uow.pace.get(user_id) or PlayerPace(user_id=user_id, updated_at=self.now())

    async def _put(self, uow: UnitOfWork, pace: PlayerPace) -> None:
        await uow.pace.put(pace.model_copy(update={"updated_at": self.now()}))


async def _waiting_for(uow: UnitOfWork, cases: UseCases, user_id: str, now: datetime
                       ) -> list[notices.DigestGame]:
    """The player's games with an open turn where a character of theirs is still missing."""
    found: list[notices.DigestGame] = []
    for membership in await uow.members.games_of(user_id):
        game = await uow.games.get(membership.game_id)
        if game is None:
            continue
        turn = await uow.turns.latest(game.id)
        if turn is None or turn.status is not TurnStatus.OPEN:
            continue
        status = await turn_status(uow, cases.ruleset(game), game, turn, now)
        names = missing_by_player(status).get(user_id)
        if names and not any(g.game_id == game.id for g in found):
            found.append(notices.DigestGame(
                game_id=game.id, game=game.name, turn=turn.number, deadline=turn.deadline,
                characters=tuple(names), room=game.channel_key, guild=game.guild_key))
    return found


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at else "now"

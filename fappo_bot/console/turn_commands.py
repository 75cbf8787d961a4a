"""Table commands for turns: posts and DMs, /open, /npc, /pass, /status, /calltime, /extend,
/pause, /resume, /review, /resolve (with its questions), /undo, /edit, /delete. Each calls the
use case of its slash command; the replies and results are the service's texts."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from fappo_bot.console.review import Confirmation, ReviewSession
from fappo_bot.console.seats import Kind, Shown, as_typed, only, seat_user_id
from fappo_bot.console.table import LocalTable, TableError, command_parser
from fappo_bot.console.transcript import Step
from fappo_bot.posting.render import render_problems
from fappo_bot.service import notices
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.records import TurnStatus
from fappo_bot.service.timetext import local_text, parse_duration, parse_time
from fappo_bot.service.views import PostOutcome, PostReply
from fappo_bot.spelling import nearest
from fappo_bot.words import plural


async def _channel(table: LocalTable) -> str:
    view = await table.services.games.show(table.need_game())
    return str(view.channel_key)


def _reply(
    table: LocalTable, number: int, reply: PostReply, audience: frozenset[str] | None
) -> list[Shown]:
    """The bot's answer to post #N (none to table talk)."""
    if reply.outcome is PostOutcome.TABLE_TALK:
        return []
    kind = Kind.REPLY if reply.ok else Kind.ERROR
    title = f"bot · reply to #{number}"
    if reply.ok and reply.revision > 1:
        title += f" (edit {reply.revision - 1})"
    text = render_problems(reply.problems) if reply.problems else reply.reply
    return [Shown(kind, title, text, audience)]


async def post(table: LocalTable, text: str, secret: bool) -> list[Shown]:
    """A post in the channel (everyone sees it and the bot's reply), or a DM to the bot with
    secret orders (only its seat sees it and the reply, F29)."""
    game_id = table.need_game()
    channel = f"dm:{table.user}" if secret else await _channel(table)
    number = len(table.messages) + 1
    message_key = f"m{number}-{uuid.uuid4().hex[:8]}"
    table.messages[number] = (channel, message_key, table.seat, secret)
    audience = only(table.seat) if secret else None
    where = "DM to the bot" if secret else "#table"
    shown = [Shown(Kind.POST, f"#{number} · {table.book.label(table.seat)} · {where}", text, audience)]
    reply = await table.services.turns.post(
        game_id, table.user, channel_key=channel, message_key=message_key, text=text, secret=secret
    )
    shown.extend(_reply(table, number, reply, audience))
    if reply.outcome is PostOutcome.TABLE_TALK:
        shown.extend(_stray_command(table, text))
    return shown


#: words a new user types at the prompt meaning a command of the terminal, not table talk
_TERMINAL_WORDS = frozenset({"exit", "clear", "cls", "quit", "help", "?"})


def _stray_command(table: LocalTable, text: str) -> list[Shown]:
    """A word to the seat when its table talk is one word that names a command (`clear`,
    `status`, `quit`): it went to the channel as typed, since commands start with "/"."""
    word = text.strip().casefold()
    if word not in _TERMINAL_WORDS and word not in table.handlers.commands:
        return []
    command = f"/{word}" if word in table.handlers.commands else "/help"
    return [Shown(Kind.INFO, "hint",
                  f'"{text.strip()}" went to the channel as table talk (no orders). Commands '
                  f'start with "/": {command}' + ("" if command == "/help" else " (/help lists "
                                                                                "them)") + ".",
                  only(table.seat))]


def _message(table: LocalTable, step: Step) -> tuple[int, tuple[str, str, str, bool]]:
    if not step.args or not step.args[0].lstrip("#").isdigit():
        raise TableError(f"/{step.name} needs the number of a message, e.g. /{step.name} 3.")
    number = int(step.args[0].lstrip("#"))
    found = table.messages.get(number)
    if found is None:
        raise TableError(f"There is no message #{number} at this table (this session).")
    if number in table.deleted:
        raise TableError(f"Message #{number} was already deleted." if step.name == "delete"
                         else f"Message #{number} was deleted: write a new post instead.")
    return number, found


async def edit(table: LocalTable, step: Step) -> list[Shown]:
    """/edit N (new text on the next lines): edit your message #N; the reply follows it."""
    number, (channel, key, seat, secret) = _message(table, step)
    if not step.text.strip():
        raise TableError("/edit N takes the new text on the next lines.")
    audience = only(table.seat) if secret else None
    reply = await table.services.turns.edit(
        table.need_game(), table.user, channel_key=channel, message_key=key, text=step.text,
        secret=secret, written_by=seat_user_id(seat),
    )
    return [
        Shown(Kind.POST, f"#{number} · {table.book.label(table.seat)} · edited", step.text, audience),
        *_reply(table, number, reply, audience),
    ]


async def delete(table: LocalTable, step: Step) -> list[Shown]:
    """/delete N: delete message #N; its orders are withdrawn."""
    number, (channel, key, seat, secret) = _message(table, step)
    if seat != table.seat and table.user not in table.gm_seats:
        # on Discord only the author (or a moderator) can delete a message; the service checks
        # a post, the table every message (a refused post is a message too)
        raise TableError(f"Message #{number} is {table.book.label(seat)}'s: only its author or "
                         "a GM can delete it.")
    done = await table.services.turns.delete(
        table.need_game(), table.user, channel_key=channel, message_key=key
    )
    table.deleted.add(number)
    body = f"Message #{number} was deleted" + (
        "; its orders are withdrawn." if done else " (it held no orders)."
    )
    return [Shown(Kind.NOTICE, "deleted", body, only(table.seat) if secret else None)]


async def open_turn(table: LocalTable, step: Step) -> list[Shown]:
    """/open: the GM opens the next turn (announced through the outbox)."""
    await table.services.turns.open(table.need_game(), table.user)
    return []


async def npc(table: LocalTable, step: Step) -> list[Shown]:
    """/npc (orders on the next lines, one **Name** block per NPC): the GM's NPC orders, shown
    to the GMs only and sealed at once (their SHA-256 commitment is published)."""
    if not step.text.strip():
        raise TableError("/npc takes the NPC orders on the next lines (**Name** then its lines).")
    game_id = table.need_game()
    number = len(table.messages) + 1
    channel = f"dm:{table.user}"
    message_key = f"npc{number}-{uuid.uuid4().hex[:8]}"
    if "--next" in step.args:
        return await _npc_next(table, step, channel, message_key)
    shown = [Shown(Kind.POST, f"#{number} · {table.seat} · NPC orders", step.text, table.gm_seats)]
    reply = await table.services.turns.npc_orders(
        game_id, table.user, channel_key=channel, message_key=message_key, text=step.text,
        seal="--no-seal" not in step.args,
    )
    table.messages[number] = (channel, message_key, table.seat, True)  # not when refused
    shown.extend(_reply(table, number, reply, table.gm_seats))
    return shown


async def _npc_next(table: LocalTable, step: Step, channel: str, key: str) -> list[Shown]:
    """/npc --next: the next turn's NPC orders, sealed now, before this turn's results (F30);
    they become the next turn's NPC post when it opens."""
    sealed = await table.services.npc_first.seal_next(
        table.need_game(), table.user, channel_key=channel, message_key=key, text=step.text)
    return [Shown(Kind.POST, f"{table.seat} · NPC orders of turn {sealed.turn}", step.text,
                  table.gm_seats),
            Shown(Kind.REPLY, "bot · sealed", f"Turn {sealed.turn}'s NPC orders are sealed "
                  f"before the results of turn {sealed.turn - 1} ({plural(sealed.npc_orders, 'order')});"
                  " they are its NPC orders when it opens.", table.gm_seats)]


#: the end of a review: the seal the GM may give before the results (F30)
SEAL_NEXT = ("The next turn's NPC orders may be sealed now, before the results go out: "
             "/npc --next with the orders on the next lines, then /resolve.")
SEAL_FIRST = f"No more questions. {SEAL_NEXT}"


async def pass_turn(table: LocalTable, step: Step) -> list[Shown]:
    """/pass [NAME]: no action this turn for your character (or the one named)."""
    name = " ".join(step.args) or None
    reply = await table.services.turns.pass_turn(table.need_game(), table.user, name)
    names = ", ".join(reply.characters) or table.seat
    return [Shown(Kind.REPLY, "bot · pass", reply.reply or f"{names}: passes this turn (no action).")]


async def status(table: LocalTable, step: Step) -> list[Shown]:
    """/status: who has posted, passed or is missing; the seal; the deadline (F29, F30)."""
    view = await table.services.turns.status(table.need_game())
    turn = view.turn
    lines = [f"Turn {turn.number}: {turn.status.value}" + (" (paused)" if turn.paused else "")]
    if turn.deadline is not None:
        lines.append(f"Deadline: {local_text(turn.deadline, await game_zone(table))}")
    for character in view.characters:
        secret = " (by DM)" if character.secret else ""
        lines.append(f"  {character.name:<12} {character.state}{secret}")
    lines.append("NPC orders: " + ("sealed " + (turn.npc_commitment or "") if view.npc_sealed
                                   else "not sealed yet"))
    if view.pending_hits:
        lines.append("Hits open to Reduce: " + ", ".join(
            f"{h.target} ({h.levels} from {h.attacker or h.source})" for h in view.pending_hits))
    if view.everyone_in:
        lines.append("Everyone is in.")
    shown = [Shown(Kind.INFO, "status", "\n".join(lines))]
    if view.npcs_without_orders and not view.npc_sealed:
        shown.append(Shown(Kind.INFO, "status (GM)",
                           "No NPC orders yet for " + ", ".join(view.npcs_without_orders)
                           + " (/npc).", table.gm_seats))
    return shown


def duration(step: Step, words: list[str] | tuple[str, ...]) -> timedelta:
    """The duration a table command was given (`service/timetext.py`: 48h, 2d 6h, 90m, 1w; a
    bare number is minutes); a TableError saying how to write one otherwise."""
    try:
        return parse_duration(" ".join(words))
    except ValueError as exc:
        raise TableError(f"/{step.name}: {exc}.") from None


async def game_zone(table: LocalTable) -> str:
    """The game's time zone (an IANA name), in which the table reads and shows times."""
    return (await table.services.games.show(table.need_game())).timezone


async def calltime(table: LocalTable, step: Step) -> list[Shown]:
    """/calltime: call time now (posts are refused from here on); /calltime [in] DURATION or
    /calltime at TIME: a deadline (a time is local to the game's zone)."""
    game_id = table.need_game()
    if step.args:
        zone = await game_zone(table)
        word, rest = step.args[0].casefold(), list(step.args[1:])
        if word == "at":
            try:
                at = parse_time(" ".join(rest), table.services.deps.clock.now(), zone)
            except ValueError as exc:
                raise TableError(f"/calltime at: {exc}.") from None
            summary = await table.services.calltime.set_deadline(game_id, table.user, at=at)
        else:
            after = duration(step, rest if word == "in" else step.args)
            if after <= timedelta(0):
                raise TableError("/calltime DURATION sets a deadline that long from now, e.g. "
                                 "/calltime 48h or /calltime at Fri 20:00; /calltime alone "
                                 "calls time now.")
            summary = await table.services.calltime.set_deadline(game_id, table.user,
                                                                 after=after)
        assert summary.deadline is not None
        return [Shown(Kind.NOTICE, "call time",
                      f"Turn {summary.number}: time will be called at "
                      f"{local_text(summary.deadline, zone)}.")]

    async def call() -> list[Shown]:
        await table.services.calltime.close(game_id, table.user)
        return []

    return await _unless_npcs_idle(table, game_id, "calling time", "/calltime", call)


async def extend(table: LocalTable, step: Step) -> list[Shown]:
    """/extend DURATION: push the deadline back."""
    if not step.args:
        raise TableError("/extend takes a duration, e.g. /extend 12h (a bare number is "
                         "minutes).")
    summary = await table.services.calltime.extend(
        table.need_game(), table.user, duration(step, step.args)
    )
    assert summary.deadline is not None
    return [Shown(Kind.NOTICE, "call time",
                  f"Turn {summary.number}: the deadline is now "
                  f"{local_text(summary.deadline, await game_zone(table))}.")]


async def pause(table: LocalTable, step: Step) -> list[Shown]:
    """/pause, /resume: stop or restart the turn's clock."""
    calls = table.services.calltime
    action = calls.pause if step.name == "pause" else calls.resume
    summary = await action(table.need_game(), table.user)
    state = "paused" if summary.paused else "running"
    return [Shown(Kind.NOTICE, "call time", f"Turn {summary.number}: the clock is {state}.")]


async def review(table: LocalTable, step: Step) -> list[Shown]:
    """/review: every review question and its answer; /review NAME...: ask the questions about
    those characters' orders, the optional ones too."""
    game_id = table.need_game()
    view = await table.services.review.review(game_id, table.user)
    if step.args:
        names = {as_typed(c.name): c.name for c in await table.services.characters.list(game_id)}
        for wanted in step.args:
            if as_typed(wanted) not in names:
                near = nearest(as_typed(wanted), names, 1)
                hint = f' Did you mean "{names[near[0]]}"?' if near else ""
                raise TableError(f'"{wanted}" is nobody in this game.{hint} /review NAME takes '
                                 "characters' names: " + ", ".join(names.values()) + ".")
        session = ReviewSession(game_id, then_resolve=False, optional=True,
                                actors=frozenset(as_typed(a) for a in step.args))
        shown = await _ask(table, session, view.items)
        if table.review is None:  # nothing to ask: say whose orders had no questions
            asked = ", ".join(names[as_typed(a)] for a in step.args)
            return [Shown(Kind.QUESTION, "review",
                          f"No questions left about the orders of {asked} this turn (/review "
                          "lists every question and answer).", table.gm_seats)]
        return shown
    lines = [f"Review of turn {view.turn}:"]
    for item in view.items:
        mark = "✓" if item.answered else ("!" if item.required else "·")
        answer = f" -> {answer_text(item.answer)}" if item.answered else (
            f" (default: {item.default})" if not item.required and item.default else "")
        lines.append(f" {mark} {item.question}{answer}")
    if not view.items:
        lines.append("  nothing to decide")
    if not any(i.required and not i.answered for i in view.items):
        lines.append(SEAL_NEXT)
    return [Shown(Kind.QUESTION, "review", "\n".join(lines), table.gm_seats)]


async def resolve(table: LocalTable, step: Step) -> list[Shown]:
    """/resolve [N] [--all]: ask the review questions still open (with --all the optional ones
    too), then resolve the turn (F7); the results come through the outbox.

    The resolve names its turn: N, or the live turn as this command reads it. A turn nobody has
    posted in is resolved only when named (`/resolve 2`): a /resolve typed at a second table
    while the first resolved turn 1 would otherwise resolve the empty turn 2 the first opened."""
    parser = command_parser("resolve")
    parser.add_argument("turn", nargs="?", type=int)
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args(list(step.args))
    game_id = table.need_game()
    session = ReviewSession(game_id, then_resolve=True, optional=args.all, turn=args.turn)
    if session.turn is None and table.user in table.gm_seats:
        status = await table.services.turns.status(game_id)
        number = status.turn.number
        if not status.posted and not status.passed:
            raise TableError(f"Nobody has posted in turn {number} yet; type /resolve {number} "
                             "to resolve it anyway.")
        session.turn = number

    async def go_on() -> list[Shown]:
        fresh = await table.services.review.review(game_id, table.user)
        if session.turn is None:
            session.turn = fresh.turn
        return await _ask(table, session, fresh.items)

    return await _unless_npcs_idle(table, game_id, "resolving", "/resolve", go_on)


async def _unless_npcs_idle(table: LocalTable, game_id: str, doing: str, again: str,
                            go_on: Callable[[], Awaitable[list[Shown]]]) -> list[Shown]:
    """`go_on()`, unless NPCs have no orders and nothing is sealed yet: calling time and
    resolving seal the NPC orders as they are, with no way back, so the GM is asked first."""
    if table.user not in table.gm_seats:
        return await go_on()  # the use case refuses a player
    status = await table.services.turns.status(game_id)
    if not status.npcs_to_confirm:
        return await go_on()
    confirm = Confirmation(
        f"No NPC orders this turn for {', '.join(status.npcs_to_confirm)}: {doing} now "
        f"seals them as doing nothing. Go on anyway? [yes / no] (no: give them with /npc, "
        f"then {again})",
        go_on,
        f"Not done: give the NPC orders with /npc, then {again}.",
    )
    table.review = confirm
    return [Shown(Kind.QUESTION, "review question", confirm.question(), table.gm_seats)]


def answer_text(value: Any) -> str:
    """A recorded answer as the GM gave it: yes/no rather than True/False, names listed."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


async def _ask(table: LocalTable, session: ReviewSession, items: Any) -> list[Shown]:
    item = session.next_item(items)
    if item is not None:
        table.review = session
        return [Shown(Kind.QUESTION, "review question", session.question(), table.gm_seats)]
    table.review = None
    if not session.then_resolve:
        return [Shown(Kind.QUESTION, "review", SEAL_FIRST, table.gm_seats)]
    if session.turn is None:  # a review that ends in a resolve read its turn first
        raise TableError("Type /resolve again: the turn to resolve was not read.")
    try:
        done = await table.services.resolution.resolve(session.game_id, table.user, session.turn)
    except Conflict as exc:
        if "npc_seal_first" in str(exc):  # the service names no command: the table's is /npc
            raise TableError(f"{exc} At this table: /npc --next with the orders on the next "
                             "lines.") from exc
        raise
    notes = []
    if getattr(done, "combat_ended", False):  # a FAPPO resolution's (F18.2)
        notes.append(Shown(Kind.NOTICE, "combat over", "The combat is over: the game is out of "
                           "combat until a GM sets it again (/set in_combat on).",
                           table.gm_seats))
    if done.inactive_candidates:
        notes.append(Shown(Kind.NOTICE, "inactive players",
                           "Missed too many turns (F30): " + ", ".join(done.inactive_candidates),
                           table.gm_seats))
    return notes


async def answer(table: LocalTable, text: str) -> list[Shown]:
    """The GM's answer to the current review question."""
    session = table.review
    if session is None:
        raise TableError("There is no question to answer (answers follow /resolve or /review).")
    if isinstance(session, Confirmation):
        word = text.strip().casefold()
        if word not in {"yes", "y", "no", "n"}:
            return [Shown(Kind.ERROR, "answer refused",
                          f"Answer yes or no.\n{session.question()}", table.gm_seats)]
        table.review = None
        if word.startswith("y"):
            return await session.then()
        return [Shown(Kind.QUESTION, "review", session.otherwise, table.gm_seats)]
    item = session.current
    if not text.strip():
        if item.required:
            raise TableError(f"This question needs an answer: {session.question()}")
        session.skipped.add(item.key)
        view = await table.services.review.review(session.game_id, table.user)
        return await _ask(table, session, view.items)
    try:
        view = await table.services.review.answer(session.game_id, table.user, {item.key: text})
    except InvalidInput as exc:
        return [Shown(Kind.ERROR, "answer refused", f"{exc}\n{session.question()}", table.gm_seats)]
    return await _ask(table, session, view.items)


async def undo(table: LocalTable, step: Step) -> list[Shown]:
    """/undo: roll back the last resolution exactly (recorded in the audit log). When the turn
    that resolution opened already has orders, the undo withdraws them with that turn: the GM
    is asked first."""
    game_id = table.need_game()

    async def go_on() -> list[Shown]:
        await table.services.resolution.undo(game_id, table.user)
        return []

    if table.user not in table.gm_seats:
        return await go_on()  # the use case refuses a player
    status = await table.services.turns.status(game_id)
    turn = status.turn
    given = [*status.posted, *status.passed]
    if turn.status is not TurnStatus.OPEN or turn.number < 2 or not (given or status.npc_sealed):
        return await go_on()
    gone = ", ".join([*given, *(["the sealed NPC orders"] if status.npc_sealed else [])])
    confirm = Confirmation(
        f"Turn {turn.number} already has orders ({gone}): undoing turn {turn.number - 1} "
        f"withdraws them with turn {turn.number}, and they are given again when it opens again. "
        "Go on anyway? [yes / no]",
        go_on,
        f"Not done: turn {turn.number - 1}'s resolution stands.",
    )
    table.review = confirm
    return [Shown(Kind.QUESTION, "review question", confirm.question(), table.gm_seats)]


async def reveal(table: LocalTable, step: Step) -> list[Shown]:
    """/reveal N: the canonical JSON of turn N's sealed NPC orders, exactly as hashed, to the
    seat that asks (F29: anyone may check the commitment published before the turn)."""
    if len(step.args) != 1 or not step.args[0].isdigit():
        raise TableError("/reveal takes the number of a resolved turn: /reveal 2.")
    view = await table.services.turns.reveal(table.need_game(), int(step.args[0]))
    check = "it matches" if view.verified else "it does NOT match"
    head = (f"Turn {view.turn}: commitment {view.commitment}, salt {view.salt}; "
            f'sha256(salt + "\\n" + JSON): {check}.')
    blocks = notices.canonical_blocks(view.turn, view.canonical)
    return [Shown(Kind.INFO, "reveal", "\n".join([head, *blocks]), only(table.seat))]

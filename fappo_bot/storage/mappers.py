"""Rows to and from the service's records. Rules values are JSON documents validated by pydantic
on load (`fappo_bot.storage.values`); a record read back equals the record written."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import TypeAdapter

from fappo_bot.rules import (
    Character,
    GMInputs,
    Order,
    PendingHit,
    RulesConfig,
    TurnResult,
    TurnState,
)
from fappo_bot.service.ports import StateWrite
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    Game,
    GameSettings,
    LedgerEntry,
    Membership,
    OutboxMessage,
    Post,
    PostRevision,
    Resolution,
    TurnRecord,
    UserName,
)
from fappo_bot.sheets.xp import XpSheet
from fappo_bot.storage import resolution_doc, values, xp_rows
from fappo_bot.storage.tables import (
    AuditRow,
    CharacterRow,
    GameRow,
    LedgerRow,
    MembershipRow,
    OrderRow,
    OutboxRow,
    PostRevisionRow,
    PostRow,
    ResolutionRow,
    TurnRow,
    UserRow,
)
from fappo_bot.storage.values import (
    RawJSON,
    doc,
    docs,
    from_us,
    opt_utc,
    parse,
    parse_as,
    to_us,
    utc,
)

# the rules' values are dataclasses: their JSON is written and read through these adapters
_CHARACTER: TypeAdapter[Character] = TypeAdapter(Character)
_GM: TypeAdapter[GMInputs] = TypeAdapter(GMInputs)
ORDER: TypeAdapter[Order] = TypeAdapter(Order)
_STATE: TypeAdapter[TurnState] = resolution_doc.STATE
_RESULT: TypeAdapter[TurnResult] = resolution_doc.RESULT
_RULES: TypeAdapter[RulesConfig] = TypeAdapter(RulesConfig)
_HITS: TypeAdapter[tuple[PendingHit, ...]] = TypeAdapter(tuple[PendingHit, ...])
_ORDERS: TypeAdapter[tuple[Order, ...]] = TypeAdapter(tuple[Order, ...])
_RECORDS: TypeAdapter[tuple[CharacterRecord, ...]] = resolution_doc.RECORDS
_STRINGS: TypeAdapter[tuple[str, ...]] = TypeAdapter(tuple[str, ...])
_ANY_MAP: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])


R = TypeVar("R")


def _remembered(build: Callable[[Any], R]) -> Callable[[Any], R]:
    """`build(row)`, remembered by the row's values (a `repositories.Kept` row: its columns,
    in the table's order, are its attributes) in the open unit of work's `values.Remembered`."""

    def remembered(row: Any) -> R:
        cache = values.current.get()
        if cache is None:
            return build(row)
        key = (build, *vars(row).values())  # looked up here: a hit makes no closure
        found: R | None = cache.built.get(key)
        return found if found is not None else cache.keep(cache.built, key, build(row))

    remembered.__doc__ = build.__doc__
    return remembered


# ---- games --------------------------------------------------------------------------------------
def game_values(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "channel_key": game.channel_key,
        "guild_key": game.guild_key,
        "name": game.name,
        "ruleset": game.ruleset,
        "rules": docs(_RULES, game.rules, whole=True),
        "status": game.status.value,
        "settings": doc(game.settings, whole=True),
        "created_at": utc(game.created_at),
        "version": game.version,
    }


@_remembered
def game_record(row: GameRow) -> Game:
    return Game.model_validate(
        {
            "id": row.id,
            "channel_key": row.channel_key,
            "guild_key": row.guild_key,
            "name": row.name,
            "ruleset": row.ruleset,
            "rules": parse_as(_RULES, row.rules),
            "status": row.status,
            "settings": parse(GameSettings, row.settings),
            "created_at": utc(row.created_at),
            "version": row.version,
        }
    )


def membership_values(membership: Membership) -> dict[str, Any]:
    return {"game_id": membership.game_id, "user_id": membership.user_id,
            "role": membership.role.value}


def membership_record(row: MembershipRow) -> Membership:
    return Membership.model_validate(
        {"game_id": row.game_id, "user_id": row.user_id, "role": row.role}
    )


# ---- characters ---------------------------------------------------------------------------------
def character_values(character: CharacterRecord) -> dict[str, Any]:
    return {
        "id": character.id,
        "game_id": character.game_id,
        "name": character.name,
        "name_key": character.name.casefold(),
        "owner": character.owner,
        "kind": character.kind.value,
        # an Xp character has no FAPPO sheet: its row keeps the empty one rows always had
        # (the columns take no NULL), dropped again as it is read (`CharacterRecord`)
        "sheet": docs(_CHARACTER, character.sheet or Character(name=character.name)),
        "state": docs(_CHARACTER, character.state or Character(name=character.name)),
        "xp": None if character.xp is None else doc(character.xp),
        "status": character.status.value,
        "missed_turns": character.missed_turns,
        "controller": character.controller,
        "gm_controlled": character.gm_controlled,
        "created_at": utc(character.created_at),
        "version": character.version,
    }


def state_values(write: StateWrite) -> dict[str, Any]:
    return {"id": write.id, "state": docs(_CHARACTER, write.state),
            "missed_turns": write.missed_turns, "version": write.version}


@_remembered
def character_record(row: CharacterRow) -> CharacterRecord:
    return CharacterRecord.model_validate({
        "id": row.id,
        "game_id": row.game_id,
        "name": row.name,
        "owner": row.owner,
        "kind": row.kind,
        "sheet": parse_as(_CHARACTER, row.sheet),
        "state": parse_as(_CHARACTER, row.state),
        "xp": None if row.xp in (None, "null") else parse(XpSheet, row.xp),
        "status": row.status,
        "missed_turns": row.missed_turns,
        "controller": row.controller,
        "gm_controlled": row.gm_controlled,
        "created_at": utc(row.created_at),
        "version": row.version,
    })


# ---- turns --------------------------------------------------------------------------------------
def turn_values(turn: TurnRecord) -> dict[str, Any]:
    return {
        "id": turn.id,
        "game_id": turn.game_id,
        "number": turn.number,
        "status": turn.status.value,
        "opened_at": utc(turn.opened_at),
        "closed_at": opt_utc(turn.closed_at),
        "deadline": opt_utc(turn.deadline),
        "paused": turn.paused,
        "paused_remaining_us": to_us(turn.paused_remaining),
        "reminders_sent": turn.reminders_sent,
        "alarm_at": opt_utc(turn.alarm_at),
        "pending": docs(_HITS, turn.pending),
        "npc_commitment": turn.npc_commitment,
        "npc_sealed_at": opt_utc(turn.npc_sealed_at),
        "npc_salt": turn.npc_salt,
        "npc_canonical": turn.npc_canonical,
        "npc_revealed": turn.npc_revealed,
        "gm_inputs": docs(_GM, turn.gm_inputs),
        "gm_answers": docs(_ANY_MAP, turn.gm_answers),
        "version": turn.version,
    }


@_remembered
def turn_record(row: TurnRow) -> TurnRecord:
    return TurnRecord.model_validate(
        {
            "id": row.id,
            "game_id": row.game_id,
            "number": row.number,
            "status": row.status,
            "opened_at": utc(row.opened_at),
            "closed_at": opt_utc(row.closed_at),
            "deadline": opt_utc(row.deadline),
            "paused": row.paused,
            "paused_remaining": from_us(row.paused_remaining_us),
            "reminders_sent": row.reminders_sent,
            "alarm_at": opt_utc(row.alarm_at),
            "pending": parse_as(_HITS, row.pending),
            "npc_commitment": row.npc_commitment,
            "npc_sealed_at": opt_utc(row.npc_sealed_at),
            "npc_salt": row.npc_salt,
            "npc_canonical": row.npc_canonical,
            "npc_revealed": row.npc_revealed,
            "gm_inputs": parse_as(_GM, row.gm_inputs),
            "gm_answers": _ANY_MAP.validate_json(row.gm_answers),
            "version": row.version,
        }
    )


# ---- posts --------------------------------------------------------------------------------------
def post_values(post: Post) -> dict[str, Any]:
    return {
        "id": post.id,
        "game_id": post.game_id,
        "turn_id": post.turn_id,
        "author": post.author,
        "channel_key": post.channel_key,
        "message_key": post.message_key,
        "secret": post.secret,
        "revision": post.revision,
        "deleted": post.deleted,
        "created_at": utc(post.created_at),
        "updated_at": utc(post.updated_at),
        "reply_keys": docs(_STRINGS, post.reply_keys),
        "version": post.version,
    }


@_remembered
def post_record(row: PostRow) -> Post:
    return Post.model_validate(
        {
            "id": row.id,
            "game_id": row.game_id,
            "turn_id": row.turn_id,
            "author": row.author,
            "channel_key": row.channel_key,
            "message_key": row.message_key,
            "secret": row.secret,
            "revision": row.revision,
            "deleted": row.deleted,
            "created_at": utc(row.created_at),
            "updated_at": utc(row.updated_at),
            "reply_keys": parse_as(_STRINGS, row.reply_keys),
            "version": row.version,
        }
    )


def revision_values(revision: PostRevision) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The revision's row and its orders' rows (one per order, in order)."""
    row = {
        "post_id": revision.post_id,
        "number": revision.number,
        "text": revision.text,
        "ok": revision.ok,
        "problems": docs(_STRINGS, revision.problems),
        "reply": revision.reply,
        "created_at": utc(revision.created_at),
    }
    orders = [
        {
            "post_id": revision.post_id,
            "revision": revision.number,
            "position": position,
            "actor": order.actor,
            "body": docs(ORDER, order),
        }
        for position, order in enumerate(revision.orders)
    ]
    orders.extend({"post_id": revision.post_id, "revision": revision.number, "position": at,
                   "actor": action.actor, "body": xp_rows.body(action)}
                  for at, action in enumerate(revision.actions, start=len(orders)))
    return row, orders


def revision_record(row: PostRevisionRow, orders: list[OrderRow]) -> PostRevision:
    ordered = sorted(orders, key=lambda order: order.position)
    actions = [order.body for order in ordered if xp_rows.is_action(order.body)]
    if actions:  # an Xp post's
        ordered = [order for order in ordered if not xp_rows.is_action(order.body)]
    return PostRevision.model_validate(
        {
            "post_id": row.post_id,
            "number": row.number,
            "text": row.text,
            "orders": [parse_as(ORDER, order.body) for order in ordered],
            "actions": [xp_rows.action(text) for text in actions],
            "ok": row.ok,
            "problems": parse_as(_STRINGS, row.problems),
            "reply": row.reply,
            "created_at": utc(row.created_at),
        }
    )


# ---- resolutions and after ----------------------------------------------------------------------
#: `resolutions.state_after` of a row written before the compact form, when it is the result's
#: own state (JSON `null`: a TurnState is an object, so nothing else reads as it)
SAME_AS_RESULT = RawJSON("null")
#: the documents a compact `result` carries (`resolution_doc`)
IN_RESULT = RawJSON("null")


def resolution_values(resolution: Resolution) -> dict[str, Any]:
    """The resolution's row: its result, states and records in one compact document
    (`resolution_doc`), the columns of the documents it replaces JSON `null`."""
    return {
        "id": resolution.id,
        "game_id": resolution.game_id,
        "turn_id": resolution.turn_id,
        "turn_number": resolution.turn_number,
        "orders": docs(_ORDERS, resolution.orders),
        "gm_inputs": docs(_GM, resolution.gm_inputs),
        "result": RawJSON(resolution_doc.compact_document(
            resolution.result, resolution.state_before, resolution.state_after,
            resolution.characters_before)),
        "state_before": IN_RESULT,
        "state_after": IN_RESULT,
        "characters_before": IN_RESULT,
        "next_turn_id": resolution.next_turn_id,
        "undone": resolution.undone,
        "undone_at": opt_utc(resolution.undone_at),
        "created_at": utc(resolution.created_at),
    }


def resolution_record(row: ResolutionRow) -> Resolution:
    if resolution_doc.is_compact(row.result):
        result, before, after, records = resolution_doc.read_compact(row.result)
    else:  # written before the compact form: three documents more, the state after maybe one
        result = _RESULT.validate_json(row.result)
        before = _STATE.validate_json(row.state_before)
        after = (result.state if row.state_after == SAME_AS_RESULT
                 else _STATE.validate_json(row.state_after))
        records = _RECORDS.validate_json(row.characters_before)
    return Resolution.model_validate(
        {
            "id": row.id,
            "game_id": row.game_id,
            "turn_id": row.turn_id,
            "turn_number": row.turn_number,
            "orders": _ORDERS.validate_json(row.orders),
            "gm_inputs": parse_as(_GM, row.gm_inputs),
            "result": result,
            "state_before": before,
            "state_after": after,
            "characters_before": records,
            "next_turn_id": row.next_turn_id,
            "undone": row.undone,
            "undone_at": opt_utc(row.undone_at),
            "created_at": utc(row.created_at),
        }
    )


def outbox_values(message: OutboxMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "game_id": message.game_id,
        "dest_kind": message.dest_kind.value,
        "dest_key": message.dest_key,
        "kind": message.kind,
        "content": message.content,
        "payload": None if message.payload is None else docs(_ANY_MAP, message.payload),
        "part": message.part,
        "parts": message.parts,
        "dedupe_key": message.dedupe_key,
        "created_at": utc(message.created_at),
        "sent_at": opt_utc(message.sent_at),
        "attempts": message.attempts,
        "last_error": message.last_error,
        "next_attempt_at": opt_utc(message.next_attempt_at),
        "gave_up_at": opt_utc(message.gave_up_at),
        "delivered_keys": docs(_STRINGS, message.delivered_keys),
    }


def outbox_record(row: OutboxRow) -> OutboxMessage:
    return OutboxMessage.model_validate(
        {
            "id": row.id,
            "game_id": row.game_id,
            "dest_kind": row.dest_kind,
            "dest_key": row.dest_key,
            "kind": row.kind,
            "content": row.content,
            "payload": None if row.payload in (None, "null") else _ANY_MAP.validate_json(
                row.payload),
            "part": row.part,
            "parts": row.parts,
            "dedupe_key": row.dedupe_key,
            "created_at": utc(row.created_at),
            "sent_at": opt_utc(row.sent_at),
            "attempts": row.attempts,
            "last_error": row.last_error,
            "next_attempt_at": opt_utc(row.next_attempt_at),
            "gave_up_at": opt_utc(row.gave_up_at),
            "delivered_keys": parse_as(_STRINGS, row.delivered_keys),
        }
    )


def audit_values(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "game_id": entry.game_id,
        "actor": entry.actor,
        "action": entry.action,
        "detail": docs(_ANY_MAP, entry.detail),
        "at": utc(entry.at),
    }


def audit_record(row: AuditRow) -> AuditEntry:
    return AuditEntry.model_validate(
        {
            "id": row.id,
            "game_id": row.game_id,
            "actor": row.actor,
            "action": row.action,
            "detail": _ANY_MAP.validate_json(row.detail),
            "at": utc(row.at),
        }
    )


def ledger_values(entry: LedgerEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "player": entry.player,
        "game_id": entry.game_id,
        "points": entry.points,
        "reason": entry.reason,
        "at": utc(entry.at),
    }


def ledger_record(row: LedgerRow) -> LedgerEntry:
    return LedgerEntry.model_validate(
        {
            "id": row.id,
            "player": row.player,
            "game_id": row.game_id,
            "points": row.points,
            "reason": row.reason,
            "at": utc(row.at),
        }
    )


def keys_doc(keys: Sequence[str]) -> Any:
    """Adapter keys (reply or delivered message ids) as their stored document."""
    return docs(_STRINGS, tuple(keys))


def user_values(name: UserName) -> dict[str, Any]:
    return {
        "user_id": name.user_id,
        "display_name": name.display_name,
        "updated_at": utc(name.updated_at),
    }


def user_record(row: UserRow) -> UserName:
    return UserName(user_id=row.user_id, display_name=row.display_name,
                    updated_at=utc(row.updated_at))

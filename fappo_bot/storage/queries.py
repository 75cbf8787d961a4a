"""The repositories' statements, built once: building a SELECT and its cache key costs more than
SQLite takes to run it."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, insert, select

from fappo_bot.service.records import TurnStatus
from fappo_bot.storage.tables import (
    Base,
    CharacterRow,
    GameRow,
    MembershipRow,
    OrderRow,
    PostRevisionRow,
    PostRow,
    TurnRow,
)

GAME_BY_CHANNEL = select(GameRow).where(GameRow.channel_key == bindparam("channel_key")).limit(1)
MEMBERS_OF_GAME = (
    select(MembershipRow)
    .where(MembershipRow.game_id == bindparam("game_id"))
    .order_by(MembershipRow.role, MembershipRow.user_id)
)
CHARACTER_BY_NAME = (
    select(CharacterRow)
    .where(
        CharacterRow.game_id == bindparam("game_id"),
        CharacterRow.name_key == bindparam("name_key"),
    )
    .limit(1)
)
CHARACTERS_OF_GAME = (
    select(CharacterRow)
    .where(CharacterRow.game_id == bindparam("game_id"))
    .order_by(CharacterRow.created_at, CharacterRow.id)
)
LATEST_TURN = (
    select(TurnRow)
    .where(TurnRow.game_id == bindparam("game_id"), TurnRow.status != TurnStatus.VOID.value)
    .order_by(TurnRow.number.desc(), TurnRow.opened_at.desc())
    .limit(1)
)
TURNS_OF_GAME = (
    select(TurnRow)
    .where(TurnRow.game_id == bindparam("game_id"))
    .order_by(TurnRow.number, TurnRow.opened_at)
)
POST_BY_MESSAGE = (
    select(PostRow)
    .where(
        PostRow.channel_key == bindparam("channel_key"),
        PostRow.message_key == bindparam("message_key"),
    )
    .limit(1)
)
REVISIONS_OF_POST = (
    select(PostRevisionRow)
    .where(PostRevisionRow.post_id == bindparam("post_id"))
    .order_by(PostRevisionRow.number)
)
ORDERS_OF_POST = (
    select(OrderRow)
    .where(OrderRow.post_id == bindparam("post_id"))
    .order_by(OrderRow.revision, OrderRow.position)
)
LIVE_POSTS = (PostRow.turn_id == bindparam("turn_id"), PostRow.deleted.is_(False))
NEWEST_REVISIONS = (
    select(PostRow, PostRevisionRow)
    .join(
        PostRevisionRow,
        and_(PostRevisionRow.post_id == PostRow.id, PostRevisionRow.number == PostRow.revision),
    )
    .where(*LIVE_POSTS)
    .order_by(PostRow.updated_at, PostRow.id)
)
NEWEST_ORDERS = (
    select(OrderRow)
    .join(PostRow, and_(OrderRow.post_id == PostRow.id, OrderRow.revision == PostRow.revision))
    .where(*LIVE_POSTS)
)
_INSERTS: dict[type[Base], Any] = {}


def insert_into(row_type: type[Base]) -> Any:
    statement = _INSERTS.get(row_type)
    if statement is None:
        statement = _INSERTS[row_type] = insert(cast(Table, row_type.__table__))
    return statement

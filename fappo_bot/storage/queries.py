"""The repositories' statements, built once: building a SELECT and its cache key costs more than
SQLite takes to run it."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table, and_, bindparam, exists, insert, select

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


def table(row_type: type[Base]) -> Table:
    return cast(Table, row_type.__table__)


# The versioned tables (games, characters, turns, posts) are read by Core SELECTs of the table's
# columns: loading ORM instances costs about 60 us more per statement than the statement itself
# (repositories.py keeps the rows read for the transaction in its own map).
GAMES, CHARACTERS, TURNS, POSTS = (table(t) for t in (GameRow, CharacterRow, TurnRow, PostRow))
MEMBERSHIPS = table(MembershipRow)
BY_ID = {t: select(t).where(t.c.id == bindparam("id")).limit(1)
         for t in (GAMES, CHARACTERS, TURNS, POSTS)}
TURN_FOR_UPDATE = select(TURNS).where(TURNS.c.id == bindparam("id")).with_for_update().limit(1)
GAMES_BY_AGE = select(GAMES).order_by(GAMES.c.created_at, GAMES.c.id)
GAME_BY_CHANNEL = select(GAMES).where(GAMES.c.channel_key == bindparam("channel_key")).limit(1)
MEMBERS_OF_GAME = (
    select(MEMBERSHIPS)
    .where(MEMBERSHIPS.c.game_id == bindparam("game_id"))
    .order_by(MEMBERSHIPS.c.role, MEMBERSHIPS.c.user_id)
)
CHARACTER_BY_NAME = (
    select(CHARACTERS)
    .where(
        CHARACTERS.c.game_id == bindparam("game_id"),
        CHARACTERS.c.name_key == bindparam("name_key"),
    )
    .limit(1)
)
CHARACTERS_OF_GAME = (
    select(CHARACTERS)
    .where(CHARACTERS.c.game_id == bindparam("game_id"))
    .order_by(CHARACTERS.c.created_at, CHARACTERS.c.id)
)
LATEST_TURN = (
    select(TURNS)
    .where(TURNS.c.game_id == bindparam("game_id"), TURNS.c.status != TurnStatus.VOID.value)
    .order_by(TURNS.c.number.desc(), TURNS.c.opened_at.desc())
    .limit(1)
)
#: a game, its latest turn that is not void and one user's memberships (0..n rows, one per role)
GAME_AT_PLAY = select(GAMES, TURNS, MEMBERSHIPS.c.role).select_from(
    GAMES.outerjoin(
        TURNS,
        TURNS.c.id
        == select(TURNS.c.id)
        .where(TURNS.c.game_id == GAMES.c.id, TURNS.c.status != TurnStatus.VOID.value)
        .order_by(TURNS.c.number.desc(), TURNS.c.opened_at.desc())
        .limit(1)
        .correlate(GAMES)
        .scalar_subquery(),
    ).outerjoin(
        MEMBERSHIPS,
        and_(MEMBERSHIPS.c.game_id == GAMES.c.id, MEMBERSHIPS.c.user_id == bindparam("user_id")),
    )
).where(GAMES.c.id == bindparam("id"))
#: GAME_AT_PLAY with `message_taken`: whether a post of (channel_key, message_key) exists
GAME_AT_PLAY_MESSAGE = GAME_AT_PLAY.add_columns(
    exists()
    .where(
        POSTS.c.channel_key == bindparam("channel_key"),
        POSTS.c.message_key == bindparam("message_key"),
    )
    .label("message_taken")
)
TURNS_OF_GAME = (
    select(TURNS)
    .where(TURNS.c.game_id == bindparam("game_id"))
    .order_by(TURNS.c.number, TURNS.c.opened_at)
)
POST_BY_MESSAGE = (
    select(POSTS)
    .where(
        POSTS.c.channel_key == bindparam("channel_key"),
        POSTS.c.message_key == bindparam("message_key"),
    )
    .limit(1)
)
POSTS_OF_TURN = (
    select(POSTS)
    .where(POSTS.c.turn_id == bindparam("turn_id"))
    .order_by(POSTS.c.created_at, POSTS.c.id)
)
LIVE_POSTS_OF_TURN = POSTS_OF_TURN.where(POSTS.c.deleted.is_(False))

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
        statement = _INSERTS[row_type] = insert(table(row_type))
    return statement

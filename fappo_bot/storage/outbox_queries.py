"""The outbox's statements: what is due (each destination in order, a message never overtaking an
earlier one of its destination that waits for its retry), a user's inbox, a game's messages, and
the marks of a delivery or a failure. Split from `queries.py`, whose helpers it uses."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, bindparam, exists, literal_column, or_, select, update

from fappo_bot.storage.driver import Sql
from fappo_bot.storage.queries import OUTBOX
from fappo_bot.storage.queries import listed as _listed

_NOW = bindparam("now", type_=OUTBOX.c.next_attempt_at.type)
_EARLIER = OUTBOX.alias("earlier")
#: an earlier unsent message of the same destination still waits for its next attempt
_DESTINATION_WAITS = exists().where(
    _EARLIER.c.dest_key == OUTBOX.c.dest_key,
    _EARLIER.c.dest_kind == OUTBOX.c.dest_kind,
    _EARLIER.c.sent_at.is_(None),
    _EARLIER.c.gave_up_at.is_(None),
    _EARLIER.c.next_attempt_at > _NOW,
    or_(
        _EARLIER.c.created_at < OUTBOX.c.created_at,
        and_(_EARLIER.c.created_at == OUTBOX.c.created_at, _EARLIER.c.id < OUTBOX.c.id),
    ),
)
_OUTBOX_DUE = (
    select(OUTBOX)
    .where(
        OUTBOX.c.sent_at.is_(None),
        OUTBOX.c.gave_up_at.is_(None),
        or_(OUTBOX.c.next_attempt_at.is_(None), OUTBOX.c.next_attempt_at <= _NOW),
        ~_DESTINATION_WAITS,
    )
    .order_by(OUTBOX.c.created_at, OUTBOX.c.id)
    .limit(bindparam("limit"))
)
OUTBOX_PENDING = Sql(_OUTBOX_DUE)
#: OUTBOX_PENDING of one destination kind (`kind`): the DMs, which shard 0's process delivers
OUTBOX_PENDING_OF_KIND = Sql(_OUTBOX_DUE.where(OUTBOX.c.dest_kind == bindparam("kind")))


def _outbox_pending_to(dialect: str) -> Any:
    """OUTBOX_PENDING to the destinations of `dests`, a list of keys bound as ONE parameter (an
    array on PostgreSQL, a JSON array on SQLite): a shard's rooms are as many as its guilds'
    channels, more than either database takes parameters in one statement (PostgreSQL 32,767;
    SQLite 32,766 unless built otherwise). The keys become a table the database joins on.

    On PostgreSQL the keys are first intersected with the destinations of the unsent messages
    (a set operation, hashed, never a join the planner may nest): before the server has the
    table's statistics it nested the join of every pending message with every key (0.7 s at
    20,000 rooms). The intersection holds at most the destinations pending, whatever the
    planner knows."""
    listed = _listed("dests", OUTBOX.c.dest_key, dialect)
    if dialect == "postgresql":
        unsent = select(OUTBOX.c.dest_key).where(OUTBOX.c.sent_at.is_(None),
                                                 OUTBOX.c.gave_up_at.is_(None))
        listed = listed.intersect(unsent)
    return _OUTBOX_DUE.where(OUTBOX.c.dest_key.in_(listed))


OUTBOX_PENDING_TO = Sql(_outbox_pending_to)


OUTBOX_INBOX = Sql(
    select(OUTBOX)
    .where(
        OUTBOX.c.dest_key == bindparam("user_id"),
        OUTBOX.c.dest_kind == literal_column("'dm'"),
        OUTBOX.c.sent_at.is_(None),
    )
    .order_by(OUTBOX.c.created_at, OUTBOX.c.id)
)
OUTBOX_OF_GAME = Sql(
    select(OUTBOX)
    .where(OUTBOX.c.game_id == bindparam("game_id"))
    .order_by(OUTBOX.c.created_at, OUTBOX.c.id)
)
#: a game's messages whose dedupe key starts with a prefix (`\\` escapes the LIKE wildcards)
OUTBOX_BY_KEY_PREFIX = Sql(
    select(OUTBOX)
    .where(OUTBOX.c.game_id == bindparam("game_id"),
           OUTBOX.c.dedupe_key.like(bindparam("pattern"), escape="\\"))
    .order_by(OUTBOX.c.created_at, OUTBOX.c.id)
)
#: a game's messages given up for good and not read since (its GMs' inbox, its turn status)
OUTBOX_GIVEN_UP_OF_GAME = Sql(
    select(OUTBOX)
    .where(
        OUTBOX.c.game_id == bindparam("game_id"),
        OUTBOX.c.sent_at.is_(None),
        OUTBOX.c.gave_up_at.is_not(None),
    )
    .order_by(OUTBOX.c.created_at, OUTBOX.c.id)
)
#: the first delivery's time stays
OUTBOX_SENT = Sql(
    update(OUTBOX)
    .where(OUTBOX.c.id == bindparam("match_id"), OUTBOX.c.sent_at.is_(None))
    .values(
        sent_at=bindparam("sent_at", type_=OUTBOX.c.sent_at.type),
        delivered_keys=bindparam("delivered_keys", type_=OUTBOX.c.delivered_keys.type),
    )
)
OUTBOX_FAILED = Sql(
    update(OUTBOX)
    .where(OUTBOX.c.id == bindparam("match_id"))
    .values(
        attempts=OUTBOX.c.attempts + 1,
        last_error=bindparam("last_error"),
        next_attempt_at=bindparam("next_attempt_at", type_=OUTBOX.c.next_attempt_at.type),
        gave_up_at=bindparam("gave_up_at", type_=OUTBOX.c.gave_up_at.type),
    )
)

"""Every statement the repositories run, built once with SQLAlchemy Core and compiled once per
dialect (`driver.Sql`): building a statement and its cache key costs more than SQLite takes to run
it. Parameters are named `bindparam`s; a statement's fixed values (LIMIT 1, 'void') are bound in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Table,
    and_,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from fappo_bot.service.records import TurnStatus
from fappo_bot.storage.driver import Sql
from fappo_bot.storage.tables import (
    AuditRow,
    Base,
    ChannelMarkRow,
    CharacterRow,
    GameRow,
    LedgerRow,
    MembershipRow,
    OrderInForceRow,
    OrderRow,
    OutboxRow,
    PostRevisionRow,
    PostRow,
    ResolutionRow,
    TurnRow,
    UserRow,
)


def table(row_type: type[Base]) -> Table:
    return cast(Table, row_type.__table__)


GAMES, CHARACTERS, TURNS, POSTS = (table(t) for t in (GameRow, CharacterRow, TurnRow, PostRow))
MEMBERSHIPS, REVISIONS, ORDERS = (table(t) for t in (MembershipRow, PostRevisionRow, OrderRow))
RESOLUTIONS, OUTBOX = table(ResolutionRow), table(OutboxRow)
AUDIT, LEDGER, USERS = table(AuditRow), table(LedgerRow), table(UserRow)
MARKS = table(ChannelMarkRow)
IN_FORCE = table(OrderInForceRow)


def _insert(target: Table) -> Sql:
    """INSERT of every column (the mappers give every column a value)."""
    return Sql(insert(target).values({c.name: bindparam(c.name) for c in target.c}))


INSERT = {t: _insert(t) for t in (GAMES, CHARACTERS, TURNS, POSTS, REVISIONS, ORDERS,
                                   RESOLUTIONS, AUDIT, LEDGER)}


def _insert_or_skip(target: Table, *key: str) -> Sql:
    """INSERT of every column that does nothing when the row's `key` is taken."""
    def build(dialect: str) -> Any:
        dialect_insert = pg_insert if dialect == "postgresql" else sqlite_insert
        return (
            dialect_insert(target)
            .values({c.name: bindparam(c.name) for c in target.c})
            .on_conflict_do_nothing(index_elements=list(key))
        )

    return Sql(build)


OUTBOX_INSERT = _insert_or_skip(OUTBOX, "dedupe_key")
#: the messages of `keys` (dedupe keys, a list bound as one value)
OUTBOX_BY_DEDUPE = Sql(lambda dialect: select(OUTBOX).where(
    OUTBOX.c.dedupe_key.in_(_listed("keys", OUTBOX.c.dedupe_key, dialect))))
MEMBERSHIP_INSERT = _insert_or_skip(MEMBERSHIPS, "game_id", "user_id", "role")

BY_ID = {t: Sql(select(t).where(t.c.id == bindparam("id")).limit(1))
         for t in (GAMES, CHARACTERS, TURNS, POSTS, RESOLUTIONS, OUTBOX)}
TURN_FOR_UPDATE = Sql(
    select(TURNS).where(TURNS.c.id == bindparam("id")).with_for_update().limit(1)
)

# ---- games and members --------------------------------------------------------------------------
GAMES_BY_AGE = Sql(select(GAMES).order_by(GAMES.c.created_at, GAMES.c.id))
GAMES_BY_STATUS = Sql(
    select(GAMES)
    .where(GAMES.c.status == bindparam("status"))
    .order_by(GAMES.c.created_at, GAMES.c.id)
)
GAME_BY_CHANNEL = Sql(
    select(GAMES).where(GAMES.c.channel_key == bindparam("channel_key")).limit(1)
)
MEMBERS_OF_GAME = Sql(
    select(MEMBERSHIPS)
    .where(MEMBERSHIPS.c.game_id == bindparam("game_id"))
    .order_by(MEMBERSHIPS.c.role, MEMBERSHIPS.c.user_id)
)
GAMES_OF_USER = Sql(
    select(MEMBERSHIPS)
    .where(MEMBERSHIPS.c.user_id == bindparam("user_id"))
    .order_by(MEMBERSHIPS.c.game_id, MEMBERSHIPS.c.role)
)
MEMBERSHIP_DELETE = Sql(
    delete(MEMBERSHIPS).where(
        MEMBERSHIPS.c.game_id == bindparam("game_id"),
        MEMBERSHIPS.c.user_id == bindparam("user_id"),
        MEMBERSHIPS.c.role == bindparam("role"),
    )
)

#: a turn that is not void, written as the partial unique index `uq_turns_game_id_number` is
#: (`status <> 'void'`, a literal: SQLite uses a partial index only for a WHERE that implies its
#: own), so the latest turn is the index's last entry for the game; a bound 'void' made it a scan
#: and a sort, five times slower. The number alone orders them: it is unique among them.
NOT_VOID = TURNS.c.status != literal_column(f"'{TurnStatus.VOID.value}'")
_LATEST_TURN_ID = (
    select(TURNS.c.id)
    .where(TURNS.c.game_id == GAMES.c.id, NOT_VOID)
    .order_by(TURNS.c.number.desc())
    .limit(1)
    .correlate(GAMES)
    .scalar_subquery()
)
#: a game, its latest turn that is not void and one user's memberships (0..n rows, one per role)
_AT_PLAY = select(GAMES, TURNS, MEMBERSHIPS.c.role).select_from(
    GAMES.outerjoin(TURNS, TURNS.c.id == _LATEST_TURN_ID).outerjoin(
        MEMBERSHIPS,
        and_(MEMBERSHIPS.c.game_id == GAMES.c.id, MEMBERSHIPS.c.user_id == bindparam("user_id")),
    )
).where(GAMES.c.id == bindparam("id"))
GAME_AT_PLAY = Sql(_AT_PLAY)
#: GAME_AT_PLAY with `message_taken`: whether a post of (channel_key, message_key) exists
MESSAGE_TAKEN = (
    exists()
    .where(
        POSTS.c.channel_key == bindparam("channel_key"),
        POSTS.c.message_key == bindparam("message_key"),
    )
    .label("message_taken")
)
GAME_AT_PLAY_MESSAGE = Sql(_AT_PLAY.add_columns(MESSAGE_TAKEN))
#: GAME_AT_PLAY's game and turn as their versions alone (and the turn's id): whether the rows a
#: unit-of-work factory read before are still the rows (`SqlGames.at_play`)
_AT_PLAY_VERSIONS = _AT_PLAY.with_only_columns(
    GAMES.c.version, TURNS.c.id, TURNS.c.version, MEMBERSHIPS.c.role)
GAME_AT_PLAY_VERSIONS = Sql(_AT_PLAY_VERSIONS)
GAME_AT_PLAY_VERSIONS_MESSAGE = Sql(_AT_PLAY_VERSIONS.add_columns(MESSAGE_TAKEN))
#: every game whose latest turn that is not void is open, with that turn and its members' ids
#: (one row per membership, none left out for a game without members), oldest game first
GAMES_WITH_OPEN_TURNS = Sql(
    select(GAMES, TURNS, MEMBERSHIPS.c.user_id)
    .select_from(
        GAMES.join(TURNS, and_(
            TURNS.c.id == _LATEST_TURN_ID,
            TURNS.c.status == literal_column(f"'{TurnStatus.OPEN.value}'"),
        )).outerjoin(MEMBERSHIPS, MEMBERSHIPS.c.game_id == GAMES.c.id)
    )
    .order_by(GAMES.c.created_at, GAMES.c.id, MEMBERSHIPS.c.role, MEMBERSHIPS.c.user_id)
)

# ---- characters ---------------------------------------------------------------------------------
CHARACTER_BY_NAME = Sql(
    select(CHARACTERS)
    .where(
        CHARACTERS.c.game_id == bindparam("game_id"),
        CHARACTERS.c.name_key == bindparam("name_key"),
    )
    .limit(1)
)
CHARACTERS_OF_GAME = Sql(
    select(CHARACTERS)
    .where(CHARACTERS.c.game_id == bindparam("game_id"))
    .order_by(CHARACTERS.c.created_at, CHARACTERS.c.id)
)
#: the same characters' ids and versions alone: whether the rows a unit-of-work factory read
#: before are still the rows (`SqlCharacters.list`)
CHARACTER_VERSIONS_OF_GAME = Sql(
    select(CHARACTERS.c.id, CHARACTERS.c.version)
    .where(CHARACTERS.c.game_id == bindparam("game_id"))
    .order_by(CHARACTERS.c.created_at, CHARACTERS.c.id)
)
#: the same characters, the columns saying who is who alone (not the sheets and states)
ROSTER_OF_GAME = Sql(
    select(CHARACTERS.c.name, CHARACTERS.c.status, CHARACTERS.c.owner, CHARACTERS.c.kind,
           CHARACTERS.c.controller, CHARACTERS.c.gm_controlled)
    .where(CHARACTERS.c.game_id == bindparam("game_id"))
    .order_by(CHARACTERS.c.created_at, CHARACTERS.c.id)
)

# ---- turns --------------------------------------------------------------------------------------
LATEST_TURN = Sql(
    select(TURNS)
    .where(TURNS.c.game_id == bindparam("game_id"), NOT_VOID)
    .order_by(TURNS.c.number.desc())
    .limit(1)
)
#: a game's turn of one number that is not void: the partial unique index's entry (`NOT_VOID`)
TURN_BY_NUMBER = Sql(
    select(TURNS)
    .where(TURNS.c.game_id == bindparam("game_id"), TURNS.c.number == bindparam("number"),
           NOT_VOID)
    .limit(1)
)
TURNS_OF_GAME = Sql(
    select(TURNS)
    .where(TURNS.c.game_id == bindparam("game_id"))
    .order_by(TURNS.c.number, TURNS.c.opened_at)
)
#: the numbers and statuses of a game's turns (the campaign page's list of turns)
TURN_STATUSES_OF_GAME = Sql(
    select(TURNS.c.number, TURNS.c.status)
    .where(TURNS.c.game_id == bindparam("game_id"))
    .order_by(TURNS.c.number, TURNS.c.opened_at)
)
#: the scheduler's query: open, unpaused turns whose alarm is due
TURNS_DUE = Sql(
    select(TURNS)
    .where(
        TURNS.c.status == TurnStatus.OPEN.value,
        TURNS.c.paused.is_(False),
        TURNS.c.alarm_at.is_not(None),
        TURNS.c.alarm_at <= bindparam("now", type_=TURNS.c.alarm_at.type),
    )
    .order_by(TURNS.c.alarm_at, TURNS.c.id)
)

# ---- posts --------------------------------------------------------------------------------------
POST_BY_MESSAGE = Sql(
    select(POSTS)
    .where(
        POSTS.c.channel_key == bindparam("channel_key"),
        POSTS.c.message_key == bindparam("message_key"),
    )
    .limit(1)
)
_POSTS_OF_TURN = (
    select(POSTS)
    .where(POSTS.c.turn_id == bindparam("turn_id"))
    .order_by(POSTS.c.created_at, POSTS.c.id)
)
POSTS_OF_TURN = Sql(_POSTS_OF_TURN)
LIVE_POSTS_OF_TURN = Sql(_POSTS_OF_TURN.where(POSTS.c.deleted.is_(False)))
REVISIONS_OF_POST = Sql(
    select(REVISIONS)
    .where(REVISIONS.c.post_id == bindparam("post_id"))
    .order_by(REVISIONS.c.number)
)
ORDERS_OF_POST = Sql(
    select(ORDERS)
    .where(ORDERS.c.post_id == bindparam("post_id"))
    .order_by(ORDERS.c.revision, ORDERS.c.position)
)
_LIVE_POSTS = (POSTS.c.turn_id == bindparam("turn_id"), POSTS.c.deleted.is_(False))
#: each live post of a turn with its newest revision (one row per post)
NEWEST_REVISIONS = Sql(
    select(POSTS, REVISIONS)
    .join(REVISIONS, and_(REVISIONS.c.post_id == POSTS.c.id, REVISIONS.c.number == POSTS.c.revision))
    .where(*_LIVE_POSTS)
    .order_by(POSTS.c.updated_at, POSTS.c.id)
)
#: for each character name as written, the post(s) whose newest revision wrote its orders last:
#: the post, its update time, the revision's time and the name (`posts.heads` breaks the ties and
#: merges the names' cases); no order's body is read. Only to recompute a turn's orders in force
#: after an edit or a deletion: a new post updates them by its own characters' rows.
_WRITTEN = (
    select(
        POSTS.c.id, POSTS.c.updated_at, REVISIONS.c.created_at, ORDERS.c.actor,
        func.rank().over(partition_by=ORDERS.c.actor,
                         order_by=(REVISIONS.c.created_at.desc(), POSTS.c.updated_at.desc()))
        .label("newest"),
    )
    .select_from(POSTS)
    .join(REVISIONS, and_(REVISIONS.c.post_id == POSTS.c.id, REVISIONS.c.number == POSTS.c.revision))
    .join(ORDERS, and_(ORDERS.c.post_id == POSTS.c.id, ORDERS.c.revision == POSTS.c.revision))
    .where(*_LIVE_POSTS, REVISIONS.c.ok.is_(True))
    .subquery()
)
NEWEST_HEADS = Sql(
    select(_WRITTEN.c.id, _WRITTEN.c.updated_at, _WRITTEN.c.created_at, _WRITTEN.c.actor)
    .where(_WRITTEN.c.newest == 1)
)
#: the orders of those revisions
NEWEST_ORDERS = Sql(
    select(ORDERS)
    .join(POSTS, and_(ORDERS.c.post_id == POSTS.c.id, ORDERS.c.revision == POSTS.c.revision))
    .where(*_LIVE_POSTS)
    .order_by(ORDERS.c.post_id, ORDERS.c.position)
)

# ---- the orders in force (`orders_in_force`, kept by `posts.py`) --------------------------------
#: a turn's characters with orders in force, and the post of each
IN_FORCE_OF_TURN = Sql(
    select(IN_FORCE.c.actor_key, IN_FORCE.c.post_id).where(IN_FORCE.c.turn_id == bindparam("turn_id"))
)
_NEWEST_REVISION = and_(REVISIONS.c.post_id == POSTS.c.id, REVISIONS.c.number == POSTS.c.revision)
_NEWEST_ORDERS = and_(ORDERS.c.post_id == POSTS.c.id, ORDERS.c.revision == POSTS.c.revision)
_WITH_ORDERS = (
    select(POSTS, REVISIONS, ORDERS)
    .join(REVISIONS, _NEWEST_REVISION)
    .join(ORDERS, _NEWEST_ORDERS)
)
#: one post with its newest revision and that revision's orders (a row per order)
POST_WITH_ORDERS = Sql(
    _WITH_ORDERS.where(POSTS.c.id == bindparam("post_id")).order_by(ORDERS.c.position)
)
#: every post of a turn holding orders in force, each with its newest revision and its orders
IN_FORCE_POSTS = Sql(
    _WITH_ORDERS.where(POSTS.c.id.in_(
        select(IN_FORCE.c.post_id).where(IN_FORCE.c.turn_id == bindparam("turn_id"))))
    .order_by(POSTS.c.id, ORDERS.c.position)
)
#: the post holding one character's orders in force, with its newest revision and its orders
IN_FORCE_OF_ACTOR = Sql(
    _WITH_ORDERS.where(POSTS.c.id.in_(
        select(IN_FORCE.c.post_id).where(IN_FORCE.c.turn_id == bindparam("turn_id"),
                                         IN_FORCE.c.actor_key == bindparam("actor_key"))))
    .order_by(ORDERS.c.position)
)
#: the orders alone of the post holding a character's orders in force (its newest revision, when
#: valid), in their order: what a reply's notes of replaced orders read
_IN_FORCE_ORDERS = (
    select(IN_FORCE.c.actor_key, ORDERS.c.actor, ORDERS.c.body)
    .select_from(IN_FORCE)
    .join(POSTS, POSTS.c.id == IN_FORCE.c.post_id)
    .join(REVISIONS, _NEWEST_REVISION)
    .join(ORDERS, _NEWEST_ORDERS)
    .where(IN_FORCE.c.turn_id == bindparam("turn_id"), REVISIONS.c.ok.is_(True))
    .order_by(IN_FORCE.c.actor_key, ORDERS.c.position)
)
#: a turn's characters with orders in force and the post holding them, by character
IN_FORCE_HELD = Sql(
    select(IN_FORCE.c.actor_key, IN_FORCE.c.post_id)
    .where(IN_FORCE.c.turn_id == bindparam("turn_id"))
    .order_by(IN_FORCE.c.actor_key)
)
#: the orders of the posts holding a turn's orders in force (their newest revisions, when
#: valid), each post's once and in their order, whatever number of characters it holds
IN_FORCE_POST_ORDERS = Sql(
    select(ORDERS.c.post_id, ORDERS.c.actor, ORDERS.c.body)
    .select_from(POSTS)
    .join(REVISIONS, _NEWEST_REVISION)
    .join(ORDERS, _NEWEST_ORDERS)
    .where(POSTS.c.id.in_(
        select(IN_FORCE.c.post_id).where(IN_FORCE.c.turn_id == bindparam("turn_id"))),
        REVISIONS.c.ok.is_(True))
    .order_by(POSTS.c.id, ORDERS.c.position)
)
IN_FORCE_ORDERS_OF_ACTOR = Sql(_IN_FORCE_ORDERS.where(IN_FORCE.c.actor_key == bindparam("actor_key")))
IN_FORCE_INSERT = _insert(IN_FORCE)
IN_FORCE_CLEAR = Sql(delete(IN_FORCE).where(IN_FORCE.c.turn_id == bindparam("turn_id")))


def _written_later(new: Any, dialect: str) -> Any:
    """Whether the orders of `new` (the excluded row) were written later than the character's
    row: by the revision's time, then the post's update time, then the post id, compared byte by
    byte (the order `posts.heads` ranks them in)."""
    old = IN_FORCE.c
    post_id = (new.post_id.collate("C"), old.post_id.collate("C")) if dialect == "postgresql" \
        else (new.post_id, old.post_id)
    return or_(
        new.written_at > old.written_at,
        and_(new.written_at == old.written_at, or_(
            new.updated_at > old.updated_at,
            and_(new.updated_at == old.updated_at, post_id[0] > post_id[1]))),
    )


#: a character's row, taken by these orders only if they were written later than the row's
IN_FORCE_UPSERT = Sql(lambda dialect: upsert(IN_FORCE, ("turn_id", "actor_key"), dialect,
                                             only_if=_written_later))

# ---- resolutions --------------------------------------------------------------------------------
RESOLUTION_FOR_TURN = Sql(
    select(RESOLUTIONS)
    .where(RESOLUTIONS.c.turn_id == bindparam("turn_id"), RESOLUTIONS.c.undone.is_(False))
    .order_by(RESOLUTIONS.c.created_at.desc(), RESOLUTIONS.c.id.desc())
    .limit(1)
)
#: the id of the turn's resolution that is not undone (the campaign page finds its messages by it)
RESOLUTION_ID_FOR_TURN = Sql(
    select(RESOLUTIONS.c.id)
    .where(RESOLUTIONS.c.turn_id == bindparam("turn_id"), RESOLUTIONS.c.undone.is_(False))
    .order_by(RESOLUTIONS.c.created_at.desc(), RESOLUTIONS.c.id.desc())
    .limit(1)
)
LATEST_RESOLUTION = Sql(
    select(RESOLUTIONS)
    .where(RESOLUTIONS.c.game_id == bindparam("game_id"), RESOLUTIONS.c.undone.is_(False))
    .order_by(RESOLUTIONS.c.created_at.desc(), RESOLUTIONS.c.turn_number.desc())
    .limit(1)
)
RESOLUTION_UNDONE = Sql(
    update(RESOLUTIONS)
    .where(RESOLUTIONS.c.id == bindparam("match_id"))
    .values(undone=True, undone_at=bindparam("undone_at", type_=RESOLUTIONS.c.undone_at.type))
)

# ---- the audit log, the ledger (the outbox's statements: `outbox_queries.py`) ----------------------
def _listed(name: str, column: Any, dialect: str) -> Any:
    """The keys of parameter `name` (a list bound as one value: an array on PostgreSQL, a JSON
    array on SQLite) as a one-column SELECT, for `column.in_(...)`: one statement for any
    number of keys."""
    if dialect == "postgresql":
        return select(func.unnest(bindparam(name, type_=ARRAY(column.type))))
    values = func.json_each(bindparam(name, type_=JSON)).table_valued("value")
    return select(values.c.value)


#: `_listed` for the statements of the other storage modules (`pace.py`)
listed = _listed


_AUDIT_OF_GAME = select(AUDIT).where(AUDIT.c.game_id == bindparam("game_id"))
AUDIT_OF_GAME = Sql(_AUDIT_OF_GAME.order_by(AUDIT.c.at, AUDIT.c.id))
AUDIT_NEWEST = Sql(
    _AUDIT_OF_GAME.order_by(AUDIT.c.at.desc(), AUDIT.c.id.desc()).limit(bindparam("limit"))
)
LEDGER_OF_PLAYER = Sql(
    select(LEDGER)
    .where(LEDGER.c.player == bindparam("player"))
    .order_by(LEDGER.c.at, LEDGER.c.id)
)

# ---- users' display names -----------------------------------------------------------------------
def upsert(
    target: Table, key: str | tuple[str, ...], dialect: str,
    only_if: Callable[[Any, str], Any] | None = None,
) -> Any:
    """INSERT of every column that, where a row of the same `key` (a column or several) is there
    already, sets that row's other columns instead: the last writer wins, or with `only_if` (a
    condition on the row offered, `excluded`, and the dialect) only a writer that meets it."""
    keys = (key,) if isinstance(key, str) else key
    dialect_insert = pg_insert if dialect == "postgresql" else sqlite_insert
    statement = dialect_insert(target).values({c.name: bindparam(c.name) for c in target.c})
    return statement.on_conflict_do_update(
        index_elements=list(keys),
        set_={c.name: statement.excluded[c.name] for c in target.c if c.name not in keys},
        where=None if only_if is None else only_if(statement.excluded, dialect),
    )


USER_UPSERT = Sql(lambda dialect: upsert(USERS, "user_id", dialect))
#: the names of the users of `user_ids` (a list, one parameter: `_listed`)
USERS_NAMED = Sql(lambda dialect: select(USERS).where(
    USERS.c.user_id.in_(_listed("user_ids", USERS.c.user_id, dialect))))


MARK_UPSERT = Sql(lambda dialect: upsert(MARKS, "channel_key", dialect))
MARKS_ALL = Sql(select(MARKS).order_by(MARKS.c.channel_key))

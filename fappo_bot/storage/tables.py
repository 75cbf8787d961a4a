"""The tables: SQLAlchemy 2.0 typed ORM rows. They never leave `fappo_bot.storage`.

Relational columns carry what is queried, joined, constrained or indexed; the rules values
(`Character`, `Order`, `TurnResult`, `TurnState`, `RulesConfig`, `GMInputs`, ...) are JSON documents
validated through their pydantic models on load (`fappo_bot.storage.mappers`). A JSON column's
Python value is the document's text (`Mapped[str]`): the engines' JSON (de)serializers pass
pydantic's serialisation through as it is. Times are stored in UTC. Rows that are updated in place
carry `version` for the optimistic check: every UPDATE is `... WHERE id = ? AND version = <the
version read>` (`fappo_bot.storage.updates`), with the new version chosen by the service.

Any change here needs a migration: `tests/storage/test_migrations.py` compares these tables with
the migrations on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: deterministic constraint names, the same on every database (alembic needs them to drop them)
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = String(64)
KEY = String(100)
TIME = DateTime(timezone=True)


class Base(DeclarativeBase):
    """The declarative base of every row; its metadata is the schema alembic compares against."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: TIME}


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    channel_key: Mapped[str] = mapped_column(KEY, unique=True)
    guild_key: Mapped[str | None] = mapped_column(KEY)
    name: Mapped[str] = mapped_column(String(200))
    ruleset: Mapped[str] = mapped_column(String(20))
    rules: Mapped[str] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(20))
    settings: Mapped[str] = mapped_column(JSON)
    created_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index(None, "status", "created_at", "id"),)


class MembershipRow(Base):
    __tablename__ = "memberships"

    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"), primary_key=True)
    user_id: Mapped[str] = mapped_column(KEY, primary_key=True)
    role: Mapped[str] = mapped_column(String(20), primary_key=True)

    __table_args__ = (Index(None, "user_id", "game_id"),)


class CharacterRow(Base):
    __tablename__ = "characters"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(200))
    #: name.casefold(): names are unique per game whatever their case
    name_key: Mapped[str] = mapped_column(String(200))
    owner: Mapped[str | None] = mapped_column(KEY)
    kind: Mapped[str] = mapped_column(String(20))
    #: Character as approved (JSON), and the current rules state (JSON)
    sheet: Mapped[str] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(JSON)
    #: an Xp game's character sheet (JSON), NULL in a FAPPO game
    xp: Mapped[str | None] = mapped_column(JSON(none_as_null=True))
    status: Mapped[str] = mapped_column(String(20))
    missed_turns: Mapped[int] = mapped_column(Integer)
    controller: Mapped[str | None] = mapped_column(KEY)
    gm_controlled: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        UniqueConstraint("game_id", "name_key"),
        Index(None, "game_id", "created_at", "id"),
        Index(None, "owner"),
    )


class TurnRow(Base):
    __tablename__ = "turns"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20))
    opened_at: Mapped[datetime]
    closed_at: Mapped[datetime | None]
    deadline: Mapped[datetime | None]
    paused: Mapped[bool] = mapped_column(Boolean)
    #: time left on a paused deadline, in microseconds (exact, and the same on every database)
    paused_remaining_us: Mapped[int | None] = mapped_column(BigInteger)
    reminders_sent: Mapped[int] = mapped_column(Integer)
    alarm_at: Mapped[datetime | None]
    #: PendingHit list (JSON)
    pending: Mapped[str] = mapped_column(JSON)
    npc_commitment: Mapped[str | None] = mapped_column(String(64))
    npc_sealed_at: Mapped[datetime | None]
    npc_salt: Mapped[str | None] = mapped_column(String(128))
    npc_canonical: Mapped[str | None] = mapped_column(Text)
    npc_revealed: Mapped[bool] = mapped_column(Boolean)
    gm_inputs: Mapped[str] = mapped_column(JSON)
    gm_answers: Mapped[str] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        # a turn number once per game among turns that are not void: undo voids the turn it
        # opened, and the turn is opened again under the same number
        Index(
            "uq_turns_game_id_number",
            "game_id",
            "number",
            unique=True,
            sqlite_where=text("status <> 'void'"),
            postgresql_where=text("status <> 'void'"),
        ),
        # the scheduler's query: open, unpaused turns whose alarm is due
        Index(None, "status", "paused", "alarm_at"),
    )


class PostRow(Base):
    __tablename__ = "posts"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    turn_id: Mapped[str] = mapped_column(ID, ForeignKey("turns.id"))
    author: Mapped[str] = mapped_column(KEY)
    channel_key: Mapped[str] = mapped_column(KEY)
    message_key: Mapped[str] = mapped_column(KEY)
    secret: Mapped[bool] = mapped_column(Boolean)
    #: the newest revision's number
    revision: Mapped[int] = mapped_column(Integer)
    deleted: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    #: the adapter's keys of the bot's reply messages (list of strings, JSON)
    reply_keys: Mapped[str] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    #: never loaded (lazy="raise"): declared so a flush inserts a post before its revisions
    revisions: Mapped[list[PostRevisionRow]] = relationship(lazy="raise")

    __table_args__ = (
        UniqueConstraint("channel_key", "message_key"),
        Index(None, "turn_id", "created_at", "id"),
    )


class PostRevisionRow(Base):
    __tablename__ = "post_revisions"

    post_id: Mapped[str] = mapped_column(ID, ForeignKey("posts.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    ok: Mapped[bool] = mapped_column(Boolean)
    #: the problems reported to the player (list of strings, JSON)
    problems: Mapped[str] = mapped_column(JSON)
    reply: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]
    #: never loaded: declared so a flush inserts a revision before its orders
    orders: Mapped[list[OrderRow]] = relationship(lazy="raise")


class OrderRow(Base):
    """One order of one post revision (the orders of a turn follow each post's newest revision)."""

    __tablename__ = "orders"

    post_id: Mapped[str] = mapped_column(ID, primary_key=True)
    revision: Mapped[int] = mapped_column(Integer, primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(200))
    #: the Order (JSON)
    body: Mapped[str] = mapped_column(JSON)

    __table_args__ = (
        ForeignKeyConstraint(
            ["post_id", "revision"], ["post_revisions.post_id", "post_revisions.number"]
        ),
    )


class OrderInForceRow(Base):
    """Per character of a turn, the post whose orders for it are in force (F29 Amb-3: the last
    written valid orders of a live post), so a post reads the orders it replaces at the same cost
    at any point of its turn. Kept by `storage/posts.py`: a new post's orders take a character's
    row when they were written later (the revision's time, then the post's update time, then the
    post id: the order the rule breaks ties by); an edit or a deletion recomputes its turn's
    rows."""

    __tablename__ = "orders_in_force"

    turn_id: Mapped[str] = mapped_column(ID, ForeignKey("turns.id"), primary_key=True)
    #: the character's name as its orders wrote it, case-folded (`str.casefold`)
    actor_key: Mapped[str] = mapped_column(String(200), primary_key=True)
    post_id: Mapped[str] = mapped_column(ID, ForeignKey("posts.id"))
    #: the revision's time and the post's update time when those orders were written
    written_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class ResolutionRow(Base):
    __tablename__ = "resolutions"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    turn_id: Mapped[str] = mapped_column(ID, ForeignKey("turns.id"))
    turn_number: Mapped[int] = mapped_column(Integer)
    #: the orders resolved, the GM inputs, the TurnResult, the states around it (JSON)
    orders: Mapped[str] = mapped_column(JSON)
    gm_inputs: Mapped[str] = mapped_column(JSON)
    result: Mapped[str] = mapped_column(JSON)
    state_before: Mapped[str] = mapped_column(JSON)
    state_after: Mapped[str] = mapped_column(JSON)
    #: every CharacterRecord as it was before (restored by undo)
    characters_before: Mapped[str] = mapped_column(JSON)
    next_turn_id: Mapped[str | None] = mapped_column(ID)
    undone: Mapped[bool] = mapped_column(Boolean)
    undone_at: Mapped[datetime | None]
    created_at: Mapped[datetime]

    __table_args__ = (
        Index(None, "turn_id", "undone"),
        Index(None, "game_id", "undone", "created_at"),
    )


#: the unsent messages waiting for their next attempt (the partial index of `pending()`)
_WAITING = text("sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at IS NOT NULL")


class OutboxRow(Base):
    __tablename__ = "outbox"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(ID, ForeignKey("games.id"))
    dest_kind: Mapped[str] = mapped_column(String(20))
    dest_key: Mapped[str] = mapped_column(KEY)
    kind: Mapped[str] = mapped_column(String(40))
    content: Mapped[str] = mapped_column(Text)
    #: the message's data (a notice's fields, JSON) the adapters render it from; NULL: its text
    payload: Mapped[str | None] = mapped_column(JSON)
    #: which part of its message, of how many (a long text is queued as several)
    part: Mapped[int] = mapped_column(Integer)
    parts: Mapped[int] = mapped_column(Integer)
    #: the same logical message is queued once; adapters deliver each key exactly once
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime]
    sent_at: Mapped[datetime | None]
    attempts: Mapped[int] = mapped_column(Integer)
    last_error: Mapped[str | None] = mapped_column(Text)
    #: not before this moment (backoff after a failure)
    next_attempt_at: Mapped[datetime | None]
    #: delivery given up (kept for the inbox, never tried again)
    gave_up_at: Mapped[datetime | None]
    #: the adapter's keys of the messages it delivered (list of strings, JSON)
    delivered_keys: Mapped[str] = mapped_column(JSON)

    __table_args__ = (
        # pending(): WHERE sent_at IS NULL ORDER BY created_at, id
        Index(None, "sent_at", "created_at", "id"),
        Index(None, "game_id", "created_at", "id"),
        # a destination's unsent messages: the order per destination, a user's inbox
        Index(None, "dest_key", "sent_at", "created_at"),
        # pending(): does an earlier message of the destination wait for its next attempt? A
        # few rows at most, found at once whatever the planner knows of the table
        Index(
            "ix_outbox_waiting",
            "dest_key",
            "dest_kind",
            "created_at",
            sqlite_where=_WAITING,
            postgresql_where=_WAITING,
        ),
    )


class UserRow(Base):
    """The display name an adapter last saw for a user (the service's sentences use it)."""

    __tablename__ = "users"

    user_id: Mapped[str] = mapped_column(KEY, primary_key=True)
    display_name: Mapped[str] = mapped_column(String(200))
    updated_at: Mapped[datetime]


class ChannelMarkRow(Base):
    """The newest message an adapter had handled in a channel (a room or a DM channel), every
    message up to it included: on start it reads back only the channels that moved past it."""

    __tablename__ = "channel_marks"

    channel_key: Mapped[str] = mapped_column(KEY, primary_key=True)
    message_key: Mapped[str] = mapped_column(KEY)
    updated_at: Mapped[datetime]


class PlayerPaceRow(Base):
    """A player's pace (`PlayerPace`: reminders, absence, digest) as a document; the digest's
    hour apart, for the scheduler's query of the digests due."""

    __tablename__ = "player_pace"

    user_id: Mapped[str] = mapped_column(KEY, primary_key=True)
    data: Mapped[str] = mapped_column(JSON)
    digest_hour: Mapped[int | None] = mapped_column(Integer, index=True)
    updated_at: Mapped[datetime]


class AuditRow(Base):
    __tablename__ = "audit_log"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(ID, ForeignKey("games.id"))
    actor: Mapped[str] = mapped_column(KEY)
    action: Mapped[str] = mapped_column(String(80))
    detail: Mapped[str] = mapped_column(JSON)
    at: Mapped[datetime]

    __table_args__ = (Index(None, "game_id", "at", "id"),)


class LedgerRow(Base):
    __tablename__ = "ledger"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    player: Mapped[str] = mapped_column(KEY)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    points: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime]

    __table_args__ = (Index(None, "player", "at", "id"),)


class KeptValueRow(Base):
    """A small value a bot process keeps across starts, shared by every process of the bot
    (the hash of the slash commands last published, per application and guild)."""

    __tablename__ = "kept_values"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime]


class WebLinkRow(Base):
    """A link to a game's campaign page (`fappo_bot/web/`): the GM's link of the game
    (`user_id` NULL) or a player's own. Only the SHA-256 of its secret is kept; a rotated or
    replaced link keeps its row with `revoked_at` set, and is refused from then on."""

    __tablename__ = "web_links"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    game_id: Mapped[str] = mapped_column(ID, ForeignKey("games.id"))
    user_id: Mapped[str | None] = mapped_column(KEY)
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime]
    revoked_at: Mapped[datetime | None]

    __table_args__ = (Index(None, "game_id", "user_id"),)

"""The orders in force, per character of a turn, in a table of their own (`orders_in_force`).

A post reads the orders it replaces: found by ranking every order of the turn, that read grew with
each post already in the turn. The table keeps, per turn and character (its name case-folded),
the post whose orders are in force (F29 Amb-3: the last written valid orders of a live post) with
the times that rank it, so a post reads and writes a row per character it gives orders to,
however many posts came before it.

The table is filled from the posts already stored, so the turns open when the database is
upgraded keep their orders in force (and the turns resolved before, for whoever reads them).

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-02 11:00:00
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TIME = sa.DateTime(timezone=True)
_POSTS = sa.table(
    "posts",
    sa.column("id", sa.String),
    sa.column("turn_id", sa.String),
    sa.column("revision", sa.Integer),
    sa.column("deleted", sa.Boolean),
    sa.column("updated_at", _TIME),
)
_REVISIONS = sa.table(
    "post_revisions",
    sa.column("post_id", sa.String),
    sa.column("number", sa.Integer),
    sa.column("ok", sa.Boolean),
    sa.column("created_at", _TIME),
)
_ORDERS = sa.table(
    "orders",
    sa.column("post_id", sa.String),
    sa.column("revision", sa.Integer),
    sa.column("actor", sa.String),
)
_IN_FORCE = sa.table(
    "orders_in_force",
    sa.column("turn_id", sa.String),
    sa.column("actor_key", sa.String),
    sa.column("post_id", sa.String),
    sa.column("written_at", _TIME),
    sa.column("updated_at", _TIME),
)


def upgrade() -> None:
    op.create_table(
        "orders_in_force",
        sa.Column("turn_id", sa.String(length=64), nullable=False),
        sa.Column("actor_key", sa.String(length=200), nullable=False),
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["post_id"], ["posts.id"],
                                name=op.f("fk_orders_in_force_post_id_posts")),
        sa.ForeignKeyConstraint(["turn_id"], ["turns.id"],
                                name=op.f("fk_orders_in_force_turn_id_turns")),
        sa.PrimaryKeyConstraint("turn_id", "actor_key", name=op.f("pk_orders_in_force")),
    )
    _backfill(op.get_bind())


def _backfill(bind: Any) -> None:
    """Every turn's orders in force as the rule picks them: per character (case-folded), the
    newest revision of a live post that is valid and writes its orders, the newest by the
    revision's time, then the post's update time, then the post id."""
    written = bind.execute(
        sa.select(_POSTS.c.turn_id, _ORDERS.c.actor, _REVISIONS.c.created_at,
                  _POSTS.c.updated_at, _POSTS.c.id)
        .select_from(_POSTS)
        .join(_REVISIONS, sa.and_(_REVISIONS.c.post_id == _POSTS.c.id,
                                  _REVISIONS.c.number == _POSTS.c.revision))
        .join(_ORDERS, sa.and_(_ORDERS.c.post_id == _POSTS.c.id,
                               _ORDERS.c.revision == _POSTS.c.revision))
        .where(_POSTS.c.deleted.is_(False), _REVISIONS.c.ok.is_(True))
    ).all()
    last: dict[tuple[str, str], tuple[Any, Any, str]] = {}
    for turn_id, actor, written_at, updated_at, post_id in written:
        key = (turn_id, actor.casefold())
        rank = (written_at, updated_at, post_id)
        if key not in last or last[key] < rank:
            last[key] = rank
    rows = [{"turn_id": turn_id, "actor_key": actor_key, "post_id": post_id,
             "written_at": written_at, "updated_at": updated_at}
            for (turn_id, actor_key), (written_at, updated_at, post_id) in sorted(last.items())]
    if rows:
        bind.execute(_IN_FORCE.insert(), rows)


def downgrade() -> None:
    op.drop_table("orders_in_force")

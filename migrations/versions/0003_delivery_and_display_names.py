"""What the Discord adapter needs of storage (issue 11): several reply messages per post, an
outbox that backs off and gives up (next attempt, given up, the delivered messages' keys), and
the users' display names.

`posts.reply_key` (one key or none) becomes `posts.reply_keys` (a JSON list): a reply over
Discord's 2,000 characters is several messages, and an edit or a deletion must reach each. A
stored key is carried over.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 15:30:00
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_POSTS = sa.table(
    "posts",
    sa.column("id", sa.String),
    sa.column("reply_key", sa.String),
    sa.column("reply_keys", sa.JSON),
)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("user_id", sa.String(length=100), nullable=False),
        sa.Column("display_name", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_users")),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True),
                                      nullable=True))
        batch_op.add_column(sa.Column("gave_up_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("delivered_keys", sa.JSON(), nullable=False,
                                      server_default="[]"))
        batch_op.create_index(batch_op.f("ix_outbox_dest_key_sent_at_created_at"),
                              ["dest_key", "sent_at", "created_at"], unique=False)
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.alter_column("delivered_keys", server_default=None)

    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reply_keys", sa.JSON(), nullable=False,
                                      server_default="[]"))
    bind = op.get_bind()
    kept = bind.execute(
        sa.select(_POSTS.c.id, _POSTS.c.reply_key).where(_POSTS.c.reply_key.is_not(None))
    ).all()
    for post_id, key in kept:
        bind.execute(_POSTS.update().where(_POSTS.c.id == post_id).values(reply_keys=[key]))
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.alter_column("reply_keys", server_default=None)
        batch_op.drop_column("reply_key")


def downgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reply_key", sa.String(length=100), nullable=True))
    bind = op.get_bind()
    for post_id, keys in bind.execute(sa.select(_POSTS.c.id, _POSTS.c.reply_keys)).all():
        keys = json.loads(keys) if isinstance(keys, str) else keys  # the engine may give text
        if keys:
            bind.execute(_POSTS.update().where(_POSTS.c.id == post_id).values(reply_key=keys[0]))
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_column("reply_keys")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_dest_key_sent_at_created_at"))
        batch_op.drop_column("delivered_keys")
        batch_op.drop_column("gave_up_at")
        batch_op.drop_column("next_attempt_at")
    op.drop_table("users")

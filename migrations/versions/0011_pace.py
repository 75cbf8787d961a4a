"""The players' pace: how each player is reminded, when they are away, their daily digest
(`player_pace`, one row a player, the choices as a document and the digest's hour apart).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_pace",
        sa.Column("user_id", sa.String(length=100), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("digest_hour", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_pace")),
    )
    with op.batch_alter_table("player_pace", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_pace_digest_hour"), ["digest_hour"],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table("player_pace", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_pace_digest_hour"))
    op.drop_table("player_pace")

"""Channel marks: per channel (a game's room or a player's DM channel), the newest message the
bot had handled, every one before it included. On start the bot reads back only the channels
whose newest message moved past their mark. No mark is carried over: a channel without one is
read back once, as before.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channel_marks",
        sa.Column("channel_key", sa.String(length=100), nullable=False),
        sa.Column("message_key", sa.String(length=100), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("channel_key", name=op.f("pk_channel_marks")),
    )


def downgrade() -> None:
    op.drop_table("channel_marks")

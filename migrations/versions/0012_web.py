"""The links to the campaign pages (`web_links`): a game's GM link and each player's own, kept
as the SHA-256 of their secret; a rotated link keeps its row, revoked.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "web_links",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.String(length=100), nullable=True),
        sa.Column("secret", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_web_links_game_id_games")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_links")),
    )
    with op.batch_alter_table("web_links", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_web_links_game_id_user_id"), ["game_id", "user_id"],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table("web_links", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_web_links_game_id_user_id"))
    op.drop_table("web_links")

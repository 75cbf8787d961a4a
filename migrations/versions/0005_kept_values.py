"""Kept values: small values a bot keeps across starts, shared by its processes. The first is
the hash of the slash commands last published, so that a start publishes them only when they
changed. Nothing is carried over: the first start after this publishes them once, as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "kept_values",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_kept_values")),
    )


def downgrade() -> None:
    op.drop_table("kept_values")

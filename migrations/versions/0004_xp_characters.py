"""Xp characters (issue 13): an Xp game's character keeps its Xp sheet (characteristics, skills,
Passions, Flaws, Luck, plot points) as a JSON document in `characters.xp`, NULL for a FAPPO
character. Nothing is carried over: no stored character is an Xp one yet.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 18:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.add_column(sa.Column("xp", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.drop_column("xp")

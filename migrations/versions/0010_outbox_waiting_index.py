"""A partial index of the outbox messages waiting for their next attempt (`ix_outbox_waiting`).

`pending()` skips a message while an earlier one of its destination waits for a retry: a probe,
for every pending message, of the messages waiting. On PostgreSQL, before the server has the
table's statistics (a freshly filled table, until autovacuum's ANALYZE), the planner scanned
every unsent message for each one: a round of the delivery loop grew with the square of the
messages pending. The waiting messages are few; their own index answers the probe at once, with
or without statistics.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02 16:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_WAITING = "sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at IS NOT NULL"


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index("ix_outbox_waiting", ["dest_key", "dest_kind", "created_at"],
                              unique=False, sqlite_where=sa.text(_WAITING),
                              postgresql_where=sa.text(_WAITING))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_outbox_waiting")

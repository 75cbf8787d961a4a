"""PostgreSQL: compress the large JSON documents (resolutions, characters) with lz4, not pglz.

A resolution keeps what undo needs: the orders, the result and the states around it, about 500 kB
of JSON for a 60-combatant turn. PostgreSQL compresses values that large (TOAST) with pglz by
default; lz4 compresses them about as well in a fraction of the time (a 460 kB document: 10 ms to
insert with pglz, 6 ms with lz4, measured on this project's machine). Servers built without lz4
(or before PostgreSQL 14) keep pglz. SQLite has nothing to change. Compression is not part of
the schema SQLAlchemy compares, so the models need no change.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 22:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the large documents: a resolution's, and a character's sheet and state (about 1 kB each, so
#: a character row is just over PostgreSQL's 2 kB TOAST threshold and one of them is compressed
#: on every update)
COLUMNS = {
    "resolutions": ("orders", "result", "state_before", "state_after", "characters_before"),
    "characters": ("sheet", "state"),
}


def _set_compression(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    methods = bind.execute(
        sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    ).scalar()
    if not methods or method not in methods:  # before 14, or built without lz4
        return
    for table, names in COLUMNS.items():
        for name in names:
            op.execute(f'ALTER TABLE {table} ALTER COLUMN "{name}" SET COMPRESSION {method}')


def upgrade() -> None:
    _set_compression("lz4")


def downgrade() -> None:
    _set_compression("pglz")

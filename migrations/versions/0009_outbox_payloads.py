"""Outbox messages carry their data: `outbox.payload` (JSON, the notice's fields the adapters
render the message from) and `outbox.part` of `outbox.parts` (a long text is queued as several
messages; an adapter adds what it says of the whole message after the last).

Rows written before hold their text alone: their payload stays NULL (they are delivered as their
text) and each is part 1 of 1, except the NPC reveals, which the adapters give their own command
to check: the part of a reveal that says how to check gets its turn, commitment, salt and the
orders it shows from its text, read here once, so that it is delivered exactly as before.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 15:00:00
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OUTBOX = sa.table(
    "outbox",
    sa.column("id", sa.String),
    sa.column("kind", sa.String),
    sa.column("content", sa.Text),
    sa.column("payload", sa.JSON),
)

#: the wording of a reveal's last lines as the service wrote it before payloads
_HOW_TO_CHECK = re.compile(
    r"(?:^|\n)Commitment \(SHA-256\): (?P<commitment>[^\n]*)\nSalt: (?P<salt>[^\n]*)\n"
    r"How to check: ask the bot to reveal the canonical JSON of turn (?P<turn>\d+)'s")
_HEADING = re.compile(r"^NPC orders of turn \d+, as sealed before the players' orders were "
                      r"revealed:\n")
_NO_ORDERS = "(no NPC orders this turn)"


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("payload", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("part", sa.Integer(), nullable=False, server_default="1"))
        batch_op.add_column(sa.Column("parts", sa.Integer(), nullable=False, server_default="1"))
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.alter_column("part", server_default=None)
        batch_op.alter_column("parts", server_default=None)
    _backfill(op.get_bind())


def reveal_payload(content: str) -> dict[str, Any] | None:
    """The payload of a reveal written before payloads, read from its text: None for a part
    that does not say how to check (an earlier part of a long reveal: it had no command)."""
    found = _HOW_TO_CHECK.search(content)
    if found is None:
        return None
    shown = _HEADING.sub("", content[:found.start()], count=1)
    orders = [] if shown in ("", _NO_ORDERS) else [shown]
    return {"turn": int(found["turn"]), "commitment": found["commitment"],
            "salt": found["salt"], "orders": orders}


def _backfill(bind: Any) -> None:
    reveals = bind.execute(sa.select(_OUTBOX.c.id, _OUTBOX.c.content)
                           .where(_OUTBOX.c.kind == "revealed")).all()
    for message_id, content in reveals:
        payload = reveal_payload(content)
        if payload is not None:
            bind.execute(_OUTBOX.update().where(_OUTBOX.c.id == message_id)
                         .values(payload=payload))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("parts")
        batch_op.drop_column("part")
        batch_op.drop_column("payload")

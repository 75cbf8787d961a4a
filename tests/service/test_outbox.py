"""The outbox: messages committed with the change they report, delivered and marked sent."""

from __future__ import annotations

import pytest

from fappo_bot.service import NotFound
from tests.service.conftest import GM


async def test_pending_messages_are_delivered_once(services, table):
    game = table["game"]
    await services.resolution.resolve(game, GM)
    pending = await services.outbox.pending()
    assert [m.kind for m in pending][:1] == ["turn_opened"]
    assert {"results", "turn_opened"} <= {m.kind for m in pending}
    results = next(m for m in pending if m.kind == "results")
    await services.outbox.mark_failed(results.id, "discord is down")
    again = next(m for m in await services.outbox.pending() if m.id == results.id)
    assert again.attempts == 1 and again.last_error == "discord is down"
    for message in pending:
        await services.outbox.mark_sent(message.id)
    await services.outbox.mark_sent(results.id)  # idempotent
    assert await services.outbox.pending() == []
    sent = await services.outbox.for_game(game)
    assert all(m.sent_at is not None for m in sent)
    with pytest.raises(NotFound):
        await services.outbox.mark_sent("nope")

"""Delivering the outbox at the table: the service's queued messages, shown to their seats.

The Discord adapter sends each pending message to its channel or as a DM and marks it sent; the
table does the same for its own games (channel keys `table:...`): a channel message is shown to
every seat, a DM only to the seat of that user (F29: private results stay private). Each message
is rendered from its kind and payload by `rendering.rendered`.
"""

from __future__ import annotations

from fappo_bot.console.rendering import rendered
from fappo_bot.console.seats import Shown, only
from fappo_bot.console.table import LocalTable
from fappo_bot.service.records import DestinationKind


async def deliver_outbox(table: LocalTable) -> list[Shown]:
    """Show and mark sent every pending message of the table's games, oldest first. The table is
    its own scheduler too: reminders and deadlines that are due fire first (F30 call time)."""
    await table.services.calltime.fire_due()
    await table.services.pace.send_digests()
    games = {g.id: g for g in await table.services.table_games()}
    shown: list[Shown] = []
    #: what the channel was shown in this delivery, by game: a DM that only repeats it (call
    #: time, sent to the GMs by DM too, for Discord) is not shown twice at one table
    in_channel: set[tuple[str, str]] = set()
    for message in await table.services.outbox.pending():
        game = games.get(message.game_id or "")
        if game is None:
            continue  # a Discord game sharing the database: its bot delivers it
        shown_as = rendered(message)
        title = shown_as.title
        if game.id != table.game_id:
            title = f"{title} ({game.name})"
        audience = None
        if message.dest_kind is DestinationKind.CHANNEL:
            in_channel.add((game.id, message.content))
        elif (game.id, message.content) in in_channel:
            await table.services.outbox.mark_sent(message.id)
            continue
        if message.dest_kind is DestinationKind.DM:
            table.book.add(message.dest_key)
            audience = only(message.dest_key)
            title = f"DM · {title}"
        shown.append(Shown(shown_as.kind, title, shown_as.text, audience))
        await table.services.outbox.mark_sent(message.id)
    return shown

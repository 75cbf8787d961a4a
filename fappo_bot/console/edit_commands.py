"""Table commands that change a character the GM's way: /editsheet NAME [FILE] (a new sheet,
checked, the character's state kept; `/char edit` on Discord)."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import Step


async def editsheet(table: LocalTable, step: Step) -> list[Shown]:
    """/editsheet NAME [FILE]: a GM replaces the character's sheet with a YAML file (or the
    sheet on the next lines), checked like a new one; its wounds, spent SP, statuses and
    banked CC stay, and the GM is shown what changed."""
    if not step.args:
        raise TableError("/editsheet needs the character and its new sheet: /editsheet Kael "
                         "kael.yaml (or the sheet on the next lines).")
    game_id = table.need_game()
    name, file = step.args[0], (step.args[1] if len(step.args) > 1 else None)
    # a player is told only that GMs edit sheets, before the sheet is read
    await table.services.games.require_gm(game_id, table.user)
    data = table.sheet_data(step, file)
    reply = await table.services.characters.edit_from_data(game_id, table.user, name, data)
    if not reply.ok or reply.character is None:
        body = f"{name}'s sheet was not accepted:\n" + "\n".join(
            f"  - {table.for_seat(p)}" for p in reply.problems)
        return [Shown(Kind.ERROR, "sheet refused", body, only(table.seat))]
    await table.refresh_seats()
    edited = reply.character.name
    body = (f"{edited}'s sheet is unchanged." if not reply.changes else "\n".join(
        [f"{edited}'s sheet is edited (its state is kept):",
         *(f"  - {line}" for line in reply.changes)]))
    return [Shown(Kind.NOTICE, f"sheet edited: {edited}", body, only(table.seat))]

"""/link at the table: the campaign page's link (docs/discord.md, "The campaign page"), as
`/game link` and `/me link` give it on Discord. A GM seat gets the game's link (`--rotate`: a
new one, the old one refused from then on); a player seat its own, with its private results.
The page itself is served by the bot, or by `fappo-bot web` on the table's database."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import Step


async def link(table: LocalTable, step: Step) -> list[Shown]:
    """/link [--rotate]"""
    unknown = [a for a in step.args if a != "--rotate"]
    if unknown:
        raise TableError(f"/link takes no {unknown[0]!r}: /link, or /link --rotate (a GM: a new "
                         "link, the old one stops working).")
    site = table.services.web
    game_id = table.need_game()
    if table.user in table.gm_seats:
        game, token = await site.links.link(game_id, table.user,
                                            rotate="--rotate" in step.args)
        text = (f'The campaign page of "{game.name}" (what the room has seen): '
                f"{site.url(token)}")
    else:
        if "--rotate" in step.args:
            raise TableError("Only a GM rotates the game's link; your own link stays yours.")
        game, token = await site.links.player_link(game_id, table.user)
        text = f'Your own link to the campaign page of "{game.name}": {site.url(token)}'
    served = " (serve it with fappo-bot web)" if not site.served else ""
    return [Shown(Kind.INFO, "link", text + served, only(table.seat))]

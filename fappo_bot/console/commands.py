"""The table's command table: every command name, the slash command's and the table's own, and
the handler it runs. Written out here, in one place, rather than registered by each command
module as it is imported: what the table can do reads top to bottom, and nothing depends on which
modules happen to have been imported."""

from __future__ import annotations

from types import MappingProxyType

from fappo_bot.console import advance_commands as advancing
from fappo_bot.console import edit_commands as edits
from fappo_bot.console import game_commands as games
from fappo_bot.console import help_command, link_command
from fappo_bot.console import legendary_commands as legendary
from fappo_bot.console import pace_commands as pace
from fappo_bot.console import scene_commands as scenes
from fappo_bot.console import trait_commands as traits
from fappo_bot.console import turn_commands as turns
from fappo_bot.console import xp_commands as xp
from fappo_bot.console.delivery import deliver_outbox
from fappo_bot.console.table import Handler, Handlers

COMMANDS: MappingProxyType[str, Handler] = MappingProxyType({
    # games, seats and characters
    "newgame": games.newgame,
    "addchar": games.addchar,
    "sheet": games.sheet,
    "enemy": games.enemy,
    "group": games.enemy,
    "transfer": games.transfer,
    "retire": games.retire,
    "editsheet": edits.editsheet,
    "handover": legendary.handover,
    "items": legendary.items,
    "bind": legendary.bind,
    "games": games.games,
    "use": games.use,
    "seats": games.seats,
    "settings": games.settings,
    "set": games.set_,
    "trait": traits.trait,
    "who": games.seats,
    "help": help_command.help_,
    "quit": games.quit_,
    # turns
    "open": turns.open_turn,
    "npc": turns.npc,
    "pass": turns.pass_turn,
    "status": turns.status,
    "edit": turns.edit,
    "delete": turns.delete,
    "calltime": turns.calltime,
    "extend": turns.extend,
    "pause": turns.pause,
    "resume": turns.pause,
    "review": turns.review,
    "resolve": turns.resolve,
    "undo": turns.undo,
    "reveal": turns.reveal,
    # a seat's own pace (Discord's /me)
    "remind": pace.remind,
    "away": pace.away,
    "back": pace.back,
    "digest": pace.digest,
    # between fights, and around games
    "advance": scenes.advance,
    "endcombat": scenes.endcombat,
    "endscene": scenes.endscene,
    "rest": scenes.endscene,
    "endadventure": scenes.endadventure,
    "spend": advancing.spend,
    "approve": advancing.approve,
    "refuse": advancing.refuse,
    "changes": advancing.changes,
    "ledger": advancing.ledger,
    "export": scenes.export,
    "import": scenes.import_,
    "link": link_command.link,
    # Xp dice pools
    "odds": xp.odds,
    "xp": xp.xp,
})

HANDLERS = Handlers(
    commands=COMMANDS,
    post=turns.post,
    answer=turns.answer,
    deliver=deliver_outbox,
)
"""What the table does with each step (`LocalTable.perform`)."""

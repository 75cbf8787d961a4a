"""`/help`: the bot's help by topic (playing a turn, secret orders, the GM's turn, settings, Xp,
every command), each a short page with an example; without a topic, the list of topics and
every command in one line. In an Xp game's room the pages give the Xp post forms."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from fappo_bot.discord.commands.base import say
from fappo_bot.posting_xp import XP_POST_FORMS

COMMANDS = """\
`/game create|show|player|gm|remove|settings|set|status|ledger|link` · \
`/char add|new|enemy|sheet|manage|edit|advance|bind` · \
`/turn open|status|pass|line|orders|calltime|extend|pause|resume` · \
`/gm npc|resolve|undo|rest|advance|endadventure|handover|items|export` · `/me remind|away|back|digest|link` (how \
you are reminded, your absences, a daily digest, your link to the campaign page) · `/reveal turn:N` (a resolved turn's \
sealed NPC orders, checked against their commitment) · `/inbox` (private messages the bot could \
not DM you)
Xp games (`/game create ruleset:Xp`): `/odds 6d superior` (anyone) · \
`/xp roll|passive|active|group|rolls|show|case` · `/xp plot open|auto|play|surprise|show` (GMs)"""

TURN = """\
**Playing a turn**
Post in the game's room: your story as prose, and one mechanics line per action, each starting \
with the AP it costs. The bot answers with your orders as it reads them, or with every problem \
and its line; edit your post to fix it, and the answer follows the edit. Example:
```
Kael presses the lieutenant.
2 AP attack Skarg with Broadsword
1 AP defend
```
`/turn line` writes one line from your sheet; `/turn pass` takes no action this turn; \
`/char sheet` shows your character. The whole language: the players' guide (docs/players.md)."""

SECRET = """\
**Secret orders**
Orders against another player's character go to the bot by direct message (or through \
`/turn orders`, a private form, when your DMs are closed). The room only learns that sealed \
orders arrived; they are shown with the results. Example, as a DM to the bot:
```
2 AP Stealth: slip behind Skarg unseen
1 AP defend
```
In two games with an open turn, the bot asks which game they are for. Every DM the bot sends \
you names its game and links its room; `/inbox` shows what it could not send you."""

GM = """\
**The GM's turn**
1. `/turn open` opens the turn (the room is told).
2. `/gm npc` gives the NPC orders: sealed at once, the room sees their commitment.
3. `/turn calltime in:1d` gives the players a day (or `at:Fri 20:00`, in the game's time zone; \
no option: time is called now); \
`/turn status` shows who is in, `/turn extend`, `/turn pause` and `/turn resume` move the clock.
4. `/gm resolve` asks what the rules leave to you, one question at a time, then resolves; \
`/gm undo` takes the last resolution back exactly.
5. Between turns: `/gm rest gap:night`, `/gm advance by:2d` (two days heal wounds), \
`/gm endadventure award:2`. Example of a turn: `/turn open`, then `/gm npc`, then \
`/turn calltime in:1h`. The whole guide: docs/gm.md."""

SETTINGS = """\
**Settings**
`/game settings` lists every setting and rules flag with its value and what it does; a GM \
changes one with `/game set`, e.g. `/game set name:reminders value:12h, 1h` or \
`/game set name:results_visibility value:public`. `/game show` is the game, its GMs and \
players; a GM adds people with `/game player` and `/game gm`, and pauses or ends the game with \
`/game status`."""

XP = """\
**Xp games**
A GM starts one with `/game create name:… ruleset:Xp`; players post rolls, one a line, and the \
GM resolves them as any turn. Anyone may ask the odds: `/odds 6d superior`. The GM rolls in the \
open with `/xp roll`, `/xp passive`, `/xp active` and `/xp group`, and runs PLOTs with \
`/xp plot`. Example post:
```
Nefer slips past the guard.
roll Stealth against Guard
```"""

#: the topics, by the value of the `topic` option: (its name in the menu, its page)
PACE = """\
**Reminders, absences and times**
Every time the bot shows is in your own time zone. Before a deadline the bot reminds whoever has \
not posted, the way each player chose: `/me remind how:dm` (a direct message naming the game, \
with a link to its room), `how:ping` (a mention in the room) or `how:none`; add `game:` for one \
game only. Going away? `/me away from:2026-12-20 to:2027-01-03` (or `to:3d`): the board shows \
you away, your character follows the game's absence setting, and it counts as no missed turn; \
`/me back` ends it. `/me digest state:on hour:8` sends one DM a day listing every game waiting \
for your orders. GMs: `/turn calltime in:48h` or `at:Fri 20:00` (the game's zone, \
`/game set name:timezone value:Europe/Berlin`)."""

TOPICS: dict[str, tuple[str, str]] = {
    "turn": ("Playing a turn", TURN),
    "secret": ("Secret orders", SECRET),
    "gm": ("The GM's turn", GM),
    "settings": ("Settings", SETTINGS),
    "pace": ("Reminders, absences and times", PACE),
    "xp": ("Xp games", XP),
    "commands": ("Every command", f"**Every command**\n{COMMANDS}"),
}

INDEX = ("**FAPPO Bot**: post your turn in the game's room as prose with mechanics lines; the "
         "bot answers with your orders (or every problem, with its line), and follows your "
         "edits.\nTopics, with an example each: "
         + " · ".join(f"`/help topic:{key}` ({name.lower()})" for key, (name, _) in
                      TOPICS.items())
         + f"\n{COMMANDS}")


def help_page(topic: str | None, xp_room: bool) -> str:
    """The page of `topic` (None: the index); in an Xp game's room, the pages on posting
    give the Xp post forms too."""
    text = INDEX if topic is None or topic not in TOPICS else TOPICS[topic][1]
    if xp_room and topic in (None, "turn", "secret", "xp"):
        text = f"{text}\n```\n{XP_POST_FORMS}\n```"
    return text


@app_commands.command(name="help", description="How to play with the bot, by topic, with "
                      "examples")
@app_commands.describe(topic="What to read about (leave it out for the list of topics)")
@app_commands.choices(topic=[app_commands.Choice(name=name, value=key)
                             for key, (name, _) in TOPICS.items()])
async def help_command(interaction: discord.Interaction, topic: str | None = None) -> None:
    """The page of a topic, privately; in an Xp game's room, the Xp post forms too."""
    bot: Any = interaction.client
    channel = interaction.channel
    game_id = await bot.rooms.game_id(str(channel.id)) if channel is not None else None
    xp_room = game_id is not None and (await bot.services.games.show(game_id)).dice_pools
    await say(interaction, help_page(topic, xp_room), private=True)

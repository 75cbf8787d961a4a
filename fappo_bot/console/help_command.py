"""The table's `/help [TOPIC]`: the pages of `render/help.py` (the bot's `/help topic:` words
the same pages) in the table's commands, and the list of every command of the table. A topic
that is none is answered with the nearest one and the list."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import Step
from fappo_bot.console.xp_commands import XP_HELP
from fappo_bot.posting_xp import XP_POST_FORMS
from fappo_bot.render import help as pages

#: every command of the table with its options (a test holds it to `console/commands.py`)
COMMAND_LIST = """\
Type a post exactly as in the channel; end it with a blank line or a lone '.'
(/post ... . for a post with blank lines inside).
  /as NAME              change seat (gm, a player, or a character's name)
  /dm TEXT              secret orders (a DM to the bot), ended like a post
  /edit N, /delete N    edit (new text on the next lines) or delete your message #N
  /pass [NAME]          no action this turn
  /spend NAME CHANGE    spend banked CC (Stealth +1, Nimble +2 SP, trait Tireless, AP +1, ...)
  /ledger [SEAT]        tournament CC earned across games
  /bind NAME ITEM [--sacrifice WHAT]   bind a legendary item your character holds (F22)
  /status, /seats (or /who), /games, /use GAME, /settings, /help [TOPIC], /quit
  /remind dm|ping|none [--game G]   /away [--from WHEN] [--to WHEN]   /back
  /digest on|off [--hour H]   (your own pace; WHEN: 2026-12-05, "Fri 18:00" or 3d, UTC)
  /link                 your own link to the campaign page (a GM: the game's; --rotate: a new one)
GM commands (the slash commands' names and options):
  /newgame NAME [--players A B] [--gms G] [--ruleset fappo|xp]   /addchar FILE --player P   /sheet FILE
  /addchar FILE --new-player P   /transfer NAME PLAYER [--for-now]   /retire NAME
  /editsheet NAME [FILE]   a new sheet for a character (its wounds, spent SP, banked CC kept)
  /enemy FILE   /group FILE [--count N]   (a sheet: a YAML file, or the lines that follow)
  /open   /npc (NPC orders on the next lines; sealed at once)   /calltime [MINUTES]
  /npc --next           the next turn's NPC orders, sealed before this turn's results (F30)
  /extend MINUTES   /pause   /resume   /review [NAME...]   /resolve [--all]   /undo
  /endcombat [off]      this turn's resolution ends the combat (Bleeding drops, F18.2)
  /reveal N             the sealed NPC orders of turn N as hashed (check the commitment)
  /endscene BREAK [NAME:TRAIT=N,...] (also /rest)   /endadventure [AWARD] [NAME=N]
  /advance DURATION [--check PATIENT=TOTAL[:HEALER[:TRAIT=N]]]   (DURATION: 90s, 10m, 2h, 2d, 1w)
  /approve NAME   /refuse NAME   /changes   (players' CC changes waiting for a GM)
  /handover ITEM CHARACTER [--owner NAME]   /items   (legendary items changing hands, F22)
  /export FILE   /import FILE [--copy]
  /set NAME VALUE       change a setting or rules flag (/settings lists them)
  /trait add NAME [--aliases A,B] [--skills S1,S2]   /trait remove NAME   /trait list
  BREAK: immediate, same_day, night, week_plus, adventure_end
Review questions (/resolve, /review NAME): answer at the prompt ('> ANSWER' in a transcript);
an empty answer keeps an optional question's default.
Assertions (transcripts): ?expect TEXT, ?expect-not TEXT
"""
COMMAND_LIST += XP_HELP

#: the words of the help pages at the table (`render/help.py`, `FIELDS`)
WORDS: dict[str, str] = {
    "post_where": "Type your post at your seat, ended with a blank line or a lone '.'",
    "edit_how": "fix it with /edit N (message #N; the new text on the next lines)",
    "line_tool": "",
    "pass": "/pass",
    "sheet": "/status",
    "secret_how": "as a DM: /dm and the orders, ended like a post",
    "secret_lead": "typed at your seat",
    "dm": "/dm ",
    "secret_tail": "A DM and its reply are shown to your seat only; the other seats are told "
                   "that a private message for another seat is not shown.",
    "open": "/open",
    "npc": "/npc",
    "calltime_in": "/calltime 1d",
    "calltime_at": "/calltime at Fri 20:00",
    "calltime_now": "no duration",
    "status": "/status",
    "extend": "/extend",
    "pause": "/pause",
    "resume": "/resume",
    "resolve": "/resolve",
    "undo": "/undo",
    "rest": "/endscene night",
    "advance": "/advance 2d",
    "endadventure": "/endadventure 2",
    "gm_example": "/open\n/npc   (the NPC orders on the next lines, each NPC's name in bold as "
                  "in the channel; sealed at once)\n/calltime 1h\n/resolve",
    "trait_add": "/trait add Keen-eyed --aliases Sharp --skills Lookout",
    "trait_list": "/trait list",
    "trait_remove": "/trait remove Keen-eyed",
    "settings": "/settings",
    "set": "/set",
    "set_reminders": "/set reminders 12h, 1h",
    "set_visibility": "/set results_visibility public",
    "set_layout": "/set results_layout embeds",
    "layout_where": "that is the Discord room's: the table shows results its own way",
    "show": "/seats is the game's GMs and players and their characters, /games every game of "
            "the table",
    "people": "a GM names the players with /newgame NAME --players A B (and the GMs with "
              "--gms G), or adds one with /addchar FILE --new-player P.",
    "times": "Your own times at the table are in UTC (2026-12-05, \"Fri 18:00\" or 3d); a "
             "game's deadlines are in its time zone.",
    "remind_dm": "/remind dm",
    "remind_dm_is": "a private message to your seat",
    "remind_ping": "/remind ping",
    "remind_none": "/remind none",
    "remind_game": "--game G",
    "away": "/away --from 2026-12-20 --to 2027-01-03",
    "away_days": "--to 3d",
    "board": "/status",
    "back": "/back",
    "digest": "/digest on --hour 8",
    "calltime_48h": "/calltime 48h",
    "set_timezone": "/set timezone Europe/Berlin",
    "xp_new": "/newgame NAME --ruleset xp",
    "odds": "/odds 6d superior",
    "xp_roll": "/xp roll",
    "xp_passive": "/xp passive",
    "xp_active": "/xp active",
    "xp_group": "/xp group",
    "xp_plot": "/xp plot",
    "index_post": "type a post at your seat as prose with mechanics lines, as in the channel",
}

VOICE = pages.HelpVoice(
    words=WORDS, example=lambda text: "\n".join(f"  {line}" for line in text.splitlines()),
    topic=lambda key: f"/help {key}")

#: what the table shows when it starts and for a lone "?": the topics and every command
HELP = pages.index(VOICE, COMMAND_LIST)


async def help_(table: LocalTable, step: Step) -> list[Shown]:
    """/help [TOPIC]: a topic's page (none: the topics and every command); in an Xp game, the
    pages on posting give the Xp post forms too; a topic that is none, the nearest and the
    list. A player's help says no rule code (a GM's keeps them)."""
    asked = " ".join(step.args)
    topic = pages.find_topic(asked) if asked else None
    if asked and topic is None:
        raise TableError(pages.unknown_topic(VOICE, asked))
    text = HELP if topic is None else pages.page(VOICE, topic, COMMAND_LIST)
    if topic in pages.POST_FORM_TOPICS and table.game_id is not None:
        view = await table.services.games.show(table.game_id)
        if view.dice_pools:
            text = f"{text}\n{XP_POST_FORMS}"
    return [Shown(Kind.INFO, "help", table.for_seat(text), only(table.seat))]

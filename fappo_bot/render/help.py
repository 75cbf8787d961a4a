"""The help by topic, for every adapter: playing a turn, secret orders, the GM's turn, settings,
reminders and absences, Xp games, every command. The pages are written once, here, as templates
whose fields are the commands and the few clauses an adapter words its own way (`/turn open` on
Discord is `/open` at the table; a DM on Discord is `/dm` at the table), so the bot's `/help` and
the table's cannot say different things. Each adapter supplies a `HelpVoice`: its words for every
field (`FIELDS`), in its own markup, how it shows an example and how its `/help` of a topic is
typed; a voice that lacks a field fails its test, not a player's `/help`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from string import Formatter

from fappo_bot.posting.safety import ELLIPSIS, safe
from fappo_bot.spelling import nearest

TURN = """\
**Playing a turn**
{post_where}: your story as prose, and one mechanics line per action, each starting with the AP \
it costs. The bot answers with your orders as it reads them, or with every problem and its line; \
{edit_how}, and the answer follows the edit. Example:
{example}
{line_tool}{pass} takes no action this turn; {sheet} shows your character. The whole language: \
the players' guide (docs/players.md)."""

TURN_EXAMPLE = """\
Kael presses the lieutenant.
2 AP attack Skarg with Broadsword
1 AP defend"""

SECRET = """\
**Secret orders**
Orders against another player's character go to the bot {secret_how}. The room only learns \
that sealed orders arrived; they are shown with the results. Example, {secret_lead}:
{example}
{secret_tail}"""

SECRET_EXAMPLE = """\
{dm}2 AP Stealth: slip behind Skarg unseen
1 AP defend"""

GM = """\
**The GM's turn**
1. {open} opens the turn (the room is told).
2. {npc} gives the NPC orders: sealed at once, the room sees their commitment.
3. {calltime_in} gives the players a day (or {calltime_at}, in the game's time zone; \
{calltime_now}: time is called now); {status} shows who is in, {extend}, {pause} and {resume} \
move the clock.
4. {resolve} asks what the rules leave to you, one question at a time, then resolves; \
{undo} takes the last resolution back exactly.
5. Between turns: {rest}, {advance} (two days heal wounds), {endadventure}.
The game's own Traits, beside the rulebook's ten: {trait_add} adds one with its alternate names \
and the skills it suggests; {trait_list} lists every Trait, {trait_remove} takes one off while \
no sheet has it. Sheets and advancement buy it at the rulebook's prices. Example of a turn:
{example}
The whole guide: docs/gm.md."""

SETTINGS = """\
**Settings**
{settings} lists every setting and rules flag with its value and what it does; a GM changes \
one with {set}, e.g. {set_reminders} or {set_visibility}. How the room reads a turn's \
results: {set_layout} gives a section each in embeds, text (the default) suits every reader, a \
screen reader included; {layout_where}. {show}; {people}"""

PACE = """\
**Reminders, absences and times**
{times} Before a deadline the bot reminds whoever has not posted, the way each player chose: \
{remind_dm} ({remind_dm_is}), {remind_ping} (a mention in the room) or {remind_none}; add \
{remind_game} for one game only. Going away? {away} (or {away_days}): {board} shows you away, \
your character follows the game's absence setting, and it counts as no missed turn; {back} \
ends it. {digest} sends one DM a day listing every game waiting for your orders. GMs: \
{calltime_48h} or {calltime_at} (the game's zone, {set_timezone}). Example:
{example}"""

PACE_EXAMPLE = "{away}\n{back}"

XP = """\
**Xp games**
A GM starts one with {xp_new}; players post rolls, one a line, and the GM resolves them as any \
turn. Anyone may ask the odds: {odds}. The GM rolls in the open with {xp_roll}, {xp_passive}, \
{xp_active} and {xp_group}, and runs PLOTs with {xp_plot}. Example post:
{example}"""

XP_EXAMPLE = """\
Nefer slips past the guard.
roll Stealth against Guard"""

COMMANDS = "**Every command**\n{commands}"

#: the topics, by the word that asks for one: (its name, its page, its example: a template of
#: plain fields, or the field that holds the adapter's own example)
TOPICS: dict[str, tuple[str, str, str]] = {
    "turn": ("Playing a turn", TURN, TURN_EXAMPLE),
    "secret": ("Secret orders", SECRET, SECRET_EXAMPLE),
    "gm": ("The GM's turn", GM, "{gm_example}"),
    "settings": ("Settings", SETTINGS, ""),
    "pace": ("Reminders, absences and times", PACE, PACE_EXAMPLE),
    "xp": ("Xp games", XP, XP_EXAMPLE),
    "commands": ("Every command", COMMANDS, ""),
}
#: the pages that give a dice-pool game's post forms after their own words, in its room (the
#: index, None, and the pages on posting): both adapters add them to the same pages
POST_FORM_TOPICS: tuple[str | None, ...] = (None, "turn", "secret", "xp")

INDEX = """\
**FAPPO Bot**: {index_post}; the bot answers with your orders (or every problem, with its \
line), and follows your edits.
Topics, with an example each: {topics}
{commands}"""


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(template) if name}


#: every field a voice words: the pages', their examples' and the index's (`commands`, the
#: adapter's list of its commands, `example` and `topics` are filled here)
FIELDS: frozenset[str] = frozenset(
    set().union(*(_fields(page) | _fields(example) for _, page, example in TOPICS.values()),
                _fields(INDEX))
    - {"commands", "example", "topics"})


@dataclass(frozen=True)
class HelpVoice:
    """An adapter's words for the help: `words`, every field of `FIELDS` in its own markup
    (inside an example, without its code marks); `example`, how it shows an
    example (Discord's code block, the table's indented lines); `topic`, how its `/help` of a
    topic is typed (`/help topic:turn`, `/help turn`)."""

    words: Mapping[str, str]
    example: Callable[[str], str]
    topic: Callable[[str], str]


def topic_list(voice: HelpVoice) -> str:
    """The topics as the adapter's `/help` of each, with its name."""
    return " · ".join(f"{voice.topic(key)} ({name})"
                      for key, (name, _, _) in TOPICS.items())


def page(voice: HelpVoice, topic: str, commands: str) -> str:
    """The page of `topic` (a key of `TOPICS`), in the adapter's words; `commands`, the
    adapter's list of its commands, is the page of `commands`. An example shows its commands
    as typed: without the code marks their words have in prose."""
    _, template, example = TOPICS[topic]
    typed = {key: text.replace("`", "") for key, text in voice.words.items()}
    shown = voice.example(example.format_map(typed)) if example else ""
    return template.format_map({**voice.words, "example": shown, "commands": commands})


def index(voice: HelpVoice, commands: str) -> str:
    """`/help` without a topic: what the bot does, the topics and every command."""
    return INDEX.format_map({**voice.words, "topics": topic_list(voice), "commands": commands})


def find_topic(word: str) -> str | None:
    """The topic `word` asks for: its key or its name, in any case (`GM`, `secret orders`),
    or as the bot's option is typed (`topic:gm`); None when it is no topic."""
    wanted = " ".join(word.casefold().split()).removeprefix("topic:").strip()
    for key, (name, _, _) in TOPICS.items():
        if wanted in (key, name.casefold()):
            return key
    return None


def unknown_topic(voice: HelpVoice, word: str) -> str:
    """The answer to a `/help` of no topic: the nearest topic, if one is near, and the list."""
    wanted = " ".join(word.casefold().split())
    names = {name.casefold(): key for key, (name, _, _) in TOPICS.items()}
    near = nearest(wanted, [*TOPICS, *names], 1)
    guess = f" Did you mean {voice.topic(names.get(near[0], near[0]))}?" if near else ""
    shown = safe(word if len(word) <= 40 else word[:39] + ELLIPSIS)
    return f'There is no help topic "{shown}".{guess} The topics: {topic_list(voice)}.'

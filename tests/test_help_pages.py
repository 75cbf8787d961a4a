"""The help by topic (`render/help.py`), one set of pages in two voices: the bot's and the
table's. Each voice words every field of the pages and no other; both adapters' pages say the
same thing where the commands do not differ; a topic that is none gets the nearest; and each
adapter's list of its commands is held to the commands it really has."""

from __future__ import annotations

import asyncio
import re
from string import Formatter
from types import SimpleNamespace

import pytest
from discord import app_commands

from fappo_bot.console.commands import COMMANDS as TABLE_COMMANDS
from fappo_bot.console.help_command import COMMAND_LIST, HELP
from fappo_bot.console.help_command import VOICE as TABLE
from fappo_bot.console.transcript import COMMANDS as TRANSCRIPT_COMMANDS
from fappo_bot.discord.commands import add_commands
from fappo_bot.discord.commands.help import VOICE as DISCORD
from fappo_bot.discord.commands.help import command_list
from fappo_bot.render import help as pages

pytestmark = pytest.mark.unit

VOICES = {"discord": DISCORD, "table": TABLE}


@pytest.mark.parametrize("name", VOICES)
def test_each_voice_words_every_field_and_no_other(name: str) -> None:
    assert set(VOICES[name].words) == pages.FIELDS


@pytest.mark.parametrize("name", VOICES)
@pytest.mark.parametrize("topic", pages.TOPICS)
def test_every_page_is_its_heading_and_filled_words(name: str, topic: str) -> None:
    text = pages.page(VOICES[name], topic, "the commands")
    assert text.startswith(f"**{pages.TOPICS[topic][0]}**\n")
    assert "{" not in text and "}" not in text
    if pages.TOPICS[topic][2]:  # a page with an example shows it
        assert "Example" in text


def shared_sentences(template: str) -> list[str]:
    """The words of a template between its fields: what every adapter says alike."""
    return [literal.strip() for literal, *_ in Formatter().parse(template)
            if len(literal.strip()) > 20]


@pytest.mark.parametrize("topic", pages.TOPICS)
def test_both_adapters_say_the_same_between_their_commands(topic: str) -> None:
    """The two cannot drift: every sentence of a page that names no command is in both."""
    discord_page = pages.page(DISCORD, topic, "x")
    table_page = pages.page(TABLE, topic, "x")
    for sentence in shared_sentences(pages.TOPICS[topic][1]):
        assert sentence in discord_page and sentence in table_page


def test_each_voice_words_the_commands_it_has() -> None:
    gm_table = pages.page(TABLE, "gm", "")
    assert "/open opens the turn" in gm_table and "/turn" not in gm_table
    gm_discord = pages.page(DISCORD, "gm", "")
    assert "`/turn open` opens the turn" in gm_discord and "`/turn calltime in:1d`" in gm_discord
    # an example shows its commands as typed: no code marks inside the code block
    assert "```\n/turn open\n/gm npc\n" in gm_discord
    secret = pages.page(TABLE, "secret", "")
    assert "  /dm 2 AP Stealth: slip behind Skarg unseen\n  1 AP defend" in secret
    assert "/inbox" not in secret and "/turn orders" not in secret


def test_a_topic_is_found_by_its_key_or_its_name() -> None:
    assert pages.find_topic("GM") == "gm"
    assert pages.find_topic("  secret   Orders ") == "secret"
    assert pages.find_topic("the gm's turn") == "gm"
    assert pages.find_topic("topic:pace") == "pace"  # as the bot's option is typed
    assert pages.find_topic("dice") is None


def test_a_topic_that_is_none_gets_the_nearest_and_the_list() -> None:
    said = pages.unknown_topic(TABLE, "setings")
    assert said.startswith('There is no help topic "setings". Did you mean /help settings? ')
    assert all(f"/help {key}" in said for key in pages.TOPICS)
    said = pages.unknown_topic(DISCORD, "secret order")
    assert "Did you mean `/help topic:secret`?" in said
    assert "Did you mean" not in pages.unknown_topic(TABLE, "zzzz")


def test_a_topic_that_is_none_is_shown_inert_and_short() -> None:
    said = pages.unknown_topic(TABLE, "@everyone " + "x" * 200)
    assert "@everyone" not in said and "…" in said and len(said) < 500


def discord_tree() -> list[app_commands.Command | app_commands.Group]:
    added: list[app_commands.Command | app_commands.Group] = []
    bot = SimpleNamespace(services=None, tree=SimpleNamespace(add_command=added.append),
                          add_dynamic_items=lambda *items: None)
    asyncio.run(add_commands(bot))  # type: ignore[arg-type]
    return added


def test_the_bots_list_of_commands_is_its_command_tree() -> None:
    """Every command of the tree the bot publishes is in the list, under its group, and
    nothing else is: a command added or renamed is in `/help` at once."""
    tree = discord_tree()
    listed = command_list(tree)
    named: set[str] = set()
    for group, subs in re.findall(r"`/([a-z ]+?) ([a-z|]+)`", listed):
        named |= {f"{group} {sub}" for sub in subs.split("|")}
    named |= set(re.findall(r"`/([a-z]+)(?: [a-z]+:[^`]*)?`:", listed))
    expected = set()
    for command in tree:
        if isinstance(command, app_commands.Group):
            expected |= {c.qualified_name for c in command.walk_commands()
                         if isinstance(c, app_commands.Command)}
        else:
            expected.add(command.name)
    assert named == expected
    assert "`/reveal turn:N`" in listed and "Xp games (`/game create ruleset:Xp`): " in listed


def test_the_dice_pool_commands_are_listed_under_their_own_heading() -> None:
    """/odds and /xp are told by what they are (the odds command, an `XpGroup`), not by name."""
    main, xp = command_list(discord_tree()).split("\nXp games (`/game create ruleset:Xp`): ")
    assert "`/odds dice:…`" in xp and "`/xp roll|" in xp
    assert "/odds" not in main and "`/xp " not in main


def test_a_command_added_to_the_tree_is_listed() -> None:
    @app_commands.command(name="newthing", description="Something new.")
    async def newthing(interaction) -> None:  # pragma: no cover - never run
        pass

    assert "`/newthing`: something new" in command_list([*discord_tree(), newthing])


def table_commands_named(text: str) -> set[str]:
    return set(re.findall(r"(?:^|[\s(,])/([a-z]+)\b", text))


def test_the_tables_list_of_commands_is_its_command_table() -> None:
    """The table's list names every command of `console/commands.py` and the table's own
    (`/as`, `/dm`, `/post`), and nothing else."""
    own = {"as", "dm", "post"}
    assert table_commands_named(COMMAND_LIST) == set(TABLE_COMMANDS) | own
    assert set(TRANSCRIPT_COMMANDS) == set(TABLE_COMMANDS) | own
    assert COMMAND_LIST in HELP and pages.topic_list(TABLE) in HELP


@pytest.mark.parametrize("name", VOICES)
def test_the_settings_page_gives_results_layout_and_the_gm_page_the_games_traits(
        name: str) -> None:
    voice = VOICES[name]
    settings = pages.page(voice, "settings", "")
    assert voice.words["set_layout"] in settings and "results_layout embeds" in (
        voice.words["set_layout"].replace("name:", "").replace(" value:", " "))
    gm = pages.page(voice, "gm", "")
    for field in ("trait_add", "trait_list", "trait_remove"):
        assert voice.words[field] in gm
    assert "Keen-eyed" in voice.words["trait_add"] and "Sharp" in voice.words["trait_add"]
    assert len(gm) < 2000 and len(settings) < 2000  # one Discord message each

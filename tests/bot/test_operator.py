"""What an operator sees of `fappo-bot run` against (the fake) Discord: the database's place and
one ready line (guilds, commands, invite URL) with no migration notes or voice warnings; the
slash commands published only when they changed; SIGTERM and SIGINT stop it cleanly, exit 0."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from fappo_bot.discord.startup import INVITE_PERMISSIONS, run_bot
from tests.bot.conftest import bot_settings
from tests.bot.fake_discord import TOKEN
from tests.bot.table import set_up_game

pytestmark = pytest.mark.e2e

DOCS = Path(__file__).resolve().parents[2] / "docs" / "discord.md"


class Started:
    """`run_bot` in this process, stopped by its `stop` event as a signal would."""

    def __init__(self, fake, data_dir: Path, **discord_extra) -> None:
        self.settings = bot_settings(fake, data_dir, **discord_extra)
        self.ready = asyncio.Event()
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Started:
        self.task = asyncio.create_task(run_bot(self.settings, ready=self.ready.set,
                                                stop=self.stop))
        waiting = asyncio.create_task(self.ready.wait())
        await asyncio.wait({self.task, waiting}, timeout=30,
                           return_when=asyncio.FIRST_COMPLETED)
        if self.task.done():
            self.task.result()
        assert self.ready.is_set(), "the bot did not become ready"
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self.task is not None
        self.stop.set()
        await asyncio.wait_for(self.task, 30)


def puts_of_commands(fake) -> list:
    return [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]


async def test_a_second_start_does_not_publish_the_commands_again(fake, tmp_path,
                                                                  caplog) -> None:
    caplog.set_level(logging.INFO, logger="fappo_bot")
    async with Started(fake, tmp_path / "data"):
        pass
    assert len(puts_of_commands(fake)) == 1
    assert "slash commands (published)" in caplog.text
    caplog.clear()
    async with Started(fake, tmp_path / "data"):
        pass
    assert len(puts_of_commands(fake)) == 1, "the unchanged commands were published again"
    assert "slash commands (unchanged)" in caplog.text


async def test_commands_go_to_a_new_target_once(fake, tmp_path) -> None:
    """Development guilds are targets of their own: the first start with one publishes there
    (the global commands' hash says nothing of it), the next does not."""
    async with Started(fake, tmp_path / "data"):
        pass
    async with Started(fake, tmp_path / "data", dev_guilds=[fake.guild_id]):
        pass
    async with Started(fake, tmp_path / "data", dev_guilds=[fake.guild_id]):
        pass
    assert [r.path.split("/api/v10")[-1] for r in puts_of_commands(fake)] == [
        f"/applications/{fake.app_id}/commands",
        f"/applications/{fake.app_id}/guilds/{fake.guild_id}/commands"]


async def test_the_ready_line(fake, tmp_path, caplog) -> None:
    caplog.set_level(logging.INFO, logger="fappo_bot")
    async with Started(fake, tmp_path / "data") as started:
        count = len(fake.commands)
    [line] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("Ready as")]
    permissions = 0
    import discord

    permissions = discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True)).value
    assert line == (
        f"Ready as FAPPO Bot ({fake.bot_user['id']}) in 1 guild: Fake Guild; {count} slash "
        f"commands (published); invite: https://discord.com/oauth2/authorize?client_id="
        f"{fake.app_id}&scope=bot+applications.commands&permissions={permissions}")
    database = (tmp_path / "data" / "fappo.sqlite3").resolve()
    assert f"games are kept in the SQLite file {database}" in caplog.text
    assert started.settings.data_dir == tmp_path / "data"


def test_the_invite_permissions_are_those_of_the_guide() -> None:
    """docs/discord.md, step 2, names the permissions the invite URL asks for, and their
    integer."""
    import discord

    text = DOCS.read_text(encoding="utf-8")
    step = text.split("## 2. Invite it to the server", 1)[1].split("\n## ", 1)[0]
    shown = {"view_channel": "View Channels", "send_messages": "Send Messages",
             "send_messages_in_threads": "Send Messages in Threads",
             "read_message_history": "Read Message History", "embed_links": "Embed Links"}
    assert set(shown) == set(INVITE_PERMISSIONS)
    named = set(re.findall(r"\*\*([A-Z][A-Za-z ]+)\*\*", step))
    assert set(shown.values()) <= named
    value = discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True)).value
    assert f"`{value}`" in step


async def start_process(fake, data_dir: Path) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("FAPPO_")}
    env.update(FAPPO_DISCORD__TOKEN=TOKEN, FAPPO_DISCORD__API_BASE=fake.api_base,
               FAPPO_DISCORD__GATEWAY_URL=fake.gateway_url, FAPPO_DATA_DIR=str(data_dir),
               FAPPO_LOG_LEVEL="INFO")
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "fappo_bot.cli", "run", env=env, cwd=data_dir.parent,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


async def lines_until(process: asyncio.subprocess.Process, marker: str) -> list[str]:
    """The lines the process wrote on stderr, up to the first that holds `marker`."""
    assert process.stderr is not None
    lines: list[str] = []
    while not any(marker in line for line in lines):
        line = await asyncio.wait_for(process.stderr.readline(), 60)
        assert line, "the bot ended before it said " + marker + ":\n" + "".join(lines)
        lines.append(line.decode())
    return lines


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_stops_the_bot_cleanly(fake, tmp_path, number) -> None:
    data = tmp_path / "data"
    bot = await start_process(fake, data)
    try:
        start = await lines_until(bot, "Ready as")
        await set_up_game(fake)
        bot.send_signal(number)
        code = await asyncio.wait_for(bot.wait(), 10)
        assert bot.stderr is not None
        rest = (await bot.stderr.read()).decode()
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    assert code == 0, "".join(start) + rest
    said = "".join(start) + rest
    assert "Traceback" not in said
    assert f"games are kept in the SQLite file {(data / 'fappo.sqlite3').resolve()}" in said
    assert "alembic" not in said and "voice will NOT be supported" not in said
    assert "INFO fappo_bot.discord: stopped" in rest
    with contextlib.closing(sqlite3.connect(data / "fappo.sqlite3")) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT name FROM games").fetchall() == [("Goblin Road",)]
        assert db.execute("SELECT number, status FROM turns").fetchall()[0][0] == 1


async def test_a_handler_in_flight_finishes_before_the_bot_closes(running, fake) -> None:
    """`shut_down` drops new events and waits for a handler already running."""
    bot = running.bot
    finished = asyncio.Event()
    release = asyncio.Event()

    async def handler() -> None:
        await release.wait()
        finished.set()

    asyncio.get_running_loop().create_task(handler(), name="discord.py: on_message")
    stopping = asyncio.create_task(bot.shut_down(grace=30))
    await asyncio.sleep(0)
    assert bot._connection.parsers["MESSAGE_CREATE"](None) is None  # dropped
    assert not stopping.done() and not bot.is_closed()
    release.set()
    await asyncio.wait_for(stopping, 30)
    assert finished.is_set() and bot.is_closed()


def test_off_the_main_thread_no_signal_is_taken() -> None:
    """A loop on another thread cannot take signals: the bot runs there all the same, stopped
    by its `stop` event."""
    import threading

    from fappo_bot.discord.startup import _on_signals

    handled: list[object] = []

    def other_thread() -> None:
        loop = asyncio.new_event_loop()
        try:
            handled.extend(_on_signals(loop, lambda: None))
        finally:
            loop.close()

    thread = threading.Thread(target=other_thread)
    thread.start()
    thread.join()
    assert handled == []


async def test_a_stop_while_logging_in_ends_cleanly(fake, tmp_path) -> None:
    """A stop before the bot is ready (it is still logging in or publishing its commands)
    returns as any stop does: no error, nothing half done said as Discord out of reach."""
    stop = asyncio.Event()
    bot = asyncio.create_task(run_bot(bot_settings(fake, tmp_path / "data"), stop=stop,
                                      ready=lambda: None))
    await fake.wait_for(lambda: any(r.path == "/users/@me" for r in fake.requests), 30)
    stop.set()
    await asyncio.wait_for(bot, 30)
    assert bot.result() is None

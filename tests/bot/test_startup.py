"""`fappo-bot run`: the bot starts against Discord (here the fake) from its settings, and each
reason it cannot start is one sentence and exit status 2."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from fappo_bot.cli import main
from fappo_bot.discord.startup import NO_INTENT, NO_TOKEN, TOKEN_REJECTED, StartupError, run_bot
from tests.bot.conftest import bot_settings

pytestmark = pytest.mark.e2e


def test_missing_token_is_one_sentence_and_exit_2(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.delenv("FAPPO_DISCORD__TOKEN", raising=False)
    monkeypatch.delenv("FAPPO_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"fappo-bot run: {NO_TOKEN}"
    assert "Traceback" not in err


def test_token_from_the_environment_or_config_file(monkeypatch, tmp_path) -> None:
    from fappo_bot.discord.startup import token_of
    from fappo_bot.settings import load_settings

    config = tmp_path / "config.toml"
    config.write_text('[discord]\ntoken = "from-file"\nshard_ids = [0, 1]\nshard_count = 4\n'
                      'api_base = "http://proxy.local/api/v10"\n')
    monkeypatch.delenv("FAPPO_DISCORD__TOKEN", raising=False)
    settings = load_settings(config)
    assert token_of(settings) == "from-file"
    assert (settings.discord.shard_ids, settings.discord.shard_count) == ([0, 1], 4)
    assert settings.discord.api_base == "http://proxy.local/api/v10"
    assert settings.discord.gateway_url == "wss://gateway.discord.gg/"
    monkeypatch.setenv("FAPPO_DISCORD__TOKEN", "from-env")
    assert token_of(load_settings(config)) == "from-env"


async def test_rejected_token(fake, tmp_path) -> None:
    settings = bot_settings(fake, tmp_path)
    settings.discord.token = SecretStr("not-the-token")
    with pytest.raises(StartupError) as caught:
        await run_bot(settings)
    assert str(caught.value) == TOKEN_REJECTED


async def test_message_content_intent_not_enabled(fake, tmp_path) -> None:
    fake.message_content_intent = False
    with pytest.raises(StartupError) as caught:
        await run_bot(bot_settings(fake, tmp_path))
    assert str(caught.value) == NO_INTENT
    assert fake.identified == 0


async def test_the_bot_connects_and_publishes_its_commands(running, fake) -> None:
    assert running.bot.user.id == int(fake.bot_user["id"])
    names = {c["name"] for c in fake.commands}
    assert {"game", "char", "turn", "gm", "help"} <= names


async def test_the_heartbeat_for_the_health_check(running) -> None:
    from fappo_bot.discord.delivery import heartbeat_file

    beat = heartbeat_file(running.settings.data_dir)
    beat.unlink(missing_ok=True)
    running.bot.get_cog("Delivery").beat()
    assert beat.exists()


def test_calltime_reads_a_time_of_day_or_a_date() -> None:
    from datetime import UTC, datetime

    from fappo_bot.discord.commands.turns import parse_time
    from fappo_bot.discord.errors import AdapterError

    now = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert parse_time("20:30", now) == datetime(2026, 12, 1, 20, 30, tzinfo=UTC)
    assert parse_time("09:00", now) == datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    assert parse_time("2026-12-24 12:00", now) == datetime(2026, 12, 24, 12, 0, tzinfo=UTC)
    with pytest.raises(AdapterError, match="is no time"):
        parse_time("tomorrow-ish", now)


@pytest.mark.parametrize("ids,count,says", [
    ([0], None, "shard_count is not"),
    ([2], 2, "must be some of 0 to 1"),
    ([], 2, "must be some of"),
    (None, 0, "1 or more"),
])
async def test_shard_settings_that_do_not_fit(fake, tmp_path, ids, count, says) -> None:
    settings = bot_settings(fake, tmp_path, shard_ids=ids, shard_count=count)
    with pytest.raises(StartupError, match=says):
        await run_bot(settings)
    assert fake.identified == 0


async def test_a_database_url_the_bot_cannot_use(fake, tmp_path) -> None:
    from fappo_bot.settings import DatabaseSettings

    settings = bot_settings(fake, tmp_path)
    settings.database = DatabaseSettings(url="mysql://somewhere/db")
    with pytest.raises(StartupError, match="FAPPO Bot cannot use"):
        await run_bot(settings)


async def test_start_up_is_frozen_out_of_the_collectors_sight(running) -> None:
    """What start-up left alive is frozen (`gc.freeze`), so a full collection no longer walks
    it; garbage is collected first, not frozen with it."""
    import gc
    import weakref

    from fappo_bot.discord.startup import freeze_survivors, tune_collector, when_ready

    class Node:
        me: object = None

    cycle = Node()
    cycle.me = cycle
    gone = weakref.ref(cycle)
    del cycle
    try:
        await when_ready(running.bot, tune_collector)
        assert gone() is None
        assert gc.get_freeze_count() > 0
        assert not any(o is running.bot for o in gc.get_objects())
        # what outlives a later full collection is frozen too; its garbage is still collected
        survivor, cycle = Node(), Node()
        cycle.me = cycle
        gone = weakref.ref(cycle)
        del cycle
        gc.collect()
        assert gone() is None
        assert not any(o is survivor for o in gc.get_objects())
    finally:
        gc.callbacks.remove(freeze_survivors)
        gc.unfreeze()
    assert any(o is running.bot for o in gc.get_objects())


def test_a_cycle_that_dies_while_frozen_is_freed_within_thaw_every_full_collections() -> None:
    """Frozen survivors are thawed after every `thaw_every`-th full collection, so a cycle that
    died while frozen is freed by the next one: the leak of freezing is bounded."""
    import gc
    import weakref

    from fappo_bot.discord.startup import SurvivorFreezer

    class Node:
        me: object = None

    freezer = SurvivorFreezer(thaw_every=3)
    gc.callbacks.append(freezer)
    try:
        cycle = Node()
        cycle.me = cycle
        gone = weakref.ref(cycle)
        gc.collect()  # 1st full collection: the cycle survives it and is frozen
        assert not any(o is cycle for o in gc.get_objects())
        del cycle
        gc.collect()  # 2nd: frozen, so not walked; still alive
        assert gone() is not None
        gc.collect()  # 3rd: thaws everything once it is done
        assert gone() is not None and gc.get_freeze_count() == 0
        gc.collect()  # 4th walks the whole heap and frees the cycle
        assert gone() is None
    finally:
        gc.callbacks.remove(freezer)
        gc.unfreeze()


async def test_fappo_bot_run_tunes_the_collector_once_ready(fake, tmp_path) -> None:
    """`fappo-bot run` calls `tune_collector` (its default) once the bot is ready."""
    import asyncio
    import contextlib
    import inspect

    from fappo_bot.discord.startup import tune_collector

    assert inspect.signature(run_bot).parameters["ready"].default is tune_collector
    ready = asyncio.Event()
    bot = asyncio.create_task(run_bot(bot_settings(fake, tmp_path), ready=ready.set))
    try:
        await asyncio.wait_for(ready.wait(), timeout=30)
        assert fake.identified == 1
    finally:
        bot.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await bot


async def test_the_bot_is_ready_without_waiting_to_fill_a_member_cache(running, fake) -> None:
    """discord.py waits `guild_ready_timeout` (2 s by default) after the last GUILD_CREATE,
    to fill the member cache before `on_ready`: two seconds of every start. The bot keeps no
    member cache (no members or presences intent, no chunking), so it waits only long enough
    to collect the guilds Discord sends right after READY, and has all of them when ready."""
    from fappo_bot.discord.base import GUILD_READY_TIMEOUT

    state = running.bot._connection
    assert not (state.intents.members or state.intents.presences)
    assert not any(state._guild_needs_chunking(g) for g in running.bot.guilds)
    assert state.guild_ready_timeout == GUILD_READY_TIMEOUT <= 0.25
    assert {g.id for g in running.bot.guilds} == set(fake.guilds)

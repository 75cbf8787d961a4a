"""An operator's first hour: every setting that cannot work, given to `fappo-bot run`, `play`,
`export` and `migrate`, is refused before anything is written, in one sentence on standard error
naming what is wrong and what to do, with exit status 2 and never a traceback."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from fappo_bot.cli import main

pytestmark = pytest.mark.integration

#: each command that opens the settings and the database, as an operator would start it
COMMANDS = {
    "run": ["run"],
    "play": ["play", "--no-color"],
    "export": ["export", "Goblin Road"],
    "migrate": ["migrate"],
}


@pytest.fixture
def clean(monkeypatch, tmp_path) -> Path:
    """No FAPPO_ variable of the developer's shell, a token, and an empty working directory."""
    for name in list(os.environ):
        if name.upper().startswith("FAPPO_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("FAPPO_DISCORD__TOKEN", "a-token")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def refused(capsys, command: str, *extra: str) -> str:
    """The one line `fappo-bot COMMAND` said on standard error, after checking it exited 2."""
    assert main([*COMMANDS[command], *extra]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert "Traceback" not in captured.err + captured.out
    assert len(lines) == 1, captured.err
    prefix = f"fappo-bot {command}: "
    assert lines[0].startswith(prefix)
    sentence = lines[0].removeprefix(prefix)
    assert sentence[0].isupper() and sentence.endswith((".", "?")), sentence
    return sentence


def closed_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("command", COMMANDS)
def test_a_misspelt_section_names_the_section_it_meant(clean, capsys, command) -> None:
    (clean / "config.toml").write_text('[discrod]\ntoken = "x"\n')
    assert refused(capsys, command) == (
        "The config file config.toml has an unknown section [discrod]: did you mean "
        "[discord]?")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_misspelt_key_names_the_key_it_meant(clean, capsys, command) -> None:
    (clean / "config.toml").write_text('log_level = "INFO"\n[discord]\ntokne = "x"\n')
    assert refused(capsys, command) == (
        "The config file config.toml has an unknown setting tokne under [discord]: did you "
        "mean token?")


def test_a_key_far_from_any_lists_those_there_are(clean, capsys) -> None:
    (clean / "config.toml").write_text('[turns]\nwhatever = 1\n')
    assert refused(capsys, "run") == (
        "The config file config.toml has an unknown setting whatever under [turns]: the "
        "settings under [turns] are reminders_minutes, scheduler_interval_seconds.")


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_fappo_variable_names_the_one_it_meant(clean, capsys, monkeypatch,
                                                         command) -> None:
    monkeypatch.setenv("FAPPO_DISCORD__TOKNE", "x")
    assert refused(capsys, command) == (
        "The environment variable FAPPO_DISCORD__TOKNE is no setting of FAPPO Bot: did you "
        "mean FAPPO_DISCORD__TOKEN?")


def test_a_single_underscore_is_no_nesting(clean, capsys, monkeypatch) -> None:
    monkeypatch.setenv("FAPPO_DATABASE_URL", "postgresql://x/y")
    assert refused(capsys, "migrate") == (
        "The environment variable FAPPO_DATABASE_URL is no setting of FAPPO Bot: did you mean "
        "FAPPO_DATABASE__URL?")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_config_file_that_is_not_there(clean, capsys, command) -> None:
    assert refused(capsys, command, "--config", "nowhere.toml") == (
        "The config file nowhere.toml (given by --config) does not exist: check the path, or "
        "copy config.example.toml there.")


@pytest.mark.parametrize("command", COMMANDS)
def test_fappo_config_naming_a_directory(clean, capsys, monkeypatch, command) -> None:
    (clean / "conf").mkdir()
    monkeypatch.setenv("FAPPO_CONFIG", "conf")
    assert refused(capsys, command) == (
        "The config file conf (given by FAPPO_CONFIG) is a directory: name a TOML file such as "
        "config.toml.")


def test_a_config_file_that_is_not_toml(clean, capsys) -> None:
    (clean / "config.toml").write_text("[discord\n")
    assert refused(capsys, "run").startswith(
        "The config file config.toml is not valid TOML: Expected ']'")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_value_of_the_wrong_type_is_one_sentence_for_its_key(clean, capsys,
                                                              command) -> None:
    (clean / "config.toml").write_text('[discord]\nshard_count = "four"\n')
    assert refused(capsys, command) == (
        "The setting discord.shard_count (config.toml) is 'four': input should be a valid "
        "integer, unable to parse string as an integer.")


def test_each_wrong_value_has_its_own_line(clean, capsys, monkeypatch) -> None:
    (clean / "config.toml").write_text('[turns]\nscheduler_interval_seconds = "soon"\n')
    monkeypatch.setenv("FAPPO_DISCORD__OUTBOX_LONGEST_WAIT_SECONDS", "many")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "fappo-bot run: The setting discord.outbox_longest_wait_seconds "
        "(FAPPO_DISCORD__OUTBOX_LONGEST_WAIT_SECONDS) is 'many': input should be a valid "
        "number, unable to parse string as a number.",
        "fappo-bot run: The setting turns.scheduler_interval_seconds (config.toml) is 'soon': "
        "input should be a valid number, unable to parse string as a number.",
    ]


def test_a_list_in_the_environment_that_is_not_json(clean, capsys, monkeypatch) -> None:
    monkeypatch.setenv("FAPPO_DISCORD__DEV_GUILDS", "123, 456")
    assert refused(capsys, "run") == (
        "The environment variable FAPPO_DISCORD__DEV_GUILDS is '123, 456', not a list: write "
        "it as JSON, e.g. FAPPO_DISCORD__DEV_GUILDS='[1, 2]'.")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_log_level_that_is_none(clean, capsys, command) -> None:
    (clean / "config.toml").write_text('log_level = "LOUD"\n')
    assert refused(capsys, command) == (
        "The setting log_level (config.toml) is 'LOUD': it must be one of DEBUG, INFO, "
        "WARNING, ERROR or CRITICAL.")


def test_the_token_is_never_shown(clean, capsys, monkeypatch) -> None:
    monkeypatch.delenv("FAPPO_DISCORD__TOKEN")
    (clean / "config.toml").write_text("[discord]\ntoken = 123456789\n")
    sentence = refused(capsys, "run")
    assert sentence == "The setting discord.token (config.toml): input should be a valid string."


@pytest.mark.parametrize("command", COMMANDS)
def test_a_data_directory_that_is_a_file(clean, capsys, monkeypatch, command) -> None:
    (clean / "data").write_text("")
    assert refused(capsys, command) == (
        f"The data directory {clean / 'data'} is a file, not a directory: set data_dir (in the "
        f"config file, or FAPPO_DATA_DIR) to a writable directory.")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_data_directory_that_cannot_be_made(clean, capsys, monkeypatch, command) -> None:
    (clean / "blocker").write_text("")
    monkeypatch.setenv("FAPPO_DATA_DIR", "blocker/data")
    assert refused(capsys, command) == (
        f"The data directory {clean / 'blocker' / 'data'} cannot be created (Not a directory): "
        f"set data_dir (in the config file, or FAPPO_DATA_DIR) to a writable directory.")


def as_unprivileged() -> list[str]:
    """The start of a command line that runs a program without the power to write where the
    mode bits forbid it: as it is for another user than root; as root, without the capabilities
    that override them (setpriv, util-linux)."""
    if os.geteuid() != 0:
        return []
    import shutil

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: root writes whatever the mode bits say")
    return [setpriv, "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]


@pytest.mark.e2e
@pytest.mark.parametrize("command", COMMANDS)
def test_a_read_only_data_directory(tmp_path, command) -> None:
    (tmp_path / "data").mkdir(mode=0o555)
    (tmp_path / "data").chmod(0o555)
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("FAPPO_")}
    env.update(FAPPO_DISCORD__TOKEN="a-token")
    try:
        done = subprocess.run(
            [*as_unprivileged(), sys.executable, "-m", "fappo_bot.cli", *COMMANDS[command]],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    finally:
        (tmp_path / "data").chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        f"fappo-bot {command}: The data directory {tmp_path / 'data'} is not writable "
        f"(Permission denied): set data_dir (in the config file, or FAPPO_DATA_DIR) to a "
        f"writable directory.")


@pytest.mark.parametrize("command", COMMANDS)
def test_an_in_memory_database_keeps_nothing(clean, capsys, monkeypatch, command) -> None:
    monkeypatch.setenv("FAPPO_DATABASE__URL", "sqlite:///:memory:")
    assert refused(capsys, command) == (
        "The database URL 'sqlite:///:memory:' in database.url (the settings file, or "
        "FAPPO_DATABASE__URL) is an in-memory SQLite database, which keeps nothing once the "
        "process ends: name a file (sqlite+aiosqlite:///path/to/file.sqlite3), or leave it "
        "unset for the SQLite file in the data directory.")


@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_server_that_refuses(clean, capsys, monkeypatch, command) -> None:
    port = closed_port()
    monkeypatch.setenv("FAPPO_DATABASE__URL", f"postgresql://postgres@127.0.0.1:{port}/fappo")
    assert refused(capsys, command) == (
        f"Cannot open the PostgreSQL database fappo on 127.0.0.1:{port} (Connect call failed "
        f"('127.0.0.1', {port})): check that the database server runs and the database exists, "
        f"or database.url (the config file, or FAPPO_DATABASE__URL).")


@pytest.mark.postgres
@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_that_is_not_there(clean, capsys, monkeypatch, command) -> None:
    from sqlalchemy.engine import make_url

    from tests.conftest import PG_ADMIN_URL

    name = f"fappo_missing_{secrets.token_hex(4)}"
    url = make_url(PG_ADMIN_URL).set(database=name)
    monkeypatch.setenv("FAPPO_DATABASE__URL", url.render_as_string(hide_password=False))
    sentence = refused(capsys, command)
    if "Connect call failed" in sentence:
        pytest.skip("PostgreSQL is not running here")
    assert sentence == (
        f"Cannot open the PostgreSQL database {name} on {url.host}:{url.port or 5432} "
        f'(database "{name}" does not exist): check that the database server runs and the '
        f"database exists, or database.url (the config file, or FAPPO_DATABASE__URL).")


def test_a_discord_that_cannot_be_reached(clean, capsys, monkeypatch) -> None:
    """Discord's API at a closed port: one sentence, where aiohttp's traceback was."""
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    monkeypatch.setenv("FAPPO_DISCORD__API_BASE", base)
    monkeypatch.setenv("FAPPO_LOG_LEVEL", "WARNING")
    sentence = refused(capsys, "run")
    assert sentence.startswith(f"Cannot reach Discord at {base} (Connect call failed")
    assert sentence.endswith("check this machine's network and DNS, or discord.api_base "
                             "(FAPPO_DISCORD__API_BASE) when the bot runs behind a proxy.")


def test_nothing_is_written_when_refused(clean, capsys, monkeypatch) -> None:
    """A refused start makes no data directory and no database where it was started."""
    (clean / "config.toml").write_text('[discord]\ntokne = "x"\n')
    refused(capsys, "run")
    assert sorted(p.name for p in clean.iterdir()) == ["config.toml"]


def test_a_real_process_says_it_the_same(tmp_path) -> None:
    """The same through a real process: exit status 2, one line, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("FAPPO_")}
    env["FAPPO_DISCROD__TOKEN"] = "x"
    done = subprocess.run([sys.executable, "-m", "fappo_bot.cli", "run"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "fappo-bot run: The environment variable FAPPO_DISCROD__TOKEN is no setting of FAPPO "
        "Bot: did you mean FAPPO_DISCORD__TOKEN?")


def test_the_example_config_file_is_taken_as_it_is(clean) -> None:
    """config.example.toml, copied as it is, names only known settings of the right types."""
    from fappo_bot.settings import load_settings

    example = Path(__file__).resolve().parents[1] / "config.example.toml"
    (clean / "config.toml").write_text(example.read_text(encoding="utf-8"))
    settings = load_settings()
    assert (settings.data_dir, settings.log_level) == (Path("data"), "INFO")


def test_an_optional_list_in_the_environment_that_is_not_json(clean, capsys,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("FAPPO_DISCORD__SHARD_IDS", "0,1")
    assert refused(capsys, "run") == (
        "The environment variable FAPPO_DISCORD__SHARD_IDS is '0,1', not a list: write it as "
        "JSON, e.g. FAPPO_DISCORD__SHARD_IDS='[1, 2]'.")


@pytest.mark.e2e
def test_a_read_only_database_file(tmp_path) -> None:
    (tmp_path / "data").mkdir()
    database = tmp_path / "data" / "fappo.sqlite3"
    database.write_bytes(b"")
    database.chmod(0o444)
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("FAPPO_")}
    env.update(FAPPO_DISCORD__TOKEN="a-token")
    done = subprocess.run(
        [*as_unprivileged(), sys.executable, "-m", "fappo_bot.cli", "run"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == (
        f"fappo-bot run: The database file {database} is read-only (Permission denied): give "
        f"the bot's user write access to it.")


def test_a_retired_setting_is_named_as_retired_not_as_a_typo(clean, capsys, monkeypatch) -> None:
    (clean / "config.toml").write_text('[discord]\noutbox_max_attempts = 8\n')
    assert refused(capsys, "run") == (
        "The config file config.toml has the setting discord.outbox_max_attempts, which is no "
        "longer used: a message is now tried until Discord takes it or refuses it for good; "
        "remove it (discord.outbox_longest_wait_seconds caps the wait between tries).")

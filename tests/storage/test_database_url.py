"""A database URL the bot cannot use is one clear sentence and a non-zero exit in every
command that opens the database (what is wrong, which setting gave it, what is accepted), never a
traceback."""

from __future__ import annotations

import pytest

from fappo_bot.cli import main
from fappo_bot.storage.engine import ACCEPTED_URLS, DatabaseUrlError, checked_url

pytestmark = pytest.mark.e2e

BAD_URLS = {
    "not a url": "is not a URL",
    "mysql://someone:hunter2@db.example/fappo": "names 'mysql', which FAPPO Bot cannot use",
    "postgresql+psycopg2://db.example/fappo": "names 'postgresql+psycopg2'",
}

#: each command that opens the database, and the option that gives it a URL
COMMANDS = {
    "play": ["play", "--database-url"],
    "migrate": ["migrate", "--url"],
    "export": ["export", "some-game", "--database-url"],
    "import": ["import", "game.json", "--database-url"],
}


@pytest.fixture(autouse=True)
def _no_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no config.toml of the checkout
    monkeypatch.delenv("FAPPO_DATABASE__URL", raising=False)
    monkeypatch.delenv("FAPPO_CONFIG", raising=False)
    monkeypatch.setenv("FAPPO_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "game.json").write_text("{}", encoding="utf-8")


def _one_sentence(capsys) -> str:
    captured = capsys.readouterr()
    said = " ".join((captured.out + captured.err).split())  # rich wraps at the terminal width
    assert "Traceback" not in said and "sqlalchemy" not in said.casefold()
    return said


@pytest.mark.parametrize("url", list(BAD_URLS))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_url_option_is_one_sentence_and_exit_2(command, url, capsys):
    code = main([*COMMANDS[command], url])
    said = _one_sentence(capsys)
    assert code == 2
    option = COMMANDS[command][-1]
    assert f"in {option}" in said and BAD_URLS[url] in said and ACCEPTED_URLS in said
    assert "hunter2" not in said  # the password is not echoed


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_bad_url_in_the_settings_names_the_setting(command, capsys, monkeypatch):
    monkeypatch.setenv("FAPPO_DATABASE__URL", "not a url")
    code = main(COMMANDS[command][:-1])
    said = _one_sentence(capsys)
    assert code == 2
    assert "'not a url' in database.url (the settings file, or FAPPO_DATABASE__URL)" in said


def test_the_urls_the_bot_uses_pass():
    assert checked_url("sqlite:///x.sqlite3").drivername == "sqlite"
    assert checked_url("postgresql+asyncpg://u@h/db").get_backend_name() == "postgresql"
    with pytest.raises(DatabaseUrlError, match="http"):
        checked_url("http://example.com")

"""Export and import: a game played at the table is an ordinary game that can move."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from fappo_bot.console.wiring import open_storage
from fappo_bot.service.base import Deps
from fappo_bot.service.errors import Conflict, InvalidInput, NotFound
from fappo_bot.service.facade import Services
from fappo_bot.service.games import GameService
from fappo_bot.service.rulesets.known import KNOWN
from fappo_bot.service.transfer import copied, dumps, loads
from fappo_bot.settings import Settings

pytestmark = pytest.mark.integration


async def export_game(uow_factory, key):
    """The operator's export (`fappo-bot export`), with every secret."""
    return await Services(uow_factory).transfer.export_as_operator(key, secrets=True)


async def import_game(uow_factory, document):
    return await Services(uow_factory).transfer.import_game(document)


def settings_in(path) -> Settings:
    return Settings(data_dir=path)


async def make_game(tmp_path) -> str:
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        games = GameService(Deps(uow_factory=storage.uow_factory, rulesets=KNOWN))
        view = await games.create(channel_key="table:warren", name="The Goblin Warren", creator="gm")
        return view.id


async def test_export_import_export_is_the_same_document(tmp_path):
    game_id = await make_game(tmp_path)
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        first = await export_game(storage.uow_factory, "The Goblin Warren")
    assert first.game.id == game_id and first.members and first.audit
    async with open_storage(settings_in(tmp_path / "b")) as storage:
        await import_game(storage.uow_factory, loads(dumps(first)))
        again = await export_game(storage.uow_factory, game_id)
    assert dumps(again.model_copy(update={"exported_at": first.exported_at})) == dumps(first)


async def test_importing_into_the_same_database_is_refused_unless_copied(tmp_path):
    await make_game(tmp_path)
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        document = await export_game(storage.uow_factory, "table:warren")
        with pytest.raises(Conflict, match="already in this database"):
            await import_game(storage.uow_factory, document)
        counter = iter(range(1000))
        copy = copied(document, lambda: f"new{next(counter)}", "table:warren-2")
        game = await import_game(storage.uow_factory, copy)
        assert game.channel_key == "table:warren-2" and game.id.startswith("new")
        both = await export_game(storage.uow_factory, game.id)
        assert both.members[0].game_id == game.id


async def test_an_unknown_game_names_the_games_there(tmp_path):
    await make_game(tmp_path)
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        with pytest.raises(NotFound, match="The Goblin Warren"):
            await export_game(storage.uow_factory, "Nope")


def test_a_damaged_export_is_refused_with_its_problems():
    with pytest.raises(InvalidInput, match="not JSON"):
        loads("{")
    with pytest.raises(InvalidInput, match="not a FAPPO game export"):
        loads(json.dumps({"format": "other"}))
    with pytest.raises(InvalidInput, match="damaged") as info:
        loads(json.dumps({"format": "fappo-bot/game", "version": 1, "game": {}}))
    assert "game.id" in str(info.value)


@pytest.mark.e2e
def test_the_commands_round_trip(tmp_path):
    import asyncio

    asyncio.run(make_game(tmp_path))
    out = tmp_path / "warren.json"
    cli = [sys.executable, "-m", "fappo_bot.cli"]
    done = subprocess.run(
        [*cli, "export", "The Goblin Warren", "--out", str(out), "--data-dir", str(tmp_path / "a")],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    done = subprocess.run(
        [*cli, "import", str(out), "--data-dir", str(tmp_path / "b")],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "imported \"The Goblin Warren\"" in done.stdout
    done = subprocess.run(
        [*cli, "import", str(out), "--data-dir", str(tmp_path / "b")],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 1 and "already in this database" in done.stderr
    back = subprocess.run(
        [*cli, "export", "table:warren", "--data-dir", str(tmp_path / "b")],
        capture_output=True, text=True, check=False,
    )
    original = json.loads(out.read_text())
    again = json.loads(back.stdout)
    again["exported_at"] = original["exported_at"]
    assert again == original


async def test_a_game_played_at_the_table_round_trips_whole(tmp_path):
    """The example adventure (posts and their revisions, secret posts, three resolutions, the
    outbox, the audit log) exported, imported elsewhere and exported again: the same document."""
    import argparse
    import io
    from pathlib import Path

    from rich.console import Console

    from fappo_bot.console.app import open_table, run_script

    adventure = Path(__file__).resolve().parents[2] / "examples" / "adventure" / "adventure.txt"
    args = argparse.Namespace(config=None, data_dir=tmp_path / "a", database_url=None,
                              script=adventure)
    async with open_table(args) as table:
        code = await run_script(table, adventure, Console(file=io.StringIO(), width=100))
    assert code == 0
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        first = await export_game(storage.uow_factory, "The Goblin Warren")
    assert len(first.resolutions) == 3
    assert any(p.post.secret for p in first.posts)
    assert sum(len(p.revisions) for p in first.posts) >= len(first.posts)
    async with open_storage(settings_in(tmp_path / "b")) as storage:
        await import_game(storage.uow_factory, loads(dumps(first)))
        again = await export_game(storage.uow_factory, first.game.id)
    assert dumps(again.model_copy(update={"exported_at": first.exported_at})) == dumps(first)


async def test_the_example_adventure_is_imported_as_a_copy_next_to_itself(tmp_path):
    """`fappo-bot import --copy` failed ("That message is already recorded as a
    post.") for any game with a DM or NPC orders, the shipped adventure included."""
    import argparse
    import io
    from pathlib import Path

    from rich.console import Console

    from fappo_bot.console.app import open_table, run_script

    adventure = Path(__file__).resolve().parents[2] / "examples" / "adventure" / "adventure.txt"
    args = argparse.Namespace(config=None, data_dir=tmp_path / "a", database_url=None,
                              script=adventure)
    async with open_table(args) as table:
        assert await run_script(table, adventure, Console(file=io.StringIO(), width=100)) == 0
    out = tmp_path / "adventure.json"
    cli = [sys.executable, "-m", "fappo_bot.cli"]
    done = subprocess.run([*cli, "export", "The Goblin Warren", "--out", str(out),
                           "--data-dir", str(tmp_path / "a")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    document = loads(out.read_text(encoding="utf-8"))
    assert any(p.post.secret for p in document.posts)  # DM orders
    assert any(not p.post.channel_key.startswith("table:") and not p.post.secret
               for p in document.posts)  # the GM's NPC orders, sent to the bot
    for _ in range(2):  # two copies next to the original
        done = subprocess.run([*cli, "import", str(out), "--copy",
                               "--data-dir", str(tmp_path / "a")],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    async with open_storage(settings_in(tmp_path / "a")) as storage:
        async with storage.uow_factory() as uow:
            games = list(await uow.games.list())
        assert len(games) == 3
        copy = await export_game(storage.uow_factory, games[-1].id)
    assert len(copy.posts) == len(document.posts) and len(copy.resolutions) == 3

"""Fixtures of the campaign page's tests: the two example adventures played at the local table
into one SQLite database (once per session), links issued for their GMs and players, and the
application over that database.

The database is filled by the table itself (`fappo-bot play --script`), so the pages show what
real play stores: sealed NPC orders, a secret order by DM (Mira's, bob's), private results, an
Xp game's rolls.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADVENTURES = {"warren": ROOT / "examples" / "adventure" / "adventure.txt",
              "tomb": ROOT / "examples" / "xp-adventure" / "adventure.txt"}
NAMES = {"warren": "The Goblin Warren", "tomb": "The Tomb of Ankh"}


@dataclass(frozen=True)
class Played:
    """The database of the two adventures, and the tokens of their links."""

    url: str
    #: (game, who) -> token; who is "gm" (the game's link) or a player's user id
    tokens: dict[tuple[str, str], str]
    game_ids: dict[str, str]


def _replay(data: Path, script: Path) -> None:
    subprocess.run([sys.executable, "-m", "fappo_bot.cli", "play", "--script", str(script),
                    "--data-dir", str(data), "--no-color"],
                   check=True, capture_output=True, text=True, cwd=data.parent, timeout=300)


async def _issue(url: str) -> tuple[dict[tuple[str, str], str], dict[str, str]]:
    from fappo_bot.service.facade import Services
    from fappo_bot.service.web_links import LinkService
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from fappo_bot.storage.web_links import SqlWebLinks

    engine = create_engine_for_url(url)
    try:
        services = Services(SqlUnitOfWorkFactory(engine))
        links = LinkService(services.deps, SqlWebLinks(engine))
        tokens: dict[tuple[str, str], str] = {}
        ids: dict[str, str] = {}
        for key, name in NAMES.items():
            game, tokens[key, "gm"] = await links.link(name, "gm")
            ids[key] = game.id
            for player in ("alice", "bob"):
                tokens[key, player] = (await links.player_link(name, player))[1]
        return tokens, ids
    finally:
        await engine.dispose()


#: Mira's DM'd orders of turn 1 in the Warren, made player-against-player (a Searching of
#: Bran, carol's): their results go to the parties only (bob and carol), so a page can show
#: bob private results that alice and the game's link must not see. The example's own orders
#: target no player's character, and are public once the turn resolves (F29 Amb-4).
PVP = ("2 AP Stealth: slip behind Skarg unseen\n1 AP defend\n",
       "2 AP Stealth: slip behind Skarg unseen\n1 AP Searching on Bran: count the arrows left in "
       "his quiver\n")


def _warren_with_a_secret_duel(folder: Path) -> Path:
    """The Warren's script with Mira's orders made PvP (`PVP`), beside copies of its sheets;
    alice no longer reads Mira's results."""
    source = ADVENTURES["warren"]
    folder.mkdir(parents=True, exist_ok=True)
    for sheet in source.parent.glob("*.yaml"):
        shutil.copy(sheet, folder / sheet.name)
    text = source.read_text(encoding="utf-8")
    assert PVP[0] in text, "the example's turn 1 changed: update PVP"
    text = text.replace(PVP[0], PVP[1], 1).replace(
        "/as Kael\n?expect Kael: Wounded (provisional\n?expect Mira tries Stealth\n",
        "/as Kael\n?expect Kael: Wounded (provisional\n?expect-not Mira tries Stealth\n", 1)
    script = folder / source.name
    script.write_text(text, encoding="utf-8")
    return script


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    base = tmp_path_factory.mktemp("campaign")
    data = base / "data"
    _replay(data, _warren_with_a_secret_duel(base / "warren"))
    _replay(data, ADVENTURES["tomb"])
    url = f"sqlite+aiosqlite:///{(data / 'fappo.sqlite3').as_posix()}"
    tokens, ids = asyncio.run(_issue(url))
    return Played(url, tokens, ids)


def build_app(url: str):
    """The campaign page's application over the database at `url` (its engine made lazily, in
    whatever loop serves it first)."""
    from fappo_bot.service.facade import Services
    from fappo_bot.service.web_links import LinkService
    from fappo_bot.service.web_pages import PageService
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from fappo_bot.storage.web_links import SqlWebLinks
    from fappo_bot.web.app import create_app

    engine = create_engine_for_url(url)
    services = Services(SqlUnitOfWorkFactory(engine))
    return create_app(LinkService(services.deps, SqlWebLinks(engine)),
                      PageService(services.deps)), engine


@pytest.fixture
def client(played: Played) -> Iterator[object]:
    from starlette.testclient import TestClient

    app, engine = build_app(played.url)
    with TestClient(app, raise_server_exceptions=True) as test_client:
        yield test_client
        test_client.portal.call(engine.dispose)

"""Fixtures of the service tests: `uow_factory` runs every use-case test on the in-memory fake
(unit), on SQLite (integration) and on PostgreSQL (integration, postgres; skips without a server).

The storage helper's database fixtures live in tests/conftest.py; this file picks them up.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from fappo_bot.service import NewCharacter, Services
from fappo_bot.service.records import Role
from tests.service.fakes import FakeUowFactory

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "adventure"

BACKENDS = [
    pytest.param("fake", marks=pytest.mark.unit, id="fake"),
    pytest.param("sqlite", marks=pytest.mark.integration, id="sqlite"),
    pytest.param("postgres", marks=[pytest.mark.integration, pytest.mark.postgres],
                 id="postgres"),
]


@pytest.fixture(params=BACKENDS)
async def uow_factory(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    """A `UowFactory` over an empty store of the backend under test."""
    kind = request.param
    if kind == "fake":
        yield FakeUowFactory()
        return
    from fappo_bot.storage.engine import create_engine_for_url
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from tests.conftest import create_sqlite_schema, empty_postgres

    if kind == "sqlite":
        url = f"sqlite+aiosqlite:///{(tmp_path / 'service.sqlite3').as_posix()}"
        await create_sqlite_schema(url)
    else:
        url = str(request.getfixturevalue("postgres_server_url"))
        await empty_postgres(url)
    engine = create_engine_for_url(url)
    try:
        yield SqlUnitOfWorkFactory(engine)
    finally:
        await engine.dispose()


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.current = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> datetime:
        self.current += timedelta(**delta)
        return self.current


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def services(uow_factory: Any, clock: FakeClock) -> Services:
    counter = itertools.count(1)
    salts = itertools.count(1)
    return Services(
        uow_factory,
        clock=clock,
        ids=lambda: f"id{next(counter):05d}",
        salts=lambda: f"salt{next(salts):04d}",
    )


def sheet(example: str, **changes: Any) -> NewCharacter:
    """One of the example adventure's sheets (examples/adventure/NAME.yaml)."""
    import yaml

    data = yaml.safe_load((EXAMPLES / f"{example.lower()}.yaml").read_text(encoding="utf-8"))
    data.update(changes)
    return NewCharacter.from_dict(data)


GM, ALICE, BOB, CAROL, EVE = "gm-1", "alice", "bob", "carol", "eve"


@pytest.fixture
async def table(services: Services) -> dict[str, str]:
    """A game in channel c1: GM gm-1, players alice (Kael) and bob (Mira), the GM's Goblins
    and Skarg; turn 1 open."""
    game = await services.games.create(channel_key="c1", name="Goblin Road", creator=GM)
    for player in (ALICE, BOB, CAROL):
        await services.games.add_member(game.id, GM, player, Role.PLAYER)
    assert (await services.characters.create(game.id, ALICE, sheet("Kael"))).ok
    assert (await services.characters.create(game.id, BOB, sheet("Mira"))).ok
    assert (await services.characters.add_enemy(game.id, GM, sheet("Goblins"))).ok
    assert (await services.characters.add_enemy(game.id, GM, sheet("Skarg"))).ok
    await services.turns.open(game.id, GM)
    return {"game": game.id}

"""A use case marked `@retried` that loses an optimistic version race, or whose database
connection fails before its COMMIT, runs again, whole (one transaction each); retries do not
nest; a failure in doubt (during the COMMIT) is never run again."""

from __future__ import annotations

import pytest

from fappo_bot.service import Services, StaleVersion, TransientError
from fappo_bot.service.records import Role
from fappo_bot.service.retry import RETRIES
from tests.service.conftest import ALICE, GM, sheet
from tests.service.fakes import FakeUnitOfWork, FakeUowFactory
from tests.service.helpers import actions, stored_game

pytestmark = pytest.mark.unit


class LosingRaces(FakeUowFactory):
    """Every commit of the next `losses` units of work that commit raises `error` (and rolls
    back); `failed` counts them."""

    def __init__(self, losses: int = 0, error: Exception | None = None) -> None:
        super().__init__()
        self.losses = losses
        self.error = error or StaleVersion("Somebody changed this at the same time; try again.")
        self.failed = 0

    def __call__(self) -> FakeUnitOfWork:
        uow = super().__call__()
        commit = uow.commit

        async def lose() -> None:
            if self.losses <= 0:
                await commit()
                return
            self.losses -= 1
            self.failed += 1
            await uow.rollback()
            raise self.error

        uow.commit = lose  # type: ignore[method-assign]
        return uow


async def _game(factory: LosingRaces) -> tuple[Services, str]:
    services = Services(factory)
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    return services, game.id


async def test_a_lost_race_is_run_again():
    factory = LosingRaces()
    services, game_id = await _game(factory)
    factory.losses = 2
    await services.games.configure(game_id, GM, rules={"pips_enabled": True})
    assert (await stored_game(services, game_id)).rules.pips_enabled
    assert await actions(factory, game_id) == ["game.create", "game.configure"]


async def test_after_three_lost_races_the_user_is_told_to_try_again():
    factory = LosingRaces()
    services, game_id = await _game(factory)
    factory.losses = 3
    with pytest.raises(StaleVersion, match="try again"):
        await services.games.configure(game_id, GM, rules={"pips_enabled": True})
    assert not (await stored_game(services, game_id)).rules.pips_enabled


async def test_a_lost_connection_before_the_commit_is_run_again():
    factory = LosingRaces(error=TransientError("The connection to the database failed."))
    services, game_id = await _game(factory)
    factory.losses = RETRIES - 1
    await services.games.configure(game_id, GM, rules={"pips_enabled": True})
    assert (await stored_game(services, game_id)).rules.pips_enabled and factory.failed == RETRIES - 1


async def test_a_lost_connection_during_the_commit_is_not_run_again():
    """The COMMIT may have been kept: running the command again could do it twice."""
    factory = LosingRaces(error=TransientError("It may have been saved.", in_doubt=True))
    services, game_id = await _game(factory)
    factory.losses = 1
    with pytest.raises(TransientError, match="may have been saved"):
        await services.games.configure(game_id, GM, rules={"pips_enabled": True})
    assert factory.failed == 1
    assert not (await stored_game(services, game_id)).rules.pips_enabled


async def test_retries_do_not_nest_when_edit_posts():
    """`edit` of a message that is no post yet calls `post`: both are retried use cases, and a
    command still runs at most RETRIES times (nested, it was RETRIES squared)."""
    factory = LosingRaces()
    services, game_id = await _game(factory)
    await services.games.add_member(game_id, GM, ALICE, Role.PLAYER)
    assert (await services.characters.create(game_id, ALICE, sheet("Kael"))).ok
    await services.turns.open(game_id, GM)
    factory.losses = 100
    with pytest.raises(StaleVersion):
        await services.turns.edit(game_id, ALICE, channel_key="c1", message_key="m1",
                                  text="1 AP defend")
    assert factory.failed == RETRIES


async def test_retries_do_not_nest_when_add_enemy_creates():
    factory = LosingRaces()
    services, game_id = await _game(factory)
    factory.losses = 100
    with pytest.raises(StaleVersion):
        await services.characters.add_enemy(game_id, GM, sheet("Skarg"))
    assert factory.failed == RETRIES


async def test_reads_are_not_retried():
    """Only use cases that write are marked: a read runs once whatever it raises."""
    calls = 0

    class Failing(FakeUowFactory):
        def __call__(self) -> FakeUnitOfWork:
            nonlocal calls
            calls += 1
            raise TransientError("The connection to the database failed.")

    with pytest.raises(TransientError):
        await Services(Failing()).games.show("g1")
    assert calls == 1

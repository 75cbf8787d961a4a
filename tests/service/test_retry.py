"""A use case that loses an optimistic version race runs again, whole (one transaction each)."""

from __future__ import annotations

import pytest

from fappo_bot.service import Services, StaleVersion
from tests.service.conftest import GM
from tests.service.fakes import FakeUnitOfWork, FakeUowFactory
from tests.service.helpers import actions

pytestmark = pytest.mark.unit


class LosingRaces(FakeUowFactory):
    """Every commit of the first `losses` units of work raises StaleVersion (and rolls back)."""

    def __init__(self, losses: int) -> None:
        super().__init__()
        self.losses = losses

    def __call__(self) -> FakeUnitOfWork:
        uow = super().__call__()
        if self.losses > 0:
            self.losses -= 1

            async def lose() -> None:
                await uow.rollback()
                raise StaleVersion("Somebody changed this at the same time; please try again.")

            uow.commit = lose  # type: ignore[method-assign]
        return uow


async def test_a_lost_race_is_run_again():
    factory = LosingRaces(0)
    services = Services(factory)
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    factory.losses = 2
    view = await services.games.configure(game.id, GM, rules={"pips_enabled": True})
    assert view.rules.pips_enabled
    assert await actions(factory, game.id) == ["game.create", "game.configure"]


async def test_after_three_lost_races_the_user_is_told_to_try_again():
    factory = LosingRaces(0)
    services = Services(factory)
    game = await services.games.create(channel_key="c1", name="A", creator=GM)
    factory.losses = 3
    with pytest.raises(StaleVersion, match="try again"):
        await services.games.configure(game.id, GM, rules={"pips_enabled": True})
    assert not (await services.games.show(game.id)).rules.pips_enabled

"""The records and documents storage builds are remembered by the unit-of-work factory that built
them, never by the module: two databases in one process (two factories) share nothing, and
nothing is kept outside a unit of work."""

from __future__ import annotations

import pytest

from fappo_bot.service.records import GameSettings
from fappo_bot.storage import values
from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory

TEXT = GameSettings().model_dump_json()


@pytest.mark.unit
def test_outside_a_unit_of_work_nothing_is_remembered() -> None:
    assert values.current.get() is None
    assert values.parse(GameSettings, TEXT) is not values.parse(GameSettings, TEXT)


@pytest.mark.unit
def test_a_cache_remembers_what_it_built_and_another_does_not_see_it() -> None:
    one, other = values.Remembered(), values.Remembered()
    token = values.current.set(one)
    try:
        first = values.parse(GameSettings, TEXT)
        assert values.parse(GameSettings, TEXT) is first
    finally:
        values.current.reset(token)
    token = values.current.set(other)
    try:
        assert values.parse(GameSettings, TEXT) is not first
    finally:
        values.current.reset(token)


@pytest.mark.unit
def test_a_full_cache_starts_again() -> None:
    cache = values.Remembered(limit=2)
    for n in range(3):
        cache.remember(cache.parsed, n, lambda n=n: str(n))
    assert list(cache.parsed) == [2]


@pytest.mark.integration
async def test_each_factory_owns_its_cache_and_its_units_of_work_use_it(uow_factory) -> None:
    other = SqlUnitOfWorkFactory(uow_factory.engine)
    assert other.remembered is not uow_factory.remembered
    async with uow_factory():
        assert values.current.get() is uow_factory.remembered
        async with other():
            assert values.current.get() is other.remembered
        assert values.current.get() is uow_factory.remembered
    assert values.current.get() is None


@pytest.mark.unit
def test_a_value_read_is_written_back_as_its_text_not_dumped_again() -> None:
    from pydantic import TypeAdapter

    strings = TypeAdapter(tuple[str, ...])
    text = '["b", "a"]'  # not as pydantic writes it: the text read is what goes back
    token = values.current.set(values.Remembered())
    try:
        read = values.parse_as(strings, text)
        assert values.docs(strings, read) == text
        assert values.docs(strings, ("b", "a")) == '["b","a"]'  # an equal value of its own
        assert values.docs(TypeAdapter(tuple[str, ...]), read) == '["b","a"]'  # another type
        assert values.docs(strings, read, whole=True) == '["b","a"]'
    finally:
        values.current.reset(token)
    assert values.docs(strings, read) == '["b","a"]'  # outside a unit of work: dumped

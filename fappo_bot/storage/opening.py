"""Opening the database for an adapter: the data directory made, the schema upgraded, a
unit-of-work factory over it, and the engine disposed of on the way out (the local table and the
Discord bot share it).

What the operator can get wrong is said in one sentence (`StorageUnavailable`) before anything is
written: an in-memory SQLite database (nothing would be kept), a data directory that is a file,
cannot be created or is read-only, a database server that refuses the connection or has no such
database."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fappo_bot.service.ports import UowFactory
from fappo_bot.settings import CannotStart, Settings

if TYPE_CHECKING:
    from sqlalchemy.engine import URL
    from sqlalchemy.ext.asyncio import AsyncEngine

    from fappo_bot.service.web_links import LinkStore
    from fappo_bot.storage.kept import KeptValues


class StorageUnavailable(CannotStart):
    """The database cannot be opened, or would keep nothing."""


@dataclass(frozen=True)
class Storage:
    """The opened database: its settings and a unit-of-work factory."""

    settings: Settings
    uow_factory: UowFactory
    #: where the data is, for the operator: the SQLite file's absolute path, or the server and
    #: database (no password)
    location: str = ""
    #: small values kept across starts for every process (`fappo_bot.storage.kept`)
    kept: KeptValues | None = field(default=None, compare=False)
    #: the campaign pages' links (`fappo_bot.storage.web_links`)
    links: LinkStore | None = field(default=None, compare=False)


def location(url: URL) -> str:
    """Where a database URL keeps the data, said for the operator (absolute, no password)."""
    if url.get_backend_name() == "sqlite":
        return f"SQLite file {Path(url.database or '').resolve()}"
    host = f"{url.host or 'localhost'}:{url.port or 5432}"
    return f"PostgreSQL database {url.database or '(the user name)'} on {host}"


def checked_storage(settings: Settings, setting: str | None = None) -> URL:
    """The settings' database URL, checked before anything is opened: `DatabaseUrlError` for a
    URL of another database, `StorageUnavailable` for one that would keep nothing or a data
    directory that cannot hold the SQLite file (made here when missing)."""
    from fappo_bot.storage.engine import URL_SETTING, checked_url

    url = checked_url(settings.database_url, setting or URL_SETTING)
    if url.get_backend_name() != "sqlite":
        return url
    if not url.database or url.database == ":memory:" or "mode=memory" in str(url):
        raise StorageUnavailable(
            f"The database URL {settings.database_url!r} in {setting or URL_SETTING} is an "
            f"in-memory SQLite database, which keeps nothing once the process ends: name a file "
            f"(sqlite+aiosqlite:///path/to/file.sqlite3), or leave it unset for the SQLite file "
            f"in the data directory.")
    _check_directory(Path(url.database), bool(settings.database.url))
    return url


def _check_directory(file: Path, from_url: bool) -> None:
    directory = file.parent
    what = ("The directory of the SQLite file in database.url" if from_url
            else "The data directory")
    fix = ("set database.url to a file in a writable directory" if from_url
           else "set data_dir (in the config file, or FAPPO_DATA_DIR) to a writable directory")
    shown = directory.resolve()
    if directory.exists() and not directory.is_dir():
        raise StorageUnavailable(f"{what} {shown} is a file, not a directory: {fix}.")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StorageUnavailable(
            f"{what} {shown} cannot be created ({_reason(exc)}): {fix}.") from None
    try:  # the only sure test: what may write here is decided by more than the mode bits
        with tempfile.TemporaryFile(dir=directory, prefix=".fappo-probe-"):
            pass
    except OSError as exc:
        raise StorageUnavailable(
            f"{what} {shown} is not writable ({_reason(exc)}): {fix}.") from None
    for path in (file, Path(f"{file}-wal"), Path(f"{file}-shm")):
        if path.is_file():
            try:
                with path.open("r+b"):
                    pass
            except OSError as exc:
                raise StorageUnavailable(
                    f"The database file {path.resolve()} is read-only ({_reason(exc)}): give "
                    f"the bot's user write access to it.") from None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    orig = getattr(exc, "orig", None)  # SQLAlchemy's wrapper: the driver's own words
    return str(orig if orig is not None else exc).strip().rstrip(".") or type(exc).__name__


async def reach(engine: AsyncEngine, where: str) -> None:
    """Connect once, so that a server that is not there, refuses the connection or has no such
    database is one sentence (`StorageUnavailable`) rather than a driver's traceback."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
    except (OSError, DBAPIError, InterfaceError, OperationalError) as exc:
        raise StorageUnavailable(
            f"Cannot open the {where} ({_reason(exc)}): check that the database server runs "
            f"and the database exists, or database.url (the config file, or "
            f"FAPPO_DATABASE__URL).") from None


@asynccontextmanager
async def open_storage(settings: Settings) -> AsyncIterator[Storage]:
    """Check the settings' database (`checked_storage`), reach it, upgrade it to the newest
    schema, and yield a unit of work factory; the engine is disposed of on the way out."""
    from fappo_bot.storage.driver import compile_all
    from fappo_bot.storage.engine import create_engine
    from fappo_bot.storage.kept import KeptValues
    from fappo_bot.storage.migrate import upgrade_engine
    from fappo_bot.storage.unit_of_work import SqlUnitOfWorkFactory
    from fappo_bot.storage.web_links import SqlWebLinks

    where = location(checked_storage(settings))
    engine = create_engine(settings)
    try:
        await reach(engine, where)
        await upgrade_engine(engine)
    finally:
        await engine.dispose()
    engine = create_engine(settings)
    try:
        compile_all(engine.dialect)  # now, not in the first posts (and before the heap freezes)
        factory: UowFactory = SqlUnitOfWorkFactory(engine)
        yield Storage(settings, factory, where, KeptValues(engine), SqlWebLinks(engine))
    finally:
        await engine.dispose()

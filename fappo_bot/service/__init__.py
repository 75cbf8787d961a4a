"""The use cases of FAPPO Bot over a unit of work (issue 5).

Adapters (Discord, the local table) build one `Services` in their composition root from a
`uow_factory` (fappo_bot.storage), a `Clock`, an id factory and a salt factory, and call its use
cases; every use case returns view values (`fappo_bot.service.views`) or raises a `ServiceError`
whose `str()` is safe to show. Nothing here knows about Discord or SQLAlchemy.
"""

from fappo_bot.service.clock import Clock, IdFactory, SaltFactory, SystemClock, token_salt, uuid_ids
from fappo_bot.service.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    ServiceError,
    StaleVersion,
)
from fappo_bot.service.ports import UnitOfWork, UowFactory

__all__ = [
    "Clock",
    "Conflict",
    "Forbidden",
    "IdFactory",
    "InvalidInput",
    "NotFound",
    "SaltFactory",
    "ServiceError",
    "StaleVersion",
    "SystemClock",
    "UnitOfWork",
    "UowFactory",
    "token_salt",
    "uuid_ids",
]

"""Running a use case again when its transaction failed for a reason that passes.

A use case is one unit of work, one transaction, rolled back whole when it fails: running it again
is safe when what failed was the race, not the command. `@retried` does that for the use cases
that write, on two errors: `StaleVersion` (another command changed a record first; the next run
reads it afresh) and `TransientError` (the database connection failed before the COMMIT). A
`TransientError` in doubt (the connection failed during the COMMIT, which may have been kept) is
never run again: the user is told to look before trying again.

Retries do not nest: a retried use case that calls another (`edit` calls `post` when the message
was no post yet) runs the inner one once per run of its own, so a command runs at most `RETRIES`
times, not `RETRIES` to the power of the depth.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from fappo_bot.service.errors import StaleVersion, TransientError

P = ParamSpec("P")
T = TypeVar("T")

RETRIES = 3
"""How many times a use case runs at most when it loses a race or the connection fails."""

#: whether the running task is inside a retried use case (its retries cover what it calls)
_retrying: ContextVar[bool] = ContextVar("fappo_retrying", default=False)


def retried(use_case: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """The use case, run again (up to `RETRIES` times in all) on `StaleVersion` or a
    `TransientError` that is not in doubt."""

    @functools.wraps(use_case)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        if _retrying.get():  # the use case that called this one runs the whole again
            return await use_case(*args, **kwargs)
        token = _retrying.set(True)
        try:
            for attempt in range(1, RETRIES + 1):
                try:
                    return await use_case(*args, **kwargs)
                except TransientError as error:
                    if error.in_doubt or attempt == RETRIES:
                        raise
                except StaleVersion:
                    if attempt == RETRIES:
                        raise
            raise AssertionError("unreachable")
        finally:
            _retrying.reset(token)

    return run

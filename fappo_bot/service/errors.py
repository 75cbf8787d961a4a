"""The service's errors: one base whose `str()` is safe to show any user (STYLE practice 2).

Adapters catch `ServiceError` at their one error boundary and show `str(error)` as it is; anything
else is a bug (logged with an id). Every use case raises before it changes anything, so a refused
command leaves no trace but its audit-free refusal.
"""

from __future__ import annotations

from pydantic import ValidationError


class ServiceError(Exception):
    """A refused command. `str()` is a complete sentence a player or GM can act on, with
    no live mention in it: a user's value it quotes is written through `posting.safety.safe`
    where the sentence is made, as in every rendering."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class NotFound(ServiceError):
    """The game, character, turn or post named does not exist (or is not visible to the caller)."""


class Forbidden(ServiceError):
    """The caller may not do this (not a GM, not the character's player, ...)."""


class Conflict(ServiceError):
    """The command does not fit the current state (the turn is closed, the name is taken, ...)."""


class NoOpenTurn(Conflict):
    """The command needs a turn and none is open (none opened yet, or the last one resolved).
    Its sentence ends with what a GM does ("a GM opens the next."); each adapter adds the
    command that does it (`with_command`), which the service does not name."""

    def with_command(self, command: str) -> str:
        """The sentence with the adapter's command for opening a turn:
        "...; a GM opens the next with /turn open."."""
        return f"{self.message.rstrip('.')} with {command}."


class StaleVersion(Conflict):
    """Somebody else changed the record first (optimistic `version` check); try again."""


class TransientError(ServiceError):
    """The database failed for a reason that passes (the connection was lost, the server is
    restarting), not because of the command. Nothing of the command was kept unless `in_doubt`:
    the connection failed during the COMMIT, which may have been kept. Use cases marked
    `@retried` (`service/retry.py`) run again on it unless it is in doubt."""

    def __init__(self, message: str, in_doubt: bool = False) -> None:
        super().__init__(message)
        self.in_doubt = in_doubt


class InvalidInput(ServiceError):
    """The input itself is wrong (a bad sheet, a bad value). `problems` lists every problem."""

    def __init__(self, message: str, problems: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)

    @classmethod
    def of(cls, message: str, error: ValidationError) -> InvalidInput:
        """`message` with a problem per error of a schema's: `field.path: what is wrong`."""
        return cls(message, tuple(
            f"{'.'.join(str(p) for p in e['loc']) or 'value'}: "
            # a dataclass's unknown field, said as a model says it
            f"{'Extra inputs are not permitted' if e['type'] == 'unexpected_keyword_argument' else e['msg']}"
            for e in error.errors()
        ))

    def __str__(self) -> str:
        if not self.problems:
            return self.message
        return self.message + "\n" + "\n".join(f"  - {p}" for p in self.problems)

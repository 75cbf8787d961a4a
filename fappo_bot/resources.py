"""Files the program needs at run time besides its code: the alembic migrations and the example
adventures (FAPPO's and the Xp one). In a checkout (or an editable install) they are at the
repository root; the wheel carries them inside the package, under `fappo_bot/resources/`
(pyproject's hatch `force-include`), so an installed `fappo-bot` finds them from any directory."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


def resource(*parts: str) -> Path:
    """The shipped file or directory `parts` (e.g. "migrations"): inside the installed package,
    else in the checkout; the packaged path when neither exists (its absence is then reported
    by the caller, naming it)."""
    packaged = _PACKAGE.joinpath("resources", *parts)
    if packaged.exists():
        return packaged
    checkout = _CHECKOUT.joinpath(*parts)
    return checkout if checkout.exists() else packaged

"""The views of advancement (F28): a player's tournament ledger across games, and a CC purchase
asked or made. Beside `views.py`, whose `CharacterView` a purchase made carries."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from fappo_bot.service.views import CharacterView

_FROZEN = ConfigDict(frozen=True)


class LedgerView(BaseModel):
    model_config = _FROZEN

    player: str
    total: int
    entries: tuple[tuple[str, int, str], ...]


class AdvanceView(BaseModel):
    """A CC purchase (F28): asked by a player and waiting for a GM, or applied."""

    model_config = _FROZEN

    #: the request's id (what a GM's approval names); empty for a GM's own purchase
    id: str
    character: str
    #: the purchase in the words of a change line (`Swordfighting +1`)
    change: str
    cost: int
    #: CC banked before the purchase
    banked: int
    player: str
    applied: bool
    #: the character after the purchase, when applied
    after: CharacterView | None = None

    @property
    def left(self) -> int:
        """CC banked once the purchase is made."""
        return self.banked - self.cost

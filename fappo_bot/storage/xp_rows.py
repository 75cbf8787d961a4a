"""An Xp post's actions as rows of the `orders` table, kept as FAPPO's orders are (one row each,
named by its actor, in the post's order), so both rulesets' posts are stored and read the same
way and the orders in force (`storage/posts.py`) follow either."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting_xp import XpAction
from fappo_bot.storage.values import RawJSON, doc, parse


class _XpBody(BaseModel):
    """An action under its own key: a row tells which rules wrote it without a column of its
    own (a FAPPO order's document has no `xp` field)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    xp: XpAction


#: how an action's body starts (pydantic writes no whitespace; the JSON columns keep the text)
_HEAD = '{"xp":'


def body(action: XpAction) -> RawJSON:
    """The `orders.body` of an action."""
    return doc(_XpBody(xp=action))


def is_action(text: str) -> bool:
    """Whether an `orders.body` holds an Xp action (else a FAPPO order)."""
    return text.startswith(_HEAD)


def action(text: str) -> XpAction:
    """The action of an `orders.body` that `is_action`."""
    return parse(_XpBody, text).xp

"""How the bot words a legendary item's change of hands and binding (F22): `/gm handover`,
`/gm items` and `/char bind` answer with these, privately (the owner "will otherwise have no
idea who currently has it or where it is", [F:L358]: nothing of it goes to the room)."""

from __future__ import annotations

from collections.abc import Sequence

from fappo_bot.posting.safety import safe
from fappo_bot.service.legendary import ItemView


def _powers(view: ItemView) -> str:
    return "with its powers" if view.powers else "its base weapon only, until bound"


def handed_text(view: ItemView) -> str:
    """The GM's hand-over, said back to the GM."""
    broken = (f" The owner's reclaim breaks the binding of {safe(', '.join(view.broken))}."
              if view.broken else "")
    return (f"{safe(view.owner or 'nobody')}'s legendary '{safe(view.item)}' is now "
            f"{safe(view.holder or 'nobody')}'s ({_powers(view)}).{broken}")


def bound_text(view: ItemView) -> str:
    """A binding, said back to the holder's player."""
    return (f"{safe(view.holder or '')} binds '{safe(view.item)}' ({safe(view.sacrificed or '')}"
            " sacrificed): its powers are theirs now. Its owner knows it was bound, not by "
            "whom (F22).")


def items_text(views: Sequence[ItemView]) -> str:
    """Every recorded item, for the GMs."""
    if not views:
        return "No legendary item is recorded in this game."
    return "\n".join(
        f"- '{safe(v.item)}' of {safe(v.owner or 'nobody')}: held by "
        f"{safe(v.holder or 'nobody')} ({_powers(v)})"
        + (f"; bound to {safe(', '.join(v.bound_to))}" if v.bound_to else "") for v in views)

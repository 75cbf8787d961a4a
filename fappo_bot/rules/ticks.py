"""Ongoing damage dealt at the close of a turn (RULINGS F7 step 6, F18.4, F18.6, F18.14, F18.15).

Only effects that were in force at the start of the turn tick (a status inflicted this turn starts
next turn, F7 Amb-2). Every tick is a provisional, reducible hit (F13 Amb-5) and a move down
gives shock (F10 Amb-4). A successful extinguish or removal this turn stops its tick.
"""

from __future__ import annotations

from fappo_bot.rules.changes import Changes
from fappo_bot.rules.character import Status, StatusKind
from fappo_bot.rules.context import Turn
from fappo_bot.rules.health import is_dead
from fappo_bot.rules.names import fold
from fappo_bot.rules.orders import PendingHit

EXPOSURE_AFTER = 12
"""F18.15 Amb-3: exposure ticks at the ends of turns f+12, f+14, ... after freezing in turn f."""


def exposure_due(status: Status) -> bool:
    """Whether a Freeze reaches an exposure tick this turn (its elapsed count after this turn)."""
    elapsed = status.elapsed + 1
    return elapsed >= EXPOSURE_AFTER and elapsed % 2 == 0


def _removed(changes: Changes, name: str, kind: StatusKind, item: str | None) -> bool:
    return any(
        k is kind and (i is None or item is None or fold(i) == fold(item))
        for k, i in changes.drop_status.get(name, [])
    )


def deal_ticks(turn: Turn, changes: Changes) -> None:
    """Add this turn's ticks to `changes.hits` (ids `t{turn}-{name}-{what}`)."""
    burdened = [name for name, c in turn.chars.items() if c.statuses]  # every tick is a status's
    for name in sorted(burdened, key=fold):
        c = turn.chars[name]
        if c.is_fodder or is_dead(c, turn.config):
            continue
        slug = "-".join(fold(name).split())
        ticks: list[tuple[str, str, str | None]] = []
        if c.has_status(StatusKind.BURNING) and name not in changes.extinguished and not any(
            fold(n) == fold(name) for n in turn.gm.extinguished
        ):
            ticks.append(("fire", "Fire", None))
        for k, s in enumerate(x for x in c.statuses if x.kind is StatusKind.TRANSFIXED):
            if not _removed(changes, name, StatusKind.TRANSFIXED, s.item):
                ticks.append((f"transfix{k + 1}", "Transfix", s.item))
        for s in c.statuses:
            if (s.kind is StatusKind.FROZEN and exposure_due(s)
                    and not _removed(changes, name, StatusKind.FROZEN, None)
                    and name not in turn.gm.freed):
                ticks.append(("exposure", "Freeze", None))
            if s.kind is StatusKind.POISONED and s.note == "mortal" and (s.turns or 0) > 0:
                ticks.append(("poison", "Poison", None))
        for what, special, item in ticks:
            changes.hits.append(PendingHit(
                id=f"t{turn.number}-{slug}-{what}", target=name, attacker=None, weapon=item,
                levels=1, specials=(special,), source="tick", turn=turn.number,
            ))
            changes.event("tick", name, special, 1)

"""What the GM's Xp rolls share: the generator of a roll's seed, the view every kind of
roll shows (`XpShown`), finding a stored roll by its id, and the checks of an Xp game.

Every GM roll (an ad-hoc, Passive or Active roll, a group roll, a PLOT) is one audit entry whose
detail holds its inputs, its seed and its dice, so it can be replayed, shown and turned into a case.
Who sees the records: the GMs of the game only (docs/rulings.md, "Xp GM rolls"): a Passive roll is
secret (RULINGS X7 Amb-8) and a PLOT's unused surprises are the GM's hidden tasks (X14), so the
records, which hold them, stay with the GMs; the table sees what each roll showed when it was made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.rules_xp.config import XpConfig
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.service.base import Deps
from fappo_bot.service.errors import InvalidInput, NotFound
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import AuditEntry, Game

ROLL_ACTION = "xp.roll"
GROUP_ACTION = "xp.group"
PLOT_ACTION = "xp.plot"
PLOT_EVENT_ACTION = "xp.plot.event"
REROLL_ACTION = "xp.reroll"
AUGMENT_ACTION = "xp.augment"
RECORD_ACTIONS = (ROLL_ACTION, GROUP_ACTION, PLOT_ACTION, REROLL_ACTION, AUGMENT_ACTION)
SHORT_ID = 8
"""Ids are shown by their first 8 characters; any unique start of at least 4 finds a roll."""


@dataclass(frozen=True)
class XpShown:
    """A stored roll as it shows: `public` is what the table saw when it was made (empty for a
    secret Passive roll), `gm` the whole record for the GMs (every die, the seed, what is
    secret). `outcome` is one word (`success`, `failure`, `fumble`, `in-progress`...)."""

    id: str
    kind: str
    name: str
    outcome: str
    public: str
    gm: str
    actor: str = ""
    at: datetime | None = None

    @property
    def short_id(self) -> str:
        """The id as shown."""
        return self.id[:SHORT_ID]


def generator(seed: str) -> random.Random:
    """The roll's generator: `random.Random` seeded with the seed text (deterministic across runs
    and versions: a text seed is hashed with SHA-512)."""
    return random.Random(seed)


def game_config(game: Game) -> XpConfig:
    """The Xp core's configuration in `game`: its `xp_*` flags (`service/xp_flags.py`)."""
    return game.settings.xp.config()


def with_case_options(case: dict[str, Any], detail: dict[str, Any]) -> dict[str, Any]:
    """A case made from a stored roll, with the flags it was rolled under as its `options`
    (right after its kind, as the case files write them)."""
    options = detail.get("options")
    if not options:
        return case
    head = [k for k in ("id", "rule", "kind", "type", "note") if k in case]
    return {**{k: case[k] for k in head}, "options": dict(options),
            **{k: v for k, v in case.items() if k not in head}}


def sentence(exc: XpError) -> InvalidInput:
    """An Xp refusal as the service's sentence: capitalised, with its full stop."""
    text = safe_prose(str(exc).strip())  # the rules' words may quote what a user wrote
    text = text[:1].upper() + text[1:]
    return InvalidInput(text if text.endswith((".", "!", "?")) else text + ".")


def find_entry(entries: Sequence[AuditEntry], ref: str, actions: Sequence[str],
               what: str = "roll") -> AuditEntry:
    """The entry whose id starts with `ref` (at least 4 characters, one match)."""
    wanted = ref.strip().casefold()
    if len(wanted) < 4:
        raise InvalidInput(f"A {what} id has at least 4 characters (the list of rolls shows "
                           "them).")
    found = [e for e in entries if e.action in actions and e.id.casefold().startswith(wanted)]
    if not found:
        raise NotFound(f'There is no {what} "{safe(ref)}" in this game.')
    if len(found) > 1:
        raise InvalidInput(f'"{safe(ref)}" starts the ids of {len(found)} rolls; give more of '
                           "the id.")
    return found[0]


async def store(uow: UnitOfWork, deps: Deps, game_id: str, actor: str, action: str,
                detail: dict[str, Any]) -> AuditEntry:
    """Write a roll's audit entry (plain JSON values: numbers, texts, lists) and return it with
    its id."""
    entry = AuditEntry(id=deps.ids(), game_id=game_id, actor=actor, action=action,
                       detail=detail, at=deps.clock.now())
    await uow.audit.add(entry)
    return entry

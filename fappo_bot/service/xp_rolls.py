"""Auditable Xp rolls (issue 13): a GM's ad-hoc roll in an Xp game, from a generator seeded from
the operating system's CSPRNG, stored whole in the game's audit log (its seed, every die and the
result), so any roll can be replayed, shown and turned into a case file.

Each roll draws a fresh 128-bit seed from the injected salt factory (`token_salt` in production:
`secrets.token_hex(16)`); its generator is `random.Random(seed)`, so the recorded dice can be
checked against the seed at any time (`replay`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who
from fappo_bot.rules_xp.dice import RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.roll import RollRecord, roll
from fappo_bot.service.base import UseCases, audit, load_game, require_gm
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.records import AuditEntry, Game
from fappo_bot.service.retry import retried

XP = "xp"
ROLL_ACTION = "xp.roll"
MAX_POOL = 100
"""A GM's ad-hoc roll takes at most this many dice (a typo must not roll a million)."""


@dataclass(frozen=True)
class XpRollView:
    """One stored roll: who rolled what, its seed and dice, and the result."""

    id: str
    actor: str
    name: str
    who: str
    heroic: bool
    seed: str
    dice: tuple[int, ...]
    record: RollRecord


def generator(seed: str) -> random.Random:
    """The roll's generator: `random.Random` seeded with the seed text (deterministic across runs
    and versions: a text seed is hashed with SHA-512)."""
    return random.Random(seed)


def _require_xp(game: Game) -> None:
    if game.ruleset != XP:
        raise Conflict(f'"{game.name}" plays the {game.ruleset} rules; dice-pool rolls are for '
                       "Xp games.")


def roll_detail(view: XpRollView) -> dict[str, Any]:
    """The audit entry's detail: everything needed to replay and show the roll."""
    r = view.record
    return {
        "name": view.name, "who": view.who, "heroic": view.heroic, "pool": r.pool, "sl": r.sl,
        "need": r.need, "seed": view.seed, "dice": list(view.dice), "base": list(r.base),
        "bonus": list(r.bonus), "s": r.s, "o": r.o, "outcome": r.outcome.value,
        "exposures": r.exposures, "special": r.special, "target": r.target,
    }


def replay(detail: dict[str, Any]) -> RollRecord:
    """The roll again from its stored seed; `Conflict` if the stored dice are not what the seed
    gives (the record was altered)."""
    seed = str(detail["seed"])
    recorder = RecordingDice(RandomDice(generator(seed)))
    again = roll(int(detail["pool"]), int(detail["sl"]), heroic=bool(detail["heroic"]),
                 dice=recorder, need=int(detail["need"]))
    if recorder.faces != list(detail["dice"]):
        raise Conflict("The stored dice do not match the roll's seed: the record was altered.")
    return again


def roll_case(detail: dict[str, Any], case_id: str) -> dict[str, Any]:
    """A stored roll as an `xp-roll` case (`../shared/spec/cases-xp.md`), its dice filled in, to
    replay it or try it another way."""
    return {
        "id": case_id, "rule": "X0", "kind": "xp-roll",
        "note": f"replay of a logged roll (seed {detail['seed']})",
        "name": detail["name"], "who": detail["who"], "heroic": detail["heroic"],
        "pool": detail["pool"], "sl": detail["sl"], "need": detail["need"],
        "dice": list(detail["dice"]),
        "expect": {k: detail[k] for k in ("base", "bonus", "s", "o", "outcome", "exposures",
                                          "special")},
    }


def _view(entry: AuditEntry) -> XpRollView:
    d = entry.detail
    return XpRollView(entry.id, entry.actor, d["name"], d["who"], d["heroic"], d["seed"],
                      tuple(d["dice"]), replay(d))


class XpRollService(UseCases):
    """The GM's ad-hoc rolls in an Xp game, and their records."""

    @retried
    async def roll(self, game_id: str, actor: str, *, name: str, pool: int, sl: int = 0,
                   who: str = "pc", heroic: bool | None = None, need: int = 1) -> XpRollView:
        """Roll `pool` dice at `sl` for `name` (RULINGS X0), store the roll and return it. A run
        that failed before its COMMIT stored nothing and showed nothing, so its retry rolls
        afresh with a new seed."""
        if not 0 <= pool <= MAX_POOL:
            raise InvalidInput(f"A roll takes 0 to {MAX_POOL} dice, not {pool}.")
        try:
            side = Who(who)
        except ValueError:
            raise InvalidInput(f'"who" is pc or npc, not "{who}".') from None
        hero = DEFAULT_CONFIG.heroic_default(side) if heroic is None else heroic
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            _require_xp(game)
            await require_gm(uow, game, actor)
            seed = self.deps.salts()
            recorder = RecordingDice(RandomDice(generator(seed)))
            try:
                record = roll(pool, sl, heroic=hero, dice=recorder, need=need)
            except XpError as exc:
                raise InvalidInput(str(exc)) from None
            view = XpRollView("", actor, name, side.value, hero, seed, tuple(recorder.faces),
                              record)
            await audit(uow, self.deps, game.id, actor, ROLL_ACTION, **roll_detail(view))
            await uow.commit()
        return view

    async def rolls(self, game_id: str, actor: str) -> list[XpRollView]:
        """Every stored roll of the game, oldest first, each checked against its seed (GM only)."""
        async with self.uow() as uow:
            game = await load_game(uow, game_id)
            await require_gm(uow, game, actor)
            entries = await uow.audit.list(game.id)
        return [_view(e) for e in entries if e.action == ROLL_ACTION]


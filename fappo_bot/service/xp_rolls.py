"""Auditable Xp rolls: a GM's ad-hoc, Passive and Active rolls in an Xp game, from a
generator seeded from the operating system's CSPRNG, each stored whole in the game's audit log
(its seed, every die and the result), so any roll can be replayed, shown and turned into a case
file; and the list, the record and the case file of every GM roll (group rolls, `xp_group`, and
PLOTs, `xp_plots`, included). Records are for the game's GMs (see `xp_records`).

Each roll draws a fresh 128-bit seed from the injected salt factory (`token_salt` in production:
`secrets.token_hex(16)`); its generator is `random.Random(seed)`, so the recorded dice can be
checked against the seed at any time (`replay`).

A Passive roll (RULINGS X7) is the GM's secret: its stored successes P are kept on the roll, and
an Active roll against it needs P + 1; the table learns only whether the Active roll beat it
(X7 Amb-8), the GM sees P.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.render_xp import render_active, render_passive, render_roll
from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who
from fappo_bot.rules_xp.dice import RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.roll import RollRecord, roll
from fappo_bot.service.base import UseCases, load_game
from fappo_bot.service.errors import Conflict, InvalidInput, NotFound
from fappo_bot.service.records import AuditEntry
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.xp_flags import config_from_options, with_options
from fappo_bot.service.xp_group import group_case, shown_group
from fappo_bot.service.xp_odds import odds_text
from fappo_bot.service.xp_plots import events_of, plot_case, plot_shown
from fappo_bot.service.xp_records import (
    AUGMENT_ACTION,
    GROUP_ACTION,
    PLOT_ACTION,
    RECORD_ACTIONS,
    REROLL_ACTION,
    ROLL_ACTION,
    XpShown,
    find_entry,
    game_config,
    generator,
    sentence,
    store,
    with_case_options,
)
from fappo_bot.service.xp_timed import shown_timed, timed_case

__all__ = ["ROLL_ACTION", "XpRollService", "XpRollView", "XpShown", "generator", "replay",
           "roll_case", "roll_detail"]

MAX_POOL = 100
"""A GM's roll takes at most this many dice (a typo must not roll a million)."""


@dataclass(frozen=True)
class XpRollView:
    """One stored roll: who rolled what, its seed and dice, and the result. `kind` is `roll`,
    `passive` (`stored`: its P) or `active` (`against`: the Passive roll's name, `stored` its P).
    `shown` is what the table and the GM see of it."""

    id: str
    actor: str
    name: str
    who: str
    heroic: bool
    seed: str
    dice: tuple[int, ...]
    record: RollRecord
    kind: str = "roll"
    stored: int | None = None
    against: str | None = None
    at: datetime | None = None

    @property
    def shown(self) -> XpShown:
        """The roll as shown: to the table (nothing of a Passive roll; of an Active one, only
        whether it beat the Passive roll) and to the GM (everything, seed included)."""
        name, against = safe(self.name), safe(self.against or "")
        if self.kind == "passive":
            public, gm = "", render_passive(name, self.record, self.stored or 0)
        elif self.kind == "active":
            public = render_active(name, self.record, against, stored=None)
            gm = render_active(name, self.record, against, stored=self.stored)
        else:
            public = gm = render_roll(name, self.record, heroic=self.heroic)
        return XpShown(self.id, self.kind, self.name, self.record.outcome.value, public,
                       f"{gm}\nSeed {self.seed}.", self.actor, self.at)


def roll_detail(view: XpRollView) -> dict[str, Any]:
    """The audit entry's detail: everything needed to replay and show the roll."""
    r = view.record
    detail: dict[str, Any] = {
        "name": view.name, "who": view.who, "heroic": view.heroic, "pool": r.pool, "sl": r.sl,
        "need": r.need, "seed": view.seed, "dice": list(view.dice), "base": list(r.base),
        "bonus": list(r.bonus), "s": r.s, "o": r.o, "outcome": r.outcome.value,
        "exposures": r.exposures, "special": r.special, "target": r.target, "kind": view.kind,
    }
    if view.stored is not None:
        detail["stored"] = view.stored
    if view.against is not None:
        detail["against"] = view.against
    return detail


def replay(detail: dict[str, Any]) -> RollRecord:
    """The roll again from its stored seed; `Conflict` if the stored dice are not what the seed
    gives (the record was altered)."""
    seed = str(detail["seed"])
    recorder = RecordingDice(RandomDice(generator(seed)))
    again = roll(int(detail["pool"]), int(detail["sl"]), heroic=bool(detail["heroic"]),
                 dice=recorder, need=int(detail["need"]),
                 config=config_from_options(detail.get("options")))
    if recorder.faces != list(detail["dice"]):
        raise Conflict("The stored dice do not match the roll's seed: the record was altered.")
    return again


def roll_case(detail: dict[str, Any], case_id: str) -> dict[str, Any]:
    """A stored roll as a case (`../shared/spec/cases-xp.md`), its dice filled in, to replay it or
    try it another way: an `xp-roll`, or an `xp-contest` of type passive or active."""
    roller = {"name": detail["name"], "who": detail["who"], "heroic": detail["heroic"],
              "pool": detail["pool"], "sl": detail["sl"], "dice": list(detail["dice"])}
    expect = {k: detail[k] for k in ("base", "bonus", "s", "o", "outcome", "exposures",
                                     "special")}
    note = f"replay of a logged roll (seed {detail['seed']})"
    kind = detail.get("kind", "roll")
    if kind == "passive":
        case = {"id": case_id, "rule": "X7", "kind": "xp-contest", "type": "passive",
                "note": note, **roller,
                "expect": {**expect, "stored": detail["stored"],
                           "to_beat": detail["stored"] + 1}}
    elif kind == "active":
        case = {"id": case_id, "rule": "X7", "kind": "xp-contest", "type": "active",
                "note": note, **roller, "against": detail["stored"],
                "expect": {**expect, "need": detail["need"], "stored": detail["stored"]}}
    else:
        case = {"id": case_id, "rule": "X0", "kind": "xp-roll", "note": note, **roller,
                "need": detail["need"], "expect": expect}
    return with_case_options(case, detail)


def _view(entry: AuditEntry) -> XpRollView:
    d = entry.detail
    return XpRollView(entry.id, entry.actor, d["name"], d["who"], d["heroic"], d["seed"],
                      tuple(d["dice"]), replay(d), d.get("kind", "roll"), d.get("stored"),
                      d.get("against"), entry.at)


def _shown(entry: AuditEntry, entries: Sequence[AuditEntry]) -> XpShown:
    if entry.action == GROUP_ACTION:
        return shown_group(entry)
    if entry.action == PLOT_ACTION:
        return plot_shown(entry, events_of(entries, entry.id))
    if entry.action in (REROLL_ACTION, AUGMENT_ACTION):
        return shown_timed(entry)
    return _view(entry).shown


class XpRollService(UseCases):
    """The GM's rolls in an Xp game, and the records of every GM roll."""

    async def _roll(self, game_id: str, actor: str, *, name: str, pool: int, sl: int, who: str,
                    heroic: bool | None, need: int, kind: str = "roll",
                    against: str | None = None) -> XpRollView:
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # a player hears only that GMs roll; a GM hears of a wrong input before the rules
            name, side = _roller(name, pool, sl, who)
            self.require(game, Feature.DICE_POOLS)
            config = game_config(game)
            hero = config.heroic_default(side) if heroic is None else heroic
            stored = None
            if against is not None:
                entries = await uow.audit.list(game.id)
                passive = _passive(entries, against)
                stored, against, need = (int(passive.detail["stored"]),
                                         str(passive.detail["name"]),
                                         int(passive.detail["stored"]) + 1)
            seed = self.deps.salts()
            recorder = RecordingDice(RandomDice(generator(seed)))
            try:
                record = roll(pool, sl, heroic=hero, dice=recorder, need=need, config=config)
            except XpError as exc:
                raise sentence(exc) from None
            if kind == "passive":
                stored = 0 if record.fumble else record.s  # X7 Amb-5: a fumble stores 0
            view = XpRollView("", actor, name, side.value, hero, seed, tuple(recorder.faces),
                              record, kind, stored, against)
            entry = await store(uow, self.deps, game.id, actor, ROLL_ACTION,
                                with_options(roll_detail(view), game.settings.xp))
        return XpRollView(entry.id, actor, name, side.value, hero, seed, view.dice, record, kind,
                          stored, against, entry.at)

    @retried
    async def roll(self, game_id: str, actor: str, *, name: str, pool: int, sl: int = 0,
                   who: str = "pc", heroic: bool | None = None, need: int = 1) -> XpRollView:
        """Roll `pool` dice at `sl` for `name` (RULINGS X0), store the roll and return it. A run
        that failed before its COMMIT stored nothing and showed nothing, so its retry rolls
        afresh with a new seed."""
        return await self._roll(game_id, actor, name=name, pool=pool, sl=sl, who=who,
                                heroic=heroic, need=need)

    @retried
    async def passive(self, game_id: str, actor: str, *, name: str, pool: int, sl: int = 0,
                      who: str = "pc", heroic: bool | None = None) -> XpRollView:
        """The GM's secret Passive roll for `name` (the lock, the hidden gem, X7): its successes
        are stored (0 on a fumble, Amb-5) for later Active rolls to beat."""
        return await self._roll(game_id, actor, name=name, pool=pool, sl=sl, who=who,
                                heroic=heroic, need=1, kind="passive")

    @retried
    async def active(self, game_id: str, actor: str, *, against: str, name: str, pool: int,
                     sl: int = 0, who: str = "pc", heroic: bool | None = None) -> XpRollView:
        """An Active roll by `name` against a stored Passive roll (`against`: its name, the
        latest of that name, or its id): a success needs the Passive successes + 1 (X7)."""
        return await self._roll(game_id, actor, name=name, pool=pool, sl=sl, who=who,
                                heroic=heroic, need=1, kind="active", against=against)

    async def odds(self, game_id: str | None, roll: str, *, need: int = 1, npc: bool = False,
                   brief: bool = False) -> str:
        """The exact odds of `roll` (`xp_odds.odds_text`) as they are in the game `game_id`
        (anyone may ask): under its Xp flags, a PC's or an NPC's (`npc`) roll heroic as its
        `xp_heroic_default` says. Outside an Xp game (`game_id` None, or a FAPPO game), the
        rulings' defaults: PCs heroic, NPCs not."""
        config = DEFAULT_CONFIG
        if game_id is not None:
            async with self.uow() as uow:
                game = await load_game(uow, game_id)
            if self.ruleset(game).has(Feature.DICE_POOLS):
                config = game_config(game)
        heroic = config.heroic_default(Who.NPC if npc else Who.PC)
        return odds_text(roll, need=need, heroic=heroic, brief=brief, config=config)

    async def rolls(self, game_id: str, actor: str) -> list[XpShown]:
        """Every GM roll of the game (rolls, group rolls, PLOTs), oldest first, each checked
        against its seed (GM only)."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            entries = await play.uow.audit.list(play.game.id)
        return [_shown(e, entries) for e in entries if e.action in RECORD_ACTIONS]

    async def show(self, game_id: str, actor: str, roll_id: str) -> XpShown:
        """One roll's whole record, by its id or the start of it (GM only)."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            entries = await play.uow.audit.list(play.game.id)
        return _shown(find_entry(entries, roll_id, RECORD_ACTIONS), entries)

    async def stored_roll(self, game_id: str, actor: str, roll_id: str) -> XpRollView:
        """One single roll (ad-hoc, Passive or Active) with its seed and dice (GM only)."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            entries = await play.uow.audit.list(play.game.id)
        return _view(find_entry(entries, roll_id, (ROLL_ACTION,)))

    async def case(self, game_id: str, actor: str, roll_id: str) -> dict[str, Any]:
        """A roll as a case file's case (GM only), its dice filled in: an `xp-roll`,
        `xp-contest`, `xp-assisted`, `xp-group` or `xp-plot` (`spec/cases-xp.md`)."""
        async with self.in_game(game_id, actor, gm=True, writes=False) as play:
            entries = await play.uow.audit.list(play.game.id)
        entry = find_entry(entries, roll_id, RECORD_ACTIONS)
        _shown(entry, entries)  # checked against its seed first
        case_id = f"logged-{entry.id[:8]}"
        if entry.action == GROUP_ACTION:
            return group_case(entry.detail, case_id)
        if entry.action == PLOT_ACTION:
            return plot_case(entry.detail, events_of(entries, entry.id), case_id)
        if entry.action in (REROLL_ACTION, AUGMENT_ACTION):
            return timed_case(entry, case_id)
        return roll_case(entry.detail, case_id)


def _roller(name: str, pool: int, sl: int, who: str) -> tuple[str, Who]:
    """A roll's name (stripped) and side, refused when the name, the pool or the level is out
    of bounds or the side is neither pc nor npc."""
    name = name.strip()
    if not name or len(name) > 100:
        raise InvalidInput("A roller's name has 1 to 100 characters.")
    if not 0 <= pool <= MAX_POOL:
        raise InvalidInput(f"A roll takes 0 to {MAX_POOL} dice, not {pool}.")
    if not -20 <= sl <= 20:
        raise InvalidInput(f"A superiority level is -20 to +20, not {sl}.")
    try:
        return name, Who(who)
    except ValueError:
        raise InvalidInput(f'"who" is pc or npc, not "{safe(who)}".') from None


def _passive(entries: Sequence[AuditEntry], ref: str) -> AuditEntry:
    """A Passive roll by its name (the latest of that name) or by its id."""
    passives = [e for e in entries
                if e.action == ROLL_ACTION and e.detail.get("kind") == "passive"]
    wanted = ref.strip().casefold()
    named = [e for e in passives if str(e.detail["name"]).casefold() == wanted]
    if named:
        return named[-1]
    if len(wanted) < 4 or not any(e.id.casefold().startswith(wanted) for e in passives):
        raise NotFound(f'There is no Passive roll "{safe(ref)}" in this game (a name or an '
                       "id of one).")
    return find_entry(passives, ref, (ROLL_ACTION,), "Passive roll")

"""The GM's group rolls in an Xp game (RULINGS X10, X11): assisted (the first roller leads),
spontaneous (each for himself) and collateral (a chain, in the order given), stored and replayable
like every GM roll (`xp_records`).

Every roller has his own recorded dice, all drawn from one generator seeded afresh per group roll,
in the order the rules roll them, so the stored dice of each roller replay the roll (and make its
case file) and the seed checks them all. The rollers are typed by the GM (`Aster 6d superior`):
the GM vouches for each one's Xposure (X10 Amb-2), and a `relaunch` member pays 1 Luck for its Good
Luck (X11 Amb-2): when the member is a character of the game with an Xp sheet (its name), the Luck
comes off that sheet, and a relaunch from a sheet at 0 Luck is refused; a name the game does not
know (an extra the GM improvises) keeps its Luck in the GM's notes, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.render_xp import group_head, luck_line, render_assisted, render_members
from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.dice import Dice, DiceStream, RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.group import (
    AssistedResult,
    Member,
    MemberResult,
    assisted,
    collateral,
    spontaneous,
)
from fappo_bot.rules_xp.notation import MemberSpec, parse_members
from fappo_bot.rules_xp.rollers import Roller
from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import AuditEntry, CharacterRecord, CharacterStatus
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.xp_flags import config_from_options, with_options
from fappo_bot.service.xp_records import (
    GROUP_ACTION,
    XpShown,
    game_config,
    generator,
    sentence,
    store,
    with_case_options,
)

GROUP_KINDS = ("assisted", "spontaneous", "collateral")
MAX_MEMBERS = 20


def run_group(detail: dict[str, Any], dice: dict[str, Dice]) -> AssistedResult | list[MemberResult]:
    """The group roll of a stored detail, each member rolling from `dice[name]`."""
    rollers = [Roller(m["name"], dice[m["name"]], int(m["pool"]), int(m["sl"]), Who(m["who"]),
                      bool(m["heroic"])) for m in detail["members"]]
    need = int(detail["need"])
    kind = detail["kind"]
    config = config_from_options(detail.get("options"))
    if kind == "assisted":
        return assisted(rollers[0], rollers[1:], need, config)
    members = [Member(r, luck=1 if m["relaunch"] else 0, relaunches=1 if m["relaunch"] else 0)
               for r, m in zip(rollers, detail["members"], strict=True)]
    if kind == "spontaneous":
        return spontaneous(members, need, config)
    return collateral(members, need, config)


def replay_group(detail: dict[str, Any]) -> AssistedResult | list[MemberResult]:
    """The group roll again from its seed; `Conflict` if a member's stored dice are not the
    seed's."""
    shared = RandomDice(generator(str(detail["seed"])))
    recorders = {m["name"]: RecordingDice(shared) for m in detail["members"]}
    result = run_group(detail, dict(recorders))
    for member in detail["members"]:
        if recorders[member["name"]].faces != list(member["dice"]):
            raise Conflict("The stored dice do not match the roll's seed: the record was altered.")
    return result


def group_outcome(detail: dict[str, Any], result: AssistedResult | list[MemberResult]) -> str:
    """The group's one word: the lead's outcome, or `N/M` members succeeding."""
    if isinstance(result, AssistedResult):
        return result.lead.outcome.value
    done = sum(1 for m in result if m.roll.success)
    return f"{done}/{len(result)}"


def group_text(detail: dict[str, Any], result: AssistedResult | list[MemberResult]) -> str:
    """The group roll as the table sees it, with the Luck a relaunch took off a sheet."""
    kind = detail["kind"]
    head = group_head(kind, [safe(m["name"]) for m in detail["members"]], int(detail["need"]))
    if isinstance(result, AssistedResult):
        return head + "\n" + render_assisted(safe(detail["members"][0]["name"]), result, safe)
    luck = [luck_line(safe(name), before, after)
            for name, (before, after) in detail.get("luck", {}).items()]
    return "\n".join([head, render_members(kind, result, safe), *luck])


def shown_group(entry: AuditEntry) -> XpShown:
    """A stored group roll, checked against its seed."""
    d = entry.detail
    result = replay_group(d)
    text = group_text(d, result)
    return XpShown(entry.id, d["kind"], d["members"][0]["name"], group_outcome(d, result), text,
                   f"{text}\nSeed {d['seed']}.", entry.actor, entry.at)


def group_case(detail: dict[str, Any], case_id: str) -> dict[str, Any]:
    """A stored group roll as an `xp-assisted` or `xp-group` case (`spec/cases-xp.md`)."""
    result = run_group(detail, {m["name"]: DiceStream(m["dice"]) for m in detail["members"]})
    rollers = [{"name": m["name"], "who": m["who"], "heroic": m["heroic"], "pool": m["pool"],
                "sl": m["sl"], "dice": list(m["dice"])} for m in detail["members"]]
    note = f"replay of a logged roll (seed {detail['seed']})"
    if isinstance(result, AssistedResult):
        return with_case_options({
            "id": case_id, "rule": "X10", "kind": "xp-assisted", "note": note,
            "need": detail["need"], "supporters": rollers[1:], "lead": rollers[0],
            "expect": {"delta": result.delta, "outcome": result.lead.outcome.value,
                       "supporters": [{"name": s.name, "delta": s.delta}
                                      for s in result.supporters],
                       "lead": {"pool": result.lead.pool, "s": result.lead.s}}}, detail)
    for roller, member in zip(rollers, detail["members"], strict=True):
        if member["relaunch"]:
            roller.update(luck=1, relaunch=True)
    return with_case_options({
        "id": case_id, "rule": "X11", "kind": "xp-group", "note": note,
        "mode": detail["kind"], "need": detail["need"],
        "order": [m["name"] for m in detail["members"]], "members": rollers,
        "expect": {"members": [{"name": m.name, "outcome": m.roll.outcome.value,
                                "chain_bonus": m.chain_bonus, "s": m.roll.s}
                               for m in result]}}, detail)


async def _sheets_relaunching(uow: UnitOfWork, game_id: str,
                              specs: Sequence[MemberSpec]) -> dict[str, CharacterRecord]:
    """The game's characters (with an Xp sheet) that a `relaunch` member names, by casefolded
    name; one sentence if one of them has no Luck left to pay for it (X11 Amb-2)."""
    wanted = {s.name.casefold() for s in specs if s.relaunch}
    if not wanted:
        return {}
    found = {r.name.casefold(): r for r in await uow.characters.list(game_id)
             if r.name.casefold() in wanted and r.xp is not None
             and r.status is not CharacterStatus.RETIRED}
    broke = [r.name for r in found.values() if r.xp is not None and r.xp.luck < 1]
    if broke:
        has = "has" if len(broke) == 1 else "have"
        raise InvalidInput(f"{', '.join(map(safe, broke))} {has} no Luck left to relaunch the chain with "
                           "(Good Luck costs 1 Luck, X11).")
    return found


async def _pay_luck(uow: UnitOfWork, sheets: dict[str, CharacterRecord],
                    result: list[MemberResult], detail: dict[str, Any]) -> None:
    """1 Luck off the sheet of each character that relaunched the chain; the change is kept in
    the stored roll (`detail["luck"]`: name -> [before, after])."""
    spent: dict[str, list[int]] = {}
    for member in result:
        record = sheets.get(member.name.casefold())
        if not member.relaunched or record is None or record.xp is None:
            continue
        before = record.xp.luck
        await uow.characters.update(record.model_copy(update={
            "xp": record.xp.model_copy(update={"luck": before - 1}),
            "version": record.version + 1}))
        spent[record.name] = [before, before - 1]
    if spent:
        detail["luck"] = spent


def _group_input(kind: str, members: str, need: int) -> tuple[str, list[MemberSpec]]:
    """A group roll's kind (of `GROUP_KINDS`) and rollers as written, refused when the
    kind is none of them, a bound is passed or a chain not collateral is relaunched."""
    kind = kind.strip().casefold()
    if kind not in GROUP_KINDS:
        raise InvalidInput(f'A group roll is assisted, spontaneous or collateral, '
                           f'not "{safe(kind)}".')
    if need < 1:
        raise InvalidInput(f"A roll needs at least 1 success, not {need}.")
    try:
        specs = parse_members(members)
    except XpError as exc:
        raise sentence(exc) from None
    if not 2 <= len(specs) <= MAX_MEMBERS:
        raise InvalidInput(f"A group roll takes 2 to {MAX_MEMBERS} rollers, not {len(specs)}.")
    if kind != "collateral" and any(s.relaunch for s in specs):
        raise InvalidInput("Only a collateral chain is relaunched with Good Luck.")
    return kind, specs


class XpGroupService(UseCases):
    """The GM's group rolls in an Xp game."""

    @retried
    async def group(self, game_id: str, actor: str, *, kind: str, members: str,
                    need: int = 1) -> XpShown:
        """Roll `members` (`Aster 6d, Brin 4d superior npc, ...`) together as an assisted
        (the first one leads, X10), spontaneous or collateral (in the order given, X11) roll,
        store it and return it (GM only)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # a player hears only that GMs do this; a GM hears of a wrong input before the rules
            kind, specs = _group_input(kind, members, need)
            self.require(game, Feature.DICE_POOLS)
            config = game_config(game)
            detail: dict[str, Any] = with_options({
                "kind": kind, "need": need,
                "members": [{"name": s.name, "pool": s.pool, "sl": s.sl, "who": s.who.value,
                             "heroic": config.heroic_default(s.who), "relaunch": s.relaunch}
                            for s in specs],
            }, game.settings.xp)
            sheets = await _sheets_relaunching(uow, game.id, specs)
            detail["seed"] = self.deps.salts()
            shared = RandomDice(generator(detail["seed"]))
            recorders = {m["name"]: RecordingDice(shared) for m in detail["members"]}
            try:
                result = run_group(detail, dict(recorders))
            except XpError as exc:
                raise sentence(exc) from None
            for member in detail["members"]:
                member["dice"] = recorders[member["name"]].faces
            if isinstance(result, list):
                await _pay_luck(uow, sheets, result, detail)
            entry = await store(uow, self.deps, game.id, actor, GROUP_ACTION, detail)
        text = group_text(detail, result)
        return XpShown(entry.id, kind, specs[0].name, group_outcome(detail, result), text,
                       f"{text}\nSeed {detail['seed']}.", actor, entry.at)

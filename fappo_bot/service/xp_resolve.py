"""Resolving an Xp turn: every roll of the actions in force, with the GM's answers,
through `rules_xp` (Passions and Flaws first, then plot points, group rolls, tests with their
assists, contests). Each roller's dice come from a generator seeded with a fresh seed of the
injected salt factory (`xp_rolls.generator`); the seeds and dice are returned for the audit log,
every die for the results. What the rules leave out is not computed (X18)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp import GmRows, Route, XpAction, XpKind, pool_of
from fappo_bot.render_xp import faces_text, roll_text
from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who, XpConfig
from fappo_bot.rules_xp.contest import contested, general
from fappo_bot.rules_xp.dice import RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.group import Member as GroupMember
from fappo_bot.rules_xp.group import (
    assist_delta,
    assisted,
    collateral,
    conceded,
    default_order,
    spontaneous,
)
from fappo_bot.rules_xp.pools import PoolTest
from fappo_bot.rules_xp.roll import RollRecord
from fappo_bot.rules_xp.rollers import Roller, roll_for
from fappo_bot.rules_xp.tables import DIFFICULTY, key
from fappo_bot.service.records import CharacterRecord
from fappo_bot.service.views import ReviewItem
from fappo_bot.service.xp_play import (
    XpInForce,
    answer_key,
    group_key,
    opponent_pool,
    roll_label,
)
from fappo_bot.service.xp_rolls import generator
from fappo_bot.sheets.xp import XpSheet


@dataclass
class _Roll:
    """One roller's seed and recorded dice."""

    name: str
    seed: str
    dice: RecordingDice


@dataclass
class Resolved:
    """What a resolution did: the text lines, the rolls for the audit log, the new sheets."""

    lines: list[str] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
    sheets: dict[str, XpSheet] = field(default_factory=dict)


class _Table:
    """The state of one resolution: the sheets as they change, the SL each character gains this
    turn, and a fresh seeded generator for each roller."""

    def __init__(self, records: Sequence[CharacterRecord], items: Sequence[ReviewItem],
                 salts: Any, config: XpConfig = DEFAULT_CONFIG) -> None:
        self.config = config
        self.records = {r.name.casefold(): r for r in records}
        self.sheets = {r.name.casefold(): r.xp for r in records if r.xp is not None}
        self.answers = {i.key: i.answer for i in items}
        self.salts = salts
        self.sl_bonus: dict[str, int] = {}
        self.out = Resolved()

    def answer(self, f: XpInForce, name: str, default: Any = None) -> Any:
        value = self.answers.get(answer_key(f, name))
        return default if value is None else value

    def sheet(self, name: str) -> XpSheet:
        return self.sheets[name.casefold()]

    def dice(self, name: str) -> _Roll:
        seed = self.salts()
        return _Roll(name, seed, RecordingDice(RandomDice(generator(seed))))

    def roller(self, name: str, pool: int | None, sl: int, heroic: bool,
               xposure: bool = True) -> tuple[Roller, _Roll]:
        record = self.records.get(name.casefold())
        who = Who.NPC if record is None or record.run_by_gm else Who.PC
        made = self.dice(name)
        return Roller(name=name, dice=made.dice, pool=pool, sl=sl, who=who, heroic=heroic,
                      xposure=xposure), made

    def log(self, made: _Roll, what: str, record: RollRecord | None, **extra: Any) -> None:
        entry: dict[str, Any] = {"name": made.name, "what": what, "seed": made.seed,
                                 "dice": list(made.dice.faces), **extra}
        if record is not None:
            entry.update(pool=record.pool, sl=record.sl, need=record.need, base=list(record.base),
                         bonus=list(record.bonus), s=record.s, o=record.o,
                         outcome=record.outcome.value, exposures=record.exposures,
                         special=record.special)
        self.out.rolls.append(entry)


def _rows(table: _Table, f: XpInForce) -> GmRows:
    a = f.action
    claim = a.claim if table.answer(f, "claim", False) else 0
    default = PoolTest.RELATED if table.answer(f, "default") == "related" else PoolTest.SIMILAR
    return GmRows(difficulty=DIFFICULTY(table.answer(f, "difficulty", "routine")),
                  dice=int(table.answer(f, "dice", 0)) + claim, default=default,
                  permitted=bool(table.answer(f, "permit", True)))


def _sl(table: _Table, f: XpInForce, field_name: str = "sl", who: str | None = None) -> int:
    name = who or f.action.actor
    return int(table.answer(f, field_name, 0)) + table.sl_bonus.get(name.casefold(), 0)


def resolve(found: Sequence[XpInForce], records: Sequence[CharacterRecord],
            items: Sequence[ReviewItem], salts: Any,
            config: XpConfig = DEFAULT_CONFIG) -> Resolved:
    """Roll every action in force with the GM's answers (module doc), under the game's Xp
    flags (`config`). Pure but for `salts`."""
    table = _Table(records, items, salts, config)
    lines = table.out.lines
    by_kind: dict[XpKind, list[XpInForce]] = {}
    for f in found:
        by_kind.setdefault(f.action.kind, []).append(f)
    for f in by_kind.get(XpKind.PASSION, []):
        a, sheet = f.action, table.sheet(f.action.actor)
        if not table.answer(f, "relevant", False):
            lines.append(f'{safe(a.actor)}: the Passion "{safe(a.text)}" does not apply now; no '
                         "Luck spent.")
            continue
        if sheet.luck < 1:
            lines.append(f'{safe(a.actor)}: no Luck left for the Passion "{safe(a.text)}".')
            continue
        table.sheets[a.actor.casefold()] = sheet.model_copy(update={"luck": sheet.luck - 1})
        table.sl_bonus[a.actor.casefold()] = table.sl_bonus.get(a.actor.casefold(), 0) + 1
        lines.append(f'{safe(a.actor)} invokes the Passion "{safe(a.text)}": Luck {sheet.luck} '
                     f"-> {sheet.luck - 1}, +1 SL on this turn's rolls (X15).")
    for f in by_kind.get(XpKind.FLAW, []):
        a, sheet = f.action, table.sheet(f.action.actor)
        if not table.answer(f, "relevant", False):
            lines.append(f'{safe(a.actor)}: the Flaw "{safe(a.text)}" does not come into play.')
            continue
        other = str(table.answer(f, "opponent", ""))
        table.sheets[a.actor.casefold()] = sheet.model_copy(update={"luck": sheet.luck + 1})
        table.sl_bonus[other.casefold()] = table.sl_bonus.get(other.casefold(), 0) + 1
        lines.append(f'{safe(a.actor)}\'s Flaw "{safe(a.text)}" comes into play: Luck '
                     f"{sheet.luck} -> {sheet.luck + 1}; {safe(other)} gets +1 SL this turn "
                     "(X15).")
    for f in by_kind.get(XpKind.PLOT, []):
        a, sheet = f.action, table.sheet(f.action.actor)
        points = min(a.points, sheet.plot_points)
        table.sheets[a.actor.casefold()] = sheet.model_copy(
            update={"plot_points": sheet.plot_points - points})
        task = f' on "{safe(a.text)}"' if a.text else ""
        if table.answer(f, "counter", False):
            lines.append(f"{safe(a.actor)} spends {points} plot point(s){task}; the GM counters: "
                         "the point is lost and the task must be played (X14).")
        else:
            lines.append(f"{safe(a.actor)} spends {points} plot point(s){task}: the task "
                         "succeeds without a roll (X14).")
    _groups(table, by_kind.get(XpKind.GROUP, []))
    supporters: dict[str, list[XpInForce]] = {}
    for f in by_kind.get(XpKind.ASSIST, []):
        if table.answer(f, "allowed", False):
            supporters.setdefault((f.action.target or "").casefold(), []).append(f)
        else:
            lines.append(f"{safe(f.action.actor)} cannot assist {safe(f.action.target or '')} "
                         "this time (the GM's call, X10).")
    leads: set[str] = set()
    for f in by_kind.get(XpKind.TEST, []):
        _test(table, f, supporters.pop(f.action.actor.casefold(), []) if f.action.actor.casefold()
              not in leads else [])
        leads.add(f.action.actor.casefold())
    for f in by_kind.get(XpKind.CONTEST, []):
        _contest(table, f, supporters.pop(f.action.actor.casefold(), [])
                 if f.action.actor.casefold() not in leads else [])
        leads.add(f.action.actor.casefold())
    for lead, helpers in supporters.items():
        for f in helpers:
            lines.append(f"{safe(f.action.actor)} has no roll of {safe(f.action.target or lead)} "
                         "to assist this turn: nothing rolled.")
    if any(r.get("exposures") for r in table.out.rolls):
        lines.append("Exposures: what they give the enemies is the GM's call (X4 Amb-4).")
    table.out.sheets = {table.records[k].name: v for k, v in table.sheets.items()
                        if table.records[k].xp != v}
    return table.out


def _what(f: XpInForce) -> str:
    a = f.action
    label = roll_label(a)
    if a.route is Route.DEFAULT:
        label += f" (default to {a.via})"
    elif a.route is Route.CHARACTERISTIC and a.characteristic is not None:
        label += f" (default to {a.characteristic.value})"
    elif a.characteristic is not None and a.route is Route.SKILL:
        label += f" using {a.characteristic.value}"
    return safe(label) + (f' ("{safe(a.text)}")' if a.text else "")


def _test(table: _Table, f: XpInForce, helpers: list[XpInForce]) -> None:
    a = f.action
    sheet = table.sheet(a.actor)
    rows = _rows(table, f)
    pool = pool_of(sheet, a, rows)
    need = int(table.answer(f, "need", 1))
    roller, made = table.roller(a.actor, pool.pool, _sl(table, f), a.heroic,
                                xposure=a.route is Route.SKILL)
    head = f"{safe(a.actor)}, {_what(f)}, {table.answer(f, 'difficulty', 'routine')}"
    if helpers and a.route is not Route.SKILL:
        table.out.lines.append(f"{', '.join(safe(h.action.actor) for h in helpers)} cannot "
                               f"assist: {safe(a.actor)} rolls by default, without the skill "
                               "(an assisted lead needs its Xposure, X10)")
        helpers = []
    if not helpers:
        if table.answer(f, "concede", False):
            _, record = conceded(roller, True, need, table.config)
        else:
            record = general(roller, need, table.config)
        table.log(made, "test", record)
        table.out.lines.append(f"{head}: {roll_text(record)}")
        return
    support = []
    for h in helpers:
        skill = h.action.skill or a.skill
        helper_sheet = table.sheet(h.action.actor)
        owned = helper_sheet.skill(skill or "") if skill else None
        action = XpAction(actor=h.action.actor, line=h.action.line, kind=XpKind.TEST,
                          skill=owned.name if owned else skill, heroic=h.action.heroic)
        hpool = pool_of(helper_sheet, action, GmRows(difficulty=rows.difficulty))
        helper, hmade = table.roller(h.action.actor, hpool.pool if owned else None,
                                     _sl(table, h), h.action.heroic, xposure=owned is not None)
        support.append((helper, hmade))
    try:
        result = assisted(roller, [s for s, _ in support], need, table.config)
    except XpError as exc:
        table.out.lines.append(f"{head}: {safe(str(exc))}")
        return
    for helper, hmade in support:
        found = next((s for s in result.supporters if s.name == helper.name), None)
        table.log(hmade, "assist", found.roll if found else None)
        if found is not None:
            table.out.lines.append(f"  {safe(found.name)} assists: {roll_text(found.roll)} "
                                   f"(lead {found.delta:+d}d, X10)")
    for error in result.errors:
        table.out.lines.append(f"  {safe(str(error))}")
    table.log(made, "test", result.lead)
    table.out.lines.append(f"{head}, assisted ({result.delta:+d}d): {roll_text(result.lead)}")


def _contest(table: _Table, f: XpInForce, helpers: list[XpInForce]) -> None:
    a = f.action
    sheet = table.sheet(a.actor)
    pool = pool_of(sheet, a, _rows(table, f))
    opponent = a.target or ""
    theirs, their_label, their_heroic = opponent_pool(table.sheets, f,
                                                      str(table.answer(f, "opponent", "")),
                                                      table.config.heroic_npc)
    delta = 0
    notes = []
    for h in helpers:
        helper_sheet = table.sheet(h.action.actor)
        owned = helper_sheet.skill(h.action.skill or a.skill or "")
        if owned is None:
            notes.append(f"  {safe(h.action.actor)} cannot assist: assisting needs the skill "
                         "itself (X10 Amb-2)")
            continue
        action = XpAction(actor=h.action.actor, line=h.action.line, kind=XpKind.TEST,
                          skill=owned.name, heroic=h.action.heroic)
        helper, hmade = table.roller(h.action.actor, pool_of(helper_sheet, action).pool,
                                     _sl(table, h), h.action.heroic)
        record = roll_for(helper, config=table.config)
        table.log(hmade, "assist", record)
        delta += assist_delta(record)
        notes.append(f"  {safe(h.action.actor)} assists: {roll_text(record)} "
                     f"(lead {assist_delta(record):+d}d, X10)")
    mine, made = table.roller(a.actor, None if pool.pool is None else pool.pool + delta,
                              _sl(table, f), a.heroic, xposure=a.route is Route.SKILL)
    other, their_made = table.roller(opponent, theirs, _sl(table, f, "opponent_sl", opponent),
                                     their_heroic)
    tie = table.answer(f, "tie")
    try:
        result = contested(mine, other, tie, table.config)
    except XpError as exc:
        table.out.lines.append(f"{safe(a.actor)} against {safe(opponent)}: {safe(str(exc))}")
        return
    table.out.lines.extend(notes)
    sides = []
    for side, rolled in zip(result.sides, (made, their_made), strict=True):
        table.log(rolled, "contest", side.roll, total=side.total,
                  rerolls=[list(r) for r in side.rerolls])
        again = "".join(f" then {faces_text(r)}" for r in side.rerolls)
        sides.append(f"  {safe(side.name)}: {roll_text(side.roll, outcome=False)}{again}"
                     + (f" -> {side.total} in all" if side.rerolls else ""))
    how = {"successes": "", "tiebreak": f" after {result.tiebreaks} tie-break(s)",
           "player": " (still tied: the player's side wins, X7)",
           "choice": " (still tied: the chosen side wins, X7)"}[result.decided_by]
    table.out.lines.append(f"{safe(a.actor)}, {_what(f)} against {safe(opponent)} "
                           f"({safe(their_label)}): {safe(result.winner)} wins by {result.net}"
                           f"{how}")
    table.out.lines.extend(sides)


def _groups(table: _Table, members: Sequence[XpInForce]) -> None:
    by_label: dict[str, list[XpInForce]] = {}
    for f in members:
        by_label.setdefault(key(roll_label(f.action)), []).append(f)
    for label, group in by_label.items():
        mode = table.answers.get(group_key(label, "mode"), "spontaneous")
        difficulty = DIFFICULTY(table.answers.get(group_key(label, "difficulty")) or "routine")
        made: dict[str, _Roll] = {}
        crew = []
        for f in group:
            sheet = table.sheet(f.action.actor)
            pool = pool_of(sheet, f.action, GmRows(difficulty=difficulty))
            roller, rolled = table.roller(f.action.actor, pool.pool, _sl(table, f),
                                          f.action.heroic)
            made[f.action.actor] = rolled
            relaunch = f.action.relaunch and mode == "collateral"
            crew.append(GroupMember(roller, luck=sheet.luck, relaunches=1 if relaunch else 0))
        order = table.answers.get(group_key(label, "order"))
        if mode == "collateral":
            if order:
                rank = {n.casefold(): i for i, n in enumerate(order)}
                crew.sort(key=lambda m: rank.get(m.roller.name.casefold(), 99))
            else:
                crew = default_order(crew)
            results = collateral(crew, config=table.config)
        else:
            results = spontaneous(crew, config=table.config)
        title = roll_label(group[0].action)
        table.out.lines.append(f"Group roll of {safe(title)} ({mode}, "
                               f"{table.answers.get(group_key(label, 'difficulty')) or 'routine'}"
                               "):")
        for r in results:
            table.log(made[r.name], f"group {mode}", r.roll, chain_bonus=r.chain_bonus,
                      rolls=len(r.rolls), relaunched=r.relaunched)
            for number, (record, chain) in enumerate(zip(r.rolls, r.chain_bonuses, strict=True)):
                bonus = f" (chain +{chain}d)" if chain else ""
                again = " relaunches the chain with Good Luck" if number or (
                    r.relaunched and len(r.rolls) == 1) else ""
                table.out.lines.append(f"  {safe(r.name)}{again}{bonus}: {roll_text(record)}")
            if not r.rolls:
                table.out.lines.append(f"  {safe(r.name)}: {roll_text(r.roll)}")
            sheet = table.sheet(r.name)
            if r.luck != sheet.luck:
                table.out.lines.append(f"  {safe(r.name)}: Luck {sheet.luck} -> {r.luck} (X11)")
                table.sheets[r.name.casefold()] = sheet.model_copy(update={"luck": r.luck})
            table.out.lines.extend(f"  {safe(str(e))}" for e in r.errors)
        if mode != "collateral" and any(f.action.relaunch for f in group):
            table.out.lines.append("  (a spontaneous roll has no chain to relaunch: no Luck "
                                   "spent)")

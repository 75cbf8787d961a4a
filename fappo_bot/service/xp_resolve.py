"""Resolving an Xp turn: every roll of the actions in force, with the GM's answers,
through `rules_xp` (Passions and Flaws first, then plot points, group rolls, tests with their
assists, contests). Each roller's dice come from a generator seeded with a fresh seed of the
injected salt factory (`xp_rolls.generator`); the seeds and dice are returned for the audit log,
every die for the results. What the rules leave out is not computed (X18)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp import GmRows, Route, XpAction, XpKind, pool_of
from fappo_bot.render_xp import (
    assisted_line,
    group_head,
    luck_line,
    member_lines,
    reroll_lines,
    reroll_verdict,
    roll_text,
    supporter_line,
)
from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who, XpConfig
from fappo_bot.rules_xp.contest import contested, general
from fappo_bot.rules_xp.dice import RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.group import (
    Augment,
    assist_delta,
    assisted,
    collateral,
    conceded,
    default_order,
    spontaneous,
)
from fappo_bot.rules_xp.group import Member as GroupMember
from fappo_bot.rules_xp.pools import PoolTest
from fappo_bot.rules_xp.rerolls import reroll_over_time
from fappo_bot.rules_xp.roll import RollOutcome, RollRecord
from fappo_bot.rules_xp.rollers import Roller, roll_for
from fappo_bot.rules_xp.tables import DIFFICULTY, characteristic, key
from fappo_bot.service.records import CharacterRecord
from fappo_bot.service.timetext import duration_text
from fappo_bot.service.views import ReviewItem
from fappo_bot.service.xp_contest_words import contest_side, contest_verdict
from fappo_bot.service.xp_play import (
    XpInForce,
    answer_key,
    group_key,
    opponent_pool,
    roll_label,
)
from fappo_bot.service.xp_rolls import generator
from fappo_bot.sheets.xp import XpSheet
from fappo_bot.words import plural


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
    #: what happened that rolled no die (a Cut! and its Luck price), for the audit log
    events: list[dict[str, Any]] = field(default_factory=list)
    sheets: dict[str, XpSheet] = field(default_factory=dict)


class _Table:
    """The state of one resolution: the sheets as they change, the SL each character gains this
    turn, and a fresh seeded generator for each roller."""

    def __init__(self, records: Sequence[CharacterRecord], items: Sequence[ReviewItem],
                 salts: Any, config: XpConfig = DEFAULT_CONFIG, longer: bool = False) -> None:
        self.config = config
        self.longer = longer
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
            config: XpConfig = DEFAULT_CONFIG, longer: bool = False) -> Resolved:
    """Roll every action in force with the GM's answers (module doc), under the game's Xp
    flags (`config`; `longer`: `xp_failure_takes_longer`, X6). Pure but for `salts`."""
    table = _Table(records, items, salts, config, longer)
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
    for f in by_kind.get(XpKind.CUT, []):
        _cut(table, f)
    for f in by_kind.get(XpKind.PLOT, []):
        a, sheet = f.action, table.sheet(f.action.actor)
        points = min(a.points, sheet.plot_points)
        table.sheets[a.actor.casefold()] = sheet.model_copy(
            update={"plot_points": sheet.plot_points - points})
        task = f' on "{safe(a.text)}"' if a.text else ""
        if table.answer(f, "counter", False):
            lines.append(f"{safe(a.actor)} spends {plural(points, 'plot point')}{task}; the GM counters: "
                         "the point is lost and the task must be played (X14).")
        else:
            lines.append(f"{safe(a.actor)} spends {plural(points, 'plot point')}{task}: the task "
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
    added = _augments(table, f, rows)
    roller, made = table.roller(a.actor, None if pool.pool is None else pool.pool + added,
                                _sl(table, f), a.heroic, xposure=a.route is Route.SKILL)
    head = f"{safe(a.actor)}, {_what(f)}, {table.answer(f, 'difficulty', 'routine')}"
    if added:
        head += f", augmented (+{added}d)"
    if a.over_time:
        if helpers:
            table.out.lines.append(f"{', '.join(safe(h.action.actor) for h in helpers)} cannot "
                                   f"assist a roll over time (X9): nothing rolled")
        _over_time(table, f, roller, made, head, need)
        return
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
        table.log(made, "test", record, **_longer(table, f, record))
        table.out.lines.append(f"{head}: {roll_text(record)}{_longer_text(table, f, record)}")
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
            table.out.lines.append("  " + supporter_line(safe(found.name), found.roll,
                                                         found.delta))
    for error in result.errors:
        table.out.lines.append(f"  {safe(str(error))}")
    table.log(made, "test", result.lead, **_longer(table, f, result.lead))
    table.out.lines.append(assisted_line(head, result.delta, result.lead)
                           + _longer_text(table, f, result.lead))


def _cut(table: _Table, f: XpInForce) -> None:
    """X17: a Cut! the GM granted, paid at the GM's Luck price (X15 Amb-1); the GM narrates what
    it does (Amb-1). Not granted, or not enough Luck: nothing spent."""
    a, sheet = f.action, table.sheet(f.action.actor)
    what = f'the Cut! "{safe(a.text)}"'
    if not table.answer(f, "granted", False):
        table.out.lines.append(f"{safe(a.actor)}: {what} is not granted; no Luck spent (X17).")
        return
    price = int(table.answer(f, "price", 0))
    if sheet.luck < price:
        table.out.lines.append(f"{safe(a.actor)}: {what} costs {price} Luck and "
                               f"{safe(a.actor)} has {sheet.luck}; not taken (X17).")
        return
    table.sheets[a.actor.casefold()] = sheet.model_copy(update={"luck": sheet.luck - price})
    table.out.events.append({"kind": "cut", "name": a.actor, "text": a.text, "price": price,
                             "luck": [sheet.luck, sheet.luck - price]})
    table.out.lines.append(f"{safe(a.actor)} takes {what}: Luck {sheet.luck} -> "
                           f"{sheet.luck - price}, the GM's price; the GM narrates it (X17).")


def _augments(table: _Table, f: XpInForce, rows: GmRows) -> int:
    """X12: the actor's augment rolls, made first if the GM allows them; the dice they add (each
    one's successes, none for a fumble, Amb-1)."""
    a = f.action
    if not a.augments:
        return 0
    if not table.answer(f, "augment", False):
        table.out.lines.append(f"{safe(a.actor)} has no time to augment the roll (the GM's "
                               "call, X12).")
        return 0
    sheet = table.sheet(a.actor)
    added = 0
    for name in a.augments:
        owned = sheet.skill(name)
        action = XpAction(actor=a.actor, line=a.line, kind=XpKind.TEST,
                          skill=owned.name if owned else None,
                          route=Route.SKILL if owned else Route.RAW,
                          characteristic=None if owned else characteristic(name))
        apool = pool_of(sheet, action, GmRows(difficulty=rows.difficulty))
        roller, made = table.roller(a.actor, apool.pool, _sl(table, f), a.heroic)
        augment = Augment(name, roll_for(roller, config=table.config))
        table.log(made, "augment", augment.roll, augments=f"{roll_label(a)}")
        added += augment.added
        table.out.lines.append(f"  {safe(a.actor)} augments with {safe(name)}: "
                               f"{roll_text(augment.roll)} (+{augment.added}d, X12)")
    return added


def _over_time(table: _Table, f: XpInForce, roller: Roller, made: _Roll, head: str,
               need: int) -> None:
    """X9: the attempt over the GM's time units, every unit's dice shown."""
    unit, units = int(table.answer(f, "unit", 60)), int(table.answer(f, "units", 1))
    try:
        result = reroll_over_time(roller, need=need, time_unit=unit, max_units=units,
                                  config=table.config)
    except XpError as exc:
        table.out.lines.append(f"{head}: {safe(str(exc))}")
        return
    elapsed = duration_text(timedelta(seconds=result.elapsed))
    table.log(made, "over time", None, pool=roller.pool, need=need, unit=unit, units=units,
              end=result.end.value, s=result.roller.successes, elapsed=result.elapsed)
    table.out.lines.append(f"{head}, over time ({duration_text(timedelta(seconds=unit))} a "
                           f"unit, at most {units}), need {need}: "
                           f"{reroll_verdict(result, elapsed)}")
    table.out.lines.extend("  " + line for line in reroll_lines(result.roller))


def _contest_over_time(table: _Table, f: XpInForce, me: tuple[Roller, _Roll],
                       them: tuple[Roller, _Roll], head: str) -> None:
    """X9, Contested: both sides reroll every unit; the first to lead wins, a tie fails."""
    unit, units = int(table.answer(f, "unit", 60)), int(table.answer(f, "units", 1))
    try:
        result = reroll_over_time(me[0], time_unit=unit, max_units=units, opponent=them[0],
                                  config=table.config)
    except XpError as exc:
        table.out.lines.append(f"{head}: {safe(str(exc))}")
        return
    assert result.opponent is not None
    elapsed = duration_text(timedelta(seconds=result.elapsed))
    for (roller, made), side in ((me, result.roller), (them, result.opponent)):
        table.log(made, "contest over time", None, pool=roller.pool, unit=unit, units=units,
                  end=result.end.value, s=side.successes, elapsed=result.elapsed)
    table.out.lines.append(f"{head}, over time ({duration_text(timedelta(seconds=unit))} a "
                           f"unit, at most {units}): {reroll_verdict(result, elapsed)} "
                           f"({result.roller.successes} to {result.opponent.successes})")
    for roller, side in ((me[0], result.roller), (them[0], result.opponent)):
        table.out.lines.extend(f"  {safe(roller.name)}, {line}" for line in reroll_lines(side))


TOOK_LONGER = ("; it took longer than thought: time was freely available, so the task "
               "succeeds after more time (X6)")


def _longer(table: _Table, f: XpInForce, record: RollRecord) -> dict[str, Any]:
    """X6, the game's `xp_failure_takes_longer`: a failed test where the GM says time was freely
    available counts as done, later (`took_longer` in its audit entry). A fumble stays one, and
    a failure without a roll (no dice, a default refused) is no matter of time."""
    if table.longer and record.rolled and record.outcome is RollOutcome.FAILURE \
            and table.answer(f, "longer", True):
        return {"took_longer": True}
    return {}


def _longer_text(table: _Table, f: XpInForce, record: RollRecord) -> str:
    return TOOK_LONGER if _longer(table, f, record) else ""  # X6, the flag's wording


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
        notes.append("  " + supporter_line(safe(h.action.actor), record, assist_delta(record)))
    mine, made = table.roller(a.actor, None if pool.pool is None else pool.pool + delta,
                              _sl(table, f), a.heroic, xposure=a.route is Route.SKILL)
    other, their_made = table.roller(opponent, theirs, _sl(table, f, "opponent_sl", opponent),
                                     their_heroic)
    tie = table.answer(f, "tie")
    if a.over_time:
        table.out.lines.extend(notes)
        _contest_over_time(table, f, (mine, made), (other, their_made),
                           f"{safe(a.actor)}, {_what(f)} against {safe(opponent)} "
                           f"({safe(their_label)})")
        return
    try:
        result = contested(mine, other, tie, table.config)
    except XpError as exc:
        table.out.lines.append(f"{safe(a.actor)} against {safe(opponent)}: {safe(str(exc))}")
        return
    table.out.lines.extend(notes)
    for side, rolled in zip(result.sides, (made, their_made), strict=True):
        table.log(rolled, "contest", side.roll, total=side.total,
                  rerolls=[list(r) for r in side.rerolls])
    table.out.lines.append(f"{safe(a.actor)}, {_what(f)} against {safe(opponent)} "
                           f"({safe(their_label)}): {contest_verdict(result)}")
    table.out.lines.extend(contest_side(side) for side in result.sides)


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
        hard = table.answers.get(group_key(label, "difficulty")) or "routine"
        table.out.lines.append(group_head(mode, [safe(r.name) for r in results], 1,
                                          of=safe(roll_label(group[0].action)), difficulty=hard))
        for r in results:
            table.log(made[r.name], f"group {mode}", r.roll, chain_bonus=r.chain_bonus,
                      rolls=len(r.rolls), relaunched=r.relaunched)
        table.out.lines.extend("  " + line for line in member_lines(mode, results, safe))
        for r in results:
            sheet = table.sheet(r.name)
            if r.luck != sheet.luck:
                table.out.lines.append("  " + luck_line(safe(r.name), sheet.luck, r.luck))
                table.sheets[r.name.casefold()] = sheet.model_copy(update={"luck": r.luck})
        if mode != "collateral" and any(f.action.relaunch for f in group):
            table.out.lines.append("  (a spontaneous roll has no chain to relaunch: no Luck "
                                   "spent)")

"""Playing an Xp game (issue 13): posts read by the Xp post language, the GM's review questions
and the resolution with every die shown, behind the same use cases as FAPPO's turn flow
(`turns.post/edit/delete`, `review.review/answer`, `resolution.resolve`), which dispatch here on
`game.ruleset`. Nothing of FAPPO's rules runs for an Xp game.

- A post's actions are not stored apart: its text is (with its revision, as for FAPPO), and it is
  read again against the sheets when the GM reviews and resolves (the last valid revision counts;
  a character's actions are those of the newest post that has any, F29 Amb-3 read for Xp).
- Every review question is a `ReviewItem` keyed like FAPPO's (post, revision, actor, index,
  field), so the table's prompt and the bot's review panel ask them unchanged.
- Each roller's dice come from a generator seeded with a fresh CSPRNG seed (`xp_rolls.generator`
  over the injected salt factory); every seed and every die go to the audit log (`xp.turn`), so
  the turn can be replayed, and every die goes out in the results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp import (
    GmRows,
    Route,
    XpAction,
    XpKind,
    XpPostContext,
    parse_xp_post,
    pool_of,
    render_roll,
    render_xp_reply,
)
from fappo_bot.posting_xp.parser import is_table_talk
from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who
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
from fappo_bot.rules_xp.tables import DIFFICULTY, characteristic, key, sl_named
from fappo_bot.service.base import gm_ids
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import (
    CharacterRecord,
    CharacterStatus,
    Game,
    Post,
    PostRevision,
    Turn,
)
from fappo_bot.service.views import ReviewItem
from fappo_bot.service.xp_rolls import generator
from fappo_bot.sheets.xp import XpSheet

XP = "xp"
MAX_NEED = 30
MAX_DICE = 30
MAX_SL = 6
_YES = {"yes", "y", "true", "1", "accept", "accepted", "on"}
_NO = {"no", "n", "false", "0", "refuse", "refused", "off"}


def is_xp(ruleset: str) -> bool:
    return ruleset == XP


# ---- reading posts ------------------------------------------------------------------------------
def sheets_of(records: Sequence[CharacterRecord]) -> dict[str, XpSheet]:
    """The Xp sheet of every character that has one, by name."""
    return {r.name: r.xp for r in records if r.xp is not None}


def context(controls: Sequence[CharacterRecord], records: Sequence[CharacterRecord],
            gm: bool) -> XpPostContext:
    """What the parser needs: the sheets of the characters the poster controls (in order), and
    everyone's name."""
    sheets = {r.name: r.xp for r in controls if r.xp is not None}
    names = tuple(r.name for r in records if r.status is CharacterStatus.ACTIVE)
    return XpPostContext(sheets=sheets, names=names, gm=gm)


@dataclass(frozen=True)
class XpRead:
    """A post as the Xp language read it: its actions or its problems, and the reply."""

    actions: tuple[XpAction, ...]
    problems: tuple[Any, ...]
    reply: str
    mechanics: bool

    @property
    def ok(self) -> bool:
        return not self.problems


def read(text: str, ctx: XpPostContext) -> XpRead:
    parsed = parse_xp_post(text, ctx)
    return XpRead(parsed.actions, parsed.problems, render_xp_reply(parsed, ctx.sheets),
                  parsed.mechanics)


def table_talk(text: str) -> bool:
    return is_table_talk(text)


@dataclass(frozen=True)
class XpInForce:
    """One action in force, with the post and revision it comes from and its index there."""

    action: XpAction
    post: Post
    revision: PostRevision
    index: int


def in_force(pairs: Sequence[tuple[Post, PostRevision]], records: Sequence[CharacterRecord],
             gm_users: frozenset[str]) -> list[XpInForce]:
    """Every action in force: each valid post read again against today's sheets; per character,
    the newest post with actions for it wins."""
    ordered = sorted(pairs, key=lambda pr: (pr[1].created_at, pr[0].updated_at, pr[0].id))
    newest: dict[str, list[XpInForce]] = {}
    for post, revision in ordered:
        if not revision.ok or not revision.text:
            continue
        gm = post.author in gm_users
        controls = [r for r in records if r.status is CharacterStatus.ACTIVE and (
            r.runner() == post.author or (gm and r.run_by_gm))]
        parsed = parse_xp_post(revision.text, context(controls, records, gm))
        if not parsed.ok:
            continue  # a sheet changed since: the post no longer reads; it counts for nothing
        mine: dict[str, list[XpInForce]] = {}
        for index, action in enumerate(parsed.actions):
            mine.setdefault(action.actor.casefold(), []).append(
                XpInForce(action, post, revision, index))
        newest.update(mine)
    return [f for name in sorted(newest) for f in newest[name]]


async def load_in_force(uow: UnitOfWork, game: Game, turn: Turn,
                        records: Sequence[CharacterRecord]) -> list[XpInForce]:
    """`in_force` of the turn's posts, read in the unit of work."""
    gms = frozenset(await gm_ids(uow, game))
    return in_force(await uow.posts.latest_revisions(turn.id), records, gms)


# ---- the review ---------------------------------------------------------------------------------
def _key(found: XpInForce, field_name: str) -> str:
    return (f"{found.post.id}:{found.revision.number}:{found.action.actor}:{found.index}:"
            f"{field_name}")


def _group_key(label: str, field_name: str) -> str:
    return f"xp-group:{label}:{field_name}"


DIFFICULTIES = ("easy", "routine", "difficult", "hard", "heroic", "impossible")
LEVELS = ("hopeless", "weak", "poor", "normal", "advantage", "superior", "dominant")


def _label(action: XpAction) -> str:
    if action.route is Route.RAW and action.characteristic is not None:
        return f"raw {action.characteristic.value}"
    return action.skill or ""


def review_items(found: Sequence[XpInForce], records: Sequence[CharacterRecord],
                 answers: Mapping[str, Any]) -> list[ReviewItem]:
    """Every GM input the actions in force need (R1 Xp), in actor order, defaults shown."""
    items: list[ReviewItem] = []
    names = tuple(r.name for r in records if r.status is CharacterStatus.ACTIVE)
    by_name = {r.name.casefold(): r for r in records}
    groups: dict[str, list[XpInForce]] = {}

    def add(key_: str, actor: str, index: int | None, field_name: str, question: str,
            required: bool, choices: Sequence[str] = ()) -> None:
        items.append(ReviewItem(key=key_, actor=actor, index=index, field=field_name,
                                question=question, required=required, choices=tuple(choices),
                                answer=answers.get(key_)))

    for f in found:
        a = f.action
        head = f"{safe(a.actor)}, line {a.line}"

        def ask(field_name: str, question: str, required: bool,
                choices: Sequence[str] = (), f: XpInForce = f, a: XpAction = a) -> None:
            add(_key(f, field_name), a.actor, f.index, field_name, question, required, choices)

        if a.kind is XpKind.GROUP:
            groups.setdefault(key(_label(a)), []).append(f)
            continue
        if a.kind in (XpKind.TEST, XpKind.CONTEST):
            what = f"{_label(a)}" + (f' ("{safe(a.text)}")' if a.text else "")
            if a.kind is XpKind.TEST:
                ask("difficulty", f"{head}, test of {what}: difficulty? (X6)", True,
                    DIFFICULTIES)
            else:
                target = safe(a.target or "")
                ask("opponent", f"{head}, contest of {what} against {target}: what does "
                    f"{target} roll? (a skill of {target}'s sheet, a characteristic, or a "
                    "number of dice; X7)", True)
                ask("opponent_sl", f"{head}: {target}'s Superiority Level? (X3; default "
                    "normal)", False, LEVELS)
                mine = by_name.get(a.actor.casefold())
                theirs = by_name.get((a.target or "").casefold())
                if mine is not None and theirs is not None and \
                        mine.run_by_gm == theirs.run_by_gm:
                    ask("tie", f"{head}: if still tied after the tie-breaks, who wins? (X7: "
                        "the players' or the GM's choice)", True, (a.actor, a.target or ""))
            ask("sl", f"{head}: {safe(a.actor)}'s Superiority Level? (X3; default normal, "
                "plus a relevant Passion)", False, LEVELS)
            if a.kind is XpKind.TEST:
                ask("need", f"{head}: successes needed? (default 1; an Active roll against "
                    "a stored Passive P needs P + 1, X7)", False)
                mine = by_name.get(a.actor.casefold())
                if mine is not None and not mine.run_by_gm:
                    ask("concede", f"{head}: concede it, as not significant? (X13: 1 success "
                        "without a roll for 4d or more, needing 1; default no)", False,
                        ("yes", "no"))
            ask("dice", f"{head}: dice for time, tools or light? (X6; default 0)", False)
            if a.claim:
                ask("claim", f"{head}: accept the {a.claim:+d}d {safe(a.actor)} asks for?",
                    True, ("accept", "refuse"))
            if a.route is Route.DEFAULT:
                ask("default", f"{head}: is {safe(a.via or '')} similar or related to "
                    f"{safe(a.skill or '')}? (X8: -1d or -2d)", True, ("similar", "related"))
            if a.route is Route.CHARACTERISTIC:
                ask("permit", f"{head}: may {safe(a.actor)} default {safe(a.skill or '')} to "
                    f"{a.characteristic.value if a.characteristic else ''} (1d + level)? (X8)",
                    True, ("yes", "no"))
        elif a.kind is XpKind.ASSIST:
            ask("allowed", f"{head}: can {safe(a.actor)} assist {safe(a.target or '')}'s roll "
                "(is there time, X10)?", True, ("yes", "no"))
        elif a.kind is XpKind.PLOT:
            ask("counter", f"{head}: {safe(a.actor)} spends {a.points} plot point(s)"
                + (f' on "{safe(a.text)}"' if a.text else "")
                + "; does the GM counter with a GM plot point? (X14)", True, ("yes", "no"))
        elif a.kind is XpKind.PASSION:
            ask("relevant", f'{head}: is the Passion "{safe(a.text)}" relevant now? (X15: 1 '
                "Luck, +1 SL)", True, ("yes", "no"))
        elif a.kind is XpKind.FLAW:
            ask("relevant", f'{head}: does the Flaw "{safe(a.text)}" come into play? (X15: '
                "+1 Luck, an opponent +1 SL)", True, ("yes", "no"))
            if _bool(answers.get(_key(f, "relevant"))):
                ask("opponent", f"{head}: who gains +1 SL from {safe(a.actor)}'s Flaw?", True,
                    [n for n in names if n.casefold() != a.actor.casefold()])
    for label, members in groups.items():
        first = members[0].action
        who = ", ".join(safe(m.action.actor) for m in members)
        head = f"group roll of {_label(first)} ({who})"
        add(_group_key(label, "mode"), first.actor, None, "mode",
            f"{head}: spontaneous (each for themself) or collateral (a chain)? (X11)", True,
            ("spontaneous", "collateral"))
        add(_group_key(label, "difficulty"), first.actor, None, "difficulty",
            f"{head}: difficulty? (X6)", True, DIFFICULTIES)
        add(_group_key(label, "order"), first.actor, None, "order",
            f"{head}: the order of a chain? (X11 Amb-1; default the biggest pool first)",
            False, tuple(m.action.actor for m in members))
    return items


def _bool(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    return True if text in _YES else False if text in _NO else None


def _choice(item: ReviewItem, value: Any) -> str:
    text = str(value).strip().casefold()
    for choice in item.choices:
        if key(choice) == key(text):
            return choice
    raise InvalidInput(f"{item.question} Choose one of: {', '.join(item.choices)}.")


def _whole(item: ReviewItem, value: Any, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise InvalidInput(f"{item.question} Answer with a whole number.") from None
    if not low <= number <= high:
        raise InvalidInput(f"{item.question} Answer from {low} to {high}.")
    return number


def coerce(item: ReviewItem, value: Any, records: Sequence[CharacterRecord],
           found: Sequence[XpInForce] = ()) -> Any:
    """The answer as its field needs it; InvalidInput says what was expected. A contest's
    opponent answer is checked against the opponent's sheet (`found`: the actions in force)."""
    f = item.field
    if f == "opponent" and not item.choices:
        text = _opponent(item, value)
        contest = next((x for x in found if _key(x, "opponent") == item.key), None)
        if contest is not None:
            table = _Table(records, [item.model_copy(update={"answer": text})], lambda: "")
            try:
                _opponent_pool(table, contest)
            except InvalidInput as exc:
                raise InvalidInput(f"{item.question} {exc}") from None
        return text
    if f in {"claim", "permit", "allowed", "counter", "relevant", "concede"}:
        result = _bool(value)
        if result is None:
            raise InvalidInput(f"{item.question} Answer {' or '.join(item.choices)}.")
        return result
    if f in {"difficulty", "default", "mode", "tie"}:
        return _choice(item, value)
    if f in {"sl", "opponent_sl"}:
        text = str(value).strip()
        try:
            return _whole(item, text, -MAX_SL, MAX_SL) if text.lstrip("+-").isdigit() \
                else sl_named(text)
        except XpError:
            raise InvalidInput(f"{item.question} Answer one of {', '.join(LEVELS)}, or a "
                               "number (0 is normal).") from None
    if f == "need":
        return _whole(item, value, 1, MAX_NEED)
    if f == "dice":
        return _whole(item, str(value).strip().removesuffix("d"), -MAX_DICE, MAX_DICE)
    if f == "opponent" and item.choices:
        return _choice(item, value)
    if f == "order":
        parts = [p.strip() for p in str(value).split(",") if p.strip()]
        chosen = [_choice(item, p) for p in parts]
        if sorted(chosen) != sorted(item.choices):
            raise InvalidInput(f"{item.question} Name each member once: "
                               f"{', '.join(item.choices)}.")
        return chosen
    raise InvalidInput(f"Unknown review question: {item.key}")


def _opponent(item: ReviewItem, value: Any) -> str:
    text = " ".join(str(value).split())
    if not text or len(text) > 100:
        raise InvalidInput(f"{item.question} Name a skill or a characteristic, or give a number "
                           "of dice.")
    if text.isdigit() and int(text) > MAX_DICE:
        raise InvalidInput(f"{item.question} At most {MAX_DICE} dice.")
    return text


# ---- resolution ---------------------------------------------------------------------------------
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
                 salts: Any) -> None:
        self.records = {r.name.casefold(): r for r in records}
        self.sheets = {r.name.casefold(): r.xp for r in records if r.xp is not None}
        self.answers = {i.key: i.answer for i in items}
        self.salts = salts
        self.sl_bonus: dict[str, int] = {}
        self.out = Resolved()

    def answer(self, f: XpInForce, name: str, default: Any = None) -> Any:
        value = self.answers.get(_key(f, name))
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


def _opponent_pool(table: _Table, f: XpInForce) -> tuple[int | None, str, bool]:
    """The opponent's pool from the GM's answer: a skill of its sheet, a characteristic (raw),
    or a number of dice; its heroic flag from its sheet."""
    name = f.action.target or ""
    answer = str(table.answer(f, "opponent", ""))
    sheet = table.sheets.get(name.casefold())
    heroic = bool(sheet.heroic) if sheet is not None else DEFAULT_CONFIG.heroic_npc
    if answer.isdigit():
        return int(answer), f"{answer}d", heroic
    if sheet is None:
        raise InvalidInput(f"{name} has no Xp sheet: give the number of dice it rolls.")
    skill = sheet.skill(answer)
    try:
        char = characteristic(answer) if skill is None else None
    except XpError:
        char = None
    if skill is None and char is None:
        raise InvalidInput(f'{name} has no skill "{answer}" (skills: '
                           f"{', '.join(s.name for s in sheet.skills) or 'none'}); give one, a "
                           "characteristic or a number of dice.")
    action = XpAction(actor=name, line=0, kind=XpKind.TEST, skill=skill.name if skill else None,
                      route=Route.SKILL if skill else Route.RAW, characteristic=char)
    pool = pool_of(sheet, action)
    return pool.pool, (skill.name if skill else f"raw {answer.upper()}"), heroic


def resolve(found: Sequence[XpInForce], records: Sequence[CharacterRecord],
            items: Sequence[ReviewItem], salts: Any) -> Resolved:
    """Roll every action in force with the GM's answers (module doc). Pure but for `salts`."""
    table = _Table(records, items, salts)
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
    label = _label(a)
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
            _, record = conceded(roller, True, need)
        else:
            record = general(roller, need)
        table.log(made, "test", record)
        table.out.lines.append(f"{head}: {render_roll(record)}")
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
        result = assisted(roller, [s for s, _ in support], need)
    except XpError as exc:
        table.out.lines.append(f"{head}: {safe(str(exc))}")
        return
    for helper, hmade in support:
        found = next((s for s in result.supporters if s.name == helper.name), None)
        table.log(hmade, "assist", found.roll if found else None)
        if found is not None:
            table.out.lines.append(f"  {safe(found.name)} assists: {render_roll(found.roll)} "
                                   f"-> {found.delta:+d}d to the lead (X10)")
    for error in result.errors:
        table.out.lines.append(f"  {safe(str(error))}")
    table.log(made, "test", result.lead)
    table.out.lines.append(f"{head}, assisted ({result.delta:+d}d): {render_roll(result.lead)}")


def _contest(table: _Table, f: XpInForce, helpers: list[XpInForce]) -> None:
    a = f.action
    sheet = table.sheet(a.actor)
    pool = pool_of(sheet, a, _rows(table, f))
    opponent = a.target or ""
    theirs, their_label, their_heroic = _opponent_pool(table, f)
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
        record = roll_for(helper)
        table.log(hmade, "assist", record)
        delta += assist_delta(record)
        notes.append(f"  {safe(h.action.actor)} assists: {render_roll(record)} -> "
                     f"{assist_delta(record):+d}d to the lead (X10)")
    mine, made = table.roller(a.actor, None if pool.pool is None else pool.pool + delta,
                              _sl(table, f), a.heroic, xposure=a.route is Route.SKILL)
    other, their_made = table.roller(opponent, theirs, _sl(table, f, "opponent_sl", opponent),
                                     their_heroic)
    tie = table.answer(f, "tie")
    try:
        result = contested(mine, other, tie)
    except XpError as exc:
        table.out.lines.append(f"{safe(a.actor)} against {safe(opponent)}: {safe(str(exc))}")
        return
    table.out.lines.extend(notes)
    sides = []
    for side, rolled in zip(result.sides, (made, their_made), strict=True):
        table.log(rolled, "contest", side.roll, total=side.total,
                  rerolls=[list(r) for r in side.rerolls])
        again = "".join(f" then [{', '.join(map(str, r))}]" for r in side.rerolls)
        sides.append(f"  {safe(side.name)}: {render_roll(side.roll, outcome=False)}{again}"
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
        by_label.setdefault(key(_label(f.action)), []).append(f)
    for label, group in by_label.items():
        mode = table.answers.get(_group_key(label, "mode"), "spontaneous")
        difficulty = DIFFICULTY(table.answers.get(_group_key(label, "difficulty")) or "routine")
        made: dict[str, _Roll] = {}
        crew = []
        for f in group:
            sheet = table.sheet(f.action.actor)
            pool = pool_of(sheet, f.action, GmRows(difficulty=difficulty))
            roller, rolled = table.roller(f.action.actor, pool.pool, _sl(table, f),
                                          f.action.heroic)
            made[f.action.actor] = rolled
            crew.append(GroupMember(roller, luck=sheet.luck))
        order = table.answers.get(_group_key(label, "order"))
        if mode == "collateral":
            if order:
                rank = {n.casefold(): i for i, n in enumerate(order)}
                crew.sort(key=lambda m: rank.get(m.roller.name.casefold(), 99))
            else:
                crew = default_order(crew)
            results = collateral(crew)
        else:
            results = spontaneous(crew)
        title = _label(group[0].action)
        table.out.lines.append(f"Group roll of {safe(title)} ({mode}, "
                               f"{table.answers.get(_group_key(label, 'difficulty')) or 'routine'}"
                               "):")
        for r in results:
            table.log(made[r.name], f"group {mode}", r.roll, chain_bonus=r.chain_bonus)
            bonus = f" (chain +{r.chain_bonus}d)" if r.chain_bonus else ""
            table.out.lines.append(f"  {safe(r.name)}{bonus}: {render_roll(r.roll)}")


def results_text(turn: int, resolved: Resolved) -> str:
    """The results message: every roll with every die."""
    body = resolved.lines or ["Nothing to roll this turn."]
    return "\n".join([f"Turn {turn} results (Xp):", *body])

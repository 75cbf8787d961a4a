"""Plain text of the Xp post language: the reply to a post (which roll each line will be and its
pool), a sheet, and the dice of a roll. Pure; every name a player wrote passes `safe`."""

from __future__ import annotations

from collections.abc import Mapping

from fappo_bot.posting.render import render_problems
from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp.models import Route, XpAction, XpKind, XpParsedPost
from fappo_bot.posting_xp.pools import GmRows, breakdown, pool_of
from fappo_bot.rules_xp.pools import PoolTest
from fappo_bot.rules_xp.roll import Mode, RollRecord
from fappo_bot.rules_xp.tables import sl_name
from fappo_bot.sheets.xp import XpSheet


def _dice(n: int | None) -> str:
    return "no roll" if n is None else f"{n}d"


def pool_text(sheet: XpSheet, action: XpAction) -> str:
    """`6d (4 + rank 1 + characteristic 1)`, both kinds of default for a skill default, and the
    characteristic default's need of the GM's leave."""
    if action.route is Route.DEFAULT:
        similar = pool_of(sheet, action, GmRows(default=PoolTest.SIMILAR))
        related = pool_of(sheet, action, GmRows(default=PoolTest.RELATED))
        return (f"{_dice(similar.pool)} if the GM rules {safe(action.via or '')} similar, "
                f"{_dice(related.pool)} if related (X8)")
    pool = pool_of(sheet, action)
    text = f"{_dice(pool.pool)} ({breakdown(pool)})"
    if action.route is Route.CHARACTERISTIC:
        text += ", if the GM allows a characteristic default (X8)"
    return text


def _what(action: XpAction) -> str:
    if action.route is Route.RAW and action.characteristic is not None:
        return f"a raw {action.characteristic.value} test"
    name = safe(action.skill or "")
    if action.route is Route.DEFAULT:
        return f"{name} by default to {safe(action.via or '')}"
    if action.route is Route.CHARACTERISTIC and action.characteristic is not None:
        return f"{name} by default to {action.characteristic.value}"
    if action.characteristic is not None:
        return f"{name} using {action.characteristic.value}"
    return name


def describe(action: XpAction, sheet: XpSheet | None) -> str:
    """One line of the reply: the roll the line will be and its pool."""
    who = safe(action.actor)
    extra = ""
    if action.claim:
        extra += f", {action.claim:+d}d asked of the GM"
    if action.kind in (XpKind.TEST, XpKind.CONTEST, XpKind.GROUP, XpKind.ASSIST):
        extra += ", heroic dice on 6s" if action.heroic else ""
    task = f': "{safe(action.text)}"' if action.text and action.kind not in (
        XpKind.PASSION, XpKind.FLAW) else ""
    pool = pool_text(sheet, action) if sheet is not None and action.kind in (
        XpKind.TEST, XpKind.CONTEST, XpKind.GROUP) else ""
    if action.kind is XpKind.TEST:
        what = _what(action) if action.route is Route.RAW else f"a test of {_what(action)}"
        return (f"{who}: {what}{task}, {pool}{extra}. The GM sets the "
                "difficulty and the Superiority Level (General roll, X7).")
    if action.kind is XpKind.CONTEST:
        return (f"{who}: a contest of {_what(action)} against {safe(action.target or '')}"
                f"{task}, {pool}{extra}. The GM says what {safe(action.target or '')} rolls "
                "(Contested, X7).")
    if action.kind is XpKind.GROUP:
        again = (" If the chain breaks, 1 Luck relaunches it from you (Good Luck)."
                 if action.relaunch else "")
        return (f"{who}: joins the group roll of {_what(action)}{task}, {pool}{extra}. The GM "
                f"says spontaneous or collateral, and the order (X11).{again}")
    if action.kind is XpKind.ASSIST:
        skill = (f"with {safe(action.skill)}" if action.skill
                 else "with the skill of that roll")
        own = ""
        if sheet is not None and action.skill:
            own = f", {pool_text(sheet, action.model_copy(update={'route': Route.SKILL}))}"
        return (f"{who}: assists {safe(action.target or '')}'s roll {skill}{own}{extra}: a "
                "success gives the lead +1d, a failure -1d, a fumble -2d (X10).")
    if action.kind is XpKind.PLOT:
        left = f" ({sheet.plot_points - action.points} left)" if sheet is not None else ""
        return (f"{who}: spends {action.points} plot point(s){left}{task}: the task succeeds "
                "without a roll unless the GM counters (X14).")
    if action.kind is XpKind.PASSION:
        return (f'{who}: invokes the Passion "{safe(action.text)}": 1 Luck, +1 SL on this '
                "turn's rolls if the GM finds it relevant (X15).")
    return (f'{who}: invokes the Flaw "{safe(action.text)}": +1 Luck if the GM finds it '
            "relevant, and an opponent the GM names gets +1 SL (X15).")


def render_xp_reply(parsed: XpParsedPost, sheets: Mapping[str, XpSheet]) -> str:
    """The reply to a post: every problem, or each action's roll and pool."""
    if parsed.problems:
        return render_problems(parsed.problems)
    by_key = {name.casefold(): sheet for name, sheet in sheets.items()}
    return "\n".join(describe(a, by_key.get(a.actor.casefold())) for a in parsed.actions)


def render_roll(record: RollRecord, outcome: bool = True) -> str:
    """Every die of a roll and what it made: `5d at Normal (5-6): [6, 4, 2, 1, 5] + heroic [3]:
    2 successes, 1 exposure: success`."""
    level = f"{sl_name(record.sl).title()} ({record.target})"
    head = f"{record.pool}d at {level}"
    if record.mode is not Mode.ROLL:
        why = {
            Mode.NO_DICE: "no dice left: fails without a roll (X2 Amb-4)",
            Mode.ABOVE_DOMINANT: "above Dominant: every die a success, no roll (X3)",
            Mode.BELOW_FLOOR: "below Hopeless: fails without a roll (X3)",
            Mode.CONCEDED: "conceded: 1 success, no roll (X13)",
            Mode.CHAIN_BROKEN: "the chain broke before: fails without a roll (X11)",
            Mode.CANNOT_ROLL: "cannot be rolled (X6, X8)",
        }[record.mode]
        return f"{head}: {why}: {record.s} success(es): {record.outcome.value}"
    dice = "[" + ", ".join(map(str, record.base)) + "]"
    if record.bonus:
        dice += " + heroic [" + ", ".join(map(str, record.bonus)) + "]"
    need = f", need {record.need}" if record.need != 1 else ""
    ones = ""
    if record.fumble:
        ones = f", {record.o} one(s): more 1s than successes"
    elif record.exposures:
        ones = f", {record.exposures} exposure(s)"
    special = f" ({record.special} special)" if record.special else ""
    if not outcome:  # a contest's side: the contest decides, not the side's own need
        return f"{head}: {dice}: {record.s} success(es){ones}"
    return (f"{head}{need}: {dice}: {record.s} success(es){ones}: "
            f"{record.outcome.value}{special}")

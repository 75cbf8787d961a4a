"""Plain text of the Xp post language: the reply to a post (which roll each line will be and its
pool). Pure; every name a player wrote passes `safe`. The dice of a roll are shown by `render_xp`
(`roll_text`), the one rendering of a roll for the GM's rolls and a turn's results alike."""

from __future__ import annotations

from collections.abc import Mapping

from fappo_bot.posting.render import render_problems
from fappo_bot.posting.safety import safe
from fappo_bot.posting_xp.models import Route, XpAction, XpKind, XpParsedPost
from fappo_bot.posting_xp.pools import GmRows, breakdown, pool_of
from fappo_bot.rules_xp.pools import PoolTest
from fappo_bot.sheets.xp import XpSheet
from fappo_bot.words import plural

XP_POST_FORMS = """\
Xp posts (docs/players.md, "Playing Xp"): story lines, and one mechanics line per roll:
  roll SKILL [using CHAR] [with MOD] [+1d] [not heroic]: TASK   a test; the GM sets the difficulty
  roll CHAR (a raw characteristic)   roll SKILL via OTHER (a default, X8)
  roll SKILL against NAME   a contest      assist NAME [with SKILL]   your roll helps NAME's
  roll SKILL over time   rerolls over time (X9)   roll SKILL augmented by OTHER (X12)
  group roll SKILL [, relaunch with good luck]   spend N plot points on TASK
  passion: TEXT   flaw: TEXT   Cut!: WHAT YOU DO (the GM names its Luck price, X17)
  Character: NAME (the lines after it are NAME's)"""
"""The Xp post forms in a few lines, for each adapter's help in an Xp game (the whole guide is
`docs/players.md`, "Playing Xp")."""


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
        XpKind.PASSION, XpKind.FLAW, XpKind.CUT) else ""
    pool = pool_text(sheet, action) if sheet is not None and action.kind in (
        XpKind.TEST, XpKind.CONTEST, XpKind.GROUP) else ""
    if action.over_time:
        extra += ", over time: each unit rerolls the dice that did not succeed, 1s are lost (X9)"
    if action.augments:
        extra += (f", augmented by {', '.join(safe(a) for a in action.augments)}: rolled first, "
                  "their successes add dice (X12)")
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
        return (f"{who}: spends {plural(action.points, 'plot point')}{left}{task}: the task succeeds "
                "without a roll unless the GM counters (X14).")
    if action.kind is XpKind.PASSION:
        return (f'{who}: invokes the Passion "{safe(action.text)}": 1 Luck, +1 SL on this '
                "turn's rolls if the GM finds it relevant (X15).")
    if action.kind is XpKind.CUT:
        luck = f" (Luck {sheet.luck})" if sheet is not None else ""
        return (f'{who}: asks for a Cut! "{safe(action.text)}"{luck}: the GM grants it or not '
                "and names its Luck price (X17).")
    return (f'{who}: invokes the Flaw "{safe(action.text)}": +1 Luck if the GM finds it '
            "relevant, and an opponent the GM names gets +1 SL (X15).")


def render_xp_reply(parsed: XpParsedPost, sheets: Mapping[str, XpSheet]) -> str:
    """The reply to a post: every problem, or each action's roll and pool."""
    if parsed.problems:
        return render_problems(parsed.problems)
    by_key = {name.casefold(): sheet for name, sheet in sheets.items()}
    return "\n".join(describe(a, by_key.get(a.actor.casefold())) for a in parsed.actions)

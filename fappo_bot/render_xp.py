"""Plain-text renderings of Xp rolls, group rolls, PLOTs and odds, shared by every adapter (the
local table, the bot, `fappo-bot odds`): one way to show a roll, with every die (base and heroic),
the successes, the Superiority Level, the outcome and the exposures or the fumble (RULINGS X0-X5).

Pure: values of `rules_xp` in, text out. The adapters decide where the text goes (and who sees it).
Names arrive made safe (`posting.safety.safe`, by the caller); the names a result holds are written
through `name`, which the callers give as `safe`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from fappo_bot.rules_xp.group import AssistedResult, MemberResult
from fappo_bot.rules_xp.odds import Odds
from fappo_bot.rules_xp.plots import PlotResult, TaskStatus
from fappo_bot.rules_xp.rerolls import RerollEnd, RerollResult, RerollSide
from fappo_bot.rules_xp.roll import Mode, RollOutcome, RollRecord
from fappo_bot.rules_xp.tables import sl_name
from fappo_bot.words import plural

_UNROLLED = {
    Mode.NO_DICE: "no dice to roll: an automatic failure (X2 Amb-4)",
    Mode.ABOVE_DOMINANT: "above Dominant: no roll, every die succeeds (X3)",
    Mode.BELOW_FLOOR: "below the floor: no roll, a failure (X3)",
    Mode.CONCEDED: "conceded by the GM: one success, no roll (X13)",
    Mode.CHAIN_BROKEN: "the chain is broken: an automatic failure (X11)",
    Mode.CANNOT_ROLL: "cannot be rolled: a failure (X6, X8)",
}




def level_text(record: RollRecord) -> str:
    """`Superior (3-6)`, `Weak (6x2)`, `1 above dominant (auto)`."""
    return f"{sl_name(record.sl).capitalize()} ({record.target})"


def faces_text(faces: Sequence[int]) -> str:
    """`[5 2 6 1]`: dice as every rendering shows them (a roll's, a reroll's)."""
    return "[" + " ".join(str(f) for f in faces) + "]"


def dice_text(record: RollRecord) -> str:
    """`[5 2 6 1] + heroic [4]`: the base dice, then the bonus dice of the natural 6s (X5)."""
    if not record.rolled:
        return _UNROLLED.get(record.mode, "no roll")
    text = faces_text(record.base)
    if record.bonus:
        text += " + heroic " + faces_text(record.bonus)
    return text


def outcome_text(record: RollRecord) -> str:
    """`success, 2 extra, 1 exposure` / `FUMBLE (3 ones, 1 success)` / `failure`."""
    if record.outcome is RollOutcome.FUMBLE:
        return f"FUMBLE ({plural(record.o, 'one')} against {plural(record.s, 'success')})"
    parts = [record.outcome.value]
    if record.special:
        parts.append(f"{record.special} extra")
    if record.exposures:
        parts.append(plural(record.exposures, "exposure"))
    return ", ".join(parts)


def roll_text(record: RollRecord, *, heroic: bool | None = None, outcome: bool = True) -> str:
    """A roll without its roller (the one rendering of a roll's dice, successes, level and
    outcome, for the GM's rolls and a turn's results alike):

        6d at Superior (3-6), need 2: [5 2 6 1 3 4] + heroic [6] -> 5 successes, 1 one:
        success, 3 extra, 1 exposure

    `heroic=False` says the roll had no heroic dice; `outcome=False` leaves out the outcome (a
    contest's side: the contest decides, not the side's own need, X7)."""
    need = f", need {record.need}" if record.need != 1 and outcome else ""
    hero = ", not heroic" if heroic is False else ""
    head = f"{record.pool}d at {level_text(record)}{need}{hero}"
    if not record.rolled:
        return f"{head}: {dice_text(record)} -> {outcome_text(record)}"
    counts = f"{plural(record.s, 'success')}, {plural(record.o, 'one')}"
    if not outcome:
        return f"{head}: {dice_text(record)} -> {counts}"
    return f"{head}: {dice_text(record)} -> {counts}: {outcome_text(record)}"


def render_roll(name: str, record: RollRecord, *, heroic: bool | None = None) -> str:
    """One roll on one line: who, pool and level, every die, successes and the outcome.

        Aster: 6d at Superior (3-6): [5 2 6 1 3 4] + heroic [6] -> 5 successes, 1 one:
        success, 4 extra, 1 exposure
    """
    return f"{name}: {roll_text(record, heroic=heroic)}"


def render_passive(name: str, record: RollRecord, stored: int) -> str:
    """A Passive roll for the GM's eyes (X7: kept secret): the roll and what beats it."""
    return (f"{render_roll(name, record)}\nStored successes: {stored} (an Active roll needs "
            f"{stored + 1} to beat it).")


def render_active(name: str, record: RollRecord, against: str, *, stored: int | None) -> str:
    """An Active roll against a stored Passive. Without `stored` (what the table sees, X7 Amb-8:
    "the Active roller learns only success or failure") neither the dice nor the successes are
    told, since they would bound the stored successes; the GM sees everything."""
    verdict = "beats" if record.outcome is RollOutcome.SUCCESS else "does not beat"
    if stored is None:
        return (f"{name} rolls {record.pool}d at {level_text(record)} against {against}: "
                f"{name} {verdict} {against}.")
    return f"{render_roll(name, record)}\n{name} {verdict} {against} (stored {stored})."


def supporter_line(name: str, record: RollRecord, delta: int) -> str:
    """X10: one supporter's roll and the dice it gives the lead, as the GM's group rolls and a
    turn's assists both show it: `Brin assists: 4d at Normal (5-6): [...] -> ... (lead +1d)`."""
    return f"{name} assists: {roll_text(record)} (lead {delta:+d}d)"


def assisted_line(head: str, delta: int, record: RollRecord) -> str:
    """X10: the lead's roll with what the supporters gave: `Aster, assisted (+2d): 7d ...`."""
    return f"{head}, assisted ({delta:+d}d): {roll_text(record)}"


def render_assisted(lead: str, result: AssistedResult,
                    name: Callable[[str], str] = str) -> str:
    """X10: each supporter's roll and what it gives the lead, then the lead's roll."""
    lines = [supporter_line(name(s.name), s.roll, s.delta) for s in result.supporters]
    lines += [f"{name(str(e.name))}: left out ({e})" for e in result.errors]
    lines.append(assisted_line(lead, result.delta, result.lead))
    lines.append(f"The group's outcome: {result.lead.outcome.value}.")
    return "\n".join(lines)


def group_head(kind: str, names: Sequence[str], need: int, *, of: str = "",
               difficulty: str = "") -> str:
    """X10, X11: the first line of a group roll, the GM's and a turn's alike:
    `Collateral group roll of Stealth, routine, need 1 (Nefer, Khai):`."""
    what = f" of {of}" if of else ""
    hard = f", {difficulty}" if difficulty else ""
    return f"{kind.capitalize()} group roll{what}{hard}, need {need} ({', '.join(names)}):"


def luck_line(name: str, before: int, after: int) -> str:
    """The Luck a Good Luck relaunch took off a sheet (X11 Amb-2)."""
    return f"{name}: Luck {before} -> {after} (Good Luck, X11)"


def member_lines(kind: str, results: Sequence[MemberResult],
                 name: Callable[[str], str] = str) -> list[str]:
    """X11: each member's rolls in order (a relaunch where it was paid, in a collateral chain the
    dice the chain added), then how many succeed: the one wording of a group roll's members, for
    the GM's group rolls and a turn's results alike. `name` makes a name safe to show."""
    lines = []
    intact = True  # the chain as this member finds it
    for member in results:
        rolls = member.rolls or (member.roll,)
        # a member who finds the chain broken and rolls relaunched it; one who finds it whole
        # relaunches only after failing his first roll (X11 Amb-4)
        first_paid = 1 if intact else 0
        for index, record in enumerate(rolls):
            bonus = member.chain_bonuses[index] if index < len(member.chain_bonuses) else 0
            chain = f" (chain {bonus:+d}d)" if kind == "collateral" and bonus else ""
            paid = member.relaunched and record.rolled and index >= first_paid
            again = " relaunches the chain with Good Luck" if paid else ""
            lines.append(f"{name(member.name)}{again}: {roll_text(record)}{chain}")
        lines += [f"{name(member.name)}: {e}" for e in member.errors]
        intact = member.roll.outcome is RollOutcome.SUCCESS
    done = sum(1 for m in results if m.roll.outcome is RollOutcome.SUCCESS)
    lines.append(f"{done} of {len(results)} succeed.")
    return lines


def render_members(kind: str, results: Sequence[MemberResult],
                   name: Callable[[str], str] = str) -> str:
    """X11: `member_lines` as one text."""
    return "\n".join(member_lines(kind, results, name))


def reroll_lines(side: RerollSide) -> list[str]:
    """X9: each time unit's roll of one side, the successes it added and the 1s lost for good:
    `unit 1: 5d [5 6 2 1 3] + heroic [4] -> 2 successes (2 in all), 1 one lost`."""
    lines, total = [], 0
    for number, unit in enumerate(side.rolls, 1):
        total += unit.s
        dice = faces_text(unit.base) if unit.base else "no roll"
        if unit.bonus:
            dice += " + heroic " + faces_text(unit.bonus)
        lost = f", {plural(unit.lost, 'one')} lost" if unit.lost else ""
        lines.append(f"unit {number}: {unit.pool}d {dice} -> {plural(unit.s, 'success')} "
                     f"({total} in all){lost}")
    return lines


def reroll_verdict(result: RerollResult, elapsed: str) -> str:
    """X9's end: `success after 2 units (2m)`, `failure: out of dice after 2 units`..."""
    units = plural(result.units, "unit")
    if result.end is RerollEnd.SUCCESS:
        return f"success after {units} ({elapsed})"
    if result.end is RerollEnd.OUT_OF_DICE:
        needed = "" if result.opponent is not None else f", {result.need} needed"
        return f"failure: out of dice after {units} ({elapsed}){needed}"
    return f"failure: out of time after {units} ({elapsed})"


_STATUS = {
    TaskStatus.PENDING: "to play", TaskStatus.AUTO: "passed with a plot point",
    TaskStatus.PASSED: "passed", TaskStatus.SAVED: "failed, saved by a plot point",
    TaskStatus.FAILED: "failed",
}


def render_plot(goal: str, leader: str, result: PlotResult, *, hidden: Sequence[str] = (),
                name: Callable[[str], str] = str) -> str:
    """X14: the two rolls, the points left, every task in order and the outcome. `hidden`: the
    GM's unused surprises, shown only to the GM (leave it empty for the table)."""
    lines = [f"PLOT: {goal}",
             render_roll(leader, result.leader) + f" -> {plural(result.pp_rolled, 'plot point')}",
             render_roll("GM", result.gm) + f" -> {plural(result.gpp_rolled, 'GM point')}",
             f"Plot points {result.pp}, GM points {result.gpp}."]
    for number, task in enumerate(result.tasks, 1):
        notes = [_STATUS[task.status]]
        if task.surprise:
            notes.append("a surprise")
        if task.countered:
            notes.append("countered by the GM")
        lines.append(f"{number}. {name(task.name)}: {', '.join(notes)}")
    if hidden:
        lines.append("Hidden surprises (GM only): " + ", ".join(map(name, hidden)))
    outcome = {"success": "the PLOT succeeds", "failure": "the PLOT fails",
               "in-progress": "the PLOT goes on"}[result.outcome.value]
    extra = f" ({plural(result.extra, 'plot point')} left for bonuses)" if result.extra else ""
    lines.append(f"Outcome: {outcome}{extra}.")
    return "\n".join(lines)


# ---- odds -------------------------------------------------------------------------------------


def percent(p: Fraction) -> str:
    """A probability as a percentage: two decimals, four below 0.01%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    return f"{value:.4f}%" if value < 0.01 else f"{value:.2f}%"


def odds_title(result: Odds, sl: int) -> str:
    """`6d at Superior (3-6), heroic, need 1`."""
    from fappo_bot.rules_xp.roll import target_label

    heroic = "heroic" if result.heroic else "not heroic"
    return (f"{result.pool}d at {sl_name(sl).title()} ({target_label(result.sl)}), {heroic}, "
            f"need {result.need}")


BRIEF_BELOW = Fraction(1, 10_000)
"""In a brief table, a row whose chances of exactly s and of net s are both under 0.01% is left
out (it would read 0.00%)."""


def render_odds(result: Odds, sl: int, *, exact: bool = False, brief: bool = False) -> str:
    """The exact odds as a table: P(exactly s), P(at least s), P(net = s), then success, failure,
    fumble, exposures and the mean (`fappo-bot odds`, `/odds`). `brief` leaves out the rows
    under 0.01% (a chat message has room for about 40 rows)."""
    def show(p: Fraction) -> str:
        return f"{percent(p)}  ({p})" if exact else percent(p)

    lines = [odds_title(result, sl),
             f"{'successes':>9}  {'exactly':>9}  {'at least':>9}  {'net':>9}"]
    at_least = Fraction(1)
    nets = result.net  # a property that builds the whole tuple: read it once, not per row
    for count, p in enumerate(result.successes):
        net = nets[count] if count < len(nets) else Fraction(0)
        line = f"{count:>9}  {percent(p):>9}  {percent(at_least):>9}  {percent(net):>9}"
        if exact:
            line += f"  {p}"
        if not brief or p >= BRIEF_BELOW or net >= BRIEF_BELOW:
            lines.append(line)
        at_least -= p
    if brief and len(lines) - 2 < len(result.successes):
        lines.append("(rows under 0.01% left out)")
    lines += [f"success: {show(result.success)}",
              f"failure: {show(result.failure)}",
              f"fumble (more 1s than successes): {show(result.fumble)}",
              f"at least one exposure: {show(result.exposed)}",
              f"expected successes: {float(result.mean_successes):.3f}"]
    return "\n".join(lines)

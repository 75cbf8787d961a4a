"""The GM's review of an Xp turn (RULINGS R1 Xp): every input the rolls in force need,
as the same `ReviewItem`s as a FAPPO review (so the table's prompt and the bot's panel ask them
unchanged), with the defaults of the optional ones shown; and each answer checked and typed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.posting_xp import Route, XpAction, XpKind
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import key, sl_named
from fappo_bot.service.errors import InvalidInput
from fappo_bot.service.ports import UnitOfWork
from fappo_bot.service.records import CharacterRecord, CharacterStatus, Game, TurnRecord
from fappo_bot.service.timetext import parse_duration
from fappo_bot.service.views import ReviewItem, ReviewView
from fappo_bot.service.xp_play import (
    XpInForce,
    answer_key,
    group_key,
    load_in_force,
    opponent_pool,
    roll_label,
)
from fappo_bot.words import plural

MAX_NEED = 30
MAX_DICE = 30
MAX_SL = 6
MAX_PRICE = 99
MAX_UNITS = 100
MAX_UNIT_SECONDS = 28 * 86400
_YES = {"yes", "y", "true", "1", "accept", "accepted", "on"}
_NO = {"no", "n", "false", "0", "refuse", "refused", "off"}


DIFFICULTIES = ("easy", "routine", "difficult", "hard", "heroic", "impossible")
LEVELS = ("hopeless", "weak", "poor", "normal", "advantage", "superior", "dominant")


async def review(uow: UnitOfWork, game: Game, turn: TurnRecord,
                 records: Sequence[CharacterRecord]) -> ReviewView:
    """An Xp turn's review: the questions of every action in force."""
    found = await load_in_force(uow, game, turn, records)
    return ReviewView(turn=turn.number, items=tuple(review_items(
        found, records, turn.gm_answers, longer=game.settings.xp.xp_failure_takes_longer)))


def review_items(found: Sequence[XpInForce], records: Sequence[CharacterRecord],
                 answers: Mapping[str, Any], *, longer: bool = False) -> list[ReviewItem]:
    """Every GM input the actions in force need (R1 Xp), in actor order, defaults shown.
    `longer`: the game plays `xp_failure_takes_longer` (X6), asked of each test."""
    items: list[ReviewItem] = []
    names = tuple(r.name for r in records if r.status is CharacterStatus.ACTIVE)
    by_name = {r.name.casefold(): r for r in records}
    groups: dict[str, list[XpInForce]] = {}

    def add(key_: str, actor: str, index: int | None, field_name: str, question: str,
            required: bool, choices: Sequence[str] = (), default: str | None = None) -> None:
        items.append(ReviewItem(key=key_, actor=actor, index=index, field=field_name,
                                question=question, required=required, choices=tuple(choices),
                                answer=answers.get(key_), default=default))

    for f in found:
        a = f.action
        head = f"{safe(a.actor)}, line {a.line}"

        def ask(field_name: str, question: str, required: bool,
                choices: Sequence[str] = (), default: str | None = None, f: XpInForce = f,
                a: XpAction = a) -> None:
            add(answer_key(f, field_name), a.actor, f.index, field_name, question, required,
                choices, default)

        if a.kind is XpKind.GROUP:
            groups.setdefault(key(roll_label(a)), []).append(f)
            continue
        if a.kind in (XpKind.TEST, XpKind.CONTEST):
            _roll_items(ask, a, head, by_name, longer)
        elif a.kind is XpKind.ASSIST:
            ask("allowed", f"{head}: can {safe(a.actor)} assist {safe(a.target or '')}'s roll "
                "(is there time, X10)?", True, ("yes", "no"))
        elif a.kind is XpKind.PLOT:
            ask("counter", f"{head}: {safe(a.actor)} spends {plural(a.points, 'plot point')}"
                + (f' on "{safe(a.text)}"' if a.text else "")
                + "; does the GM counter with a GM plot point? (X14)", True, ("yes", "no"))
        elif a.kind is XpKind.PASSION:
            ask("relevant", f'{head}: is the Passion "{safe(a.text)}" relevant now? (X15: 1 '
                "Luck, +1 SL)", True, ("yes", "no"))
        elif a.kind is XpKind.FLAW:
            ask("relevant", f'{head}: does the Flaw "{safe(a.text)}" come into play? (X15: '
                "+1 Luck, an opponent +1 SL)", True, ("yes", "no"))
            if _bool(answers.get(answer_key(f, "relevant"))):
                ask("opponent", f"{head}: who gains +1 SL from {safe(a.actor)}'s Flaw?", True,
                    [n for n in names if n.casefold() != a.actor.casefold()])
        elif a.kind is XpKind.CUT:
            ask("granted", f'{head}: grant {safe(a.actor)} the Cut! "{safe(a.text)}"? (X17)',
                True, ("yes", "no"))
            if _bool(answers.get(answer_key(f, "granted"))):
                luck = by_name.get(a.actor.casefold())
                has = f"; {safe(a.actor)} has {luck.xp.luck}" if luck and luck.xp else ""
                ask("price", f"{head}: the Cut!'s price in Luck? (X17: the GM's, X15 Amb-1"
                    f"{has})", True)
    for label, members in groups.items():
        _group_items(add, label, members)
    return items


def _group_items(add: Callable[..., None], label: str, members: Sequence[XpInForce]) -> None:
    """The questions of one group roll (X11): its mode, its difficulty, a chain's order."""
    first = members[0].action
    who = ", ".join(safe(m.action.actor) for m in members)
    head = f"group roll of {safe(roll_label(first))} ({who})"
    add(group_key(label, "mode"), first.actor, None, "mode",
        f"{head}: spontaneous (each for themself) or collateral (a chain)? (X11)", True,
        ("spontaneous", "collateral"))
    add(group_key(label, "difficulty"), first.actor, None, "difficulty",
        f"{head}: difficulty? (X6)", True, DIFFICULTIES)
    add(group_key(label, "order"), first.actor, None, "order",
        f"{head}: the order of a chain? (X11 Amb-1)", False,
        tuple(m.action.actor for m in members), "the biggest pool first")


Ask = Callable[..., None]


def _roll_items(ask: Ask, a: XpAction, head: str, by_name: Mapping[str, CharacterRecord],
                longer: bool) -> None:
    """The questions of a test or a contest (X3, X6, X7, X8, X9, X12, X13)."""
    what = f"{safe(roll_label(a))}" + (f' ("{safe(a.text)}")' if a.text else "")
    if a.kind is XpKind.TEST:
        ask("difficulty", f"{head}, test of {what}: difficulty? (X6)", True,
            DIFFICULTIES)
    else:
        target = safe(a.target or "")
        ask("opponent", f"{head}, contest of {what} against {target}: what does "
            f"{target} roll? (a skill of {target}'s sheet, a characteristic, or a "
            "number of dice; X7)", True)
        ask("opponent_sl", f"{head}: {target}'s Superiority Level? (X3)", False,
            LEVELS, "normal")
        mine = by_name.get(a.actor.casefold())
        theirs = by_name.get((a.target or "").casefold())
        if mine is not None and theirs is not None and \
                mine.run_by_gm == theirs.run_by_gm:
            ask("tie", f"{head}: if still tied after the tie-breaks, who wins? (X7: "
                "the players' or the GM's choice)", True, (a.actor, a.target or ""))
    ask("sl", f"{head}: {safe(a.actor)}'s Superiority Level? (X3)", False, LEVELS,
        "normal, plus a relevant Passion")
    if a.kind is XpKind.TEST:
        ask("need", f"{head}: successes needed? (an Active roll against a stored "
            "Passive P needs P + 1, X7)", False, default="1")
        mine = by_name.get(a.actor.casefold())
        if mine is not None and not mine.run_by_gm:
            ask("concede", f"{head}: concede it, as not significant? (X13: 1 success "
                "without a roll for 4d or more, needing 1)", False, ("yes", "no"), "no")
        if longer:
            ask("longer", f"{head}: is time freely available, so that a failure only "
                "means it took longer? (X6)", False, ("yes", "no"), "yes")
    ask("dice", f"{head}: dice for time, tools or light? (X6)", False, default="0")
    if a.claim:
        ask("claim", f"{head}: accept the {a.claim:+d}d {safe(a.actor)} asks for?",
            True, ("accept", "refuse"))
    if a.over_time:
        ask("unit", f"{head}: the time unit of each attempt? (X9: e.g. 1m, 10m, 1h)",
            True)
        ask("units", f"{head}: how many units does the time allow? (X9 Amb-6; 1 to "
            f"{MAX_UNITS})", True)
    if a.augments:
        ask("augment", f"{head}: may {safe(a.actor)} first roll "
            f"{', '.join(safe(x) for x in a.augments)} to add their successes as dice, "
            "in the time and effort you set? (X12)", True, ("yes", "no"))
    if a.route is Route.DEFAULT:
        ask("default", f"{head}: is {safe(a.via or '')} similar or related to "
            f"{safe(a.skill or '')}? (X8: -1d or -2d)", True, ("similar", "related"))
    if a.route is Route.CHARACTERISTIC:
        ask("permit", f"{head}: may {safe(a.actor)} default {safe(a.skill or '')} to "
            f"{a.characteristic.value if a.characteristic else ''} (1d + level)? (X8)",
            True, ("yes", "no"))


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
    raise InvalidInput(f"{item.question} Choose one of: {', '.join(map(safe, item.choices))}.")


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
        contest = next((x for x in found if answer_key(x, "opponent") == item.key), None)
        if contest is not None:
            sheets = {r.name.casefold(): r.xp for r in records if r.xp is not None}
            try:
                opponent_pool(sheets, contest, text)
            except InvalidInput as exc:
                raise InvalidInput(f"{item.question} {exc}") from None
        return text
    if f in {"claim", "permit", "allowed", "counter", "relevant", "concede", "longer",
             "granted", "augment"}:
        result = _bool(value)
        if result is None:
            raise InvalidInput(f"{item.question} Answer {' or '.join(map(safe, item.choices))}.")
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
    if f == "price":
        return _whole(item, value, 0, MAX_PRICE)
    if f == "units":
        return _whole(item, value, 1, MAX_UNITS)
    if f == "unit":
        try:
            seconds = int(parse_duration(str(value)).total_seconds())
        except ValueError as exc:
            raise InvalidInput(f"{item.question} {safe_prose(str(exc))}.") from None
        if not 1 <= seconds <= MAX_UNIT_SECONDS:
            raise InvalidInput(f"{item.question} A unit is 1 second to 4 weeks.")
        return seconds
    if f == "dice":
        return _whole(item, str(value).strip().removesuffix("d"), -MAX_DICE, MAX_DICE)
    if f == "opponent" and item.choices:
        return _choice(item, value)
    if f == "order":
        parts = [p.strip() for p in str(value).split(",") if p.strip()]
        chosen = [_choice(item, p) for p in parts]
        if sorted(chosen) != sorted(item.choices):
            raise InvalidInput(f"{item.question} Name each member once: "
                               f"{', '.join(map(safe, item.choices))}.")
        return chosen
    raise InvalidInput(f"Unknown review question: {safe(item.key)}")


def _opponent(item: ReviewItem, value: Any) -> str:
    text = " ".join(str(value).split())
    if not text or len(text) > 100:
        raise InvalidInput(f"{item.question} Name a skill or a characteristic, or give a number "
                           "of dice.")
    if text.isdigit() and int(text) > MAX_DICE:
        raise InvalidInput(f"{item.question} At most {MAX_DICE} dice.")
    return text

"""The GM's rerolls over time (RULINGS X9) and augmented rolls (X12) in an Xp game, stored and
replayable like every GM roll (`xp_records`): one audit entry each, its inputs, a fresh seed and
every die, shown in the list of rolls and turned into an `xp-reroll` or `xp-augmented` case.

- `reroll`: one roller's attempt over time: the GM's time unit and the units the time allows
  (X9 Amb-6), each unit rolling the dice that did not succeed, 1s lost for good.
- `augment`: the augment rolls (`Perception 4d, Lore 3d superior`), then the roll they augment
  with their successes added as dice (a fumbled augment adds none, X12 Amb-1).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fappo_bot.posting.safety import safe, safe_prose
from fappo_bot.render_xp import reroll_lines, reroll_verdict, roll_text
from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.dice import Dice, DiceStream, RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.group import AugmentedResult, augmented
from fappo_bot.rules_xp.notation import MemberSpec, parse_members
from fappo_bot.rules_xp.rerolls import RerollResult, reroll_over_time
from fappo_bot.rules_xp.rollers import Roller
from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import Conflict, InvalidInput
from fappo_bot.service.records import AuditEntry
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.timetext import duration_text, parse_duration
from fappo_bot.service.xp_flags import config_from_options, with_options
from fappo_bot.service.xp_records import (
    AUGMENT_ACTION,
    REROLL_ACTION,
    XpShown,
    game_config,
    generator,
    sentence,
    store,
    with_case_options,
)

MAX_POOL = 100
MAX_UNITS = 100
MAX_UNIT = 28 * 86400
MAX_AUGMENTS = 5


def _roller(spec: dict[str, Any], dice: Dice) -> Roller:
    return Roller(spec["name"], dice, int(spec["pool"]), int(spec["sl"]), Who(spec["who"]),
                  bool(spec["heroic"]))


def run_reroll(detail: dict[str, Any], dice: Dice) -> RerollResult:
    return reroll_over_time(_roller(detail, dice), need=int(detail["need"]),
                            time_unit=int(detail["unit"]), max_units=int(detail["units"]),
                            config=config_from_options(detail.get("options")))


def run_augment(detail: dict[str, Any], dice: dict[str, Dice]) -> AugmentedResult:
    target = detail["target"]
    return augmented(_roller(target, dice[target["name"]]),
                     [_roller(a, dice[a["name"]]) for a in detail["augments"]],
                     int(detail["need"]), config_from_options(detail.get("options")))


def _check(recorded: list[int], stored: list[int]) -> None:
    if recorded != stored:
        raise Conflict("The stored dice do not match the roll's seed: the record was altered.")


def reroll_text(detail: dict[str, Any], result: RerollResult) -> str:
    """`Aster: 5d at level 0 over time (1m a unit, at most 5), need 4: success after 2 units`,
    then every unit."""
    unit = duration_text(timedelta(seconds=int(detail["unit"])))
    elapsed = duration_text(timedelta(seconds=result.elapsed))
    head = (f"{safe(detail['name'])}: {detail['pool']}d over time ({unit} a unit, at most "
            f"{detail['units']}), need {detail['need']}: {reroll_verdict(result, elapsed)}")
    return "\n".join([head, *("  " + line for line in reroll_lines(result.roller))])


def augment_text(detail: dict[str, Any], result: AugmentedResult) -> str:
    """Each augment's roll and the dice it adds, then the augmented roll."""
    lines = [f"{safe(a.name)} augments: {roll_text(a.roll)} (+{a.added}d, X12)"
             for a in result.augments]
    lines += [f"{safe(e.name)}: {safe_prose(str(e))}" for e in result.errors]
    lines.append(f"{safe(detail['target']['name'])}, augmented (+{result.added}d): "
                 f"{roll_text(result.target)}")
    return "\n".join(lines)


def shown_timed(entry: AuditEntry) -> XpShown:
    """A stored reroll or augmented roll, checked against its seed."""
    d = entry.detail
    shared = RandomDice(generator(str(d["seed"])))
    if entry.action == REROLL_ACTION:
        recorder = RecordingDice(shared)
        rerolled = run_reroll(d, recorder)
        _check(recorder.faces, list(d["dice"]))
        text, name, outcome = reroll_text(d, rerolled), d["name"], rerolled.end.value
        kind = "reroll"
    else:
        everyone = [*d["augments"], d["target"]]
        recorders = {r["name"]: RecordingDice(shared) for r in everyone}
        result = run_augment(d, dict(recorders))
        for r in everyone:
            _check(recorders[r["name"]].faces, list(r["dice"]))
        text, name, outcome = augment_text(d, result), d["target"]["name"], \
            result.target.outcome.value
        kind = "augmented"
    return XpShown(entry.id, kind, name, outcome, text, f"{text}\nSeed {d['seed']}.",
                   entry.actor, entry.at)


def timed_case(entry: AuditEntry, case_id: str) -> dict[str, Any]:
    """A stored reroll as an `xp-reroll` case, an augmented roll as `xp-augmented`."""
    d = entry.detail
    note = f"replay of a logged roll (seed {d['seed']})"
    if entry.action == REROLL_ACTION:
        r = run_reroll(d, DiceStream(d["dice"]))
        return with_case_options({
            "id": case_id, "rule": "X9", "kind": "xp-reroll", "note": note, "who": d["who"],
            "heroic": d["heroic"], "pool": d["pool"], "sl": d["sl"], "need": d["need"],
            "time_unit": d["unit"], "max_units": d["units"], "dice": list(d["dice"]),
            "expect": {"outcome": "success" if r.success else "failure", "end": r.end.value,
                       "units": r.units, "elapsed": r.elapsed,
                       "successes": r.roller.successes, "remaining": r.roller.remaining,
                       "lost": r.roller.lost}}, d)
    a = run_augment(d, {x["name"]: DiceStream(x["dice"]) for x in [*d["augments"], d["target"]]})

    def roller(x: dict[str, Any]) -> dict[str, Any]:
        return {k: x[k] for k in ("name", "who", "heroic", "pool", "sl")} | {
            "dice": list(x["dice"])}

    return with_case_options({
        "id": case_id, "rule": "X12", "kind": "xp-augmented", "note": note,
        "augments": [roller(x) for x in d["augments"]],
        "target": roller(d["target"]) | {"need": d["need"]},
        "expect": {"augments": [{"name": x.name, "s": x.roll.s, "added": x.added}
                                for x in a.augments],
                   "added": a.added, "target": {"pool": a.target.pool, "s": a.target.s,
                                                "outcome": a.target.outcome.value},
                   "outcome": a.target.outcome.value}}, d)


def _limits(pool: int, sl: int, need: int) -> None:
    if not 0 <= pool <= MAX_POOL:
        raise InvalidInput(f"A roll takes 0 to {MAX_POOL} dice, not {pool}.")
    if not -20 <= sl <= 20:
        raise InvalidInput(f"A superiority level is -20 to +20, not {sl}.")
    if need < 1:
        raise InvalidInput(f"A roll needs at least 1 success, not {need}.")


def _who(who: str) -> Who:
    try:
        return Who(who)
    except ValueError:
        raise InvalidInput(f'"who" is pc or npc, not "{safe(who)}".') from None


def _reroll_input(pool: int, sl: int, need: int, who: str, unit: str, units: int
                  ) -> tuple[Who, int]:
    """A reroll's side and time unit in seconds, refused when a bound is passed (X9)."""
    _limits(pool, sl, need)
    side = _who(who)
    try:
        seconds = int(parse_duration(unit).total_seconds())
    except ValueError as exc:
        raise InvalidInput(f"The time unit: {safe_prose(str(exc))}.") from None
    if not 1 <= seconds <= MAX_UNIT or not 1 <= units <= MAX_UNITS:
        raise InvalidInput(f"A time unit is 1 second to 4 weeks, and 1 to {MAX_UNITS} units "
                           "are allowed (X9).")
    return side, seconds


def _augment_input(pool: int, sl: int, need: int, who: str, name: str, augments: str
                   ) -> tuple[Who, list[MemberSpec], str]:
    """An augmented roll's side, augments and target name, refused when a bound is passed
    or an augment is named as the roll it augments (X12)."""
    _limits(pool, sl, need)
    side = _who(who)
    try:
        specs = parse_members(augments)
    except XpError as exc:
        raise sentence(exc) from None
    if len(specs) > MAX_AUGMENTS:
        raise InvalidInput(f"A roll takes 1 to {MAX_AUGMENTS} augments, not {len(specs)}.")
    target_name = " ".join(name.split())[:100]
    if any(s.name.casefold() == target_name.casefold() for s in specs):
        raise InvalidInput("Name each augment by its ability (Perception 4d), not as the "
                           "roll it augments.")
    return side, specs, target_name


class XpTimedService(UseCases):
    """The GM's rerolls over time and augmented rolls."""

    @retried
    async def reroll(self, game_id: str, actor: str, *, name: str, pool: int, sl: int = 0,
                     who: str = "pc", heroic: bool | None = None, need: int = 1,
                     unit: str, units: int) -> XpShown:
        """`name` tries over time (X9): `unit` a duration (`1m`, `10m`, `1h`), `units` how many
        the time allows; stored and shown to the table (GM only)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # a player hears only that GMs do this; a GM hears of a wrong input before the rules
            side, seconds = _reroll_input(pool, sl, need, who, unit, units)
            self.require(game, Feature.DICE_POOLS)
            config = game_config(game)
            detail: dict[str, Any] = with_options({
                "name": " ".join(name.split())[:100], "who": side.value, "pool": pool, "sl": sl,
                "heroic": config.heroic_default(side) if heroic is None else heroic,
                "need": need, "unit": seconds, "units": units}, game.settings.xp)
            detail["seed"] = self.deps.salts()
            recorder = RecordingDice(RandomDice(generator(detail["seed"])))
            try:
                result = run_reroll(detail, recorder)
            except XpError as exc:
                raise sentence(exc) from None
            detail["dice"] = recorder.faces
            entry = await store(uow, self.deps, game.id, actor, REROLL_ACTION, detail)
        text = reroll_text(detail, result)
        return XpShown(entry.id, "reroll", detail["name"], result.end.value, text,
                       f"{text}\nSeed {detail['seed']}.", actor, entry.at)

    @retried
    async def augment(self, game_id: str, actor: str, *, name: str, pool: int, sl: int = 0,
                      who: str = "pc", heroic: bool | None = None, need: int = 1,
                      augments: str) -> XpShown:
        """`augments` (`Perception 4d, Lore 3d superior`) rolled first, their successes added
        to `name`'s roll (X12); stored and shown to the table (GM only)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # as `reroll`: the GM first, then the input, the rules
            side, specs, target_name = _augment_input(pool, sl, need, who, name, augments)
            self.require(game, Feature.DICE_POOLS)
            config = game_config(game)
            detail: dict[str, Any] = with_options({
                "need": need,
                "augments": [{"name": s.name, "pool": s.pool, "sl": s.sl, "who": s.who.value,
                              "heroic": config.heroic_default(s.who)} for s in specs],
                "target": {"name": target_name, "pool": pool, "sl": sl, "who": side.value,
                           "heroic": config.heroic_default(side) if heroic is None else heroic},
            }, game.settings.xp)
            detail["seed"] = self.deps.salts()
            shared = RandomDice(generator(detail["seed"]))
            everyone = [*detail["augments"], detail["target"]]
            recorders = {r["name"]: RecordingDice(shared) for r in everyone}
            try:
                result = run_augment(detail, dict(recorders))
            except XpError as exc:
                raise sentence(exc) from None
            for r in everyone:
                r["dice"] = recorders[r["name"]].faces
            entry = await store(uow, self.deps, game.id, actor, AUGMENT_ACTION, detail)
        text = augment_text(detail, result)
        return XpShown(entry.id, "augmented", target_name, result.target.outcome.value, text,
                       f"{text}\nSeed {detail['seed']}.", actor, entry.at)

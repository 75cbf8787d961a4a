"""Running Xp adjudication cases (`../shared/spec/cases-xp.md`) through `fappo_bot.rules_xp`.

A case resolves to the full result of its kind, or, when the rules or the format refuse it whole,
to every field null beside `errors: [{code, ...}]`, which the case may expect. Dice streams must
be used up exactly (`dice-short`, `dice-unused`); the streams of refused rollers are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fappo_bot.adjudication.outcome import CaseOutcome
from fappo_bot.adjudication.xp_case import XpCase, XpCaseKind
from fappo_bot.adjudication.xp_input import (
    ROLLER_KEYS,
    RollerInput,
    bad,
    config_from,
    flag,
    integer,
    known_fields_only,
    listing,
    mapping,
    names_unique,
    pool_input,
    roller,
    text,
)
from fappo_bot.adjudication.xp_report import compare_xp, error_dict, pool_dict, record_dict
from fappo_bot.rules_xp import contest, group, plots, rerolls
from fappo_bot.rules_xp.config import Who, XpConfig
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import DIFFICULTY, key

#: every field of each kind's result, so a refused case reports them all as null
FIELDS: dict[XpCaseKind, tuple[str, ...]] = {
    XpCaseKind.POOL: ("pool", "can_roll", "auto_fail", "parts"),
    XpCaseKind.ROLL: ("name", "who", "heroic", "pool", "sl", "target", "need", "rolled", "mode",
                      "base", "bonus", "s", "o", "fumble", "exposures", "outcome", "special"),
    XpCaseKind.CONTEST: ("type", "name", "pool", "sl", "target", "need", "rolled", "mode", "base",
                         "bonus", "s", "o", "fumble", "exposures", "outcome", "special", "stored",
                         "to_beat", "net", "passive", "winner", "tiebreaks", "decided_by", "sides"),
    XpCaseKind.REROLL: ("outcome", "end", "units", "elapsed", "need", "successes", "remaining",
                        "lost", "carried", "rolls", "opponent"),
    XpCaseKind.ASSISTED: ("supporters", "delta", "lead", "outcome"),
    XpCaseKind.GROUP: ("mode", "order", "members"),
    XpCaseKind.AUGMENTED: ("augments", "added", "target", "outcome"),
    XpCaseKind.CONCEDED: ("conceded", "pool", "sl", "target", "need", "rolled", "mode", "base",
                          "bonus", "s", "o", "fumble", "exposures", "outcome", "special"),
    XpCaseKind.PLOT: ("leader", "gm", "pp", "gpp", "outcome", "extra", "order", "tasks"),
}


class _Run:
    """One case's run: its config and the streams that must be used up."""

    def __init__(self, case: XpCase) -> None:
        self.case = case
        self.raw = case.raw
        self.config: XpConfig = XpConfig()
        self.streams: list[DiceStream] = []

    def roller(self, raw: Any, where: str, *, default_who: Who = Who.PC,
               needs_name: bool = False, extra: frozenset[str] = frozenset()) -> RollerInput:
        entry = roller(mapping(raw, where), self.config, where, default_who=default_who,
                       needs_name=needs_name, extra_keys=extra)
        self.streams.append(entry.stream)
        return entry

    def top_roller(self, extra: frozenset[str]) -> RollerInput:
        """The roller whose fields sit at the top level of the case."""
        fields = {k: v for k, v in self.raw.items() if k in ROLLER_KEYS}
        known_fields_only(self.raw, ROLLER_KEYS | extra | {"options"}, "case")
        return self.roller(fields, "roller")

    def ignore(self, entry: RollerInput) -> None:
        """A refused roller's stream is not checked."""
        self.streams = [s for s in self.streams if s is not entry.stream]

    def need(self, default: int = 1) -> int:
        value = self.raw.get("need")
        return default if value is None else integer(value, "need")


def run_xp_case(case: XpCase) -> CaseOutcome:
    """Resolve one Xp case and compare the fields its `expect` lists."""
    result = resolve_xp_case(case)
    diffs = compare_xp(case.expect, result)
    return CaseOutcome(case.id, case.kind.value, case.source, not diffs, result, diffs)


def resolve_xp_case(case: XpCase) -> dict[str, Any]:
    """The whole computed result of an Xp case (the `--json` shape)."""
    run = _Run(case)
    try:
        run.config = config_from(case.raw.get("options"))
        result = _RUNNERS[case.kind](run)
        for stream in run.streams:
            stream.check_used()
    except XpError as exc:
        result = dict.fromkeys(FIELDS[case.kind])
        result["errors"] = [error_dict(exc)]
        return result
    result.setdefault("errors", [])
    return result


# ---- xp-pool, xp-roll, xp-conceded -------------------------------------------------------------


def _pool(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"pool", "options"}), "case")
    return pool_dict(pool_input(run.raw.get("pool")).pool)


def _described(entry: RollerInput) -> dict[str, Any]:
    r = entry.roller
    return {"name": r.name, "who": r.who.value, "heroic": r.heroic}


def _roll(run: _Run) -> dict[str, Any]:
    entry = run.top_roller(frozenset())
    record = contest.general(entry.roller, run.need(), run.config)
    return {**_described(entry), **record_dict(record)}


def _conceded(run: _Run) -> dict[str, Any]:
    entry = run.top_roller(frozenset({"insignificant"}))
    insignificant = flag(run.raw.get("insignificant", False), "insignificant")
    given, record = group.conceded(entry.roller, insignificant, run.need(), run.config)
    return {"conceded": given, **record_dict(record)}


# ---- xp-contest --------------------------------------------------------------------------------


def _contest(run: _Run) -> dict[str, Any]:
    if run.raw.get("type") is None:
        raise bad("an xp-contest needs a `type` (contested, general, passive or active)")
    kind = contest.resolution_type(text(run.raw["type"], "type"))
    if kind == "contested":
        return _contested(run)
    extra = {"general": frozenset({"type"}), "passive": frozenset({"type"}),
             "active": frozenset({"type", "against", "passive"})}[kind]
    entry = run.top_roller(extra)
    out: dict[str, Any] = {"type": kind, "name": entry.roller.name}
    if kind == "general":
        return {**out, **record_dict(contest.general(entry.roller, run.need(), run.config))}
    if kind == "passive":
        made = contest.passive(entry.roller, run.config)
        return {**out, **record_dict(made.roll), "stored": made.stored, "to_beat": made.to_beat}
    return {**out, **_active(run, entry)}


def _active(run: _Run, entry: RollerInput) -> dict[str, Any]:
    has_against, has_passive = run.raw.get("against") is not None, "passive" in run.raw
    if has_against == has_passive:
        raise bad("an active roll takes either `against: P` or `passive: {roller}`")
    passive: dict[str, Any] | None = None
    if has_passive:
        lock = run.roller(run.raw["passive"], "passive")
        made = contest.passive(lock.roller, run.config)
        stored = made.stored
        passive = {"name": lock.roller.name, **record_dict(made.roll), "stored": made.stored,
                   "to_beat": made.to_beat}
    else:
        stored = integer(run.raw["against"], "against")
    if run.raw.get("need") is not None and run.need() != stored + 1:
        raise bad(f"an active roll against P = {stored} needs P + 1 = {stored + 1}, not "
                  f"need: {run.raw['need']}")
    result = contest.active(entry.roller, stored, run.config)
    return {**record_dict(result.roll), "stored": stored, "net": result.net, "passive": passive}


def _contested(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"type", "sides", "tie_winner", "options"}), "case")
    raw_sides = listing(run.raw.get("sides"), "sides")
    if len(raw_sides) != 2:
        raise bad(f"a contest here is between exactly two sides, not {len(raw_sides)} "
                  "(three or more is left for later)")
    sides = [run.roller(s, f"sides[{i}]", needs_name=True) for i, s in enumerate(raw_sides)]
    names_unique(sides, "sides")
    tie = run.raw.get("tie_winner")
    result = contest.contested(sides[0].roller, sides[1].roller,
                               text(tie, "tie_winner") if tie is not None else None, run.config)
    return {
        "type": "contested", "winner": result.winner, "net": result.net,
        "tiebreaks": result.tiebreaks, "decided_by": result.decided_by,
        "sides": [{"name": s.name, "who": s.who.value, **record_dict(s.roll),
                   "counted": s.counted, "total": s.total,
                   "rerolls": [list(r) for r in s.rerolls]} for s in result.sides],
    }


# ---- xp-reroll ---------------------------------------------------------------------------------


def _unit_dicts(side: rerolls.RerollSide) -> list[dict[str, Any]]:
    return [{"pool": u.pool, "base": list(u.base), "bonus": list(u.bonus), "s": u.s, "o": u.o,
             "lost": u.lost, "carried": u.carried} for u in side.rolls]


def _reroll(run: _Run) -> dict[str, Any]:
    entry = run.top_roller(frozenset({"against", "time_unit", "max_units", "opponent"}))
    if run.raw.get("against") is not None and run.raw.get("need") is not None:
        raise bad("give `against: P` (need P + 1) or `need: N`, not both")
    need = integer(run.raw["against"], "against") + 1 if run.raw.get("against") is not None \
        else run.need()
    # a roller is a PC unless it says otherwise (spec/cases-xp.md); only the GM's opposition
    # roll of a plot defaults to an NPC
    opponent = run.roller(run.raw["opponent"], "opponent") \
        if run.raw.get("opponent") is not None else None
    time_unit, max_units = run.raw.get("time_unit"), run.raw.get("max_units")
    result = rerolls.reroll_over_time(
        entry.roller, need=need,
        time_unit=integer(time_unit, "time_unit") if time_unit is not None else None,
        max_units=integer(max_units, "max_units") if max_units is not None else None,
        opponent=opponent.roller if opponent is not None else None, config=run.config)
    me = result.roller
    them = result.opponent
    return {
        "outcome": "success" if result.success else "failure", "end": result.end.value,
        "units": result.units, "elapsed": result.elapsed, "need": result.need,
        "successes": me.successes, "remaining": me.remaining, "lost": me.lost,
        "carried": me.carried, "rolls": _unit_dicts(me),
        "opponent": None if them is None else {
            "name": opponent.roller.name if opponent else None, "successes": them.successes,
            "remaining": them.remaining, "lost": them.lost, "carried": them.carried,
            "rolls": _unit_dicts(them)},
    }


# ---- xp-assisted, xp-group, xp-augmented -------------------------------------------------------


def _assisted(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"need", "supporters", "lead", "options"}), "case")
    need = run.need()
    supporters = [run.roller(s, f"supporters[{i}]", needs_name=True)
                  for i, s in enumerate(listing(run.raw.get("supporters"), "supporters"))]
    if run.raw.get("lead") is None:
        raise bad("an assisted roll needs a `lead`")
    lead = run.roller(run.raw["lead"], "lead")
    names_unique([*supporters, lead], "supporters and lead")
    for entry in supporters:
        if not entry.roller.xposure:
            run.ignore(entry)
    result = group.assisted(lead.roller, [s.roller for s in supporters], need, run.config)
    rolled = {key(s.name): s for s in result.supporters}
    out_supporters = []
    for entry in supporters:
        support = rolled.get(key(entry.roller.name))
        if support is None:
            out_supporters.append({"name": entry.roller.name, **record_dict(None),
                                   "delta": 0, "refused": True})
        else:
            out_supporters.append({"name": support.name, **record_dict(support.roll),
                                   "delta": support.delta, "refused": False})
    return {"supporters": out_supporters, "delta": result.delta,
            "lead": {"name": lead.roller.name, **record_dict(result.lead)},
            "outcome": result.lead.outcome.value,
            "errors": [error_dict(e) for e in result.errors]}


def _group(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"mode", "need", "order", "members", "options"}), "case")
    mode = key(text(run.raw.get("mode", ""), "mode"))
    if mode not in {"spontaneous", "collateral"}:
        raise bad(f"mode: {run.raw.get('mode')!r} is not spontaneous or collateral")
    entries = [run.roller(m, f"members[{i}]", needs_name=True)
               for i, m in enumerate(listing(run.raw.get("members"), "members"))]
    names_unique(entries, "members")
    members = [group.Member(e.roller, e.luck, e.relaunches, e.need) for e in entries]
    if run.raw.get("order") is not None:
        by_name = {key(m.roller.name): m for m in members}
        order_names = [key(text(n, "order")) for n in listing(run.raw["order"], "order")]
        if sorted(order_names) != sorted(by_name):
            raise bad("order: list every member exactly once")
        ordered = [by_name[n] for n in order_names]
    else:
        ordered = group.default_order(members)
    need = run.need()
    results = group.spontaneous(ordered, need, run.config) if mode == "spontaneous" \
        else group.collateral(ordered, need, run.config)
    errors = [error_dict(e) for r in results for e in r.errors]
    return {
        "mode": mode, "order": [r.name for r in results],
        "members": [{"name": r.name, **record_dict(r.roll), "chain_bonus": r.chain_bonus,
                     "relaunched": r.relaunched, "luck": r.luck,
                     "rolls": [{**record_dict(x), "chain_bonus": b}
                               for x, b in zip(r.rolls, r.chain_bonuses, strict=True)]}
                    for r in results],
        "errors": errors,
    }


def _augmented(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"augments", "target", "need", "options"}), "case")
    augments = [run.roller(a, f"augments[{i}]", needs_name=True)
                for i, a in enumerate(listing(run.raw.get("augments"), "augments"))]
    if run.raw.get("target") is None:
        raise bad("an augmented roll needs a `target`")
    target = run.roller(run.raw["target"], "target")
    seen: set[str] = set()
    for entry in augments:
        if key(entry.roller.name) in seen:
            run.ignore(entry)
        seen.add(key(entry.roller.name))
    need = target.need if target.need is not None else run.need()
    result = group.augmented(target.roller, [a.roller for a in augments], need, run.config)
    return {
        "augments": [{"name": a.name, **record_dict(a.roll), "added": a.added}
                     for a in result.augments],
        "added": result.added,
        "target": {"name": target.roller.name, **record_dict(result.target)},
        "outcome": result.target.outcome.value,
        "errors": [error_dict(e) for e in result.errors],
    }


# ---- xp-plot -----------------------------------------------------------------------------------


def _event(raw: Any, index: int) -> plots.PlotEvent:
    where = f"events[{index}]"
    entry = mapping(raw, where)
    if "auto" in entry:
        known_fields_only(entry, frozenset({"auto", "countered"}), where)
        return plots.AutoPass(text(entry["auto"], f"{where}.auto"),
                              flag(entry.get("countered", False), f"{where}.countered"))
    if "play" in entry:
        known_fields_only(entry, frozenset({"play", "result", "bonus"}), where)
        result = key(text(entry.get("result", ""), f"{where}.result"))
        if result not in {"success", "failure"}:
            raise bad(f"{where}.result: a played task is a success or a failure")
        return plots.PlayTask(text(entry["play"], f"{where}.play"), result == "success",
                              integer(entry.get("bonus", 0), f"{where}.bonus"))
    if "surprise" in entry:
        known_fields_only(entry, frozenset({"surprise", "before"}), where)
        before = entry.get("before")
        return plots.Surprise(text(entry["surprise"], f"{where}.surprise"),
                              text(before, f"{where}.before") if before is not None else None)
    raise bad(f"{where}: an event is `auto:`, `play:` or `surprise:`")


def _plot(run: _Run) -> dict[str, Any]:
    known_fields_only(run.raw, frozenset({"leader", "difficulty", "merit", "gm", "tasks", "surprises",
                             "events", "options"}), "case")
    if run.raw.get("leader") is None or run.raw.get("gm") is None:
        raise bad("a PLOT needs a `leader` and the `gm`'s roll")
    leader = run.roller(run.raw["leader"], "leader")
    gm = run.roller(run.raw["gm"], "gm", default_who=Who.NPC)
    difficulty = run.raw.get("difficulty", "routine")
    dice = difficulty if isinstance(difficulty, int) and not isinstance(difficulty, bool) \
        else DIFFICULTY(text(difficulty, "difficulty"))
    tasks = [text(t, "tasks") for t in listing(run.raw.get("tasks"), "tasks")]
    surprises = [text(t, "surprises") for t in listing(run.raw.get("surprises"), "surprises")]
    events = [_event(e, i) for i, e in enumerate(listing(run.raw.get("events"), "events"))]
    result = plots.run_plot(leader.roller, gm.roller, tasks, surprises, events,
                            difficulty=dice, merit=integer(run.raw.get("merit", 0), "merit"),
                            config=run.config)
    return {
        "leader": {"name": leader.roller.name, **record_dict(result.leader),
                   "pp": result.pp_rolled},
        "gm": {"name": gm.roller.name, **record_dict(result.gm), "gpp": result.gpp_rolled},
        "pp": result.pp, "gpp": result.gpp, "outcome": result.outcome.value,
        "extra": result.extra, "order": list(result.order),
        "tasks": [{"name": t.name, "status": t.status.value, "surprise": t.surprise,
                   "countered": t.countered} for t in result.tasks],
        "errors": [error_dict(e) for e in result.errors],
    }


_RUNNERS: dict[XpCaseKind, Callable[[_Run], dict[str, Any]]] = {
    XpCaseKind.POOL: _pool,
    XpCaseKind.ROLL: _roll,
    XpCaseKind.CONTEST: _contest,
    XpCaseKind.REROLL: _reroll,
    XpCaseKind.ASSISTED: _assisted,
    XpCaseKind.GROUP: _group,
    XpCaseKind.AUGMENTED: _augmented,
    XpCaseKind.CONCEDED: _conceded,
    XpCaseKind.PLOT: _plot,
}

"""The GM's PLOTs in an Xp game (RULINGS X14): open one (the leader's and the GM's rolls, the
public tasks and the GM's hidden surprises), then record what happens, event by event: a plot
point spent to pass a task (and the GM's counter), a task played (and the bonus point the GM
grants), a surprise the GM springs.

The PLOT is one audit entry (its inputs, seed and the two rolls' dice) and each event another; its
state is always the pure `run_plot` over the stored dice and events, so it replays exactly. An
event the rules refuse is refused here with their sentence and stores nothing. The table sees the
PLOT without the GM's unused surprises; the GM sees them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fappo_bot.posting.safety import safe
from fappo_bot.render_xp import render_plot
from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.dice import Dice, DiceStream, RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.notation import MemberSpec, parse_member, parse_names
from fappo_bot.rules_xp.plots import (
    AutoPass,
    PlayTask,
    PlotEvent,
    PlotResult,
    Surprise,
    TaskStatus,
    run_plot,
)
from fappo_bot.rules_xp.rollers import Roller
from fappo_bot.rules_xp.tables import key
from fappo_bot.service.base import UseCases
from fappo_bot.service.errors import Conflict, InvalidInput, NotFound
from fappo_bot.service.records import AuditEntry
from fappo_bot.service.retry import retried
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.xp_flags import config_from_options, with_options
from fappo_bot.service.xp_records import (
    PLOT_ACTION,
    PLOT_EVENT_ACTION,
    XpShown,
    find_entry,
    game_config,
    generator,
    sentence,
    store,
    with_case_options,
)

MAX_TASKS = 30
EVENT_KINDS = ("auto", "play", "surprise")


def event_of(data: dict[str, Any]) -> PlotEvent:
    """A stored event as the rules' value."""
    kind = data["event"]
    if kind == "auto":
        return AutoPass(data["task"], bool(data.get("countered", False)))
    if kind == "play":
        return PlayTask(data["task"], bool(data["success"]), int(data.get("bonus", 0)))
    return Surprise(data["task"], data.get("before"))


def run_stored(detail: dict[str, Any], events: Sequence[dict[str, Any]],
               dice: tuple[Dice, Dice] | None = None) -> PlotResult:
    """The PLOT's state: `run_plot` over its stored dice (or `dice`) and events."""
    leader, gm = detail["leader"], detail["gm"]
    lead_dice, gm_dice = dice or (DiceStream(leader["dice"]), DiceStream(gm["dice"]))
    return run_plot(
        Roller(leader["name"], lead_dice, int(leader["pool"]), 0, Who(leader["who"]),
               bool(leader["heroic"])),
        Roller("GM", gm_dice, int(gm["pool"]), 0, Who.NPC, bool(gm["heroic"])),
        detail["tasks"], detail["surprises"], [event_of(e) for e in events],
        difficulty=int(detail["difficulty"]), merit=int(detail["merit"]),
        config=config_from_options(detail.get("options")))


def hidden_left(detail: dict[str, Any], result: PlotResult) -> list[str]:
    """The GM's surprises not played yet."""
    played = {key(t.name) for t in result.tasks}
    return [s for s in detail["surprises"] if key(s) not in played]


def check_seed(detail: dict[str, Any]) -> None:
    """`Conflict` if the two rolls' stored dice are not what the seed gives."""
    shared = RandomDice(generator(str(detail["seed"])))
    lead, gm = RecordingDice(shared), RecordingDice(shared)
    run_stored(detail, [], (lead, gm))
    if lead.faces != list(detail["leader"]["dice"]) or gm.faces != list(detail["gm"]["dice"]):
        raise Conflict("The stored dice do not match the roll's seed: the record was altered.")


def plot_shown(entry: AuditEntry, events: Sequence[dict[str, Any]],
               notes: Sequence[str] = ()) -> XpShown:
    """A PLOT as it stands after `events`, checked against its seed (`notes`: what the rules
    said of the last event, for example that the GM had no point left to counter)."""
    d = entry.detail
    check_seed(d)
    result = run_stored(d, events)
    public = "\n".join([*(n[:1].upper() + n[1:] + "." for n in notes),
                        render_plot(safe(d["goal"]), safe(d["leader"]["name"]), result,
                                    name=safe)])
    gm = render_plot(safe(d["goal"]), safe(d["leader"]["name"]), result,
                     hidden=hidden_left(d, result), name=safe)
    return XpShown(entry.id, "plot", d["goal"], result.outcome.value, public,
                   f"{gm}\nSeed {d['seed']}.", entry.actor, entry.at)


def events_of(entries: Sequence[AuditEntry], plot_id: str) -> list[dict[str, Any]]:
    """The stored events of one PLOT, in order."""
    return [e.detail for e in entries
            if e.action == PLOT_EVENT_ACTION and e.detail.get("plot") == plot_id]


def plot_case(detail: dict[str, Any], events: Sequence[dict[str, Any]], case_id: str
              ) -> dict[str, Any]:
    """A stored PLOT as an `xp-plot` case (`spec/cases-xp.md`)."""
    result = run_stored(detail, events)
    leader, gm = detail["leader"], detail["gm"]
    case_events: list[dict[str, Any]] = []
    for e in events:
        if e["event"] == "auto":
            case_events.append({"auto": e["task"], "countered": bool(e.get("countered"))})
        elif e["event"] == "play":
            case_events.append({"play": e["task"],
                                "result": "success" if e["success"] else "failure",
                                "bonus": int(e.get("bonus", 0))})
        else:
            case_events.append({"surprise": e["task"], "before": e.get("before")})
    return with_case_options({
        "id": case_id, "rule": "X14", "kind": "xp-plot",
        "note": f"replay of a logged PLOT (seed {detail['seed']})",
        "leader": {"name": leader["name"], "who": leader["who"], "heroic": leader["heroic"],
                   "pool": leader["pool"], "dice": list(leader["dice"])},
        "difficulty": detail["difficulty"], "merit": detail["merit"],
        "gm": {"pool": gm["pool"], "heroic": gm["heroic"], "dice": list(gm["dice"])},
        "tasks": list(detail["tasks"]), "surprises": list(detail["surprises"]),
        "events": case_events,
        "expect": {"pp": result.pp, "gpp": result.gpp, "outcome": result.outcome.value,
                   "order": list(result.order)},
    }, detail)


def _plot_input(goal: str, leader: str, gm_pool: int, tasks: str, surprises: str,
                difficulty: int, merit: int) -> tuple[str, MemberSpec, list[str], list[str]]:
    """A PLOT's goal, leader, tasks and surprises as written, refused when a bound is
    passed or the leader does not roll at Normal (X14)."""
    goal = goal.strip()
    if not goal or len(goal) > 200:
        raise InvalidInput("A PLOT needs a goal of 1 to 200 characters.")
    try:
        spec = parse_member(leader)
    except XpError as exc:
        raise sentence(exc) from None
    task_names, hidden = parse_names(tasks), parse_names(surprises)
    if not 1 <= len(task_names) + len(hidden) <= MAX_TASKS or not task_names:
        raise InvalidInput(f"A PLOT has 1 to {MAX_TASKS} tasks, its surprises included.")
    if not 0 <= gm_pool <= 100 or not -10 <= difficulty <= 10 or not -10 <= merit <= 10:
        raise InvalidInput("The GM rolls 0 to 100 dice; difficulty and merit are -10 to "
                           "+10 dice.")
    if spec.sl != 0:
        raise InvalidInput(f"{safe(spec.name)} rolls at Normal in a PLOT (RULINGS X14).")
    return goal, spec, task_names, hidden


def _event_data(event: str, task: str, success: bool | None, bonus: int, countered: bool,
                before: str | None) -> dict[str, Any]:
    """A PLOT event as stored, refused when its kind is none of `EVENT_KINDS`, a play
    says no outcome or the task has no name."""
    if event not in EVENT_KINDS:
        raise InvalidInput(f'A PLOT event is auto, play or surprise, not "{safe(event)}".')
    if event == "play" and success is None:
        raise InvalidInput("Say whether the task was played successfully or not.")
    if not task.strip():
        raise InvalidInput("Name the task.")
    data: dict[str, Any] = {"event": event, "task": task.strip()}
    if event == "auto":
        data["countered"] = countered
    elif event == "play":
        data.update(success=bool(success), bonus=bonus)
    elif before:
        data["before"] = before.strip()
    return data


class XpPlotService(UseCases):
    """The GM's PLOTs in an Xp game (GM only)."""

    @retried
    async def open(self, game_id: str, actor: str, *, goal: str, leader: str, gm_pool: int,
                   tasks: str, surprises: str = "", difficulty: int = 0, merit: int = 0
                   ) -> XpShown:
        """Open a PLOT: `leader` (`Aster 6d`) rolls at Normal with the plot's difficulty dice
        and the plan's merit, the GM rolls `gm_pool` dice (X14), and the tasks wait in order."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            # a player hears only that GMs do this; a GM hears of a wrong input before the rules
            goal, spec, task_names, hidden = _plot_input(goal, leader, gm_pool, tasks, surprises,
                                                         difficulty, merit)
            self.require(game, Feature.DICE_POOLS)
            config = game_config(game)
            detail: dict[str, Any] = with_options({
                "goal": goal, "difficulty": difficulty, "merit": merit, "tasks": task_names,
                "surprises": hidden,
                "leader": {"name": spec.name, "pool": spec.pool, "who": spec.who.value,
                           "heroic": config.heroic_default(spec.who)},
                "gm": {"pool": gm_pool, "heroic": config.heroic_default(Who.NPC)},
            }, game.settings.xp)
            detail["seed"] = self.deps.salts()
            shared = RandomDice(generator(detail["seed"]))
            lead, gm = RecordingDice(shared), RecordingDice(shared)
            try:
                run_stored(detail, [], (lead, gm))
            except XpError as exc:
                raise sentence(exc) from None
            detail["leader"]["dice"], detail["gm"]["dice"] = lead.faces, gm.faces
            entry = await store(uow, self.deps, game.id, actor, PLOT_ACTION, detail)
        return plot_shown(entry, [])

    @retried
    async def event(self, game_id: str, actor: str, *, event: str, task: str,
                    success: bool | None = None, bonus: int = 0, countered: bool = False,
                    before: str | None = None, plot: str | None = None) -> XpShown:
        """Record one event of the game's PLOT (the latest, or `plot` by id): `auto` (1 plot
        point passes `task`; `countered`: the GM spends 1 of his), `play` (`task` played,
        `success` or not; `bonus` points the GM grants), `surprise` (the GM spends 1 point to
        put his hidden `task` in, after the task a point was just spent on or `before` one)."""
        async with self.in_game(game_id, actor, gm=True) as play:
            uow, game = play.uow, play.game
            data = _event_data(event, task, success, bonus, countered, before)  # as `open`
            self.require(game, Feature.DICE_POOLS)
            entries = await uow.audit.list(game.id)
            entry = _the_plot(entries, plot)
            events = events_of(entries, entry.id)
            try:
                before_result = run_stored(entry.detail, events)
                after = run_stored(entry.detail, [*events, data])
            except XpError as exc:
                raise sentence(exc) from None
            refused = [e for e in after.errors if e.event == len(events)]
            if refused and _same(before_result, after):
                raise sentence(refused[0])
            data["plot"] = entry.id
            await store(uow, self.deps, game.id, actor, PLOT_EVENT_ACTION, data)
        return plot_shown(entry, [*events, data], [str(e) for e in refused])

    async def show(self, game_id: str, actor: str, plot: str | None = None) -> XpShown:
        """The game's PLOT as it stands (the latest, or `plot` by id; GM only)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.DICE_POOLS,
                                writes=False) as play:
            uow, game = play.uow, play.game
            entries = await uow.audit.list(game.id)
        entry = _the_plot(entries, plot)
        return plot_shown(entry, events_of(entries, entry.id))


    async def tasks(self, game_id: str, actor: str, *, hidden: bool = False) -> list[str]:
        """The game's PLOT's tasks still to play, in order, or with `hidden` the GM's surprises
        not played yet (GM only; for the adapters' suggestions)."""
        async with self.in_game(game_id, actor, gm=True, needs=Feature.DICE_POOLS,
                                writes=False) as play:
            uow, game = play.uow, play.game
            entries = await uow.audit.list(game.id)
        entry = _the_plot(entries, None)
        result = run_stored(entry.detail, events_of(entries, entry.id))
        if hidden:
            return hidden_left(entry.detail, result)
        return [t.name for t in result.tasks if t.status is TaskStatus.PENDING]


def _the_plot(entries: Sequence[AuditEntry], ref: str | None) -> AuditEntry:
    if ref:
        return find_entry(entries, ref, (PLOT_ACTION,), "PLOT")
    plots = [e for e in entries if e.action == PLOT_ACTION]
    if not plots:
        raise NotFound("This game has no PLOT yet; a GM opens one.")
    return plots[-1]


def _same(a: PlotResult, b: PlotResult) -> bool:
    return (a.pp, a.gpp, a.tasks, a.outcome) == (b.pp, b.gpp, b.tasks, b.outcome)

"""PLOTs: plot points, the GM's points and surprises (RULINGS X14).

The leader rolls at Normal: each success is a plot point (pp; 0 on a fumble, Amb-8). The GM rolls
against them, also at Normal, and keeps his successes as GM points (gpp), not netted (Amb-2). Then
the tasks are played in order:

- `AutoPass`: the players spend 1 pp and the task passes unplayed ("A plot point can be expended
  to automatically succeed at a task"); the GM may counter with 1 gpp, and then the pp is lost and
  the task must be played.
- `PlayTask`: a played task. A failure spends 1 pp and the task is saved (Amb-3); with none left
  the task fails and so does the PLOT. The GM may grant bonus pp for a task done exceptionally.
- `Surprise`: right after a pp is spent, the GM may spend 1 gpp to put one of his hidden tasks in
  the order ("Surprises can be activated immediately after a plot point is used by the players").

"If the PLOT completes with at least one plot point remaining then the PLOT succeeds." [X:L303]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, XpConfig
from fappo_bot.rules_xp.errors import UnknownName, XpError
from fappo_bot.rules_xp.roll import RollRecord
from fappo_bot.rules_xp.rollers import Roller, roll_for
from fappo_bot.rules_xp.tables import key


class TaskStatus(str, Enum):
    """Where a task of the PLOT stands."""

    PENDING = "pending"
    AUTO = "auto"
    PASSED = "passed"
    SAVED = "saved"
    FAILED = "failed"


class PlotOutcome(str, Enum):
    """The PLOT as a whole."""

    SUCCESS = "success"
    FAILURE = "failure"
    IN_PROGRESS = "in-progress"


@dataclass(frozen=True, slots=True)
class AutoPass:
    """The players spend 1 pp to pass `task` unplayed; `countered` if the GM spends 1 gpp."""

    task: str
    countered: bool = False


@dataclass(frozen=True, slots=True)
class PlayTask:
    """A task played out: its result and the bonus pp the GM grants for it (GM input)."""

    task: str
    success: bool
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class Surprise:
    """The GM spends 1 gpp to insert a hidden task, after the task a pp was spent on or `before`
    a pending task he names."""

    task: str
    before: str | None = None


PlotEvent = AutoPass | PlayTask | Surprise


@dataclass(frozen=True, slots=True)
class PlotTask:
    """A task in the PLOT's order."""

    name: str
    status: TaskStatus
    surprise: bool = False
    countered: bool = False


@dataclass(frozen=True, slots=True)
class PlotResult:
    """The two rolls, the points left, the outcome, the tasks in order and the refused events."""

    leader: RollRecord
    gm: RollRecord
    pp_rolled: int
    gpp_rolled: int
    pp: int
    gpp: int
    outcome: PlotOutcome
    tasks: tuple[PlotTask, ...]
    errors: tuple[XpError, ...]

    @property
    def extra(self) -> int:
        """Unused points beyond the one a success needs ("extra plot points remaining unused
        providing bonuses")."""
        return self.pp - 1 if self.outcome is PlotOutcome.SUCCESS else 0

    @property
    def order(self) -> tuple[str, ...]:
        """The task names in playing order."""
        return tuple(t.name for t in self.tasks)


class _Plot:
    """The PLOT's state while its events run."""

    def __init__(self, pp: int, gpp: int, tasks: Sequence[str], surprises: Sequence[str]) -> None:
        self.pp, self.gpp = pp, gpp
        self.failed = pp == 0  # "If all plot points are used up the PLOT fails."
        self.tasks = [PlotTask(t, TaskStatus.PENDING) for t in tasks]
        self.hidden = {key(s): s for s in surprises}
        names = [key(t) for t in tasks]
        if len(set(names)) != len(names) or set(names) & set(self.hidden):
            raise XpError("task and surprise names must all differ")
        #: index of the task the last event spent a pp on, if the last event spent one
        self.spent_on: int | None = None

    def _find(self, name: str) -> int | None:
        wanted = key(name)
        return next((i for i, t in enumerate(self.tasks) if key(t.name) == wanted), None)

    def _first_pending(self, name: str, event: int) -> int:
        at = self._find(name)
        if at is None:
            if key(name) in self.hidden:
                raise XpError(f"{name!r} is a hidden task the GM has not played yet",
                              code="task-order", event=event)
            raise UnknownName(f"no task {name!r} in this PLOT", event=event)
        first = next((i for i, t in enumerate(self.tasks) if t.status is TaskStatus.PENDING), None)
        if at != first:
            expected = self.tasks[first].name if first is not None else "none (all are done)"
            raise XpError(f"{name!r} is not the next task to play (next: {expected})",
                          code="task-order", event=event)
        return at

    @property
    def over(self) -> bool:
        return self.failed or all(t.status is not TaskStatus.PENDING for t in self.tasks)

    def _set(self, at: int, status: TaskStatus, **changes: bool) -> None:
        task = self.tasks[at]
        self.tasks[at] = PlotTask(task.name, status, changes.get("surprise", task.surprise),
                                  changes.get("countered", task.countered))

    def apply(self, event: PlotEvent, index: int) -> list[XpError]:
        spent_before, self.spent_on = self.spent_on, None
        if isinstance(event, Surprise):
            return self._surprise(event, index, spent_before)
        if isinstance(event, AutoPass):
            return self._auto(event, index)
        return self._play(event, index)

    def _auto(self, event: AutoPass, index: int) -> list[XpError]:
        if self.over:
            raise XpError("the PLOT is over: no more plot points can be spent", code="plot-over",
                          event=index)
        at = self._first_pending(event.task, index)
        if self.pp < 1:
            raise XpError("no plot point left to pass a task", code="pp-insufficient",
                          event=index)
        self.pp -= 1
        self.spent_on = at
        if not event.countered:
            self._set(at, TaskStatus.AUTO)
            return []
        if self.gpp < 1:
            self._set(at, TaskStatus.AUTO)
            return [XpError("the GM has no point left to counter: the task passes",
                            code="gpp-insufficient", event=index)]
        self.gpp -= 1
        self._set(at, TaskStatus.PENDING, countered=True)
        return []

    def _play(self, event: PlayTask, index: int) -> list[XpError]:
        if event.bonus and not event.success:
            raise XpError("a bonus plot point is for a task done better than successfully, "
                          "not a failed one")
        if event.bonus < 0:
            raise XpError("a bonus is a number of plot points, never negative",
                          code="out-of-range")
        at = self._first_pending(event.task, index)
        errors: list[XpError] = []
        if self.failed:  # after the PLOT failed, plays are only recorded
            self._set(at, TaskStatus.PASSED if event.success else TaskStatus.FAILED)
            if event.bonus:
                errors.append(XpError("the PLOT has failed: no bonus plot points",
                                      code="plot-over", event=index))
            return errors
        if event.success:
            self._set(at, TaskStatus.PASSED)
            self.pp += event.bonus
        elif self.pp >= 1:
            self.pp -= 1
            self.spent_on = at
            self._set(at, TaskStatus.SAVED)
        else:
            self._set(at, TaskStatus.FAILED)
            self.failed = True
        return errors

    def _surprise(self, event: Surprise, index: int, spent_on: int | None) -> list[XpError]:
        if self.over:
            raise XpError("the PLOT is over: no more surprises", code="plot-over", event=index)
        if spent_on is None:
            raise XpError("a surprise comes only right after the players spend a plot point, "
                          "one per point", code="surprise-timing", event=index)
        if self.gpp < 1:
            raise XpError("the GM has no point left for a surprise", code="gpp-insufficient",
                          event=index)
        name = self.hidden.pop(key(event.task), None)
        if name is None:
            raise UnknownName(f"{event.task!r} is not an unused hidden task of the GM",
                              event=index)
        at = spent_on + 1
        if event.before is not None:
            found = self._find(event.before)
            if found is None or self.tasks[found].status is not TaskStatus.PENDING:
                self.hidden[key(name)] = name
                raise UnknownName(f"{event.before!r} is not a pending task", event=index)
            at = found
        self.gpp -= 1
        self.tasks.insert(at, PlotTask(name, TaskStatus.PENDING, surprise=True))
        return []

    def outcome(self) -> PlotOutcome:
        if self.failed:
            return PlotOutcome.FAILURE
        if any(t.status is TaskStatus.PENDING for t in self.tasks):
            return PlotOutcome.IN_PROGRESS
        return PlotOutcome.SUCCESS if self.pp >= 1 else PlotOutcome.FAILURE


def run_plot(leader: Roller, gm: Roller, tasks: Sequence[str], surprises: Sequence[str],
             events: Sequence[PlotEvent], *, difficulty: int = 0, merit: int = 0,
             config: XpConfig = DEFAULT_CONFIG) -> PlotResult:
    """A whole PLOT (see the module doc). "The Superiority Level used for Plots is Normal."
    [X:L323]: a roller at another level is refused. The leader's pool takes the plot's difficulty
    row (X6) and the GM's dice for the plan's merit. A refused event changes nothing and the
    others go on."""
    for roller in (leader, gm):
        if roller.sl != 0:
            raise XpError(f"{roller.name} rolls at SL Normal in a PLOT (RULINGS X14), not "
                          f"{roller.sl:+d}")
    lead = roll_for(leader, extra=difficulty + merit, config=config)
    opposition = roll_for(gm, config=config)
    pp = 0 if lead.fumble else lead.s
    gpp = 0 if opposition.fumble else opposition.s
    plot = _Plot(pp, gpp, tasks, surprises)
    errors: list[XpError] = []
    for index, event in enumerate(events):
        try:
            errors.extend(plot.apply(event, index))
        except XpError as exc:
            if exc.event is None:
                raise
            errors.append(exc)
    return PlotResult(lead, opposition, pp, gpp, plot.pp, plot.gpp, plot.outcome(),
                      tuple(plot.tasks), tuple(errors))

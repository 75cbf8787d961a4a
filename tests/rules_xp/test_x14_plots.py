"""RULINGS X14: PLOTs, plot points, the GM's points and surprises."""

from __future__ import annotations

import pytest
from xp_helpers import npc, pc

from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.plots import (
    AutoPass,
    PlayTask,
    PlotOutcome,
    Surprise,
    TaskStatus,
    run_plot,
)

pytestmark = pytest.mark.unit
TASKS = ["sneak", "climb", "wall guard", "gatehouse", "open gate"]


def gate(events, leader_dice=(5, 6, 2, 3, 1, 6, 2, 5), gm_dice=(5, 6, 3, 2, 4)):
    return run_plot(pc("Aster", 6, list(leader_dice)), npc("GM", 5, list(gm_dice)), TASKS,
                    ["gate commander"], events)


def test_x14_get_the_gate_open():
    """[X:L303] "If the PLOT completes with at least one plot point remaining then the PLOT
    succeeds." RULINGS X14's example, event by event."""
    result = gate([
        AutoPass("sneak"), Surprise("gate commander", before="open gate"),
        PlayTask("climb", False), PlayTask("wall guard", True), PlayTask("gatehouse", True),
        PlayTask("gate commander", True, bonus=1), AutoPass("open gate", countered=True),
        PlayTask("open gate", True),
    ])
    assert (result.pp_rolled, result.gpp_rolled, result.pp, result.gpp) == (4, 2, 2, 0)
    assert result.outcome is PlotOutcome.SUCCESS and result.extra == 1
    assert result.order == ("sneak", "climb", "wall guard", "gatehouse", "gate commander",
                            "open gate")
    assert [t.status for t in result.tasks] == [
        TaskStatus.AUTO, TaskStatus.SAVED, TaskStatus.PASSED, TaskStatus.PASSED,
        TaskStatus.PASSED, TaskStatus.PASSED]
    assert result.errors == ()


def test_x14_surprise_only_right_after_a_spend():
    """[X:L333] "Surprises can be activated immediately after a plot point is used"."""
    result = gate([PlayTask("sneak", True), Surprise("gate commander")])
    assert [e.code for e in result.errors] == ["surprise-timing"]
    placed = gate([AutoPass("sneak"), Surprise("gate commander")])
    assert placed.order[1] == "gate commander"


def test_x14_tasks_in_order_and_points_to_spend():
    """Tasks are played in order; an auto-pass needs a plot point."""
    result = gate([AutoPass("climb")])
    assert result.errors[0].code == "task-order" and result.outcome is PlotOutcome.IN_PROGRESS
    none_left = gate([AutoPass("sneak"), AutoPass("climb"), AutoPass("wall guard"),
                      AutoPass("gatehouse"), AutoPass("open gate")])
    assert none_left.errors[0].code == "pp-insufficient" and none_left.errors[0].event == 4


def test_x14_a_failure_without_points_fails_the_plot():
    """[X:L303] "If all plot points are used up the PLOT fails." A leader's fumble gives 0 pp
    (Amb-8): the PLOT fails at once, tasks are only recorded, autos are refused."""
    result = gate([PlayTask("sneak", True), AutoPass("climb")],
                  leader_dice=(1, 1, 2, 3, 5, 2))
    assert result.pp_rolled == 0 and result.outcome is PlotOutcome.FAILURE
    assert [e.code for e in result.errors] == ["plot-over"]


def test_x14_plots_roll_at_normal():
    """[X:L323] "The Superiority Level used for Plots is Normal." """
    with pytest.raises(XpError):
        run_plot(pc("A", 4, [], sl=1), npc("GM", 1, []), ["t"], [], [])

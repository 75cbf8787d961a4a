"""Table commands for spending banked CC (F28), as `/char advance` and its GM buttons on
Discord: /spend NAME CHANGE (a player asks, a GM's is made at once), /approve NAME, /refuse
NAME, /changes (what waits for a GM), /ledger [SEAT] (tournament points)."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only, seat_user_id
from fappo_bot.console.table import LocalTable, TableError
from fappo_bot.console.transcript import Step
from fappo_bot.service.advance_text import FORMS
from fappo_bot.service.advance_views import AdvanceView


def _made(view: AdvanceView, by: str = "") -> str:
    return f"{view.character}: {view.change} for {view.cost} CC{by}; {view.left} CC banked."


async def spend(table: LocalTable, step: Step) -> list[Shown]:
    """/spend NAME CHANGE: spend the character's banked CC (F28) on CHANGE (`Stealth +1`,
    `Nimble +2 SP`, `trait Tireless`, `floating +1`, `AP +1`, `legendary ITEM: UPGRADES`). A
    player's change waits for a GM's /approve; a GM's is made at once."""
    if len(step.args) < 2:
        raise TableError(f"/spend needs the character and the change: /spend Kael Stealth +1 "
                         f"(a change is {FORMS}).")
    game_id = table.need_game()
    view = await table.services.advancement.ask(game_id, table.user, step.args[0],
                                                " ".join(step.args[1:]))
    if view.applied:
        return [Shown(Kind.NOTICE, f"advance: {view.character}", _made(view))]
    return [Shown(Kind.NOTICE, f"advance asked: {view.character}",
                  f"{table.seat} asks to spend CC for {view.character}: {view.change} "
                  f"({view.cost} CC of {view.banked} banked). A GM answers with /approve "
                  f"{view.character} or /refuse {view.character}.")]


async def approve(table: LocalTable, step: Step) -> list[Shown]:
    """/approve NAME: a GM approves the change waiting for that character."""
    if not step.args:
        raise TableError("/approve needs the character whose change to approve: /approve Kael.")
    view = await table.services.advancement.approve(table.need_game(), table.user,
                                                    " ".join(step.args))
    return [Shown(Kind.NOTICE, f"advance: {view.character}",
                  _made(view, f" (approved by {table.seat})"))]


async def refuse(table: LocalTable, step: Step) -> list[Shown]:
    """/refuse NAME: a GM refuses the change waiting for that character; nothing is spent."""
    if not step.args:
        raise TableError("/refuse needs the character whose change to refuse: /refuse Kael.")
    view = await table.services.advancement.refuse(table.need_game(), table.user,
                                                   " ".join(step.args))
    return [Shown(Kind.NOTICE, f"advance refused: {view.character}",
                  f"{view.character}: {view.change} was refused by {table.seat}; nothing was "
                  "spent.")]


async def changes(table: LocalTable, step: Step) -> list[Shown]:
    """/changes: the CC purchases waiting for a GM (GMs only)."""
    waiting = await table.services.advancement.waiting(table.need_game(), table.user)
    body = "\n".join(f"{v.character}: {v.change} ({v.cost} CC of {v.banked} banked), asked by "
                     f"{table.book.label(v.player)}" for v in waiting)
    return [Shown(Kind.INFO, "changes waiting", body or "No change is waiting for a GM.",
                  only(table.seat))]


async def ledger(table: LocalTable, step: Step) -> list[Shown]:
    """/ledger [SEAT]: the tournament CC a player earned across games (F28; default: yours)."""
    user = seat_user_id(" ".join(step.args)) if step.args else table.user
    view = await table.services.aftermath.ledger(user)
    if not view.entries:
        body = (f"{user} has no tournament CC yet (one per completed adventure of a "
                "tournament game).")
    else:
        body = "\n".join([f"{user}: {view.total} tournament CC.",
                          *(f"{points:+d} CC: {reason}" for _, points, reason in view.entries)])
    return [Shown(Kind.INFO, "ledger", body, only(table.seat))]

"""Table commands for legendary items in play (F22), as `/gm handover`, `/gm items` and
`/char bind` on Discord: /handover ITEM CHARACTER [--owner NAME], /items, /bind NAME ITEM
[--sacrifice WHAT]. Each answer goes to the seat that asks only; the owner's player is told by
the outbox that the item was bound, not by whom."""

from __future__ import annotations

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError, command_parser
from fappo_bot.console.transcript import Step
from fappo_bot.service.legendary import ItemView


def _powers(view: ItemView) -> str:
    return "with its powers" if view.powers else "its base weapon only, until bound"


async def handover(table: LocalTable, step: Step) -> list[Shown]:
    """/handover ITEM CHARACTER [--owner NAME]: at the GM's word the item is now CHARACTER's."""
    parser = command_parser("handover")
    parser.add_argument("item")
    parser.add_argument("to")
    parser.add_argument("--owner", default=None)
    args = parser.parse_args(list(step.args))
    view = await table.services.legendary.hand_over(table.need_game(), table.user, args.item,
                                                    args.to, owner=args.owner)
    broken = (f" The owner's reclaim breaks the binding of {', '.join(view.broken)}."
              if view.broken else "")
    return [Shown(Kind.NOTICE, f"legendary: {view.item}",
                  f"{view.owner or 'nobody'}'s legendary '{view.item}' is now "
                  f"{view.holder or 'nobody'}'s ({_powers(view)}).{broken}", only(table.seat))]


async def items(table: LocalTable, step: Step) -> list[Shown]:
    """/items: the game's legendary items, who holds them and who bound them (GMs only)."""
    views = await table.services.legendary.items(table.need_game(), table.user)
    body = "\n".join(
        f"'{v.item}' of {v.owner or 'nobody'}: held by {v.holder or 'nobody'} ({_powers(v)})"
        + (f"; bound to {', '.join(v.bound_to)}" if v.bound_to else "") for v in views)
    return [Shown(Kind.INFO, "legendary items",
                  body or "No legendary item is recorded in this game.", only(table.seat))]


async def bind(table: LocalTable, step: Step) -> list[Shown]:
    """/bind NAME ITEM [--sacrifice WHAT]: the character binds the legendary item it holds, for
    one creation point (a banked CC, or a skill point, a Trait's SP, `floating`)."""
    parser = command_parser("bind")
    parser.add_argument("name")
    parser.add_argument("item", nargs="?")
    parser.add_argument("--sacrifice", default=None)
    args = parser.parse_args(list(step.args))
    if args.item is None:
        raise TableError("/bind needs the character and the item: /bind Mira Broadsword "
                         "[--sacrifice Stealth].")
    view = await table.services.legendary.bind_item(table.need_game(), table.user, args.name,
                                                    args.item, sacrifice=args.sacrifice)
    return [Shown(Kind.NOTICE, f"legendary: {view.item}",
                  f"{view.holder} binds '{view.item}' ({view.sacrificed} sacrificed): its "
                  "powers are theirs now. Its owner knows it was bound, not by whom (F22).",
                  only(table.seat))]

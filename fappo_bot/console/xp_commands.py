"""Table commands of the Xp dice pools: `/odds` for anyone, and the GM's `/xp` rolls (the bot's
`/odds` and `/xp` group). Each calls the use case of its slash command and shows the text the
service rendered (`render_xp`, shared with the bot): a roll to everyone, a Passive roll and every
record to the GM only.

    /xp roll NAME POOL [LEVEL] [--need N] [--npc] [--heroic|--not-heroic]
    /xp passive NAME POOL [LEVEL] [--npc]          (secret: the GM's eyes only)
    /xp active PASSIVE NAME POOL [LEVEL] [--npc]   (against a stored Passive roll)
    /xp group assisted|spontaneous|collateral ROLLERS [--need N]
    /xp plot open GOAL --leader "NAME POOL" --gm POOL --tasks "A, B" [--surprises "C"]
             [--difficulty N] [--merit N]
    /xp plot auto TASK [--countered] | play TASK success|failure [--bonus N]
             | surprise TASK [--before TASK] | show
    /xp reroll NAME POOL [LEVEL] --unit 1m --units N [--need N] [--npc]   (X9)
    /xp augment NAME POOL [LEVEL] --augments "Perception 4d, Lore 3d" [--need N] [--npc]  (X12)
    /xp event KIND [NOTE] [--character NAME --luck N]   (X17: a boundary, Sequence, Parley, Cut!)
    /xp rank NAME RANK CHANGE                      (X16: -2 loses two points, 1 recovers one)
    /xp rolls | show ID | case ID
"""

from __future__ import annotations

from typing import Any

from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError, command_parser
from fappo_bot.console.transcript import Step
from fappo_bot.service.xp_odds import read_roll

XP_HELP = """\
Xp dice pools (an Xp game: /newgame NAME --ruleset xp):
  /odds POOL [LEVEL] [--need N] [--npc]   the exact odds, e.g. /odds 6d superior (anyone)
GM: /xp roll NAME POOL [LEVEL] [--need N] [--npc] [--heroic|--not-heroic]
  /xp passive NAME POOL [LEVEL] [--npc]   a secret Passive roll: its successes are stored
  /xp active PASSIVE NAME POOL [LEVEL]    an Active roll against a stored Passive roll
  /xp group assisted|spontaneous|collateral "Aster 6d, Brin 4d superior npc, Cato 3d relaunch"
  /xp plot open GOAL --leader "Aster 6d" --gm 5 --tasks "sneak, climb" [--surprises "X"]
  /xp plot auto TASK [--countered] | play TASK success|failure [--bonus N]
  /xp plot surprise TASK [--before TASK] | show
  /xp reroll NAME POOL [LEVEL] --unit 1m --units 5 [--need N]   rerolls over time (X9)
  /xp augment NAME POOL [LEVEL] --augments "Perception 4d" [--need N]   augmented (X12)
  /xp event event|session|episode|adventure|downtime|sequence|parley [NOTE]   (X17)
  /xp event cut [NOTE] --character NAME --luck N   a Cut!, at your Luck price (X17)
  /xp rank NAME physical|mental|elemental|spiritual -2   a rank loses (or recovers) points
  /xp rolls   /xp show ID   /xp case ID   (the records: the GMs only)
  LEVEL: hopeless, weak, poor, normal, advantage, superior, dominant, or -3..+3"""


async def odds(table: LocalTable, step: Step) -> list[Shown]:
    """/odds POOL [LEVEL] [--need N] [--npc]: the exact odds of a roll, to the seat that asked."""
    parser = command_parser("odds")
    parser.add_argument("roll", nargs="*")
    parser.add_argument("--need", type=int, default=1)
    parser.add_argument("--npc", action="store_true")
    args = parser.parse_args(list(step.args))
    text = await table.services.xp_rolls.odds(table.game_id, " ".join(args.roll),
                                              need=args.need, npc=args.npc)
    return [Shown(Kind.INFO, "odds", text, only(table.seat))]


def _roller_parser(name: str, *, passive: bool = False) -> Any:
    parser = command_parser(name)
    if passive:
        parser.add_argument("against")
    parser.add_argument("name")
    parser.add_argument("roll", nargs="+")
    parser.add_argument("--need", type=int, default=1)
    parser.add_argument("--npc", action="store_true")
    parser.add_argument("--not-heroic", action="store_true")
    parser.add_argument("--heroic", action="store_true")
    return parser


def _heroic(args: Any) -> bool | None:
    """`--heroic` / `--not-heroic`, else the roller's default (PCs yes, NPCs no, X5 Amb-2)."""
    if args.heroic and args.not_heroic:
        raise TableError("A roll is --heroic or --not-heroic, not both.")
    return True if args.heroic else False if args.not_heroic else None


async def _roll(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    args = _roller_parser("xp roll").parse_args(words)
    spec = read_roll(" ".join(args.roll))
    view = await table.services.xp_rolls.roll(
        table.need_game(), table.user, name=args.name, pool=spec.pool, sl=spec.sl,
        who="npc" if args.npc else "pc", heroic=_heroic(args), need=args.need)
    shown = view.shown
    return [Shown(Kind.RESULTS, f"roll {shown.short_id}", shown.public)]


async def _passive(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    args = _roller_parser("xp passive").parse_args(words)
    spec = read_roll(" ".join(args.roll))
    view = await table.services.xp_rolls.passive(
        table.need_game(), table.user, name=args.name, pool=spec.pool, sl=spec.sl,
        who="npc" if args.npc else "pc", heroic=_heroic(args))
    shown = view.shown
    return [Shown(Kind.INFO, f"passive roll {shown.short_id} (secret)", shown.gm,
                  table.gm_seats | only(table.seat))]


async def _active(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    args = _roller_parser("xp active", passive=True).parse_args(words)
    spec = read_roll(" ".join(args.roll))
    view = await table.services.xp_rolls.active(
        table.need_game(), table.user, against=args.against, name=args.name, pool=spec.pool,
        sl=spec.sl, who="npc" if args.npc else "pc", heroic=_heroic(args))
    shown = view.shown
    return [Shown(Kind.RESULTS, f"roll {shown.short_id}", shown.public),
            Shown(Kind.INFO, f"roll {shown.short_id} (GM)", shown.gm,
                  table.gm_seats | only(table.seat))]


async def _group(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    parser = command_parser("xp group")
    parser.add_argument("kind")
    parser.add_argument("members", nargs="+")
    parser.add_argument("--need", type=int, default=1)
    args = parser.parse_args(words)
    shown = await table.services.xp_groups.group(
        table.need_game(), table.user, kind=args.kind, members=" ".join(args.members),
        need=args.need)
    return [Shown(Kind.RESULTS, f"group roll {shown.short_id}", shown.public)]


async def _plot(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    if not words:
        raise TableError("/xp plot open|auto|play|surprise|show: see /help.")
    action, rest = words[0], words[1:]
    plots = table.services.xp_plots
    game_id = table.need_game()
    parser = command_parser(f"xp plot {action}")
    if action == "open":
        parser.add_argument("goal", nargs="+")
        parser.add_argument("--leader", required=True)
        parser.add_argument("--gm", type=int, required=True)
        parser.add_argument("--tasks", required=True)
        parser.add_argument("--surprises", default="")
        parser.add_argument("--difficulty", type=int, default=0)
        parser.add_argument("--merit", type=int, default=0)
        args = parser.parse_args(rest)
        shown = await plots.open(game_id, table.user, goal=" ".join(args.goal),
                                 leader=args.leader, gm_pool=args.gm, tasks=args.tasks,
                                 surprises=args.surprises, difficulty=args.difficulty,
                                 merit=args.merit)
    elif action == "show":
        shown = await plots.show(game_id, table.user)
        return [Shown(Kind.INFO, f"plot {shown.short_id}", shown.gm, only(table.seat))]
    elif action in {"auto", "play", "surprise"}:
        parser.add_argument("task", nargs="+")
        parser.add_argument("--countered", action="store_true")
        parser.add_argument("--bonus", type=int, default=0)
        parser.add_argument("--before", default=None)
        args = parser.parse_args(rest)
        task, success = list(args.task), None
        if action == "play":
            if task[-1].casefold() not in {"success", "failure"} or len(task) < 2:
                raise TableError("/xp plot play TASK success|failure [--bonus N].")
            success = task.pop().casefold() == "success"
        shown = await plots.event(game_id, table.user, event=action, task=" ".join(task),
                                  success=success, bonus=args.bonus, countered=args.countered,
                                  before=args.before)
    else:
        raise TableError(f'/xp plot has no "{action}": open, auto, play, surprise or show.')
    return [Shown(Kind.RESULTS, f"plot {shown.short_id}", shown.public),
            Shown(Kind.INFO, f"plot {shown.short_id} (GM)", shown.gm,
                  table.gm_seats | only(table.seat))]


async def _timed(table: LocalTable, step: Step, words: list[str], *, reroll: bool
                 ) -> list[Shown]:
    parser = _roller_parser("xp reroll" if reroll else "xp augment")
    if reroll:
        parser.add_argument("--unit", required=True)
        parser.add_argument("--units", type=int, required=True)
    else:
        parser.add_argument("--augments", required=True)
    args = parser.parse_args(words)
    spec = read_roll(" ".join(args.roll))
    timed = table.services.xp_timed
    common: dict[str, Any] = {"name": args.name, "pool": spec.pool, "sl": spec.sl,
                              "who": "npc" if args.npc else "pc", "heroic": _heroic(args),
                              "need": args.need}
    if reroll:
        shown = await timed.reroll(table.need_game(), table.user, unit=args.unit,
                                   units=args.units, **common)
    else:
        shown = await timed.augment(table.need_game(), table.user, augments=args.augments,
                                    **common)
    return [Shown(Kind.RESULTS, f"roll {shown.short_id}", shown.public)]


async def _reroll(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    return await _timed(table, step, words, reroll=True)


async def _augment(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    return await _timed(table, step, words, reroll=False)


async def _event(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    parser = command_parser("xp event")
    parser.add_argument("kind")
    parser.add_argument("note", nargs="*")
    parser.add_argument("--character", default=None)
    parser.add_argument("--luck", type=int, default=0)
    args = parser.parse_args(words)
    shown = await table.services.xp_events.event(
        table.need_game(), table.user, kind=args.kind, note=" ".join(args.note),
        character=args.character, luck=args.luck)
    return [Shown(Kind.RESULTS, shown.kind, shown.text)]


async def _rank(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    parser = command_parser("xp rank")
    parser.add_argument("name")
    parser.add_argument("rank")
    parser.add_argument("change", type=int)
    args = parser.parse_args(words)
    shown = await table.services.xp_events.rank(table.need_game(), table.user, name=args.name,
                                                rank=args.rank, change=args.change)
    return [Shown(Kind.RESULTS, "rank", shown.text)]


async def _records(table: LocalTable, step: Step, words: list[str]) -> list[Shown]:
    game_id, xp = table.need_game(), table.services.xp_rolls
    if words[0] == "rolls":
        listed = await xp.rolls(game_id, table.user)
        body = "\n".join(f"{r.short_id}  {r.kind:<11} {r.name}: {r.outcome}" for r in listed)
        return [Shown(Kind.INFO, "rolls", body or "No rolls yet.", only(table.seat))]
    if len(words) != 2:
        raise TableError(f"/xp {words[0]} ID: the roll's id (/xp rolls lists them).")
    if words[0] == "show":
        shown = await xp.show(game_id, table.user, words[1])
        return [Shown(Kind.INFO, f"{shown.kind} {shown.short_id}", shown.gm, only(table.seat))]
    import yaml

    case = await xp.case(game_id, table.user, words[1])
    text = yaml.safe_dump({"cases": [case]}, sort_keys=False, allow_unicode=True)
    return [Shown(Kind.INFO, f"case {case['id']}", text, only(table.seat))]


_SUBCOMMANDS = {"roll": _roll, "passive": _passive, "active": _active, "group": _group,
                "plot": _plot, "reroll": _reroll, "augment": _augment, "event": _event,
                "rank": _rank, "rolls": _records,
                "show": _records, "case": _records}


async def xp(table: LocalTable, step: Step) -> list[Shown]:
    """/xp SUBCOMMAND ...: the GM's dice-pool rolls and their records."""
    words = list(step.args)
    if not words or words[0] not in _SUBCOMMANDS:
        raise TableError("/xp roll|passive|active|group|plot|reroll|augment|event|rank|rolls|show"
                         "|case: see /help.")
    handler = _SUBCOMMANDS[words[0]]
    return await handler(table, step, words if handler is _records else words[1:])

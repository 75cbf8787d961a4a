"""Table commands between fights and around games: /advance, /endcombat, /endscene (/rest),
/endadventure, /export, /import. Each calls the use case of its slash command (or the CLI's export and import)."""

from __future__ import annotations

from fappo_bot.console.files import read_text
from fappo_bot.console.seats import Kind, Shown, only
from fappo_bot.console.table import LocalTable, TableError, command_parser
from fappo_bot.console.transcript import Step
from fappo_bot.service import HealingInput, SceneGap, timetext
from fappo_bot.service.records import CharacterKind
from fappo_bot.service.views import CharacterView, SheetView


def _pools(sheet: SheetView | None) -> str:
    """The SP pools the character has now, each of the most it holds (the service's figures)."""
    if sheet is None:
        return "no SP"
    parts = [f"{p.name} {p.left}/{p.maximum}" for p in sheet.pools if p.left is not None]
    if sheet.floating.maximum:
        parts.append(f"floating {sheet.floating.left}/{sheet.floating.maximum}")
    return ", ".join(parts) or "no SP"


def _banked(sheet: SheetView | None) -> str:
    return f"; {sheet.unspent_cc} CC banked" if sheet is not None and sheet.unspent_cc else ""


def _sp_report(table: LocalTable, characters: list[CharacterView], title: str) -> list[Shown]:
    pcs = [c for c in characters if c.kind is CharacterKind.PC]
    others = [c for c in characters if c.kind is not CharacterKind.PC]
    shown = []
    if pcs:
        body = "\n".join(f"{c.name}: {_pools(c.shown)}{_banked(c.shown)}" for c in pcs)
        shown.append(Shown(Kind.INFO, title, body))
    if others:
        body = "\n".join(f"{c.name}: {_pools(c.shown)}" for c in others)
        shown.append(Shown(Kind.INFO, f"{title} (NPCs)", body, table.gm_seats))
    return shown


def _allocations(words: list[str]) -> dict[str, dict[str, int]]:
    """`Kael:Tireless=2,floating=1` tokens as {character: {pool: points}}."""
    out: dict[str, dict[str, int]] = {}
    for word in words:
        name, sep, spec = word.partition(":")
        if not sep or not name or not spec:
            raise TableError(f'"{word}" is no allocation; write NAME:TRAIT=N[,TRAIT=N].')
        pools: dict[str, int] = {}
        for part in spec.split(","):
            pool, eq, number = part.partition("=")
            if not eq or not number.strip().isdigit():
                raise TableError(f'"{part}" is no allocation; write TRAIT=N (e.g. Nimble=2).')
            pools[pool.strip()] = int(number)
        out[name] = pools
    return out


def parse_duration(text: str) -> int:
    """`10m`, `2d`, `90s`, `1w`, `1h30m` (a bare number is minutes) as seconds, read by the
    project's one duration parser (`service/timetext.py`)."""
    try:
        return int(timetext.parse_duration(text).total_seconds())
    except ValueError as exc:
        raise TableError(f"/advance: {exc}.") from None


def parse_checks(words: list[str]) -> dict[str, HealingInput]:
    """`PATIENT=TOTAL[:HEALER[:POOL=N,...]]` tokens as {patient: Healing check}: the healer's
    total (skill + AP + modifiers) and the SP they spend on it (F14, F4)."""
    out: dict[str, HealingInput] = {}
    for word in words:
        patient, eq, spec = word.partition("=")
        total, _, rest = spec.partition(":")
        healer, _, pools = rest.partition(":")
        if not eq or not patient.strip() or not total.strip().lstrip("-").isdigit():
            raise TableError(f'"{word}" is no Healing check; write PATIENT=TOTAL, '
                             "PATIENT=TOTAL:HEALER or PATIENT=TOTAL:HEALER:TRAIT=N (e.g. "
                             "Kael=4:Mira:Sagacious=1).")
        if patient.strip().casefold() in {p.casefold() for p in out}:
            raise TableError(f"{patient.strip()} gets one Healing check at a time.")
        out[patient.strip()] = HealingInput(total=int(total), healer=healer.strip() or None,
                                            sp=_check_sp(word, pools))
    return out


def _check_sp(word: str, pools: str) -> dict[str, int]:
    """The SP of a Healing check, `Sagacious=1,floating=1` (none when empty)."""
    sp: dict[str, int] = {}
    for part in (p for p in pools.split(",") if p.strip()):
        pool, eq, number = part.partition("=")
        if not eq or not pool.strip() or not number.strip().isdigit():
            raise TableError(f'"{word}": "{part}" is no SP; write TRAIT=N (e.g. Sagacious=1).')
        sp[pool.strip()] = sp.get(pool.strip(), 0) + int(number)
    return sp


async def advance(table: LocalTable, step: Step) -> list[Shown]:
    """/advance DURATION [--check PATIENT=TOTAL[:HEALER[:TRAIT=N,...]] ...]: time passes between
    turns or scenes (F7 Amb-7) and wounds heal by it (F14); a check is a Healing check's total
    (skill + AP + modifiers) by an assisting character, with the SP they spend on it, which
    halves the level's time on a Solid Success or better. The table notice lists who healed and how long until each one's next level."""
    parser = command_parser("advance")
    parser.add_argument("duration")
    parser.add_argument("--check", action="append", default=[])
    args = parser.parse_args(list(step.args))
    seconds = parse_duration(args.duration)
    await table.services.aftermath.advance_time(
        table.need_game(), table.user, seconds, checks=parse_checks(args.check)
    )
    return []


async def endcombat(table: LocalTable, step: Step) -> list[Shown]:
    """/endcombat [off]: the open turn's resolution ends the combat (F18.2: whoever bleeds drops
    to Incapacitated, then binding can restore the level); `off` takes it back."""
    words = [w.casefold() for w in step.args]
    if words not in ([], ["on"], ["off"]):
        raise TableError("/endcombat takes nothing (the combat ends with this turn) or off "
                         "(it goes on).")
    inputs = await table.services.review.set_inputs(table.need_game(), table.user,
                                                    end_combat=words != ["off"])
    text = ("The combat ends with this turn's resolution: whoever bleeds drops to "
            "Incapacitated, and binding the wounds can restore the level (F18.2). The game is "
            "then out of combat until a GM sets it again (/set in_combat on)."
            if inputs.end_combat else "The combat goes on after this turn's resolution.")
    return [Shown(Kind.NOTICE, "end of combat", text, table.gm_seats)]


async def endscene(table: LocalTable, step: Step) -> list[Shown]:
    """/endscene BREAK [NAME:TRAIT=N,...]: end the scene; SP come back by the break (F27):
    immediate 1, same_day 2, night 3, week_plus 4, adventure_end all. Without an allocation a
    character's points go where the rules put them (F27 Amb-2)."""
    if not step.args:
        choices = ", ".join(b.value for b in SceneGap)
        raise TableError(f"/{step.name} needs the break before the next scene: {choices}.")
    try:
        gap = SceneGap(step.args[0].casefold().replace("-", "_"))
    except ValueError:
        choices = ", ".join(b.value for b in SceneGap)
        raise TableError(f'"{step.args[0]}" is no break; choose one of: {choices}.') from None
    allocations = _allocations(list(step.args[1:]))
    changed = await table.services.aftermath.end_scene(
        table.need_game(), table.user, gap, allocations
    )
    return _sp_report(table, changed, "SP after the rest")


async def endadventure(table: LocalTable, step: Step) -> list[Shown]:
    """/endadventure [AWARD] [NAME=N ...] [--failed]: end the adventure (F28): every PC banks the
    award (0-3 CC; NAME=N for one PC), every SP is restored."""
    parser = command_parser("endadventure")
    parser.add_argument("awards", nargs="*")
    parser.add_argument("--failed", action="store_true")
    args = parser.parse_args(list(step.args))
    game_id = table.need_game()
    everyone: int | None = None
    named: dict[str, int] = {}
    for word in args.awards:
        name, eq, number = word.partition("=")
        value = number if eq else name
        if not value.strip().isdigit():
            raise TableError(f'"{word}" is no award; write N (for every PC) or NAME=N.')
        if eq:
            named[name] = int(number)
        else:
            everyone = int(value)
    awards: dict[str, int] = {}
    if everyone is not None:
        for character in await table.services.characters.list(game_id):
            if character.kind is CharacterKind.PC:
                awards[character.name] = everyone
    awards.update(named)
    changed = await table.services.aftermath.end_adventure(
        game_id, table.user, awards, completed=not args.failed
    )
    return _sp_report(table, changed, "after the adventure")


async def export(table: LocalTable, step: Step) -> list[Shown]:
    """/export FILE [--secrets]: a GM writes the current game as JSON (as `fappo-bot export`;
    before the turn resolves, its secrets only with --secrets)."""
    from pathlib import Path

    from fappo_bot.service.transfer import dumps

    files = [a for a in step.args if a != "--secrets"]
    if len(files) != 1:
        raise TableError("/export takes the file to write: /export warren.json")
    document = await table.services.transfer.export(
        table.need_game(), table.user, secrets="--secrets" in step.args
    )
    path = Path(files[0]).expanduser()
    try:
        path.write_text(dumps(document), encoding="utf-8")
    except OSError as exc:
        raise TableError(f"Cannot write {path}: {exc}") from exc
    return [Shown(Kind.INFO, "export", f'"{document.game.name}" written to {path}.', only(table.seat))]


async def import_(table: LocalTable, step: Step) -> list[Shown]:
    """/import FILE [--copy]: store an exported game (as a copy next to its original with
    --copy) and sit down at it."""
    from fappo_bot.service.clock import uuid_ids
    from fappo_bot.service.transfer import copied, loads

    parser = command_parser("import")
    parser.add_argument("file")
    parser.add_argument("--copy", action="store_true")
    args = parser.parse_args(list(step.args))
    try:
        text = read_text(table.path(args.file))
    except OSError as exc:
        raise TableError(f"Cannot read {args.file}: {exc}") from exc
    document = loads(text)
    if args.copy:
        document = copied(document, uuid_ids, f"table:{uuid_ids()[-12:]}")
    game = await table.services.transfer.import_game(document)
    await table.set_game(game.id)
    return [Shown(Kind.NOTICE, "import", f'Imported "{game.name}" ({game.channel_key}); now at it.',
                  only(table.seat))]

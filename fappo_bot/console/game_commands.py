"""Table commands for games, seats and characters: /newgame, /addchar, /sheet, /enemy, /group,
/games, /use, /seats. Each calls the use case its slash command calls."""

from __future__ import annotations

from typing import Any

from fappo_bot.console.seats import Kind, Shown, as_typed, only, seat_user_id
from fappo_bot.console.services import TABLE_CHANNEL_PREFIX
from fappo_bot.console.table import LocalTable, TableError, command_parser, slug
from fappo_bot.console.transcript import Step
from fappo_bot.service.errors import Conflict
from fappo_bot.service.records import CharacterKind, Role
from fappo_bot.service.views import SheetView
from fappo_bot.sheets.xp import render_xp_sheet
from fappo_bot.spelling import nearest


def _parse(step: Step, parser: Any) -> Any:
    return parser.parse_args(list(step.args))


async def newgame(table: LocalTable, step: Step) -> list[Shown]:
    """/newgame NAME [--players A B ...] [--gms G ...] [--ruleset xp]: a new game; the current
    seat is its GM. `--ruleset xp` plays the Xp dice-pool rules (docs/players.md, "Playing
    Xp")."""
    parser = command_parser("newgame")
    parser.add_argument("name", nargs="*")
    parser.add_argument("--players", nargs="*", default=[])
    parser.add_argument("--gms", nargs="*", default=[])
    parser.add_argument("--ruleset")  # none given: the service's default ruleset
    args = _parse(step, parser)
    if not args.name:
        raise TableError('/newgame needs the game\'s name: /newgame "The Goblin Warren" '
                         "[--players alice bob] [--gms G].")
    name = " ".join(args.name)
    taken = {g.channel_key for g in await table.services.table_games()}
    base = TABLE_CHANNEL_PREFIX + slug(name)
    channel, n = base, 1
    while channel in taken:
        n += 1
        channel = f"{base}-{n}"
    view = await table.services.games.create(
        channel_key=channel,
        name=name,
        creator=table.user,
        gms=[seat_user_id(g) for g in args.gms],
        ruleset=args.ruleset,
    )
    for player in args.players:
        await table.services.games.add_member(view.id, table.user, seat_user_id(player), Role.PLAYER)
    await table.set_game(view.id)
    players = ", ".join(seat_user_id(p) for p in args.players) or "none yet"
    rules = f", {view.tag}" if view.tag else ""
    return [
        Shown(
            Kind.NOTICE,
            f"new game: {view.name}",
            f'"{view.name}" starts in {channel} (game {view.id}{rules}).\n'
            f"GM: {', '.join(view.gms)}. Players: {players}.",
        )
    ]


async def _add(table: LocalTable, step: Step, kind: CharacterKind | None) -> list[Shown]:
    parser = command_parser(step.name)
    parser.add_argument("file", nargs="?")
    parser.add_argument("--player", default=None)
    parser.add_argument("--new-player", default=None)
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--unchecked", action="store_true")
    args = _parse(step, parser)
    game_id = table.need_game()
    owner: str | None = None
    if kind is not None:
        owner = await _owner(table, game_id, step, args.player, args.new_player)
    data = table.sheet_data(step, args.file)
    if args.count is not None:
        data["count"] = args.count
    characters = table.services.characters
    new: Any
    if args.unchecked:
        # an improvised character in the case-file format, not priced (the service lets only
        # a GM add one)
        from fappo_bot.sheets import SheetError, unchecked_character

        try:
            new = unchecked_character(data)
        except SheetError as exc:
            raise TableError(str(exc)) from exc
    if kind is not None and args.new_player is not None and owner != table.user:
        await table.services.games.add_member(game_id, table.user, owner or "", Role.PLAYER)
    try:
        if args.unchecked:
            check = await (characters.add_enemy(game_id, table.user, new) if kind is None else
                           characters.create(game_id, table.user, new, owner=owner, kind=kind))
        else:
            # the sheet in the game's ruleset (FAPPO: priced, F1; Xp: checked); /enemy and
            # /group: the service picks an enemy or a group by tier (an NPC in Xp)
            check = await characters.create_from_data(game_id, table.user, data, owner=owner,
                                                       kind=kind)
    except Conflict as exc:
        raise TableError(f"{exc}{await _name_taken(table, game_id, data.get('name'))}") from exc
    made = check.character
    if made is None:
        body = f"{data.get('name', 'The character')}'s sheet was not accepted:\n" + "\n".join(
            f"  - {table.for_seat(p)}" for p in check.problems
        )
        return [Shown(Kind.ERROR, "sheet refused", body, only(table.seat))]
    await table.refresh_seats()
    who = f" (played by {made.owner})" if made.owner else ""
    shown = [
        Shown(
            Kind.NOTICE,
            f"{made.kind.value}: {made.name}",
            f"{made.name}{who} joins the game.\n"
            + (render_xp_sheet(made.xp) if made.xp is not None else describe(made.shown)),
            # an enemy's sheet is the GM's secret; the players only learn that it is there
            None if made.kind is CharacterKind.PC else table.gm_seats,
        )
    ]
    if made.kind is not CharacterKind.PC:
        shown.append(Shown(Kind.NOTICE, f"{made.kind.value}: {made.name}", f"{made.name} appears."))
    return shown


async def _name_taken(table: LocalTable, game_id: str, name: Any) -> str:
    """What a GM can do when a sheet's name is taken by a character of the game: give that
    one to another player, or retire it to free the name ("" when no character has it)."""
    wanted = as_typed(str(name or ""))
    for character in await table.services.characters.list(game_id):
        if as_typed(character.name) == wanted:
            typed = f'"{character.name}"' if " " in character.name else character.name
            played = character.runner is not None and character.runner not in table.gm_seats
            give = (f" {character.name} is played by {character.runner}: /transfer {typed} "
                    "PLAYER gives it to another player;" if played else "")
            return (f"{give} /retire {typed} takes it out of the game and frees the name for "
                    "a new sheet.")
    return ""


async def _owner(table: LocalTable, game_id: str, step: Step, player: str | None,
                 new_player: str | None) -> str | None:
    """The user a new PC goes to: `--player P`, a player (or GM) of the game already, or
    `--new-player P`, added to the game as a player. A GM names one or the other (a character
    never goes to the GM by default); anyone else creates their own character."""
    view = await table.services.games.show(game_id)
    gm = table.user in view.gms
    if player is not None and new_player is not None:
        raise TableError(f"/{step.name} takes --player (someone in the game) or --new-player "
                         "(someone new), not both.")
    if new_player is not None:
        return seat_user_id(new_player)
    if player is None:
        if gm and step.name == "addchar":
            listed = ", ".join(view.players) or "none yet"
            raise TableError(
                f"/{step.name} needs the character's player: --player NAME (players: {listed}), "
                "or --new-player NAME for someone new. A GM's own character: --player "
                f"{table.user}.")
        return None
    return known_player(view, player)


def known_player(view: Any, name: str) -> str:
    """The user id of `name` if they are a player or a GM of the game (`view`, a `GameView`);
    otherwise a refusal naming the players, with the nearest name, never a new user made up
    from a typo."""
    user = seat_user_id(name)
    members = [*view.players, *(g for g in view.gms if g not in view.players)]
    if user in members:
        return user
    near = nearest(user, members, 1)
    hint = f' Did you mean "{near[0]}"?' if near else ""
    listed = ", ".join(view.players) or "none yet"
    raise TableError(f'"{name}" is not a player of this game (players: {listed}).{hint} '
                     f"Someone new joins with --new-player {user}.")


async def addchar(table: LocalTable, step: Step) -> list[Shown]:
    """/addchar FILE --player P (or --new-player P): the GM adds a player's character (the
    sheet is checked, F1)."""
    return await _add(table, step, CharacterKind.PC)


async def sheet(table: LocalTable, step: Step) -> list[Shown]:
    """/sheet FILE: a player creates their own character (the sheet is checked, F1)."""
    return await _add(table, step, CharacterKind.PC)


async def enemy(table: LocalTable, step: Step) -> list[Shown]:
    """/enemy FILE, /group FILE [--count N]: the GM adds an enemy or a nuisance/minion group."""
    return await _add(table, step, None)


async def transfer(table: LocalTable, step: Step) -> list[Shown]:
    """/transfer NAME PLAYER [--for-now] [--new-player]: the GM gives a player's character to
    another player (F30): for good, or with --for-now until the GM gives it back."""
    parser = command_parser("transfer")
    parser.add_argument("name")
    parser.add_argument("player")
    parser.add_argument("--for-now", action="store_true")
    parser.add_argument("--new-player", action="store_true")
    args = _parse(step, parser)
    game_id = table.need_game()
    view = await table.services.games.show(game_id)
    if args.new_player:
        user = seat_user_id(args.player)
        if user not in view.players:
            await table.services.games.add_member(game_id, table.user, user, Role.PLAYER)
    else:
        user = known_player(view, args.player)
    moved = await table.services.characters.transfer(
        game_id, table.user, args.name, user, permanent=not args.for_now)
    await table.set_game(game_id)
    how = " for now (until the GM gives it back)" if args.for_now else ""
    return [Shown(Kind.NOTICE, f"pc: {moved.name}",
                  f"{moved.name} is now played by {user}{how}.")]


async def retire(table: LocalTable, step: Step) -> list[Shown]:
    """/retire NAME: the character takes no further part (kept in the records); its name is
    free for a new character."""
    if not step.args:
        raise TableError("/retire needs the character's name: /retire Kael.")
    game_id = table.need_game()
    gone = await table.services.characters.retire(game_id, table.user, " ".join(step.args))
    await table.set_game(game_id)
    return [Shown(Kind.NOTICE, f"{gone.kind.value}: {gone.name}",
                  f"{gone.name} retires and takes no further part.")]


def describe(sheet: SheetView | None) -> str:
    """A one-paragraph sheet summary (traits with SP, skills, weapons, armor), from what the
    service computed of the character."""
    if sheet is None:
        return ""
    traits = ", ".join(f"{p.name} {p.left}" for p in sheet.pools if p.left is not None) or "none"
    skills = ", ".join(f"{s} {r}" for s, r in sheet.skills) or "none"
    weapons = ", ".join(sheet.weapons) or "none"
    parts = [sheet.tier]
    if sheet.count != 1:
        parts.append(f"{sheet.count} creatures")
    parts.append(f"{sheet.ap_base} AP")
    floating = sheet.floating.left
    lines = [
        ", ".join(parts),
        f"Traits (SP): {traits}" + (f"; floating {floating}" if floating else ""),
        f"Skills: {skills}",
        f"Weapons: {weapons}; armor {sheet.armor_name}",
    ]
    return "\n".join(lines)


async def settings(table: LocalTable, step: Step) -> list[Shown]:
    """/settings: the game's settings and rules flags (R2), with their values."""
    found = await table.services.games.settings(table.need_game())
    lines = [f"{s.name} = {s.value}" + (f"   ({s.about})" if s.kind == "settings" else "")
             for s in found]
    return [Shown(Kind.INFO, "settings", "\n".join(lines), only(table.seat))]


async def set_(table: LocalTable, step: Step) -> list[Shown]:
    """/set NAME VALUE: the GM changes one setting or rules flag (`/settings` lists them)."""
    if len(step.args) < 2:
        raise TableError("/set needs a setting and its value: /set reminders 12h, 1h "
                         "(/settings lists them).")
    game_id = table.need_game()
    changed = await table.services.games.set_setting(game_id, table.user, step.args[0],
                                                     " ".join(step.args[1:]))
    return [Shown(Kind.NOTICE, "settings", f"{changed.name} is now {changed.value}.")]


async def games(table: LocalTable, step: Step) -> list[Shown]:
    """/games: the games played at this table."""
    found = await table.services.table_games()
    if not found:
        body = "No games yet: start one with /newgame NAME."
    else:
        body = "\n".join(
            f"{'*' if g.id == table.game_id else ' '} {g.name}  ({g.channel_key}, game {g.id}, "
            f"{g.status.value})"
            for g in found
        )
    return [Shown(Kind.INFO, "games", body, only(table.seat))]


async def use(table: LocalTable, step: Step) -> list[Shown]:
    """/use GAME: sit down at another game (its id, channel or name)."""
    if not step.args:
        raise TableError("/use needs a game: its id, channel or name (see /games).")
    return await use_game(table, " ".join(step.args))


async def use_game(table: LocalTable, key: str) -> list[Shown]:
    """Make the game found by id, channel or name the current one."""
    found = await table.services.table_games()
    wanted = as_typed(key)
    matches = [g for g in found if wanted in (g.id.casefold(), g.channel_key.casefold())]
    matches = matches or [g for g in found if as_typed(g.name) == wanted]
    if not matches:
        names = ", ".join(f'"{g.name}"' for g in found) or "none"
        typed = {as_typed(g.name): g.name for g in found}
        near = nearest(wanted, typed, 1)
        hint = f' Did you mean "{typed[near[0]]}"?' if near else ""
        raise TableError(f'There is no game "{key}" at this table.{hint} Games: {names}.')
    game = matches[-1]
    await table.set_game(game.id)
    return [Shown(Kind.NOTICE, "game", f'Now at "{game.name}" ({game.channel_key}).', only(table.seat)),
            *table.seat_notice()]


async def seats(table: LocalTable, step: Step) -> list[Shown]:
    """/seats: who sits where, and which characters each seat plays."""
    await table.refresh_seats()
    lines = []
    for seat in table.book.names():
        mark = "*" if seat == table.seat else " "
        role = ("GM" if seat in table.gm_seats else "player" if seat in table.player_seats
                else "not in this game")
        lines.append(f"{mark} {table.book.label(seat)}  [{role}]")
    return [Shown(Kind.INFO, "seats", "\n".join(lines), only(table.seat))]


async def quit_(table: LocalTable, step: Step) -> list[Shown]:
    """/quit ends interactive play; in a replay it is only noted."""
    return [Shown(Kind.INFO, "quit", "(/quit ends interactive play; a replay goes on)", only(table.seat))]

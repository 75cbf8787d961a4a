"""Large scenes for the bot's tests of Discord's limits: a game in a fake room with `pcs` player
characters and `enemies` lieutenants, every one of them having posted an attack, set up through
the service (the bot's own commands would take a request per character)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fappo_bot.service.characters import NewCharacter
from fappo_bot.service.facade import Services
from fappo_bot.service.records import Role

PC_SHEET: dict[str, Any] = {
    "tier": "pc", "traits": {"Nimble": 5, "Tireless": 3}, "floating": 1,
    "skills": {"Swordfighting": 5, "Fisticuffs": 4, "Acrobatics": 3},
    "weapons": ["Broadsword"], "armor": "medium", "position": 0}
ENEMY_SHEET: dict[str, Any] = {
    "tier": "lieutenant", "traits": {"Brawny": 4, "Tireless": 3}, "floating": 1,
    "skills": {"Swordfighting": 5, "Fisticuffs": 3}, "weapons": ["Broadsword"],
    "armor": "medium", "position": 0}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: the longest name a game or character may have (docs/bounds.md)
MAX_NAME = 100


def short_name(prefix: str, i: int) -> str:
    """Kaelab, Skargac...: letters only, so posts name them cleanly."""
    a, b = divmod(i, 26)
    return f"{prefix}{LETTERS[a % 26]}{LETTERS[b]}"


def long_name(prefix: str, i: int) -> str:
    """A name of exactly 100 characters (the bound), unique by its last letters."""
    a, b = divmod(i, 26)
    head = f"{prefix} Stormborn Keeper of the Northern Marches and Warden of the Seven Gates "
    return (head * 2)[: MAX_NAME - 3] + f" {LETTERS[a % 26]}{LETTERS[b]}".title()[:3]


async def scene(services: Services, room: str, gm: str, pcs: int, enemies: int, *,
                name: Callable[[str, int], str] = short_name, orders: bool = True,
                players: list[str] | None = None) -> str:
    """A game in `room` run by `gm`: `pcs` player characters (players with keys that are no
    Discord ids, their DMs staying in the outbox, unless `players` gives them) and `enemies`
    lieutenants; turn 1 open, and with `orders`, every combatant's attack posted. Returns the
    game's id."""
    game = await services.games.create(channel_key=room, name=name("Game", 0), creator=gm)
    keys = players or [f"player-{i}" for i in range(pcs)]
    players = []
    for i in range(pcs):
        player = keys[i]
        await services.games.add_member(game.id, gm, player, Role.PLAYER)
        check = await services.characters.create(
            game.id, player, NewCharacter.from_dict({**PC_SHEET, "name": name("Kael", i)}))
        assert check.ok, check
        players.append(player)
    for i in range(enemies):
        check = await services.characters.add_enemy(
            game.id, gm, NewCharacter.from_dict({**ENEMY_SHEET, "name": name("Skarg", i)}))
        assert check.ok, check
    await services.turns.open(game.id, gm)
    if not orders:
        return game.id
    for i, player in enumerate(players):
        reply = await services.turns.post(
            game.id, player, channel_key=room, message_key=f"post-{i}",
            text=f"2 AP attack {name('Skarg', i % enemies)} with Broadsword\n1 AP defend")
        assert reply.ok, reply.reply
    blocks = [f"**{name('Skarg', i)}**\n2 AP attack {name('Kael', i % pcs)} with Broadsword\n"
              "1 AP defend" for i in range(enemies)]
    for start in range(0, len(blocks), 50):  # a GM post holds up to 50 NPC blocks
        reply = await services.turns.post(
            game.id, gm, channel_key=room, message_key=f"npc-{start}",
            text="\n".join(blocks[start:start + 50]))
        assert reply.ok, reply.reply
    return game.id

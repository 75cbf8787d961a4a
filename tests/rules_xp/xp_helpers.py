"""Small builders for the Xp rules tests: a roller with its dice given as a list."""

from __future__ import annotations

from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.dice import DiceStream
from fappo_bot.rules_xp.rollers import Roller


def pc(name: str, pool: int | None, dice: list[int], sl: int = 0, heroic: bool = True,
       xposure: bool = True) -> Roller:
    """A player's roller (heroic by default, X5 Amb-2)."""
    return Roller(name, DiceStream(dice, name), pool, sl, Who.PC, heroic, xposure)


def npc(name: str, pool: int | None, dice: list[int], sl: int = 0, heroic: bool = False) -> Roller:
    """An NPC's roller (not heroic by default)."""
    return Roller(name, DiceStream(dice, name), pool, sl, Who.NPC, heroic)


def used_up(*rollers: Roller) -> bool:
    """Every roller's stream was consumed exactly."""
    for roller in rollers:
        assert isinstance(roller.dice, DiceStream)
        roller.dice.check_used()
    return True

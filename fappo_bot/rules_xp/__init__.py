"""The Xp / Aegyptvs d6 dice-pool rules (`../shared/RULINGS.md` Part B, X0-X18) as pure functions.

Same discipline as `rules/`: no I/O, no clock, no asyncio, and no randomness of its own: dice come
in through a `Dice` (a `DiceStream` of given faces, or `RandomDice` over a `random.Random` the
caller seeded). Every function returns data; rendering is elsewhere. What the seed leaves out
(X18) is refused with `NotSpecified`, never invented.

- `roll` (X0, X3, X4, X5): one roll and its record.
- `pools` (X1, X2, X6, X8): how many dice; `tables`: the rulebook's tables.
- `contest` (X7): General, Passive, Active, Contested with tie-breaks.
- `rerolls` (X9), `group` (X10-X13), `plots` (X14), `traits` (X3, X15, X16).
- `odds`: the exact distribution of a roll.
"""

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, FloorMode, RelaunchBonus, Who, XpConfig
from fappo_bot.rules_xp.dice import Dice, DiceStream, RandomDice, RecordingDice
from fappo_bot.rules_xp.errors import MissingInput, NotSpecified, XpError
from fappo_bot.rules_xp.roll import Mode, RollOutcome, RollRecord, roll
from fappo_bot.rules_xp.rollers import Roller

__all__ = [
    "DEFAULT_CONFIG",
    "Dice",
    "DiceStream",
    "FloorMode",
    "MissingInput",
    "Mode",
    "NotSpecified",
    "RollOutcome",
    "RandomDice",
    "RecordingDice",
    "RelaunchBonus",
    "RollRecord",
    "Roller",
    "Who",
    "XpConfig",
    "XpError",
    "roll",
]

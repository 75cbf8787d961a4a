"""A roller: who rolls, with how many dice, at which level, from which dice (RULINGS X0, X5)."""

from __future__ import annotations

from dataclasses import dataclass

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, Who, XpConfig
from fappo_bot.rules_xp.dice import Dice
from fappo_bot.rules_xp.errors import OutOfRange
from fappo_bot.rules_xp.roll import Mode, RollRecord, effective_sl, roll, target_label, unrolled


@dataclass(frozen=True, slots=True)
class Roller:
    """One roller. `pool` None means the pool cannot be rolled at all (missing tools, a default
    the GM forbids). `heroic` gets bonus dice on natural 6s (X5)."""

    name: str
    dice: Dice
    pool: int | None
    sl: int = 0
    who: Who = Who.PC
    heroic: bool = True
    #: owns the skill ("an appropriate Xposure", X10 Amb-2): not rolling on a default
    xposure: bool = True


def check_need(need: int) -> int:
    """Successes needed are at least 1."""
    if need < 1:
        raise OutOfRange(f"a roll needs at least 1 success, not {need}")
    return need


def roll_for(roller: Roller, need: int = 1, extra: int = 0,
             config: XpConfig = DEFAULT_CONFIG) -> RollRecord:
    """The roller's roll with `extra` dice added (X0); a pool that cannot be rolled is a failure
    without dice (`cannot-roll`)."""
    if roller.pool is None:
        level = effective_sl(roller.sl, config)
        return unrolled(0, roller.sl if level is None else level, target_label(level), need,
                        Mode.CANNOT_ROLL)
    return roll(roller.pool + extra, roller.sl, heroic=roller.heroic, dice=roller.dice,
                need=need, config=config)

"""The Xp configuration flags of RULINGS R2, with their defaults."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fappo_bot.rules_xp.errors import OutOfRange, not_specified


class FloorMode(str, Enum):
    """Below Hopeless (X3 Amb-2): clamp to 6x3 (the ruling), go on to 6x4..., or fail unrolled."""

    CLAMP = "clamp"
    EXTRAPOLATE = "extrapolate"
    AUTO_FAIL = "auto_fail"


class RelaunchBonus(str, Enum):
    """A collateral chain relaunched with Good Luck (X11 Amb-3): its bonus restarts or stays."""

    RESET = "reset"
    KEEP = "keep"


class Who(str, Enum):
    """Who controls a roller: it decides heroic dice (X5 Amb-2) and contest ties (X7)."""

    PC = "pc"
    NPC = "npc"


@dataclass(frozen=True, slots=True)
class XpConfig:
    """`xp_*` flags of RULINGS R2. `ones_cancel_successes` may only be False: the ruling leaves
    open what exposures mean when 1s cancel (X4 Amb-1), so True is refused as not specified."""

    sl_floor_mode: FloorMode = FloorMode.CLAMP
    tiebreak_max_iterations: int = 10
    collateral_relaunch_bonus: RelaunchBonus = RelaunchBonus.RESET
    heroic_pc: bool = True
    heroic_npc: bool = False
    ones_cancel_successes: bool = False

    def __post_init__(self) -> None:
        if self.ones_cancel_successes:
            raise not_specified("ones cancel successes")
        if self.tiebreak_max_iterations < 0:
            raise OutOfRange("xp_tiebreak_max_iterations cannot be negative")

    def heroic_default(self, who: Who) -> bool:
        """Whether a roller gets heroic bonus dice unless it says otherwise (X5 Amb-2)."""
        return self.heroic_pc if who is Who.PC else self.heroic_npc


DEFAULT_CONFIG = XpConfig()

"""The Xp flags of RULINGS R2 (`xp_*`) one Xp game plays, as its GMs set them (`/game set`,
`/set`): stored with the game's table settings (`GameSettings.xp`), given to the Xp core as an
`XpConfig` by every Xp use case (turns, the GM's rolls, group rolls, PLOTs, the odds shown in the
game), and written into each roll's audit entry (`options`, the case file's spelling, defaults
left out) so that a roll replays, and turns into a case, under the flags it was rolled with.

`xp_ones_cancel_successes` is listed but only `off` is played: RULINGS X4 Amb-1 (b) gives the net
(s - o) but not what exposures are when 1s cancel, and `spec/cases-xp.md` refuses `true` as not
specified (docs/rulings.md, "Xp flags in a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from fappo_bot.rules_xp.config import DEFAULT_CONFIG, FloorMode, RelaunchBonus, XpConfig

MAX_TIEBREAKS = 100
"""`xp_tiebreak_max_iterations` stops here: each tie-break rolls both pools again."""
ONES_CANCEL_REFUSED = (
    "on is not specified: RULINGS X4 Amb-1 (b) gives the net (successes - 1s) but not what "
    "exposures are when 1s cancel, so the game plays the ruling (a), off")


class HeroicDefault(str, Enum):
    """Who rolls heroic bonus dice unless a sheet or the roll says otherwise (X5 Amb-2)."""

    PCS = "pcs"
    ALL = "all"
    NONE = "none"
    NPCS = "npcs"


_HEROIC: dict[HeroicDefault, tuple[bool, bool]] = {
    HeroicDefault.PCS: (True, False), HeroicDefault.ALL: (True, True),
    HeroicDefault.NONE: (False, False), HeroicDefault.NPCS: (False, True)}


class XpFlags(BaseModel):
    """The `xp_*` flags of one Xp game; every default is the RULINGS ruling (R2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    xp_sl_floor_mode: FloorMode = FloorMode.CLAMP
    xp_heroic_default: HeroicDefault = HeroicDefault.PCS
    xp_tiebreak_max_iterations: int = Field(default=10, ge=0, le=MAX_TIEBREAKS)
    xp_collateral_relaunch_bonus: RelaunchBonus = RelaunchBonus.RESET
    xp_ones_cancel_successes: bool = False
    #: X6: "Where time is freely available and it makes sense that failure is not reasonable,
    #: then a failure will simply indicate that more time was required than originally thought":
    #: on, the review asks it of each test (default yes) and a failed test reads "took longer"
    xp_failure_takes_longer: bool = False

    @field_validator("xp_ones_cancel_successes")
    @classmethod
    def _only_off(cls, value: bool) -> bool:
        if value:
            raise ValueError(ONES_CANCEL_REFUSED)
        return value

    def config(self) -> XpConfig:
        """The flags as the Xp core takes them."""
        pc, npc = _HEROIC[self.xp_heroic_default]
        return XpConfig(sl_floor_mode=self.xp_sl_floor_mode,
                        tiebreak_max_iterations=self.xp_tiebreak_max_iterations,
                        collateral_relaunch_bonus=self.xp_collateral_relaunch_bonus,
                        heroic_pc=pc, heroic_npc=npc)

    def options(self) -> dict[str, Any]:
        """The flags changed from their defaults, as a case file's `options` (plain JSON)."""
        changed = self.model_dump(mode="json", exclude_defaults=True)
        return {k: changed[k] for k in CASE_FLAGS if k in changed}


#: the names of the Xp flags, as `/game set` takes them
XP_FLAGS: tuple[str, ...] = tuple(XpFlags.model_fields)
#: the flags a case file's `options` takes (`spec/cases-xp.md`): `xp_failure_takes_longer` only
#: words a turn's failed tests (no die changes), so a roll's record and its case leave it out
CASE_FLAGS: tuple[str, ...] = tuple(k for k in XP_FLAGS if k != "xp_failure_takes_longer")


def config_from_options(options: Mapping[str, Any] | None) -> XpConfig:
    """The `XpConfig` of a stored roll's `options` (none: the defaults, as before the flags were
    stored)."""
    if not options:
        return DEFAULT_CONFIG
    return XpFlags.model_validate(dict(options)).config()


def with_options(detail: dict[str, Any], flags: XpFlags) -> dict[str, Any]:
    """`detail` with the game's changed flags under `options` (nothing when all are defaults)."""
    options = flags.options()
    if options:
        detail["options"] = options
    return detail

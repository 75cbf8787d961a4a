"""The GM's inputs between scenes as an adapter gives them: how long until the next scene
(F27, `SceneGap`) and a Healing check made while time passes (F14, `HealingInput`). Service
values, so no adapter imports the rules core; `aftermath` turns them into the rules' own."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class SceneGap(StrEnum):
    """F27: how long until the next scene, as the GM declares it."""

    IMMEDIATE = "immediate"
    SAME_DAY = "same_day"
    NIGHT = "night"
    WEEK_PLUS = "week_plus"
    ADVENTURE_END = "adventure_end"


class HealingInput(BaseModel):
    """The one Healing check of a level episode (F14 Amb-5), as the GM's `advance_time` takes
    it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: the healer's total: Healing skill + AP + modifiers (F14 Amb-7)
    total: int
    #: SP the healer declared on the check, by pool (Trait names or `floating`)
    sp: dict[str, int] = {}
    #: the healer owns Sagacious, Healing's Suggested Trait (found from the sheet if not said)
    sagacious: bool = False
    #: who made the check, when known: never the patient (F14 Amb-5)
    healer: str | None = None

"""What an Xp post declares (docs/players.md, "Playing Xp"): one `XpAction` per mechanics line,
frozen pydantic values the service re-reads from a post's text when it reviews and resolves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from fappo_bot.posting.errors import PostProblem
from fappo_bot.rules_xp.tables import Characteristic
from fappo_bot.sheets.xp import XpSheet


class XpKind(StrEnum):
    """The post forms: a test of a skill (or a raw characteristic), a contest against someone,
    assisting another's roll, joining a group roll, spending plot points, a Passion, a Flaw or
    a Cut!."""

    TEST = "test"
    CONTEST = "contest"
    ASSIST = "assist"
    GROUP = "group"
    PLOT = "plot"
    PASSION = "passion"
    FLAW = "flaw"
    #: asking the GM for a Cut! (X17): the GM grants it and names its Luck price
    CUT = "cut"


class Route(StrEnum):
    """How the pool is made (X1, X2, X8): the skill itself, a raw characteristic test, a default
    to another skill (the GM rules it similar or related) or to a characteristic (1d + level)."""

    SKILL = "skill"
    RAW = "raw"
    DEFAULT = "default"
    CHARACTERISTIC = "characteristic"


class XpAction(BaseModel):
    """One mechanics line of an Xp post."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor: str
    #: the 1-based line of the post
    line: int
    kind: XpKind
    #: the skill named (the sheet's spelling), None for a raw characteristic test
    skill: str | None = None
    route: Route = Route.SKILL
    #: the characteristic of a raw test or a characteristic default, or one the player names
    #: instead of the skill's own ("using MIND")
    characteristic: Characteristic | None = None
    #: the skill defaulted to ("via Acrobatics", X8)
    via: str | None = None
    #: the sheet's Mods the player says apply ("with Desert creature")
    mods: tuple[str, ...] = ()
    #: dice the player asks for ("+1d"), for the GM to accept or refuse in the review
    claim: int = 0
    heroic: bool = False
    #: the opponent of a contest, the lead of an assist, the owner of a group roll's label
    target: str | None = None
    #: plot points spent
    points: int = 0
    #: a group roll's member pays 1 Luck to relaunch a broken chain (Good Luck, X11)
    relaunch: bool = False
    #: the task, or the Passion or Flaw invoked
    text: str = ""
    #: rerolls over time (X9): the GM sets the time unit and how many units the time allows
    over_time: bool = False
    #: the roller's own skills (or characteristics) rolled first to add their successes as
    #: dice (augmented rolls, X12), each once
    augments: tuple[str, ...] = ()


@dataclass(frozen=True)
class XpPostContext:
    """Who writes and for whom: the sheets of the characters the poster gives orders for (the
    first is the default actor) and the names of everyone in the game."""

    sheets: Mapping[str, XpSheet]
    names: tuple[str, ...] = ()
    gm: bool = False
    #: the character lines before any `Character:` line are for (a player's first character, or
    #: the one a proxy post speaks as); None: the only sheet, if there is one
    default: str | None = None


@dataclass(frozen=True)
class XpParsedPost:
    """The actions of a post, or every problem of it (then nothing counts)."""

    actions: tuple[XpAction, ...] = ()
    problems: tuple[PostProblem, ...] = ()
    #: whether any line reads as mechanics (a post with none is table talk)
    mechanics: bool = False
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

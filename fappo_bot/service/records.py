"""The service's domain records: frozen pydantic values the repositories store and return.

Identities are opaque strings chosen by the adapters (user ids, channel/thread keys, message keys)
or by the service's injected id factory (every record `id`). Rules values (`Character`, `Order`,
`TurnResult`, `TurnState`, `RulesConfig`, `GMInputs`, `PendingHit`) travel inside these records as
they are; storage maps them to rows and JSON inside `fappo_bot.storage` only.

What was said and done (the outbox, the audit log, the ledger, the users' names) is in
`log_records.py`, its records importable from here too.

Versioned records (`Game`, `CharacterRecord`, `Turn`, `Post`) carry `version`: the service passes
the new value with `version = old.version + 1` to `update`, and storage writes it only where the
stored row still has `version = new.version - 1` (else `StaleVersion`).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, model_validator

from fappo_bot.posting_xp import XpAction
from fappo_bot.rules import (
    Character,
    CustomTrait,
    GMInputs,
    LegendaryItem,
    Order,
    PendingHit,
    RulesConfig,
    TraitCatalogue,
    TraitDef,
    TurnResult,
    TurnState,
)
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.log_records import AuditEntry as AuditEntry
from fappo_bot.service.log_records import DestinationKind as DestinationKind
from fappo_bot.service.log_records import LedgerEntry as LedgerEntry
from fappo_bot.service.log_records import OutboxMessage as OutboxMessage
from fappo_bot.service.log_records import UserName as UserName
from fappo_bot.service.rulesets.names import STORED_DEFAULT
from fappo_bot.service.xp_flags import XpFlags
from fappo_bot.sheets.xp import XpSheet

_FROZEN = ConfigDict(frozen=True, extra="forbid")


# ---- games --------------------------------------------------------------------------------------
class GameStatus(StrEnum):
    ACTIVE = "active"
    PAUSED = "paused"
    ENDED = "ended"


class Role(StrEnum):
    GM = "gm"
    PLAYER = "player"


class ResultsVisibility(StrEnum):
    """F29: results of secret (PvP) orders go to everyone, or only to the parties concerned."""

    PUBLIC = "public"
    PARTIES = "parties"


class RemindBy(StrEnum):
    """How a player is reminded of a deadline they have not posted for."""

    #: a direct message naming the game, with a link to its room
    DM = "dm"
    #: a mention in the game's room
    PING = "ping"
    NONE = "none"


class AbsencePolicy(StrEnum):
    """What an away player's character does (RULINGS F30's options for an inactive player; see
    docs/rulings.md): no action, its base defense (F30 Amb-3), or it is the GM's to run."""

    PASS = "pass"
    DEFEND = "defend"
    GM = "gm"


class GameTrait(BaseModel):
    """One of a game's own Traits (F2, "others may be introduced"), as its GM added it: checked
    by the rules (`rules.new_trait`) when added, read by `service/traits.py`."""

    model_config = _FROZEN

    name: str
    aliases: tuple[str, ...] = ()
    #: the skills it suggests: skills of the game's sheets, with this Trait as Suggested Trait
    skills: tuple[str, ...] = ()


@lru_cache(maxsize=256)
def trait_catalogue(traits: tuple[GameTrait, ...]) -> TraitCatalogue:
    """The rules' catalogue of a game's Traits: the rulebook's, then `traits` (its own)."""
    return TraitCatalogue(tuple(TraitDef(CustomTrait(t.name), t.aliases, t.skills)
                                for t in traits))


class AdvanceRequest(BaseModel):
    """A player's request to spend banked CC (F28), waiting for a GM's approval."""

    model_config = _FROZEN

    id: str
    character: str
    #: the change as the player wrote it (`service/advance_text.py`)
    change: str
    player: str
    at: datetime


class PreSeal(BaseModel):
    """The next turn's NPC orders, sealed before this turn's results went out (F30: the GM
    decides NPC allocations "before even posting the effects of the previous turn"): the GM's
    post as it becomes the next turn's, and its commitment, published at once."""

    model_config = _FROZEN

    turn: int
    author: str
    channel_key: str
    message_key: str
    text: str
    orders: tuple[Order, ...]
    reply: str
    salt: str
    canonical: str
    commitment: str
    sealed_at: datetime


class GameSettings(BaseModel):
    """Per-game table settings that are not rules (R2 flags live in `RulesConfig`)."""

    model_config = _FROZEN

    #: F30 Amb-2: the default time players get to post; None: the GM calls time by hand
    calltime: timedelta | None = None
    #: reminders this long before a deadline (the bot only reminds, F30 Amb-2)
    reminders: tuple[timedelta, ...] = (timedelta(hours=12), timedelta(hours=1))
    #: how a player who chose nothing is reminded (`/me remind` overrides it)
    remind_by: RemindBy = RemindBy.PING
    #: what an away player's character does while they are away (`/me away`)
    absence: AbsencePolicy = AbsencePolicy.PASS
    results_visibility: ResultsVisibility = ResultsVisibility.PARTIES
    #: how the room reads a turn's results (`service/layout.py`; a player's DMs: their own)
    results_layout: ResultsLayout = ResultsLayout.TEXT
    #: F28 tournament-style advancement: +1 CC per completed adventure, kept in the ledger
    tournament: bool = False
    in_combat: bool = True
    scene: int = 1
    adventure: int = 1
    #: open the next turn as soon as a turn is resolved
    auto_open_next: bool = True
    #: proxy posts (Tupperbox, PluralKit): a proxy message whose display name is a character's
    #: name counts for that character's player (an adapter's matter; docs/discord.md)
    proxy_posts: bool = False
    #: the game's time zone, an IANA name (`service/timetext.py`): the times `/turn calltime
    #: at:` reads and the table shows (Discord shows each reader their own)
    timezone: str = "UTC"
    #: grace: the automatic extensions of a deadline each player has in the game (0: none)
    grace: int = 0
    #: how far one grace extension moves the deadline
    grace_period: timedelta = timedelta(hours=12)
    #: a deadline that fell while the bot was down moves by the outage's length
    outage_extends: bool = True
    #: the grace extensions each player has used in the game, by user id (the scheduler's
    #: counter, not a setting)
    grace_used: dict[str, int] = Field(default_factory=dict)
    #: F27 Amb-2: the players' declared SP restoration for the next scene end, by character
    #: name (cleared when the scene ends)
    rest_declarations: dict[str, dict[str, int]] = Field(default_factory=dict)
    #: players' CC purchases waiting for a GM's approval (F28), at most one per character
    advance_requests: tuple[AdvanceRequest, ...] = ()
    #: F22: the game's legendary items, each with its owner, its holder and its bindings
    #: (recorded from the sheets and purchases that made them)
    legendary_items: tuple[LegendaryItem, ...] = ()
    #: F30: a turn is resolved only once the next turn's NPC orders are sealed
    npc_seal_first: bool = False
    #: the next turn's NPC orders, sealed before the results (kept until that turn opens)
    next_npc: PreSeal | None = None
    #: an Xp game's `xp_*` flags of R2 (`service/xp_flags.py`); a FAPPO game keeps the defaults
    xp: XpFlags = Field(default_factory=XpFlags)
    #: the game's own Traits, after the rulebook's ten (`service/traits.py`)
    traits: tuple[GameTrait, ...] = ()


class Game(BaseModel):
    """One game, bound to one channel or thread."""

    model_config = _FROZEN

    id: str
    channel_key: str
    guild_key: str | None = None
    name: str
    #: the name of the ruleset the game plays (`service/rulesets/known.py`); the default is the
    #: stored format's (`names.STORED_DEFAULT`): an export that names none plays FAPPO's (a new
    #: game is given its ruleset by `GameService.create`)
    ruleset: str = STORED_DEFAULT.name
    rules: RulesConfig = Field(default_factory=RulesConfig)
    status: GameStatus = GameStatus.ACTIVE
    settings: GameSettings = Field(default_factory=GameSettings)
    created_at: datetime
    version: int = 0


class Membership(BaseModel):
    model_config = _FROZEN

    game_id: str
    user_id: str
    role: Role


# ---- characters ---------------------------------------------------------------------------------
class CharacterKind(StrEnum):
    PC = "pc"
    NPC = "npc"
    ENEMY = "enemy"
    #: a nuisance or minion group with a creature count (F20, F21)
    GROUP = "group"


class CharacterStatus(StrEnum):
    ACTIVE = "active"
    RETIRED = "retired"
    #: F30: marked inactive by the GM after missed turns; takes no part until restored
    INACTIVE = "inactive"


def gm_runs(owner: str | None, gm_controlled: bool, kind: CharacterKind) -> bool:
    """Whether the GMs give a character's orders: nobody's, taken over by a GM, or not a PC."""
    return owner is None or gm_controlled or kind is not CharacterKind.PC


class RosterEntry(NamedTuple):
    """A character as a turn's roll call reads it (`CharacterRepository.roster`): its name, its
    status, and the user who gives its orders (None: the GMs), without its sheet."""

    name: str
    status: CharacterStatus
    runner: str | None


class CharacterRecord(BaseModel):
    """A character of a game: its sheet as approved, and its current rules state."""

    model_config = _FROZEN

    id: str
    game_id: str
    name: str
    #: the player who owns it; None for the GM's characters (NPCs, enemies, groups)
    owner: str | None = None
    kind: CharacterKind = CharacterKind.PC
    #: a FAPPO character as created or last approved by the GM (full SP: the restoring
    #: maxima); None for an Xp character (`fappo_sheet` refuses to read it then)
    sheet: Character | None = None
    #: a FAPPO character's current rules state (SP left, health, statuses, ...); None for Xp
    state: Character | None = None
    #: an Xp game's character (its sheet with the current Luck and plot points)
    xp: XpSheet | None = None
    status: CharacterStatus = CharacterStatus.ACTIVE
    #: F30: consecutive turns without a post
    missed_turns: int = 0
    #: F30 "pass responsibility ... to another player": this user runs it instead of the owner
    controller: str | None = None
    #: F30 "assume their character as an NPC": the GMs run it; the owner returns only by GM command
    gm_controlled: bool = False
    created_at: datetime
    version: int = 0

    @model_validator(mode="before")
    @classmethod
    def _no_fappo_shell(cls, data: Any) -> Any:
        """An Xp character carries no FAPPO sheet: the empty shell that records written before
        kept (rows, exports, resolutions) is dropped as it is read."""
        if isinstance(data, dict) and data.get("xp") is not None and (
                data.get("sheet") is not None or data.get("state") is not None):
            return {**data, "sheet": None, "state": None}
        return data

    @model_validator(mode="after")
    def _one_ruleset(self) -> CharacterRecord:
        """A FAPPO character has its sheet and its state; an Xp character its Xp sheet."""
        if self.xp is None and (self.sheet is None or self.state is None):
            raise ValueError(f"{self.name}: a FAPPO character needs its sheet and its state")
        return self

    @property
    def fappo_sheet(self) -> Character:
        """The FAPPO sheet; TypeError for an Xp character (a FAPPO use case let it through)."""
        if self.sheet is None:
            raise TypeError(f"{self.name} is an Xp character: it has no FAPPO sheet.")
        return self.sheet

    @property
    def fappo_state(self) -> Character:
        """The FAPPO rules state; TypeError for an Xp character."""
        if self.state is None:
            raise TypeError(f"{self.name} is an Xp character: it has no FAPPO state.")
        return self.state

    @property
    def run_by_gm(self) -> bool:
        """Whether the GMs give this character's orders."""
        return gm_runs(self.owner, self.gm_controlled, self.kind)

    def runner(self) -> str | None:
        """The user who gives its orders, or None when the GMs do."""
        if self.run_by_gm:
            return None
        return self.controller or self.owner


# ---- turns --------------------------------------------------------------------------------------
class TurnStatus(StrEnum):
    OPEN = "open"
    #: time was called: posts are refused while the GM reviews and resolves
    CLOSED = "closed"
    RESOLVED = "resolved"
    #: a turn opened after a resolution that the GM undid
    VOID = "void"


class TurnRecord(BaseModel):
    model_config = _FROZEN

    id: str
    game_id: str
    number: int
    status: TurnStatus = TurnStatus.OPEN
    opened_at: datetime
    closed_at: datetime | None = None
    #: call time (F30); None: no deadline
    deadline: datetime | None = None
    paused: bool = False
    #: time left on the deadline when paused
    paused_remaining: timedelta | None = None
    #: how many of the game's reminders have been sent for the current deadline
    reminders_sent: int = 0
    #: the next moment the scheduler must look at this turn (a reminder or the deadline);
    #: None when nothing is scheduled. `turns.due(now)` returns open turns with alarm_at <= now.
    alarm_at: datetime | None = None
    #: the provisional hits of the last resolution, open for Reduce lines this turn (F13)
    pending: tuple[PendingHit, ...] = ()
    #: the NPC commitment: SHA-256 hex of salt + canonical NPC orders (published when sealed)
    npc_commitment: str | None = None
    npc_sealed_at: datetime | None = None
    npc_salt: str | None = None
    #: the canonical NPC orders as sealed (secret until resolution)
    npc_canonical: str | None = None
    npc_revealed: bool = False
    #: turn-wide GM inputs (end positions, end of combat, ...)
    gm_inputs: GMInputs = Field(default_factory=GMInputs)
    #: the GM's review answers, by review item key (see `service.review`)
    gm_answers: dict[str, Any] = Field(default_factory=dict)
    version: int = 0


# ---- posts --------------------------------------------------------------------------------------
class Post(BaseModel):
    """A turn post (in the channel, or by DM when `secret`); its text lives in its revisions."""

    model_config = _FROZEN

    id: str
    game_id: str
    turn_id: str
    author: str
    channel_key: str
    message_key: str
    secret: bool = False
    #: the newest revision's number (1 for the first)
    revision: int = 1
    deleted: bool = False
    created_at: datetime
    updated_at: datetime
    #: the adapter's keys of the bot's reply messages (a long reply is several), so an edit
    #: edits the same replies and a deletion deletes them
    reply_keys: tuple[str, ...] = ()
    version: int = 0


class PostRevision(BaseModel):
    """One version of a post. Recorded whole or not at all: `orders` (a FAPPO post's) and
    `actions` (an Xp post's) are empty unless `ok`."""

    model_config = _FROZEN

    post_id: str
    number: int
    text: str
    orders: tuple[Order, ...] = ()
    #: an Xp post's actions, read once when posted (one stored before has its text only)
    actions: tuple[XpAction, ...] = ()
    ok: bool
    problems: tuple[str, ...] = ()
    reply: str = ""
    created_at: datetime


# ---- resolution and after -----------------------------------------------------------------------
class Resolution(BaseModel):
    """One resolved turn, with everything needed to undo it exactly."""

    model_config = _FROZEN

    id: str
    game_id: str
    turn_id: str
    turn_number: int
    orders: tuple[Order, ...] = ()
    gm_inputs: GMInputs = Field(default_factory=GMInputs)
    result: TurnResult
    state_before: TurnState
    state_after: TurnState
    #: every character record as it was before (restored by undo)
    characters_before: tuple[CharacterRecord, ...] = ()
    #: the turn opened after this resolution (voided by undo)
    next_turn_id: str | None = None
    undone: bool = False
    undone_at: datetime | None = None
    created_at: datetime


class PlayerPace(BaseModel):
    """A player's own choices about the table's pace, across their games: how they are
    reminded (by game id, or `ALL_GAMES` for every game they did not choose for), when they are
    away, and their daily digest."""

    model_config = _FROZEN

    ALL_GAMES: ClassVar[str] = "*"

    user_id: str
    remind: dict[str, RemindBy] = Field(default_factory=dict)
    away_from: datetime | None = None
    #: None with `away_from` set: away until they say they are back
    away_to: datetime | None = None
    #: the UTC hour of the daily digest DM; None: no digest
    digest_hour: int | None = None
    #: the UTC day the last digest went out (at most one a day)
    digest_sent_on: date | None = None
    #: how their DMs show results (`/me layout`); None: as the game's room does
    layout: ResultsLayout | None = None
    updated_at: datetime

    def remind_by(self, game: Game) -> RemindBy:
        """How this player is reminded in `game`: their choice for it, for all their games,
        or the game's default."""
        return self.remind.get(game.id) or self.remind.get(self.ALL_GAMES) or \
            game.settings.remind_by

    def away_at(self, at: datetime) -> bool:
        """Whether the player is away at `at`."""
        return (self.away_from is not None and self.away_from <= at
                and (self.away_to is None or at < self.away_to))

    def away_during(self, start: datetime, end: datetime) -> bool:
        """Whether the player was away at some moment from `start` to `end` (a turn's time:
        a turn they were away in is not a missed turn, F30)."""
        return (self.away_from is not None and self.away_from <= end
                and (self.away_to is None or start < self.away_to))

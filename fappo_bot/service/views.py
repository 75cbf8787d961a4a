"""What the use cases return: frozen values for the adapters to show (never storage rows).

Text inside them (replies, results) comes from `fappo_bot.posting.render`; everything else is
data the adapters lay out themselves.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from fappo_bot.posting.errors import PostProblem
from fappo_bot.rules import (
    Character,
    PendingHit,
    RulesConfig,
    ap_budget,
    current_index,
    level_name,
    track,
)
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.records import (
    CharacterKind,
    CharacterRecord,
    CharacterStatus,
    Game,
    GameStatus,
    TurnRecord,
    TurnStatus,
)
from fappo_bot.sheets.xp import XpSheet

_FROZEN = ConfigDict(frozen=True)
_DEFAULT_RULES = RulesConfig()


class TurnSummary(BaseModel):
    model_config = _FROZEN

    id: str
    number: int
    status: TurnStatus
    deadline: datetime | None
    paused: bool
    npc_commitment: str | None

    @classmethod
    def of(cls, turn: TurnRecord) -> TurnSummary:
        return cls(
            id=turn.id,
            number=turn.number,
            status=turn.status,
            deadline=turn.deadline,
            paused=turn.paused,
            npc_commitment=turn.npc_commitment,
        )


class GameView(BaseModel):
    model_config = _FROZEN

    id: str
    name: str
    channel_key: str
    guild_key: str | None
    ruleset: str
    #: the rules as a reader names them (`FAPPO`, `Xp`), and what its summary says of them
    #: after its status ("" for FAPPO's, the bot's own): the ruleset port's words
    label: str = ""
    tag: str = ""
    #: what its rules have that an adapter shows: the NPC seal (F29), the dice pools' post forms
    has_npc_seal: bool = False
    dice_pools: bool = False
    #: the R2 flags a GM sets in it (`settings_text`), its ruleset's: none when this bot does
    #: not know its rules
    flags: tuple[str, ...] = ()
    #: what an adapter shows or acts on of its settings (the rules and the rest of the settings
    #: stay in the service: a GM reads them as text, `GameService.settings`)
    timezone: str = "UTC"
    results_layout: ResultsLayout = ResultsLayout.TEXT
    proxy_posts: bool = False
    status: GameStatus
    gms: tuple[str, ...]
    players: tuple[str, ...]
    turn: TurnSummary | None = None
    #: the display names known of its GMs and players, by user id
    names: dict[str, str] = {}

    @classmethod
    def of(
        cls, game: Game, gms: tuple[str, ...], players: tuple[str, ...], turn: TurnRecord | None,
        names: dict[str, str] | None = None, **rules: Any,
    ) -> GameView:
        """`rules`: what its ruleset shows (`label`, `tag`, `has_npc_seal`, `dice_pools`,
        `flags`; `games.game_view` asks the port), else its rules named as stored."""
        return cls(
            id=game.id,
            name=game.name,
            channel_key=game.channel_key,
            guild_key=game.guild_key,
            ruleset=game.ruleset,
            **({"label": game.ruleset, "tag": f"{game.ruleset} rules"} | rules),
            timezone=game.settings.timezone,
            results_layout=game.settings.results_layout,
            proxy_posts=game.settings.proxy_posts,
            status=game.status,
            gms=gms,
            players=players,
            turn=TurnSummary.of(turn) if turn else None,
            names=names or {},
        )


class SpPool(BaseModel):
    """One Success Point pool of a character (a Trait's, or `floating`)."""

    model_config = _FROZEN

    name: str
    #: the SP it has now (None: a pool of the sheet the character has not now)
    left: int | None
    #: the most it holds by the rules (what a rest restores it to)
    maximum: int
    #: what the sheet as approved gives it (None: a pool the sheet has not)
    approved: int | None


class SheetView(BaseModel):
    """What a reader shows of a FAPPO character's sheet and state, computed here with the
    game's rules, so that no adapter computes a rule: its health on its track, its AP budget,
    its SP pools, statuses, skills and gear."""

    model_config = _FROZEN

    tier: str
    #: a fodder group (F12): its health is how many are left
    fodder: bool
    count: int
    #: its level as results show it, the level names of its track and where it is on it
    level: str
    track: tuple[str, ...]
    here: int
    #: its AP this turn (F10), and before any penalty
    ap: int
    ap_base: int
    #: its Traits' pools (the sheet's first, in its order), then the floating pool
    pools: tuple[SpPool, ...]
    floating: SpPool
    statuses: tuple[str, ...]
    skills: tuple[tuple[str, int], ...]
    weapons: tuple[str, ...]
    #: its armor's rating, and the armor's name ("none", "light", ...)
    armor: str
    armor_name: str
    #: Character Credits banked, not spent (F28)
    unspent_cc: int

    @classmethod
    def of(cls, sheet: Character, state: Character, config: RulesConfig) -> SheetView:
        traits = [*sheet.traits, *(t for t in state.traits if t not in sheet.traits)]
        return cls(
            tier=state.tier.value, fodder=state.is_fodder, count=state.count,
            level=level_name(state, config), track=track(state),
            here=current_index(state, config), ap=ap_budget(state, config),
            ap_base=state.ap_base,
            pools=tuple(SpPool(name=t.value, left=state.traits.get(t),
                               maximum=state.trait_maximum(t), approved=sheet.traits.get(t))
                        for t in traits),
            floating=SpPool(name="floating", left=state.floating,
                            maximum=state.floating_maximum, approved=sheet.floating),
            statuses=tuple(s.kind.value for s in state.statuses),
            skills=tuple(sheet.skills.items()),
            weapons=tuple(w.name for w in sheet.weapons),
            armor=str(sheet.armor.value), armor_name=sheet.armor.name.lower(),
            unspent_cc=state.unspent_cc,
        )


class CharacterView(BaseModel):
    model_config = _FROZEN

    id: str
    name: str
    kind: CharacterKind
    status: CharacterStatus
    owner: str | None
    #: the user who gives its orders now, or None when the GMs do
    runner: str | None
    gm_controlled: bool
    missed_turns: int
    #: an Xp character's sheet (None for a FAPPO character)
    xp: XpSheet | None = None
    #: what a reader shows of a FAPPO character (None for an Xp character)
    shown: SheetView | None = None

    @classmethod
    def of(cls, record: CharacterRecord, config: RulesConfig | None = None) -> CharacterView:
        """The view of `record`; `shown` computed with `config` (the default rules unless
        given)."""
        return cls(
            id=record.id,
            name=record.name,
            kind=record.kind,
            status=record.status,
            owner=record.owner,
            runner=record.runner(),
            gm_controlled=record.gm_controlled,
            missed_turns=record.missed_turns,
            xp=record.xp,
            shown=None if record.sheet is None or record.state is None else SheetView.of(
                record.sheet, record.state, config or _DEFAULT_RULES),
        )


class SheetReply(BaseModel):
    """The outcome of creating or editing a character: the character, or every problem (F1)."""

    model_config = _FROZEN

    ok: bool
    problems: tuple[str, ...] = ()
    character: CharacterView | None = None
    #: what a GM's edit changed, one line each (`service/sheet_changes.py`)
    changes: tuple[str, ...] = ()


class PostOutcome(StrEnum):
    """What became of a post or an edit."""

    #: its orders are recorded (in force now)
    ACCEPTED = "accepted"
    #: it has problems: nothing of it was recorded (an edit's previous orders stay)
    PROBLEMS = "problems"
    #: no mechanics line: table talk, nothing to answer (an edit to table talk withdraws the
    #: post's orders; the adapter removes its reply)
    TABLE_TALK = "table_talk"
    #: an edit that changes nothing (Discord sends one when a link preview appears)
    UNCHANGED = "unchanged"


class PostReply(BaseModel):
    """The answer to a post or an edit: the outcome, the reply and what is in force now."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    post_id: str
    turn: int
    ok: bool
    #: the plain-text reply (orders with AP and SP left, or every problem), from posting.render;
    #: an adapter may lay out `problems` itself instead
    reply: str
    #: the characters whose orders (or Xp actions) the post holds now, in its order
    characters: tuple[str, ...] = ()
    #: every problem of the post, as the post language found them (line, words, hint, ...);
    #: `posting.render.render_problems` is the shared plain-text rendering
    problems: tuple[PostProblem, ...] = ()
    outcome: PostOutcome = PostOutcome.ACCEPTED
    secret: bool = False
    revision: int = 1
    #: the reply messages to edit (from a previous revision), if the adapter recorded them
    reply_keys: tuple[str, ...] = ()
    #: every active character is in and the NPC orders are sealed
    everyone_in: bool = False


class DeletedPost(BaseModel):
    """A post whose message was deleted: its orders are withdrawn; the adapter deletes the
    replies it recorded."""

    model_config = _FROZEN

    post_id: str
    turn: int
    reply_keys: tuple[str, ...] = ()


class CharacterTurnState(BaseModel):
    model_config = _FROZEN

    name: str
    runner: str | None
    #: posted, passed, missing, away (its player is away), inactive
    state: str
    secret: bool = False


class OrderInForce(BaseModel):
    """One character's order in force this turn and the post it comes from, as its lines
    read: a FAPPO order as a reply shows it (`posting.render.render_order`: the AP committed,
    then each action), an Xp post's actions each as its reply says it (the roll and its
    pool)."""

    model_config = _FROZEN

    character: str
    actions: tuple[str, ...] = ()
    post_id: str
    revision: int
    secret: bool
    author: str


class HitView(BaseModel):
    """A hit of the last resolution still provisional until its target's next post (F13), as
    a reader is shown it (the rules' `PendingHit` stays in the service)."""

    model_config = _FROZEN

    id: str
    target: str
    attacker: str | None
    weapon: str | None
    levels: int
    specials: tuple[str, ...]
    #: attack, tick, ripout, removal, self, sheath
    source: str
    #: the turn the hit was dealt
    turn: int | None

    @classmethod
    def of(cls, hit: PendingHit) -> HitView:
        return cls(id=hit.id, target=hit.target, attacker=hit.attacker, weapon=hit.weapon,
                   levels=hit.levels, specials=tuple(hit.specials), source=hit.source,
                   turn=hit.turn)


class DeadlineMoveView(BaseModel):
    """How a turn's deadline last moved by itself: `grace` (for the `late` characters' players,
    each spending one grace extension) or `outage` (the bot was down), and by how much, as a
    duration is written (`12h`)."""

    model_config = _FROZEN

    why: Literal["grace", "outage"]
    by: str
    late: tuple[str, ...] = ()


class TurnStatusView(BaseModel):
    """Who has posted, passed or is missing; the seal; the deadline (F29, F30)."""

    model_config = _FROZEN

    game_id: str
    turn: TurnSummary
    characters: tuple[CharacterTurnState, ...]
    posted: tuple[str, ...]
    passed: tuple[str, ...]
    missing: tuple[str, ...]
    #: the characters of players away (`/me away`): not missing, not reminded
    away: tuple[str, ...] = ()
    #: the last time this turn's deadline moved by itself: grace for late players, or an
    #: outage (`turnflow.turn_status`); None when it never did
    deadline_moved: DeadlineMoveView | None = None
    npc_sealed: bool
    #: the characters the GMs run that have no orders this turn (they would do nothing)
    npcs_without_orders: tuple[str, ...] = ()
    everyone_in: bool
    pending_hits: tuple[HitView, ...] = ()
    #: the display names known of the characters' runners, by user id
    names: dict[str, str] = {}

    @field_validator("pending_hits", mode="before")
    @classmethod
    def _shown(cls, hits: Any) -> Any:
        """The service hands the rules' hits; the view keeps what a reader is shown of them."""
        return tuple(HitView.of(h) if isinstance(h, PendingHit) else h for h in hits)

    @property
    def npcs_to_confirm(self) -> tuple[str, ...]:
        """The NPCs a seal now (call time, resolution) would fix as doing nothing: every
        adapter asks the GM about them first (none once the NPC orders are sealed)."""
        return () if self.npc_sealed else self.npcs_without_orders


class SealView(BaseModel):
    """The published NPC commitment (SHA-256 hex of salt + canonical NPC orders)."""

    model_config = _FROZEN

    turn: int
    commitment: str
    sealed_at: datetime
    npc_orders: int


class RevealView(BaseModel):
    """The NPC orders as sealed, their salt, and whether they match the published hash."""

    model_config = _FROZEN

    turn: int
    commitment: str
    salt: str
    canonical: str
    verified: bool
    #: each order as a post's reply shows it (`posting.render.render_order`, inert), for
    #: reading; empty when the JSON is of an older form (the JSON still checks)
    orders: tuple[str, ...] = ()


class ReviewItem(BaseModel):
    """One GM input the turn needs (R1). `key` is what the GM answers."""

    model_config = _FROZEN

    key: str
    actor: str
    index: int | None
    #: difficulty, triggered, target, claim, flat_footed, engaged, invoke, targets, veto,
    #: end_position
    field: str
    question: str
    required: bool
    #: the allowed values, when they are a short list
    choices: tuple[str, ...] = ()
    answer: Any = None
    #: what an optional question keeps when the GM does not answer it, in words ("no",
    #: "none", "as moved"); None for a required one
    default: str | None = None

    @property
    def answered(self) -> bool:
        return self.answer is not None


class ReviewView(BaseModel):
    model_config = _FROZEN

    turn: int
    items: tuple[ReviewItem, ...]
    #: secret orders not shown yet: they appear once the NPC orders are sealed
    hidden_secret: int = 0

    @property
    def missing(self) -> tuple[ReviewItem, ...]:
        return tuple(i for i in self.items if i.required and not i.answered)

    @property
    def complete(self) -> bool:
        return not self.missing


class ResolutionView(BaseModel):
    """A resolved turn as the adapters show it: its texts and numbers. The rules' whole result
    (every character's new state) stays with the stored resolution, not in what is returned."""

    model_config = _FROZEN

    resolution_id: str
    turn: int
    #: the public results text (also queued in the outbox)
    text: str
    #: every result, secret ones included, for the GM (F29)
    gm_text: str = ""
    messages_queued: int
    next_turn: int | None
    #: characters that reached the inactivity threshold (F30), for the GM
    inactive_candidates: tuple[str, ...] = ()
    #: the GM ended the combat with this resolution: the game is out of combat now
    combat_ended: bool = False


class XpResolutionView(BaseModel):
    """A resolved Xp turn: its results text (every die) and the rolls as the audit log keeps
    them (each roller's seed and dice, to replay)."""

    model_config = _FROZEN

    resolution_id: str
    turn: int
    text: str
    gm_text: str = ""
    messages_queued: int
    next_turn: int | None
    rolls: tuple[dict[str, Any], ...] = ()
    inactive_candidates: tuple[str, ...] = ()


class Alarm(BaseModel):
    """Something a scheduler found due: a reminder or a deadline (F30 call time); once fired,
    also "waiting": a deadline that waits for the NPC orders."""

    model_config = _FROZEN

    game_id: str
    turn: int
    kind: str
    at: datetime
    missing: tuple[str, ...] = ()

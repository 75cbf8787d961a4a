"""The ruleset port: what the use cases ask of the rules a game plays, whichever they are.

A use case chooses its game's ruleset once (`UseCases.ruleset`) and asks it to read a post,
list the orders in force, say who is in, ask the review's questions, resolve and render the
turn, and check a character sheet. The use cases own the transaction, the permissions, the audit
log and the outbox; a ruleset owns what its rules decide. What a use case may do only under some
rules (a scene end's SP, a pass, the NPC seal, an undo, dice-pool rolls...) is a `Feature` it
asks for (`UseCases.require`), never a ruleset's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from fappo_bot.service.errors import Conflict
from fappo_bot.service.rulesets.names import Naming

if TYPE_CHECKING:
    from fappo_bot.service.board_views import WhoIsIn
    from fappo_bot.service.ports import UnitOfWork
    from fappo_bot.service.records import CharacterKind, CharacterRecord, Game, Post, TurnRecord
    from fappo_bot.service.text import PostText
    from fappo_bot.service.views import (
        OrderInForce,
        PostReply,
        ResolutionView,
        ReviewView,
        SheetReply,
        TurnStatusView,
        XpResolutionView,
    )


class Feature(Enum):
    """What some rulesets have and others do not; each with the refusal a game without it
    gives (`{game}`: the game's name, `{ruleset}`: the rules it plays)."""

    #: FAPPO's point-bought sheets (F1) and their GM edits
    CHARACTER_SHEETS = "character sheets"
    SHEET_EDITS = "sheet edits"
    #: nuisance and minion groups with a creature count (F20, F21)
    GROUP_COUNTS = "counts of nuisances and minions"
    #: SP pools restored at scene ends and rests (F27)
    REST_DECLARATIONS = "rest declarations"
    SCENE_ENDS = "rests and scene ends"
    #: character points (F28): awards and purchases
    CC_AWARDS = "adventure-end CC awards"
    CC_PURCHASES = "CC purchases"
    #: healing by elapsed time (F15)
    HEALING_CLOCKS = "healing clocks"
    #: an explicit pass that counts as a post (F30)
    PASSES = "passes"
    #: the NPC orders sealed by a commitment (F29)
    NPC_SEAL = "the NPC seal"
    #: a resolution rolled back exactly
    UNDO = "undo"
    #: R2's rules flags of FAPPO
    RULES_FLAGS = "rules flags"
    #: a game's own Traits beside the rulebook's (F2)
    CUSTOM_TRAITS = "a game's own Traits"
    #: the Xp dice pools (RULINGS Part B): their sheets, flags and the GM's rolls
    DICE_POOLS = "dice-pool rolls"
    XP_SHEETS = "Xp sheets"
    XP_FLAGS = "xp flags"

    def refusal(self, game: Game) -> Conflict:
        """The refusal of this feature in `game`, whose rules lack it."""
        template = _REFUSALS.get(self, _FAPPO_ONLY)
        return Conflict(template.format(game=game.name, ruleset=game.ruleset,
                                        what=self.value))


_FAPPO_ONLY = '"{game}" plays the {ruleset} rules: {what} are FAPPO\'s and do not apply to it.'
_REFUSALS: dict[Feature, str] = {
    Feature.PASSES: "An Xp turn needs no pass: a character without a post rolls nothing.",
    Feature.UNDO: ("An Xp turn's dice are rolled and shown: its resolution is not undone (the "
                   "rolls stand, as dice rolled at a table do)."),
    Feature.DICE_POOLS: '"{game}" plays the {ruleset} rules; dice-pool rolls are for Xp games.',
    Feature.XP_SHEETS: '"{game}" plays the {ruleset} rules: an Xp sheet does not apply to it.',
}


@dataclass(frozen=True)
class PostStep:
    """A post (or an edit) on its way in: the use case's transaction, the game and its turn
    (locked, open), who wrote it and the characters it may speak for."""

    uow: UnitOfWork
    game: Game
    turn: TurnRecord
    author: str
    text: str
    #: the name the parser reads the post for: a character, or the GM
    poster: str
    #: the characters the author gives orders for, in order
    controls: list[CharacterRecord]
    #: every character of the game
    records: list[CharacterRecord]
    channel_key: str = ""
    message_key: str = ""
    secret: bool = False


class Ruleset(Protocol):
    """One ruleset as the use cases see it (`rulesets/fappo.py`, `rulesets/xp.py`).

    `cases` is the use case that runs a step (a `UseCases` of `service/base.py`, which this
    module sits under: each implementation names the group it needs); `uow` its transaction."""

    #: its names (`names.py`): stored, shown, offered to a GM, carried by its turns' results
    naming: Naming
    #: the name a game stores (`Game.ruleset`): `naming.name`
    name: str
    #: the rules' name as a reader sees it (`FAPPO`, `Xp`): `naming.label`
    label: str
    #: what a game's summary says of its rules after its status ("" for FAPPO, the bot's own)
    tag: str
    #: what it has (`Feature`)
    features: frozenset[Feature]
    #: the R2 flags a GM sets in its games (`settings_text`)
    flags: tuple[str, ...]

    def has(self, feature: Feature) -> bool:
        """Whether its games have `feature`."""
        ...

    def table_talk(self, text: str, posting: PostText) -> bool:
        """Whether `text` is chat, not a post (no mechanics line)."""
        ...

    async def post(self, cases: Any, step: PostStep) -> PostReply:
        """A new post read, checked, stored whole or not at all, and answered."""
        ...

    async def edit(self, cases: Any, step: PostStep, post: Post) -> PostReply:
        """An edit of `post`: its newest valid revision counts."""
        ...

    async def orders(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Mapping[str, CharacterRecord], viewer: str,
                     gm: bool) -> list[OrderInForce]:
        """The orders in force that `viewer` may see (`records` by case-folded name)."""
        ...

    async def status(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> TurnStatusView:
        """Who is in, who is missing, and what the turn waits for."""
        ...

    async def who_is_in(self, uow: UnitOfWork, game: Game, turn: TurnRecord) -> WhoIsIn:
        """Of `status`, what the turn board shows: who has posted, passed or is missing (with
        who runs them), and the seal."""
        ...

    async def review(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> ReviewView:
        """The review's questions, with the answers given so far."""
        ...

    async def answer(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: list[CharacterRecord], answers: Mapping[str, Any]) -> ReviewView:
        """The GM's answers checked and stored (every bad one named, nothing stored)."""
        ...

    async def resolve(self, cases: Any, uow: UnitOfWork, game: Game,
                      turn: TurnRecord, actor: str,
                      number: int) -> ResolutionView | XpResolutionView:
        """Turn `number` resolved, written and its results rendered into the outbox."""
        ...

    async def create_character(self, cases: Any, game_id: str, actor: str,
                               data: Mapping[str, Any], owner: str | None,
                               kind: CharacterKind | None) -> SheetReply:
        """A character from a sheet as the adapter read it, checked by these rules."""
        ...

    async def edit_character(self, cases: Any, game_id: str, actor: str, name: str,
                             data: Mapping[str, Any]) -> SheetReply:
        """A GM's new sheet for the character `name`, checked by these rules, its state kept."""
        ...

"""FAPPO (RULINGS Part A) behind the ruleset port: its posts (`fappo_posts`), the turn's status
and seal (`turnflow`), the review (`review`), the resolution through the rules core
(`resolution`) and its point-bought sheets (`characters`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fappo_bot.service import fappo_posts, turnflow
from fappo_bot.service.review import fappo_answer, fappo_review
from fappo_bot.service.rulesets.names import FAPPO
from fappo_bot.service.rulesets.port import Feature, PostStep
from fappo_bot.service.settings_text import RULES_FLAGS
from fappo_bot.service.sheet_building import NewCharacter

if TYPE_CHECKING:
    from fappo_bot.service.board_views import WhoIsIn
    from fappo_bot.service.characters import CharacterService
    from fappo_bot.service.ports import UnitOfWork
    from fappo_bot.service.records import CharacterKind, CharacterRecord, Game, Post, TurnRecord
    from fappo_bot.service.resolution import ResolutionService
    from fappo_bot.service.text import PostText
    from fappo_bot.service.turns import TurnService
    from fappo_bot.service.views import (
        OrderInForce,
        PostReply,
        ResolutionView,
        ReviewView,
        SheetReply,
        TurnStatusView,
    )


class Fappo:
    """The FAPPO ruleset."""

    naming = FAPPO
    name = FAPPO.name
    label = FAPPO.label
    tag = ""
    features = frozenset({
        Feature.CHARACTER_SHEETS, Feature.SHEET_EDITS, Feature.GROUP_COUNTS,
        Feature.REST_DECLARATIONS, Feature.SCENE_ENDS, Feature.CC_AWARDS,
        Feature.CC_PURCHASES, Feature.HEALING_CLOCKS, Feature.PASSES, Feature.NPC_SEAL,
        Feature.UNDO, Feature.RULES_FLAGS, Feature.CUSTOM_TRAITS,
    })
    flags = RULES_FLAGS

    def has(self, feature: Feature) -> bool:
        return feature in self.features

    def table_talk(self, text: str, posting: PostText) -> bool:
        return posting.table_talk(text)

    async def post(self, cases: TurnService, step: PostStep) -> PostReply:
        return await fappo_posts.post(cases, step)

    async def edit(self, cases: TurnService, step: PostStep, post: Post) -> PostReply:
        return await fappo_posts.edit(cases, step, post)

    async def orders(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Mapping[str, CharacterRecord], viewer: str,
                     gm: bool) -> list[OrderInForce]:
        return await fappo_posts.orders(uow, turn, records, viewer, gm)

    async def status(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> TurnStatusView:
        return await turnflow.fappo_status(uow, game, turn, records)

    async def who_is_in(self, uow: UnitOfWork, game: Game, turn: TurnRecord) -> WhoIsIn:
        return await turnflow.fappo_who_is_in(uow, game, turn)

    async def review(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> ReviewView:
        return await fappo_review(uow, game, turn, records)

    async def answer(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: list[CharacterRecord], answers: Mapping[str, Any]) -> ReviewView:
        return await fappo_answer(uow, game, turn, records, answers)

    async def resolve(self, cases: ResolutionService, uow: UnitOfWork, game: Game,
                      turn: TurnRecord, actor: str, number: int) -> ResolutionView:
        return await cases._resolve_locked(uow, game, turn, actor, number)

    async def create_character(self, cases: CharacterService, game_id: str, actor: str,
                               data: Mapping[str, Any], owner: str | None,
                               kind: CharacterKind | None) -> SheetReply:
        new = NewCharacter.from_dict(data)
        if kind is None:
            return await cases.add_enemy(game_id, actor, new)
        return await cases.create(game_id, actor, new, owner=owner, kind=kind)

    async def edit_character(self, cases: CharacterService, game_id: str, actor: str,
                             name: str, data: Mapping[str, Any]) -> SheetReply:
        return await cases.edit(game_id, actor, name, NewCharacter.from_dict(data))

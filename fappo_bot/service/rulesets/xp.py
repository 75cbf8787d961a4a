"""The Xp dice pools (RULINGS Part B) behind the ruleset port: posts read by the Xp post
language (`xp_posts`, `xp_play`), the review's questions (`xp_review`), the resolution with every
die shown (`xp_resolve`, through `resolution`) and the Xp sheets (`characters`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fappo_bot.service import turnflow, xp_play, xp_posts, xp_review
from fappo_bot.service.board_views import WhoIsIn
from fappo_bot.service.records import CharacterKind
from fappo_bot.service.review import xp_answer
from fappo_bot.service.rulesets.names import XP
from fappo_bot.service.rulesets.port import Feature, PostStep
from fappo_bot.service.xp_flags import XP_FLAGS

if TYPE_CHECKING:
    from fappo_bot.service.characters import CharacterService
    from fappo_bot.service.ports import UnitOfWork
    from fappo_bot.service.records import CharacterRecord, Game, Post, TurnRecord
    from fappo_bot.service.resolution import ResolutionService
    from fappo_bot.service.text import PostText
    from fappo_bot.service.turns import TurnService
    from fappo_bot.service.views import (
        OrderInForce,
        PostReply,
        ReviewView,
        SheetReply,
        TurnStatusView,
        XpResolutionView,
    )


class Xp:
    """The Xp ruleset."""

    naming = XP
    name = XP.name
    label = XP.label
    tag = "Xp rules"
    features = frozenset({Feature.DICE_POOLS, Feature.XP_SHEETS, Feature.XP_FLAGS})
    flags = XP_FLAGS

    def has(self, feature: Feature) -> bool:
        return feature in self.features

    def table_talk(self, text: str, posting: PostText) -> bool:
        return xp_play.table_talk(text)

    async def post(self, cases: TurnService, step: PostStep) -> PostReply:
        return await xp_posts.post(cases, step)

    async def edit(self, cases: TurnService, step: PostStep, post: Post) -> PostReply:
        return await xp_posts.edit(cases, step, post)

    async def orders(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Mapping[str, CharacterRecord], viewer: str,
                     gm: bool) -> list[OrderInForce]:
        return await xp_posts.orders(uow, game, turn, records, viewer, gm)

    async def status(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> TurnStatusView:
        return await turnflow.xp_status(uow, game, turn, records)

    async def who_is_in(self, uow: UnitOfWork, game: Game, turn: TurnRecord) -> WhoIsIn:
        # an Xp turn's status costs what it costs anyway (every action in force is read)
        return WhoIsIn.of(await turnflow.xp_status(
            uow, game, turn, list(await uow.characters.list(game.id))))

    async def review(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: Sequence[CharacterRecord]) -> ReviewView:
        return await xp_review.review(uow, game, turn, records)

    async def answer(self, uow: UnitOfWork, game: Game, turn: TurnRecord,
                     records: list[CharacterRecord], answers: Mapping[str, Any]) -> ReviewView:
        return await xp_answer(uow, game, turn, records, answers)

    async def resolve(self, cases: ResolutionService, uow: UnitOfWork, game: Game,
                      turn: TurnRecord, actor: str, number: int) -> XpResolutionView:
        return await cases._resolve_xp(uow, game, turn, actor, number)

    async def create_character(self, cases: CharacterService, game_id: str, actor: str,
                               data: Mapping[str, Any], owner: str | None,
                               kind: CharacterKind | None) -> SheetReply:
        return await cases.create_xp(game_id, actor, data, owner=owner,
                                     kind=CharacterKind.NPC if kind is None else kind)

    async def edit_character(self, cases: CharacterService, game_id: str, actor: str,
                             name: str, data: Mapping[str, Any]) -> SheetReply:
        return await cases.edit_xp(game_id, actor, name, data)

"""`Services`: every use case group over one set of dependencies (the composition root's handle).

    services = Services(uow_factory)            # real clock, ids, salts, parser, resolver
    game = await services.games.create(channel_key="c1", name="Goblin Road", creator="u1")
"""

from __future__ import annotations

from fappo_bot.service.advancing import AdvancementService
from fappo_bot.service.aftermath import AftermathService
from fappo_bot.service.base import Deps, Resolver, rules_resolver
from fappo_bot.service.calltime import CallTimeService
from fappo_bot.service.channels import ChannelService
from fappo_bot.service.characters import CharacterService
from fappo_bot.service.clock import Clock, IdFactory, SaltFactory, SystemClock, token_salt, uuid_ids
from fappo_bot.service.delivery import DeliveryPolicy
from fappo_bot.service.games import GameService
from fappo_bot.service.legendary import LegendaryService
from fappo_bot.service.npc_first import NpcFirstService
from fappo_bot.service.outbox import OutboxService
from fappo_bot.service.pace import PaceService
from fappo_bot.service.ports import UowFactory
from fappo_bot.service.resolution import ResolutionService
from fappo_bot.service.review import ReviewService
from fappo_bot.service.rulesets.known import KNOWN
from fappo_bot.service.text import PostingText, PostText
from fappo_bot.service.traits import TraitService
from fappo_bot.service.transfer import TransferService
from fappo_bot.service.turns import TurnService
from fappo_bot.service.users import UserService
from fappo_bot.service.xp_events import XpEventService
from fappo_bot.service.xp_group import XpGroupService
from fappo_bot.service.xp_plots import XpPlotService
from fappo_bot.service.xp_rolls import XpRollService
from fappo_bot.service.xp_timed import XpTimedService


class Services:
    """The service layer's public face: one attribute per group of use cases."""

    def __init__(
        self,
        uow_factory: UowFactory,
        *,
        clock: Clock | None = None,
        ids: IdFactory = uuid_ids,
        salts: SaltFactory = token_salt,
        text: PostText | None = None,
        resolve: Resolver = rules_resolver,
        delivery: DeliveryPolicy | None = None,
    ) -> None:
        self.deps = Deps(
            uow_factory=uow_factory,
            rulesets=KNOWN,
            clock=clock or SystemClock(),
            ids=ids,
            salts=salts,
            text=text or PostingText(),
            resolve=resolve,
            delivery=delivery or DeliveryPolicy(),
        )
        self.games = GameService(self.deps)
        self.characters = CharacterService(self.deps)
        self.turns = TurnService(self.deps)
        self.npc_first = NpcFirstService(self.deps)
        self.calltime = CallTimeService(self.deps)
        self.review = ReviewService(self.deps)
        self.resolution = ResolutionService(self.deps)
        self.aftermath = AftermathService(self.deps)
        self.advancement = AdvancementService(self.deps)
        self.legendary = LegendaryService(self.deps)
        self.outbox = OutboxService(self.deps)
        self.pace = PaceService(self.deps)
        self.transfer = TransferService(self.deps)
        self.traits = TraitService(self.deps)
        self.users = UserService(self.deps)
        self.channels = ChannelService(self.deps)
        self.xp_rolls = XpRollService(self.deps)
        self.xp_groups = XpGroupService(self.deps)
        self.xp_plots = XpPlotService(self.deps)
        self.xp_events = XpEventService(self.deps)
        self.xp_timed = XpTimedService(self.deps)

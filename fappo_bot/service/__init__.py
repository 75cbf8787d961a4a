"""The use cases of FAPPO Bot over a unit of work.

Adapters (Discord, the local table) build one `Services` in their composition root from a
`uow_factory` (fappo_bot.storage) and call its use cases:

    services.games        create, find, show, games_of, require_gm, gm_of, add_member,
                          remove_member, configure, set_status, audit_log
    services.characters   create, add_enemy, show, list, edit, set_count, retire, transfer,
                          npcize, mark_inactive, restore_control
    services.turns        open, post, npc_orders, edit, delete, pass_turn, set_reply_keys,
                          set_many_reply_keys, status, orders, seal, reveal
    services.calltime     set_deadline, extend, pause, resume, close, reopen, due, fire_due
                          (with grace, `service/grace.py`), outage
    services.review       review, answer, set_inputs
    services.resolution   resolve, undo
    services.aftermath    declare_rest, end_scene, end_adventure, spend_cc, ledger
    services.outbox       pending, inbox, given_up, given_up_lines, where, for_game,
                          mark_sent, mark_failed
    services.transfer     export, export_as_operator, import_game, find
    services.users        set_display_name, display_names

Every use case returns view values (`fappo_bot.service.views`) or raises a `ServiceError` whose
`str()` is safe to show. No text they render holds a live mention: a user's value is made
inert where it is written into one (`fappo_bot.posting.safety`); the names a view carries are
data, as the users wrote them, for each adapter to render the same way. Nothing here knows about Discord or SQLAlchemy.
"""

from fappo_bot.service.base import Deps, Resolver
from fappo_bot.service.characters import NewCharacter
from fappo_bot.service.clock import Clock, IdFactory, SaltFactory, SystemClock, token_salt, uuid_ids
from fappo_bot.service.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    NoOpenTurn,
    NotFound,
    ServiceError,
    StaleVersion,
    TransientError,
)
from fappo_bot.service.facade import Services
from fappo_bot.service.ports import UnitOfWork, UowFactory
from fappo_bot.service.scene_inputs import HealingInput, SceneGap
from fappo_bot.service.text import PostingText, PostText, ReadPost

__all__ = [
    "Clock",
    "Conflict",
    "Deps",
    "Forbidden",
    "IdFactory",
    "InvalidInput",
    "NewCharacter",
    "NoOpenTurn",
    "NotFound",
    "PostText",
    "PostingText",
    "ReadPost",
    "Resolver",
    "SaltFactory",
    "SceneGap",
    "HealingInput",
    "ServiceError",
    "Services",
    "StaleVersion",
    "SystemClock",
    "TransientError",
    "UnitOfWork",
    "UowFactory",
    "token_salt",
    "uuid_ids",
]

"""Record builders for the storage tests: full values, every optional field set where it can be."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from fappo_bot.rules.character import Character, Status, StatusKind, Weapon
from fappo_bot.rules.config import RulesConfig
from fappo_bot.rules.data import Trait
from fappo_bot.rules.orders import Action, ActionKind, Order, PendingHit, Pledge
from fappo_bot.rules.results import GMInputs, TurnResult, TurnState
from fappo_bot.service.records import (
    AuditEntry,
    CharacterRecord,
    Game,
    GameSettings,
    LedgerEntry,
    OutboxMessage,
    Post,
    PostRevision,
    Resolution,
    TurnRecord,
)

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def game(id: str = "g1", channel: str = "chan-1", **kw: object) -> Game:
    values: dict[str, object] = {
        "id": id,
        "channel_key": channel,
        "guild_key": "guild-1",
        "name": "The Sunken Keep",
        "rules": RulesConfig(pips_enabled=True, inactive_threshold=2),
        "settings": GameSettings(calltime=timedelta(hours=36), tournament=True),
        "created_at": T0,
    }
    values.update(kw)
    return Game.model_validate(values)


def sheet(name: str = "Aria") -> Character:
    return Character(
        name=name,
        traits={Trait(next(iter(Trait)).value): 3},
        skills={"Melee": 4},
        weapons=(Weapon(name="Sword", damage=3),),
        wielding="Sword",
        statuses=(Status(kind=StatusKind.BLEEDING, turns=2, source="Orc"),),
    )


def character(
    id: str = "c1", name: str = "Aria", game_id: str = "g1", **kw: object
) -> CharacterRecord:
    values: dict[str, object] = {
        "id": id,
        "game_id": game_id,
        "name": name,
        "owner": "user-1",
        "sheet": sheet(name),
        "state": replace(sheet(name), health=2),
        "created_at": T0,
    }
    values.update(kw)
    return CharacterRecord.model_validate(values)


def turn(id: str = "t1", game_id: str = "g1", number: int = 1, **kw: object) -> TurnRecord:
    values: dict[str, object] = {
        "id": id,
        "game_id": game_id,
        "number": number,
        "opened_at": at(1),
        "deadline": at(60 * 36),
        "paused_remaining": timedelta(hours=3, microseconds=17),
        "alarm_at": at(60),
        "pending": (PendingHit(id="h1", target="Aria", attacker="Orc", levels=2, turn=1),),
        "gm_inputs": GMInputs(end_positions={"Aria": 2}),
        "gm_answers": {"difficulty:Aria:0": 5},
    }
    values.update(kw)
    return TurnRecord.model_validate(values)


def order(actor: str = "Aria", ap: int = 3) -> Order:
    return Order(
        actor=actor,
        actions=(Action(kind=ActionKind.ATTACK, ap=ap, target="Orc", sp={"floating": 1}),),
        guard=(Pledge(against="Orc", sp={"floating": 1}),),
    )


def post(id: str = "p1", message: str = "m1", turn_id: str = "t1", **kw: object) -> Post:
    values: dict[str, object] = {
        "id": id,
        "game_id": "g1",
        "turn_id": turn_id,
        "author": "user-1",
        "channel_key": "chan-1",
        "message_key": message,
        "created_at": at(2),
        "updated_at": at(2),
    }
    values.update(kw)
    return Post.model_validate(values)


def revision(
    post_id: str = "p1", number: int = 1, orders: tuple[Order, ...] | None = None
) -> PostRevision:
    orders = (order(),) if orders is None else orders
    return PostRevision(
        post_id=post_id,
        number=number,
        text=f"Attack: Orc (3 AP) rev {number}",
        orders=orders,
        ok=bool(orders),
        problems=() if orders else ("line 1: unknown target",),
        reply="ok",
        created_at=at(2 + number),
    )


def resolution(id: str = "r1", turn_id: str = "t1", **kw: object) -> Resolution:
    state = TurnState(turn=1, characters=(sheet(),))
    values: dict[str, object] = {
        "id": id,
        "game_id": "g1",
        "turn_id": turn_id,
        "turn_number": 1,
        "orders": (order(),),
        "result": TurnResult(turn=1, state=state),
        "state_before": state,
        "state_after": state,
        "characters_before": (character(),),
        "created_at": at(10),
    }
    values.update(kw)
    return Resolution.model_validate(values)


def message(
    id: str = "o1", key: str = "results:t1", minutes: float = 10, **kw: object
) -> OutboxMessage:
    values: dict[str, object] = {
        "id": id,
        "game_id": "g1",
        "dest_key": "chan-1",
        "kind": "results",
        "content": "Aria hits the Orc.",
        "dedupe_key": key,
        "created_at": at(minutes),
    }
    values.update(kw)
    return OutboxMessage.model_validate(values)


def audit(id: str = "a1", at: datetime = T0, **kw: object) -> AuditEntry:
    values: dict[str, object] = {
        "id": id,
        "game_id": "g1",
        "actor": "user-1",
        "action": "post",
        "detail": {"post": "p1", "lines": [1, 2]},
        "at": at,
    }
    values.update(kw)
    return AuditEntry.model_validate(values)


def ledger(id: str = "l1", **kw: object) -> LedgerEntry:
    values: dict[str, object] = {
        "id": id,
        "player": "user-1",
        "game_id": "g1",
        "points": 1,
        "reason": "adventure 1 completed",
        "at": T0,
    }
    values.update(kw)
    return LedgerEntry.model_validate(values)

"""Mention safety is a property of rendering, proven of every use case. Every public use case
of `Services` is called with hostile names and prose (user and role mentions, @everyone and
@here, channel links, zero-width tricks, markdown, line breaks), and every value it returns,
every refusal and every outbox message is walked. A text the service made (a reply, a
question, a refusal, a message, any text a user's value was written into) holds no live
mention; the only texts that may are the users' own values handed back as data (a name as
stored, a payload's names), which each adapter renders through `posting.safety` (proven by the
adapters' hostile walks: `tests/console/test_hostile_names.py`, `tests/bot/test_names.py`).
So the walk fails when one renderer forgets to make a value inert."""

from __future__ import annotations

import dataclasses
import inspect
import re
from datetime import timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from fappo_bot.rules.advancement import Purchase, PurchaseKind
from fappo_bot.rules.healing import HealingCheck
from fappo_bot.service import SceneGap, ServiceError, Services
from fappo_bot.service.layout import ResultsLayout
from fappo_bot.service.records import GameStatus, RemindBy, Role
from tests.service.conftest import GM, sheet

GROUPS = ("games", "characters", "turns", "calltime", "review", "resolution", "aftermath",
          "outbox", "users", "advancement", "legendary", "pace", "traits")
LIVE = ("@everyone", "@here", "<@", "<#")
ZW = "\u200b"
KAEL = "<@123456789012345678>"  # a character named as a user mention
MIRA = f"Mira @{ZW}everyone **b** ||s|| [x](https://e.x)"  # already "inert", and markdown
SKARG = "Skarg <@&999> <#777>"
GOBLINS = "Gob @here `x`"
ALICE, BOB = "alice", "@everyone"  # a player whose user id is a mention at the local table
PROSE = f"@{ZW}everyone <@{ZW}123> @\u2060here <{ZW}#777> @{ZW}{ZW}here"


#: the fields of a view that hold text the service rendered (never a user's value as data)
RENDERED = frozenset({"reply", "text", "question", "message", "hint", "content", "changes",
                      "lines", "summary", "expected"})


#: values that are data for a renderer, not text to show: a post's positioned problems (the
#: parser's, rendered into the reply by `posting.render.problem_text`) and the audit log's
#: details (the GM's export)
DATA = frozenset({"PostProblem", "AuditEntry"})
#: fields that are identifiers, never shown (a review question's key, a hit's id), or an
#: outbox message's payload: data the adapters render (`test_hostile_text.py` renders every
#: message of a hostile turn as both adapters do)
IDENTIFIERS = frozenset({"key", "id", "dedupe_key", "hit", "payload"})
_NOT_WORDS = re.compile("[\u200b\u2060*_|`~\\s]+")


def is_live(text: str) -> bool:
    return any(live in text for live in LIVE)


def words_of(text: str) -> str:
    """`text` as the post reader leaves a user's words: no zero-width characters, no markdown,
    no blanks."""
    return _NOT_WORDS.sub("", text)


def live_texts(value: Any, rendered: bool = False, seen: set[int] | None = None,
               at: str = "") -> list[tuple[str, bool, str]]:
    """Every text inside `value` that Discord would ping with, each with whether it sits in a
    field of rendered text (`RENDERED`, or under one) and the field it sits in."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, str):
        return [(value, rendered, at)] if is_live(value) else []
    fields: dict[str, Any] | None = None
    if isinstance(value, BaseModel):
        fields = value.__dict__
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if fields is not None:
        if type(value).__name__ in DATA:
            return []
        return [t for k, v in fields.items() if k not in IDENTIFIERS and not k.endswith("_key")
                for t in live_texts(v, rendered or k in RENDERED, seen,
                                    f"{type(value).__name__}.{k}")]
    if isinstance(value, dict):
        return [t for k, v in value.items()
                for t in live_texts(k, rendered, seen, at) + live_texts(v, rendered, seen, at)]
    if isinstance(value, list | tuple | set | frozenset):
        return [t for v in value for t in live_texts(v, rendered, seen, at)]
    return []


def given_texts(value: Any) -> list[str]:
    """The texts inside a use case's arguments: what the users wrote."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, BaseModel):
        return given_texts(value.model_dump())
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in given_texts(k) + given_texts(v)]
    if isinstance(value, list | tuple | set | frozenset):
        return [t for v in value for t in given_texts(v)]
    return []


class Recorder:
    """`Services` with every use case's value and refusal kept, and which use cases ran."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.called: set[str] = set()
        self.leaks: list[tuple[str, str]] = []
        self.calls = 0
        self.given: list[str] = []

    def __getattr__(self, group: str) -> Any:
        target = getattr(self.services, group)
        recorder = self

        class Group:
            def __getattr__(self, name: str) -> Any:
                method = getattr(target, name)

                async def call(*args: Any, **kwargs: Any) -> Any:
                    recorder.called.add(f"{group}.{name}")
                    recorder.calls += 1
                    recorder.given += [t for a in (*args, *kwargs.values())
                                       for t in given_texts(a) if is_live(t)]
                    try:
                        value = await method(*args, **kwargs)
                    except ServiceError as refused:
                        recorder.check(f"{group}.{name} refused", str(refused), rendered=True)
                        return refused
                    recorder.check(f"{group}.{name}", value)
                    return value

                return call

        return Group()

    def check(self, where: str, value: Any, rendered: bool = False) -> None:
        """A live text is a leak unless it is data: a user's own value (a part of what was
        given, as written) outside the rendered fields."""
        self.leaks.extend((f"{where} {at}", text[:200])
                          for text, made, at in live_texts(value, rendered)
                          if made or not self.is_data(text))

    def is_data(self, text: str) -> bool:
        words = words_of(text)
        return any(words in words_of(given) for given in self.given)


def every_use_case() -> set[str]:
    from fappo_bot.service import facade

    found = set()
    for group in GROUPS:
        kind = {"games": facade.GameService, "characters": facade.CharacterService,
                "turns": facade.TurnService, "calltime": facade.CallTimeService,
                "review": facade.ReviewService, "resolution": facade.ResolutionService,
                "aftermath": facade.AftermathService, "outbox": facade.OutboxService,
                "users": facade.UserService,
                "advancement": facade.AdvancementService,
                "legendary": facade.LegendaryService, "pace": facade.PaceService,
                "traits": facade.TraitService}[group]
        found |= {f"{group}.{n}" for n, v in inspect.getmembers(kind)
                  if not n.startswith("_") and inspect.iscoroutinefunction(v)}
    return found


async def test_nothing_live_leaves_any_use_case_with_hostile_names(services, clock, uow_factory):
    s = Recorder(services)
    game = (await s.games.create(channel_key="c1", name=f"Road {KAEL} @here", creator=GM)).id
    await s.games.add_member(game, GM, ALICE, Role.PLAYER)
    await s.games.add_member(game, GM, BOB, Role.PLAYER)
    await s.games.add_member(game, GM, "<@555>", Role.PLAYER)
    await s.games.remove_member(game, GM, "<@555>", Role.PLAYER)
    await s.games.remove_member(game, GM, "<@666>", Role.PLAYER)  # refused, names the user
    await s.characters.create(game, ALICE, sheet("Kael", name=KAEL))
    await s.characters.create(game, BOB, sheet("Mira", name=MIRA))
    await s.characters.create(game, BOB, sheet("Bran", name="<@42>", ap=9))  # bad sheet
    await s.characters.add_enemy(game, GM, sheet("Skarg", name=SKARG))
    await s.characters.add_enemy(game, GM, sheet("Goblins", name=GOBLINS))
    await s.characters.edit(game, GM, SKARG, sheet("Skarg", name=SKARG))
    await s.characters.set_count(game, GM, GOBLINS, 3)
    await s.characters.show(game, "@everyone")  # refused: lists every name
    await s.characters.list(game)
    await s.games.show(game)
    await s.games.find("c1")
    await s.games.games_of(BOB)
    await s.games.gm_of(game, BOB)
    await s.games.require_gm(game, BOB)  # refused: a player
    await s.games.configure(game, GM, settings={"auto_open_next": True})
    await s.games.settings(game)
    await s.games.set_setting(game, GM, "reminders", "12h, 1h")
    await s.games.set_setting(game, GM, f"{PROSE}", "on")  # refused: lists the names
    await s.games.set_setting(game, GM, "tournament", f"{PROSE}")  # refused: says what it takes
    await s.turns.open(game, GM)
    await s.calltime.set_deadline(game, GM, after=timedelta(hours=24))
    await s.calltime.extend(game, GM, timedelta(hours=1))
    await s.calltime.pause(game, GM)
    await s.calltime.resume(game, GM)
    clock.advance(hours=13)
    await s.calltime.due()
    await s.calltime.fire_due()
    await s.calltime.outage(clock.now() - timedelta(minutes=1), clock.now())
    await s.games.set_setting(game, GM, "timezone", f"{PROSE}")  # refused: the nearest names
    reply = await s.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                               text=f"{PROSE}\n2 AP attack Skarg with Broadsword, +1 "
                                    f"({PROSE} high ground)\n1 AP defend\nIntent: {PROSE}")
    assert getattr(reply, "ok", False), getattr(reply, "reply", reply)
    await s.turns.post(game, ALICE, channel_key="c1", message_key="m2",
                       text=f"2 AP attack {PROSE} with Broadsword")  # problems quote the name
    await s.turns.edit(game, ALICE, channel_key="c1", message_key="m1",
                       text=f"2 AP attack Skarg with Broadsword, +1 ({PROSE})\n1 AP defend")
    await s.turns.set_reply_keys(reply.post_id, ["r1"])
    await s.turns.set_many_reply_keys([(reply.post_id, ["r1"])])
    secret = await s.turns.post(game, BOB, channel_key="dm-bob", message_key="d1", secret=True,
                                text=f"2 AP Stealth: slip behind Skarg {PROSE}\n1 AP defend")
    assert getattr(secret, "ok", False), secret
    await s.turns.post(game, BOB, channel_key="c1", message_key="m3",
                       text="3 AP attack Kael with Dagger")  # PvP in the open: refused
    await s.turns.pass_turn(game, BOB, "@here")  # refused: quotes the name
    await s.turns.npc_orders(game, GM, channel_key="dm-gm", message_key="n1", seal=False,
                             text=f"**{SKARG}**\n2 AP attack {KAEL} with Broadsword ({PROSE})"
                                  f"\n**{GOBLINS}**\n1 AP attack {MIRA}")
    await s.turns.orders(game, GM)
    await s.turns.orders(game, BOB)
    await s.turns.status(game)
    await s.turns.board(game)
    await s.turns.status_board(game, BOB)
    await s.review.review(game, GM)
    await s.turns.seal(game, GM)
    review = await s.review.review(game, GM)
    await s.review.answer(game, GM, {"nope": PROSE})
    await s.review.set_inputs(game, GM, freed=[PROSE])
    await s.review.set_inputs(game, GM, end_combat=False)
    await s.resolution.resolve(game, GM, 1)  # refused: lists the questions
    answers = {i.key: ("accept" if i.field == "claim" else 3) for i in review.items
               if i.required}
    await s.review.answer(game, GM, answers)
    await s.calltime.close(game, GM)
    await s.calltime.reopen(game, GM)
    await s.calltime.close(game, GM)
    await s.resolution.resolve(game, GM, 1)
    await s.turns.reveal(game, 1)
    await s.resolution.undo(game, GM)
    await s.resolution.resolve(game, GM, 1)
    await s.turns.status(game)
    await s.turns.delete(game, ALICE, channel_key="c1", message_key="m1")
    await s.aftermath.advance_time(game, GM, 3600, checks={KAEL: HealingCheck(healer=PROSE,
                                                                              total=5)})
    await s.aftermath.declare_rest(game, ALICE, KAEL, {"Brawny": 1})
    await s.aftermath.declare_rest(game, ALICE, KAEL, {PROSE: 1})
    await s.aftermath.end_scene(game, GM, SceneGap.NIGHT, {PROSE: {"Nimble": 1}})
    await s.aftermath.end_scene(game, GM, SceneGap.NIGHT)
    await s.aftermath.spend_cc(game, ALICE, KAEL,
                               Purchase(kind=PurchaseKind.SKILL, name=PROSE, points=1))
    await s.characters.mark_inactive(game, GM, MIRA)
    await s.characters.npcize(game, GM, MIRA)
    await s.characters.restore_control(game, GM, MIRA)
    await s.characters.transfer(game, BOB, MIRA, "<@777>")
    await s.characters.transfer(game, BOB, MIRA, ALICE, permanent=False)
    await s.aftermath.end_adventure(game, GM, {KAEL: 2, PROSE: 1})
    await s.aftermath.end_adventure(game, GM, {KAEL: 2})
    await s.aftermath.spend_cc(game, ALICE, KAEL,
                               Purchase(kind=PurchaseKind.SKILL, name="Stealth", points=1))
    await s.aftermath.ledger(ALICE)
    await s.advancement.ask(game, ALICE, KAEL, f"{PROSE} +1")  # refused: names the skill
    await s.advancement.ask(game, ALICE, KAEL, "Stealth +1")
    await s.advancement.ask(game, ALICE, KAEL, "Stealth +1")  # refused: one waits already
    await s.advancement.waiting(game, GM)
    await s.advancement.refuse(game, GM, KAEL)
    await s.advancement.ask(game, ALICE, KAEL, "Stealth +1")
    await s.advancement.approve(game, GM, KAEL)
    await s.advancement.approve(game, GM, PROSE)  # refused
    await s.characters.edit_from_data(game, GM, SKARG, {"name": PROSE, "tier": "lieutenant"})
    await s.characters.edit(game, GM, KAEL, sheet("Kael", name=KAEL, budget=31, legendary=[
        {"item": "Broadsword", "upgrades": ["accuracy"]}]))
    await s.legendary.items(game, GM)
    await s.legendary.hand_over(game, GM, PROSE, MIRA)  # refused: names the item
    await s.legendary.hand_over(game, GM, "Broadsword", MIRA)
    await s.legendary.bind_item(game, BOB, MIRA, "Broadsword", sacrifice=PROSE)  # refused
    await s.legendary.bind_item(game, BOB, MIRA, "Broadsword", sacrifice="Stealth")
    await s.legendary.hand_over(game, GM, "Broadsword", KAEL)
    await s.characters.edit_from_data(game, GM, GOBLINS, {"name": GOBLINS, "hp": PROSE})
    await s.characters.retire(game, GM, GOBLINS)
    await s.games.audit_log(game, GM, None)
    await s.games.set_status(game, GM, GameStatus.PAUSED)
    await s.turns.post(game, ALICE, channel_key="c1", message_key="m9", text="3 AP defend")
    await s.games.create(channel_key="c1", name=PROSE, creator=GM)  # refused: names the game
    await _xp_walk(s)
    pending = await s.outbox.pending(1000)
    await s.outbox.for_game(game)
    await s.outbox.inbox(BOB)
    await s.games.listing()
    await s.users.set_display_name(ALICE, PROSE)
    await s.users.display_names([ALICE, BOB])
    await s.games.show(game)
    await s.outbox.mark_sent(pending[0].id)
    await s.outbox.mark_failed(pending[1].id, PROSE)
    await s.outbox.mark_failed(pending[2].id, PROSE, permanent=True)  # the GMs are told
    await s.outbox.given_up(game)
    await s.outbox.given_up_lines(game)
    await s.outbox.where(pending[2])
    await s.outbox.inbox(GM)
    await s.outbox.mark_sent(PROSE)
    await s.outbox.messages([m.id for m in pending[:3]])
    # a player's pace, in a game of a hostile name
    await s.pace.remind(ALICE, RemindBy.DM, game)
    await s.pace.remind(ALICE, RemindBy.PING)
    await s.pace.remind(ALICE, RemindBy.DM, PROSE)  # refused: no such game
    await s.pace.away(ALICE, None, clock.now() + timedelta(days=2))
    await s.pace.away(ALICE, None, clock.now() - timedelta(days=2))  # refused
    await s.pace.pace_of(ALICE)
    await s.pace.back(ALICE)
    await s.pace.digest(ALICE, True, 0)
    await s.pace.send_digests()
    await s.pace.digest(ALICE, False)
    await s.pace.layout(ALICE, ResultsLayout.TEXT)
    await s.pace.layout(ALICE, None)
    # the game's own Traits: a skill named like a mention, a name that is one (refused)
    await s.traits.add(game, GM, "Hawkish", "Sharp", "Spy @here, Watch <@123>")
    await s.traits.add(game, GM, KAEL, PROSE)  # refused: no one word
    await s.traits.list(game)
    await s.traits.remove(game, GM, PROSE)  # refused: no such Trait, named back
    await s.traits.remove(game, GM, "Hawkish")
    missing = every_use_case() - s.called
    assert not missing, f"use cases the walk never called: {sorted(missing)}"
    assert not s.leaks, "\n".join(sorted({f"{w}: {t!r}" for w, t in s.leaks}))
    assert s.calls >= 75


async def _xp_walk(s: Recorder) -> None:
    """An Xp turn with hostile names: sheets, a post, the review and the resolution."""
    xp = (await s.games.create(channel_key="x1", name=f"Tomb {KAEL}", creator=GM,
                               ruleset="xp")).id
    await s.games.add_member(xp, GM, ALICE, Role.PLAYER)
    await s.characters.create_from_data(xp, ALICE, {
        "name": KAEL, "skills": {"Stealth": "advanced BODY", "Spy @here": "normal"},
        "passions": [f"Protect {KAEL} always", "Gold opens doors"],
        "flaws": [f"Fears {KAEL} at night", "Talks too much"], "luck": 1})
    await s.characters.create_from_data(xp, ALICE, {"name": MIRA, "passions": [PROSE], "luck": -1})  # bad
    await s.characters.create_xp(xp, GM, {"name": SKARG, "who": "npc",
                                          "skills": {"Spear": "veteran BODY"}})
    await s.characters.edit_from_data(xp, GM, SKARG, {"name": SKARG, "who": "npc",
                                                      "skills": {PROSE: "veteran BODY"}})
    await s.characters.edit_xp(xp, GM, SKARG, {"name": SKARG, "who": "npc",
                                               "skills": {"Spear": "veteran BODY"}})
    await s.turns.open(xp, GM)
    reply = await s.turns.post(xp, ALICE, channel_key="x1", message_key="x1",
                               text=f"{PROSE}\nroll Stealth against {SKARG}: {PROSE}\n"
                                    f"roll Spy @here: {PROSE}\npassion: Protect")
    assert getattr(reply, "ok", False), getattr(reply, "reply", reply)
    await s.turns.post(xp, ALICE, channel_key="x1", message_key="x2",
                       text=f"roll {PROSE}\nroll Stealth against {MIRA}")  # problems
    review = await s.review.review(xp, GM)
    answers = {"opponent": "Spear", "relevant": "yes", "difficulty": "routine"}
    await s.review.answer(xp, GM, {i.key: answers[i.field] for i in review.items
                                   if i.field in answers})
    done = await s.resolution.resolve(xp, GM, 1)
    assert "results (Xp)" in getattr(done, "text", ""), done


@pytest.mark.parametrize("text", [f"@{ZW}everyone", f"@{ZW}{ZW}here", f"<@{ZW}123>",
                                  "**@**everyone", f"<{ZW}#777>", "@\u2060everyone"])
async def test_a_post_reader_that_strips_zero_width_and_markdown_leaks_no_mention(
    services, clock, text
):
    """The post reader strips zero-width characters and markdown, so `@<ZWSP>everyone`
    in a post reached the GM's review as a live `@everyone`."""
    s = Recorder(services)
    game = (await s.games.create(channel_key="c1", name="Road", creator=GM)).id
    await s.games.add_member(game, GM, ALICE, Role.PLAYER)
    await s.characters.create(game, ALICE, sheet("Kael"))
    await s.turns.open(game, GM)
    reply = await s.turns.post(game, ALICE, channel_key="c1", message_key="m1",
                               text=f"2 AP Stealth: slip past {text}\n1 AP defend")
    assert getattr(reply, "ok", False), getattr(reply, "reply", reply)
    review = await s.review.review(game, GM)
    assert any("slip past" in i.question for i in review.items)
    await s.resolution.resolve(game, GM, 1)
    assert not s.leaks, s.leaks

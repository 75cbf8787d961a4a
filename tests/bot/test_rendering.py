"""Each adapter renders an outbox message from its kind and payload (`discord/rendering.py`,
`console/rendering.py`): the text the service queued, and what only that adapter says."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fappo_bot.console.rendering import rendered as at_the_table
from fappo_bot.console.seats import Kind
from fappo_bot.discord.rendering import rendered as on_discord
from fappo_bot.posting.safety import has_live_mention
from fappo_bot.render import notices as words
from fappo_bot.service import notices
from fappo_bot.service import results_report as report
from fappo_bot.service.base import Deps, outbox_messages
from fappo_bot.service.records import Game, OutboxMessage
from fappo_bot.service.rulesets.known import KNOWN

pytestmark = pytest.mark.unit

AT = datetime(2026, 12, 1, 12, tzinfo=UTC)


def _messages(kind: str, content: notices.Notice | str) -> list[OutboxMessage]:
    ids = iter(f"id{n}" for n in range(100))
    deps = Deps(uow_factory=None, rulesets=KNOWN, ids=lambda: next(ids))  # type: ignore[arg-type]
    deps.clock.now = lambda: AT  # type: ignore[method-assign]
    game = Game(id="g1", channel_key="c1", name="G", created_at=AT)
    return outbox_messages(deps, game, kind, content, "key")


def test_a_reveal_gets_each_adapters_command_after_its_last_part_from_its_payload():
    reveal = notices.revealed(7, "ab" * 32, "salt", [f"Skarg: {'x' * 900}"] * 3)
    parts = _messages("revealed", reveal)
    assert len(parts) > 1 and [(m.part, m.parts) for m in parts] == [
        (n, len(parts)) for n in range(1, len(parts) + 1)]
    assert all(m.payload == reveal.payload() for m in parts)
    assert notices.read("revealed", parts[0].payload) == reveal
    assert [on_discord(m) for m in parts] == [m.content for m in parts[:-1]] + [
        f"{parts[-1].content}\nHere: `/reveal turn:7` shows it and checks it."]
    assert at_the_table(parts[-1]).text.endswith("\nAt this table: /reveal 7 shows it and "
                                                 "checks it.")
    assert at_the_table(parts[0]).text == parts[0].content
    assert at_the_table(parts[0]).title == "NPC orders revealed"


def test_a_message_with_no_payload_is_its_text():
    """A row written before payloads (or a payload this version cannot read): its text."""
    text = "NPC orders of turn 3, ... How to check: ask the bot to reveal the canonical JSON of "
    legacy = OutboxMessage(id="o1", dest_key="c1", kind="revealed", content=text,
                           dedupe_key="o1", created_at=AT)
    assert on_discord(legacy) == text and at_the_table(legacy).text == text
    unreadable = legacy.model_copy(update={"payload": {"turn": "three"}})
    assert on_discord(unreadable) == text
    plain = legacy.model_copy(update={"kind": "text"})
    assert on_discord(plain) == text and at_the_table(plain).kind is Kind.NOTICE


def test_the_gms_notice_of_a_message_given_up_says_where_to_read_it_on_discord():
    [notice] = _messages("undelivered", notices.undelivered("G", "the game's room", "Turn 2",
                                                            "no access"))
    assert notice.payload == {"game": "G", "where": "the game's room", "began": "Turn 2",
                              "why": "no access"}
    assert on_discord(notice) == (f"{notice.content}\nHere: `/inbox` shows it, and "
                                  "`/turn status` lists it.")


def _action(actor: str, **fields: object) -> report.ActionLine:
    given = {"kind": "skill", "skill": "Pickpocket", "target": "Kael",
             "task": "lift his coin purse", "total": 6, "difficulty": 1, "base": "great",
             "level": "great", **fields}
    return report.ActionLine(actor=actor, **given)  # type: ignore[arg-type]


def test_results_carry_what_happened_as_data_and_each_adapter_words_it():
    blocks = (_action("Mira"), report.Standing(name="Kael", health="Wounded", hits=(
        report.HitLine(id="t1-skarg-0", attacker="Skarg", weapon="Broadsword", levels=3),)))
    [results] = _messages("results_private", notices.results(2, "r1", blocks, ["kael"]))
    assert results.payload is not None and results.payload["turn"] == 2
    assert results.payload["characters"] == ["kael"]
    assert results.payload["blocks"][0]["skill"] == "Pickpocket"  # data, not words
    assert notices.read("results_private", results.payload) == notices.results(
        2, "r1", blocks, ["kael"])
    text = on_discord(results)
    assert text == results.content == at_the_table(results).text
    assert "Mira tries Pickpocket on Kael (lift his coin purse): 6 vs 1, Great Success" in text
    assert "Skarg's Broadsword hit, 3 levels" in text and "t1-skarg-0" not in text
    assert at_the_table(results).kind is Kind.RESULTS
    with pytest.raises(ValueError):
        _messages("results", notices.reminder(2, None, []))


def test_a_long_turn_goes_out_in_parts_each_with_its_own_blocks():
    blocks = tuple(_action(f"Goblin {i}", notes=("x" * 60,)) for i in range(80))
    parts = _messages("results", notices.results(4, "r1", blocks))
    assert len(parts) > 2 and all(len(m.content) <= 2000 for m in parts)
    read = [notices.read("results", m.payload) for m in parts]
    assert all(isinstance(n, notices.Results) for n in read)
    # every block once, in order, and each part's payload only its own
    assert [b for n in read for b in n.blocks] == list(blocks)  # type: ignore[union-attr]
    assert [n.continued for n in read] == [False] + [True] * (len(parts) - 1)  # type: ignore[union-attr]
    assert parts[1].content.startswith("**Turn 4 results (continued)**")
    assert [on_discord(m) for m in parts] == [m.content for m in parts]


def test_results_rows_written_before_their_blocks_go_out_as_stored():
    old = OutboxMessage(id="o1", dest_key="c1", kind="results", content="Turn 1 results ...",
                        payload={"turn": 1, "resolution_id": "r1", "characters": None},
                        dedupe_key="o1", created_at=AT)
    assert on_discord(old) == "Turn 1 results ..." == at_the_table(old).text


def test_every_notice_is_worded_outside_the_service():
    assert set(words.WORDS) == set(notices.NOTICES.values())


def test_the_adapters_render_from_the_payload_not_the_stored_text():
    """The stored text is the neutral words, kept for the inbox; what goes out is rendered
    from the payload, with an adapter's own words for a kind when it has them."""
    [called] = _messages("time_called", notices.time_called(3, ["Kael"]))
    stale_called = called.model_copy(update={"content": "stale"})
    assert on_discord(stale_called) == at_the_table(stale_called).text == called.content
    [message] = _messages("reminder", notices.reminder(3, None, ["Kael"]))
    stale = message.model_copy(update={"content": "stale"})
    assert at_the_table(stale).text == message.content
    assert on_discord(stale) == "Reminder: turn 3 closes with no deadline. Still to post: Kael."
    own = {**words.WORDS, notices.Reminder: lambda n: f"Post for turn {n.turn}, {n.missing[0]}!"}
    assert words.part(stale, own) == "Post for turn 3, Kael!"
    # words cut into another number of parts than stored: the stored part goes out
    long = {**words.WORDS, notices.Reminder: lambda n: "x\n" * 3000}
    assert words.part(stale, long) == "stale"


def test_nothing_rendered_pings_whatever_the_payload_holds():
    """Every user text a payload can hold, hostile, through every kind's words: the data keeps
    it as written, and neither the neutral words nor an adapter's rendering can ping."""
    hostile = "@everyone <@123> <@&4> <#5> @here"
    for kind, notice in [("reminder", notices.reminder(1, AT, [hostile])),
                         ("time_called", notices.time_called(1, [hostile])),
                         ("undone", notices.undone(1, hostile, [hostile], True)),
                         ("inactive", notices.inactive([hostile], 3)),
                         ("adventure_ended", notices.adventure_ended([hostile])),
                         ("revealed", notices.revealed(1, hostile, hostile, [hostile])),
                         ("undelivered", notices.undelivered(hostile, hostile, hostile, hostile)),
                         ("npc_wait", notices.waiting_for_npc_orders(1, [hostile])),
                         ("scene_ended", notices.scene_ended(hostile)),
                         ("time_advanced", notices.time_advanced(hostile, [hostile])),
                         ("sealed", notices.sealed(1, hostile)),
                         ("reminder_dm", notices.ReminderDm(
                             game=hostile, turn=1, deadline=AT, characters=(hostile,),
                             room="1", guild="2")),
                         ("digest", notices.Digest(games=(notices.DigestGame(
                             game_id="g", game=hostile, turn=1, deadline=AT,
                             characters=(hostile,), room="1", guild="2"),))),
                         ("results", notices.results(1, hostile, [
                             _action(hostile, target=hostile, task=hostile, notes=(hostile,)),
                             report.Refusal(actor=hostile, message=hostile),
                             report.Standing(name=hostile, health=hostile, hits=(
                                 report.HitLine(id=hostile, attacker=hostile, weapon=hostile,
                                                levels=1),), statuses=(hostile,)),
                             report.EventLine(character=hostile, kind=hostile, detail=hostile),
                             report.XpLine(text=hostile)], [hostile]))]:
        assert all(not has_live_mention(p) for p in words.parts(notice)), kind
        for message in _messages(kind, notice):
            assert hostile in str(message.payload)  # the data, as written
            for text in (on_discord(message), at_the_table(message).text,
                         words.part(message)):
                assert not has_live_mention(text), (kind, text)

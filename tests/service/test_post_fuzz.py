"""Property: whatever a player or the GM posts, with mentions, zero-width tricks and
markdown mixed into valid lines, the service answers (a reply or a refusal, never a traceback)
and nothing it answers holds a live mention. benchmarks/fuzz_posts.py runs the same at scale,
with turns resolved in between."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fappo_bot.service import ServiceError, Services
from fappo_bot.service.records import Role
from tests.service.conftest import ALICE, BOB, GM, FakeClock, sheet
from tests.service.fakes import FakeUowFactory
from tests.service.test_guard_walk import live_texts

pytestmark = pytest.mark.unit

GOOD = ["2 AP attack Skarg with Broadsword, 1 SP Nimble, +1 (high ground)", "3 AP defend",
        "2 AP Stealth: slip behind Skarg", "Guard: 1 SP Tireless against Skarg",
        "Intent: hold the line", "**Skarg**", "If he runs: 1 AP attack him with Dagger"]
NASTY = ["@everyone", "@here", "<@123456789012345678>", "<@&1>", "<#1>", "@\u200beveryone",
         "<@\u200b1>", "**@**everyone", "`@here`", "||@everyone||", "@\u2060here", "```",
         "[x](https://e.x)", "\x00", "\u202e", "99999999999999999999"]

lines = st.lists(st.tuples(st.sampled_from(GOOD), st.lists(
    st.tuples(st.integers(0, 80), st.sampled_from(NASTY)), max_size=3)), min_size=1, max_size=6)


def _text(chosen: list[tuple[str, list[tuple[int, str]]]]) -> str:
    out = []
    for line, edits in chosen:
        for at, token in edits:
            line = line[:at] + token + line[at:]
        out.append(line)
    return "\n".join(out)


async def _post_all(texts: list[tuple[str, str]]) -> list[object]:
    services = Services(FakeUowFactory(), clock=FakeClock())
    game = (await services.games.create(channel_key="c1", name="Fuzz", creator=GM)).id
    for user in (ALICE, BOB):
        await services.games.add_member(game, GM, user, Role.PLAYER)
    await services.characters.create(game, ALICE, sheet("Kael"))
    await services.characters.create(game, BOB, sheet("Mira"))
    await services.characters.add_enemy(game, GM, sheet("Skarg"))
    await services.turns.open(game, GM)
    answers: list[object] = []
    for number, (user, text) in enumerate(texts):
        try:
            answers.append(await services.turns.post(
                game, user, channel_key="dm" if user == BOB else "c1",
                message_key=f"m{number}", text=text, secret=user == BOB))
        except ServiceError as refused:
            answers.append(str(refused))
    answers.append(await services.review.review(game, GM))
    return answers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from([ALICE, BOB, GM]), lines), min_size=1, max_size=4))
def test_fuzzed_posts_get_an_answer_and_no_live_mention(posts):
    answers = asyncio.run(_post_all([(user, _text(chosen)) for user, chosen in posts]))
    assert not [t for answer in answers for t in live_texts(answer)]

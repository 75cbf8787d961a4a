"""The service's post language (`PostingText`) keeps the contexts of the posts it read, so a post
into the same scene resolves its names against those built for the one before; a scene that
changed in anything (its hits, a character) is read as it is now."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fappo_bot.posting import PostContext, parse_post
from fappo_bot.posting.render import render_reply
from fappo_bot.rules import PendingHit
from fappo_bot.service.text import PostingText
from tests.posting.helpers import SKIRMISH, state_of

pytestmark = pytest.mark.unit

REDUCE = "Reduce: 1 SP Nimble on the dagger hit\n1 AP defend"
HIT = PendingHit(id="h1", target="Kael", attacker="Goblin 1", weapon="Dagger", levels=2)


def _fresh(text: str, state, poster: str = "Kael") -> str:
    """The reply of a post read in a context of its own."""
    return render_reply(parse_post(text, PostContext.for_poster(state, poster)), state)


def test_a_post_into_the_same_scene_reads_as_in_a_context_of_its_own() -> None:
    text, state = PostingText(), state_of()
    first = text.read("2 AP attack Goblin 1\n1 AP defend", state, "Kael", ["Kael"])
    again = text.read("1 AP attack Goblin 1\n2 AP defend", state, "Kael", ["Kael"])
    assert first.ok and again.ok
    assert again.reply == _fresh("1 AP attack Goblin 1\n2 AP defend", state)


def test_a_scene_whose_hits_changed_is_read_as_it_is_now() -> None:
    text, before = PostingText(), state_of()
    now = replace(before, pending=(HIT,))  # the same characters, a hit pending on Kael
    assert not text.read(REDUCE, before, "Kael", ["Kael"]).ok
    read = text.read(REDUCE, now, "Kael", ["Kael"])
    assert read.ok, read.reply
    assert read.reply == _fresh(REDUCE, now)
    assert not text.read(REDUCE, before, "Kael", ["Kael"]).ok


def test_a_scene_whose_character_changed_is_read_as_it_is_now() -> None:
    text = PostingText()
    armed = state_of()
    unarmed = state_of([{**SKIRMISH[0], "weapons": []}, *SKIRMISH[1:]])
    attack = "2 AP attack Goblin 1 with Broadsword\n1 AP defend"
    assert text.read(attack, armed, "Kael", ["Kael"]).ok
    assert text.read(attack, unarmed, "Kael", ["Kael"]).reply == _fresh(attack, unarmed)


def test_a_replaced_order_is_compared_in_the_scene_as_it_is_now() -> None:
    text = PostingText()
    attack = "2 AP attack Goblin 1 with Broadsword\n1 AP defend"
    before = state_of()
    trained = state_of([{**SKIRMISH[0], "skills": {**SKIRMISH[0]["skills"], "Swordfighting": 5}},
                        *SKIRMISH[1:]])
    for state in (before, trained, before):
        earlier = text.read(attack, state, "Kael", ["Kael"]).orders[0]
        now = text.read(attack, state, "Kael", ["Kael"]).orders[0]
        assert text.replaced(earlier, now, state).endswith("(the same orders).")
    earlier = text.read(attack, before, "Kael", ["Kael"]).orders[0]
    assert text.replaced(earlier, earlier, trained).endswith("(the same orders).")

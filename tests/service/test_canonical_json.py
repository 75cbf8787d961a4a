"""The NPC seal's canonical JSON is the standard library's sorted, compact, ASCII-only JSON, byte
for byte, whatever the orders hold: the text is hashed and published, and a commitment made
before the encoder changed must still check against what the bot writes now."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.service.scene import stable_json

pytestmark = pytest.mark.unit

_keys = st.text(max_size=8)
_scalars = (st.none() | st.booleans() | st.text() | st.integers()
            | st.integers(min_value=2**64, max_value=2**80))
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_keys, inner, max_size=4), max_leaves=20)


def _reference(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


@settings(max_examples=400, deadline=None)
@given(_json)
def test_stable_json_is_the_standard_librarys_text(data: object) -> None:
    assert stable_json(data) == _reference(data)


@pytest.mark.parametrize("text", ["Skarg the Ünbowed", "😀 astral", "\u2028", "\udc80 lone",
                                  "\x00\x1f\x7f", 'quote " and \\ backslash'])
def test_the_characters_an_encoder_may_write_its_own_way(text: str) -> None:
    data = {"é": [text], "a": {"z": 2**70, "Z": text}}
    assert stable_json(data) == _reference(data)

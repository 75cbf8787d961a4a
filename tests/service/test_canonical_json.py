"""The NPC seal's canonical JSON is the standard library's sorted, compact, ASCII-only JSON, byte
for byte, whatever the orders hold: the text is hashed and published, and a commitment made
before the encoder changed must still check against what the bot writes now."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fappo_bot.rules import Order
from fappo_bot.service.disclosure import sealed_orders
from fappo_bot.service.scene import canonical_orders, orders_of, stable_json
from tests.posting.helpers import SKIRMISH, parse, state_of

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


# ---- the orders a canonical text was made of ----------------------------------------------------
def _golden_orders() -> list[tuple[str, list[Order]]]:
    """The orders of every golden post (tests/data/posts), as the parser reads them."""
    from tests.posting.test_golden import POSTS, SCENES

    found = []
    for name, scene in sorted(SCENES.items()):
        state = state_of([*SKIRMISH, *scene.get("extra", [])], scene.get("pending", []))
        post = parse((POSTS / f"{name}.txt").read_text("utf-8"), scene["poster"], state)
        found.append((name, [block.order for block in post.blocks if block.order is not None]))
    return found


@pytest.mark.parametrize(("name", "orders"), _golden_orders())
def test_the_orders_a_seal_remembers_are_those_its_text_reads_back_as(
        name: str, orders: list[Order]) -> None:
    """The reveal of a turn sealed in another request shows the orders the seal remembered
    (`orders_of`) instead of reading the JSON back: they must be the same values."""
    canonical = canonical_orders(orders)
    remembered = orders_of(canonical)
    assert remembered is not None
    assert remembered == tuple(sealed_orders(canonical)), name


def test_a_text_this_process_did_not_make_is_read_back() -> None:
    assert orders_of('[{"actor":"Nobody made this"}]') is None

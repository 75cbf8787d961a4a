"""The `Bind:` line (F22, an extension of the post language, docs/players.md): binding someone
else's legendary item the character holds, for one creation point. `bind Kael` stays the verb
that tends a wound."""

from __future__ import annotations

import pytest

from fappo_bot.posting.render import render_order
from tests.posting.helpers import parse

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("line", "item", "paid"), [
    ("Bind: Broadsword", "Broadsword", None),
    ("bind: Broadsword (sacrificing 1 Stealth)", "Broadsword", "Stealth"),
    ("Bind: Broadsword, sacrifice 1 point of Acrobatics", "Broadsword", "Acrobatics"),
    ("Bind : Long Bow (Nimble SP)", "Long Bow", "Nimble"),
    ("Bind: Broadsword (floating)", "Broadsword", "floating"),
    ("Bind: Broadsword (a banked CC)", "Broadsword", None),
])
def test_a_bind_line_names_the_item_and_what_is_sacrificed(line, item, paid):
    post = parse(f"{line}\n1 AP defend")
    assert post.ok, [str(p) for p in post.problems]
    [order] = post.to_case_orders()
    assert order["bind"] == [{"item": item, **({"sacrifice": paid} if paid else {})}]


def test_a_bind_line_without_an_item_says_how_to_write_one():
    post = parse("Bind:\n1 AP defend")
    [problem] = post.problems
    assert problem.line == 1 and "needs the item" in problem.message
    assert problem.expected.startswith("Bind: ITEM")


def test_bind_without_a_colon_is_still_the_tend_verb():
    post = parse("1 AP bind Mira\n", poster="Kael")
    [order] = post.to_case_orders()
    assert "bind" not in order and len(order["actions"]) == 1


def test_the_reply_says_the_binding_and_when_it_is_done():
    post = parse("Bind: Broadsword (sacrificing Stealth)\n1 AP defend")
    text = render_order(post.blocks[0].order)
    assert "Bind Broadsword (sacrificing 1 point: Stealth; done as the turn resolves)" in text

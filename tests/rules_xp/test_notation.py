"""The rulebook's short notation, read one way everywhere (`fappo-bot odds`, `/odds`, the GM's
`/xp` rolls): a pool and a level (X2, X3), and lists of rollers."""

from __future__ import annotations

import pytest

from fappo_bot.rules_xp.config import Who
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.notation import (
    MemberSpec,
    RollSpec,
    parse_members,
    parse_names,
    parse_roll,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("text", "spec"), [
    ("6d superior", RollSpec(6, 2)), ("6D6 Superior", RollSpec(6, 2)), ("4", RollSpec(4, 0)),
    ("5 -1", RollSpec(5, -1)), ("3d weak", RollSpec(3, -2)), ("2d +5", RollSpec(2, 5)),
    ("0d", RollSpec(0, 0)), (" 7d  dominant ", RollSpec(7, 3)),
])
def test_a_roll_is_a_pool_then_a_level(text, spec):
    assert parse_roll(text) == spec


@pytest.mark.parametrize(("text", "message"), [
    ("", "how many dice"), ("six", 'the pool "six" is not a number of dice'),
    ("6d mighty", "unknown superiority level"), ("201d", "above 200"),
    ("6d +40", "out of range"), ("Aster 6d superior", "not a roll"),
])
def test_a_bad_roll_is_one_sentence(text, message):
    with pytest.raises(XpError, match=message):
        parse_roll(text)


def test_rollers_are_a_name_a_pool_and_flags():
    assert parse_members("Aster 6d, Old Brin 4d superior npc; Cato 3 relaunch") == [
        MemberSpec("Aster", 6), MemberSpec("Old Brin", 4, 2, Who.NPC),
        MemberSpec("Cato", 3, 0, Who.PC, relaunch=True)]
    # the pool is the first number after the name's first word: "Aster 5 -1" is 5d at Poor
    assert parse_members("Aster 5 -1, Guard 2")[0] == MemberSpec("Aster", 5, -1)


@pytest.mark.parametrize(("text", "message"), [
    ("", "name the rollers"), ("6d", "not a roller"), ("Aster", "not a roller"),
    ("Aster 3d, aster 2d", "named twice"), ("Aster 3d fast", "unknown superiority level"),
])
def test_bad_rollers_are_refused(text, message):
    with pytest.raises(XpError, match=message):
        parse_members(text)


def test_task_names():
    assert parse_names(" sneak, climb the wall;open gate ,, ") == [
        "sneak", "climb the wall", "open gate"]

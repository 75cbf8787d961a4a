"""The rulesets' names (`service/rulesets/names.py`) and the registry (`known.py`): the same
rulesets in the same order, each port naming itself as its naming does, and what a record or
a payload that names none plays."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from fappo_bot.service.records import Game
from fappo_bot.service.rulesets import Feature
from fappo_bot.service.rulesets.known import KNOWN
from fappo_bot.service.rulesets.names import BY_NAME, NAMINGS, STORED_DEFAULT

pytestmark = pytest.mark.unit


def test_the_registry_and_the_names_list_the_same_rulesets_in_order():
    assert [ruleset.naming for ruleset in KNOWN.values()] == list(NAMINGS)
    assert list(KNOWN) == list(BY_NAME)


@pytest.mark.parametrize("name", list(KNOWN))
def test_each_port_is_named_by_its_naming(name):
    ruleset = KNOWN[name]
    naming = ruleset.naming
    assert (ruleset.name, ruleset.label) == (naming.name, naming.label) == (name, naming.label)
    # a turn's results say "dice pools" exactly when its rules roll them
    assert naming.dice_pools == ruleset.has(Feature.DICE_POOLS)
    assert naming.results_label == (naming.label if naming.dice_pools else "")


def test_a_game_stored_without_a_ruleset_plays_fappo():
    """The stored format's default, whatever the registry's order (an export of a game from
    before there were two rulesets)."""
    game = Game(id="g", channel_key="c", name="Old Road", created_at=datetime.now(UTC))
    assert game.ruleset == STORED_DEFAULT.name == "fappo"
    assert game.ruleset in KNOWN

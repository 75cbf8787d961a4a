"""`expect` against computed results (spec/cases.md): only listed fields, canonical names, maps
key by key, errors as exact sets, actions by actor and index, parse orders by actor."""

from __future__ import annotations

from typing import Any

import pytest

from fappo_bot.adjudication.compare import MISSING, Difference, compare

pytestmark = pytest.mark.unit

RESULT: dict[str, Any] = {
    "actions": [
        {"actor": "Kael", "index": 0, "total": 5, "difficulty": 4, "margin": 1, "level": "solid",
         "damage": 3, "specials": ["Bleeding", "Knockdown"], "eliminated": 0, "effective": True,
         "targets": []},
        {"actor": "Zara", "index": 0, "total": 7, "difficulty": 9, "margin": -2, "level": "bare",
         "damage": 0, "specials": [], "eliminated": 0, "effective": True,
         "targets": [{"name": "Goblin", "total": 6, "level": "great", "specials": ["Fire"]},
                     {"name": "Orc", "total": 6, "level": "solid", "specials": []}]},
    ],
    "characters": [
        {"name": "Ooze", "health": "Battered 1", "count": 1, "sp": {"Nimble": 2}, "floating": 1,
         "ap_next": 4, "status": ["prone", "bleeding"], "damage": 0},
        {"name": "Goblin 1", "health": "Wounded", "count": 1, "sp": {}, "floating": 0,
         "ap_next": 1, "status": [], "damage": 0},
    ],
    "errors": [{"actor": "Kael", "code": "ap-over-budget", "message": "too much"}],
}


def paths(diffs: list[Difference]) -> list[str]:
    return [d.path for d in diffs]


def test_only_listed_fields_are_compared() -> None:
    expect = {"actions": [{"actor": "kael", "index": 0, "level": "SOLID"}],
              "characters": [{"name": "ooze", "ap_next": 4}]}
    assert compare(expect, RESULT) == []


def test_empty_expect_passes() -> None:
    assert compare({}, RESULT) == []


def test_differences_name_the_field_expected_and_got() -> None:
    diffs = compare({"actions": [{"actor": "Kael", "index": 0, "total": 6, "damage": 3}]}, RESULT)
    assert diffs == [Difference("actions[Kael #0].total", 6, 5)]
    assert diffs[0].line() == "actions[Kael #0].total: expected 6, got 5"


def test_missing_action_and_character() -> None:
    diffs = compare({"actions": [{"actor": "Kael", "index": 1, "total": 3}],
                     "characters": [{"name": "Troll", "health": "Dead"}]}, RESULT)
    assert paths(diffs) == ["actions[Kael #1]", "characters[Troll]"]
    assert diffs[0].got is MISSING
    assert diffs[1].line() == "characters[Troll]: expected a character, got nothing"


@pytest.mark.parametrize(("written", "ok"), [("Battered", True), ("battered 1", True),
                                             ("Battered 2", False), ("Staggered", False)])
def test_f11_health_bare_master_name_means_slot_one(written: str, ok: bool) -> None:
    assert (compare({"characters": [{"name": "Ooze", "health": written}]}, RESULT) == []) is ok


def test_status_and_specials_are_sets() -> None:
    assert compare({"characters": [{"name": "Ooze", "status": ["Bleeding", "PRONE"]}]}, RESULT) == []
    diffs = compare({"characters": [{"name": "Ooze", "status": ["prone"]}]}, RESULT)
    assert paths(diffs) == ["characters[Ooze].status"]
    assert compare({"actions": [{"actor": "Kael", "index": 0,
                                 "specials": ["knockdown", "bleeding"]}]}, RESULT) == []
    assert compare({"actions": [{"actor": "Kael", "index": 0, "specials": []}]}, RESULT) != []


def test_sp_key_by_key_with_alternate_trait_names_and_floating() -> None:
    assert compare({"characters": [{"name": "Ooze", "sp": {"Agile": 2}}]}, RESULT) == []
    assert compare({"characters": [{"name": "Ooze", "sp": {"floating": 1}}]}, RESULT) == []
    diffs = compare({"characters": [{"name": "Ooze", "sp": {"Nimble": 1, "Brawny": 3}}]}, RESULT)
    assert [d.line() for d in diffs] == [
        "characters[Ooze].sp.Nimble: expected 1, got 2",
        "characters[Ooze].sp.Brawny: expected 3, got nothing",
    ]


def test_booleans_are_not_numbers() -> None:
    result = {"actions": [{"actor": "A", "index": 0, "effective": 1, "damage": True}]}
    assert len(compare({"actions": [{"actor": "A", "index": 0, "effective": True}]}, result)) == 1
    assert len(compare({"actions": [{"actor": "A", "index": 0, "damage": 1}]}, result)) == 1


def test_errors_are_an_exact_set_per_actor() -> None:
    assert compare({"errors": [{"actor": "kael", "code": "ap-over-budget"}]}, RESULT) == []
    [diff] = compare({"errors": []}, RESULT)
    assert diff.line() == "errors: expected [], got [Kael ap-over-budget]"
    [diff] = compare({"errors": [{"actor": "Kael", "code": "ap-over-budget"},
                                 {"actor": "Kael", "code": "sp-insufficient"}]}, RESULT)
    assert diff.path == "errors"
    assert compare({"errors": [{"actor": "Mira", "code": "ap-over-budget"}]}, RESULT) != []
    assert compare({"errors": []}, {"errors": []}) == []


def test_errors_by_line_for_posts() -> None:
    result = {"errors": [{"line": 2, "code": "unknown-name", "message": "no Gobbo"}]}
    assert compare({"errors": [{"line": 2, "code": "unknown-name"}]}, result) == []
    [diff] = compare({"errors": [{"line": 3, "code": "unknown-name"}]}, result)
    assert diff.line() == "errors: expected [line 3 unknown-name], got [line 2 unknown-name]"


def test_targets_matched_by_name() -> None:
    expect = {"actions": [{"actor": "Zara", "index": 0, "level": "bare",
                           "targets": [{"name": "orc", "level": "solid"},
                                       {"name": "Goblin", "specials": ["fire"], "total": 7}]}]}
    assert [d.line() for d in compare(expect, RESULT)] == [
        "actions[Zara #0].targets[Goblin].total: expected 7, got 6"]
    missing = {"actions": [{"actor": "Zara", "index": 0, "targets": [{"name": "Troll"}]}]}
    assert paths(compare(missing, RESULT)) == ["actions[Zara #0].targets[Troll]"]


def test_top_level_scalars() -> None:
    result = {"valid": False, "cost": 31, "unspent": 0, "warnings": [{"code": "over-budget"}]}
    assert compare({"valid": False, "cost": 31, "warnings": [{"code": "over-budget"}]}, result) == []
    assert paths(compare({"valid": True, "unspent": 1}, result)) == ["valid", "unspent"]
    assert compare({"check_level": "solid"}, {"check_level": None}) != []


PARSED = {"orders": [{
    "actor": "Kael",
    "actions": [{"kind": "attack", "ap": 2, "target": "Goblin 1", "weapon": "Broadsword",
                 "skill": "Swordfighting", "sp": {"Nimble": 1}, "if": "  Anything comes IN "},
                {"kind": "move", "ap": 0, "ranges": 1}],
    "guard": [{"against": "any", "sp": {"Tireless": 1}}],
    "reduce": [{"hit": "h1", "sp": {"Nimble": 2}, "why": "I twisted aside"}],
    "intent": "keep them busy", "ooc": "back Monday",
}], "errors": []}


def test_parse_orders_listed_fields_only() -> None:
    expect = {"orders": [{
        "actor": "kael",
        "actions": [{"kind": "attack", "ap": 2, "weapon": "broadsword", "sp": {"agile": 1},
                     "if": "anything comes in"},
                    {"kind": "move", "ranges": 1}],
        "guard": [{"against": "all", "sp": {"Tireless": 1}}],
        "reduce": [{"hit": "h1", "why": "I twisted aside"}],
        "ooc": "back Monday",
    }]}
    assert compare(expect, PARSED) == []


def test_parse_orders_differences() -> None:
    expect = {"orders": [{"actor": "Kael", "actions": [{"kind": "attack", "ap": 3}]}]}
    [diff] = compare(expect, PARSED)
    assert diff.path == "orders[Kael].actions" and diff.expected == "1 entries"
    expect = {"orders": [{"actor": "Kael", "actions": [{"kind": "attack", "claim": {"value": 1}},
                                                       {"kind": "move"}]}]}
    assert [d.line() for d in compare(expect, PARSED)] == [
        "orders[Kael].actions[0].claim: expected {value: 1}, got nothing"]
    assert paths(compare({"orders": []}, PARSED)) == ["orders[Kael]"]
    assert paths(compare({"orders": [{"actor": "Mira"}]}, PARSED)) == ["orders[Mira]", "orders[Kael]"]


def test_level_titles_are_accepted() -> None:
    assert compare({"actions": [{"actor": "Kael", "index": 0, "level": "Solid Success"}]},
                   RESULT) == []
    assert compare({"check_level": "Great Success"}, {"check_level": "great"}) == []


def test_parse_defaults_match_absent_fields() -> None:
    """A parsed order leaves out default values; `endure: false`, `sp: {}`, `accuracy: 0` match."""
    expect = {"orders": [{"actor": "Kael", "endure": False,
                          "actions": [{"kind": "attack", "accuracy": 0, "triggered": False},
                                      {"kind": "move", "claim": None}]}]}
    assert compare(expect, PARSED) == []
    expect = {"orders": [{"actor": "Kael", "endure": True}]}
    assert [d.line() for d in compare(expect, PARSED)] == [
        "orders[Kael].endure: expected true, got nothing"]

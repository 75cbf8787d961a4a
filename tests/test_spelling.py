"""`fappo_bot.spelling`: the one folding of names and the one nearest-name matcher behind every
"Did you mean" (posts, the review, settings, zones, `/help`, the table's commands)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fappo_bot.spelling import edit_distance, fold, nearest, nearest_lines

pytestmark = pytest.mark.unit


def test_a_name_folds_by_case_blanks_width_and_apostrophe() -> None:
    assert fold("  Kael   the  Bold ") == "kael the bold"
    assert fold("Ｋａｅｌ’s") == "kael's"
    assert fold("ﬁst") == "fist"


def test_the_edit_distance_counts_a_swap_as_one_and_stops_at_its_cap() -> None:
    assert edit_distance("token", "token") == 0
    assert edit_distance("tokne", "token") == 1
    assert edit_distance("bbo", "bob") == 1
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("a", "abcdefghijkl") == 8
    assert edit_distance("abc", "xyz", cap=2) == 2


@pytest.mark.parametrize(("written", "names", "meant"), [
    ("discrod", ["turns", "discord", "database"], "discord"),
    ("tokne", ["token", "guild_ids"], "token"),
    ("FAPPO_DATABASE_URL", ["FAPPO_DATABASE__URL", "FAPPO_LOG_LEVEL"], "FAPPO_DATABASE__URL"),
    ("setings", ["posting", "settings", "gm"], "settings"),
    ("resolv", ["review", "resolve", "reveal"], "resolve"),
    ("bbo", ["alice", "bob", "carol"], "bob"),
    ("Sword", ["Swordfighting", "Stealth"], "Swordfighting"),
])
def test_the_name_meant_comes_first_as_it_is_spelled(written: str, names: list[str],
                                                     meant: str) -> None:
    assert nearest(written, names, 1) == (meant,)


def test_a_name_far_from_all_is_no_suggestion_unless_always() -> None:
    names = ["reminders_minutes", "scheduler_interval_seconds"]
    assert nearest("whatever", names) == ()
    assert nearest("zzzz", ["gm", "settings"]) == ()
    assert nearest("whatever", names, always=True) == ("reminders_minutes",)


def test_ties_come_in_the_names_order_each_once_and_no_more_than_asked() -> None:
    assert nearest("Gob", ["Goblin 2", "goblin 1", "GOBLIN 1"]) == ("goblin 1", "Goblin 2")
    assert nearest("Gob", ["Goblin 2", "Goblin 1"], 1) == ("Goblin 1",)


def test_nothing_written_suggests_nothing_or_the_first_names() -> None:
    assert nearest("  ", ["Mira", "Kael"]) == ()
    assert nearest("", ["Mira", "Kael", "Skarg"], 2, always=True) == ("Kael", "Mira")


def test_the_nearest_lines_share_runs_of_text() -> None:
    seen = ["Mira waits", "Kael attacks the goblin with a sword", "Turn 2 opens"]
    assert nearest_lines("Kael attacks the goblin", seen)[0] == seen[1]
    assert nearest_lines("zzzz", seen) == []


def test_no_other_module_matches_names_its_own_way() -> None:
    """difflib (another measure of nearness) is imported by the matcher's module only."""
    package = Path(__file__).resolve().parents[1] / "fappo_bot"
    wrong = []
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if "difflib" in names and path.name != "spelling.py":
                wrong.append(str(path.relative_to(package)))
    assert not wrong, wrong


def _reference_distance(a: str, b: str) -> int:
    """Optimal string alignment distance, the whole table counted (what `edit_distance` must
    equal under its cap)."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def test_the_edit_distance_stops_early_yet_counts_as_the_whole_table_does() -> None:
    import random

    generator = random.Random(7)
    for _ in range(3000):
        a = "".join(generator.choice("abc") for _ in range(generator.randint(0, 10)))
        b = "".join(generator.choice("abc") for _ in range(generator.randint(0, 10)))
        cap = generator.randint(1, 9)
        assert edit_distance(a, b, cap) == min(_reference_distance(a, b), cap), (a, b, cap)

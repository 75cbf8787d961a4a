"""Nothing of FAPPO's rules leaks into Xp play: the Xp post language, the Xp sheet and
the service's Xp turn modules import nothing of `fappo_bot.rules` but the problem codes that the
shared `Problem` carries; and the FAPPO rules and post language import nothing of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
PACKAGE = Path(__file__).resolve().parents[2] / "fappo_bot"
XP_MODULES = [*sorted((PACKAGE / "posting_xp").glob("*.py")), PACKAGE / "sheets" / "xp.py",
              PACKAGE / "service" / "xp_play.py", PACKAGE / "service" / "xp_review.py",
              PACKAGE / "service" / "xp_resolve.py"]
ALLOWED = {"ErrorCode"}


def _imports(path: Path) -> list[tuple[str, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.extend((node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend((alias.name, "") for alias in node.names)
    return found


@pytest.mark.parametrize("path", XP_MODULES, ids=lambda p: p.name)
def test_xp_play_takes_only_the_problem_codes_of_fappos_rules(path: Path) -> None:
    taken = [(module, name) for module, name in _imports(path)
             if module == "fappo_bot.rules" or module.startswith("fappo_bot.rules.")]
    assert all(module == "fappo_bot.rules" and name in ALLOWED for module, name in taken), taken


@pytest.mark.parametrize("package", ["rules", "posting"])
def test_fappos_rules_and_posts_know_nothing_of_xp_play(package: str) -> None:
    for path in (PACKAGE / package).rglob("*.py"):
        for module, _ in _imports(path):
            assert not module.startswith(("fappo_bot.posting_xp", "fappo_bot.sheets.xp",
                                          "fappo_bot.rules_xp")), (path, module)

"""docs/architecture.md stays true: every RULINGS section F0-F30 has a row, and every module it
names exists, so a newcomer can find any rule from its section number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_fappo_section_has_a_row() -> None:
    rows = set(re.findall(r"^\| (F\d+) \|", ARCHITECTURE, flags=re.MULTILINE))
    assert rows == {f"F{n}" for n in range(31)}


def test_every_xp_section_has_a_row() -> None:
    """RULINGS Part B: X0-X18 each have a row in the Xp table."""
    rows = set(re.findall(r"^\| (X\d+) \|", ARCHITECTURE, flags=re.MULTILINE))
    assert rows == {f"X{n}" for n in range(19)}


def test_every_named_module_exists() -> None:
    named = set(re.findall(r"`((?:rules|rules_xp|posting|service|storage|console|adjudication)/[\w/]+\.py)", ARCHITECTURE))
    assert named, "the map names no module"
    missing = sorted(path for path in named if not (ROOT / "fappo_bot" / path).exists())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_every_named_function_exists() -> None:
    """`module.py` (`name`, ...) rows: each name is defined in that module."""
    for path, names in re.findall(r"`((?:rules|rules_xp|posting|service)/\w+\.py)` \(([^)]*)\)", ARCHITECTURE):
        source = (ROOT / "fappo_bot" / path).read_text(encoding="utf-8")
        for name in re.findall(r"`(\w+)`", names):
            assert re.search(rf"^(?:def|class|async def) {name}\b|^{name}\b", source, re.MULTILINE), (
                f"{name} is not defined in {path}"
            )

"""Dependencies point inward (STYLE.md): the rules core and the post parser stay pure, and the
service layer knows nothing of Discord or SQLAlchemy.

Each check imports every module of a package in a fresh interpreter and looks at what got loaded,
so an indirect import (through a helper module) is caught too.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.unit

_PROBE = """
import importlib, json, pkgutil, sys
package = importlib.import_module({package!r})
for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(info.name)
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}})))
"""

IO_AND_ADAPTERS = {"discord", "sqlalchemy", "aiohttp", "asyncpg", "aiosqlite", "alembic"}


def loaded_top_level_modules(package: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(package=package)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


def loaded_fappo_modules(package: str) -> set[str]:
    probe = _PROBE.replace(
        'name.split(".")[0] for name in sys.modules',
        'name for name in sys.modules if name.startswith("fappo_bot.")',
    )
    out = subprocess.run(
        [sys.executable, "-c", probe.format(package=package)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return set(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize("package", ["fappo_bot.rules", "fappo_bot.posting", "fappo_bot.rules_xp"])
def test_core_packages_import_no_io_no_asyncio(package: str) -> None:
    loaded = loaded_top_level_modules(package)
    assert not (loaded & (IO_AND_ADAPTERS | {"asyncio"})), loaded & (IO_AND_ADAPTERS | {"asyncio"})


@pytest.mark.parametrize("package", ["fappo_bot.rules", "fappo_bot.posting", "fappo_bot.rules_xp"])
def test_core_packages_import_no_outer_layer(package: str) -> None:
    outer = ("fappo_bot.service", "fappo_bot.storage", "fappo_bot.discord", "fappo_bot.console")
    loaded = loaded_fappo_modules(package)
    assert not [m for m in loaded if m.startswith(outer)]


def test_service_layer_knows_nothing_of_discord_or_sqlalchemy() -> None:
    loaded = loaded_top_level_modules("fappo_bot.service")
    assert not (loaded & IO_AND_ADAPTERS), loaded & IO_AND_ADAPTERS
    fappo = loaded_fappo_modules("fappo_bot.service")
    assert not [m for m in fappo if m.startswith(("fappo_bot.storage", "fappo_bot.discord"))]


def test_building_the_cli_loads_no_adapter() -> None:
    """`fappo-bot adjudicate` must stay cheap: building the argument parser imports no adapter."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, json; from fappo_bot.cli import build_parser; build_parser(); "
            "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules})))",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert not (loaded & {"discord", "sqlalchemy", "alembic", "rich"}), loaded


def test_the_two_rulesets_do_not_leak_into_each_other() -> None:
    """Nothing of FAPPO's rules loads with the Xp rules, nor the other way round (issue 13)."""
    assert not [m for m in loaded_fappo_modules("fappo_bot.rules_xp")
                if m.startswith("fappo_bot.rules.") or m == "fappo_bot.rules"]
    assert not [m for m in loaded_fappo_modules("fappo_bot.rules")
                if m.startswith("fappo_bot.rules_xp")]


def test_xp_rules_have_no_clock_and_no_generator_of_their_own() -> None:
    """STYLE.md 8: the Xp rules take their dice from the caller. No module of `rules_xp` imports
    a clock, and none calls the `random` module itself (a `random.Random` is only passed in)."""
    import re
    from pathlib import Path

    package = Path(__file__).parents[1] / "fappo_bot" / "rules_xp"
    for path in sorted(package.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(?:import|from)\s+(?:time|datetime|secrets)\b", source,
                             re.MULTILINE), path.name
        calls = set(re.findall(r"\brandom\.(\w+)", source))
        assert calls <= {"Random"}, (path.name, calls)

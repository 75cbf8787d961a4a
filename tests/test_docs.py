"""The documents stay true for someone who clones the repository alone.

- docs/architecture.md: every RULINGS section F0-F30 has a row, and every module it names exists,
  so a newcomer can find any rule from its section number.
- README.md and docs/*.md: every link, path and section they name is in the repository, none
  sends the reader to the shared rulings folder but the README's section on it, and that section
  names every test that needs the folder.
- docs/cases.md's whole cases pass; docs/gm.md explains every rules flag."""

from __future__ import annotations

import fnmatch
import os
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


# --- Links: the README and docs/ point only inside the repository -------------------------------
#
# A clone has no shared rulings folder beside it (README, "Checks that need the shared rulings
# folder"), so no document may send its reader there, or to a file or section that is not here.
# Three kinds of reference are checked: Markdown links (with their #anchors), the repository paths
# written in backticks (`docs/gm.md`, `examples/*.yaml`, `rules/health.py`), and section
# references (`docs/gm.md`, "Settings"). The one outside document that may be named is the
# rulings document, RULINGS.md, cited by its section numbers (F8, X7); the shared folder's own
# paths may appear only in the README's section that says which checks need it.

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHARED_SECTION = "Checks that need the shared rulings folder"
#: Made by the program, a user or the wheel build, not in a checkout: not looked up.
CREATED = (".venv/", "data/", "config.toml", "/tmp/", "/data", "my-game.txt", "warren.json",
           "odds.txt", "fappo_bot/resources/")
#: Top-level entries and packages a backticked path may start with (else it is not a path).
PATH_START = re.compile(
    r"^(?:\.\./|\./)?(?:docs|examples|tests|fappo_bot|scripts|benchmarks|migrations|\.ci|spec|"
    r"cases|cases-xp|shared|adjudication|console|discord|posting|posting_xp|rules|rules_xp|"
    r"service|sheets|storage)(?:/|$)")
OUTSIDE = re.compile(r"\.\./shared|\bspec/[\w-]+\.md|\bSTYLE\.md|\bcases-xp/|(?<![\w/])cases/")


def _prose(text: str, code: bool = False) -> list[tuple[int, str, str]]:
    """(line number, line, the heading it is under) of every line outside fenced code blocks, or
    inside them too with `code`."""
    lines, fenced, heading = [], False, ""
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if code and fenced:
            lines.append((number, line, heading))
        elif not fenced:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            lines.append((number, line, heading))
    return lines


def _headings(path: Path) -> list[str]:
    return [line.lstrip("#").strip() for _, line, _ in _prose(path.read_text(encoding="utf-8"))
            if line.startswith("#")]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _where(path: Path, number: int) -> str:
    return f"{path.relative_to(ROOT)}:{number}"


def _repository() -> list[str]:
    """Every file and folder of the checkout, as paths from its root (what a clone holds: not the
    virtual environment, the database or the caches)."""
    skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
            ".hypothesis"}
    found = []
    for folder, folders, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT)
        folders[:] = [f for f in folders if f not in skip and not f.endswith(".egg-info")
                      and (here, f) != (Path("."), "data")]
        found += [(here / name).as_posix() for name in (*folders, *files)]
    return found


REPOSITORY = _repository()


def _exists(reference: str) -> bool:
    """A path or glob of the repository, from its root (`./scripts/play`) or at any depth
    (`xp.py` and `grammar/lines.py` in a package's row). Capitals stand for any text
    (`tests/rules/test_fNN_*.py`)."""
    if reference.startswith("../"):
        return False
    pattern = re.sub(r"[A-Z]{2,}", "*", reference.removeprefix("./").rstrip("/"))
    if reference.startswith("./"):
        return any(fnmatch.fnmatchcase(path, pattern) for path in REPOSITORY)
    return any(fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(path, "*/" + pattern)
               for path in REPOSITORY)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_no_document_points_outside_the_repository(document: Path) -> None:
    """`../shared/...`, `spec/posting.md` and the like are not in a clone: only the README's
    section on the shared folder names them (commands in code blocks included: run in a clone,
    they would fail)."""
    outside = [f"{_where(document, n)}: {line.strip()}"
               for n, line, heading in _prose(document.read_text(encoding="utf-8"), code=True)
               if OUTSIDE.search(line) and not (document.name == "README.md"
                                                and heading == SHARED_SECTION)]
    assert not outside, "\n".join(outside)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_link_and_path_of_a_document_exists(document: Path) -> None:
    missing = []
    for number, line, heading in _prose(document.read_text(encoding="utf-8")):
        for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line)):  # links
            if re.match(r"[a-z]+:", target):
                continue  # a URL
            file, _, anchor = target.partition("#")
            path = (document.parent / file).resolve() if file else document
            if not path.is_relative_to(ROOT) or not path.exists():
                missing.append(f"{_where(document, number)}: {target}")
            elif anchor and anchor not in {_slug(h) for h in _headings(path)}:
                missing.append(f"{_where(document, number)}: {target} (no such section)")
        if document.name == "README.md" and heading == SHARED_SECTION:
            continue  # names the shared folder's files
        for code in re.findall(r"`([^`\n]+)`", line):  # paths in backticks, in commands too
            for word in code.split():
                word = word.strip("\"'(),;[]")
                if word.startswith(CREATED) or "=" in word or "..." in word:
                    continue
                is_path = PATH_START.match(word) or re.fullmatch(r"[\w./*-]+\.(?:md|ya?ml|py|txt|toml)", word)
                if is_path and word != "RULINGS.md" and not _exists(word):
                    missing.append(f"{_where(document, number)}: {word}")
    assert not missing, "\n".join(missing)


SECTION_REFERENCE = re.compile(r"`?((?:docs/)?[\w-]+\.md|README)`?,? \"([^\"]+)\"")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_section_a_document_names_exists(document: Path) -> None:
    """`docs/gm.md`, "Settings" and README, "Tests" name a heading of that document."""
    missing = []
    for number, line, _ in _prose(document.read_text(encoding="utf-8")):
        for name, section in SECTION_REFERENCE.findall(line):
            target = ROOT / "README.md" if name.startswith("README") else (
                ROOT / name if name.startswith("docs/") else ROOT / "docs" / name)
            if not target.exists():
                missing.append(f"{_where(document, number)}: {name}")
            elif not any(h.startswith(section) for h in _headings(target)):
                missing.append(f"{_where(document, number)}: {name}, \"{section}\"")
    assert not missing, "\n".join(missing)


def test_the_readme_names_every_test_that_needs_the_shared_folder() -> None:
    """A test module that reads the shared folder (through tests/shared_folder.py) is listed in
    the README's section on it, so a clone's reader knows exactly what its skips leave out."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(f"## {SHARED_SECTION}", 1)[1].split("\n## ", 1)[0]
    readers = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").rglob("*.py")
                     if re.search(r"^from tests\.shared_folder import", path.read_text(
                         encoding="utf-8"), flags=re.MULTILINE))
    assert readers, "no test reads the shared folder: the README's section has nothing to list"
    unnamed = [path for path in readers if Path(path).name not in section]
    assert not unnamed, f"README.md, {SHARED_SECTION!r}, does not name {unnamed}"


def test_the_whole_cases_of_the_case_guide_pass(tmp_path: Path) -> None:
    """docs/cases.md: each example that is a whole case (a YAML block starting `- id:`) passes."""
    from casefiles import assert_case_passes

    from fappo_bot.adjudication.loader import load_case_file

    guide = (ROOT / "docs" / "cases.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"^```yaml\n(.*?)^```", guide, flags=re.MULTILINE | re.DOTALL)
              if b.startswith("- id:")]
    assert blocks, "docs/cases.md shows no whole case"
    path = tmp_path / "guide.yaml"
    path.write_text("cases:\n" + "".join(blocks), encoding="utf-8")
    cases = load_case_file(path)
    assert len(cases) == len(blocks)
    for case in cases:
        assert_case_passes(path, case)


def test_the_gms_guide_explains_every_rules_flag() -> None:
    """docs/gm.md, "Rules flags": a row for every flag a GM can set (`/settings` lists them)."""
    from dataclasses import fields

    from fappo_bot.rules.config import RulesConfig

    guide = (ROOT / "docs" / "gm.md").read_text(encoding="utf-8")
    table = guide.split("### Rules flags", 1)[1].split("\n## ", 1)[0]
    rows = {name for row in re.findall(r"^\| (`[^|]+) \|", table, flags=re.MULTILINE)
            for name in re.findall(r"`(\w+)`", row)}
    assert rows == {f.name for f in fields(RulesConfig)}


# --- The GM's guide maps every Discord command to the table's ----------------------------------
def discord_command_names() -> set[str]:
    """Every slash command of the bot as Discord lists it (`game create`, `xp plot open`,
    `help`), read from the command tree the bot publishes (`discord/commands/add_commands`)."""
    import asyncio
    from types import SimpleNamespace

    from discord import app_commands

    from fappo_bot.discord.commands import add_commands

    added: list[app_commands.Command | app_commands.Group] = []
    bot = SimpleNamespace(services=None, tree=SimpleNamespace(add_command=added.append),
                          add_dynamic_items=lambda *items: None)
    asyncio.run(add_commands(bot))  # type: ignore[arg-type]
    names = set()
    for command in added:
        if isinstance(command, app_commands.Group):
            names |= {c.qualified_name for c in command.walk_commands()
                      if isinstance(c, app_commands.Command)}
        else:
            names.add(command.name)
    return names


def test_the_gms_guide_maps_every_discord_command_to_the_tables() -> None:
    """docs/gm.md, "The commands: Discord and the table": each command of the real tree is in
    the Discord column of a row (`/turn open`, `/xp plot show`...), and each row names a table
    command or says it is not at the table."""
    guide = (ROOT / "docs" / "gm.md").read_text(encoding="utf-8")
    section = guide.split("## The commands: Discord and the table", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| `/")]
    discord_cells = " ".join(row[0] for row in rows)
    named = set(re.findall(r"`/([a-z_ ]+?)(?=[ `](?:[a-z_]+:|\[|`))", discord_cells + " "))
    named |= set(re.findall(r"`/([a-z ]+)`", discord_cells))
    tree = discord_command_names()
    assert tree, "the bot's command tree is empty"
    missing = sorted(name for name in tree if name not in named)
    assert not missing, f"docs/gm.md maps no table command to these Discord commands: {missing}"
    for row in rows:
        assert len(row) == 3 and ("`/" in row[1] or "not at the table" in row[1]
                                  or "seat" in row[1]), row

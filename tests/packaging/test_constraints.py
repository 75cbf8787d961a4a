"""One truth for the versions: pyproject.toml says which versions can work, constraints.txt pins
the exact ones every install uses (./scripts/setup, so CI, and the Dockerfile), so a new release
of a dependency changes nothing until constraints.txt is moved on purpose."""

from __future__ import annotations

import operator
import re
import tomllib
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]

# (this folder is the package `packaging` of the tests: the library of that name is hidden, so
# what it would do for these simple requirements is done here)
_REQUIREMENT = re.compile(r"\s*([A-Za-z0-9._-]+)\s*(?:\[([^\]]*)\])?\s*([^;]*)(?:;(.*))?$")
_OPERATORS = {">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
              ">": operator.gt, "<": operator.lt}


class Requirement(NamedTuple):
    name: str
    extras: frozenset[str]
    specifiers: tuple[tuple[str, str], ...]
    marker: str

    @classmethod
    def parse(cls, text: str) -> Requirement:
        match = _REQUIREMENT.match(text)
        assert match, text
        name, extras, specifiers, marker = match.groups()
        found = []
        for part in specifiers.replace("(", "").replace(")", "").split(","):
            if part.strip():
                op = re.match(r"\s*(~=|>=|<=|==|!=|>|<)\s*(\S+)", part)
                assert op, f"{text}: {part!r}"
                found.append((op.group(1), op.group(2)))
        return cls(name, frozenset(e.strip() for e in (extras or "").split(",") if e.strip()),
                   tuple(found), (marker or "").strip())

    def allows(self, version: str) -> bool:
        for op, wanted in self.specifiers:
            if op == "~=":
                prefix = _release(wanted)[:-1]
                if not (_release(version) >= _release(wanted)
                        and _release(version)[:len(prefix)] == prefix):
                    return False
            elif not _OPERATORS[op](_release(version), _release(wanted)):
                return False
        return True


def _release(version: str) -> tuple[int, ...]:
    numbers = tuple(int(n) for n in re.findall(r"\d+", version.split("+")[0]))
    return numbers + (0,) * (6 - len(numbers))


def canonicalize_name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep and version, f"constraints.txt: {line!r} is not an exact pin (name==version)"
            found[canonicalize_name(name)] = version
    return found


def requirements(extras: tuple[str, ...] = ("dev",)) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = list(project["dependencies"])
    for extra in extras:
        listed += project["optional-dependencies"][extra]
    return [Requirement.parse(r) for r in listed]


def test_every_requirement_is_pinned_within_what_pyproject_allows():
    pinned = pins()
    assert "fappo-bot" not in pinned  # the project itself is installed from its source
    for requirement in requirements():
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.allows(pinned[name]), (
            f"constraints.txt pins {requirement.name}=={pinned[name]}, outside pyproject.toml's "
            f"{requirement.specifiers}")


def test_what_the_requirements_pull_in_is_pinned_too():
    # walk the installed requirements' own requirements: a dependency of a dependency left out
    # of constraints.txt would come at whatever version is newest
    pinned, seen = pins(), set()
    todo = requirements()
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        seen.add(name)
        assert name in pinned, f"{requirement.name} (needed) is not pinned in constraints.txt"
        for text in metadata.distribution(requirement.name).requires or ():
            needed = Requirement.parse(text)
            wanted = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", needed.marker)
            if wanted and wanted.group(1) not in requirement.extras:
                continue  # an extra nobody asked for
            try:
                metadata.distribution(needed.name)
            except metadata.PackageNotFoundError:
                continue  # not for this platform or Python (its marker)
            todo.append(needed)


def test_setup_installs_from_the_constraints_and_reinstalls_when_they_change():
    setup = (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    assert "pip install --quiet -c constraints.txt -e '.[dev]'" in setup
    stamp = next(line for line in setup.splitlines() if line.startswith("want="))
    assert "pyproject.toml" in stamp and "constraints.txt" in stamp


def test_the_image_installs_from_the_constraints():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    install = next(line for line in dockerfile.splitlines() if "pip install" in line)
    assert "-c " in install and "constraints.txt" in install
    assert any(line.startswith("COPY") and "constraints.txt" in line
               for line in dockerfile.splitlines())

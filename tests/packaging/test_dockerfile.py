"""The Dockerfile's build stage copies everything the wheel is built from: the wheel is built here
from exactly what its COPY lines bring (no Docker needed), so a resource added to pyproject.toml's
force-include but not to the Dockerfile fails here, not in the image build."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def build_stage_copies() -> list[tuple[list[str], str]]:
    """(sources, destination) of each COPY of the first stage, the one that builds the wheel."""
    lines = (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()
    stages = [i for i, line in enumerate(lines) if line.startswith("FROM ")]
    copies = []
    for line in lines[stages[0]:stages[1]]:
        if line.startswith("COPY ") and "--from" not in line:
            *sources, destination = line.split()[1:]
            copies.append((sources, destination))
    return copies


def test_the_build_stage_copies_what_the_wheel_is_built_from(tmp_path: Path) -> None:
    context = tmp_path / "src"
    context.mkdir()
    copies = build_stage_copies()
    assert copies, "the Dockerfile's build stage copies nothing"
    for sources, destination in copies:
        for source in sources:
            origin = ROOT / source
            target = context / destination / origin.name if destination.endswith("/") \
                else context / destination
            if origin.is_dir():
                shutil.copytree(origin, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(origin, target)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path),
         str(context)], capture_output=True, text=True, timeout=300)
    if "No matching distribution found for hatchling" in built.stderr:
        pytest.skip("cannot fetch the build backend (hatchling) here")
    assert built.returncode == 0, built.stderr[-1500:]
    [wheel] = tmp_path.glob("fappo_bot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    included = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    for inside in included.values():
        assert any(name.startswith(inside + "/") for name in names), inside
    # and the licence (pyproject.toml's MIT, the LICENSE file hatchling finds beside it)
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names), names[-5:]

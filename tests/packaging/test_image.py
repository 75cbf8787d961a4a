"""The Docker image's parts that can be checked without Docker: its build context
(.dockerignore), its pinned base, its labels, the licence, and the entry point's check of the
data folder, run here as the image's user would run it."""

from __future__ import annotations

import fnmatch
import os
import shutil
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "docker" / "entrypoint.sh"
IMAGE_UID = 10001


def dockerfile_lines() -> list[str]:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines()


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves `path` out of the build context: the last pattern matching it or
    a folder above it decides (a `!` pattern takes it back)."""
    parts = path.split("/")
    verdict = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        pattern = pattern.lstrip("!")
        for depth in range(1, len(parts) + 1):
            prefix = "/".join(parts[:depth])
            if fnmatch.fnmatchcase(prefix, pattern) or (
                    pattern.startswith("**/")
                    and fnmatch.fnmatchcase(parts[depth - 1], pattern[3:])):
                verdict = not keep
                break
    return verdict


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_the_build_context_is_what_the_dockerfile_copies():
    patterns = dockerignore()
    for big in (".venv", ".git", "tests", "benchmarks", "data", "fappo_bot/__pycache__/x.pyc"):
        assert ignored(big, patterns), f"{big} is sent to the Docker build"
    copied = []
    for line in dockerfile_lines():
        if line.startswith("COPY ") and "--from" not in line:
            copied += line.split()[1:-1]
    assert "constraints.txt" in copied and "docker/entrypoint.sh" in copied
    for source in copied:
        assert (ROOT / source).exists(), source
        inside = source + "/__init__.py" if source == "fappo_bot" else source
        assert not ignored(inside, patterns), f"{source} is copied but .dockerignore leaves it out"


def test_the_base_image_is_pinned_to_a_python_and_a_debian_release():
    [base] = [line for line in dockerfile_lines() if line.startswith("ARG BASE=")]
    image = base.split("=", 1)[1]
    name, _, tag = image.partition(":")
    version, _, variant = tag.partition("-")
    assert name == "python" and version.count(".") == 2 and version.startswith("3.11."), image
    assert variant.startswith("slim-") and variant != "slim-", f"{image}: no Debian release"
    froms = [line for line in dockerfile_lines() if line.startswith("FROM ")]
    assert froms and all(line.split()[1] == "${BASE}" for line in froms), froms


def test_the_labels_say_the_version_and_licence_of_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = "\n".join(dockerfile_lines())
    assert f"ARG VERSION={project['version']}" in text
    assert 'org.opencontainers.image.version="${VERSION}"' in text
    assert f'org.opencontainers.image.licenses="{project["license"]["text"]}"' in text
    assert "org.opencontainers.image.title=" in text
    # an ARG before the first FROM is unset inside a stage until the stage declares it again
    final = text[text.rindex("\nFROM "):]
    assert "\nARG BASE\n" in final and 'org.opencontainers.image.base.name="${BASE}"' in final


def test_the_licence_pyproject_names_is_there():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"]["text"] == "MIT"
    assert licence.startswith("MIT License") and "Copyright (c)" in licence


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """A folder the image's user can reach (pytest's own is its user's only)."""
    folder = Path(tempfile.mkdtemp(prefix="fappo-image-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_entrypoint(tmp_path: Path, data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The entry point as the image's user (uid 10001: dropped to it when the tests run as
    root), with a `fappo-bot` on the PATH that says what it was given."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "fappo-bot").write_text('#!/bin/sh\necho "fappo-bot $*"\n')
    (bin_dir / "fappo-bot").chmod(0o755)
    bin_dir.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "FAPPO_DATA_DIR": str(data)}
    command = ["sh", str(ENTRYPOINT), *args]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot act as uid 10001")
        command = ["setpriv", f"--reuid={IMAGE_UID}", f"--regid={IMAGE_UID}", "--clear-groups",
                   *command]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=30,
                          cwd=tmp_path)


def host_folder(tmp_path: Path, name: str, writable: bool) -> Path:
    """A bind-mounted host folder: the image's user may write it, or it belongs to someone
    else (root on the host) and only reads."""
    folder = tmp_path / name
    folder.mkdir()
    if writable:
        if os.geteuid() == 0:
            os.chown(folder, IMAGE_UID, IMAGE_UID)
        else:
            folder.chmod(0o755)
    else:
        folder.chmod(0o555)
    return folder


def test_a_data_folder_the_image_user_cannot_write_is_one_sentence_with_the_fix(tmp_path):
    data = host_folder(tmp_path, "data", writable=False)
    done = run_entrypoint(tmp_path, data, "run")
    assert done.returncode == 1
    uid = IMAGE_UID if os.geteuid() == 0 else os.geteuid()
    assert done.stderr == (f"fappo-bot: the data folder {data} must be writable by uid {uid} "
                           f"(chown {uid} on the host folder mounted there, or use a named volume).\n")
    assert done.stdout == ""  # the bot never started
    assert list(data.iterdir()) == []


def test_a_writable_data_folder_runs_the_command_with_its_arguments(tmp_path):
    data = host_folder(tmp_path, "data", writable=True)
    done = run_entrypoint(tmp_path, data, "play", "--seat", "GM")
    assert (done.returncode, done.stdout, done.stderr) == (0, "fappo-bot play --seat GM\n", "")
    assert list(data.iterdir()) == []  # the check leaves nothing behind
    default = run_entrypoint(tmp_path, data)
    assert default.stdout == "fappo-bot \n"  # no arguments: the image's CMD gives `run`


def test_the_tools_that_write_nothing_there_run_whatever_the_folder(tmp_path):
    data = host_folder(tmp_path, "data", writable=False)
    done = run_entrypoint(tmp_path, data, "adjudicate", "cases.txt")
    assert (done.returncode, done.stdout) == (0, "fappo-bot adjudicate cases.txt\n")

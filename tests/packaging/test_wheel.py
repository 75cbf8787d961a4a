"""The wheel carries what the program needs at run time: installed into a fresh virtual
environment, `fappo-bot play`, `migrate` and `run` work from any directory."""

from __future__ import annotations

import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fappo_bot.discord.startup import NO_TOKEN

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed (its dependencies borrowed from this one's
    site-packages through a .pth file, so the test needs no download of them)."""
    work = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(work),
         str(ROOT)], capture_output=True, text=True, timeout=300)
    if built.returncode != 0:
        pytest.skip(f"cannot build the wheel here (no build backend?): {built.stderr[-300:]}")
    [wheel] = work.glob("fappo_bot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "fappo_bot/resources/migrations/env.py" in names
    assert "fappo_bot/resources/examples/adventure/adventure.txt" in names
    assert "fappo_bot/resources/examples/xp-adventure/adventure.txt" in names
    assert "fappo_bot/resources/examples/xp-adventure/nefer.yaml" in names
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    [venv_site] = venv.glob("lib/python*/site-packages")
    (venv_site / "borrowed-dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n")
    # install the wheel by unpacking it, as pip would (no network, no pip in the new venv)
    zipfile.ZipFile(wheel).extractall(venv_site)
    scripts = venv / "bin"
    (scripts / "fappo-bot").write_text(
        f"#!{venv / 'bin' / 'python'}\nimport sys\nfrom fappo_bot.cli import main\n"
        "sys.exit(main())\n")
    (scripts / "fappo-bot").chmod(0o755)
    return venv


def run(venv: Path, cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("FAPPO_") and k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["FAPPO_DATA_DIR"] = str(cwd / "data")
    return subprocess.run([str(venv / "bin" / "fappo-bot"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120, input=stdin)


def test_the_installed_wheel_runs_from_any_directory(installed: Path, tmp_path: Path) -> None:
    where = run(installed, tmp_path, "play", "--help")
    assert where.returncode == 0 and "--example" in where.stdout
    probe = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "import fappo_bot; print(fappo_bot.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True)
    assert str(installed) in probe.stdout  # the wheel's copy, not the checkout's

    migrated = run(installed, tmp_path, "migrate")
    assert migrated.returncode == 0, migrated.stderr
    assert "upgraded" in migrated.stdout
    assert (tmp_path / "data" / "fappo.sqlite3").exists()

    played = run(installed, tmp_path, "play", "--script",
                 str(installed.glob("lib/python*/site-packages").__next__()
                     / "fappo_bot/resources/examples/adventure/adventure.txt"), "--no-color")
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]

    # the Xp example adventure, from the wheel's copy, then the prompt (left at once)
    xp = run(installed, tmp_path, "play", "--example", "xp-adventure", "--no-color",
             stdin="/quit\n")
    assert xp.returncode == 0, xp.stdout[-2000:] + xp.stderr[-2000:]
    assert "Turn 1 results (Xp)" in xp.stdout and "assertions passed" in xp.stdout

    started = run(installed, tmp_path, "run")
    assert started.returncode == 2
    assert started.stderr.strip() == f"fappo-bot run: {NO_TOKEN}"


def test_the_installed_wheel_checks_case_files_from_any_directory(installed: Path,
                                                                   tmp_path: Path) -> None:
    """`fappo-bot --help` and `adjudicate` (FAPPO and Xp cases, the YAML read by the installed
    PyYAML) work from a directory with no checkout in it."""
    helped = run(installed, tmp_path, "--help")
    assert helped.returncode == 0 and "adjudicate" in helped.stdout
    cases = [str(ROOT / "examples" / "skirmish.yaml"),
             str(ROOT / "tests" / "cases" / "x00-x05-rolls.yaml")]
    checked = run(installed, tmp_path, "adjudicate", *cases)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    assert checked.stdout.rstrip().endswith(" passed, 0 failed")
    assert "PASS example-skirmish-at-the-ford" in checked.stdout

"""`fappo-bot migrate`: upgrades the configured database, idempotently, and `--check` reports."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


def _migrate(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FAPPO_DATA_DIR": str(tmp_path / "data")}
    env.pop("FAPPO_DATABASE__URL", None)
    return subprocess.run(
        [sys.executable, "-m", "fappo_bot.cli", "migrate", *args],
        cwd=tmp_path, env=env | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120,
    )


def test_migrate_upgrades_then_reports_the_newest_schema(tmp_path):
    from fappo_bot.storage.migrate import head_revision

    behind = _migrate(tmp_path, "--check")
    assert behind.returncode == 1 and "base (empty)" in behind.stdout
    first = _migrate(tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"upgraded from base (empty) to {head_revision()}" in first.stdout
    assert (tmp_path / "data" / "fappo.sqlite3").exists()
    again = _migrate(tmp_path)
    assert again.returncode == 0 and "already at the newest schema" in again.stdout
    check = _migrate(tmp_path, "--check")
    assert check.returncode == 0 and f"newest is {head_revision()}" in check.stdout


def test_migrate_says_what_is_wrong_with_a_bad_url(tmp_path):
    result = _migrate(tmp_path, "--url", "mysql://nobody@nowhere/x")
    assert result.returncode == 2
    assert "names 'mysql', which FAPPO Bot cannot use" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_migrate_subcommand_imports_sqlalchemy_only_when_it_runs():
    code = (
        "import sys, argparse, fappo_bot.storage.command as c; "
        "c.add_arguments(argparse.ArgumentParser()); "
        "print(any(m.startswith(('sqlalchemy', 'alembic')) for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_the_migration_scripts_are_found_from_an_installed_package(tmp_path, monkeypatch):
    """The Docker image installs the package and keeps migrations/ in its working directory."""
    from fappo_bot.storage import migrate

    monkeypatch.setattr(migrate, "MIGRATIONS_DIR", tmp_path / "site-packages" / "migrations")
    monkeypatch.delenv("FAPPO_MIGRATIONS_DIR", raising=False)
    monkeypatch.chdir(ROOT)
    assert migrate.migrations_dir() == ROOT / "migrations"
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="FAPPO_MIGRATIONS_DIR"):
        migrate.migrations_dir()
    monkeypatch.setenv("FAPPO_MIGRATIONS_DIR", str(ROOT / "migrations"))
    assert migrate.migrations_dir() == ROOT / "migrations"
    assert migrate.head_revision()

"""The shared rulings folder beside the repository (`../shared`): RULINGS.md, its public cases
and the specs they follow. It is not part of this repository: a clone without it runs every other
check, and the tests that need it skip with `MISSING` as their reason (README, "Checks that need
the shared rulings folder"). `FAPPO_SHARED` points elsewhere."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("FAPPO_SHARED") or ROOT.parent / "shared")
PUBLIC_CASES = SHARED / "cases"

MISSING = (f"needs the shared rulings folder ({SHARED}), which is not part of this repository: "
           "see README.md, 'Checks that need the shared rulings folder'")


def public_cases(kind: str, file: str = "sheets-spells-rest.yaml") -> list[Any]:
    """The public cases of one kind, as parameters named by their ids; without the shared folder,
    one parameter that skips with the reason (never an empty, silent parametrization)."""
    path = PUBLIC_CASES / file
    if not path.exists():
        return [pytest.param(None, id="shared-folder-missing", marks=pytest.mark.skip(MISSING))]
    cases = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
    return [pytest.param(c, id=str(c["id"])) for c in cases if c.get("kind") == kind]

"""The example adventure shipped with the repository (`fappo-bot play --example`)."""

from __future__ import annotations

from pathlib import Path

#: the example adventure, replayed by `fappo-bot play` on a fresh machine
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "adventure" / "adventure.txt"

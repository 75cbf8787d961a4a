"""The example adventure shipped with the repository (`fappo-bot play --example`)."""

from __future__ import annotations

from fappo_bot.resources import resource

#: the example adventure, replayed by `fappo-bot play` on a fresh machine (shipped in the wheel)
EXAMPLE = resource("examples", "adventure", "adventure.txt")

"""The example adventures shipped with the repository (`fappo-bot play --example [NAME]`)."""

from __future__ import annotations

from fappo_bot.resources import resource

#: the example adventures by name, replayed by `fappo-bot play --example NAME` (shipped in the
#: wheel): the FAPPO adventure (the default) and the Xp dice-pool one
EXAMPLES = {
    "adventure": resource("examples", "adventure", "adventure.txt"),
    "xp-adventure": resource("examples", "xp-adventure", "adventure.txt"),
}
#: the example a fresh table offers, and `--example` without a name
EXAMPLE = EXAMPLES["adventure"]

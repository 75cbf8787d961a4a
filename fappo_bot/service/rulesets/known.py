"""The rulesets this bot knows, by the name a game stores: the one place that maps
`Game.ruleset` to an implementation of the port."""

from __future__ import annotations

from collections.abc import Mapping

from fappo_bot.service.rulesets.fappo import Fappo
from fappo_bot.service.rulesets.port import Ruleset
from fappo_bot.service.rulesets.xp import Xp

#: every known ruleset by name, FAPPO first (the default of a new game)
KNOWN: Mapping[str, Ruleset] = {r.name: r for r in (Fappo(), Xp())}

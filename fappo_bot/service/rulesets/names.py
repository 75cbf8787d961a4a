"""How each ruleset is named: the light part of the port (`Ruleset.naming`), a leaf that the
records, the notices and an adapter's choices import without loading any rules. `known.py`
pairs each naming with its implementation, in the same order (`tests/service/test_rulesets.py`
holds the two equal)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Naming:
    """A ruleset's names: the one its games and their turns' results store, and the ones its
    readers and GMs see."""

    #: the name a game stores (`Game.ruleset`) and a turn's results payload names
    name: str
    #: the rules' name as a reader sees it (`FAPPO`, `Xp`)
    label: str
    #: how a GM starting a game is offered it (a choice of `/game create`)
    choice: str
    #: how a sentence offering the rulesets names it ("... or the Xp dice pools")
    offered: str
    #: whether its turns roll dice pools: their results name the rules in their title and say
    #: so when nothing was rolled
    dice_pools: bool

    @property
    def results_label(self) -> str:
        """The label a turn's results carry: the rules' name where the title gives it (dice
        pools), none for the bot's own rules."""
        return self.label if self.dice_pools else ""


FAPPO = Naming(name="fappo", label="FAPPO", choice="FAPPO", offered="FAPPO", dice_pools=False)
XP = Naming(name="xp", label="Xp", choice="Xp dice pools", offered="the Xp dice pools",
            dice_pools=True)

#: every ruleset's names, FAPPO first (the registry's first, the default of a new game)
NAMINGS: tuple[Naming, ...] = (FAPPO, XP)
BY_NAME: Mapping[str, Naming] = {naming.name: naming for naming in NAMINGS}

#: what a game or a turn's results stored without a ruleset's name play: FAPPO's, the only
#: rules there were before they named theirs (an export, a payload written before). Not the
#: registry's first: that may change, what old records meant may not.
STORED_DEFAULT = FAPPO

"""The one error family of the Xp rules: every refusal carries a code and a sentence a user can read.

Codes follow `../shared/spec/cases-xp.md` ("Errors"): a whole roll or case refused (`bad-case`,
`unknown-name`, `out-of-range`, `bad-dice`, `dice-short`, `dice-unused`, `not-specified`,
`missing-input`), one roller refused (`no-xposure`, `duplicate-augment`, `luck-insufficient`) or one
plot event refused (`pp-insufficient`, `gpp-insufficient`, `surprise-timing`, `task-order`,
`plot-over`).
"""

from __future__ import annotations


class XpError(Exception):
    """A refused Xp input. `str()` is safe to show a player; `code` is stable for programs."""

    code = "bad-case"

    def __init__(self, message: str, *, code: str | None = None, name: str | None = None,
                 event: int | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.name = name
        self.event = event

    def as_dict(self) -> dict[str, object]:
        """`{code, message}` plus the roller's `name` and the plot `event` where they apply."""
        out: dict[str, object] = {"code": self.code, "message": str(self)}
        if self.name is not None:
            out["name"] = self.name
        if self.event is not None:
            out["event"] = self.event
        return out


class NotSpecified(XpError):
    """Content the seed leaves out (RULINGS X18): refused, never invented."""

    code = "not-specified"


class MissingInput(XpError):
    """A GM input of RULINGS R1 that the engine must not guess."""

    code = "missing-input"


class UnknownName(XpError):
    """A level, row, superiority level or task name the rules do not know."""

    code = "unknown-name"


class OutOfRange(XpError):
    """A number outside the range the rules allow."""

    code = "out-of-range"


class DiceError(XpError):
    """The dice given do not fit the roll: a face outside 1..6, too few or too many."""

    code = "bad-dice"


#: RULINGS X18: what the seed leaves out, by the word a refusal names it with.
MISSING_CONTENT: dict[str, str] = {
    "combat": "the Combat section (rank depletion, damage, defense against melee, wounds)",
    "magic": "the Magic section (spells, magic rank costs, spell durations)",
    "action dice": "Action Dice and Rounds",
    "luck economy": "the Luck economy (starting Luck, the Cut! cost, the Good Luck cost)",
    "size": "the SIZE scale",
    "skills": "the skill list, the skill-to-characteristic mapping and the Mods",
    "advancement": "advancement costs for skill ranks and characteristics",
    "fifth resolution type": "the fifth resolution type (the seed promises five and lists four)",
    "exposure conversion": "how exposures turn into enemy dice or Superiority Levels",
    "ones cancel successes": "what exposures mean when 1s cancel successes",
}


def not_specified(what: str) -> NotSpecified:
    """The refusal for one item of RULINGS X18 (the key of `MISSING_CONTENT`)."""
    return NotSpecified(
        f"not specified: the Xp rules leave out {MISSING_CONTENT[what]} (RULINGS X18), "
        "so the bot will not invent it"
    )

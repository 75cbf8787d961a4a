"""The Xp rulebook's tables as data, in one place (RULINGS X1, X2, X3, X6).

Names match case-insensitively, and in row names spaces, `_` and `-` are interchangeable
(`take your time` = `take-your-time`), as `../shared/spec/cases-xp.md` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from fappo_bot.rules_xp.errors import UnknownName, not_specified


def key(name: str) -> str:
    """A name in comparable form: case-folded, with spaces, `_` and `-` as one `-`."""
    return "-".join(name.replace("_", " ").replace("-", " ").casefold().split())


class Characteristic(str, Enum):
    """The four characteristics of X1 (SIZE is apart: its scale is missing, X18)."""

    BODY = "BODY"
    MIND = "MIND"
    SOUL = "SOUL"
    LOOKS = "LOOKS"


#: X1 glossary (CX-09): BOD/STR are BODY, APP is LOOKS.
CHARACTERISTIC_ALIASES: dict[str, Characteristic] = {
    "body": Characteristic.BODY, "bod": Characteristic.BODY, "str": Characteristic.BODY,
    "mind": Characteristic.MIND, "soul": Characteristic.SOUL,
    "looks": Characteristic.LOOKS, "app": Characteristic.LOOKS,
}

#: X1: the label of each level of each characteristic [X:L17-67]; Normal (0) is unlabelled.
LEVEL_LABELS: dict[Characteristic, dict[int, str]] = {
    Characteristic.BODY: {-2: "Cronic", -1: "Sickly", 1: "Healthy", 2: "Robust", 3: "Potent"},
    Characteristic.MIND: {-2: "Imbecile", -1: "Dim", 1: "Smart", 2: "Clever", 3: "Genius"},
    Characteristic.SOUL: {-2: "Deranged", -1: "Unbalanced", 1: "Balanced", 2: "Enlightened",
                          3: "Illuminated"},
    Characteristic.LOOKS: {-2: "Repellent", -1: "Plain", 1: "Appealing", 2: "Charming",
                           3: "Perfection"},
}
#: the seed's "Cronic" (CX-09) is also accepted spelt right
_LEVEL_ALIASES = {"chronic": (Characteristic.BODY, -2)}
LEVEL_MIN, LEVEL_MAX = -2, 3


def characteristic(name: str) -> Characteristic:
    """BODY, MIND, SOUL or LOOKS by name or alias; SIZE is refused (its scale is missing, X18)."""
    found = CHARACTERISTIC_ALIASES.get(key(name))
    if found is not None:
        return found
    if key(name) in {"size", "siz"}:
        raise not_specified("size")
    raise UnknownName(f"unknown characteristic {name!r} (BODY, MIND, SOUL or LOOKS)")


def level_of(label: str, of: Characteristic | None = None) -> tuple[Characteristic | None, int]:
    """The characteristic a level label belongs to and its value (`Normal` is 0 for all).
    With `of`, a label of another characteristic is `unknown-name`."""
    wanted = key(label)
    if wanted == "normal":
        return of, 0
    for char, labels in LEVEL_LABELS.items():
        for value, text in labels.items():
            if key(text) == wanted and (of is None or of is char):
                return char, value
    alias = _LEVEL_ALIASES.get(wanted)
    if alias is not None and (of is None or of is alias[0]):
        return alias
    where = f" of {of.value}" if of is not None else ""
    raise UnknownName(f"unknown level {label!r}{where}")


class Row:
    """One modifier table: row names to dice, with the table's name for messages."""

    def __init__(self, title: str, rows: Mapping[str, int], aliases: Mapping[str, str]) -> None:
        self.title = title
        self.rows = {key(k): v for k, v in rows.items()}
        self.aliases = {key(k): key(v) for k, v in aliases.items()}

    def __call__(self, name: str) -> int:
        """The dice of a row by name."""
        wanted = key(name)
        wanted = self.aliases.get(wanted, wanted)
        if wanted in self.rows:
            return self.rows[wanted]
        raise UnknownName(f"unknown {self.title} {name!r} ({', '.join(self.rows)})")


#: X6 Task difficulty [X:L177-187]
DIFFICULTY = Row("difficulty", {"easy": 1, "routine": 0, "difficult": -1, "hard": -2,
                                "heroic": -3, "impossible": -4}, {"average": "routine"})
#: X6 Time [X:L209-219]; "none" is the row the GM leaves unset
TIME = Row("time", {"leisure": 2, "take-your-time": 1, "none": 0, "some-pressure": -1,
                    "pressure": -2, "real-pressure": -3, "extreme-pressure": -4},
           {"at-your-leisure": "leisure", "at-your-liesure": "leisure", "liesure": "leisure",
            "pressured": "pressure"})
#: X6 Tools [X:L225-229]; "missing" cannot be rolled at all (X6 Amb-3), so it has no dice
TOOLS = Row("tools", {"pointy-stick": -2, "improvised": -1, "adequate": 0, "masterwork": 1},
            {"inferior": "improvised", "perfect": "masterwork", "correct": "adequate"})
#: X6 Illumination [X:L237-243], as levels of penalty
ILLUMINATION = Row("illumination", {"good": 0, "dim": 1, "poor": 2, "minimal": 3, "dark": 4},
                   {"lantern": "dim", "moonlight": "dim", "candle": "poor", "torch": "poor",
                    "minimal-light": "minimal", "starlight": "minimal", "pitch-dark": "dark",
                    "magical-darkness": "dark"})
#: X2 skill ranks [X:L119]
SKILL_RANK = Row("skill rank", {"normal": 0, "advanced": 1, "master": 2}, {})
#: X6 Ratings of NPCs [X:L195-203] (X2 Amb-2: a rating replaces the skill rank)
RATING = Row("rating", {"untrained": -2, "inexperienced": -1, "trained": 0, "veteran": 1,
                        "master": 2}, {"unexposed": "untrained"})


class Relevance(str, Enum):
    """How much light matters to a task (X6 Amb-4)."""

    FULL = "full"
    REDUCED = "reduced"
    NONE = "none"


#: X3: the named Superiority Levels [X:L133-139], as RULINGS 0.3 numbers them
SL_NAMES: dict[str, int] = {
    "hopeless": -3, "weak": -2, "poor": -1, "normal": 0, "advantage": 1, "superior": 2,
    "dominant": 3,
}
HOPELESS, DOMINANT = -3, 3


def sl_named(name: str) -> int:
    """A Superiority Level by name."""
    found = SL_NAMES.get(key(name))
    if found is None:
        raise UnknownName(
            f"unknown superiority level {name!r} ({', '.join(SL_NAMES)}, or a number)"
        )
    return found


def sl_name(sl: int) -> str:
    """The name of a level, or `+N above Dominant` / `N below Hopeless`."""
    for name, value in SL_NAMES.items():
        if value == sl:
            return name
    if sl > DOMINANT:
        return f"{sl - DOMINANT} above dominant"
    return f"{HOPELESS - sl} below hopeless"

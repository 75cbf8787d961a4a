"""Xp character sheets (RULINGS Part B): what an Xp character is made of, read from the YAML a
user wrote, every fault reported as one sentence naming the field.

    name: Nefer
    who: pc                    # pc (Heroic, X5 Amb-2) or npc
    characteristics: {BODY: Healthy, MIND: 2}     # a level -2..+3 or its label (X1)
    skills:                    # rank (a PC's) or rating (an NPC's, X2 Amb-2), the characteristic
      Stealth: advanced BODY   # that drives it (X2 Amb-1, the GM's data), and its Mods
      Lockpicking: {rank: normal, base: MIND, mods: {Masterwork picks: 1}}
    passions: [Protect my sister at all costs, Gold buys every door]   # 2 to 6 words (X15)
    flaws: [Cannot resist a wager, Talks too much]
    advantages: [Cat's eyes]
    impediments: []
    luck: 1                    # X15 Amb-1: starting Luck is the GM's
    plot_points: 0             # X14: points the GM granted for a PLOT
    ranks: {physical: 1}       # X16 Amb-3: the GM's trait adjustment of a rank (physical, mental,
                               # magical: both magical ranks), each rank 4 + its characteristic

Pure: the mapping in (`fappo_bot.sheets.read_sheet` reads the text), an `XpSheet` out. No rule of
FAPPO is read here: the tables are `rules_xp`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import (
    CHARACTERISTIC_ALIASES,
    LEVEL_LABELS,
    LEVEL_MAX,
    LEVEL_MIN,
    RATING,
    SKILL_RANK,
    Characteristic,
    characteristic,
    key,
    level_of,
)
from fappo_bot.rules_xp.traits import (
    DEPLETED_FLOOR,
    STARTING_FLAWS,
    STARTING_PASSIONS,
    Ranks,
    check_descriptor,
    ranks,
    starting_advantages,
)
from fappo_bot.words import plural

MAX_SKILLS = 60
MAX_TRAITS = 12
MAX_LUCK = 99
MAX_MOD_DICE = 6
MAX_TEXT = 100
_FROZEN = ConfigDict(frozen=True, extra="forbid")
_KEYS = ("name", "who", "heroic", "characteristics", "skills", "passions", "flaws",
         "advantages", "impediments", "luck", "plot_points", "size", "ranks", "player", "notes")
#: X16: the ranks of a character, each one depleted on its own
RANK_NAMES = ("physical", "mental", "elemental", "spiritual")
#: the adjustments a sheet may give (X16 Amb-3): `magical` moves both magical ranks
RANK_ADJUSTMENTS = ("physical", "mental", "magical")
MAX_RANK_ADJUST = 8


class XpSkill(BaseModel):
    """One skill: a PC's rank (0 Normal, 1 Advanced, 2 Master) or an NPC's rating (-2..+2),
    the characteristic that drives it, and its Mods (dice each, X2 Amb-3)."""

    model_config = _FROZEN

    name: str
    rank: int | None = None
    rating: int | None = None
    base: Characteristic | None = None
    mods: dict[str, int] = Field(default_factory=dict)

    def level_word(self) -> str:
        """`Advanced`, `Veteran`... as the rulebook names the rank or rating."""
        if self.rating is not None:
            return next(k for k, v in RATING.rows.items() if v == self.rating).title()
        return next(k for k, v in SKILL_RANK.rows.items() if v == (self.rank or 0)).title()


class XpSheet(BaseModel):
    """An Xp character as approved, with its current Luck and plot points."""

    model_config = _FROZEN

    name: str
    npc: bool = False
    heroic: bool = True
    characteristics: dict[Characteristic, int] = Field(default_factory=dict)
    skills: tuple[XpSkill, ...] = ()
    passions: tuple[str, ...] = ()
    flaws: tuple[str, ...] = ()
    advantages: tuple[str, ...] = ()
    impediments: tuple[str, ...] = ()
    luck: int = 0
    plot_points: int = 0
    size: int = 0
    #: the GM's trait adjustment of each rank (X16 Amb-3), by `RANK_ADJUSTMENTS` name
    rank_adjust: dict[str, int] = Field(default_factory=dict)
    #: the points each rank has lost (X16: "depleted separately"), by `RANK_NAMES` name
    rank_lost: dict[str, int] = Field(default_factory=dict)

    def ranks(self) -> Ranks:
        """X16: the maximum of each rank, 1..9, from BODY (with SIZE), MIND and SOUL."""
        adjust = self.rank_adjust.get
        return ranks(body=self.level(Characteristic.BODY), mind=self.level(Characteristic.MIND),
                     soul=self.level(Characteristic.SOUL), size=self.size,
                     physical_adj=adjust("physical", 0), mental_adj=adjust("mental", 0),
                     magical_adj=adjust("magical", 0))

    def rank_now(self, name: str) -> int:
        """A rank's current value: its maximum less what it lost, never below -3 (CX-03)."""
        top: int = getattr(self.ranks(), name)
        return max(DEPLETED_FLOOR, top - self.rank_lost.get(name, 0))

    def level(self, char: Characteristic) -> int:
        """A characteristic's level (0, Normal, when the sheet does not name it)."""
        return self.characteristics.get(char, 0)

    def skill(self, name: str) -> XpSkill | None:
        """A skill by name, any case, spaces and `-` alike."""
        wanted = key(name)
        return next((s for s in self.skills if key(s.name) == wanted), None)

    def mod_names(self) -> tuple[str, ...]:
        """Every Mod of every skill, once each."""
        return tuple(dict.fromkeys(m for s in self.skills for m in s.mods))


class XpSheetProblems(ValueError):
    """Every fault of a sheet, each a sentence naming its field."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


def _level(value: Any, char: Characteristic, problems: list[str]) -> int:
    if isinstance(value, bool):
        problems.append(f"characteristics.{char.value}: give a level from {LEVEL_MIN} to "
                        f"+{LEVEL_MAX} or its label, not {value!r}.")
        return 0
    if isinstance(value, int):
        if not LEVEL_MIN <= value <= LEVEL_MAX:
            problems.append(f"characteristics.{char.value}: a level runs from {LEVEL_MIN} to "
                            f"+{LEVEL_MAX} (X1), not {value}.")
            return 0
        return value
    try:
        return level_of(str(value), char)[1]
    except XpError:
        labels = ", ".join(f"{v:+d} {k}" for k, v in _labels(char))
        problems.append(f'characteristics.{char.value}: "{value}" is no level of {char.value} '
                        f"({labels}).")
        return 0


def _labels(char: Characteristic) -> list[tuple[str, int]]:
    return [(label, value) for value, label in sorted(LEVEL_LABELS[char].items())]


def _characteristics(raw: Any, problems: list[str]) -> dict[Characteristic, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        problems.append("characteristics: a mapping such as {BODY: Healthy, MIND: 2}.")
        return {}
    out: dict[Characteristic, int] = {}
    for name, value in raw.items():
        try:
            char = characteristic(str(name))
        except XpError as exc:
            problems.append(f"characteristics.{name}: {exc}.")
            continue
        out[char] = _level(value, char, problems)
    return out


def _skill(name: str, raw: Any, npc: bool, problems: list[str]) -> XpSkill | None:
    where = f"skills.{name}"
    if isinstance(raw, str):
        words = raw.split()
        data: dict[str, Any] = {}
        for word in words:
            if key(word) in SKILL_RANK.rows or key(word) in RATING.rows \
                    or key(word) in RATING.aliases:
                data["rating" if npc else "rank"] = word
            elif key(word) in CHARACTERISTIC_ALIASES or key(word) in {"size", "siz"}:
                data["base"] = word
            else:
                row = RATING if npc else SKILL_RANK
                problems.append(f'{where}: "{word}" is neither a {row.title} '
                                f"({', '.join(row.rows)}) nor a characteristic (BODY, MIND, "
                                "SOUL, LOOKS).")
                return None
        raw = data
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: a rank and a characteristic (\"advanced BODY\") or a mapping "
                        "{rank: advanced, base: BODY, mods: {...}}.")
        return None
    unknown = sorted(set(map(str, raw)) - {"rank", "rating", "base", "mods"})
    if unknown:
        problems.append(f"{where}: unknown field {', '.join(unknown)} (rank, rating, base, mods).")
    rank = rating = None
    if "rank" in raw and "rating" in raw:
        problems.append(f"{where}: a rank (a player's skill) or a rating (an NPC's), not both "
                        "(X2 Amb-2).")
    elif "rating" in raw:
        rating = _row(raw["rating"], RATING, f"{where}.rating", problems)
    else:
        rank = _row(raw.get("rank", "normal"), SKILL_RANK, f"{where}.rank", problems)
    base = None
    if raw.get("base") is not None:
        try:
            base = characteristic(str(raw["base"]))
        except XpError as exc:
            problems.append(f"{where}.base: {exc}.")
    mods: dict[str, int] = {}
    raw_mods = raw.get("mods") or {}
    if isinstance(raw_mods, list | tuple):
        raw_mods = {str(m): 1 for m in raw_mods}
    if not isinstance(raw_mods, Mapping):
        problems.append(f"{where}.mods: a list of Mod names, or Mod names with their dice.")
    else:
        for mod, dice in raw_mods.items():
            if isinstance(dice, bool) or not isinstance(dice, int) \
                    or not -MAX_MOD_DICE <= dice <= MAX_MOD_DICE:
                problems.append(f"{where}.mods.{mod}: a Mod gives whole dice from "
                                f"-{MAX_MOD_DICE} to {MAX_MOD_DICE}, not {dice!r}.")
                continue
            mods[_text(mod, f"{where}.mods", problems)] = dice
    return XpSkill(name=name, rank=rank, rating=rating, base=base, mods=mods)


def _row(value: Any, row: Any, where: str, problems: list[str]) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value in row.rows.values():
        return int(value)
    try:
        return int(row(str(value)))
    except XpError:
        problems.append(f"{where}: \"{value}\" is not one of {', '.join(row.rows)}.")
        return None


def _text(value: Any, where: str, problems: list[str]) -> str:
    text = " ".join(str(value).split())
    if not text or len(text) > MAX_TEXT:
        problems.append(f"{where}: a name of 1 to {MAX_TEXT} characters.")
    return text[:MAX_TEXT]


def _texts(raw: Any, where: str, problems: list[str], words: bool = False) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list | tuple):
        problems.append(f"{where}: a list.")
        return ()
    if len(raw) > MAX_TRAITS:
        problems.append(f"{where}: at most {MAX_TRAITS}, not {len(raw)}.")
        return ()
    out = []
    for item in raw:
        text = _text(item, where, problems)
        if words:
            try:
                text = check_descriptor(text)
            except XpError as exc:
                problems.append(f"{where}: {exc} (X15).")
                continue
        out.append(text)
    return tuple(out)


def _count(raw: Any, where: str, problems: list[str], high: int, low: int = 0) -> int:
    if raw is None:
        return 0
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        problems.append(f"{where}: a whole number from {low} to {high}, not {raw!r}.")
        return 0
    return raw


def xp_sheet_from_dict(data: Mapping[str, Any]) -> XpSheet:
    """The sheet, or `XpSheetProblems` listing every fault (each names its field)."""
    problems: list[str] = []
    unknown = sorted(str(k) for k in data if str(k) not in _KEYS)
    if unknown:
        problems.append(f"unknown field {', '.join(unknown)}: an Xp sheet has "
                        f"{', '.join(_KEYS)}.")
    name = _text(data.get("name", ""), "name", problems)
    who = key(str(data.get("who", "pc")))
    if who not in {"pc", "npc"}:
        problems.append(f'who: pc or npc, not "{data.get("who")}".')
    npc = who == "npc"
    heroic_raw = data.get("heroic", not npc)
    if not isinstance(heroic_raw, bool):
        problems.append(f"heroic: true or false, not {heroic_raw!r}.")
        heroic_raw = not npc
    chars = _characteristics(data.get("characteristics"), problems)
    raw_skills = data.get("skills") or {}
    skills: list[XpSkill] = []
    if not isinstance(raw_skills, Mapping):
        problems.append("skills: a mapping of skill names, such as {Stealth: advanced BODY}.")
    elif len(raw_skills) > MAX_SKILLS:
        problems.append(f"skills: at most {MAX_SKILLS}, not {len(raw_skills)}.")
    else:
        for skill_name, raw in raw_skills.items():
            text = _text(skill_name, "skills", problems)
            if any(key(s.name) == key(text) for s in skills):
                problems.append(f"skills.{text}: named twice.")
                continue
            made = _skill(text, raw, npc, problems)
            if made is not None:
                skills.append(made)
    passions = _texts(data.get("passions"), "passions", problems, words=True)
    flaws = _texts(data.get("flaws"), "flaws", problems, words=True)
    advantages = _texts(data.get("advantages"), "advantages", problems)
    impediments = _texts(data.get("impediments"), "impediments", problems)
    if not npc and len(advantages) > starting_advantages(len(impediments)):
        problems.append(f"advantages: a player begins with one Advantage plus one per Impediment, "
                        f"at most 3 (X15): {len(advantages)} with "
                        f"{plural(len(impediments), 'Impediment')} is too many.")
    luck = _count(data.get("luck"), "luck", problems, MAX_LUCK)
    points = _count(data.get("plot_points"), "plot_points", problems, MAX_LUCK)
    size = _count(data.get("size"), "size", problems, 9, -9)
    adjust = _rank_adjust(data.get("ranks"), problems)
    if problems:
        raise XpSheetProblems(problems)
    return XpSheet(name=name, npc=npc, heroic=bool(heroic_raw), characteristics=chars,
                   skills=tuple(skills), passions=passions, flaws=flaws, advantages=advantages,
                   impediments=impediments, luck=luck, plot_points=points, size=size,
                   rank_adjust=adjust)


def _rank_adjust(raw: Any, problems: list[str]) -> dict[str, int]:
    """`ranks: {physical: 1, magical: -1}`: the GM's trait adjustments (X16 Amb-3)."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        problems.append("ranks: the GM's adjustment of each rank, such as {physical: 1} "
                        f"({', '.join(RANK_ADJUSTMENTS)}; X16).")
        return {}
    out: dict[str, int] = {}
    for name, value in raw.items():
        wanted = key(str(name))
        if wanted not in RANK_ADJUSTMENTS:
            problems.append(f"ranks.{name}: no such rank to adjust; write "
                            f"{', '.join(RANK_ADJUSTMENTS)} (magical moves elemental and "
                            "spiritual, X16).")
            continue
        out[wanted] = _count(value, f"ranks.{name}", problems, MAX_RANK_ADJUST,
                             -MAX_RANK_ADJUST)
    return {k: v for k, v in out.items() if v}


def starting_problems(sheet: XpSheet) -> tuple[str, ...]:
    """X15: "Players begin with 2 Passions and 2 Flaws": what a player character's new sheet
    lacks or has too many of, each a sentence naming its field. Asked when a character is made
    (or its sheet replaced), never of a sheet already stored; NPCs "will generally only have one
    or none", so theirs are not counted."""
    if sheet.npc:
        return ()
    problems = []
    for where, items, wanted in (("passions", sheet.passions, STARTING_PASSIONS),
                                 ("flaws", sheet.flaws, STARTING_FLAWS)):
        if len(items) != wanted:
            word = where[:-1].title() if len(items) == 1 else where.title()
            problems.append(
                f"{where}: a player's character begins with {wanted} {where.title()} (X15), "
                f"not {len(items)} {word}; write {wanted}, each of 2 to 6 words, such as "
                f"{where}: [{_EXAMPLES[where]}].")
    return tuple(problems)


_EXAMPLES = {"passions": "Protect my sister at all costs, Gold buys every door",
             "flaws": "Cannot resist a wager, Talks too much"}


def render_xp_sheet(sheet: XpSheet) -> str:
    """The sheet as plain text, a line a part."""
    def char_text(char: Characteristic) -> str:
        level = sheet.level(char)
        label = LEVEL_LABELS[char].get(level, "Normal")
        return f"{char.value} {label}" + (f" ({level:+d})" if level else "")

    who = "NPC" if sheet.npc else "PC"
    lines = [f"{sheet.name} (Xp {who}{', Heroic' if sheet.heroic else ''})",
             "  " + ", ".join(char_text(c) for c in Characteristic)]
    for skill in sheet.skills:
        base = f", {skill.base.value}" if skill.base else ""
        mods = "".join(f", Mod {m} {d:+d}d" for m, d in skill.mods.items())
        lines.append(f"  {skill.name}: {skill.level_word()}{base}{mods}")
    for title, items in (("Passions", sheet.passions), ("Flaws", sheet.flaws),
                         ("Advantages", sheet.advantages), ("Impediments", sheet.impediments)):
        if items:
            lines.append(f"  {title}: " + "; ".join(items))
    lines.append("  " + rank_text(sheet))
    lines.append(f"  Luck {sheet.luck}, plot points {sheet.plot_points}")
    return "\n".join(lines)


def rank_text(sheet: XpSheet) -> str:
    """`Ranks: Physical 6, Mental 2 of 3, Elemental 5, Spiritual 5` (X16): a depleted rank
    shows its current value of its maximum."""
    maxima = sheet.ranks()
    parts = []
    for name in RANK_NAMES:
        top, now = getattr(maxima, name), sheet.rank_now(name)
        parts.append(f"{name.title()} {now} of {top}" if now != top else f"{name.title()} {top}")
    return "Ranks: " + ", ".join(parts)

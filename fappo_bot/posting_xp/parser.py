"""Reading an Xp post: story lines and mechanics lines (docs/players.md, "Playing Xp").

A line is mechanics when it starts with one of the forms' words (any case, Discord markdown and
bullets ignored):

    roll Stealth: slip past the guard            a test (General, X7)
    roll Stealth using MIND +1d heroic           another characteristic, dice asked, heroic dice
    roll BODY                                    a raw characteristic test (X1)
    roll Climbing via Acrobatics                 defaulting to another skill (X8)
    roll Survival using BODY with Desert creature    defaulting to a characteristic (X8)
    roll Stealth against Guard                   a contest (X7)
    roll Lockpicking over time: the tomb door    rerolls over time (X9: the GM sets the unit)
    roll Disarm augmented by Perception          augmented (X12: Perception's successes add dice)
    assist Khai [with Stealth]                   assisting another's roll (X10)
    group roll Stealth                           joining a group roll (X11)
    spend 1 plot point on the climb              plot points (X14)
    passion: Protect my sister at all costs      a Passion (X15, 1 Luck)
    flaw: Cannot resist a wager                  a Flaw (X15, +1 Luck)
    Cut!: I cut the rope and ride the chandelier    asking for a Cut! (X17, the GM's Luck price)
    character: Guard                             the lines after it are Guard's

Every other line is story. Every problem names its line, the words, what was expected and a
hint; a post with any problem counts for nothing. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from fappo_bot.posting.errors import PostProblem
from fappo_bot.posting.lexer import clean
from fappo_bot.posting.parser import too_long
from fappo_bot.posting_xp.models import Route, XpAction, XpKind, XpParsedPost, XpPostContext
from fappo_bot.rules import ErrorCode
from fappo_bot.rules_xp.errors import XpError
from fappo_bot.rules_xp.tables import CHARACTERISTIC_ALIASES, Characteristic, key
from fappo_bot.sheets.xp import XpSheet
from fappo_bot.spelling import nearest
from fappo_bot.words import plural

_START = re.compile(
    r"^(roll|test|contest|assist|attack|cast)\b|^(cut)!|^(group)(?=\s+roll\b)|^(spend)(?=\s+\d)"
    r"|^(passion|flaw|character)(?=\s*:)|^(invoke)(?=\s+(?:passion|flaw)\b)", re.IGNORECASE)
_CLAIM = re.compile(r"(?<![\w])([+-])\s*(\d{1,2})\s*d\b", re.IGNORECASE)
_HEROIC_OFF = re.compile(r"\b(?:not|no|without)\s+heroic(?:\s+dice)?\b", re.IGNORECASE)
_HEROIC_ON = re.compile(r"\bheroic(?:\s+dice)?\b", re.IGNORECASE)
_CLAUSE = re.compile(r"\b(using|via|with|against)\b", re.IGNORECASE)
_RELAUNCH = re.compile(r"\b(?:relaunch(?:ing)?(?:\s+with\s+(?:good\s+)?luck)?|with\s+good\s+luck)\b",
                       re.IGNORECASE)
_OVER_TIME = re.compile(r"\bover\s+time\b", re.IGNORECASE)
_AUGMENTED = re.compile(r"\baugmented\s+by\b\s*(.*)$", re.IGNORECASE)
MAX_AUGMENTS = 3
_POINTS = re.compile(r"^spend\s+(\d{1,3})\s+plot\s+points?\b\s*(?:on\b|for\b|:)?\s*(.*)$",
                     re.IGNORECASE)
MAX_CLAIM = 6


class _Bad(Exception):
    def __init__(self, message: str, expected: str | None = None, hint: str | None = None,
                 candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.expected = expected
        self.hint = hint
        self.candidates = tuple(candidates)
        self.code = ErrorCode.SYNTAX


def _unknown(what: str, words: str, names: Sequence[str], hint: str) -> _Bad:
    found = list(nearest(words, names, always=True))
    mean = f"; did you mean {' or '.join(repr(n) for n in found)}?" if found else ""
    bad = _Bad(f'"{words}" is no {what}{mean}', what, hint, found)
    bad.code = ErrorCode.UNKNOWN_NAME
    return bad


def _name(words: str, names: Sequence[str], what: str, hint: str) -> str:
    """A name of `names` written exactly (any case) or as the unique start of one."""
    wanted = key(words)
    exact = [n for n in names if key(n) == wanted]
    if exact:
        return exact[0]
    starts = [n for n in names if key(n).startswith(wanted)] if wanted else []
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        bad = _Bad(f'"{words}" could be {", ".join(starts)}', what, "write more of the name",
                   starts)
        bad.code = ErrorCode.AMBIGUOUS_NAME
        raise bad
    raise _unknown(what, words, names, hint)


def _characteristic(words: str) -> Characteristic | None:
    return CHARACTERISTIC_ALIASES.get(key(words))


def _split(body: str) -> tuple[str, dict[str, str]]:
    """`Stealth using MIND via X with Y against Z` -> ("Stealth", {using: MIND, ...})."""
    parts = _CLAUSE.split(body)
    head, clauses = parts[0].strip(), {}
    for word, value in zip(parts[1::2], parts[2::2], strict=True):
        if word.casefold() in clauses:
            raise _Bad(f'"{word}" is written twice', f"one {word.casefold()} clause")
        clauses[word.casefold()] = value.strip()
    return head, clauses


def _options(body: str) -> tuple[str, int, bool | None]:
    """The body without its dice claim and heroic words: (rest, claim, heroic)."""
    claim = 0
    for sign, number in _CLAIM.findall(body):
        claim += int(number) * (1 if sign == "+" else -1)
    body = _CLAIM.sub(" ", body)
    heroic: bool | None = None
    if _HEROIC_OFF.search(body):
        heroic, body = False, _HEROIC_OFF.sub(" ", body)
    if _HEROIC_ON.search(body):
        heroic, body = True, _HEROIC_ON.sub(" ", body)
    if abs(claim) > MAX_CLAIM:
        raise _Bad(f"{claim:+d}d is more dice than the GM can weigh", f"-{MAX_CLAIM}d to "
                   f"+{MAX_CLAIM}d", "ask for the dice the situation gives (X6), such as +1d")
    return " ".join(body.split()), claim, heroic


class _Reader:
    """One post's lines, read in order for the current actor."""

    def __init__(self, ctx: XpPostContext) -> None:
        self.ctx = ctx
        self.actor: str | None = next(iter(ctx.sheets), None) if len(ctx.sheets) == 1 else None
        if ctx.default is not None and ctx.default in ctx.sheets:
            self.actor = ctx.default
        self.actions: list[XpAction] = []
        self.problems: list[PostProblem] = []
        self.mechanics = False
        self.luck_spent: dict[str, int] = {}
        self.points_spent: dict[str, int] = {}

    @property
    def sheet(self) -> XpSheet:
        if self.actor is None:
            raise _Bad("whose line is this? You give the orders of several characters",
                       "a Character: NAME line first",
                       f"start with Character: {next(iter(self.ctx.sheets), 'NAME')}")
        return self.ctx.sheets[self.actor]

    def line(self, number: int, raw: str) -> None:
        text = clean(raw)
        match = _START.match(text)
        if match is None:
            return
        verb = next(g for g in match.groups() if g).casefold()
        rest = text[match.end():].strip()
        self.mechanics = True
        try:
            self._line(number, verb, rest)
        except _Bad as bad:
            self.problems.append(PostProblem(
                line=number, code=bad.code, message=str(bad), words=text[:80],
                expected=bad.expected, hint=bad.hint, candidates=bad.candidates,
                actor=self.actor))

    def _line(self, number: int, verb: str, rest: str) -> None:
        if verb == "character":
            who = rest.lstrip(":").strip()
            self.actor = _name(who, list(self.ctx.sheets), "character of yours",
                               "name a character you give the orders of")
            return
        if verb == "cut":
            self._cut(number, rest.lstrip(":").strip(), self.sheet)
            return
        if verb in {"attack", "cast"}:
            what = "Combat" if verb == "attack" else "Magic"
            raise _Bad(f"the Xp rules leave out the {what} section (RULINGS X18), so the bot "
                       "will not invent it", "a test of a skill",
                       "a melee attack or a spell is a General test (X7): roll SKILL: what you "
                       "do; the GM narrates what it does")
        if verb == "invoke":
            word, _, rest = rest.partition(" ")
            if word.casefold() not in {"passion", "flaw"}:
                raise _Bad("invoke what?", "invoke passion TEXT or invoke flaw TEXT")
            verb = word.casefold()
        sheet = self.sheet
        actor = sheet.name
        if verb in {"passion", "flaw"}:
            self._trait(number, verb, rest.lstrip(":").strip(), sheet)
            return
        if verb == "spend":
            self._spend(number, rest, sheet)
            return
        body, _, task = rest.partition(":")
        body, claim, heroic = _options(body)
        if heroic and not sheet.heroic:
            raise _Bad(f"{actor} is not Heroic: no bonus dice on 6s (X5 Amb-2)",
                       "no heroic", "leave out heroic")
        hero = sheet.heroic if heroic is None else heroic
        if verb == "assist":
            self._assist(number, body, claim, hero, task, sheet)
            return
        kind = XpKind.TEST
        relaunch = False
        if verb == "group":
            kind = XpKind.GROUP
            if body.casefold().startswith("roll"):
                body = body[4:].strip()
            if _RELAUNCH.search(body):
                relaunch, body = True, " ".join(_RELAUNCH.sub(" ", body).split()).strip(" ,;")
                if self.luck_spent.get(actor, 0) + 1 > sheet.luck:
                    bad = _Bad(f"a relaunch costs 1 Luck and {actor} has {sheet.luck} "
                               f"({self.luck_spent.get(actor, 0)} already asked in this post)",
                               "Luck to spend", "a Flaw gains Luck (X15)")
                    bad.code = ErrorCode.OUT_OF_RANGE
                    raise bad
        over_time = False
        augments: tuple[str, ...] = ()
        if verb != "group":
            body, over_time, augments = self._time_and_augments(body, sheet)
        head, clauses = _split(body)
        if "against" in clauses:
            if kind is XpKind.GROUP:
                raise _Bad("a group roll is against no one", "group roll SKILL",
                           "each member rolls for themself; a contest is roll SKILL against NAME")
            kind = XpKind.CONTEST
        elif verb == "contest":
            raise _Bad("a contest needs an opponent", "roll SKILL against NAME",
                       "name who you contest: roll Stealth against Guard")
        if not head:
            raise _Bad("which skill?", "a skill of your sheet or a characteristic",
                       f"your skills: {', '.join(s.name for s in sheet.skills) or 'none'}")
        fields = self._pool_fields(head, clauses, sheet)
        target = None
        if kind is XpKind.CONTEST:
            target = self._other(clauses["against"], actor, "opponent")
        if augments and kind is not XpKind.TEST:
            raise _Bad("an augment adds dice to a test of yours", "roll SKILL augmented by "
                       "OTHER", "augment a test; a contest's dice are the GM's to weigh (X12)")
        self.actions.append(XpAction(actor=actor, line=number, kind=kind, claim=claim,
                                     heroic=hero, target=target, text=task.strip(),
                                     relaunch=relaunch, over_time=over_time, augments=augments,
                                     **fields))

    def _time_and_augments(self, body: str, sheet: XpSheet
                           ) -> tuple[str, bool, tuple[str, ...]]:
        """`over time` (X9) and `augmented by A, B` (X12) taken out of a roll's words."""
        over_time = bool(_OVER_TIME.search(body))
        body = _OVER_TIME.sub(" ", body)
        augments: list[str] = []
        found = _AUGMENTED.search(body)
        if found is not None:
            body = body[:found.start()]
            for words in re.split(r",|\band\b", found.group(1), flags=re.IGNORECASE):
                if not words.strip():
                    continue
                made = self._pool_fields(words.strip(), {}, sheet)
                if made["route"] not in (Route.SKILL, Route.RAW):
                    raise _Bad(f'"{words.strip()}" is no skill of {sheet.name}',
                               "a skill of your sheet or a characteristic",
                               "an augment is a roll of your own (X12)")
                name = str(made["skill"] or getattr(made["characteristic"], "value", ""))
                if key(name) in {key(a) for a in augments}:
                    raise _Bad(f"{name} augments this roll twice", "each ability once",
                               "one augment per ability (X12 Amb-2)")
                augments.append(name)
            if not augments:
                raise _Bad("augmented by what?", "roll SKILL augmented by OTHER",
                           "name the skill rolled first: augmented by Perception")
            if len(augments) > MAX_AUGMENTS:
                raise _Bad(f"{len(augments)} augments is more than the GM can weigh",
                           f"at most {MAX_AUGMENTS}")
        return " ".join(body.split()), over_time, tuple(augments)

    def _pool_fields(self, head: str, clauses: dict[str, str], sheet: XpSheet) -> dict[str, object]:
        """skill, route, characteristic, via and mods of a roll."""
        using = _characteristic(clauses["using"]) if "using" in clauses else None
        if "using" in clauses and using is None:
            raise _Bad(f'"{clauses["using"]}" is no characteristic', "BODY, MIND, SOUL or LOOKS",
                       "SIZE has no scale in the rules (X18)")
        mods: tuple[str, ...] = ()
        if "with" in clauses:
            names = sheet.mod_names()
            mods = tuple(_name(m.strip(), names, "Mod of your sheet",
                               f"your Mods: {', '.join(names) or 'none'}")
                         for m in clauses["with"].split(",") if m.strip())
        raw = _characteristic(head)
        skill_names = [s.name for s in sheet.skills]
        if raw is not None:
            if "via" in clauses or using is not None:
                raise _Bad("a raw characteristic test takes no other skill or characteristic",
                           f"roll {raw.value}")
            return {"skill": None, "route": Route.RAW, "characteristic": raw, "mods": mods}
        owned = sheet.skill(head)
        if owned is None and skill_names:
            try:
                owned = sheet.skill(_name(head, skill_names, "skill", ""))
            except _Bad as bad:
                if bad.code is ErrorCode.AMBIGUOUS_NAME:
                    raise
        if owned is not None:
            if "via" in clauses:
                raise _Bad(f"{sheet.name} has {owned.name}: no default needed",
                           f"roll {owned.name}", "leave out via")
            return {"skill": owned.name, "route": Route.SKILL, "characteristic": using,
                    "mods": mods}
        skill = " ".join(head.split()).title() if head.islower() else " ".join(head.split())
        if "via" in clauses:
            via = _name(clauses["via"], skill_names, "skill of your sheet",
                        "defaulting (X8) uses a skill you have")
            return {"skill": skill, "route": Route.DEFAULT, "via": via, "mods": mods}
        if using is not None:
            return {"skill": skill, "route": Route.CHARACTERISTIC, "characteristic": using,
                    "mods": mods}
        raise _unknown("skill of " + sheet.name, head, skill_names,
                       "without the skill, default (X8): roll SKILL via A SIMILAR SKILL, or roll "
                       "SKILL using BODY (1d + level, if the GM allows); a characteristic alone "
                       "is a raw test: roll BODY")

    def _other(self, words: str, actor: str, what: str) -> str:
        names = [n for n in self.ctx.names if key(n) != key(actor)]
        if key(words) == key(actor):
            raise _Bad(f"{actor} cannot be their own {what}", "another character")
        return _name(words.strip(), names, "character", "name someone in this game")

    def _assist(self, number: int, body: str, claim: int, hero: bool, task: str,
                sheet: XpSheet) -> None:
        head, clauses = _split(body)
        if set(clauses) - {"with"}:
            raise _Bad("an assist names whom you help and, if you like, your skill",
                       "assist NAME with SKILL")
        if not head:
            raise _Bad("assist whom?", "assist NAME", "name the character whose roll you help")
        lead = self._other(head, sheet.name, "lead")
        skill = None
        if "with" in clauses:
            found = self._pool_fields(clauses["with"], {}, sheet)
            if found["route"] is not Route.SKILL:
                raise _Bad("assisting needs the skill itself, not a default (an appropriate "
                           "Xposure, X10 Amb-2)", "a skill of your sheet")
            skill = str(found["skill"])
        self.actions.append(XpAction(actor=sheet.name, line=number, kind=XpKind.ASSIST,
                                     skill=skill, target=lead, claim=claim, heroic=hero,
                                     text=task.strip()))

    def _spend(self, number: int, rest: str, sheet: XpSheet) -> None:
        match = _POINTS.match(f"spend {rest}")
        if match is None:
            raise _Bad("spend what?", "spend N plot points on TASK",
                       "plot points make a task of a PLOT succeed (X14): spend 1 plot point on "
                       "the climb")
        points = int(match.group(1))
        spent = self.points_spent.get(sheet.name, 0) + points
        if points < 1 or spent > sheet.plot_points:
            bad = _Bad(f"{sheet.name} has {plural(sheet.plot_points, 'plot point')}, not {spent}",
                       f"at most {sheet.plot_points}", "the GM grants plot points for a PLOT "
                       "(X14)")
            bad.code = ErrorCode.OUT_OF_RANGE
            raise bad
        self.points_spent[sheet.name] = spent
        self.actions.append(XpAction(actor=sheet.name, line=number, kind=XpKind.PLOT,
                                     points=points, text=match.group(2).strip()))

    def _cut(self, number: int, words: str, sheet: XpSheet) -> None:
        """X17: "Activating a Cut! will require a specified amount of Luck" [X:L283]: the price
        is the GM's (X15 Amb-1), asked in the review; the player says what the Cut! does."""
        if any(a.kind is XpKind.CUT and a.actor == sheet.name for a in self.actions):
            raise _Bad(f"{sheet.name} asks for one Cut! a post", "one Cut! line",
                       "a Cut! is one scene the character takes control of (X17)")
        if not words:
            raise _Bad("a Cut! of what?", "Cut!: WHAT YOUR CHARACTER DOES",
                       "say what the cut scene is: Cut!: I cut the rope and ride the chandelier")
        self.actions.append(XpAction(actor=sheet.name, line=number, kind=XpKind.CUT,
                                     text=" ".join(words.split())))

    def _trait(self, number: int, verb: str, words: str, sheet: XpSheet) -> None:
        owned = sheet.passions if verb == "passion" else sheet.flaws
        if not words:
            raise _Bad(f"which {verb}?", f"{verb}: one of {', '.join(owned) or 'none'}")
        found = _name(words, list(owned), f"{verb.title()} of {sheet.name}",
                      f"{sheet.name}'s {verb}s: {'; '.join(owned) or 'none'}")
        if verb == "passion":
            spent = self.luck_spent.get(sheet.name, 0) + 1
            if spent > sheet.luck:
                bad = _Bad(f"a Passion costs 1 Luck and {sheet.name} has {sheet.luck} "
                           f"({spent} asked in this post)", "Luck to spend",
                           "a Flaw gains Luck (X15)")
                bad.code = ErrorCode.OUT_OF_RANGE
                raise bad
            self.luck_spent[sheet.name] = spent
        self.actions.append(XpAction(actor=sheet.name, line=number,
                                     kind=XpKind(verb), text=found))


def parse_xp_post(text: str, ctx: XpPostContext) -> XpParsedPost:
    """Every mechanics line of `text` for the characters of `ctx` (module doc)."""
    oversize = too_long(text)
    if oversize is not None:
        return XpParsedPost(problems=(oversize,), mechanics=True)
    reader = _Reader(ctx)
    for number, raw in enumerate(text.splitlines(), start=1):
        reader.line(number, raw)
    if reader.problems:
        return XpParsedPost(problems=tuple(reader.problems), mechanics=True)
    return XpParsedPost(actions=tuple(reader.actions), mechanics=reader.mechanics)


def is_table_talk(text: str) -> bool:
    """No line starts like a mechanics line (read with no characters)."""
    if too_long(text) is not None:
        return False
    return not any(_START.match(clean(line)) for line in text.splitlines())


__all__ = ["XpError", "is_table_talk", "parse_xp_post"]

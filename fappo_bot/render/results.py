"""A turn's results in words, from their blocks (`service.results_report`): plain text with a
heading per section, read as well on a phone as on a desktop, and by a screen reader (no table,
no embed, no link preview).

- Each action named as its player wrote it: "Mira tries Pickpocket on Kael (lift his coin
  purse): 6 vs 1, Great Success"; "Bran moves 1 Range away from Goblins".
- Numbers that explain themselves: the total against the difficulty, the chart's level, then
  what moved it: "7 vs 7, Bare Success, +1 level from 1 SP Brawny: Solid Success". The quiet
  defences are folded into the attacks they answered.
- Hits named as a player names them in a Reduce line ("Skarg's Broadsword hit"), no internal
  id; no rule code (the rules are said in words).

Every name goes through `safe`; the caller makes the whole text `inert`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fappo_bot.posting.safety import inert, no_rule_codes, possessive, safe, split_message
from fappo_bot.rules import SuccessLevel
from fappo_bot.service import notices as n
from fappo_bot.service import results_report as r
from fappo_bot.words import plural

_LEVELS = {level.label: level for level in SuccessLevel}

def _title(label: str | None) -> str:
    return _LEVELS[label].title if label in _LEVELS else ""


def _sp(spent: dict[str, int]) -> str:
    return " and ".join(f"{points} SP {safe(pool)}" for pool, points in spent.items() if points)


def hit_name(hit: r.HitLine) -> str:
    """`Skarg's Broadsword hit`: what a Reduce line names it by."""
    if hit.attacker and hit.weapon:
        return f"{possessive(safe(hit.attacker))} {safe(hit.weapon)} hit"
    if hit.attacker:
        return f"{possessive(safe(hit.attacker))} hit"
    if hit.weapon:
        return f"the {safe(hit.weapon)} hit"
    return "a hit"


# ---- actions ------------------------------------------------------------------------------------
def _what(a: r.ActionLine) -> str:
    """What the actor did, as the player wrote it: `attacks Goblins with Broadsword`."""
    kind = a.kind
    target = safe(a.target) if a.target else None
    many = " and ".join(safe(t) for t in a.targets) if a.targets else None
    if kind == "attack":
        text = "attacks " + (target or many or "")
        return text.rstrip() + (f" with {safe(a.weapon)}" if a.weapon else "")
    if kind == "skill":
        text = f"tries {safe(a.skill)}" if a.skill else "tries a skill"
        return text + (f" on {target}" if target else "") + (f" ({safe(a.task)})" if a.task
                                                              else "")
    if kind == "move":
        text = "moves"
        if a.ranges:
            text += f" {plural(a.ranges, 'Range')}"
        if a.toward:
            text += f" toward {safe(a.toward)}"
        if a.away:
            text += f" away from {safe(a.away)}"
        return text
    if kind == "defend":
        return f"defends against {target}" if target else "defends"
    if kind == "cast":
        text = f"casts {safe(a.spell)}" if a.spell else "casts a spell"
        return text + (f" at {target or many}" if target or many else "")
    if kind == "watch":
        return "watches" + (f" for {safe(a.task)}" if a.task else "") + (
            f" ({target})" if target else "")
    verb = _VERBS.get(kind, kind)
    thing = a.item or a.weapon
    text = verb + (f" {safe(thing)}" if thing else "")
    return text + (f" {target}" if target and kind in _WITH_TARGET else "")


_VERBS = {
    "ready": "draws", "stow": "puts away", "drop": "drops", "switch": "switches to",
    "pickup": "picks up", "stand": "stands up", "remove": "removes", "ripout": "rips out",
    "tend": "tends", "extinguish": "puts out the fire on", "aim": "aims at",
}
_WITH_TARGET = {"tend", "extinguish", "aim"}
#: the rules' short notes as a player reads them
_NOTES = {"not triggered": "it did not happen"}


def _plural_verb(phrase: str) -> str:
    """`attack Mira` for a group's `attacks Mira`: the first word's verb in the plural."""
    verb, _, rest = phrase.partition(" ")
    if verb.endswith("ies"):
        verb = verb[:-3] + "y"
    elif verb.endswith(("ches", "shes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    return f"{verb} {rest}".rstrip()


def _defended(defences: Sequence[r.Defence]) -> str:
    parts = [f"{safe(d.name)} defends" + (f" with {d.ap} AP" if d.ap else "") for d in defences]
    return f" ({'; '.join(parts)})" if parts else ""


def _numbers(total: int | None, difficulty: int | None, base: str | None, level: str | None,
             spent: dict[str, int], guard: int, defences: Sequence[r.Defence] = ()) -> str:
    """`: 7 vs 7, Bare Success, +1 level from 1 SP Brawny: Solid Success`."""
    if total is None or difficulty is None:  # no roll, or its numbers hidden
        return (f": {_title(level)}" if level else "") + _defended(defences)
    text = f": {total} vs {difficulty}{_defended(defences)}"
    if level is None:
        return text
    lead = ", "
    if base is None or base == level and not spent and not guard:
        return text + lead + _title(level)
    moved = _LEVELS[level] - _LEVELS[base] + guard
    steps: list[str] = []
    if spent:
        shift = f"+{plural(moved, 'level')} from " if moved > 0 else ""
        steps.append(shift + _sp(spent) + ("" if moved > 0 else " spent"))
    elif moved > 0:
        steps.append(f"+{plural(moved, 'level')}")
    if guard:
        steps.append(f"-{plural(guard, 'level')} from a Guard")
    if not steps or base == level:
        return text + lead + _title(level) + (f", {', '.join(steps)}" if steps else "")
    return text + lead + f"{_title(base)}, {', '.join(steps)}: {_title(level)}"


def _effects(damage: int, specials: Sequence[str], eliminated: int, effective: bool) -> str:
    if not effective:
        return " · no effect"
    text = f" · {plural(damage, 'level')} of damage" if damage else ""
    if specials:
        text += " · " + ", ".join(safe(s) for s in specials)
    return text + (f" · {eliminated} eliminated" if eliminated else "")


def action_lines(a: r.ActionLine) -> list[str]:
    condition = f", if {safe(a.condition)}," if a.condition else ""
    what = _what(a)
    text = f"{safe(a.actor)}{condition} {_plural_verb(what) if a.group else what}"
    text += _numbers(a.total, a.difficulty, a.base, a.level, a.sp, a.guard, a.defences)
    if a.creatures:
        text += "" if a.effective else " · no effect"
    elif a.effective or "not triggered" not in a.notes:
        text += _effects(a.damage, a.specials, a.eliminated, a.effective)
    if a.shield:
        text += " · a shield covered it"
    for note in a.notes:
        text += f" · {safe(no_rule_codes(_NOTES.get(note, note)))}"
    lines = ["- " + text]
    for c in a.creatures:
        line = safe(c.name) + _numbers(c.total, c.difficulty, c.base, c.level, {}, c.guard)
        lines.append("    - " + line + _effects(c.damage, c.specials, c.eliminated,
                                                c.effective))
    if a.creatures and any(c.total is not None for c in a.creatures):
        done = sum(c.damage for c in a.creatures)
        gone = sum(c.eliminated for c in a.creatures)
        if done or gone:
            total = [plural(done, "level") + " of damage"] if done else []
            total += [f"{gone} eliminated"] if gone else []
            lines.append("    - in all: " + ", ".join(total))
    return lines


# ---- the rest ------------------------------------------------------------------------------------
def refusal_lines(b: r.Refusal) -> list[str]:
    return [f"- {possessive(safe(b.actor))} orders were refused: "
            f"{safe(no_rule_codes(b.message))}"]


def standing_lines(b: r.Standing) -> list[str]:
    if b.withheld:
        return [f"- {safe(b.name)}: this turn's results went to the parties only"]
    text = f"{safe(b.name)}: {safe(b.health)}"
    if b.hits:
        listed = "; ".join(
            f"{hit_name(h)}, {plural(h.levels, 'creature' if h.creatures else 'level')}"
            for h in b.hits)
        which = "it" if len(b.hits) == 1 else "each"
        text += (f" (provisional: {listed}; a Reduce line in the next post can lower {which} "
                 "by up to 2)")
    if b.statuses:
        text += " · " + ", ".join(safe(s) for s in b.statuses)
    return ["- " + text]


#: how each kind of event reads ({c}: the character, {d}: the detail)
_EVENTS = {
    "special": "{c} suffers {d}", "tick": "{c} takes damage from {d}", "died": "{c} dies ({d})",
    "woke": "{c} wakes up", "stabilized": "{c} is stabilized", "vaporized": "{c} is vaporized",
}


#: (a Healing check posted in the turn, F14, and one refused, say the whole sentence)
_SAID_BY_DETAIL = {"healed", "interrupted", "bound", "freed", "overflow", "healing_check",
                   "healing_refused"}


def event_lines(b: r.EventLine) -> list[str]:
    c, d = safe(b.character), safe(no_rule_codes(b.detail))
    form = _EVENTS.get(b.kind) if d or "{d}" not in _EVENTS.get(b.kind, "{d}") else None
    if form is None:  # the kinds whose detail is the sentence, else the kind then the detail
        form = ("{c}: {d}" if b.kind in _SAID_BY_DETAIL else "{c} {k}: {d}") if d else "{c} {k}"
    text = form.format(c=c, d=d, k=safe(b.kind))
    levels = f" ({plural(b.levels, 'level')})" if b.levels else ""
    return [f"- {text}{levels}"]


#: each section's heading (the actions' and the Xp lines' are the title's)
_HEADINGS = {"refusal": "**Refused orders**", "standing": "**Where things stand**",
             "event": "**Also**"}


def block_lines(block: r.Block) -> list[str]:
    if isinstance(block, r.ActionLine):
        return action_lines(block)
    if isinstance(block, r.Refusal):
        return refusal_lines(block)
    if isinstance(block, r.Standing):
        return standing_lines(block)
    if isinstance(block, r.EventLine):
        return event_lines(block)
    return [safe_xp(block.text)]


def safe_xp(text: str) -> str:
    """An Xp line (worded by the service from `render_xp`, names already safe), without codes."""
    return no_rule_codes(text)


def title(notice: n.Results) -> str:
    more = " (continued)" if notice.continued else ""
    if notice.dice_pools:
        return f"Turn {notice.turn} results ({notice.label}){more}:"
    return f"**Turn {notice.turn} results{more}**"


#: the lines of each block, when the caller has them (`parts` words each block once)
Lines = Callable[[r.Block], list[str]]


def text(notice: n.Results, lines_of: Lines = block_lines) -> str:
    """The results (or one part of them) in words."""
    lines = [title(notice)]
    section: str | None = None
    for block in notice.blocks:
        heading = _HEADINGS.get(block.type)
        if block.type != section and heading:
            lines.append(heading)
        section = block.type
        lines.extend(lines_of(block))
    if notice.dice_pools and not notice.blocks and not notice.continued:
        lines.append("Nothing to roll this turn.")
    return "\n".join(lines)


def pieces(notice: n.Results, limit: int, lines_of: Lines = block_lines) -> list[n.Results]:
    """`notice` cut into parts of whole blocks that each read in at most `limit` characters
    (its title on each, "continued" after the first); a block too long alone is a part alone."""
    return [piece for piece, _ in _cut(notice, limit, lines_of)]


def _cut(notice: n.Results, limit: int, lines_of: Lines) -> list[tuple[n.Results, str]]:
    """`pieces`, each with its words made inert (`inert(text(piece))`), written from each
    block's inert lines as they were measured, not worded and made inert a second time."""
    out: list[tuple[n.Results, str]] = []
    current: list[r.Block] = []
    said: list[str] = []  # the current part's headings and blocks' texts, inert
    head = len(title(notice.model_copy(update={"continued": True})))
    size = head
    section: str | None = None

    def close() -> None:
        piece = notice.model_copy(update={"blocks": tuple(current), "continued": bool(out)})
        words = [inert(title(piece)), *said]
        if piece.dice_pools and not current and not piece.continued:
            words.append("Nothing to roll this turn.")
        out.append((piece, "\n".join(words)))

    for block in notice.blocks:
        heading = _HEADINGS.get(block.type, "")
        lines = lines_of(block)
        # `inert` never reaches across a line break, so a block's lines are made inert
        # together, and a part's text is its blocks' inert texts joined
        body = inert("\n".join(lines)) if lines else None
        extra = len(body) + 1 if body is not None else 0
        if block.type != section or not current:
            extra += len(heading) + 1 if heading else 0
        if current and size + extra > limit:
            close()
            current, said, size = [], [], head
            extra += len(heading) + 1 if heading and block.type == section else 0
        if heading and (block.type != section or not current):
            said.append(heading)
        if body is not None:
            said.append(body)
        current.append(block)
        size += extra
        section = block.type
    close()
    return out


class Worded:
    """The lines of each block, worded once however often they are asked for (by the block's
    identity: the results' whole text, their parts and the parts' lengths read the same
    blocks). Holds each block it worded, so that no identity is reused while it lives."""

    __slots__ = ("_lines",)

    def __init__(self) -> None:
        self._lines: dict[int, tuple[r.Block, list[str]]] = {}

    def __call__(self, block: r.Block) -> list[str]:
        found = self._lines.get(id(block))
        if found is None:
            found = self._lines[id(block)] = (block, block_lines(block))
        return found[1]


def parts(notice: n.Results, limit: int, lines_of: Lines | None = None
          ) -> list[tuple[n.Results, list[str]]]:
    """Each piece of `notice` with its words cut into messages (one, but for a block too long
    for one message); each block worded once (`lines_of`: the caller's `Worded`, when it words
    the same blocks again)."""
    return [(piece, split_message(words, limit))
            for piece, words in _cut(notice, limit, lines_of or Worded())]

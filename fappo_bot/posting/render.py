"""Plain-text renderings shared by the Discord adapter and the local table (spec/posting.md
"The reply"; RULINGS F29 Rule, F7 step 8 PUBLISH).

Data in, text out: the orders reply (canonical orders, AP committed of the budget, SP left), the
error reply (every problem with its line) and a short GM summary of a turn (the results
themselves are data, worded by `fappo_bot.render.results`).
Nothing a player writes can ping anyone: every echoed name and prose goes through `safe` (or
`safe_prose`), and `split_message` keeps each message within Discord's 2,000 characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from fappo_bot.posting.errors import PostProblem
from fappo_bot.posting.models import ParsedPost
from fappo_bot.posting.render_results import render_gm_summary
from fappo_bot.posting.safety import (
    DISCORD_LIMIT,
    no_mentions,
    no_rule_codes,
    possessive,
    safe,
    safe_prose,
    split_message,
)
from fappo_bot.rules import (
    FLOATING,
    Action,
    ActionKind,
    Character,
    CustomTrait,
    Order,
    PendingHit,
    Trait,
    TurnState,
)
from fappo_bot.words import plural

__all__ = [
    "DISCORD_LIMIT", "describe_action", "no_mentions", "order_lines", "problem_text",
    "render_gm_summary", "render_order", "render_orders", "render_problems", "render_replaced",
    "render_reply", "safe", "safe_prose", "split_message", "sp_left",
]


# ---- the orders reply ---------------------------------------------------------------------------
def render_reply(parsed: ParsedPost, state: TurnState) -> str:
    """The reply to a post: its orders, or every problem (posting.md "The reply")."""
    if not parsed.ok:
        return render_problems(parsed.problems)
    return render_orders(parsed, state)


def render_orders(parsed: ParsedPost, state: TurnState) -> str:
    """Each order in canonical form with AP committed of the budget and SP left (F29)."""
    parts = [render_order(block.order, state.character(block.actor), block.ap_budget,
                          state.pending) for block in parsed.blocks]
    return "\n".join(parts) if parts else "No orders in this post (only prose)."


def render_order(order: Order, character: Character | None = None,
                 ap_budget: int | None = None, hits: Sequence[PendingHit] = (),
                 show_sp_left: bool = True) -> str:
    """One order in canonical form (posting.md "The reply"): `Kael: 3/3 AP committed`, one line
    per action, Guard (F5), Reduce (F13), Endure (F10), Intent and OOC, then `SP left: ...`
    (with a `character`, unless not `show_sp_left`: the NPC reveal leaves it out).
    Also for orders already recorded (the GM's review before resolution)."""
    lines = [""]  # the head, once the AP are added up
    committed = 0
    for action in order.actions:
        ap = action.ap or 0
        committed += ap
        lines.append(f"  {f'{ap} AP':<5} {describe_action(action, character)}")
    budget = f"/{ap_budget}" if ap_budget is not None else ""
    lines[0] = f"{safe(order.actor)}: {committed}{budget} AP committed"
    for pledge in order.guard:
        against = "any attack" if pledge.general else safe(pledge.against)
        lines.append(f"  Guard {_sp_text(pledge.sp)} against {against}")
    for reduction in order.reduce:
        why = f": {safe(reduction.why)}" if reduction.why else ""
        hit = next((h for h in hits if h.id == reduction.hit), None)
        what = hit_label(hit) if hit is not None else f"hit {safe(reduction.hit)}"
        lines.append(f"  Reduce {_sp_text(reduction.sp)} on {what}{why}")
    if order.endure:
        lines.append("  Endure 1 SP Tireless (to act while Incapacitated)")
    for binding in order.bind:
        paid = safe(binding.sacrifice) if binding.sacrifice else "a banked CC"
        lines.append(f"  Bind {safe(binding.item)} (sacrificing 1 point: {paid}; done as "
                     "the turn resolves)")
    if order.good_case:
        lines.append(f"  Good case (for the GM to rule on): {safe(order.good_case)}")
    if order.intent:
        lines.append(f"  Intent: {safe(order.intent)}")
    if order.ooc:
        lines.append(f"  OOC: {safe(order.ooc)}")
    if character is not None and show_sp_left:
        lines.append("SP left: " + sp_left(character, order))
    return "\n".join(lines)


def order_lines(order: Order, character: Character | None = None,
                hits: Sequence[PendingHit] = ()) -> list[str]:
    """An order's lines as `render_replaced` compares them: the action, Guard, Reduce and other
    lines of `render_order`, without the head or SP left."""
    body = render_order(order, character, None, hits, show_sp_left=False).split("\n")[1:]
    return [line.strip() for line in body]


def render_replaced(earlier: Order, now: Order, character: Character | None = None,
                    hits: Sequence[PendingHit] = (), before: Sequence[str] | None = None) -> str:
    """The note a reply adds when a post replaces orders given in an earlier post (F29 Amb-3:
    the last written wins): that it does, and what changed, line by line, Reduce and Guard
    lines included, so a player never loses a line without being told. `before`: the
    `order_lines` of `earlier` (for `character` and `hits`), when the caller has them."""
    before = order_lines(earlier, character, hits) if before is None else before
    after = order_lines(now, character, hits)
    gone = [line for line in before if line not in after]
    new = [line for line in after if line not in before]
    head = f"This post replaces {possessive(safe(now.actor))} orders from an earlier post"
    if earlier.passed and not now.passed:
        return head + " (a pass)."
    if not gone and not new:
        return head + " (the same orders)."
    out = [head + "; what changed:"]
    out.extend(f"  - no longer: {line}" for line in gone)
    out.extend(f"  + now: {line}" for line in new)
    return "\n".join(out)


def hit_label(hit: PendingHit) -> str:
    """`Bandit's Longsword hit (3 levels)`: a hit as a player names it in a Reduce line."""
    if hit.attacker:
        name = possessive(safe(hit.attacker)) + (f" {safe(hit.weapon)}" if hit.weapon else "")
    else:
        name = f"the {safe(hit.weapon)}" if hit.weapon else "the"
    return f"{name} hit ({plural(hit.levels, 'level')})"


def sp_left(character: Character, order: Order) -> str:
    """The SP each pool keeps once this order's SP are spent (F4, F5, F10, F13)."""
    spent: dict[str, int] = {}
    tables: list[dict[str, int]] = []
    for action in order.actions:
        tables.extend((action.sp, action.cast_sp, action.attack_sp))
    tables.extend(p.sp for p in order.guard)
    tables.extend(r.sp for r in order.reduce)
    if order.endure:
        tables.append({"Tireless": 1})
    for table in tables:
        for pool, amount in table.items():
            spent[pool] = spent.get(pool, 0) + amount
    parts = []
    for trait, sp in character.traits.items():
        pool = _POOL_NAMES.get(trait) or trait.value  # a game's own Trait by its name
        parts.append(f"{safe(pool)} {sp - spent.get(pool, 0)}")
    if character.floating or spent.get(FLOATING):
        parts.append(f"floating {character.floating - spent.get(FLOATING, 0)}")
    return ", ".join(parts) if parts else "none"


#: each Trait's pool name, looked up (`Trait.value` is an enum property: slow in a loop)
_POOL_NAMES: dict[Trait | CustomTrait, str] = {trait: trait.value for trait in Trait}


def _sp_text(sp: dict[str, int]) -> str:
    return " + ".join([f"{n} SP {safe(pool)}" for pool, n in sp.items()]) or "0 SP"


def describe_action(action: Action, character: Character | None = None) -> str:
    """One action in canonical words: `attack Goblin 1 · Broadsword (Swordfighting 3) · 1 SP
    Nimble`; claims are marked pending, conditionals as such (F4, F9)."""
    parts = [_what(action, character)]
    if action.special:
        parts.append(f"going for {safe(action.special)}")
    if action.sp:
        parts.append(_sp_text(action.sp))
    if action.cast_sp:
        parts.append(_sp_text(action.cast_sp))
    if action.attack_sp:
        parts.append("to hit " + _sp_text(action.attack_sp))
    if action.why:
        parts.append(f"({safe(action.why)})")
    if action.claim is not None:
        reason = f" ({safe(action.claim.reason)})" if action.claim.reason else ""
        parts.append(f"claims {action.claim.value:+d}{reason}, pending the GM")
    text = " · ".join(parts)
    if action.condition is not None:
        text = f"if {safe(action.condition)}: {text} [conditional: the GM rules whether it " \
               "happens; the AP are spent either way]"
    return text


def _what(action: Action, character: Character | None) -> str:
    kind = action.kind
    target = safe(action.target) if action.target else None
    if kind is ActionKind.ATTACK:
        who = target or ("the one in the condition" if action.condition else "?")
        return f"attack {who} · {_weapon_text(action, character)}"
    if kind is ActionKind.DEFEND:
        return f"defend against {safe(action.against)}" if action.against else "defend (all attacks)"
    if kind is ActionKind.SKILL:
        skill = action.skill or "?"
        text = f"{safe(skill)} ({_rating(character, skill)})"
        if target:
            text += f" on {target}"
        return text + (f": {safe(action.task)}" if action.task else "")
    if kind is ActionKind.MOVE:
        ranges = action.ranges or 1
        text = f"move {plural(ranges, 'Range')}"
        if action.toward:
            text += f" toward {safe(action.toward)}"
        if action.away:
            text += f" away from {safe(action.away)}"
        return text
    if kind is ActionKind.CAST:
        text = f"cast {safe(action.spell or '?')}"
        aims = [target] if target else [safe(t) for t in action.targets or ()]
        if aims:
            text += " at " + " and ".join(a for a in aims if a)
        if action.ranges is not None:
            text += f" at {action.ranges} Ranges"
        if action.accuracy:
            text += f" {action.accuracy:+d} accuracy"
        return text
    if kind in (ActionKind.TEND, ActionKind.AIM, ActionKind.EXTINGUISH):
        return f"{kind.value} {target}" if target else kind.value
    if kind is ActionKind.WATCH:
        return f"watch for {safe(action.task)}" if action.task else "watch"
    verb = _VERBS.get(kind, kind.value)
    return f"{verb} {safe(action.item)}" if action.item else verb


_VERBS = {
    ActionKind.READY: "draw", ActionKind.STOW: "put away", ActionKind.DROP: "drop",
    ActionKind.SWITCH: "switch to", ActionKind.PICKUP: "pick up", ActionKind.STAND: "stand up",
    ActionKind.REMOVE: "remove", ActionKind.RIPOUT: "rip out",
}


def _weapon_text(action: Action, character: Character | None) -> str:
    weapon = character.weapon(action.weapon) if character is not None else None
    name = action.weapon or (weapon.name if weapon is not None else "weapon in hand")
    skill = action.skill or (weapon.skill if weapon is not None else None)
    if skill is None:
        return safe(name)
    return f"{safe(name)} ({safe(skill)} {_rating(character, skill)})"


def _rating(character: Character | None, skill: str) -> int:
    if character is None:
        return 0
    key = skill.casefold()
    for name, rating in character.skills.items():
        if name.casefold() == key:
            return rating
    return 0


# ---- the error reply ----------------------------------------------------------------------------
def render_problems(problems: Iterable[PostProblem]) -> str:
    """Every problem of a post, with its line, words, what was expected and a suggestion (F29)."""
    listed = list(problems)
    lines = {p.line for p in listed}
    count = len(lines)
    head = (f"I couldn't use {plural(count, 'line')} of this post "
            "(nothing is recorded until they are fixed):")
    body = [f"  {problem_text(p)}" for p in listed]
    return "\n".join([head, *body])


def problem_text(problem: PostProblem) -> str:
    """`line 4 "2 AP attack Gobbo": no one called "Gobbo" here. Did you mean "Goblin 1"?`
    (posting.md "The reply": line, words, what was expected, a suggestion)."""
    message = safe_sentence(problem.message)
    text = f'line {problem.line} "{safe(problem.words)}": {message}'
    text += "" if message.endswith(("?", ".", "!")) else "."
    if problem.hint:
        text += f" {_capital(safe_sentence(problem.hint))}"
        if not problem.hint.endswith(("?", ".", "!")):
            text += "."
    if problem.expected and (problem.code.value == "syntax" or not problem.hint):
        text += f" Expected: {safe_sentence(problem.expected)}."
    return text


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def safe_sentence(text: str) -> str:
    """A message sentence for a player: mentions broken and markdown made inert, quotes kept
    readable, no rule codes nor rulebook line tags (a GM's detail)."""
    return safe(no_rule_codes(text))

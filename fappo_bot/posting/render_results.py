"""Turn results as text: each action, the characters it touched, the events, and a short GM
summary (RULINGS F7 step 8 PUBLISH; hits stay provisional until their targets' posts, F13)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from fappo_bot.posting.safety import possessive, safe, without_rule_tags
from fappo_bot.rules import (
    ELIMINATION,
    ActionResult,
    Character,
    PendingHit,
    RulesConfig,
    TargetResult,
    TurnResult,
    fold,
    level_name,
)


def render_turn(result: TurnResult, audience: Collection[str] | None = None) -> str:
    """A resolution for the channel: each action, then each character touched, then events
    (F7 step 8; hits stay provisional until their targets' next posts, F13).

    With an `audience` (secret PvP orders, F29: "results published per GM choice: public |
    parties-only"), only what concerns those characters: their actions and the actions aimed at
    them, the characters those actions touched, their refused orders and their events.
    """
    wanted = None if audience is None else {fold(n) for n in audience}
    actions = [a for a in result.actions if wanted is None or _concerns(a, wanted)]
    lines = [f"**Turn {result.turn} results**"]
    for action in actions:
        lines.append("- " + describe_result(action))
        lines.extend(f"    - {describe_target(t)}" for t in action.targets)
    for error in result.errors:
        if wanted is None or fold(error.actor) in wanted:
            lines.append(f"- {possessive(safe(error.actor))} orders were refused: "
                         f"{safe(without_rule_tags(error.message))}")
    touched = _touched(result, actions, wanted)
    if touched:
        lines.append("**Where things stand**")
        hits = _hits_by_target(result.hits)
        config = result.state.config
        for character in result.state.characters:
            if fold(character.name) in touched:
                lines.append("- " + _character_line(
                    character, config, hits.get(character.name, ())))
    events = [e for e in result.events if wanted is None or fold(e.character) in touched]
    if events:
        lines.append("**Also**")
        for event in events:
            detail = f": {safe(event.detail)}" if event.detail else ""
            levels = f" ({event.levels} level{'s' if event.levels != 1 else ''})" \
                if event.levels else ""
            if event.kind in _SENTENCE_EVENTS:  # the detail says it all
                lines.append(f"- {safe(event.character)}{detail}")
                continue
            lines.append(f"- {safe(event.character)} {safe(event.kind)}{detail}{levels}")
    return "\n".join(lines)


#: events whose detail is a whole sentence about the character (a Healing check posted in the
#: turn, F14; one refused)
_SENTENCE_EVENTS = frozenset({"healing_check", "healing_refused"})


def _concerns(action: ActionResult, wanted: set[str]) -> bool:
    names = {action.actor, *(t.name for t in action.targets)}
    if action.target:
        names.add(action.target)
    return any(fold(n) in wanted for n in names)


def describe_result(action: ActionResult) -> str:
    """`Kael attacks Goblin 1: 6 vs 3 (+3), Great Success · 4 levels of damage · Bleeding` (F4
    levels, F12 damage and Specials, F20/F21 eliminations)."""
    who = safe(action.actor)
    verb = _RESULT_VERBS.get(action.kind, action.kind)
    if action.target:
        verb += _TARGET_WORDS.get(action.kind, " ") + safe(action.target)
    text = f"{who} {verb}"
    if action.total is not None and action.difficulty is not None:
        text += f": {action.total} vs {action.difficulty}"
        if action.margin is not None:
            text += f" ({action.margin:+d})"
    if action.level is not None:
        text += f", {action.level.title}"
    if action.targets:  # a cast or an area attack: the effects are per creature, below
        text += "" if action.effective else " · no effect"
    else:
        text += _effects(action.damage, action.specials, action.eliminated, action.effective)
    if action.pledged:
        text += f" · lowered {action.pledged} by Guard"
    if action.shield:
        text += " · shield"
    for note in action.notes:
        text += f" · {safe(without_rule_tags(note))}"
    return text


#: the word before an action's target: "Kael defends against Skarg" (not "defends Skarg", which
#: reads as shielding him), "casts at", "aims at"
_TARGET_WORDS = {"cast": " at ", "defend": " against ", "aim": " at "}
_RESULT_VERBS = {
    "attack": "attacks", "defend": "defends", "skill": "uses a skill", "move": "moves",
    "ready": "draws", "stow": "puts away", "drop": "drops", "switch": "switches weapons",
    "pickup": "picks up", "stand": "stands up", "remove": "removes", "ripout": "rips out",
    "cast": "casts", "tend": "tends", "watch": "watches", "extinguish": "puts out the fire",
    "aim": "aims",
}


def describe_target(target: TargetResult) -> str:
    """One creature of an area attack or a spell's attack stage (F19, F25)."""
    text = safe(target.name)
    if target.total is not None and target.difficulty is not None:
        text += f": {target.total} vs {target.difficulty}"
        if target.margin is not None:
            text += f" ({target.margin:+d})"
    if target.level is not None:
        text += f", {target.level.title}"
    return text + _effects(target.damage, target.specials, target.eliminated, target.effective)


def _effects(damage: int, specials: tuple[str, ...], eliminated: int, effective: bool) -> str:
    if not effective:
        return " · no effect"
    text = ""
    if damage:
        text += f" · {damage} level{'s' if damage != 1 else ''} of damage"
    if specials:
        text += " · " + ", ".join(safe(s) for s in specials)
    if eliminated:
        text += f" · {eliminated} eliminated"
    return text


def _touched(result: TurnResult, actions: list[ActionResult], wanted: set[str] | None
             ) -> set[str]:
    """The characters to show (case-folded): those the shown actions touched, and (for everyone)
    those with events or new hits, or (for an audience) the audience itself."""
    names = {a.actor for a in actions}
    names.update(a.target for a in actions if a.target)
    names.update(t.name for a in actions for t in a.targets)
    folded = {fold(n) for n in names}
    if wanted is None:
        folded.update(fold(e.character) for e in result.events)
        folded.update(fold(h.target) for h in result.hits)
    else:
        folded.update(wanted)
    return folded


def _hits_by_target(hits: Iterable[PendingHit]) -> dict[str, list[PendingHit]]:
    """The turn's provisional hits by the exact name of their target, in turn order: grouped once
    per rendering, so that each character's line does not scan every hit of the turn."""
    grouped: dict[str, list[PendingHit]] = {}
    for hit in hits:
        grouped.setdefault(hit.target, []).append(hit)
    return grouped


def describe_character(character: Character, result: TurnResult) -> str:
    """`Goblin 1: Battered (provisional: h3 3 levels from Kael's Broadsword) · bleeding` (F11
    level names, F13 provisional hits, F18 statuses)."""
    hits = [h for h in result.hits if h.target == character.name]
    return _character_line(character, result.state.config, hits)


def _character_line(character: Character, config: RulesConfig, hits: Sequence[PendingHit]) -> str:
    if character.is_fodder:
        left = f"{character.count} left" if character.count else "all eliminated"
        text = f"{safe(character.name)}: {left}"
    else:
        text = f"{safe(character.name)}: {level_name(character, config)}"
    if hits:
        listed = "; ".join(
            f"{safe(h.id)} {h.levels} {_unit(h)}{'s' if h.levels != 1 else ''}"
            + (f" from {possessive(safe(h.attacker))} {safe(h.weapon)}" if h.attacker and h.weapon
               else f" from {safe(h.attacker)}" if h.attacker else "")
            for h in hits
        )
        text += f" (provisional: {listed}; a Reduce line in the next post can lower each by 2)"
    if character.statuses:
        text += " · " + ", ".join(s.kind.value for s in character.statuses)
    return text


def _unit(hit: PendingHit) -> str:
    """What a hit counts: levels, or creatures eliminated (`fodder_can_reduce`, F13 Amb-8)."""
    return "creature" if hit.source == ELIMINATION else "level"


def _total(own: int, per_target: list[int]) -> int:
    """An action's damage or eliminations: its own, or its targets' when it has targets."""
    return sum(per_target) if per_target else own


def render_gm_summary(result: TurnResult) -> str:
    """A short summary for the GM: counts, refused orders, pending hits and deaths (F7 step 8,
    F13, F15)."""
    damage = sum(_total(a.damage, [t.damage for t in a.targets]) for a in result.actions)
    eliminated = sum(_total(a.eliminated, [t.eliminated for t in a.targets])
                     for a in result.actions)
    lines = [
        f"Turn {result.turn}: {len(result.actions)} action(s), {damage} level(s) of damage, "
        f"{eliminated} eliminated, {len(result.errors)} order(s) refused."
    ]
    if result.errors:
        lines.append("Refused: " + "; ".join(
            f"{safe(e.actor)} ({e.code.value})" for e in result.errors))
    if result.hits:
        lines.append("Pending hits: " + ", ".join(
            f"{safe(h.id)} {safe(h.target)} {h.levels}" for h in result.hits))
    dead = [e.character for e in result.events if e.kind == "died"]
    if dead:
        lines.append("Died: " + ", ".join(safe(n) for n in dead))
    return "\n".join(lines)

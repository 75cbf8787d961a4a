"""A short summary of a turn's results for the GM (RULINGS F7 step 8 PUBLISH). The results
themselves are data (`service/results_report.py`), worded by `fappo_bot.render.results`."""

from __future__ import annotations

from fappo_bot.posting.safety import safe
from fappo_bot.rules import TurnResult
from fappo_bot.words import plural


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
        f"Turn {result.turn}: {plural(len(result.actions), 'action')}, "
        f"{plural(damage, 'level')} of damage, {eliminated} eliminated, "
        f"{plural(len(result.errors), 'order')} refused."
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

"""An Xp contest in words (X7): who won and the fact that decided it (the successes each side
counts, a fumble that counts none, the tie-breaks, or the tie awarded), and each side's roll
with its tie-breaks. Split from `xp_resolve.py`, which writes a turn's contests with them."""

from __future__ import annotations

from fappo_bot.posting.safety import safe
from fappo_bot.render_xp import faces_text, roll_text
from fappo_bot.rules_xp.contest import ContestResult, ContestSide
from fappo_bot.words import plural


def contest_verdict(result: ContestResult) -> str:
    """Who wins a contest and the fact that decided it (X7): the successes each side counts, a
    fumble that counts none (Amb-3), the tie-breaks, or the tie awarded."""
    winner = next(s for s in result.sides if s.name == result.winner)
    loser = next(s for s in result.sides if s is not winner)
    score = f"{winner.total} to {loser.total}"
    fumbled = [s for s in result.sides if s.roll.fumble]
    why = "".join(f"; {safe(s.name)}'s roll is a fumble (more ones than successes), so its "
                  f"{plural(s.roll.s, 'success')} {'counts' if s.roll.s == 1 else 'count'} for "
                  "nothing" for s in fumbled if s.roll.s)
    if result.decided_by == "successes":
        return f"{safe(result.winner)} wins by {result.net} ({score} successes{why})"
    if result.decided_by == "tiebreak":
        return (f"{safe(result.winner)} wins by {result.net} after "
                f"{plural(result.tiebreaks, 'tie-break')} ({score} successes in all{why})")
    whose = "the player's side" if result.decided_by == "player" else "the chosen side"
    return (f"{safe(result.winner)} wins by 0 (still tied at {winner.total} after "
            f"{plural(result.tiebreaks, 'tie-break')}: {whose} wins, X7{why})")


def contest_side(side: ContestSide) -> str:
    """One side of a contest: its roll, what of it counts, and each tie-break, in words:
    `Nefer: 6d at Normal (5-6): [5 2 6 1 3 4] -> 2 successes, 1 one; tie-break 1: the dice
    that failed again [1 3 1 5]: 3 successes in all`."""
    text = f"  {safe(side.name)}: {roll_text(side.roll, outcome=False)}"
    if side.roll.fumble:
        text += ": a fumble, it counts 0"
    if not side.rerolls:
        return text
    breaks = "; ".join(f"tie-break {n}: the dice that failed again {faces_text(faces)}"
                       for n, faces in enumerate(side.rerolls, start=1))
    return f"{text}; {breaks}: {plural(side.total, 'success')} in all"

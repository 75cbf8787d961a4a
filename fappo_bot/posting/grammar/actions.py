"""Action statements: `N AP ACTION [, SP ...] [, +M (reason)]` (spec/posting.md "Actions";
RULINGS F4, F8, F9, F25).

An action is a verb (or a skill name) with its own slots (grammar/slots.py), followed by SP
clauses and modifier claims in any order; several actions may share a statement (an extension).
"""

from __future__ import annotations

from fappo_bot.posting.grammar.clauses import (
    BASE_STOPS,
    Cursor,
    ap_count,
    claim,
    phrase,
    sp_clause,
    words_text,
)
from fappo_bot.posting.grammar.slots import HEADS, SLOTS, skill_name, target_slot, task_slot
from fappo_bot.posting.grammar.verbs import Draft, Slot, next_action_at, typo_verb, verb_at
from fappo_bot.posting.lexer import TokKind
from fappo_bot.posting.names import resolve
from fappo_bot.posting.scene import Scene
from fappo_bot.rules import ActionKind, Claim, ErrorCode

K = ActionKind


def parse_action(cur: Cursor, scene: Scene, ap: int | None, condition: str | None) -> Draft | None:
    """Read the action at the cursor (after any `If ...:` and AP count); None if no action starts
    here (then nothing is consumed). F8: the AP go to this action; F9: a condition rides on it."""
    found = verb_at(cur)
    if found is None:
        return _skill_use(cur, scene, ap, condition)
    return _verb_action(cur, scene, found[0], found[1], ap, condition)


def _new_draft(kind: ActionKind, ap: int | None, condition: str | None) -> Draft:
    draft = Draft(kind)
    if ap is not None:
        draft.fields["ap"] = ap
    if condition is not None:
        draft.fields["condition"] = condition
    return draft


def _verb_action(cur: Cursor, scene: Scene, kind: ActionKind, n: int, ap: int | None,
                 condition: str | None) -> Draft:
    verb_tok = cur.toks[cur.i]
    cur.i += n
    draft = _new_draft(kind, ap, condition)
    HEADS[kind](cur, scene, draft, verb_tok)
    _options(cur, scene, draft, SLOTS.get(kind, ()))
    return draft


def _skill_use(cur: Cursor, scene: Scene, ap: int | None, condition: str | None) -> Draft | None:
    """`SKILL [on/at/against TARGET] [: what]` (posting.md "skill use")."""
    start = cur.i
    words = phrase(cur, BASE_STOPS, scene.skills)
    if not words:
        return None
    found = resolve(words_text(words), scene.skills)
    if not found.ok and not found.ambiguous:
        verb = typo_verb(words[0].key)
        if verb is not None:  # "atack Goblin": one typo from a verb
            cur.i = start
            return _verb_action(cur, scene, verb, 1, ap, condition)
    draft = _new_draft(K.SKILL, ap, condition)
    skill_name(cur, scene, draft, words)
    _options(cur, scene, draft, (target_slot, task_slot))
    return draft



def _options(cur: Cursor, scene: Scene, draft: Draft, slots: tuple[Slot, ...]) -> None:
    """Slots and clauses in any order until the statement ends."""
    while True:
        if next_action_at(cur):
            return
        cur.skip_separators()
        if cur.done:
            return
        if _any_slot(cur, scene, draft, slots) or _any_slot(cur, scene, draft, _COMMON):
            continue
        start, end = cur.skip_clause()
        hint = "put SP clauses and modifiers after the action, separated by commas"
        if draft.kind is K.DEFEND:  # "defend Mira", "defend her": a new player's first guess
            hint = ("a defense is your own (F5): defend, or defend against ATTACKER; " + hint)
        cur.issue(ErrorCode.SYNTAX, f'I couldn\'t read "{cur.slice(start, end)}"', start, end,
                  expected=_expected(draft.kind), hint=hint)



def _any_slot(cur: Cursor, scene: Scene, draft: Draft, slots: tuple[Slot, ...]) -> bool:
    for slot in slots:
        if slot(cur, scene, draft):
            return True
    return False


def _expected(kind: ActionKind) -> str:
    return {
        K.ATTACK: "with WEAPON, going for SPECIAL, N SP TRAIT or +N (reason)",
        K.CAST: "at TARGET, at N ranges, +N accuracy, N SP TRAIT, to hit N SP TRAIT",
        K.MOVE: "toward/away from TARGET",
        K.DEFEND: "against ATTACKER, N SP TRAIT or +N (reason)",
    }.get(kind, "N SP TRAIT or +N (reason)")


# ---- common clauses ---------------------------------------------------------------------------
def _sp(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    clause = sp_clause(cur)
    if clause is None:
        return False
    draft.sp_spans.append((clause.start, clause.end))
    key = "sp"
    if draft.kind is K.CAST:
        key = "attack_sp" if draft.attack_stage else "cast_sp"
    if clause.pool:
        pools: dict[str, int] = draft.fields.setdefault(key, {})
        pools[clause.pool] = pools.get(clause.pool, 0) + clause.amount
    if clause.why:
        draft.fields["why"] = _join(draft.fields.get("why"), clause.why)
    return True


def _claim(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    tok = cur.peek()
    if tok is None or tok.kind is not TokKind.SIGNED:
        return False
    if draft.kind is K.CAST and cur.key(1) == "accuracy":
        cur.i += 2
        draft.fields["accuracy"] = draft.fields.get("accuracy", 0) + int(tok.text)
        return True
    found = claim(cur)
    assert found is not None
    value, reason = found
    old = draft.fields.get("claim")
    if isinstance(old, Claim):
        value += old.value
        reason = _join(old.reason, reason)
    draft.fields["claim"] = Claim(value=value, reason=reason)
    return True


def _to_hit(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    tok = cur.peek()
    if not cur.accept("to", "hit"):
        return False
    cur.accept_kind(TokKind.COLON)
    if draft.kind is not K.CAST:
        assert tok is not None
        cur.issue(ErrorCode.SYNTAX, '"to hit" splits the SP of a cast', tok.start, tok.end + 4,
                  expected="cast SPELL ..., N SP TRAIT, to hit N SP TRAIT",
                  hint='leave out "to hit": SP clauses of other actions all go to the action')
    draft.attack_stage = True
    return True


def _trailing_ap(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    tok = cur.peek()
    n = ap_count(cur)
    if n is None or tok is None:
        return False
    if "ap" in draft.fields and draft.fields["ap"] != n:
        cur.issue(ErrorCode.SYNTAX, "two different AP counts for one action", tok.start, tok.end,
                  expected="one AP count", hint="write the AP count once, at the start")
    draft.fields.setdefault("ap", n)
    return True


def _note(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    tok = cur.accept_kind(TokKind.PAREN)
    if tok is None:
        return False
    if tok.text.strip():
        draft.fields["why"] = _join(draft.fields.get("why"), tok.text.strip())
    return True


_COMMON: tuple[Slot, ...] = (_sp, _claim, _to_hit, _trailing_ap, _note)


def _join(old: object, new: str | None) -> str | None:
    if not new:
        return old if isinstance(old, str) else None
    return f"{old}; {new}" if isinstance(old, str) and old else new


# ---- heads: the verb's object ----------------------------------------------------------------

"""Action statements: `N AP ACTION [, SP ...] [, +M (reason)]` (spec/posting.md "Actions";
RULINGS F8, F9, F16, F25).

An action is a verb (or a skill name) with its own slots (`with WEAPON`, `against TARGET`,
`at N ranges`...), followed by SP clauses and modifier claims in any order. Every slot and clause
may come in any order after the verb's object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fappo_bot.posting.grammar.clauses import (
    AP_WORDS,
    BASE_STOPS,
    RANGE_WORDS,
    Cursor,
    ap_count,
    claim,
    is_pronoun,
    name_in,
    phrase,
    sp_clause,
    text_until_clause,
    words_text,
)
from fappo_bot.posting.lexer import Tok, TokKind, number_of
from fappo_bot.posting.names import one_typo, resolve
from fappo_bot.posting.scene import SPECIALS, Scene
from fappo_bot.rules.data import AP_COSTS
from fappo_bot.rules.orders import ActionKind, Claim
from fappo_bot.rules.results import ErrorCode

K = ActionKind
#: verbs and their synonyms, longest first within each kind (posting.md's table, plus extensions)
VERBS: tuple[tuple[tuple[str, ...], ActionKind], ...] = (
    (("put", "away"), K.STOW), (("put", "out"), K.EXTINGUISH), (("pick", "up"), K.PICKUP),
    (("stand", "up"), K.STAND), (("get", "up"), K.STAND), (("rip", "out"), K.RIPOUT),
    (("tear", "out"), K.RIPOUT), (("pull", "out"), K.REMOVE), (("switch", "to"), K.SWITCH),
    (("swap", "to"), K.SWITCH), (("be", "watchful"), K.WATCH), (("keep", "watch"), K.WATCH),
    (("use",), K.SKILL), (("uses",), K.SKILL),
    *(((w,), K.ATTACK) for w in ("attack", "attacks", "hit", "hits", "strike", "strikes",
                                   "shoot", "shoots", "stab", "stabs", "slash", "slashes")),
    *(((w,), K.DEFEND) for w in ("defend", "defends", "defense", "defence", "parry", "dodge",
                                   "block")),
    *(((w,), K.MOVE) for w in ("move", "moves", "run", "runs", "walk", "sprint")),
    (("draw",), K.READY), (("ready",), K.READY), (("unsling",), K.READY),
    (("stow",), K.STOW), (("sheathe",), K.STOW), (("sheath",), K.STOW), (("holster",), K.STOW),
    (("drop",), K.DROP), (("drops",), K.DROP), (("switch",), K.SWITCH), (("swap",), K.SWITCH),
    (("pickup",), K.PICKUP), (("grab",), K.PICKUP), (("stand",), K.STAND),
    (("remove",), K.REMOVE), (("ripout",), K.RIPOUT), (("cast",), K.CAST), (("casts",), K.CAST),
    (("tend",), K.TEND), (("attend",), K.TEND), (("bind",), K.TEND), (("stabilize",), K.TEND),
    (("stabilise",), K.TEND), (("watch",), K.WATCH), (("extinguish",), K.EXTINGUISH),
    (("aim",), K.AIM), (("steady",), K.AIM),
)
_SINGLE_VERBS = frozenset(words[0] for words, _ in VERBS if len(words) == 1)
_ANYONE = frozenset({"all", "any", "anyone", "everyone", "anybody", "everybody", "everything",
                     "attacks", "attackers", "all attacks"})
#: fixed AP costs (F8 table), for the hint of a missing AP count
_FIXED_COST = {K.READY: AP_COSTS["ready"], K.STOW: AP_COSTS["stow"], K.SWITCH: AP_COSTS["switch"],
               K.PICKUP: AP_COSTS["pickup"], K.STAND: AP_COSTS["stand"],
               K.RIPOUT: AP_COSTS["ripout"]}


def verb_at(cur: Cursor, k: int = 0) -> tuple[ActionKind, int] | None:
    """The action verb starting `k` tokens ahead and how many words it takes."""
    first = cur.key(k)
    if not first:
        return None
    for words, kind in VERBS:
        if words[0] == first and all(cur.key(k + j) == w for j, w in enumerate(words[1:], 1)):
            return kind, len(words)
    return None


def typo_verb(word: str) -> ActionKind | None:
    """The verb one typo away from `word` (`atack`), when there is exactly one."""
    kinds = {kind for words, kind in VERBS
             if len(words) == 1 and len(word) > 3 and one_typo(word, words[0])}
    return kinds.pop() if len(kinds) == 1 else None


@dataclass(slots=True)
class Draft:
    """An action being read: its kind and fields (Action's names), and where its SP were."""

    kind: ActionKind
    fields: dict[str, Any] = field(default_factory=dict)
    sp_spans: list[tuple[int, int]] = field(default_factory=list)
    attack_stage: bool = False


Slot = Callable[[Cursor, Scene, Draft], bool]


def parse_action(cur: Cursor, scene: Scene, ap: int | None, condition: str | None) -> Draft | None:
    """Read the action at the cursor (after any `If ...:` and AP count); None if no action starts
    here (then nothing is consumed)."""
    found = verb_at(cur)
    if found is None:
        return _skill_use(cur, scene, ap, condition)
    return _verb_action(cur, scene, found[0], found[1], ap, condition)


def _new_draft(kind: ActionKind, ap: int | None, condition: str | None) -> Draft:
    draft = Draft(kind)
    if ap is not None:
        draft.fields["ap"] = ap
    if condition is not None:
        draft.fields["if"] = condition
    return draft


def _verb_action(cur: Cursor, scene: Scene, kind: ActionKind, n: int, ap: int | None,
                 condition: str | None) -> Draft:
    verb_tok = cur.toks[cur.i]
    cur.i += n
    draft = _new_draft(kind, ap, condition)
    _HEADS[kind](cur, scene, draft, verb_tok)
    _options(cur, scene, draft, _SLOTS.get(kind, ()))
    return draft


def _skill_use(cur: Cursor, scene: Scene, ap: int | None, condition: str | None) -> Draft | None:
    """`SKILL [on/at/against TARGET] [: what]` (posting.md "skill use")."""
    start = cur.i
    words = phrase(cur, BASE_STOPS)
    if not words:
        return None
    found = resolve(words_text(words), scene.skills)
    if not found.ok and not found.ambiguous:
        verb = typo_verb(words[0].key)
        if verb is not None:  # "atack Goblin": one typo from a verb
            cur.i = start
            return _verb_action(cur, scene, verb, 1, ap, condition)
    draft = _new_draft(K.SKILL, ap, condition)
    _skill_name(cur, scene, draft, words)
    _options(cur, scene, draft, (_target_slot, _task_slot))
    return draft


def _skill_name(cur: Cursor, scene: Scene, draft: Draft, words: list[Tok]) -> None:
    name = name_in(cur, words, scene.skills, "action or skill")
    if name is not None:
        draft.fields["skill"] = name


def _head_use(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "use what?", verb.start, verb.end, expected="use SKILL")
        return
    _skill_name(cur, scene, draft, words)


def _options(cur: Cursor, scene: Scene, draft: Draft, slots: tuple[Slot, ...]) -> None:
    """Slots and clauses in any order until the statement ends."""
    while True:
        cur.skip_separators()
        if cur.done:
            return
        if _any_slot(cur, scene, draft, slots) or _any_slot(cur, scene, draft, _COMMON):
            continue
        start, end = cur.skip_clause()
        cur.issue(ErrorCode.SYNTAX, f'I couldn\'t read "{cur.slice(start, end)}"', start, end,
                  expected=_expected(draft.kind),
                  hint="put SP clauses and modifiers after the action, separated by commas")


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
def _target(cur: Cursor, scene: Scene, draft: Draft, key: str, words: list[Tok]) -> None:
    if not words:
        return
    if is_pronoun(words):
        if "if" not in draft.fields:
            cur.issue(ErrorCode.UNKNOWN_NAME, f'"{words[0].text}" names no one here',
                      words[0].start, words[0].end, expected="a character's name",
                      hint='"it"/"them" only stand for the thing in an "If ...:" condition')
        return
    if words_text(words).casefold() in _ANYONE:
        return
    name = name_in(cur, words, scene.characters, "one")
    if name is not None:
        draft.fields[key] = name


def _head_attack(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("at") or cur.accept("on")
    words = phrase(cur)
    if not words and "if" not in draft.fields:
        cur.issue(ErrorCode.SYNTAX, "attack whom?", verb.start, verb.end,
                  expected="attack TARGET [with WEAPON]", hint="name the target: attack Goblin 1")
    _target(cur, scene, draft, "target", words)


def _head_defend(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    return None


def _head_move(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    n = number_of(cur.peek(), words=False)
    if n is not None:
        cur.i += 1
        cur.accept("ranges") or cur.accept("range")
        draft.fields["ranges"] = n
    elif draft.fields.get("ap") is not None:
        draft.fields["ranges"] = int(draft.fields["ap"]) + 1  # F16: "a post may give either number"
    else:
        cur.issue(ErrorCode.SYNTAX, "move how far?", verb.start, verb.end,
                  expected="move N (the Ranges moved)", hint="write move 2, or 1 AP move")


def _weapon_head(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if not words:
        cur.issue(ErrorCode.SYNTAX, f"{verb.text} what?", verb.start, verb.end,
                  expected=f"{verb.text} WEAPON")
        return
    name = name_in(cur, words, scene.weapons, "weapon you carry")
    if name is not None:
        draft.fields["item"] = name


def _head_switch(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("weapons") or cur.accept("weapon")
    cur.accept("to")
    _weapon_head(cur, scene, draft, verb)


def _head_pickup(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "pick up what?", verb.start, verb.end, expected="pick up ITEM")
        return
    found = resolve(words_text(words), scene.loose_weapons())
    draft.fields["item"] = found.name if found.ok else words_text(words)


def _head_stand(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("up")


def _head_remove(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if words:
        name = name_in(cur, words, scene.loose_weapons(), "weapon")
        if name is not None:
            draft.fields["item"] = name


def _head_cast(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "cast what?", verb.start, verb.end,
                  expected="cast SPELL [at TARGET]")
        return
    name = name_in(cur, words, scene.spells, "spell you know")
    if name is not None:
        draft.fields["spell"] = name


def _head_tend(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("to")
    words = phrase(cur)
    if not words:
        cur.issue(ErrorCode.SYNTAX, "tend whom?", verb.start, verb.end, expected="tend TARGET")
    _target(cur, scene, draft, "target", words)


def _head_watch(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("for") or cur.accept("out", "for")
    text, _, _ = text_until_clause(cur)
    if text:
        draft.fields["task"] = text


def _head_extinguish(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    words = phrase(cur)
    if words and words_text(words).casefold() not in ("fire", "flames", "myself", "me", "it"):
        _target(cur, scene, draft, "target", words)


def _head_aim(cur: Cursor, scene: Scene, draft: Draft, verb: Tok) -> None:
    cur.accept("at") or cur.accept("on")
    _target(cur, scene, draft, "target", phrase(cur))


_HEADS: dict[ActionKind, Callable[[Cursor, Scene, Draft, Tok], None]] = {
    K.ATTACK: _head_attack, K.DEFEND: _head_defend, K.MOVE: _head_move,
    K.READY: _weapon_head, K.STOW: _weapon_head, K.DROP: _weapon_head,
    K.SWITCH: _head_switch, K.PICKUP: _head_pickup, K.STAND: _head_stand,
    K.REMOVE: _head_remove, K.RIPOUT: _head_remove, K.CAST: _head_cast, K.TEND: _head_tend,
    K.WATCH: _head_watch, K.EXTINGUISH: _head_extinguish, K.AIM: _head_aim,
    K.SKILL: _head_use,
}


# ---- slots after the object --------------------------------------------------------------------
def _with_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not (cur.accept("with") or cur.accept("using")):
        return False
    words = phrase(cur)
    if not words:
        _missing(cur, "with what?", "with WEAPON or SKILL")
        return True
    query = words_text(words)
    things = scene.arms
    found = resolve(query, things)
    if found.ok and found.found is not None:
        draft.fields["skill" if found.found.kind == "skill" else "weapon"] = found.name
    else:
        name_in(cur, words, things, "weapon or skill")
    return True


def _special_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not (cur.accept("going", "for") or cur.accept("go", "for") or cur.accept("trying", "for")):
        return False
    words = phrase(cur)
    if words:
        name = name_in(cur, words, SPECIALS, "Special")
        if name is not None:
            draft.fields["special"] = name
    return True


def _against_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not (cur.accept("against") or cur.accept("vs") or cur.accept("versus")
            or cur.accept("from")):
        return False
    words = phrase(cur)
    if not words:
        _missing(cur, "against whom?", "against NAME")
    _target(cur, scene, draft, "against", words)
    return True


def _missing(cur: Cursor, message: str, expected: str) -> None:
    """A preposition with nothing after it."""
    tok = cur.toks[cur.i - 1]
    cur.issue(ErrorCode.SYNTAX, message, tok.start, tok.end, expected=expected)


def _target_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if not (cur.accept("on") or cur.accept("at") or cur.accept("against") or cur.accept("vs")):
        return False
    _target(cur, scene, draft, "target", phrase(cur))
    return True


def _task_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.accept_kind(TokKind.COLON) is None:
        return False
    text, _, _ = text_until_clause(cur)
    if text:
        draft.fields["task"] = text
    return True


def _direction_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.accept("away", "from") or cur.accept("away"):
        key = "away"
    elif cur.accept("toward") or cur.accept("towards") or cur.accept("to") or cur.accept("at"):
        key = "toward"
    else:
        return False
    _target(cur, scene, draft, key, phrase(cur))
    return True


def _cast_at_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    if cur.key() not in ("at", "on", "against"):
        return False
    if number_of(cur.peek(1), words=False) is not None and cur.key(2) in RANGE_WORDS:
        draft.fields["ranges"] = number_of(cur.peek(1), words=False)
        cur.i += 3
        return True
    cur.i += 1
    targets: list[str] = []
    while True:
        words = phrase(cur)
        if words and not is_pronoun(words):
            name = name_in(cur, words, scene.characters, "one")
            if name is not None:
                targets.append(name)
        if not cur.accept("and"):
            break
    if len(targets) == 1:
        draft.fields["target"] = targets[0]
    elif targets:
        draft.fields["targets"] = tuple(targets)
    return True


def _ranges_slot(cur: Cursor, scene: Scene, draft: Draft) -> bool:
    n = number_of(cur.peek(), words=False)
    if n is None or cur.key(1) not in RANGE_WORDS:
        return False
    cur.i += 2
    cur.accept("away")
    draft.fields["ranges"] = n
    return True


_SLOTS: dict[ActionKind, tuple[Slot, ...]] = {
    K.ATTACK: (_with_slot, _special_slot),
    K.DEFEND: (_against_slot,),
    K.MOVE: (_direction_slot,),
    K.CAST: (_cast_at_slot, _ranges_slot),
    K.SKILL: (_target_slot, _task_slot),
    K.AIM: (_target_slot,),
}


def starts_action(cur: Cursor, k: int = 0) -> bool:
    """Whether an action verb starts `k` tokens ahead."""
    return verb_at(cur, k) is not None


def free_action_start(cur: Cursor) -> bool:
    """A statement without an AP count that is still an action: `move N`, `run N`, `drop X`."""
    first = cur.key()
    if first in ("move", "run", "moves", "runs", "walk", "sprint"):
        return number_of(cur.peek(1), words=False) is not None
    return first in ("drop", "drops") and cur.peek(1) is not None


def fixed_cost(kind: ActionKind) -> int | None:
    """The F8 AP cost of an action with a fixed price, for hints."""
    return _FIXED_COST.get(kind)


__all__ = ["AP_WORDS", "Draft", "parse_action", "starts_action", "free_action_start",
           "fixed_cost", "typo_verb", "verb_at"]

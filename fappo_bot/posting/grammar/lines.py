"""One statement: what kind it is and what it declares (spec/posting.md "The lines"; RULINGS F5,
F9, F10, F13, F29).

`read_statement` returns None for prose. A mechanics statement starts with an AP count, a free
action (`move 2`, `run 2`, `drop Bow`), a condition (`If ...:`) or a keyword (`Guard:`, `Reduce:`,
`Endure:`, `Intent:`, `OOC:`, `Character:`).
"""

from __future__ import annotations

import re

from fappo_bot.posting.grammar.actions import parse_action
from fappo_bot.posting.grammar.clauses import AP_WORDS, SP_WORDS, Cursor, ap_count
from fappo_bot.posting.grammar.keywords import (
    Read,
    bind_line,
    endure_line,
    guard_line,
    reduce_line,
)
from fappo_bot.posting.grammar.verbs import (
    VERBS,
    fixed_cost,
    free_action_start,
    next_action_at,
    starts_action,
    verb_at,
)
from fappo_bot.posting.lexer import TokKind, number_of
from fappo_bot.posting.models import StatementKind
from fappo_bot.posting.scene import Scene
from fappo_bot.rules import ActionKind, ErrorCode

__all__ = ["KEYWORDS", "Read", "first_word", "read_statement", "sp_first"]

_KEYWORDS = {
    "character": StatementKind.CHARACTER, "char": StatementKind.CHARACTER,
    "guard": StatementKind.GUARD, "reduce": StatementKind.REDUCE,
    "endure": StatementKind.ENDURE, "intent": StatementKind.INTENT, "ooc": StatementKind.OOC,
}
#: keywords followed by free text (never orders)
_TEXT_KEYWORDS = {k: v for k, v in _KEYWORDS.items()
                  if v in (StatementKind.INTENT, StatementKind.OOC, StatementKind.CHARACTER)}
_LINE_DROP_MAX_TOKENS = 6
#: `Good case: TEXT`, the player's case for breaking concentration's exclusivity (F8)
_GOOD_CASE = re.compile(r"good\s+case\s*[:\-–—]", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?\"“”…]\s*$")
_NAMED_FIELDS = ("target", "against", "weapon", "skill", "item", "spell", "toward", "away")
#: how much of a statement the keyword check tokenizes
_HEAD = 48



def keyword(cur: Cursor) -> StatementKind | None:
    """The keyword a statement starts with, if any (`Guard:`, `OOC:`...)."""
    kind = _KEYWORDS.get(cur.key())
    if kind is None:
        return None
    nxt = cur.peek(1)
    if nxt is not None and nxt.kind in (TokKind.COLON, TokKind.DASH):
        return kind
    if kind in (StatementKind.GUARD, StatementKind.REDUCE, StatementKind.ENDURE):
        if nxt is None and kind is StatementKind.ENDURE:
            return kind
        if number_of(nxt) is not None and cur.key(2) in SP_WORDS:
            return kind
    return None


_NUMBER_STARTS = frozenset({"one", "two", "three", "four", "five", "six", "seven", "eight",
                            "nine", "ten", "zero"})
_LINE_STARTS = frozenset(_KEYWORDS) | _NUMBER_STARTS | {
    "if", "move", "moves", "run", "runs", "walk", "sprint", "drop", "drops"}
_BRACKET_STARTS = _LINE_STARTS | frozenset(words[0] for words, _ in VERBS)


KEYWORDS = frozenset(_KEYWORDS)


def sp_first(text: str) -> bool:
    """Whether `text` starts with an SP clause (`1 SP Nimble`, `2 Nimble SP`)."""
    cur = Cursor.of(text[:_HEAD])
    return number_of(cur.peek()) is not None and (cur.key(1) in SP_WORDS
                                                  or cur.key(2) in SP_WORDS)


def first_word(text: str) -> str:
    """The statement's first word, case-folded ("" when it starts with a digit or a symbol)."""
    end = 0
    while end < len(text) and end < 12 and text[end].isalpha():
        end += 1
    return text[:end].casefold()


def _is_bind(text: str, word: str) -> bool:
    """`Bind:` (F22, a legendary item): the keyword needs its colon, since `bind Kael` is the
    verb that tends a wound (F15, F18.2)."""
    return word == "bind" and text[4:].lstrip()[:1] == ":"


def could_be_statement(text: str, bracket: bool, word: str | None = None) -> bool:
    """A cheap look at the first word: only these can start a mechanics statement (posting.md:
    an AP count, a free action, a condition or a keyword; in brackets, any action verb too)."""
    first = text[:1]
    if first.isdecimal() or first == "(":
        return True
    word = first_word(text) if word is None else word
    if _is_bind(text, word):
        return True
    if bracket:
        return word in _BRACKET_STARTS
    # a line starting with a verb is an order without AP only if it reads as one (_bare_order)
    return word in _BRACKET_STARTS and (word in _LINE_STARTS or not _SENTENCE_END.search(text))


def read_statement(text: str, scene: Scene, bracket: bool, word: str | None = None
                   ) -> Read | None:
    """Read one statement (a whole line, or the inside of `[...]`); None when it is prose (F29:
    the structured declarations are authoritative, the prose is kept for the GM).

    `word` is the text's `first_word` when the caller has it already."""
    word = first_word(text) if word is None else word
    if word == "good":
        case = _GOOD_CASE.match(text)
        if case is not None:
            return Read(StatementKind.GOOD_CASE, text=text[case.end():].strip())
    if not could_be_statement(text, bracket, word):
        return None
    if _is_bind(text, word):
        return bind_line(text)
    if word in _TEXT_KEYWORDS:
        rest = text[len(word):].lstrip()
        if rest[:1] in (":", "-", "–", "—"):
            return Read(_TEXT_KEYWORDS[word], text=rest[1:].strip())
    if word in _KEYWORDS:
        head = Cursor.of(text[:_HEAD])  # the keyword is in the first few words
        kind = keyword(head)
        if kind in (StatementKind.INTENT, StatementKind.OOC, StatementKind.CHARACTER):
            assert kind is not None
            head.i = 1
            mark = head.accept_kind(TokKind.COLON) or head.accept_kind(TokKind.DASH)
            start = mark.end if mark is not None else head.toks[0].end
            return Read(kind, text=text[start:].strip())
        cur = head if len(text) <= _HEAD else Cursor.of(text)
        cur.traits = scene.traits
        if kind is StatementKind.GUARD:
            return guard_line(cur, scene)
        if kind is StatementKind.REDUCE:
            return reduce_line(cur, scene)
        if kind is StatementKind.ENDURE:
            return endure_line(cur)
        return _action_statement(cur, scene, bracket)
    cur = Cursor.of(text)
    cur.traits = scene.traits
    return _action_statement(cur, scene, bracket)


def _action_statement(cur: Cursor, scene: Scene, bracket: bool) -> Read | None:
    condition: str | None = None
    if cur.key() == "if":
        condition = _condition(cur)
        if condition is None:
            return None
    start_tok = cur.peek()
    ap = ap_count(cur)
    if ap is None and not free_action_start(cur):
        if start_tok is None:
            return None if condition is None else _empty_condition(cur, condition)
        if (bracket or condition is not None) and starts_action(cur):
            return _ap_required(cur)
        if condition is None and starts_action(cur) and _bare_order(cur, scene):
            return _ap_required(cur)
        if condition is None and number_of(start_tok) is not None and cur.key(1) in SP_WORDS:
            return _orphan_sp(cur)
        return None
    if ap is None and cur.key() in ("drop", "drops") and not bracket and condition is None:
        if len(cur.toks) - cur.i > _LINE_DROP_MAX_TOKENS or any(
            t.kind is not TokKind.WORD and t.kind is not TokKind.NUM for t in cur.toks[cur.i:]
        ):
            return None  # "Drop it, he said." is prose
    read = Read(StatementKind.ACTION, issues=cur.issues)
    while True:
        draft = parse_action(cur, scene, ap, condition)
        if draft is None:
            tok = start_tok
            assert tok is not None
            cur.issue(ErrorCode.SYNTAX, "an AP count needs an action after it", tok.start,
                      len(cur.text), expected="N AP ACTION, e.g. 2 AP attack Goblin with Broadsword")
            return read
        read.drafts.append(draft)
        read.sp_spans.extend(draft.sp_spans)
        skip = next_action_at(cur)
        if not skip:
            return read
        cur.i += max(0, skip)  # several actions in one statement (an extension)
        start_tok = cur.peek()
        ap = ap_count(cur)


def _condition(cur: Cursor) -> str | None:
    """`If CONDITION:` (or `If CONDITION, N AP ...`): the condition's text, cursor after it."""
    for j in range(1, len(cur.toks)):
        tok = cur.toks[j]
        if tok.kind is TokKind.COLON:
            cur.i = j + 1
            return cur.slice(cur.toks[0].end, tok.start) or None
        if tok.kind is TokKind.SEP and j + 1 < len(cur.toks):
            nxt = cur.toks[j + 1]
            if (number_of(nxt) is not None and j + 2 < len(cur.toks)
                    and cur.toks[j + 2].key in AP_WORDS):
                cur.i = j + 1
                return cur.slice(cur.toks[0].end, tok.start) or None
    return None


def _empty_condition(cur: Cursor, condition: str) -> Read:
    """`If CONDITION:` with nothing after the colon: an error, never a condition silently dropped
    from the next line's action (spec/posting.md "Conditional actions", F9)."""
    cur.issue(ErrorCode.SYNTAX, "the condition has no action after its colon", cur.toks[0].start,
              len(cur.text), expected="If CONDITION: N AP ACTION on one line",
              hint=f"write the action after the colon: If {condition}: 1 AP attack it")
    return Read(StatementKind.ACTION, issues=cur.issues)


def _bare_order(cur: Cursor, scene: Scene) -> bool:
    """A line like `attack Goblin 1 with Broadsword`: an action verb, then only words that read
    as that action's slots and clauses, naming at least one thing of the scene. Such a line is an
    order missing its AP count (`ap-required`), not prose; `Watch the door` or `Attack them!`
    stay prose (nothing named, or a sentence)."""
    trial = Cursor(cur.text, cur.toks, cur.i, traits=cur.traits)
    draft = parse_action(trial, scene, None, None)
    if draft is None or trial.issues or not trial.done:
        return False
    return any(draft.fields.get(key) for key in _NAMED_FIELDS)


def _orphan_sp(cur: Cursor) -> Read:
    """`1 SP Nimble` on a line of its own: SP belong to an action, a Guard or a Reduce line (F4:
    declared "when the action is declared"), so the bot will not guess which."""
    cur.issue(ErrorCode.SYNTAX, "SP need the action, Guard or Reduce line they are for",
              0, len(cur.text), expected="N AP ACTION, N SP TRAIT on one line",
              hint=f"put them on their action's line: 2 AP attack Goblin, {cur.text.strip()}")
    return Read(StatementKind.ACTION, issues=cur.issues)


def _ap_required(cur: Cursor) -> Read:
    found = verb_at(cur)
    tok = cur.toks[cur.i]
    cost = fixed_cost(found[0]) if found is not None else None
    words = cur.slice(tok.start, len(cur.text))
    if cost:
        hint = f"this action costs {cost} AP: write {cost} AP {words}"
    elif found is not None and found[0] is ActionKind.DEFEND:
        hint = f"defending without AP is the free base defense and needs no line; to put AP " \
               f"into it, write 1 AP {words}"
    else:
        hint = f"write how many AP it takes: 1 AP {words}"
    cur.issue(ErrorCode.AP_REQUIRED, "this action needs at least 1 AP", tok.start, len(cur.text),
              expected="N AP ACTION", hint=hint)
    return Read(StatementKind.ACTION, issues=cur.issues)



"""One statement: what kind it is and what it declares (spec/posting.md "The lines"; RULINGS F5,
F9, F10, F13, F29).

`read_statement` returns None for prose. A mechanics statement starts with an AP count, a free
action (`move 2`, `run 2`, `drop Bow`), a condition (`If ...:`) or a keyword (`Guard:`, `Reduce:`,
`Endure:`, `Intent:`, `OOC:`, `Character:`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fappo_bot.posting.grammar.actions import (
    VERBS,
    Draft,
    fixed_cost,
    free_action_start,
    parse_action,
    starts_action,
    verb_at,
)
from fappo_bot.posting.grammar.clauses import (
    AP_WORDS,
    SP_WORDS,
    Cursor,
    Issue,
    SPClause,
    ap_count,
    name_in,
    phrase,
    sp_clause,
    words_text,
)
from fappo_bot.posting.lexer import Tok, TokKind, number_of
from fappo_bot.posting.models import StatementKind
from fappo_bot.posting.names import fold, resolve, suggest
from fappo_bot.posting.scene import Scene
from fappo_bot.rules.character import FLOATING
from fappo_bot.rules.data import Trait
from fappo_bot.rules.orders import ANY
from fappo_bot.rules.results import ErrorCode

_KEYWORDS = {
    "character": StatementKind.CHARACTER, "char": StatementKind.CHARACTER,
    "guard": StatementKind.GUARD, "reduce": StatementKind.REDUCE,
    "endure": StatementKind.ENDURE, "intent": StatementKind.INTENT, "ooc": StatementKind.OOC,
}
#: keywords followed by free text (never orders)
_TEXT_KEYWORDS = {k: v for k, v in _KEYWORDS.items()
                  if v in (StatementKind.INTENT, StatementKind.OOC, StatementKind.CHARACTER)}
_ANY_WORDS = frozenset({"any", "all", "anyone", "everyone", "anybody", "everybody",
                        "any attack", "all attacks", "any attacker", "all attackers"})
_EACH_WORDS = frozenset({"each", "every"})
_HIT_STOPS = frozenset({"with", "using"})
_LINE_DROP_MAX_TOKENS = 6
#: how much of a statement the keyword check tokenizes
_HEAD = 48


@dataclass(slots=True)
class Read:
    """What one statement declares."""

    kind: StatementKind
    issues: list[Issue] = field(default_factory=list)
    draft: Draft | None = None
    pledges: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    reduction: tuple[str, dict[str, int], str | None] | None = None
    text: str = ""
    sp_spans: list[tuple[int, int]] = field(default_factory=list)


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


def first_word(text: str) -> str:
    """The statement's first word, case-folded ("" when it starts with a digit or a symbol)."""
    end = 0
    while end < len(text) and end < 12 and text[end].isalpha():
        end += 1
    return text[:end].casefold()


def could_be_statement(text: str, bracket: bool, word: str | None = None) -> bool:
    """A cheap look at the first word: only these can start a mechanics statement (posting.md:
    an AP count, a free action, a condition or a keyword; in brackets, any action verb too)."""
    first = text[:1]
    if first.isdecimal() or first == "(":
        return True
    word = first_word(text) if word is None else word
    return word in (_BRACKET_STARTS if bracket else _LINE_STARTS)


def read_statement(text: str, scene: Scene, bracket: bool) -> Read | None:
    """Read one statement (a whole line, or the inside of `[...]`); None when it is prose."""
    word = first_word(text)
    if not could_be_statement(text, bracket, word):
        return None
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
        if kind is StatementKind.GUARD:
            return _guard(cur, scene)
        if kind is StatementKind.REDUCE:
            return _reduce(cur, scene)
        if kind is StatementKind.ENDURE:
            return _endure(cur)
        return _action_statement(cur, scene, bracket)
    return _action_statement(Cursor.of(text), scene, bracket)


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
            return None
        if (bracket or condition is not None) and starts_action(cur):
            return _ap_required(cur)
        return None
    if ap is None and cur.key() in ("drop", "drops") and not bracket and condition is None:
        if len(cur.toks) - cur.i > _LINE_DROP_MAX_TOKENS or any(
            t.kind is not TokKind.WORD and t.kind is not TokKind.NUM for t in cur.toks[cur.i:]
        ):
            return None  # "Drop it, he said." is prose
    read = Read(StatementKind.ACTION)
    draft = parse_action(cur, scene, ap, condition)
    if draft is None:
        tok = start_tok
        assert tok is not None
        cur.issue(ErrorCode.SYNTAX, "an AP count needs an action after it", tok.start,
                  len(cur.text), expected="N AP ACTION, e.g. 2 AP attack Goblin with Broadsword")
    read.draft = draft
    read.issues = cur.issues
    read.sp_spans = draft.sp_spans if draft is not None else []
    return read


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


def _ap_required(cur: Cursor) -> Read:
    found = verb_at(cur)
    tok = cur.toks[cur.i]
    cost = fixed_cost(found[0]) if found is not None else None
    hint = f"this action costs {cost} AP: write {cost} AP {cur.slice(tok.start, len(cur.text))}" \
        if cost else f"write how many AP it takes: 1 AP {cur.slice(tok.start, len(cur.text))}"
    cur.issue(ErrorCode.AP_REQUIRED, "this action needs at least 1 AP", tok.start, len(cur.text),
              expected="N AP ACTION", hint=hint)
    return Read(StatementKind.ACTION, issues=cur.issues)


def _sp_list(cur: Cursor) -> tuple[dict[str, int], list[SPClause]]:
    """SP clauses joined by `,` or `+`; stops before anything else (cursor left there)."""
    pools: dict[str, int] = {}
    clauses: list[SPClause] = []
    while True:
        mark = cur.i
        if clauses:
            cur.skip_separators()
        clause = sp_clause(cur)
        if clause is None:
            cur.i = mark
            return pools, clauses
        clauses.append(clause)
        if clause.pool:
            pools[clause.pool] = pools.get(clause.pool, 0) + clause.amount


def _head(cur: Cursor) -> None:
    cur.i = 1
    cur.accept_kind(TokKind.COLON) or cur.accept_kind(TokKind.DASH)


def _guard(cur: Cursor, scene: Scene) -> Read:
    """`Guard: N SP TRAIT against NAME | each PREFIX | any | all` (F5)."""
    read = Read(StatementKind.GUARD, issues=cur.issues)
    _head(cur)
    pools, clauses = _sp_list(cur)
    read.sp_spans = [(c.start, c.end) for c in clauses]
    if not clauses:
        start = cur.rest_start()
        cur.issue(ErrorCode.SYNTAX, "a Guard line needs an SP amount and a Trait", start,
                  len(cur.text), expected="Guard: N SP TRAIT against NAME",
                  hint="for example: Guard: 2 SP Nimble against Troll")
        return read
    cur.skip_separators()
    cur.accept("against") or cur.accept("vs") or cur.accept("versus") or cur.accept("from") \
        or cur.accept("on")
    if cur.done:
        read.pledges.append((ANY, pools))  # extension: no "against" means any attack
        return read
    each = cur.key() in _EACH_WORDS
    if each:
        cur.i += 1
    words = phrase(cur, frozenset({"with", "using"}))
    if not words:
        start, end = cur.skip_clause()
        cur.issue(ErrorCode.SYNTAX, "against whom?", start, end,
                  expected="against NAME, against each PREFIX, or against any")
    elif not each and words_text(words).casefold() in _ANY_WORDS:
        read.pledges.append((ANY, pools))
    elif each:
        _each(cur, scene, read, words, pools)
    else:
        name = name_in(cur, words, scene.others(), "one")
        if name is not None:
            read.pledges.append((name, pools))
    cur.accept_kind(TokKind.PAREN)
    _leftover(cur, "Guard: N SP TRAIT against NAME")
    return read


def _each(cur: Cursor, scene: Scene, read: Read, words: list[Tok], pools: dict[str, int]) -> None:
    """`against each goblin`: one pledge for every character whose name starts so (F5)."""
    toks = words
    prefix = fold(words_text(toks))
    names = [c.name for c in scene.others() if fold(c.name).startswith(prefix)]
    if not names and prefix.endswith("s"):
        stem = prefix[:-2] if prefix.endswith("es") else prefix[:-1]
        names = [c.name for c in scene.others() if fold(c.name).startswith(stem)] or [
            c.name for c in scene.others() if fold(c.name).startswith(prefix[:-1])
        ]
    if not names:
        near = suggest(prefix, scene.others())
        cur.issue(ErrorCode.UNKNOWN_NAME, f'no one here has a name starting "{prefix}"',
                  toks[0].start, toks[-1].end, expected="each NAME-START, e.g. each goblin",
                  hint=f"Did you mean {' or '.join(near)}?" if near else None, candidates=near)
        return
    for name in names:
        read.pledges.append((name, dict(pools)))


def _reduce(cur: Cursor, scene: Scene) -> Read:
    """`Reduce: N SP TRAIT [on HIT] [(why) | - why | : why | , why]` (F13)."""
    read = Read(StatementKind.REDUCE, issues=cur.issues)
    _head(cur)
    pools, clauses = _sp_list(cur)
    read.sp_spans = [(c.start, c.end) for c in clauses]
    why = "; ".join(c.why for c in clauses if c.why) or None
    if not clauses:
        start = cur.rest_start()
        cur.issue(ErrorCode.SYNTAX, "a Reduce line needs an SP amount and a Trait", start,
                  len(cur.text), expected="Reduce: N SP TRAIT on the HIT (why)",
                  hint="for example: Reduce: 2 SP Nimble on the longsword hit (I twisted aside)")
        return read
    named = cur.accept("on") or cur.accept("from") or cur.accept("against") \
        or cur.accept("for") or cur.accept("to") or cur.accept("vs")
    hit_words = phrase(cur, _HIT_STOPS) if named or _word_next(cur) else []
    tok = cur.peek()
    if tok is not None and tok.kind is TokKind.PAREN:
        cur.i += 1
        why = _why(why, tok.text)
    elif tok is not None:
        if tok.kind in (TokKind.SEP, TokKind.DASH, TokKind.COLON):
            why = _why(why, cur.text[tok.end:])
        else:
            why = _why(why, cur.text[tok.start:])
        cur.i = len(cur.toks)
    hit = _hit(cur, scene, hit_words)
    if hit is not None:
        read.reduction = (hit, pools, why)
    return read


def _word_next(cur: Cursor) -> bool:
    tok = cur.peek()
    return tok is not None and tok.kind in (TokKind.WORD, TokKind.NUM)


def _why(old: str | None, new: str) -> str | None:
    text = new.strip().strip("()").strip()
    if not text:
        return old
    return f"{old}; {text}" if old else text


def _hit(cur: Cursor, scene: Scene, toks: list[Tok]) -> str | None:
    """The pending hit a Reduce line names: by id, attacker or weapon; or the only one (F13)."""
    hits = [named for named, _ in scene.hits]
    who = scene.actor.name if scene.actor is not None else "you"
    if not toks:
        if len(hits) == 1:
            return hits[0].name
        start, end = 0, len(cur.text)
        if not hits:
            cur.issue(ErrorCode.UNKNOWN_NAME, f"no hit from the last resolution is waiting on {who}",
                      start, end, expected="a pending hit", hint="a Reduce line answers a hit "
                      "dealt at the last resolution")
        else:
            ids = tuple(h.name for h in hits)
            cur.issue(ErrorCode.AMBIGUOUS_NAME, f"{who} has {len(hits)} hits pending: name one",
                      start, end, expected="on the ATTACKER's hit, or from the WEAPON",
                      hint="say whose hit: on the Goblin Chief's hit", candidates=ids)
        return None
    names = [w.text for w in toks]
    if len(names) > 1 and names[-1].casefold() in ("hit", "hits", "attack", "blow", "strike"):
        names.pop()
    names[-1] = _unpossessive(names[-1])
    query = " ".join(names)
    while query.casefold().startswith("the "):
        query = query[4:]
    found = resolve(query, hits)
    if found.ok:
        return found.name
    start, end = toks[0].start, toks[-1].end
    if found.ambiguous:
        cur.issue(ErrorCode.AMBIGUOUS_NAME, f'"{query}" could be hit {" or ".join(found.candidates)}',
                  start, end, expected="a pending hit", candidates=found.candidates,
                  hint="name the hit by its id")
    else:
        known = [f"{h.name} ({', '.join(h.aliases)})" for h in hits]
        cur.issue(ErrorCode.UNKNOWN_NAME, f'no pending hit on {who} matches "{query}"', start, end,
                  expected="a pending hit, named by its attacker or weapon",
                  hint=("pending: " + "; ".join(known)) if known else None,
                  candidates=tuple(h.name for h in hits))
    return None


def _unpossessive(word: str) -> str:
    for suffix in ("'s", "s'"):
        if word.casefold().endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)] if suffix == "'s" else word[:-1]
    return word


def _endure(cur: Cursor) -> Read:
    """`Endure: 1 SP Tireless` (F10 Amb-7); `Endure` alone means the same (an extension)."""
    read = Read(StatementKind.ENDURE, issues=cur.issues)
    _head(cur)
    pools, clauses = _sp_list(cur)
    read.sp_spans = [(c.start, c.end) for c in clauses]
    if clauses and pools and pools != {Trait.TIRELESS.value: 1}:
        start, end = clauses[0].start, clauses[-1].end
        wrong = ", ".join(f"{n} SP {k}" for k, n in pools.items())
        cur.issue(ErrorCode.SYNTAX, f"Endure spends exactly 1 SP from Tireless, not {wrong}",
                  start, end, expected="Endure: 1 SP Tireless",
                  hint="floating SP and other Traits cannot pay for it" if FLOATING in pools
                  or len(pools) > 1 or Trait.TIRELESS.value not in pools else None)
    _leftover(cur, "Endure: 1 SP Tireless")
    return read


def _leftover(cur: Cursor, expected: str) -> None:
    cur.skip_separators()
    if not cur.done:
        start = cur.rest_start()
        end = len(cur.text)
        cur.i = len(cur.toks)
        cur.issue(ErrorCode.SYNTAX, f'I couldn\'t read "{cur.slice(start, end)}"', start, end,
                  expected=expected)

"""The keyword lines: `Guard:` (F5), `Reduce:` (F13) and `Endure:` (F10 Amb-7), and `Read`, what
any statement declares (spec/posting.md "Guard", "Reduce", "Endure")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from fappo_bot.posting.grammar.clauses import (
    SP_WORDS,
    Cursor,
    Issue,
    SPClause,
    name_in,
    phrase,
    sp_clause,
    words_text,
)
from fappo_bot.posting.grammar.verbs import Draft
from fappo_bot.posting.lexer import Tok, TokKind, number_of
from fappo_bot.posting.models import StatementKind
from fappo_bot.posting.names import resolve, suggest
from fappo_bot.posting.scene import Scene, hit_name
from fappo_bot.rules import ANY, FLOATING, ErrorCode, Trait, fold

_ANY_WORDS = frozenset({"any", "all", "anyone", "everyone", "anybody", "everybody",
                        "any attack", "all attacks", "any attacker", "all attackers"})
_EACH_WORDS = frozenset({"each", "every"})
_HIT_STOPS = frozenset({"with", "using"})
_HIT_WORDS = frozenset({"on", "from", "against", "for", "to", "vs"})


@dataclass(slots=True)
class Read:
    """What one statement declares."""

    kind: StatementKind
    issues: list[Issue] = field(default_factory=list)
    #: the actions of an action statement (usually one; `[2 AP attack X, 1 AP defend]` has two)
    drafts: list[Draft] = field(default_factory=list)
    pledges: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    #: Reduce lines: (hit id, SP, why) for each reduction
    reductions: list[tuple[str, dict[str, int], str | None]] = field(default_factory=list)
    text: str = ""
    sp_spans: list[tuple[int, int]] = field(default_factory=list)
    #: Bind lines: (item, what is sacrificed; None for a banked CC), F22
    bindings: list[tuple[str, str | None]] = field(default_factory=list)



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


def guard_line(cur: Cursor, scene: Scene) -> Read:
    """`Guard: N SP TRAIT against NAME | each PREFIX | any | all` (F5: "a character under attack
    by three goblins could spend Success Points against any one attack by each of his
    opponents"). Several pledges may share the line, separated by commas (an extension)."""
    read = Read(StatementKind.GUARD, issues=cur.issues)
    _head(cur)
    while True:
        if not _pledge(cur, scene, read):
            return read
        cur.skip_separators()
        if cur.done:
            return read
        if sp_clause_ahead(cur):
            continue
        _leftover(cur, "Guard: N SP TRAIT against NAME")
        return read


def _pledge(cur: Cursor, scene: Scene, read: Read) -> bool:
    """One `N SP TRAIT [+ ...] against WHOM [(note)]`; False when the line cannot go on."""
    pools, clauses = _sp_list(cur)
    read.sp_spans.extend((c.start, c.end) for c in clauses)
    if not clauses:
        start = cur.rest_start()
        cur.issue(ErrorCode.SYNTAX, "a Guard line needs an SP amount and a Trait", start,
                  len(cur.text), expected="Guard: N SP TRAIT against NAME",
                  hint="for example: Guard: 2 SP Nimble against Troll")
        return False
    cur.skip_separators()
    cur.accept("against") or cur.accept("vs") or cur.accept("versus") or cur.accept("from") \
        or cur.accept("on")
    if cur.done or sp_clause_ahead(cur):
        read.pledges.append((ANY, pools))  # extension: no "against" means any attack
        return True
    each = cur.key() in _EACH_WORDS
    if each:
        cur.i += 1
    words = phrase(cur, frozenset({"with", "using"}), scene.others())
    if not words:
        start, end = cur.skip_clause()
        cur.issue(ErrorCode.SYNTAX, "against whom?", start, end,
                  expected="against NAME, against each PREFIX, or against any")
        return False
    if not each and words_text(words).casefold() in _ANY_WORDS:
        read.pledges.append((ANY, pools))
    elif each:
        _each(cur, scene, read, words, pools)
    else:
        name = name_in(cur, words, scene.others(), "one")
        if name is not None:
            read.pledges.append((name, pools))
    cur.accept_kind(TokKind.PAREN)
    return True


def sp_clause_ahead(cur: Cursor) -> bool:
    """Whether an SP clause (`1 SP ...`, `1 Nimble SP`) starts at the cursor."""
    return _sp_at(cur, 0)


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


def reduce_line(cur: Cursor, scene: Scene) -> Read:
    """`Reduce: N SP TRAIT [on HIT] [(why) | - why | : why | , why]` (F13: "Characters can reduce
    incoming damage by up to two levels per attack by spending Success Points"). Several
    reductions may share the line: a separator followed by an SP clause starts the next one."""
    read = Read(StatementKind.REDUCE, issues=cur.issues)
    _head(cur)
    while True:
        if not _reduction(cur, scene, read):
            return read
        if cur.done:
            return read
        cur.skip_separators()  # at a separator before the next SP clause


def _reduction(cur: Cursor, scene: Scene, read: Read) -> bool:
    """One `N SP TRAIT [on HIT] [why]`; False when the line cannot go on."""
    pools, clauses = _sp_list(cur)
    read.sp_spans.extend((c.start, c.end) for c in clauses)
    why = "; ".join(c.why for c in clauses if c.why) or None
    if not clauses:
        start = cur.rest_start()
        cur.issue(ErrorCode.SYNTAX, "a Reduce line needs an SP amount and a Trait", start,
                  len(cur.text), expected="Reduce: N SP TRAIT on the HIT (why)",
                  hint="for example: Reduce: 2 SP Nimble on the longsword hit (I twisted aside)")
        return False
    named = cur.accept_any(_HIT_WORDS)
    hit_words = phrase(cur, _HIT_STOPS) if named or _word_next(cur) else []
    tok = cur.peek()
    if tok is not None and tok.kind is TokKind.PAREN:
        cur.i += 1
        why = _why(why, tok.text)
    elif tok is not None and not _next_reduction(cur, 0):
        skip = 1 if tok.kind in (TokKind.SEP, TokKind.DASH, TokKind.COLON) else 0
        start = tok.end if skip else tok.start
        end = _why_end(cur)
        why = _why(why, cur.text[start:end])
    hit = _hit(cur, scene, hit_words)
    if hit is not None:
        read.reductions.append((hit, pools, why))
    return True


def _next_reduction(cur: Cursor, k: int) -> bool:
    """A separator `k` tokens ahead followed by an SP clause: the next reduction starts."""
    tok = cur.peek(k)
    return tok is not None and tok.kind is TokKind.SEP and _sp_at(cur, k + 1)


def _sp_at(cur: Cursor, k: int) -> bool:
    return number_of(cur.peek(k)) is not None and (cur.key(k + 1) in SP_WORDS
                                                   or cur.key(k + 2) in SP_WORDS)


def _why_end(cur: Cursor) -> int:
    """Move the cursor to the next reduction (or the end); the offset where the why stops."""
    while not cur.done:
        if cur.i > 0 and _next_reduction(cur, 0):
            return cur.toks[cur.i].start
        cur.i += 1
    return len(cur.text)


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
    label = {named.name: hit_name(hit) for named, hit in scene.hits}
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
            pending = tuple(label[h.name] for h in hits)
            cur.issue(ErrorCode.AMBIGUOUS_NAME, f"{who} has {len(hits)} hits pending: name one",
                      start, end, expected="on the ATTACKER's hit, or from the WEAPON",
                      hint="say whose hit: on the Goblin Chief's hit", candidates=pending)
        return None
    names = [w.text for w in toks]
    if len(names) > 1 and names[-1].casefold() in ("hit", "hits", "attack", "blow", "strike"):
        names.pop()
    names[-1] = _unpossessive(names[-1])
    query = " ".join(names)
    while query.casefold().startswith(("the ", "hit ")):  # "on hit t1-skarg-0": the id
        query = query[4:]
    found = resolve(query, hits)
    if found.ok:
        return found.name
    start, end = toks[0].start, toks[-1].end
    if found.ambiguous:
        # the message is the case files' (the adjudication gate): the candidates name the hits
        which = tuple(label.get(c, c) for c in found.candidates)
        cur.issue(ErrorCode.AMBIGUOUS_NAME,
                  f'"{query}" could be hit {" or ".join(found.candidates)}',
                  start, end, expected="a pending hit", candidates=which,
                  hint="name the hit by its attacker and its weapon: on the Goblin's Club hit")
    else:
        known = [label[h.name] for h in hits]
        cur.issue(ErrorCode.UNKNOWN_NAME, f'no pending hit on {who} matches "{query}"', start, end,
                  expected="a pending hit, named by its attacker or weapon",
                  hint=("pending: " + "; ".join(known)) if known else None,
                  candidates=tuple(known))
    return None


def _unpossessive(word: str) -> str:
    for suffix in ("'s", "s'"):
        if word.casefold().endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)] if suffix == "'s" else word[:-1]
    return word


def endure_line(cur: Cursor) -> Read:
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


_BIND = re.compile(r"^\s*bind\s*:\s*(?P<item>[^(,;]*?)\s*(?:(?:\(|[,;]\s*|-\s+)(?P<paid>[^)]*)\)?)?\s*$",
                   re.IGNORECASE)
_PAID = re.compile(r"^(?:sacrific\w*|paying|pay|by|with)?\s*(?:(?:1|one|a)\s+)?(?:point\s+(?:of|from)\s+)?"
                   r"(?P<what>.*?)(?:\s+(?:point|sp))?\s*$", re.IGNORECASE)
_BANKED = frozenset({"cc", "banked cc", "a banked cc", "creation point", "banked"})
BIND_FORM = "Bind: ITEM (sacrificing SKILL, TRAIT or floating; a banked CC if not said)"


def bind_line(text: str) -> Read:
    """`Bind: Broadsword (sacrificing Stealth)` (F22, an extension of the post language): the
    character binds someone else's legendary item it holds, for one creation point."""
    read = Read(StatementKind.BIND)
    found = _BIND.match(text)
    item = found["item"].strip() if found else ""
    if not item:
        read.issues.append(Issue(ErrorCode.SYNTAX, "a Bind line needs the item to bind", 0,
                                 len(text), expected=BIND_FORM,
                                 hint="for example: Bind: Broadsword (sacrificing 1 Stealth)"))
        return read
    paid_text = (found["paid"] or "").strip() if found else ""
    what = _PAID.match(paid_text)
    paid = what["what"].strip() if what else paid_text
    read.bindings.append((item, None if not paid or paid.casefold() in _BANKED else paid))
    return read

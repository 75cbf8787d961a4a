"""Small clause parsers shared by every statement: AP counts, SP clauses, modifier claims, name
phrases (spec/posting.md "Actions", "SP clauses", "A modifier"; RULINGS F4, F8, F29).

Each parser looks at the token cursor and either consumes its clause or leaves the cursor where it
was. Problems are collected as `Issue`s with spans in the statement's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fappo_bot.posting.lexer import (
    Tok,
    TokKind,
    TokKindName,
    number_of,
    tokenize,
)
from fappo_bot.posting.names import Named, NameMatch, Names, resolve, strip_articles
from fappo_bot.posting.scene import TRAITS
from fappo_bot.rules import ErrorCode, fold

AP_WORDS = frozenset({"ap", "aps"})
SP_WORDS = frozenset({"sp", "sps"})
RANGE_WORDS = frozenset({"range", "ranges"})
#: units a count may carry: a number before one of them ends a name or a free text
_AP_OR_SP = AP_WORDS | SP_WORDS
_COUNT_UNITS = _AP_OR_SP | RANGE_WORDS
PRONOUNS = frozenset({"it", "them", "him", "her", "whoever", "whatever", "whomever", "they"})
#: words that end a name phrase in every slot
BASE_STOPS = frozenset({"with", "using", "going", "against", "vs", "versus", "at", "on", "to",
                        "toward", "towards", "away", "from", "and", "for", "then"})


@dataclass(frozen=True, slots=True)
class Issue:
    """A problem in one statement, with its span in the statement's text."""

    code: ErrorCode
    message: str
    start: int
    end: int
    expected: str | None = None
    hint: str | None = None
    candidates: tuple[str, ...] = ()


@dataclass(slots=True)
class Cursor:
    """A position in the tokens of one statement, and the issues found so far."""

    text: str
    toks: list[Tok]
    i: int = 0
    issues: list[Issue] = field(default_factory=list)
    #: each token's case-folded word ("" for a token that is no word), looked up very often
    keys: list[str] = field(default_factory=list)
    #: the SP pools an SP clause may name: the game's Traits (`Scene.traits`)
    traits: Names = TRAITS

    def __post_init__(self) -> None:
        self.keys = [t.key if t.kind is TokKind.WORD else "" for t in self.toks]

    @classmethod
    def of(cls, text: str) -> Cursor:
        """A cursor at the start of `text`."""
        return cls(text, tokenize(text))

    def peek(self, k: int = 0) -> Tok | None:
        """The token `k` ahead, or None."""
        j = self.i + k
        return self.toks[j] if 0 <= j < len(self.toks) else None

    def key(self, k: int = 0) -> str:
        """The case-folded word `k` ahead ("" when it is not a word)."""
        j = self.i + k
        return self.keys[j] if 0 <= j < len(self.keys) else ""

    def accept_any(self, words: frozenset[str]) -> bool:
        """Consume one word if it is one of `words`."""
        if self.i < len(self.keys) and self.keys[self.i] in words:
            self.i += 1
            return True
        return False

    @property
    def done(self) -> bool:
        """No token left."""
        return self.i >= len(self.toks)

    def take(self) -> Tok:
        """Consume one token."""
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def accept(self, *words: str) -> bool:
        """Consume `words` if they come next (case-insensitive)."""
        j = self.i
        keys = self.keys
        if j + len(words) > len(keys):
            return False
        for word in words:
            if keys[j] != word:
                return False
            j += 1
        self.i = j
        return True

    def accept_kind(self, kind: TokKindName) -> Tok | None:
        """Consume one token of `kind` if it comes next."""
        tok = self.peek()
        if tok is not None and tok.kind is kind:
            self.i += 1
            return tok
        return None

    def skip_separators(self) -> None:
        """Consume separators and dashes between clauses."""
        while (tok := self.peek()) is not None and tok.kind in (TokKind.SEP, TokKind.DASH):
            self.i += 1

    def slice(self, start: int, end: int) -> str:
        """The statement's text between two offsets, trimmed."""
        return self.text[start:end].strip()

    def rest_start(self) -> int:
        """Offset of the next token (the text's end when none is left)."""
        tok = self.peek()
        return tok.start if tok is not None else len(self.text)

    def issue(self, code: ErrorCode, message: str, start: int, end: int, *,
              expected: str | None = None, hint: str | None = None,
              candidates: Sequence[str] = ()) -> None:
        """Record a problem."""
        self.issues.append(Issue(code, message, start, end, expected, hint, tuple(candidates)))

    def skip_clause(self) -> tuple[int, int]:
        """Skip to the next separator; the span skipped."""
        start = self.rest_start()
        end = start
        while (tok := self.peek()) is not None and tok.kind is not TokKind.SEP:
            end = tok.end
            self.i += 1
        return start, end


def ap_at(cur: Cursor, k: int = 0) -> tuple[int | None, int]:
    """The AP count `k` tokens ahead and how many tokens it takes (`N AP`, `N APs`, `(N AP)`),
    without consuming it; (None, 0) when there is none (posting.md "Actions"; F8)."""
    tok = cur.peek(k)
    if tok is None:
        return None, 0
    if tok.kind is TokKind.PAREN:
        if len(tok.text) > 12:
            return None, 0
        inner = tokenize(tok.text)
        if len(inner) == 2 and inner[1].key in AP_WORDS and (n := number_of(inner[0])) is not None:
            return n, 1
        return None, 0
    n = number_of(tok)
    if n is not None and cur.key(k + 1) in AP_WORDS:
        return n, 2
    return None, 0


def ap_count(cur: Cursor) -> int | None:
    """An AP count: `N AP`, `N AP:`, `N AP -`, `(N AP)`, `N APs` (posting.md). Consumed if found."""
    n, width = ap_at(cur)
    if n is None:
        return None
    cur.i += width
    cur.accept_kind(TokKind.COLON) or cur.accept_kind(TokKind.DASH)
    return n


@dataclass(frozen=True, slots=True)
class SPClause:
    """`1 SP Nimble (why)`: an amount from one pool, with the player's explanation."""

    pool: str
    amount: int
    why: str | None
    start: int
    end: int


def sp_clause(cur: Cursor) -> SPClause | None:
    """`N SP TRAIT [(why)]`, also `N SP from TRAIT` and `N TRAIT SP` (an extension): SP declared
    with the action (F4: "The player must declare the use of Success Points when the action is
    declared"; F2 Amb-2: the optional explanation)."""
    first = cur.peek()
    amount = number_of(first)
    if first is None or amount is None:
        return None
    if cur.key(1) in SP_WORDS:
        cur.i += 2
        cur.accept("from") or cur.accept("of")
        name_tok = cur.peek()
        if name_tok is None or name_tok.kind is not TokKind.WORD:
            end = name_tok.start if name_tok is not None else len(cur.text)
            cur.issue(ErrorCode.SYNTAX, "an SP amount needs the Trait it comes from",
                      first.start, end, expected="N SP TRAIT, e.g. 1 SP Nimble or 1 SP floating")
            return SPClause("", amount, None, first.start, end)
        cur.i += 1
        if name_tok.key == "floating" and cur.key() in SP_WORDS:
            cur.i += 1
    elif cur.key(1) and cur.key(2) in SP_WORDS:
        name_tok = cur.toks[cur.i + 1]
        cur.i += 3
    else:
        return None
    found = resolve(name_tok.text, cur.traits)
    pool = _pool_or_issue(cur, found, name_tok)
    end = cur.toks[cur.i - 1].end
    why: str | None = None
    paren = cur.peek()
    if paren is not None and paren.kind is TokKind.PAREN:
        cur.i += 1
        why = paren.text.strip() or None
        end = paren.end
    return SPClause(pool, amount, why, first.start, end)


def _pool_or_issue(cur: Cursor, found: NameMatch, tok: Tok) -> str:
    if found.ok:
        return found.name
    if found.ambiguous:
        cur.issue(ErrorCode.AMBIGUOUS_NAME, f'"{tok.text}" could be {_or(found.candidates)}',
                  tok.start, tok.end, expected="a Trait", hint="write the Trait's full name",
                  candidates=found.candidates)
    else:
        cur.issue(ErrorCode.UNKNOWN_NAME, f'there is no Trait called "{tok.text}"',
                  tok.start, tok.end, expected="a Trait or floating",
                  hint=_did_you_mean(found.candidates), candidates=found.candidates)
    return ""


def claim(cur: Cursor) -> tuple[int, str | None] | None:
    """A modifier claim `+1 (high ground)` / `-2 (in the dark)` (posting.md "A modifier")."""
    tok = cur.peek()
    if tok is None or tok.kind is not TokKind.SIGNED:
        return None
    cur.i += 1
    reason = None
    paren = cur.peek()
    if paren is not None and paren.kind is TokKind.PAREN:
        cur.i += 1
        reason = paren.text.strip() or None
    return int(tok.text), reason


def phrase(cur: Cursor, stops: frozenset[str] = BASE_STOPS, known: Sequence[Named] = ()
           ) -> list[Tok]:
    """Words (and numbers) of a name, up to a stop word, a separator or another clause.

    A stop word inside a `known` name ("Man at Arms") does not stop it.
    """
    words: list[Tok] = []
    while (tok := cur.peek()) is not None:
        if tok.kind is TokKind.WORD:
            if tok.key in stops and not (words and _inside_name(words, tok, known)):
                break
            if words and number_of(tok) is not None and cur.key(1) in SP_WORDS:
                break
        elif tok.kind is TokKind.NUM:
            if cur.key(1) in _COUNT_UNITS:
                break
        else:
            break
        words.append(tok)
        cur.i += 1
    return words


def _inside_name(words: Sequence[Tok], stop: Tok, known: Sequence[Named]) -> bool:
    """Whether the words so far and `stop` begin one of the `known` names."""
    if not known:
        return False
    start = fold(f"{words_text(words)} {stop.text}")
    return any(n.key == start or n.key.startswith(start + " ") for n in known)


def words_text(words: Sequence[Tok]) -> str:
    """A name phrase as the player wrote it, leading articles dropped."""
    return " ".join(strip_articles([w.text for w in words]))


def name_in(cur: Cursor, words: Sequence[Tok], things: Sequence[Named], what: str) -> str | None:
    """Resolve a phrase against `things`; record unknown or ambiguous names (posting.md "Names
    match forgivingly": the nearest names as suggestions, the candidates when ambiguous)."""
    query = words_text(words)
    found = resolve(query, things)
    if found.ok:
        return found.name
    start, end = words[0].start, words[-1].end
    if found.ambiguous:
        cur.issue(ErrorCode.AMBIGUOUS_NAME,
                  f'"{query}" could be {_or(found.candidates)}',
                  start, end, expected=what, hint="write more of the name",
                  candidates=found.candidates)
    else:
        cur.issue(ErrorCode.UNKNOWN_NAME, f'no {what} called "{query}" here',
                  start, end, expected=what, hint=_did_you_mean(found.candidates),
                  candidates=found.candidates)
    return None


def _or(names: Sequence[str]) -> str:
    quoted = [f'"{n}"' for n in names]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _did_you_mean(names: Sequence[str]) -> str | None:
    return f"Did you mean {_or(names)}?" if names else None


def is_pronoun(words: Sequence[Tok]) -> bool:
    """`it`, `them`, `him`, `her`, `whoever`, `whatever`: the thing named in a condition (F9)."""
    return len(words) == 1 and words[0].key in PRONOUNS


def text_until_clause(cur: Cursor) -> tuple[str, int, int]:
    """Free text (a skill use's "what", a watch's "for what") up to the next SP clause, claim,
    AP count or `to hit`; commas that do not start such a clause stay in the text."""
    start = cur.rest_start()
    end = start
    while (tok := cur.peek()) is not None:
        if tok.kind is TokKind.SIGNED:
            break
        if tok.kind is TokKind.NUM and cur.key(1) in _AP_OR_SP:
            break
        if tok.kind is TokKind.WORD and number_of(tok) is not None and cur.key(1) in SP_WORDS:
            break
        if tok.kind in (TokKind.SEP, TokKind.DASH) and _clause_follows(cur, 1):
            break
        end = tok.end
        cur.i += 1
    return cur.slice(start, end), start, end


def _clause_follows(cur: Cursor, k: int) -> bool:
    """Whether an SP clause, a claim, `to hit`, another action (an AP count in any form, or a
    `move N`) or nothing comes `k` tokens ahead: the end of free text."""
    tok = cur.peek(k)
    if tok is None:
        return True
    if tok.kind in (TokKind.SIGNED, TokKind.SEP):
        return True
    if ap_at(cur, k)[0] is not None:
        return True
    if number_of(tok) is not None and (cur.key(k + 1) in SP_WORDS or cur.key(k + 2) in SP_WORDS):
        return True
    if cur.key(k) in ("move", "run") and number_of(cur.peek(k + 1), words=False) is not None:
        return True
    return cur.key(k) == "to" and cur.key(k + 1) == "hit"

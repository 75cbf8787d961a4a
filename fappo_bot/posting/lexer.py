"""The line lexer: Discord markdown off, statements found, words tokenized (spec/posting.md).

Everything here is a single left-to-right scan over one line: no regular expression runs over
unbounded input with backtracking, so a post of any size is read in linear time. The scans are
written as plain loops over characters (and `str` methods, which are linear).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, NamedTuple

#: characters that only format (bold, italics, underline, strike-through, spoilers, code)
_FORMAT_CHARS = frozenset("*~`")
_BULLETS = ("- ", "* ", "• ", "+ ", "‣ ", "◦ ")
_QUOTES = (">>> ", ">>>", "> ", ">")
_HEADINGS = ("### ", "## ", "# ", "-# ")
_DASHES = frozenset("-–—")
_MARKED = re.compile(r"[*~`|_\\]")
_BRACKET = re.compile(r"[\[\]]")
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
#: either of the above: a line with none (most lines) only has its blanks made single
_MARKED_OR_INVISIBLE = re.compile("[*~`|_\\\\\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_PREFIX_STARTS = frozenset(">-*•+#‣◦0123456789")
_PREFIXES = (*_QUOTES, *_BULLETS, *_HEADINGS)
#: a numbered-list marker: up to three digits, then `. ` or `) `
_LIST_NUMBER = re.compile(r"\d{1,3}[.)] ")
#: the marked characters of `_MARKED`, for lines of plain ASCII (which cannot hold invisibles)
_ASCII_MARKS = tuple("*~`|_\\")
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "´": "'", "`": "'"})


def strip_prefixes(line: str) -> str:
    """Remove leading bullets, numbered-list markers, block quotes and headings (any order)."""
    text = line.strip()
    while text and text[0] in _PREFIX_STARTS:
        if text[0].isdecimal():
            number = _LIST_NUMBER.match(text)
            if number is None:
                return text  # "2 AP ...": a number, not a list marker
            text = text[number.end():].lstrip()
            continue
        if not text.startswith(_PREFIXES):
            return text  # "**Kael**": emphasis, not a bullet
        prefix = next(p for p in _PREFIXES if text.startswith(p))
        text = text[len(prefix):].lstrip()
    return text


def _is_word_char(ch: str) -> bool:
    return ch.isalnum()


def _may_be_marked(text: str) -> bool:
    """Whether `text` holds a marked or invisible character: for ASCII (most lines), a few
    `in` scans, which are cheaper than the regex's per-character class test."""
    if not text.isascii():
        return _MARKED_OR_INVISIBLE.search(text) is not None
    for mark in _ASCII_MARKS:  # a loop, not `any`: a generator costs more than the scans
        if mark in text:
            return True
    return False


def strip_markup(text: str) -> str:
    """Discord formatting removed: `**`, `*`, `__`, `_` at word edges, `~~`, `||`, backticks,
    and zero-width characters.

    Backslash escapes of those characters are kept as the plain character. Runs of blanks
    become one space.
    """
    if not _may_be_marked(text):
        return " ".join(text.split())
    if _INVISIBLE.search(text) is not None:
        text = _INVISIBLE.sub("", text)  # zero-width characters would split words
    if _MARKED.search(text) is None:
        return " ".join(text.split())
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and (text[i + 1] in _FORMAT_CHARS or text[i + 1] in "_[]|"):
            out.append(text[i + 1])
            i += 2
            continue
        if ch in _FORMAT_CHARS:
            i += 1
            continue
        if ch == "|" and i + 1 < n and text[i + 1] == "|":
            i += 2  # spoiler bars; a single | separates clauses
            continue
        if ch == "_":
            before = text[i - 1] if i > 0 else " "
            j = i
            while j < n and text[j] == "_":
                j += 1
            after = text[j] if j < n else " "
            if _is_word_char(before) and _is_word_char(after):
                out.append(text[i:j])  # snake_case inside a word stays
            i = j
            continue
        out.append(ch)
        i += 1
    return " ".join("".join(out).split())


def clean(line: str) -> str:
    """A line's words without Discord markdown (bullets, quotes, emphasis, spoilers, code)."""
    bare = strip_prefixes(line)
    text = strip_markup(bare)
    # formatting around a bullet or quote (`**- 2 AP**`) hides it until the markup is off (when
    # nothing changed, `bare` has no prefix left)
    return strip_prefixes(text) if text != bare and text[:1] in _PREFIX_STARTS else text


def bold_name(line: str) -> str | None:
    """The name of a line that is only a bold (or underlined) name: `**Kael**` -> `Kael`."""
    text = strip_prefixes(line)
    for mark in ("***", "**", "__"):
        if len(text) > 2 * len(mark) and text.startswith(mark) and text.endswith(mark):
            inner = strip_markup(text[len(mark): -len(mark)])
            if inner and not any(ch in inner for ch in "[]:"):
                return inner
    return None


@dataclass(frozen=True, slots=True)
class Bracket:
    """A `[...]` statement inside a prose line: its inner text."""

    text: str
    start: int
    end: int


def brackets(line: str) -> list[Bracket]:
    """The outermost matched `[...]` groups of a line, in order (`[`s without a partner are
    prose, and do not hide the groups after them). A masked link `[text](url)` is not a
    statement; an escaped bracket (`\\[`) is text. One pass with a stack: linear."""
    if "[" not in line:
        return []
    pairs: list[tuple[int, int]] = []
    stack: list[int] = []
    for found in _BRACKET.finditer(line):
        at = found.start()
        if at > 0 and line[at - 1] == "\\":
            continue
        if found.group() == "[":
            stack.append(at)
        elif stack:
            pairs.append((stack.pop(), at))
    pairs.sort()
    groups: list[Bracket] = []
    reach = -1
    for start, end in pairs:
        if start < reach:
            continue  # inside a group already taken
        reach = end
        if not (end + 1 < len(line) and line[end + 1] == "("):
            groups.append(Bracket(line[start + 1: end], start, end + 1))
    return groups


#: the kind of a token: one of `TokKind`'s constants
TokKindName = Literal["word", "num", "signed", "sep", "colon", "dash", "paren"]


class TokKind:
    """Kinds of tokens of a statement, as string constants (`Tok.kind` holds one of them, and
    the grammar compares kinds with `is`). Not an enum: the grammar reads a kind at every token,
    and on Python 3.11 an enum member read through its class goes through the enum metaclass's
    `__getattr__`, several times a plain class attribute's cost (docs/benchmarks.md)."""

    WORD: Final = "word"
    NUM: Final = "num"
    SIGNED: Final = "signed"
    SEP: Final = "sep"
    COLON: Final = "colon"
    DASH: Final = "dash"
    PAREN: Final = "paren"


class Tok(NamedTuple):
    """One token: its kind, its text, its span in the text, and `key`, the case-folded text
    (words compare by it). A named tuple: tokens are many and small."""

    kind: TokKindName
    text: str
    start: int
    end: int
    key: str = ""


def _tok(kind: TokKindName, text: str, start: int, end: int) -> Tok:
    return Tok(kind, text, start, end, text.casefold())


_SEPARATORS = frozenset(",;|")
#: longer numbers are no AP, SP or Range count anyone means (and stay cheap to convert)
_MAX_DIGITS = 6
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "a": 1, "an": 1,
}
_UNIT_SUFFIXES = ("aps", "ap", "sps", "sp")


def number_of(tok: Tok | None, words: bool = True) -> int | None:
    """The value of a number token, or of a small number word (`two` AP, `a` SP)."""
    if tok is None:
        return None
    if tok.kind is TokKind.NUM:
        return int(tok.text) if len(tok.text) <= _MAX_DIGITS else None
    if words and tok.kind is TokKind.WORD:
        return _NUMBER_WORDS.get(tok.key)
    return None


_TOKEN = re.compile(
    r"""(?P<word>(?:[^\W_]|['’])[\w'’]*+(?:[-.][^\W_][\w'’]*+)*+)
    |(?P<signed>(?<![^\s,;|(:])[+-]\d{1,6}(?!\d))
    |(?P<at>->|[→@⇒➔])
    |(?P<sep>[,;|+])
    |(?P<colon>:)
    |(?P<dash>[-–—])
    |(?P<paren>\()""",
    re.VERBOSE,
)
_new_tok = tuple.__new__
_SIMPLE: dict[str, TokKindName] = {
    "sep": TokKind.SEP, "colon": TokKind.COLON, "dash": TokKind.DASH, "signed": TokKind.SIGNED,
}
#: a mark that often ends a word (`Broadsword,` `Guard:`), and its kind
_PUNCTUATION: dict[str, TokKindName] = {",": TokKind.SEP, ";": TokKind.SEP, ":": TokKind.COLON}


def tokenize(text: str) -> list[Tok]:
    """The tokens of one statement, in one left-to-right pass (each regex step consumes what it
    matches with possessive quantifiers and one-character lookarounds: nothing backtracks, so
    the scan is linear).

    Words keep letters, digits, apostrophes and inner hyphens; `+3`/`-2` at the start, after a
    blank or a separator, is a signed number (up to 6 digits); `,` `;` `|` and a lone `+` separate
    clauses; `(...)` is one token (to the end of the text when unbalanced); `->`, `→` and `@` are
    the word `at`; blanks and other symbols (".", "!", quotes, emoji) are skipped.

    The text is walked space by space: a run of only letters (most of a post) is one word, a run
    of only digits one number, and letters then `,` `;` or `:` a word and its mark, exactly as
    the regex would read them (its word characters are `str.isalnum`'s, and no token but a
    parenthesis holds a blank) without running it; any other run is read by the regex, which
    may reach past the run's end only for a parenthesis.
    """
    toks: list[Tok] = []
    pos, n = 0, len(text)
    while pos < n:
        end = text.find(" ", pos)
        if end < 0:
            end = n
        run = text[pos:end]
        if run.isalpha():
            toks.append(_new_tok(Tok, (TokKind.WORD, run, pos, end, run.casefold())))
        elif run.isdecimal():
            toks.append(_new_tok(Tok, (TokKind.NUM, run, pos, end, run)))
        elif run[-1:] in _PUNCTUATION and run[:-1].isalpha():  # `Broadsword,` `Guard:`
            mark = run[-1]
            toks.append(_new_tok(Tok, (TokKind.WORD, run[:-1], pos, end - 1, run[:-1].casefold())))
            toks.append(_new_tok(Tok, (_PUNCTUATION[mark], mark, end - 1, end, mark)))
        elif run:
            pos = _scan(toks, text, pos, end)
            continue
        pos = end + 1
    return toks


def _scan(toks: list[Tok], text: str, pos: int, end: int) -> int:
    """Tokens of `text[pos:end]` by the regex; where to go on: past the run, or past its first
    parenthesis (which may reach beyond the run)."""
    for found in _TOKEN.finditer(text, pos, end):
        kind = found.lastgroup
        if kind == "word":
            word = found.group()
            if word[0].isdecimal() or word[-1] in "'’" or "’" in word:
                _word(toks, word, found.start())
            else:  # the common case, inline (tuple.__new__ skips the named tuple's __new__)
                toks.append(_new_tok(Tok, (TokKind.WORD, word, found.start(), found.end(),
                                           word.casefold())))
        elif kind == "paren":
            return _paren(toks, text, found.start())
        elif kind == "at":
            toks.append(Tok(TokKind.WORD, "at", found.start(), found.end(), "at"))
        else:
            token = found.group()
            toks.append(Tok(_SIMPLE[kind or ""], token, found.start(), found.end(), token))
    return end + 1


def _paren(toks: list[Tok], text: str, i: int) -> int:
    """`(...)` as one token, nested parentheses inside; unbalanced: to the end of the text.

    Each `find` starts after the previous find of the same character, so the scan is linear.
    """
    depth = 1
    opening = text.find("(", i + 1)
    closing = text.find(")", i + 1)
    while True:
        if closing < 0:
            toks.append(_tok(TokKind.PAREN, text[i + 1:], i, len(text)))
            return len(text)
        if 0 <= opening < closing:
            depth += 1
            opening = text.find("(", opening + 1)
            continue
        depth -= 1
        if depth == 0:
            toks.append(_tok(TokKind.PAREN, text[i + 1: closing], i, closing + 1))
            return closing + 1
        closing = text.find(")", closing + 1)


def _word(toks: list[Tok], word: str, start: int) -> None:
    """Append a word; `2AP`/`1sp` split into a number and its unit; `5.` is the number 5."""
    if "’" in word:
        word = word.translate(_APOSTROPHES)
    if word[-1] == "'":
        word = word.rstrip("'")
        if not word:
            return
    if not word[0].isdecimal():
        toks.append(Tok(TokKind.WORD, word, start, start + len(word), word.casefold()))
        return
    if word.isdecimal():
        toks.append(Tok(TokKind.NUM, word, start, start + len(word), word))
        return
    lowered = word.casefold()
    digits = 0
    while digits < len(word) and word[digits].isdecimal():
        digits += 1
    if lowered[digits:] in _UNIT_SUFFIXES:
        toks.append(_tok(TokKind.NUM, word[:digits], start, start + digits))
        toks.append(_tok(TokKind.WORD, word[digits:], start + digits, start + len(word)))
        return
    toks.append(Tok(TokKind.WORD, word, start, start + len(word), lowered))
